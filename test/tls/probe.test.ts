import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPki } from '../../lib/pki/index.ts';
import type { TestPki } from '../../lib/pki/types.ts';
import {
  inspectServerCertificate,
  probeClientCertificate,
  probeProtocol,
  probeWeakCiphers,
  TlsProbeError,
} from '../../lib/tls/probe.ts';
import { closedPort, startSilentServer, startTlsServer, type Running } from './servers.ts';

let pki: TestPki;
let strict: Running; // TLS 1.2+, default security level
let permissive: Running; // positive control: TLS 1.0+, SECLEVEL=0, weak cipher families enabled
let mtls: Running; // requires a client certificate from partnerCa (rejectUnauthorized: true)
let mtlsSoft: Running; // requests a client certificate, answers 403 itself when it does not verify
const H = '127.0.0.1';

beforeAll(async () => {
  pki = await testPki();
  const id = { key: pki.server.privateKeyPem, cert: pki.server.certPem };
  [strict, permissive, mtls, mtlsSoft] = await Promise.all([
    startTlsServer({ ...id, minVersion: 'TLSv1.2' }),
    startTlsServer({ ...id, minVersion: 'TLSv1', ciphers: 'ALL:eNULL:aNULL:@SECLEVEL=0', dhparam: 'auto' }),
    startTlsServer({
      ...id,
      minVersion: 'TLSv1.2',
      requestCert: true,
      rejectUnauthorized: true,
      ca: pki.partnerCa.certPem,
    }),
    startTlsServer({
      ...id,
      minVersion: 'TLSv1.2',
      requestCert: true,
      rejectUnauthorized: false,
      ca: pki.partnerCa.certPem,
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([strict, permissive, mtls, mtlsSoft].filter(Boolean).map((s) => s.close()));
});

describe('probeProtocol', () => {
  it('strict server: refuses TLS 1.0/1.1 with a protocol-version alert, accepts 1.2 and 1.3', async () => {
    const ca = pki.bankCa.certPem;
    const r = await Promise.all(
      (['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const).map((version) =>
        probeProtocol({ host: H, port: strict.port, version, ca }),
      ),
    );
    expect(r.map((x) => x.accepted)).toEqual([false, false, true, true]);
    expect(r[0]!.error).toMatch(/ALERT_PROTOCOL_VERSION/);
    expect(r[1]!.error).toMatch(/ALERT_PROTOCOL_VERSION/);
    expect(r[2]!.negotiated).toBe('TLSv1.2');
    expect(r[2]!.evidence.authorized).toBe(true);
    expect(r[2]!.evidence.peerCertificate?.sha256).toBe(pki.server.sha256);
    expect(r[0]!.evidence.outcome).toMatch(/^refused:/);
  });

  it('positive control: a permissive server is reported as accepting TLS 1.0 and 1.1', async () => {
    const r10 = await probeProtocol({ host: H, port: permissive.port, version: 'TLSv1', ca: pki.bankCa.certPem });
    const r11 = await probeProtocol({ host: H, port: permissive.port, version: 'TLSv1.1' });
    expect(r10).toMatchObject({ accepted: true, negotiated: 'TLSv1' });
    expect(r11).toMatchObject({ accepted: true, negotiated: 'TLSv1.1' });
    expect(r10.evidence.protocol).toBe('TLSv1');
  });

  it('a closed port is a typed network error, never "refused"', async () => {
    const port = await closedPort();
    const e = await probeProtocol({ host: H, port, version: 'TLSv1' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TlsProbeError);
    expect(e).toMatchObject({ code: 'TLS_PROBE_NETWORK', causeCode: 'ECONNREFUSED' });
  });

  it('a silent server is a typed timeout', async () => {
    const silent = await startSilentServer();
    try {
      const e = await probeProtocol({ host: H, port: silent.port, version: 'TLSv1.2', timeoutMs: 200 }).catch(
        (x: unknown) => x,
      );
      expect(e).toMatchObject({ code: 'TLS_PROBE_TIMEOUT' });
    } finally {
      await silent.close();
    }
  });
});

describe('probeClientCertificate', () => {
  const req = { method: 'GET', path: '/v1/ping' };
  const code = () => ({ cert: pki.clients.code.certPem, key: pki.clients.code.privateKeyPem });

  for (const v of ['TLSv1.2', 'TLSv1.3'] as const) {
    it(`${v}: a registered client certificate gets an HTTP response`, async () => {
      const r = await probeClientCertificate({
        host: H,
        port: mtls.port,
        ca: pki.bankCa.certPem,
        ...code(),
        minVersion: v,
        maxVersion: v,
        request: req,
      });
      expect(r.outcome).toBe('http');
      expect(r.status).toBe(200);
      expect(r.body).toBe('ok CN=fintech-app-001 from 127.0.0.1');
      expect(r.evidence.protocol).toBe(v);
    });

    it(`${v}: without a client certificate the server's refusal is reported, not an HTTP response`, async () => {
      const r = await probeClientCertificate({
        host: H,
        port: mtls.port,
        ca: pki.bankCa.certPem,
        minVersion: v,
        maxVersion: v,
        request: req,
      });
      expect(['handshake-refused', 'connection-closed']).toContain(r.outcome);
      expect(r.status).toBeUndefined();
      expect(r.error).toBeTruthy();
      // TLS 1.3: the refusal may come after the handshake (an alert or a reset); before 1.3 it is the handshake's
      expect(`${r.outcome} ${r.error}`).toMatch(
        v === 'TLSv1.3' ? /ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED|ECONNRESET/ : /^handshake-refused /,
      );
    });

    it(`${v}: expired and untrusted-CA client certificates are refused`, async () => {
      for (const bad of [pki.negative.expired, pki.negative.untrustedCa]) {
        const r = await probeClientCertificate({
          host: H,
          port: mtls.port,
          ca: pki.bankCa.certPem,
          cert: bad.certPem,
          key: bad.privateKeyPem,
          minVersion: v,
          maxVersion: v,
          request: req,
        });
        expect(r.outcome, bad.subjectCN).not.toBe('http');
        expect(r.error).toBeTruthy();
      }
    });
  }

  it('a server that answers 403 itself is reported as http 403 with its body', async () => {
    const bad = pki.negative.expired;
    const r = await probeClientCertificate({
      host: H,
      port: mtlsSoft.port,
      ca: pki.bankCa.certPem,
      cert: bad.certPem,
      key: bad.privateKeyPem,
      request: { ...req, method: 'POST', body: '{}' },
    });
    expect(r).toMatchObject({ outcome: 'http', status: 403 });
    expect(r.body).toMatch(/CERT_HAS_EXPIRED/);
  });

  it('uses localAddress (127.0.0.2) as the source address', async () => {
    const r = await probeClientCertificate({
      host: H,
      port: mtls.port,
      ca: pki.bankCa.certPem,
      ...code(),
      localAddress: '127.0.0.2',
      request: req,
    });
    expect(r.body).toBe('ok CN=fintech-app-001 from 127.0.0.2');
  });

  it('refuses to send the request to a server that does not verify against ca', async () => {
    const e = await probeClientCertificate({
      host: H,
      port: mtls.port,
      ca: pki.partnerCa.certPem,
      ...code(),
      request: req,
    }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'TLS_PROBE_SERVER_UNTRUSTED' });
  });
});

describe('inspectServerCertificate', () => {
  it('a good server: chains to bankCa, matches 127.0.0.1 and localhost, in date, 2048 bits', async () => {
    const r = await inspectServerCertificate({ host: H, port: strict.port, ca: pki.bankCa.certPem });
    expect(r).toMatchObject({
      chainsToCa: true,
      hostnameMatches: true,
      inDate: true,
      keyBits: 2048,
      keyType: 'rsa',
      sha256: pki.server.sha256,
    });
    expect(r.subject).toContain('CN=localhost');
    const byName = await inspectServerCertificate({
      host: H,
      port: strict.port,
      ca: pki.bankCa.certPem,
      servername: 'localhost',
    });
    expect(byName.hostnameMatches).toBe(true);
  });

  it('DER ca input is normalised (Node would silently ignore DER)', async () => {
    const der = Buffer.from(pki.bankCa.certPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    const r = await inspectServerCertificate({ host: H, port: strict.port, ca: der });
    expect(r.chainsToCa).toBe(true);
  });

  it('flags an untrusted CA', async () => {
    const r = await inspectServerCertificate({ host: H, port: strict.port, ca: pki.untrustedCa.certPem });
    expect(r.chainsToCa).toBe(false);
    expect(r.chainError).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/);
  });

  it('flags a wrong host name', async () => {
    const r = await inspectServerCertificate({
      host: H,
      port: strict.port,
      ca: pki.bankCa.certPem,
      servername: 'api.evil.example',
    });
    expect(r.chainsToCa).toBe(true);
    expect(r.hostnameMatches).toBe(false);
    expect(r.hostnameError).toMatch(/api\.evil\.example/);
  });
});

describe('probeWeakCiphers', () => {
  it('strict server: every family offered and refused; those this OpenSSL lacks by a hand-built ClientHello', async () => {
    const r = await probeWeakCiphers({ host: H, port: strict.port, ca: pki.bankCa.certPem });
    const by = Object.fromEntries(r.map((x) => [x.family, x]));
    expect(Object.keys(by)).toEqual(['NULL', 'EXPORT', 'RC4', '3DES', 'aNULL']);
    for (const x of r) expect(x, x.family).toMatchObject({ offered: true, accepted: false });
    expect(by['NULL']!.method).toBe('handshake');
    expect(by['aNULL']!.method).toBe('handshake');
    // OpenSSL 3 has no EXPORT suites at all; this build has no RC4 or 3DES suites either
    for (const f of ['EXPORT', 'RC4', '3DES']) {
      expect(by[f]!.method, f).toBe('client-hello');
      expect(by[f]!.note, f).toMatch(/cannot offer .*hand-built ClientHello.*refused: alert 40 handshake_failure/);
    }
  });

  it('positive control: a permissive server is reported as accepting NULL and aNULL', async () => {
    const r = await probeWeakCiphers({ host: H, port: permissive.port });
    const by = Object.fromEntries(r.map((x) => [x.family, x]));
    expect(by['NULL']).toMatchObject({ offered: true, accepted: true });
    expect(by['NULL']!.cipher).toMatch(/NULL/);
    expect(by['aNULL']).toMatchObject({ offered: true, accepted: true });
    // a family is never "accepted" unless it was offered
    expect(r.filter((x) => !x.offered && x.accepted).map((x) => x.family)).toEqual([]);
  });
});
