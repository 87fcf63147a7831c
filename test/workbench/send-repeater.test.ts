/**
 * npm run send as a repeater, against the mock bank in UAT: --token and --header by hand, --repeat with the note on
 * an envelope accepted again, both layers' headers shown, --role (and --as kept with a deprecation line); bad
 * input said in one line with exit 2 before anything is sent (a --har that cannot be written, a client key that is
 * not its certificate's).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { FullProfileInput } from '../../lib/profile/schema.ts';
import { runSend } from '../../lib/workbench/send.ts';
import { sendJudges } from '../../scripts/send/judges.ts';
import type { TransportFactory } from '../../lib/workbench/send-transport.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const tmp = tempDirs('send-repeater-');

interface Run {
  code: number;
  out: string;
  err: string;
}

/** runSend in-process; `transports` counts the transports asked for (none: nothing was sent) */
let transports = 0;
const counting: TransportFactory = () => {
  transports++;
  return { via: 'direct', runtime: (r) => r, finish: async () => [] };
};
async function send(argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runSend(
    argv,
    { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) },
    sendJudges,
    counting,
  );
  return { code, out, err };
}

let mock: MockBank;
let profile: FullProfileInput;
let path: string;
beforeAll(async () => {
  mock = await startMockBank({ mode: 'uat', pki: await testPki() });
  profile = mock.profile('send-repeater');
  path = file('profile.json', JSON.stringify(profile));
}, 120_000);
afterAll(async () => {
  await mock?.close();
});

function file(name: string, text: string): string {
  const p = join(tmp(), name);
  writeFileSync(p, text, { mode: 0o600 });
  return p;
}

describe('--token and --header', () => {
  it('--token is sent as given, no token asked for: a token the bank never issued is refused (401)', async () => {
    const r = await send(['--profile', path, '--op', 'validate', '--token', 'not-a-token-of-the-bank']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('token: given by --token (no token asked for)');
    expect(r.out).not.toContain('/oauth/partner_auth/token');
    expect(r.out).toContain('answer HTTP 401');
  }, 60_000);

  it('--header adds a header to the call, printed with the request', async () => {
    const r = await send(['--profile', path, '--op', 'validate', '--header', 'X-Reviewer-Note: by hand']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/request POST [^\n]+\n(?: {2}[^\n]+\n)*? {2}x-reviewer-note: by hand\n/);
  }, 60_000);
});

describe('both layers shown, --repeat and the replay note', () => {
  it('the request shows the JWE headers and the inner JWS header; the answer both of its own', async () => {
    const r = await send(['--profile', path, '--op', 'validate']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}');
    expect(r.out).toContain('JWS headers (inside): {"alg":"RS256"}');
    expect(r.out).toMatch(/answer HTTP 200[\s\S]*JWE headers: \{[\s\S]*JWS headers: \{"alg":"RS256"/);
  }, 60_000);

  it('--repeat 3 sends the same envelope three times; each one the mock accepts again is noted as a replay', async () => {
    const r = await send(['--profile', path, '--op', 'validate', '--repeat', '3']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('--- send 3 of 3');
    // the requests' envelopes (each request block ends where its answer begins)
    const requests = [...r.out.matchAll(/^request POST [\s\S]*?^answer HTTP/gm)].map((m) => m[0]);
    const envelopes = requests.map((t) => /"ciphertext": "([^"]+)"/.exec(t)?.[1]);
    expect(envelopes).toHaveLength(3);
    expect(new Set(envelopes).size).toBe(1);
    const statuses = [...r.out.matchAll(/^answer HTTP (\d+)/gm)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 200, 200]);
    expect(r.out).toContain(
      'note: REPLAY ACCEPTED: the same envelope, sent 3 times for validate, was accepted 2 time(s) after the first (HTTP 200, 200, 200)',
    );
  }, 90_000);

  it('a captured envelope (--sealed) sent twice for new transfer ids: each acceptance noted as a replay', async () => {
    // an envelope as a proxy captures it: the partner's valid body, sealed by the client (lib/jose seal)
    const partner = profile.clients!.partner!;
    const envelope = await seal(
      {
        beneficiary_id: 'BEN-0001',
        amount: { value: '10.00', currency: 'AED' },
        account_id: mask(profile.customers![0]!.accountId),
      },
      { signingKey: partner.privateKey!, encryptionKey: profile.bank!.apiPublicKey! },
    );
    const captured = file('captured.json', JSON.stringify(envelope));
    const r = await send(['--profile', path, '--op', 'create', '--body', captured, '--sealed', '--repeat', '2']);
    expect(r.code, r.err).toBe(0);
    const statuses = [...r.out.matchAll(/^answer HTTP (\d+)/gm)].map((m) => Number(m[1]));
    expect(statuses).toEqual([201, 201]);
    expect(r.out).toContain(
      'note: REPLAY ACCEPTED: the same envelope, sent 2 times each for a new transfer id, was accepted 1 time(s) after the first (HTTP 201, 201)',
    );
    expect(r.out).toContain(
      'note: --sealed sends the envelope as it is: if it was captured from an earlier call, this HTTP 201 for a new transfer id is a replay the bank accepted',
    );
  }, 90_000);

  it('no note when the body is not sent again (--repeat 1 of a body send sealed itself)', async () => {
    const r = await send(['--profile', path, '--op', 'validate']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('note: ');
  }, 60_000);
});

describe('--help', () => {
  it('names the proxy and HAR options as they are, not "when the build has" one', async () => {
    const r = await send(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('when the build has');
    expect(r.out).toContain('  --proxy <url>          send through this HTTP proxy\n');
  });
});

describe('--role, and --as kept with a deprecation line', () => {
  it('--as code still calls as the code client, and says --role is its name now', async () => {
    const r = await send(['--profile', path, '--op', 'validate', '--as', 'code']);
    expect(r.code, r.err.split('\n')[0]).toBe(0);
    expect(r.err.trimEnd()).toBe('send: --as is now --role (the same meaning; --as goes in a later release)');
    expect(r.out).toContain('token (code client, customer "alice"):');
  }, 60_000);
});

describe('bad input: one line, exit 2, nothing sent', () => {
  const mismatched = (): string => {
    const clients = profile.clients as Record<string, { privateKey?: string }>;
    const swapped = { ...clients, partner: { ...clients.partner, privateKey: clients.code!.privateKey } };
    return file('mismatch.json', JSON.stringify({ ...profile, clients: swapped }));
  };
  const bad: [string, () => string[], RegExp][] = [
    [
      '--har into a missing folder',
      () => ['--profile', path, '--op', 'validate', '--har', join(tmp(), 'no', 'such', 'run.har')],
      /^send: --har .*run\.har: its folder .*such cannot be written to \(ENOENT\); nothing was sent$/,
    ],
    [
      '--har naming a folder',
      () => ['--profile', path, '--op', 'validate', '--har', tmp()],
      /^send: --har .*: a folder, not a file$/,
    ],
    [
      '--repeat 0',
      () => ['--profile', path, '--op', 'validate', '--repeat', '0'],
      /--repeat must be a whole number from 1 to 20/,
    ],
    ['--repeat 21', () => ['--profile', path, '--op', 'validate', '--repeat', '21'], /--repeat must be a whole number/],
    [
      'a --header without a colon',
      () => ['--profile', path, '--op', 'validate', '--header', 'X-A'],
      /--header "X-A": give "Name: value"/,
    ],
    [
      '--role and --as',
      () => ['--profile', path, '--op', 'get', '--role', 'code', '--as', 'code'],
      /--role and --as: give --role only/,
    ],
  ];
  it.each(bad)(
    '%s',
    async (_what, argv, line) => {
      const before = transports;
      const r = await send(argv());
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err.trimEnd()).toMatch(line);
      expect(transports).toBe(before);
    },
    60_000,
  );

  it('a client key that is not its certificate’s: one line naming both fields, exit 2, before any token', async () => {
    const r = await send(['--profile', mismatched(), '--op', 'validate']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trimEnd()).toMatch(
      /^send: profile: clients\.partner\.privateKey does not match clients\.partner\.certificate \(the key of another certificate\)$/,
    );
  }, 60_000);
});
