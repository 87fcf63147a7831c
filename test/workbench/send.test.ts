/**
 * npm run send against the mock bank (started in-process, its profile written to a file as `npm run mock` writes
 * it): each operation prints the request and the answer opened and judged, in UAT and sandbox; a forged variant is
 * refused and printed; a 422 is judged; nothing secret is printed; bad input is one line and exit 2.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mask } from '../../lib/mask/index.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { FullProfileInput } from '../../lib/profile/schema.ts';
import type { RecordedExchange } from '../../lib/http/types.ts';
import { runSend } from '../../lib/workbench/send.ts';
import { sendJudges } from '../../scripts/send/judges.ts';
import type { TransportFactory, TransportOptions } from '../../lib/workbench/send-transport.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const tmp = tempDirs('send-');

interface Run {
  code: number;
  out: string;
  err: string;
}

async function send(argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runSend(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, sendJudges);
  return { code, out, err };
}

interface Bank {
  mock: MockBank;
  profile: FullProfileInput;
  path: string;
}

async function bank(mode: 'uat' | 'sandbox'): Promise<Bank> {
  const mock = await startMockBank({ mode, pki: await testPki() });
  const profile = mock.profile(`send-${mode}`);
  const path = join(tmp(), 'profile.json');
  writeFileSync(path, JSON.stringify(profile), { mode: 0o600 });
  return { mock, profile, path };
}

let uat: Bank;
let sandbox: Bank;
beforeAll(async () => {
  [uat, sandbox] = await Promise.all([bank('uat'), bank('sandbox')]);
}, 120_000);
afterAll(async () => {
  await Promise.all([uat?.mock.close(), sandbox?.mock.close()]);
});

/** a file in a fresh folder */
function file(name: string, text: string): string {
  const path = join(tmp(), name);
  writeFileSync(path, text);
  return path;
}

/** what no output may hold: the clients' secrets and private keys, the customers' clear ids */
function expectNoSecret(r: Run, p: FullProfileInput): void {
  const text = r.out + r.err;
  const clients = Object.values(p.clients ?? {}) as { clientSecret?: string; privateKey?: string }[];
  for (const c of clients) {
    if (c.clientSecret) expect(text).not.toContain(c.clientSecret);
    if (c.privateKey) expect(text).not.toContain(c.privateKey.split('\n')[1]!);
  }
  for (const c of p.customers ?? []) expect(text).not.toContain(c.accountId);
  expect(text).not.toMatch(/PRIVATE KEY/);
}

describe('send in UAT: validate, create and get, each answer opened and judged', () => {
  it('validate prints the envelope, the payload inside, the opened answer and its judgement', async () => {
    const r = await send(['--profile', uat.path, '--op', 'validate']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('request POST https://127.0.0.1:');
    expect(r.out).toMatch(/authorization: Bearer \[REDACTED:[^\]]+\] \(token sha256:[0-9a-f]{12}\)/);
    expect(r.out).toContain('payload inside:');
    expect(r.out).toContain('"beneficiary_id"');
    expect(r.out).toMatch(/opened: JWE general decrypted with the client's key; JWS general RS256 verified/);
    expect(r.out).toContain('"debit_amount"');
    expect(r.out).toContain(
      'status: HTTP 200: the validate succeeded; a valid validate is HTTP 200: as the contract says',
    );
    expectNoSecret(r, uat.profile);
  }, 60_000);

  it('create, then get of the created transfer by --transfer-id', async () => {
    const id = `TRF-send-${Date.now()}`;
    const c = await send(['--profile', uat.path, '--op', 'create', '--transfer-id', id]);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toContain(`request PUT https://127.0.0.1:${new URL(uat.mock.url).port}/v1/transfers/${id}`);
    expect(c.out).toMatch(/answer HTTP 20[01]/);
    expect(c.out).toContain('a valid create (contract.statuses.create)');
    expect(c.out).toContain('as the contract says');
    const g = await send(['--profile', uat.path, '--op', 'get', '--transfer-id', id]);
    expect(g.code, g.err).toBe(0);
    expect(g.out).toContain('(no body)');
    expect(g.out).toMatch(/opened: JWE general decrypted/);
    expect(g.out).toContain(`"transfer_id": "${id}"`);
    expect(g.out).toContain('a get of a transfer of this customer is HTTP 200: as the contract says');
    expectNoSecret(g, uat.profile);
  }, 90_000);

  it('the partner client by default (client credentials); the code client on --role code (the code grant)', async () => {
    const r = await send(['--profile', uat.path, '--op', 'validate']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('token (partner client):');
    expect(r.out).toContain('/oauth/partner_auth/token -> HTTP 200');
    const c = await send(['--profile', uat.path, '--op', 'validate', '--role', 'code']);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toContain('token (code client, customer "alice"):');
    expect(c.out).toMatch(/GET https:\/\/127\.0\.0\.1:\d+\/oauth\/v1\/authorize\?\S+ -> HTTP 302/);
    expect(c.out).toContain('/oauth/v1/token -> HTTP 200');
    expect(c.out).toMatch(/opened: JWE general decrypted with the client's key; JWS general RS256 verified/);
    expectNoSecret(c, uat.profile);
  }, 60_000);

  it('as the internal client: the body names the emirates id its token is bound to, masked', async () => {
    const r = await send(['--profile', uat.path, '--op', 'create', '--role', 'internal']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('/oauth/internal_auth/token -> HTTP 200');
    expect(r.out).toMatch(/"emirates_id": "\d{4}x+\d{3}"/);
    expect(r.out).toContain('a valid create (contract.statuses.create) is HTTP 201 or 200: as the contract says');
    expectNoSecret(r, uat.profile);
  }, 60_000);
});

describe('send in sandbox: plain bodies', () => {
  it('validate and get of an unknown id: the plain answers printed and judged', async () => {
    const v = await send(['--profile', sandbox.path, '--op', 'validate']);
    expect(v.code, v.err).toBe(0);
    expect(v.out).not.toContain('envelope');
    expect(v.out).toContain('"debit_amount"');
    expect(v.out).toContain('as the contract says');
    const g = await send(['--profile', sandbox.path, '--op', 'get']);
    expect(g.code, g.err).toBe(0);
    expect(g.out).toContain('answer HTTP 404');
    expect(g.out).toContain('a get of a transfer id nobody created is HTTP 404: as the contract says');
    expect(g.out).toMatch(/ERR-05: no internals found/);
    expectNoSecret(g, sandbox.profile);
  }, 60_000);
});

describe('send --variant: a forged envelope of the JOSE catalogue', () => {
  it('A1 (alg none) is refused by the mock, and the refusal judged as the contract says', async () => {
    const r = await send(['--profile', uat.path, '--op', 'validate', '--variant', 'A1']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('body (variant A1: JWS alg "none" with an empty signature)');
    expect(r.out).toContain('answer HTTP 400');
    expect(r.out).toContain(
      'a forged envelope is refused (contract.statuses.joseRefused) is HTTP 400: as the contract says',
    );
  }, 60_000);

  it('a bank that accepts it (fault jose-accept-any-jws-alg) is judged NOT as the contract says', async () => {
    uat.mock.faults.set(['jose-accept-any-jws-alg']);
    try {
      const r = await send(['--profile', uat.path, '--op', 'validate', '--variant', 'A1']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('answer HTTP 200');
      expect(r.out).toContain('NOT what the contract says');
    } finally {
      uat.mock.faults.set([]);
    }
  }, 60_000);
});

describe('send judges a 422 with the errors suite', () => {
  it('an invalid amount: the 422 opened, its ERR-01 shape held; out of shape under fault error-status-number', async () => {
    const alice = uat.profile.customers![0]!;
    const doc = {
      beneficiary_id: alice.beneficiaryId,
      account_id: mask(alice.accountId),
      amount: { value: 'ten', currency: 'AED' },
    };
    const body = file('bad.json', JSON.stringify(doc));
    const r = await send(['--profile', uat.path, '--op', 'validate', '--body', body]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('answer HTTP 422');
    expect(r.out).toContain('ERR-01: the 422 body has the five string members');
    sandbox.mock.faults.set(['error-status-number']);
    try {
      const s = await send(['--profile', sandbox.path, '--op', 'validate', '--body', body]);
      expect(s.out).toContain('answer HTTP 422');
      expect(s.out).toMatch(/ERR-01: the 422 body is out of shape: .*status is not a string/);
    } finally {
      sandbox.mock.faults.set([]);
    }
  }, 60_000);

  it('an identifier echoed masked the wrong way (fault mask-echo-wrong-mask): the masking rule named', async () => {
    sandbox.mock.faults.set(['mask-echo-wrong-mask']);
    try {
      const r = await send(['--profile', sandbox.path, '--op', 'validate']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(
        /masking: answer\.\S*account_id masks the account id of customer "alice": breaks the rule \(MASK-01\/02\)/,
      );
    } finally {
      sandbox.mock.faults.set([]);
    }
  }, 60_000);

  it('a clear account id echoed (fault mask-echo-clear-id) is named, never printed', async () => {
    sandbox.mock.faults.set(['mask-echo-clear-id']);
    try {
      const r = await send(['--profile', sandbox.path, '--op', 'validate']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/masking: .*the account id of customer "alice" in clear \(MASK-04/);
      expectNoSecret(r, sandbox.profile);
    } finally {
      sandbox.mock.faults.set([]);
    }
  }, 60_000);
});

describe('send reads what goes wrong in an answer', () => {
  it('an answer signed with the wrong key (fault response-signed-wrong-key): the failed step said, and judged', async () => {
    uat.mock.faults.set(['response-signed-wrong-key']);
    try {
      const r = await send(['--profile', uat.path, '--op', 'validate']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/opened: FAILED at verify: /);
      expect(r.out).toMatch(/sealing: the sealed answer did not open \(verify: \w+\): JOSE-11's rule/);
    } finally {
      uat.mock.faults.set([]);
    }
  }, 60_000);

  it('a stack trace in an error (fault error-leaks-stack): ERR-05 names it', async () => {
    sandbox.mock.faults.set(['error-leaks-stack']);
    try {
      const r = await send(['--profile', sandbox.path, '--op', 'get']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('answer HTTP 404');
      expect(r.out).toMatch(/ERR-05: internals in the error answer: /);
    } finally {
      sandbox.mock.faults.set([]);
    }
  }, 60_000);

  it('an envelope of the reviewer sent as it is: printed with its headers, its payload unreadable to send', async () => {
    const env = file(
      'env.json',
      JSON.stringify({ protected: 'e30', recipients: [{}], iv: '', ciphertext: '', tag: '' }),
    );
    const r = await send(['--profile', uat.path, '--op', 'validate', '--body', env, '--sealed']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`body (the envelope of ${env}, sent as it is)`);
    expect(r.out).toContain('payload inside: sealed to the bank, and the profile has no bank.apiPrivateKey to open it');
    expect(r.out).toContain('answer HTTP 400');
    expect(r.out).toMatch(/status: HTTP 400: a payload refused for its JOSE layer/);
  }, 60_000);
});

describe('send hands --proxy, --proxy-ca and --har to its transport', () => {
  it('the factory gets the options, the session runs on its runtime, and it gets the exchanges (redacted)', async () => {
    const given: TransportOptions[] = [];
    const seen: RecordedExchange[] = [];
    let runtimes = 0;
    const factory: TransportFactory = (o) => {
      given.push(o);
      return {
        via: `through ${o.proxy}`,
        runtime: (r) => (runtimes++, r),
        finish: async (exchanges) => (seen.push(...exchanges), [`HAR: ${o.har}`]),
      };
    };
    let out = '';
    const argv = [
      '--profile',
      uat.path,
      '--op',
      'validate',
      '--proxy',
      'http://127.0.0.1:8080',
      '--proxy-ca',
      'ca.pem',
    ];
    const code = await runSend(
      [...argv, '--har', 'run.har'],
      { out: (t) => (out += `${t}\n`), err: () => {} },
      sendJudges,
      factory,
    );
    expect(code).toBe(0);
    expect(given).toEqual([{ proxy: 'http://127.0.0.1:8080', proxyCa: 'ca.pem', har: 'run.har' }]);
    expect(runtimes).toBe(1);
    expect(out).toContain('send validate to send-uat (uat), through http://127.0.0.1:8080');
    expect(out.trimEnd().endsWith('HAR: run.har')).toBe(true);
    expect(seen.map((e) => e.label)).toContain('send validate');
    expect(JSON.stringify(seen)).toMatch(/Bearer \[REDACTED/);
    // the sealed document, redacted as the reports keep it, for a HAR's comment
    expect(seen.find((e) => e.label === 'send validate')?.sealedPlaintext).toContain('"beneficiary_id"');
    expectNoSecret({ code, out: JSON.stringify(seen), err: '' }, uat.profile);
  }, 60_000);
});

describe('send --help', () => {
  it('lists every option and the exit codes', async () => {
    const r = await send(['--help']);
    expect(r.code).toBe(0);
    for (const o of [
      '--profile',
      '--op',
      '--body',
      '--sealed',
      '--variant',
      '--customer',
      '--transfer-id',
      '--role',
      '--token',
      '--header',
      '--repeat',
      '--proxy',
      '--proxy-ca',
      '--har',
    ])
      expect(r.out).toContain(`  ${o} `);
    expect(r.out).toMatch(/Exit codes: 0 the call was made/);
  });
});

describe('send: bad input is one line and exit 2, nothing sent', () => {
  const bad: [string, () => string[], RegExp][] = [
    ['no --profile', () => ['--op', 'validate'], /^send: --profile <file> is required$/],
    ['an unknown op', () => ['--profile', uat.path, '--op', 'delete'], /--op must be validate, create or get/],
    ['an unknown option', () => ['--profile', uat.path, '--op', 'get', '--nope'], /Unknown option '--nope'/],
    ['a broken profile', () => ['--profile', file('p.json', '{"target": '), '--op', 'get'], /^send: --profile: /],
    ['a missing profile', () => ['--profile', '/nonexistent/p.json', '--op', 'get'], /^send: --profile: /],
    [
      'an unknown customer',
      () => ['--profile', uat.path, '--op', 'validate', '--customer', 'mallory'],
      /--customer: no customer "mallory" in the profile \(alice, /,
    ],
    [
      'an unknown variant',
      () => ['--profile', uat.path, '--op', 'validate', '--variant', 'Q9'],
      /--variant: unknown variant "Q9"/,
    ],
    [
      'a body that is not JSON',
      () => ['--profile', uat.path, '--op', 'validate', '--body', file('b.json', 'amount=10')],
      /--body: .*b\.json is not JSON/,
    ],
    [
      '--sealed with --variant',
      () => ['--profile', uat.path, '--op', 'validate', '--body', 'x', '--sealed', '--variant', 'A1'],
      /give one/,
    ],
    [
      '--proxy-ca without --proxy',
      () => ['--profile', uat.path, '--op', 'get', '--proxy-ca', 'ca.pem'],
      /--proxy-ca needs --proxy/,
    ],
    [
      'a --proxy that is not a URL',
      () => ['--profile', uat.path, '--op', 'get', '--proxy', 'localhost:8080'],
      /--proxy: "localhost:8080" is not/,
    ],
    [
      'an unknown client',
      () => ['--profile', uat.path, '--op', 'get', '--role', 'bank'],
      /--role must be code, partner or internal/,
    ],
    ['--sealed without --body', () => ['--profile', uat.path, '--op', 'validate', '--sealed'], /--sealed needs --body/],
    ['a variant in sandbox', () => ['--profile', sandbox.path, '--op', 'validate', '--variant', 'A1'], /sandbox/],
    ['a body for get', () => ['--profile', uat.path, '--op', 'get', '--body', 'x.json'], /--op get sends no body/],
    [
      '--proxy without a proxy transport',
      () => ['--profile', uat.path, '--op', 'get', '--proxy', 'http://127.0.0.1:9'],
      /--proxy: /,
    ],
  ];
  it.each(bad)(
    '%s',
    async (_what, argv, line) => {
      const r = await send(argv());
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err.trimEnd()).toMatch(line);
    },
    60_000,
  );

  it('an unreachable target: exit 1 with the cause, one line', async () => {
    const dead = { ...sandbox.profile, target: { ...sandbox.profile.target, baseUrl: 'http://127.0.0.1:9' } };
    delete (dead.target as { oauthBaseUrl?: string }).oauthBaseUrl;
    const r = await send(['--profile', file('dead.json', JSON.stringify(dead)), '--op', 'validate']);
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(
      /^send: no answer from POST http:\/\/127\.0\.0\.1:9\/oauth\/partner_auth\/token \(ECONNREFUSED\): /,
    );
    expectNoSecret(r, sandbox.profile);
  }, 60_000);
});
