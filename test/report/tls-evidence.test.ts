/**
 * The HTML report shows the server certificate evidence TLS-05 records (lib/tls/server-cert.ts): the subject
 * alternative names, the key's type and size, and the chain the server presented, leaf first. The evidence comes
 * from a real handshake; the expected values are read from the certificates themselves with node's X509Certificate.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPki } from '../../lib/pki/index.ts';
import type { TestPki } from '../../lib/pki/types.ts';
import { toHtml } from '../../lib/report/html.ts';
import { scrubResults } from '../../lib/report/scrub.ts';
import { inspectServerCertificate } from '../../lib/tls/server-cert.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { startTlsServer, type Running } from '../tls/servers.ts';

let pki: TestPki;
let server: Running;
beforeAll(async () => {
  pki = await testPki();
  // the leaf and its CA: a chain of two
  server = await startTlsServer({ key: pki.server.privateKeyPem, cert: pki.server.certPem + pki.bankCa.certPem });
}, 60_000);
afterAll(() => server?.close());

const hex = (x: X509Certificate): string => x.fingerprint256.replace(/:/g, '').toLowerCase();

describe('report.html: TLS-05 certificate evidence', () => {
  it('shows the subjectAltName, the key type and size, and the presented chain', async () => {
    const inspected = await inspectServerCertificate({ host: '127.0.0.1', port: server.port, ca: pki.bankCa.certPem });
    const r = fixtureResults();
    const check = r.profiles[0]!.results[0]!;
    check.evidence.tls = [inspected.evidence];
    // as the writer renders it: scrubbed first (lib/report/write.ts)
    const page = toHtml(scrubResults(r), { resultsSha256: 'a'.repeat(64) });
    const block = page.slice(page.indexOf('<h5>TLS: server certificate'));
    const leaf = new X509Certificate(pki.server.certPem);
    const ca = new X509Certificate(pki.bankCa.certPem);
    expect(block).toContain(`<th scope="row">subject alternative names</th><td>${leaf.subjectAltName}</td>`);
    const bits = leaf.publicKey.asymmetricKeyDetails!.modulusLength;
    expect(block).toContain(`<th scope="row">key</th><td>${leaf.publicKey.asymmetricKeyType}, ${bits} bits</td>`);
    const chain = /presented chain \(leaf first\)<\/th><td><ol class="chain">(.*?)<\/ol>/s.exec(block)?.[1] ?? '';
    const items = [...chain.matchAll(/<li>(.*?)<\/li>/gs)].map((m) => m[1]!);
    expect(items).toHaveLength(2);
    expect(items[0]).toContain(hex(leaf));
    expect(items[0]).toMatch(/CN=localhost/);
    expect(items[1]).toContain(hex(ca));
  });
});
