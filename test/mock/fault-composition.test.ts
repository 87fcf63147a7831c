/**
 * Faults switched on together: a JOSE relaxation (which opens requests with lenient-open.ts) must not take back what
 * a hardening fault, or the lenient mock, allows. Each hardening fault's probe (probes-jose.ts: a hand-built
 * envelope, not the harness's cases) still sees its behaviour with a relaxation fault beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { advance, call, tlsOf, transferBody } from './helpers.ts';
import { JOSE_CASE_PROBES } from './jose-case-probes.ts';
import { tok, type X } from './probe-kit.ts';
import { PROBES } from './probes-jose.ts';

/**
 * faults that allow what the clean opener refuses (HARD-01..03, HARD-07), and the parser differential of
 * jose-duplicates-first-wins (a duplicated member: the first value checked, the last processed)
 */
const HARDENING = [
  'jose-accept-zip',
  'jose-accept-several',
  'jose-accept-duplicates',
  'jose-accept-second-spelling',
  'jose-duplicates-first-wins',
];
/**
 * every fault that relaxes one rule of a request's opening (lib/mock/jose/seal.ts: with any of them on but
 * jose-accept-plain and jose-accept-flattened, the mock opens requests with lenient-open.ts)
 */
const RELAXATIONS = [
  'jose-accept-plain',
  'jose-accept-any-jws-alg',
  'jose-accept-any-key-alg',
  'jose-accept-any-enc',
  'jose-accept-flattened',
  'jose-skip-signature-key-pin',
  'jose-accept-tampered',
  'jose-accept-unsigned',
  'jose-accept-unencrypted',
  'jose-trust-header-jwk',
  'jose-fetch-jku',
  'jose-accept-unknown-crit',
  'jose-fetch-x5u',
  'jose-trust-header-x5c',
  'jose-hs256-key-confusion',
  'jose-pbes2-unbounded',
  'jose-accept-compact',
  'jose-tag-failure-500',
  'jose-tag-unchecked-other-recipient',
  'jose-decrypt-any-known-key',
];

describe('a hardening fault beside a relaxation fault', () => {
  const x = {} as X;
  beforeAll(async () => {
    x.pki = await testPki();
    x.mock = await startMockBank({ mode: 'uat', pki: x.pki });
    x.p = x.mock.profile();
  });
  afterAll(async () => {
    await x.mock.close();
  });

  for (const hardening of HARDENING)
    it(`${hardening} is still seen beside each relaxation`, async () => {
      const hidden: string[] = [];
      for (const relaxation of RELAXATIONS) {
        x.mock.faults.set([hardening, relaxation]);
        await advance(x.p, 3601); // a fresh quota window
        if (!(await PROBES[hardening]!(x))) hidden.push(relaxation);
      }
      x.mock.faults.set([]);
      expect(hidden).toEqual([]);
    });
});

/** the lenient mock takes what the RFCs allow (zip, several recipients, last-wins duplicates), a relaxation too */
describe('the lenient mock with a relaxation fault', () => {
  const x = {} as X;
  beforeAll(async () => {
    x.pki = await testPki();
    x.mock = await startMockBank({ mode: 'uat', pki: x.pki, lenient: true });
    x.p = x.mock.profile();
  });
  afterAll(async () => {
    await x.mock.close();
  });

  /** POST /transfers/validate with a raw body: the status only (the lenient mock's answers are not opened here) */
  const send = async (raw: string): Promise<number> => {
    const client = x.p.clients.code;
    const res = await call(`${x.p.target.baseUrl}/v1/transfers/validate`, {
      method: 'POST',
      headers: {
        'X-Gateway-Client-Id': client.clientId,
        Authorization: `Bearer ${await tok(x)}`,
        'Content-Type': 'application/json',
      },
      body: raw,
      tls: tlsOf(x.p, client),
    });
    return res.status;
  };

  for (const hardening of ['jose-accept-zip', 'jose-accept-several', 'jose-accept-duplicates'])
    it(`what ${hardening} allows is still taken beside each relaxation`, async () => {
      const keys = {
        clientPrivateKey: x.p.clients.code.privateKey!,
        clientCertificate: x.p.clients.code.certificate!,
        bankPublicKey: x.p.bank!.apiPublicKey!,
        attacker: x.pki.attacker,
        doc: transferBody(x.p),
      };
      const refused: string[] = [];
      for (const relaxation of ['', ...RELAXATIONS]) {
        x.mock.faults.set(relaxation ? [relaxation] : []);
        await advance(x.p, 3601);
        if (!(await JOSE_CASE_PROBES[hardening]!(keys, send))) refused.push(relaxation || '(no fault)');
      }
      x.mock.faults.set([]);
      expect(refused).toEqual([]);
    });
});
