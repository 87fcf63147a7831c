import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { certSha256, testPki, writePkiFiles } from '../../lib/pki/index.ts';
import type { Issued, TestPki } from '../../lib/pki/types.ts';

let pki: TestPki;
beforeAll(async () => {
  pki = await testPki();
}, 60_000);

const x = (i: Issued) => new X509Certificate(i.certPem);
const bits = (i: Issued) => x(i).publicKey.asymmetricKeyDetails?.modulusLength;
/** signature verifies under the issuer's key AND issuer name/AKI match (what OpenSSL chain building needs) */
const chains = (leaf: Issued, ca: Issued) => x(leaf).checkIssued(x(ca)) && x(leaf).verify(x(ca).publicKey);
const cn = (i: Issued) => /CN=([^\n]+)/.exec(x(i).subject)?.[1];

function allIssued(p: TestPki): [string, Issued][] {
  return [
    ['bankCa', p.bankCa],
    ['server', p.server],
    ['bankApi', p.bankApi],
    ['partnerCa', p.partnerCa],
    ['untrustedCa', p.untrustedCa],
    ...Object.entries(p.clients).map(([k, v]) => [`clients.${k}`, v] as [string, Issued]),
    ...Object.entries(p.negative).map(([k, v]) => [`negative.${k}`, v] as [string, Issued]),
  ];
}

describe('test PKI shape', () => {
  it('is memoised per process', async () => {
    expect(await testPki()).toBe(pki);
  });

  it('CAs are self-signed CAs with basicConstraints cA', () => {
    for (const ca of [pki.bankCa, pki.partnerCa, pki.untrustedCa]) {
      expect(x(ca).ca).toBe(true);
      expect(chains(ca, ca)).toBe(true);
    }
    for (const [, leaf] of allIssued(pki).slice(5)) expect(x(leaf).ca).toBe(false);
  });

  it('every certificate: metadata matches, key pair matches, sha256 is the DER hash, serial positive and unique', () => {
    const serials = new Set<string>();
    expect(allIssued(pki).length).toBeGreaterThan(10);
    for (const [name, i] of allIssued(pki)) {
      expect(cn(i), name).toBe(i.subjectCN);
      expect(x(i).checkPrivateKey(createPrivateKey(i.privateKeyPem)), name).toBe(true);
      expect(i.sha256).toMatch(/^[0-9a-f]{64}$/);
      // Node's own fingerprint of the DER, not the function that computed i.sha256
      expect(i.sha256).toBe(x(i).fingerprint256.replace(/:/g, '').toLowerCase());
      expect(certSha256(x(i).raw)).toBe(i.sha256);
      expect(new Date(x(i).validTo).getTime()).toBe(Math.floor(i.notAfter.getTime() / 1000) * 1000);
      expect(i.privateKeyPem).toContain('BEGIN PRIVATE KEY'); // PKCS#8
      expect(i.publicKeyPem).toContain('BEGIN PUBLIC KEY'); // SPKI
      const serial = x(i).serialNumber;
      expect(parseInt(serial.slice(0, 2), 16) & 0x80, name).toBe(0);
      serials.add(serial);
    }
    expect(serials.size).toBe(allIssued(pki).length);
  });

  it('server certificate: CN=localhost, SAN localhost + 127.0.0.1, serverAuth, issued by bankCa, RSA 2048', () => {
    const s = x(pki.server);
    expect(s.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(s.checkHost('localhost')).toBe('localhost');
    expect(s.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(s.checkHost('evil.example')).toBeUndefined();
    expect(s.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(chains(pki.server, pki.bankCa)).toBe(true);
    expect(chains(pki.server, pki.partnerCa)).toBe(false);
    expect(bits(pki.server)).toBe(2048);
  });

  it('bankApi: CN=api.bank.test, issued by bankCa, RSA 2048', () => {
    expect(pki.bankApi.subjectCN).toBe('api.bank.test');
    expect(chains(pki.bankApi, pki.bankCa)).toBe(true);
    expect(bits(pki.bankApi)).toBe(2048);
  });

  it('registered clients: CNs, clientAuth, issued by partnerCa, 2048, in date', () => {
    expect([pki.clients.code, pki.clients.partner, pki.clients.internal].map((c) => c.subjectCN)).toEqual([
      'fintech-app-001',
      'partner-inst-001',
      'internal-app-001',
    ]);
    for (const c of Object.values(pki.clients)) {
      expect(x(c).keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
      expect(chains(c, pki.partnerCa)).toBe(true);
      expect(chains(c, pki.bankCa)).toBe(false);
      expect(bits(c)).toBe(2048);
      expect(c.notAfter.getTime()).toBeGreaterThan(Date.now());
      expect(new Date(x(c).validFrom).getTime()).toBeLessThan(Date.now());
    }
  });

  it('negative clients: weak is 1024, expired really expired, untrusted does not chain to partnerCa, unregistered is valid', () => {
    const n = pki.negative;
    expect(n.weak1024.subjectCN).toBe('weak-client-001');
    expect(bits(n.weak1024)).toBe(1024);
    expect(chains(n.weak1024, pki.partnerCa)).toBe(true);

    expect(n.expired.subjectCN).toBe('expired-client-001');
    const validTo = new Date(x(n.expired).validTo).getTime();
    expect(validTo).toBeLessThan(Date.now());
    expect(Date.now() - validTo).toBeLessThan(2 * 24 * 3600 * 1000); // "yesterday"
    expect(chains(n.expired, pki.partnerCa)).toBe(true);

    expect(n.untrustedCa.subjectCN).toBe('untrusted-client-001');
    expect(chains(n.untrustedCa, pki.partnerCa)).toBe(false);
    expect(chains(n.untrustedCa, pki.untrustedCa)).toBe(true);

    expect(n.unregistered.subjectCN).toBe('unregistered-client-001');
    expect(chains(n.unregistered, pki.partnerCa)).toBe(true);
    for (const c of Object.values(n)) expect(x(c).keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });

  it("attacker is a bare 2048-bit key pair matching no certificate but the untrusted CA's (the attacker's own CA)", () => {
    expect(Object.keys(pki.attacker).sort()).toEqual(['privateKeyPem', 'publicKeyPem']);
    const k = createPrivateKey(pki.attacker.privateKeyPem);
    expect(k.asymmetricKeyDetails?.modulusLength).toBe(2048);
    for (const [name, i] of allIssued(pki)) expect(x(i).checkPrivateKey(k), name).toBe(name === 'untrustedCa');
  });

  it('writePkiFiles writes every PEM with mode 0600', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pki-'));
    try {
      const files = await writePkiFiles(pki, join(dir, 'out'));
      expect(Object.keys(files)).toContain('server.cert');
      expect(Object.keys(files)).toContain('negative.expired.key');
      expect(Object.keys(files)).toContain('attacker.key');
      expect(Object.keys(files)).not.toContain('attacker.cert');
      expect(Object.keys(files)).toHaveLength(12 * 3 + 2);
      for (const p of Object.values(files)) expect((await stat(p)).mode & 0o777).toBe(0o600);
      expect(await readFile(files['clients.code.cert']!, 'utf8')).toBe(pki.clients.code.certPem);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
