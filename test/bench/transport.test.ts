/** npm run bench's transport yardstick (docs/performance.md): the call split, the bound's arithmetic, one real round */
import { describe, expect, it } from 'vitest';
import { testPki } from '../../lib/pki/index.ts';
import { callSplitOf, transportLines, transportRound } from '../../scripts/bench/transport.ts';
import { cryptoFloor } from '../../scripts/bench/floor.ts';

const results = (profiles: { baseUrl: string; calls: Record<string, number> }[]): string =>
  JSON.stringify({
    profiles: profiles.map((p) => ({ target: { baseUrl: p.baseUrl }, traffic: { calls: p.calls } })),
  });

describe('callSplitOf', () => {
  it("counts an https target's calls as TLS but its test clock's, and an http target's as plain", () => {
    const json = results([
      { baseUrl: 'http://127.0.0.1:1', calls: { validate: 10, clock: 2 } },
      { baseUrl: 'https://127.0.0.1:2', calls: { validate: 7, token: 3, clock: 4 } },
    ]);
    expect(callSplitOf(json)).toEqual({ tls: 10, plain: 16 });
  });

  it('is undefined for a file that names no calls or is not JSON', () => {
    expect(callSplitOf(results([{ baseUrl: 'https://x', calls: {} }]))).toBeUndefined();
    expect(callSplitOf('{"profiles": [{}]}')).toBeUndefined();
    expect(callSplitOf('not json')).toBeUndefined();
  });
});

describe('transportLines', () => {
  it('bounds a harness by (RSA CPU + transport CPU) / cores and sets the run and the goal against it', () => {
    // 4000 ops at 4000 sign/s on 2 cores: RSA CPU 1 s, floor 0.5 s
    const f = cryptoFloor({ sign: 4000, decrypt: 0, tlsServer: 0, tlsClient: 0, keygen: 0 }, 4000, 2, 0);
    const [first, second] = transportLines(
      f,
      { tls: 600, plain: 400 },
      8,
      { wallSeconds: 0.4, cpuSeconds: 0.6 },
      {
        wallSeconds: 4,
        cpuSeconds: 5,
      },
    );
    expect(first).toContain('1000 HTTP calls (600 over mutual TLS, 400 plain)');
    expect(first).toContain('0.60 CPU-s (0.60 ms per call)');
    // bound (1 + 0.6) / 2 = 0.8 s = 1.6 x floor; the run 4 / 0.8 = 5.0; beyond 5 - 1 - 0.6 = 3.4 s; goal 1.5 s
    expect(second).toContain('(1.00 + 0.60) CPU-s / 2 cores = 0.80 s = 1.6 x floor');
    expect(second).toContain('wall/bound 5.0');
    expect(second).toContain('3.40 s, 3.40 ms per call');
    expect(second).toContain('(1.50 s) leaves 0.70 s beyond the bound');
  });
});

describe('transportRound', () => {
  it('sends every call of both transports to its bare loopback server, mutual TLS verified both ways', async () => {
    const pki = await testPki();
    const m = await transportRound({
      split: { tls: 12, plain: 9 },
      inFlight: 4,
      server: { key: pki.server.privateKeyPem, cert: pki.server.certPem, ca: pki.partnerCa.certPem },
      client: { key: pki.clients.partner.privateKeyPem, cert: pki.clients.partner.certPem, ca: pki.bankCa.certPem },
    });
    expect(m.wallSeconds).toBeGreaterThan(0);
    expect(m.cpuSeconds).toBeGreaterThan(0);
  });

  it('fails when the client presents a certificate the server does not trust (the TLS is real)', async () => {
    const pki = await testPki();
    await expect(
      transportRound({
        split: { tls: 2, plain: 0 },
        inFlight: 1,
        server: { key: pki.server.privateKeyPem, cert: pki.server.certPem, ca: pki.partnerCa.certPem },
        client: {
          key: pki.negative.untrustedCa.privateKeyPem,
          cert: pki.negative.untrustedCa.certPem,
          ca: pki.bankCa.certPem,
        },
      }),
    ).rejects.toThrow();
  });
});
