/** npm run jose -- open|seal: round trips, a tampered envelope's report, bad input (exit 2), no secret printed */
import { beforeAll, describe, expect, it } from 'vitest';
import { tamper } from '../../lib/jose/craft.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { DOC, makeWorld, type World } from './jose-fixture.ts';

const tempDir = tempDirs('jose-cli-');
let w: World;
beforeAll(async () => {
  w = await makeWorld(tempDir);
});

const sealAs = async (as: 'client' | 'bank', doc: unknown = DOC, role = 'partner'): Promise<string> => {
  const r = await w.jose(['seal', '--profile', w.profile, '--as', as, '--role', role, '-'], JSON.stringify(doc));
  expect(r.code, r.err).toBe(0);
  return r.out;
};

describe('seal → open round trip', () => {
  it('as client: the bank opens what the client sealed, every step verified, the payload shown', async () => {
    const env = await sealAs('client');
    const r = await w.jose(['open', '--profile', w.profile, '--as', 'bank', w.file('req.json', env)]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('protected header: {"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}');
    expect(r.out).toMatch(
      /ok +decrypt +content key unwrapped \(RSA-OAEP-256\) with bank\.apiPrivateKey \(rsa 2048, JWK thumbprint SHA-256 [\w-]{43}\)/,
    );
    expect(r.out).toMatch(/ok +verify +RS256 signature verified with clients\.partner\.certificate/);
    expect(r.out).toContain('"purpose_code": "FAM"');
    expect(r.out).toContain('result: verified');
  });

  it('as bank: the client opens what the bank sealed (stdin), for another role too', async () => {
    const env = await sealAs('bank', DOC, 'code');
    const r = await w.jose(['open', '--profile', w.profile, '--as', 'client', '--role', 'code'], env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/decrypt with clients\.code\.privateKey .*verify with bank\.apiPublicKey/);
    expect(r.out).toContain('the response policy');
    expect(r.out).toContain('result: verified');
  });
});

describe('open of an envelope that fails a step', () => {
  it('a tampered ciphertext: the decrypt step named, the headers and sizes still shown, exit 1', async () => {
    const env = JSON.parse(await sealAs('client')) as Record<string, unknown>;
    const r = await w.jose(['open', '--profile', w.profile, '--as', 'bank'], JSON.stringify(tamper(env, 'ciphertext')));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAILED +decrypt +DECRYPT_FAILED/);
    expect(r.out).toContain('protected header: {"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}');
    expect(r.out).toMatch(/iv 16 bytes, ciphertext \d+ bytes, tag 32 bytes/);
    expect(r.out).toMatch(/- +verify +not reached/);
    expect(r.out).toContain('JWS inside: not reached');
    expect(r.out).toContain('result: FAILED at step decrypt');
  });

  it('a signature by another key (the client opens a request as if it were the bank answer): the verify step', async () => {
    const env = await sealAs('bank');
    // verified with the bank's key, but signed by the bank: opened as the bank with the client's certificate fails
    const r = await w.jose(['open', '--profile', w.profile, '--as', 'client'], env);
    expect(r.code).toBe(0);
    const forged = await w.jose(
      ['seal', '--profile', w.profile, '--as', 'client', '--role', 'code'],
      JSON.stringify(DOC),
    );
    const r2 = await w.jose(['open', '--profile', w.profile, '--as', 'bank', '--role', 'partner'], forged.out);
    expect(r2.code).toBe(1);
    expect(r2.out).toMatch(/FAILED +verify +SIGNATURE_INVALID/);
    expect(r2.out).toContain('signature 1: protected header {"alg":"RS256"}');
    expect(r2.out).toMatch(/payload, NOT verified[^\n]*\n\{\n {2}"beneficiary_id": "BEN-0001"/);
  });
});

describe('bad input: one line, exit 2', () => {
  const bad: [string, () => Promise<string[]>, string, RegExp][] = [
    ['not JSON', async () => ['open', '--profile', w.profile, '--as', 'bank'], 'hello', /^jose: stdin: not JSON/],
    [
      'not an envelope',
      async () => ['open', '--profile', w.profile, '--as', 'bank'],
      '{"a":1}',
      /not an envelope: plain JSON/,
    ],
    [
      'a compact JWS',
      async () => ['open', '--profile', w.profile, '--as', 'bank'],
      'eyJhbGciOiJub25lIn0.e30.',
      /not an envelope: a compact JWS/,
    ],
    [
      'a JWS, not encrypted',
      async () => ['open', '--profile', w.profile, '--as', 'bank'],
      '{"payload":"e30","signatures":[]}',
      /not an envelope: a JWS/,
    ],
    [
      'a wrong key',
      async () => ['open', '--profile', w.profile, '--as', 'client'],
      'SEALED_TO_BANK',
      /no content key of the envelope unwraps with clients\.partner\.privateKey/,
    ],
    [
      'an unknown variant',
      async () => ['forge', '--profile', w.profile, '--variant', 'Q99'],
      '{}',
      /unknown variant "Q99"/,
    ],
    [
      'a missing profile',
      async () => ['open', '--profile', `${w.dir}/nope.json`, '--as', 'bank'],
      '',
      /^jose: profile .*nope\.json/,
    ],
    [
      'a missing profile field',
      async () => ['open', '--profile', w.profileNoBankKey, '--as', 'bank'],
      '',
      /profile: bank\.apiPrivateKey is missing/,
    ],
    ['no --as', async () => ['seal', '--profile', w.profile], '{}', /seal: --as client\|bank is required/],
    ['a bad --as', async () => ['seal', '--profile', w.profile, '--as', 'teller'], '{}', /--as must be client or bank/],
    ['an unknown command', async () => ['peel'], '', /unknown command "peel"/],
    ['an unknown option', async () => ['open', '--bogus'], '', /^jose: Unknown option '--bogus'/],
    [
      'a payload that is no object',
      async () => ['seal', '--profile', w.profile, '--as', 'client'],
      '[1]',
      /the payload must be a JSON object/,
    ],
    [
      'a missing file',
      async () => ['seal', '--profile', w.profile, '--as', 'client', `${w.dir}/none.json`],
      '',
      /none\.json: cannot be read \(ENOENT\)/,
    ],
  ];
  it.each(bad)('%s', async (_name, args, stdin, line) => {
    const input = stdin === 'SEALED_TO_BANK' ? await sealAs('client') : stdin;
    const r = await w.jose(await args(), input);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(line);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});

describe('help', () => {
  it.each([['open'], ['seal'], ['tamper'], ['forge']])('%s --help', async (cmd) => {
    const r = await w.jose([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`npm run jose -- ${cmd} --profile`);
  });

  it('--help names every command; forge --list lists the variants, one line each', async () => {
    const h = await w.jose(['--help']);
    expect(h.code).toBe(0);
    for (const cmd of ['open', 'seal', 'tamper', 'forge', 'keys']) expect(h.out).toContain(`npm run jose -- ${cmd}`);
    const r = await w.jose(['forge', '--list']);
    expect(r.code).toBe(0);
    for (const id of ['A1', 'T3', 'N1', 'mut:single:flip:iv', 'spoil:jwk'])
      expect(r.out).toMatch(new RegExp(`^${id} +(request|answer) `, 'm'));
  });
});

describe('canary: no private key, client secret or token is printed', () => {
  it('open, seal, forge and help print no PEM private key nor client secret', async () => {
    const token = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.canary-token-value';
    const answer = await sealAs('bank', {
      access_token: token,
      client_secret: w.clientSecrets[0],
      note: w.clientSecrets[1],
    });
    const outs = [
      await w.jose(['open', '--profile', w.profile, '--as', 'client'], answer),
      await w.jose(['seal', '--profile', w.profile, '--as', 'client'], JSON.stringify(DOC)),
      await w.jose(['forge', '--profile', w.profile, '--variant', 'H1'], JSON.stringify(DOC)),
      await w.jose(['--help']),
    ];
    expect(outs[0]!.code).toBe(0);
    for (const r of outs) {
      const all = r.out + r.err;
      expect(all).not.toContain('PRIVATE KEY');
      expect(all).not.toContain(token);
      for (const s of w.clientSecrets) expect(all).not.toContain(s);
    }
  });
});
