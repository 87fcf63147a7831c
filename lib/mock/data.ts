/**
 * Registered test data: clients (fixed ids, secrets random per start), customers (clear ids drawn per start, from
 * the run's data seed when the mock is given one: they are secrets and never written to the repo) and master data.
 */
import { randomBytes, randomInt, X509Certificate } from 'node:crypto';
import type { Issued, TestPki } from '../pki/types.ts';
import { mask } from '../mask/index.ts';
import type { ExtraClient } from './types.ts';

/** `resource`: a resource server's client (MockOAuthShape.resourceServerIntrospection): it only introspects */
export type ClientKind = 'code' | 'partner' | 'internal' | 'resource';

export interface RegisteredClient {
  id: string;
  secret: string;
  kind: ClientKind;
  /** the mutual-TLS certificate registered for this client (its key also signs the client's JWS) */
  cert: Issued;
  /** registered redirect URIs (authorization-code clients) */
  redirectUris: string[];
  scopes: ReadonlySet<string>;
  /** the grants it is registered for besides its kind's (MockOptions.oneClient: every grant on one client id) */
  alsoFor?: ReadonlySet<ClientKind>;
}

/** whether the client is registered for the grants of `kind` (the customer sign-in API, a client-credentials API) */
export function registeredFor(client: RegisteredClient, kind: ClientKind): boolean {
  return client.kind === kind || client.alsoFor?.has(kind) === true;
}

/** the client id of each grant's client (MockOptions.oneClient: the code client's for every grant) */
export const CLIENT_IDS = {
  code: 'fintech-app-001',
  partner: 'partner-inst-001',
  internal: 'internal-app-001',
} as const;

/**
 * one client id registered for the code, partner and client-credentials grants, as a bank onboarding one partner
 * application does (MockOptions.oneClient): the code client, its certificate and secret, serves every grant; the
 * partner and internal clients are not registered
 */
export function oneClient(data: MockData): MockData {
  const code = data.clients.get(CLIENT_IDS.code)!;
  const shared: RegisteredClient = { ...code, alsoFor: new Set<ClientKind>(['partner', 'internal']) };
  for (const id of [CLIENT_IDS.partner, CLIENT_IDS.internal]) {
    const c = data.clients.get(id)!;
    data.clients.delete(id);
    data.clientByCert.delete(c.cert.sha256);
  }
  data.clients.set(shared.id, shared);
  data.clientByCert.set(shared.cert.sha256, shared);
  return data;
}

export interface MockCustomer {
  name: string;
  uuid: string;
  accountId: string;
  emiratesId: string;
  beneficiaries: string[];
  workflow: boolean;
}

export const SCOPES = ['transfers', 'accounts'] as const;
export const TRANSFERS_SCOPE = 'transfers';
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
/** a second registered URI, so that `redirect_url` has a meaning */
export const REDIRECT_URI_2 = 'http://127.0.0.1:9/callback2';

/** ISO 4217 master data (short list) */
export const CURRENCIES: ReadonlySet<string> = new Set(['AED', 'USD', 'EUR', 'GBP', 'SAR', 'INR', 'JPY', 'CHF']);

export const APPROVERS = [
  { name: 'Approver One', role: 'CHECKER' },
  { name: 'Approver Two', role: 'AUTHORISER' },
];

export interface MockData {
  clients: Map<string, RegisteredClient>;
  /** client id by registered certificate SHA-256 */
  clientByCert: Map<string, RegisteredClient>;
  customers: MockCustomer[];
}

/** client secrets carry the prefix mockCS_ (see the redaction test) */
export function secret(): string {
  return `mockCS_${randomBytes(24).toString('base64url')}`;
}

/**
 * a draw in [0, 1) for the customers' identifiers: seeded (MockOptions.seed, the run's data seed: the same
 * customers every run of that seed) or, without a seed, the system's random source. Identifiers only: secrets,
 * tokens and keys stay random
 */
export type Draw = () => number;
export const unseeded: Draw = () => randomInt(0, 2 ** 32) / 2 ** 32;

function digits(n: number, draw: Draw): string {
  let s = String(1 + Math.floor(draw() * 9));
  while (s.length < n) s += String(Math.floor(draw() * 10));
  return s;
}

/** a version-4 UUID's shape from the draw */
function uuid(draw: Draw): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(draw() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(draw() * 4)] ?? '8';
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function createData(pki: TestPki, draw: Draw = unseeded): MockData {
  const scopes = new Set<string>(SCOPES);
  const list: RegisteredClient[] = [
    { id: 'fintech-app-001', kind: 'code', cert: pki.clients.code, redirectUris: [REDIRECT_URI, REDIRECT_URI_2] },
    { id: 'partner-inst-001', kind: 'partner', cert: pki.clients.partner, redirectUris: [] },
    { id: 'internal-app-001', kind: 'internal', cert: pki.clients.internal, redirectUris: [] },
    { id: 'weak-client-001', kind: 'partner', cert: pki.negative.weak1024, redirectUris: [] },
    { id: 'expired-client-001', kind: 'partner', cert: pki.negative.expired, redirectUris: [] },
    { id: 'untrusted-client-001', kind: 'partner', cert: pki.negative.untrustedCa, redirectUris: [] },
  ].map((c) => ({ ...(c as Omit<RegisteredClient, 'secret' | 'scopes'>), secret: secret(), scopes }));

  // clear ids are drawn per start (the same for the same seed); masks must differ between customers so a masked id names one account,
  for (;;) {
    const customers: MockCustomer[] = [
      {
        name: 'alice',
        uuid: uuid(draw),
        accountId: digits(13, draw),
        emiratesId: '784' + digits(12, draw),
        beneficiaries: ['BEN-0001'],
        workflow: false,
      },
      {
        name: 'bob',
        uuid: uuid(draw),
        accountId: digits(19, draw),
        emiratesId: '784' + digits(12, draw),
        beneficiaries: ['BEN-0002'],
        workflow: true,
      },
      {
        name: 'carol',
        uuid: uuid(draw),
        accountId: digits(13, draw),
        emiratesId: '784' + digits(12, draw),
        beneficiaries: ['BEN-0003'],
        workflow: false,
      },
    ];
    const masks = new Set(customers.flatMap((c) => [mask(c.accountId), mask(c.emiratesId)]));
    // and their last three characters too: a bank that compares only those (fault mask-last-three-only) still
    // tells the customers apart, so that the fault breaks the masking rule and not the token binding
    const tails = new Set(customers.flatMap((c) => [c.accountId.slice(-3), c.emiratesId.slice(-3)]));
    if (masks.size === customers.length * 2 && tails.size === customers.length * 2) {
      return {
        clients: new Map(list.map((c) => [c.id, c])),
        clientByCert: new Map(list.map((c) => [c.cert.sha256, c])),
        customers,
      };
    }
  }
}

/** registers more clients (MockOptions.extraClients): certificate only, the bank holds no private key of theirs */
export function addExtraClients(data: MockData, extra: readonly ExtraClient[]): MockData {
  for (const e of extra) {
    const x = new X509Certificate(e.certPem);
    const cert: Issued = {
      certPem: x.toString(),
      publicKeyPem: x.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: '',
      sha256: x.fingerprint256.replace(/:/g, '').toLowerCase(),
      subjectCN: /^CN=(.*)$/m.exec(x.subject)?.[1] ?? e.id,
      notAfter: new Date(x.validTo),
    };
    const c: RegisteredClient = {
      id: e.id,
      kind: e.kind,
      cert,
      redirectUris: e.redirectUris ?? [],
      secret: e.secret ?? secret(),
      scopes: new Set<string>(SCOPES),
    };
    data.clients.set(c.id, c);
    data.clientByCert.set(cert.sha256, c);
  }
  return data;
}
