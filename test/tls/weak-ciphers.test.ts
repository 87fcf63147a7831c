/**
 * TLS-09 never claims more than it tested (a partial check: lib/engine/check.ts `partial`): each cipher family is a
 * case of its own in evidence.cases; the families this machine's OpenSSL cannot offer (EXPORT, RC4, 3DES) are offered
 * in a hand-built ClientHello (lib/tls/hello.ts) after its control; a family offered neither way leaves the check
 * inconclusive, naming it, never a plain pass.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import { ROOT } from '../../lib/root.ts';
import { offerSuites } from '../../lib/tls/hello.ts';
import { probeWeakCiphers, WEAK_CIPHER_FAMILIES } from '../../lib/tls/probe.ts';
import { allChecks } from '../../suites/index.ts';
import { weakCipherCases } from '../../suites/tls/ciphers.ts';
import { startTlsServer, type Running } from './servers.ts';
import { testPki } from '../../lib/pki/index.ts';

/** the cipher suites a ClientHello offers (read here independently of lib/tls/hello.ts) */
function offeredSuites(hello: Buffer): number[] {
  let at = 5 + 4 + 2 + 32; // record header, handshake header, version, random
  at += 1 + hello[at]!; // session id
  const n = hello.readUInt16BE(at);
  const out: number[] = [];
  for (let i = 0; i < n; i += 2) out.push(hello.readUInt16BE(at + 2 + i));
  return out;
}

/** a TLS 1.2 ServerHello record choosing `suite` (no extensions) */
function serverHello(suite: number): Buffer {
  const body = Buffer.concat([Buffer.from([3, 3]), Buffer.alloc(32, 7), Buffer.from([0, suite >> 8, suite & 0xff, 0])]);
  const hs = Buffer.concat([Buffer.from([2, 0, body.length >> 8, body.length & 0xff]), body]);
  return Buffer.concat([Buffer.from([0x16, 3, 3, hs.length >> 8, hs.length & 0xff]), hs]);
}

/** a server that answers a ClientHello by choosing the first of `accepts` it offers, else a handshake_failure alert */
async function scripted(accepts: number[]): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    s.once('data', (d: Buffer) => {
      const pick = accepts.find((c) => offeredSuites(d).includes(c));
      s.end(pick === undefined ? Buffer.from([0x15, 3, 3, 0, 2, 2, 40]) : serverHello(pick));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('families this OpenSSL cannot offer: a hand-built ClientHello', () => {
  test('a server that chooses an RC4 suite is reported as accepting RC4 (the others refused)', async () => {
    const s = await scripted([0x0005, 0xc02f]); // TLS_RSA_WITH_RC4_128_SHA, and the modern control
    try {
      const r = await probeWeakCiphers({ host: '127.0.0.1', port: s.port });
      const by = Object.fromEntries(r.map((x) => [x.family, x]));
      expect(by['RC4']).toMatchObject({
        method: 'client-hello',
        offered: true,
        accepted: true,
        cipher: 'TLS_RSA_WITH_RC4_128_SHA',
      });
      expect(by['3DES']).toMatchObject({ method: 'client-hello', offered: true, accepted: false });
      expect(by['EXPORT']).toMatchObject({ method: 'client-hello', offered: true, accepted: false });
      expect(weakCipherCases(r).accepted).toEqual(['RC4 (TLS_RSA_WITH_RC4_128_SHA)']);
    } finally {
      await s.close();
    }
  });

  test('a server that refuses the modern control too: those families are not verified (never passed)', async () => {
    const s = await scripted([]);
    try {
      const r = await probeWeakCiphers({ host: '127.0.0.1', port: s.port });
      const { cases, unverified } = weakCipherCases(r);
      expect(unverified).toEqual(['EXPORT', 'RC4', '3DES']);
      for (const c of cases.filter((x) => unverified.includes(x.id))) {
        expect(c).toMatchObject({ verdict: 'inconclusive', outcome: 'not verified' });
        expect(c.detail).toMatch(/control with modern suites was not answered with a ServerHello \(alert 40/);
      }
    } finally {
      await s.close();
    }
  });

  test("the hand-built offer agrees with OpenSSL's own verdict on the suites both can offer (aNULL)", async () => {
    const pki = await testPki();
    const id = { key: pki.server.privateKeyPem, cert: pki.server.certPem };
    const servers: Running[] = await Promise.all([
      startTlsServer({ ...id, minVersion: 'TLSv1.2' }),
      startTlsServer({ ...id, minVersion: 'TLSv1.2', ciphers: 'ALL:aNULL:@SECLEVEL=0', dhparam: 'auto' }),
    ]);
    try {
      const aNull = Object.keys(WEAK_CIPHER_FAMILIES.find((f) => f.family === 'aNULL')!.suites).map(Number);
      const [strict, permissive] = await Promise.all(
        servers.map((s) => offerSuites({ host: '127.0.0.1', port: s.port }, aNull)),
      );
      expect(strict).toMatchObject({ outcome: 'alert', description: 40 });
      expect(permissive).toMatchObject({ outcome: 'chosen' });
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

describe('TLS-09 against the UAT mock', () => {
  let prepared: PreparedTarget;
  beforeAll(async () => {
    prepared = await prepare(await loadProfile(`${ROOT}/profiles/mock-uat.json`));
  });
  afterAll(async () => {
    await prepared.close();
  });

  test('passes with one case per family, each refused, saying how it was offered', async () => {
    const session = await createSession(prepared.runtime);
    try {
      const tls09 = allChecks.filter((c) => c.requirements.includes('TLS-09'));
      const [r] = await runChecks(tls09, session, prepared.runtime.options);
      expect(r!.verdict, r!.reason).toBe('pass');
      const cases = r!.evidence.cases ?? [];
      expect(cases.map((c) => [c.id, c.verdict, c.outcome])).toEqual(
        ['NULL', 'EXPORT', 'RC4', '3DES', 'aNULL'].map((f) => [f, 'pass', 'refused']),
      );
      for (const f of ['EXPORT', 'RC4', '3DES'])
        expect(cases.find((c) => c.id === f)!.detail, f).toMatch(/hand-built TLS 1\.2 ClientHello/);
    } finally {
      await session.close();
    }
  });
});
