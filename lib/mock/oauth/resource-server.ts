/**
 * A resource server's client (MockOAuthShape.resourceServerIntrospection): registered for introspection only, with
 * its own mutual-TLS certificate (issued by the partner CA on the negative certificates' key: the mock tells
 * certificates apart by their SHA-256, never by their key), so that UAT binds it as every other client.
 */
import { issueCertificate } from '../../pki/issue.ts';
import type { TestPki } from '../../pki/types.ts';
import { SCOPES, secret, type MockData } from '../data.ts';

export const RESOURCE_SERVER_ID = 'resource-server-001';

const DAY_MS = 24 * 60 * 60 * 1000;

export function addResourceServer(data: MockData, pki: TestPki): MockData {
  const now = Date.now();
  const key = pki.negative.unregistered;
  const cert = issueCertificate({
    cn: RESOURCE_SERVER_ID,
    keys: { privateKeyPem: key.privateKeyPem, publicKeyPem: key.publicKeyPem },
    role: 'client',
    issuer: pki.partnerCa,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 365 * DAY_MS),
  });
  const c = { id: RESOURCE_SERVER_ID, kind: 'resource' as const, cert, redirectUris: [], secret: secret() };
  const client = { ...c, scopes: new Set<string>(SCOPES) };
  data.clients.set(client.id, client);
  data.clientByCert.set(cert.sha256, client);
  return data;
}
