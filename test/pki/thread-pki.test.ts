/**
 * certify's test PKI is made on the mocks' worker thread (lib/mock/server/thread.ts testPki) and adopted as the process's
 * (lib/pki adoptTestPki), so that the main thread neither loads the certificate builder nor issues the certificates
 * (docs/performance.md). In its own file: the process-wide PKI of this file's module instance is the adopted one.
 */
import { X509Certificate } from 'node:crypto';
import { expect, it } from 'vitest';
import { adoptTestPki, testPki } from '../../lib/pki/index.ts';
import { startMockThread } from '../../lib/mock/server/thread.ts';

it(
  "the thread's PKI, adopted, is the process's; a thread that only made the PKI ends at once",
  { timeout: 60_000 },
  async () => {
    const thread = startMockThread();
    try {
      const made = thread.testPki();
      expect(thread.testPki()).toBe(made);
      adoptTestPki(made);
      const pki = await testPki();
      expect(pki).toBe(await made);
      // a whole 2048-bit PKI, the server's certificate issued by the bank's CA
      const server = new X509Certificate(pki.server.certPem);
      expect(server.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
      expect(server.checkIssued(new X509Certificate(pki.bankCa.certPem))).toBe(true);
      expect(pki.server.notAfter).toBeInstanceOf(Date);
      expect(Object.keys(pki.negative).sort()).toEqual(['expired', 'unregistered', 'untrustedCa', 'weak1024']);
      // a later adoption does not replace the process's PKI
      adoptTestPki(Promise.reject(new Error('not this one')));
      expect(await testPki()).toBe(pki);
    } finally {
      await thread.shutdown();
    }
    expect(thread.problems).toEqual([]);
  },
);
