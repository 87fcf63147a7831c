/**
 * certify --list's PKI (docs/performance.md: --list under 0.5 s): a listing sends nothing, so its process's PKI has
 * 1024-bit keys (a tenth of the key generation), the same certificates and roles; the process's later testPki() shares
 * it. In its own file: the process-wide PKI of this file's module instance is the listing's.
 */
import { X509Certificate } from 'node:crypto';
import { expect, it } from 'vitest';
import { testPki, testPkiForListing } from '../../lib/pki/index.ts';

it("is the process's PKI, with 1024-bit keys and the full PKI's certificates", async () => {
  const listing = await testPkiForListing();
  expect(await testPki()).toBe(listing);
  const bits = (pem: string) => new X509Certificate(pem).publicKey.asymmetricKeyDetails?.modulusLength;
  expect(
    [listing.bankCa, listing.server, listing.bankApi, listing.clients.partner].map((i) => bits(i.certPem)),
  ).toEqual([1024, 1024, 1024, 1024]);
  expect(new X509Certificate(listing.server.certPem).checkIssued(new X509Certificate(listing.bankCa.certPem))).toBe(
    true,
  );
  expect(Object.keys(listing.negative).sort()).toEqual(['expired', 'unregistered', 'untrustedCa', 'weak1024']);
});
