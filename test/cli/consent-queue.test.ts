/**
 * Script (and manual) consents of a session are given one at a time: concurrent checks that each need a customer's
 * consent queue up behind one another (a person answers one URL at a time; the callback listener holds one port).
 * The login script here refuses to run while another copy of it runs, so an overlap fails the test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../lib/http/client.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { createTokens, type TokenState } from '../../lib/engine/session/tokens.ts';
import { FullProfile } from '../../lib/profile/schema.ts';

const tmp = mkdtempSync(join(tmpdir(), 'consent-queue-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const LOGIN = `import { openSync, closeSync, unlinkSync } from 'node:fs';
const lock = process.argv.at(-2);
const url = new URL(process.argv.at(-1));
let fd;
try { fd = openSync(lock, 'wx'); } catch { console.error('another consent is in progress'); process.exit(1); }
setTimeout(() => {
  closeSync(fd); unlinkSync(lock);
  console.log('http://127.0.0.1:9/cb?code=C-' + Math.random().toString(36).slice(2) + '&state=' + url.searchParams.get('state'));
}, 150);
`;

describe('consent queue', () => {
  it('script consents run one at a time, and each is counted', async () => {
    const script = join(tmp, 'login.mjs');
    writeFileSync(script, LOGIN);
    const lock = join(tmp, 'lock');
    const profile = FullProfile.parse({
      name: 'queued',
      environment: 'sandbox',
      target: {
        baseUrl: 'http://127.0.0.1:9',
        consent: { mode: 'script', command: `"${process.execPath}" "${script}" "${lock}"`, timeoutSeconds: 20 },
      },
      clients: {
        code: { clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:9/cb' },
        partner: { clientId: 'p', clientSecret: 's' },
      },
      customers: [
        { name: 'a', uuid: 'u1', accountId: '1234567890123', beneficiaryId: 'B1' },
        { name: 'b', uuid: 'u2', accountId: '9876543210987', beneficiaryId: 'B2' },
      ],
    });
    const redactor = createRedactor();
    const http = createHttpClient({ redactor, defaultTimeoutMs: 1000 });
    const state: TokenState = { clockOffsetSeconds: 0, caches: new Map() };
    const tokens = createTokens({
      profile,
      options: defaultRunOptions,
      redactor,
      http,
      state,
      send: () => Promise.reject(new Error('no traffic expected')),
      identity: () => undefined,
    });
    const c = profile.customers;
    const got = await Promise.all([tokens.authorize(c[0]!), tokens.authorize(c[1]!), tokens.authorize(c[0]!)]);
    expect(got.every((g) => g.code?.startsWith('C-'))).toBe(true);
    expect(new Set(got.map((g) => g.code)).size).toBe(3);
    expect(state.consents).toBe(3);
    await http.close();
  }, 60_000);
});
