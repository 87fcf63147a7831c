/**
 * lib/workbench/variants.ts: every listed variant builds with a profile's keys, and the harness's opener refuses
 * it (a request variant: the bank's request policy, as the bank; an answer variant: the response policy, as the
 * client). The genuine ones open to the document they were given: spoil:replayed (CLI-09's: the binding is judged
 * by the client, not the opener) and the second spellings of HARD-07 that jose decodes (the same bytes: no MUST). forge prints the variant the catalogue builds.
 */
import { describe, expect, it } from 'vitest';
import { open } from '../../lib/jose/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { buildVariant, listVariants, VariantError, type VariantKeys } from '../../lib/workbench/variants.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { DOC, makeWorld } from './jose-fixture.ts';

const tempDir = tempDirs('jose-variants-');

async function keys(): Promise<VariantKeys> {
  const pki = await testPki();
  return {
    clientPrivateKey: pki.clients.partner.privateKeyPem,
    clientCertificate: pki.clients.partner.certPem,
    bankPublicKey: pki.bankApi.certPem,
    bankPrivateKey: pki.bankApi.privateKeyPem,
  };
}

describe('the catalogue of forgeries', () => {
  it('lists the JOSE catalogue, the mutations and the spoils, ids unique', async () => {
    const vs = await listVariants();
    const ids = vs.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'S1',
      'A1',
      'E11',
      'T5',
      'H2',
      'H7',
      'N10',
      'mut:two-signatures:swap:signature',
      'spoil:replayed',
    ])
      expect(ids).toContain(id);
    expect(vs.find((v) => v.id === 'A1')).toMatchObject({ requirement: 'JOSE-02', side: 'request' });
    expect(vs.find((v) => v.id === 'spoil:compact-jwe')).toMatchObject({ requirement: 'JOSE-05', side: 'answer' });
  });

  it('every variant builds and the harness opener refuses it (spoil:replayed opens to its document)', async () => {
    const k = await keys();
    const vs = await listVariants();
    const unbuilt: string[] = [];
    const accepted: { id: string; requirement: string; payload: unknown }[] = [];
    for (const v of vs) {
      const built = await buildVariant(v.id, DOC, k).catch((e: unknown) => {
        unbuilt.push(`${v.id}: ${(e as Error).message}`);
        return undefined;
      });
      if (!built) continue;
      const opened = await open(
        built.body,
        v.side === 'request'
          ? { decryptionKey: k.bankPrivateKey!, verificationKey: k.clientCertificate, policy: 'request' }
          : { decryptionKey: k.clientPrivateKey, verificationKey: k.bankPublicKey, policy: 'response' },
      );
      if (opened.ok) accepted.push({ id: v.id, requirement: v.requirement, payload: opened.payload });
    }
    // E7 reads the target's TLS server key: offline it cannot be built, and says so
    expect(unbuilt).toEqual([expect.stringMatching(/^E7: variant E7 cannot be built here: no TLS server certificate/)]);
    // a second spelling of the same bytes breaks no MUST: refusing it is HARD-07's hardening, which the harness's
    // opener does not add (jose decodes some of them); the only other genuine envelope is the replayed answer
    expect(accepted.map((a) => a.id)).toContain('spoil:replayed');
    expect(accepted.filter((a) => a.requirement !== 'HARD-07').map((a) => a.id)).toEqual(['spoil:replayed']);
    expect(accepted.length).toBeLessThan(vs.length / 10);
    for (const a of accepted) expect(a.payload, a.id).toEqual(DOC);
  });

  it('E7 is encrypted to the TLS server key the environment reads', async () => {
    const pki = await testPki();
    const { body } = await buildVariant('E7', DOC, await keys(), {
      tlsServerKey: () => Promise.resolve(pki.server.publicKeyPem),
    });
    const asBank = await open(body, {
      decryptionKey: pki.bankApi.privateKeyPem,
      verificationKey: pki.clients.partner.certPem,
    });
    const asServer = await open(body, {
      decryptionKey: pki.server.privateKeyPem,
      verificationKey: pki.clients.partner.certPem,
    });
    expect(asBank.ok).toBe(false);
    expect(asServer).toMatchObject({ ok: true, payload: DOC });
  });

  it('an answer variant without the bank private key, and an unknown id, are VariantErrors', async () => {
    const { bankPrivateKey: _omitted, ...noBank } = await keys();
    await expect(buildVariant('spoil:jwk', DOC, noBank)).rejects.toThrow(/needs bank\.apiPrivateKey/);
    await expect(buildVariant('nope', DOC, noBank)).rejects.toBeInstanceOf(VariantError);
  });

  it('jku and x5u point at the key URL given', async () => {
    const pki = await testPki();
    const { body } = await buildVariant('H2', DOC, await keys(), { keyUrl: 'http://127.0.0.1:4711' });
    const r = await open(body, {
      decryptionKey: pki.bankApi.privateKeyPem,
      verificationKey: pki.clients.partner.certPem,
    });
    expect(r.ok).toBe(false);
    expect(r.jwsHeader).toMatchObject({ jku: 'http://127.0.0.1:4711/jwks.json' });
  });
});

describe('npm run jose -- forge', () => {
  it('prints the variant: A1 opens to a JWS alg none; a compact one as its text; an answer spoil to the client', async () => {
    const w = await makeWorld(tempDir);
    const a1 = await w.jose(['forge', '--profile', w.profile, '--variant', 'A1'], JSON.stringify(DOC));
    expect(a1.code, a1.err).toBe(0);
    const opened = await w.jose(['open', '--profile', w.profile, '--as', 'bank'], a1.out);
    expect(opened.code).toBe(1);
    expect(opened.out).toMatch(/FAILED +jws-header +JWS_ALG_NOT_ALLOWED/);
    expect(opened.out).toContain('protected header {"alg":"none"}');
    const s2 = await w.jose(['forge', '--profile', w.profile, '--variant', 'S2'], JSON.stringify(DOC));
    expect(s2.out.trim()).toMatch(/^[\w-]+(\.[\w-]*){4}$/);
    const spoil = await w.jose(['forge', '--profile', w.profile, '--variant', 'spoil:rs512'], JSON.stringify(DOC));
    const asClient = await w.jose(['open', '--profile', w.profile, '--as', 'client'], spoil.out);
    expect(asClient.out).toMatch(/FAILED +jws-header +JWS_ALG_NOT_ALLOWED: JWS alg "RS512"/);
    const noKey = await w.jose(['forge', '--profile', w.profileNoBankKey, '--variant', 'spoil:rs512'], '{}');
    expect(noKey).toMatchObject({ code: 2, out: '' });
    expect(noKey.err).toMatch(
      /^jose: variant spoil:rs512 is an answer signed as the bank: the profile needs bank\.apiPrivateKey\n$/,
    );
  });

  it('forge --list: one line per variant, without a profile', async () => {
    const w = await makeWorld(tempDir);
    const r = await w.jose(['forge', '--list']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength((await listVariants()).length);
  });
});
