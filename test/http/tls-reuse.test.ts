/**
 * TLS reuse (lib/http/connections/tls-reuse.ts, docs/performance.md): the API client and bursts resume the TLS sessions of one
 * identity to one server, and the server still sees that identity's certificate and its own verdict on it (OpenSSL
 * keeps both in the session); another identity is never offered the session.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { burst } from '../../lib/http/burst/burst.ts';
import { createHttpClient } from '../../lib/http/client.ts';
import { createRedactor } from '../../lib/http/record/redact.ts';
import { tlsReuseFor } from '../../lib/http/connections/tls-reuse.ts';
import type { HttpClient, Identity } from '../../lib/http/types.ts';
import { testPki, type Issued, type TestPki } from '../../lib/pki/index.ts';
import { json, startMtls, type TestServer } from './servers.ts';

interface Seen {
  cn?: string;
  reused: boolean;
  authorized: boolean;
}

let pki: TestPki;
let server: TestServer;
let client: HttpClient;

function seen(req: IncomingMessage): Seen {
  const s = req.socket as TLSSocket;
  const cn = s.getPeerX509Certificate()?.subject.match(/CN=([^\n]+)/)?.[1];
  return { ...(cn ? { cn } : {}), reused: s.isSessionReused(), authorized: s.authorized };
}

const identity = (name: string, c: Issued): Identity => ({
  name,
  certificate: c.certPem,
  privateKey: c.privateKeyPem,
  ca: pki.bankCa.certPem,
});

/** one call on a connection of its own (the server closes it after answering) */
async function call(id: Identity): Promise<Seen> {
  const r = await client.send({ method: 'GET', url: `${server.url}/`, identity: id });
  return r.json as Seen;
}

/**
 * resolves once a session of `id` to the server is kept (the ticket comes after the handshake, on its own): an event,
 * polled; the bound only stops a test that would hang
 */
async function sessionKept(id: Identity): Promise<void> {
  const u = new URL(server.url);
  const reuse = tlsReuseFor(undefined);
  for (let i = 0; i < 2000 && !reuse.session(id, u.hostname, u.port || 443); i++)
    await new Promise((r) => setTimeout(r, 5));
}

beforeAll(async () => {
  pki = await testPki();
  server = await startMtls(pki, (req, res) => json(res, 200, seen(req), { connection: 'close' }));
  client = createHttpClient({ redactor: createRedactor(), defaultTimeoutMs: 5000 });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

it('a later connection of the same identity resumes its session, the server still sees its certificate', async () => {
  expect.hasAssertions();
  const code = identity('code', pki.clients.code);
  const first = await call(code);
  // the session ticket comes after the handshake: the next connections can offer it
  await sessionKept(code);
  const later = [await call(code), await call(code)];
  expect(first).toEqual({ cn: 'fintech-app-001', reused: false, authorized: true });
  expect(later).toEqual([
    { cn: 'fintech-app-001', reused: true, authorized: true },
    { cn: 'fintech-app-001', reused: true, authorized: true },
  ]);
});

it("another identity never resumes the first one's session, and a refused certificate stays refused", async () => {
  expect.hasAssertions();
  const expired = identity('expired', pki.negative.expired);
  const first = await call(expired);
  await sessionKept(expired);
  const later = await call(expired);
  expect(first).toEqual({ cn: 'expired-client-001', reused: false, authorized: false });
  expect(later).toEqual({ cn: 'expired-client-001', reused: true, authorized: false });
});

it("a burst's connections (one each) resume the API calls' session of the same identity", async () => {
  expect.hasAssertions();
  const partner = identity('partner', pki.clients.partner);
  await call(partner);
  await sessionKept(partner);
  const r = await burst([1, 2].map(() => ({ method: 'POST', url: `${server.url}/`, body: 'x=1', identity: partner })));
  expect(r.replies.map((x) => x.response?.json)).toEqual([
    { cn: 'partner-inst-001', reused: true, authorized: true },
    { cn: 'partner-inst-001', reused: true, authorized: true },
  ]);
});
