/**
 * Fault probes: JOSE: the server-side JOSE negative cases (8a) and the sealing of requests, responses and tokens.
 * Gathered by test/mock/faults.test.ts (every test/mock/probes-*.ts), which runs each without and with its fault.
 */
import { exportJWK, FlattenedEncrypt, FlattenedSign, GeneralSign } from 'jose';
import { expect } from 'vitest';
import { craftJwe, craftJws, tamper } from '../../lib/jose/craft.ts';
import { privateKeyFromPem, publicKeyFromPem, seal } from '../../lib/jose/index.ts';
import { attacker } from '../../lib/negative/envelopes.ts';
import { sealedBase } from '../../lib/negative/mutations.ts';
import { respelled } from '../../lib/negative/spellings.ts';
import { JOSE_CASE_PROBES } from './jose-case-probes.ts';
import { api, authorizeUrl, call, tlsOf, tokenCall, transferBody } from './helpers.ts';
import { openAnswer } from './open-answer.ts';
import {
  type Probe,
  type X,
  enc,
  jweText,
  jwsText,
  rawStatus,
  rawValidate,
  tok,
  validateResponseEnvelope,
} from './probe-kit.ts';

const joseCaseProbes: Record<string, Probe> = Object.fromEntries(
  Object.entries(JOSE_CASE_PROBES).map(([id, probe]) => [
    id,
    (x: X) =>
      probe(
        {
          clientPrivateKey: x.p.clients.code.privateKey!,
          clientCertificate: x.p.clients.code.certificate!,
          bankPublicKey: x.p.bank!.apiPublicKey!,
          attacker: x.pki.attacker,
          doc: transferBody(x.p),
        },
        (raw) => rawStatus(x, raw),
      ),
  ]),
);

export const PROBES: Record<string, Probe> = {
  // JOSE cases (8a)
  ...joseCaseProbes,
  // JOSE
  // HARD-07: the JWE protected header written with non-zero padding bits (the same bytes), accepted
  'jose-accept-second-spelling': async (x) => {
    const keys = {
      clientPrivateKey: x.p.clients.code.privateKey!,
      clientCertificate: x.p.clients.code.certificate!,
      bankPublicKey: x.p.bank!.apiPublicKey!,
      attacker: await attacker(),
    };
    const respelt = respelled(sealedBase(keys, transferBody(x.p), 'single'), 'protected', 'pad-bits');
    if (!respelt) throw new Error('no second spelling of the protected header');
    return rawValidate(x, JSON.stringify(respelt.envelope));
  },
  'jose-accept-plain': (x) => rawValidate(x, JSON.stringify(transferBody(x.p))),
  'jose-accept-any-jws-alg': async (x) =>
    rawValidate(x, await jweText(x, await jwsText(x, transferBody(x.p), 'RS512'))),
  'jose-accept-any-key-alg': async (x) => {
    const rsa15 = craftJwe({
      plaintext: await jwsText(x, transferBody(x.p)),
      recipientPublicKeyPem: x.p.bank!.apiPublicKey!,
      alg: 'RSA1_5',
      enc: 'A256CBC-HS512',
      form: 'general',
    });
    const oaep1 = await jweText(x, await jwsText(x, transferBody(x.p)), 'A256CBC-HS512', 'RSA-OAEP');
    return (await rawValidate(x, JSON.stringify(rsa15))) && (await rawValidate(x, oaep1));
  },
  'jose-accept-any-enc': async (x) => rawValidate(x, await jweText(x, await jwsText(x, transferBody(x.p)), 'A256GCM')),
  'jose-accept-flattened': async (x) => {
    const jws = await new FlattenedSign(enc(transferBody(x.p)))
      .setProtectedHeader({ alg: 'RS256' })
      .sign(privateKeyFromPem(x.p.clients.code.privateKey!));
    const jwe = await new FlattenedEncrypt(enc(jws))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' })
      .encrypt(publicKeyFromPem(x.p.bank!.apiPublicKey!));
    return rawValidate(x, JSON.stringify(jwe));
  },
  'jose-skip-signature-key-pin': async (x) =>
    rawValidate(x, await jweText(x, await jwsText(x, transferBody(x.p), 'RS256', x.pki.attacker.privateKeyPem))),
  'jose-decrypt-any-known-key': async (x) =>
    rawValidate(
      x,
      await jweText(x, await jwsText(x, transferBody(x.p)), 'A256CBC-HS512', 'RSA-OAEP-256', x.pki.server.certPem),
    ),
  'jose-accept-tampered': async (x) => {
    const sealed = await seal(transferBody(x.p), {
      signingKey: x.p.clients.code.privateKey!,
      encryptionKey: x.p.bank!.apiPublicKey!,
    });
    return rawValidate(x, JSON.stringify(tamper(sealed as unknown as Record<string, unknown>, 'tag')));
  },
  'jose-accept-unsigned': async (x) => rawValidate(x, await jweText(x, JSON.stringify(transferBody(x.p)))),
  'jose-accept-unencrypted': async (x) => rawValidate(x, await jwsText(x, transferBody(x.p))),
  'jose-trust-header-jwk': async (x) => {
    const jwk = await exportJWK(publicKeyFromPem(x.pki.attacker.publicKeyPem));
    const jws = await new GeneralSign(enc(transferBody(x.p)))
      .addSignature(privateKeyFromPem(x.pki.attacker.privateKeyPem))
      .setProtectedHeader({ alg: 'RS256', jwk })
      .sign();
    return rawValidate(x, await jweText(x, JSON.stringify(jws)));
  },
  'jose-fetch-jku': async (x) => {
    const jws = await new GeneralSign(enc(transferBody(x.p)))
      .addSignature(privateKeyFromPem(x.pki.attacker.privateKeyPem))
      .setProtectedHeader({ alg: 'RS256', jku: x.jwksUrl })
      .sign();
    return rawValidate(x, await jweText(x, JSON.stringify(jws)));
  },
  'jose-accept-unknown-crit': async (x) => {
    const jws = craftJws({
      payload: JSON.stringify(transferBody(x.p)),
      protectedHeader: { alg: 'RS256', crit: ['urn:example:x'], 'urn:example:x': 1 },
      signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: x.p.clients.code.privateKey! },
      form: 'general',
    });
    return rawValidate(x, await jweText(x, JSON.stringify(jws)));
  },
  'response-unsealed': async (x) => !('recipients' in (await validateResponseEnvelope(x))),
  'response-wrong-enc': async (x) => {
    const env = await validateResponseEnvelope(x);
    const h = JSON.parse(Buffer.from(String(env.protected), 'base64url').toString()) as { enc?: string };
    return h.enc !== 'A256CBC-HS512';
  },
  // read with the tests' opener (open-answer.ts), not the harness's: the JWE opens, the JWS does not verify
  'response-signed-wrong-key': async (x) => {
    const env = JSON.stringify(await validateResponseEnvelope(x));
    try {
      await openAnswer(env, x.p.clients.code.privateKey!, x.p.bank!.apiPublicKey!);
      return false;
    } catch (e) {
      return e instanceof Error && e.message.startsWith("the answer's JWS");
    }
  },
  'response-flattened': async (x) => {
    const env = await validateResponseEnvelope(x);
    return !('recipients' in env) && 'ciphertext' in env;
  },
  'cc-token-accept-plain': async (x) => {
    const c = x.p.clients.partner;
    const r = await call(`${x.p.target.baseUrl}/oauth/partner_auth/token`, {
      method: 'POST',
      headers: {
        'X-Gateway-Client-Id': c.clientId,
        'X-Gateway-Client-Secret': c.clientSecret,
        MsgId: 'm1',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ grant_type: 'client_credentials', scope: 'transfers' }),
      tls: tlsOf(x.p, c),
    });
    return r.status === 200;
  },
  'cc-token-response-unsealed': async (x) => {
    const c = x.p.clients.partner;
    const r = await call(`${x.p.target.baseUrl}/oauth/partner_auth/token`, {
      method: 'POST',
      headers: {
        'X-Gateway-Client-Id': c.clientId,
        'X-Gateway-Client-Secret': c.clientSecret,
        MsgId: 'm2',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(
        await seal(
          { grant_type: 'client_credentials', scope: 'transfers' },
          { signingKey: c.privateKey!, encryptionKey: x.p.bank!.apiPublicKey! },
        ),
      ),
      tls: tlsOf(x.p, c),
    });
    return 'access_token' in (r.json as object);
  },
  'token-response-sealed': async (x) => {
    const r = await call(await authorizeUrl(x.p), { tls: tlsOf(x.p, x.p.clients.code) });
    const code = new URL(r.headers.location!).searchParams.get('code')!;
    const t = await tokenCall(x.p, { grant_type: 'authorization_code', code });
    return !('access_token' in (t.json as object));
  },
  'jose-side-effect-on-refusal': async (x) => {
    const token = await tok(x);
    const id = `se-${Math.random().toString(36).slice(2)}`;
    const bad = await jweText(x, await jwsText(x, transferBody(x.p), 'RS256', x.pki.attacker.privateKeyPem));
    const put = await api(x.p, {
      method: 'PUT',
      path: `/transfers/${id}`,
      token,
      raw: bad,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(put.status).toBe(400);
    return (await api(x.p, { method: 'GET', path: `/transfers/${id}`, token })).status === 200;
  },
};
