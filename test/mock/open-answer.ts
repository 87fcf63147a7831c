/**
 * The tests' own reading of the mock's sealed answers: jose's general-serialization primitives with the algorithms
 * and keys pinned, independent of the harness (lib/jose's open is what the checks judge a bank with: the tests never
 * judge the mock with it). What JOSE-11 asks of an answer, no more: a general JWE to the client's key (RSA-OAEP-256,
 * A256CBC-HS512; several recipients and zip DEF as RFC 7516 allows them: the lenient mock's answers have both)
 * around a general JWS RS256 by the bank's API key, the payload JSON.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { generalDecrypt, generalVerify, type GeneralJWE, type GeneralJWS } from 'jose';

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** the largest inflated plaintext read (jose's own default is 250 kB) */
const MAX_INFLATED = 1024 * 1024;

/** the payload of a sealed answer; throws (naming the layer) when it is not sealed as JOSE-11 asks */
export async function openAnswer(
  text: string,
  clientPrivateKeyPem: string,
  bankPublicKeyPem: string,
): Promise<unknown> {
  const layer = async <T>(what: string, f: () => Promise<T> | T): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      throw new Error(`the answer's ${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  };
  const jwe = await layer('JWE', async () => {
    const { plaintext } = await generalDecrypt(JSON.parse(text) as GeneralJWE, createPrivateKey(clientPrivateKeyPem), {
      keyManagementAlgorithms: ['RSA-OAEP-256'],
      contentEncryptionAlgorithms: ['A256CBC-HS512'],
      maxDecompressedLength: MAX_INFLATED,
    });
    return JSON.parse(utf8.decode(plaintext)) as GeneralJWS;
  });
  return layer('JWS', async () => {
    const { payload } = await generalVerify(jwe, createPublicKey(bankPublicKeyPem), { algorithms: ['RS256'] });
    return JSON.parse(utf8.decode(payload)) as unknown;
  });
}
