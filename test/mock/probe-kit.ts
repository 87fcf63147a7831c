/**
 * The fault probes' kit (test/mock/faults.test.ts runs every probe without and with its fault): the types X and
 * Probe, and the calls the probes share. A probe answers true when the faulty behaviour is seen.
 */
import tls from 'node:tls';
import { GeneralEncrypt, GeneralSign } from 'jose';
import { privateKeyFromPem, publicKeyFromPem, seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { type MockBank } from '../../lib/mock/index.ts';
import type { TestPki } from '../../lib/pki/types.ts';
import { api, authorizeUrl, call, ccToken, codeFlow, tlsOf, transferBody, type Profile } from './helpers.ts';

// probes: true when the faulty behaviour is seen

export interface X {
  p: Profile;
  mock: MockBank;
  pki: TestPki;
  jwksUrl: string;
}
export type Probe = (x: X) => Promise<boolean>;

export const tok = async (x: X, customer = 0): Promise<string> =>
  (await codeFlow(x.p, customer)).access_token as string;
export const enc = (o: unknown): Uint8Array => new TextEncoder().encode(typeof o === 'string' ? o : JSON.stringify(o));

/** validate with a raw (hand-built) body; true when accepted */
export async function rawValidate(x: X, raw: string): Promise<boolean> {
  const r = await api(x.p, {
    method: 'POST',
    path: '/transfers/validate',
    token: await tok(x),
    raw,
    headers: { 'Content-Type': 'application/json' },
  });
  return r.status === 200;
}
export async function validate(
  x: X,
  over: Record<string, unknown> = {},
  customer = 0,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const r = await api(x.p, {
    method: 'POST',
    path: '/transfers/validate',
    token: token ?? (await tok(x, customer)),
    body: transferBody(x.p, customer, over),
  });
  return { status: r.status, body: r.body, text: r.res.text };
}
export const jwsText = async (
  x: X,
  payload: unknown,
  alg = 'RS256',
  keyPem = x.p.clients.code.privateKey!,
): Promise<string> =>
  JSON.stringify(
    await new GeneralSign(enc(payload)).addSignature(privateKeyFromPem(keyPem)).setProtectedHeader({ alg }).sign(),
  );
export const jweText = async (
  x: X,
  plaintext: string,
  encAlg = 'A256CBC-HS512',
  alg = 'RSA-OAEP-256',
  toPem = x.p.bank!.apiPublicKey!,
): Promise<string> =>
  JSON.stringify(
    await new GeneralEncrypt(enc(plaintext))
      .setProtectedHeader({ alg, enc: encAlg })
      .addRecipient(publicKeyFromPem(toPem))
      .encrypt(),
  );

/** the plain JSON of a 422 (missing beneficiary_id) */
export async function missingBeneficiary(x: X): Promise<Record<string, unknown>> {
  const { beneficiary_id: _b, ...body } = transferBody(x.p);
  return (await api(x.p, { method: 'POST', path: '/transfers/validate', token: await tok(x), body })).body;
}

/** n GETs of unknown ids as the internal client (own quota), returns the statuses */
export async function gets(x: X, token: string, n: number, prefix = 'q'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      (await api(x.p, { method: 'GET', path: `/transfers/${prefix}-${i}`, token, client: x.p.clients.internal! }))
        .status,
    );
  return out;
}
export const internalToken = async (x: X): Promise<string> =>
  (await ccToken(x.p, x.p.clients.internal!)).body.access_token as string;
export function internalBody(x: X, over: Record<string, unknown> = {}): Record<string, unknown> {
  const a = x.p.customers[0]!;
  return {
    beneficiary_id: a.beneficiaryId,
    emirates_id: mask(a.emiratesId!),
    amount: { value: '1.00', currency: 'AED' },
    ...over,
  };
}

/** GET as `clientId` with the given certificate and no token: passing the certificate gate gives 401 */
export async function certGatePassed(
  x: X,
  clientId: string,
  cert?: { certificate: string; privateKey: string },
): Promise<boolean> {
  const r = await call(`${x.p.target.baseUrl}/v1/transfers/x`, {
    headers: { 'X-Gateway-Client-Id': clientId },
    tls: { ca: x.p.tls!.caCertificate, ...(cert ? { cert: cert.certificate, key: cert.privateKey } : {}) },
  });
  return r.status === 401;
}

/**
 * A handshake as the code client, verifying unless `opts` says otherwise (node:tls's own checks): the code it was
 * refused with, or, when it completed, the server key's size
 */
export function verifiedServer(x: X, opts: tls.ConnectionOptions = {}): Promise<{ refused?: string; bits?: number }> {
  const u = new URL(x.p.target.baseUrl);
  return new Promise((resolve) => {
    const s = tls.connect(
      {
        host: u.hostname,
        port: Number(u.port),
        ca: x.p.tls!.caCertificate,
        servername: 'localhost',
        cert: x.p.clients.code.certificate,
        key: x.p.clients.code.privateKey,
        ...opts,
      },
      () => {
        resolve({ bits: s.getPeerX509Certificate()?.publicKey.asymmetricKeyDetails?.modulusLength ?? 0 });
        s.end();
      },
    );
    s.on('error', (e: NodeJS.ErrnoException) => resolve({ refused: e.code ?? e.message }));
  });
}
export const handshake = async (x: X, opts: tls.ConnectionOptions): Promise<boolean> =>
  (await verifiedServer(x, opts)).refused === undefined;
export const serverCertRefusal = async (x: X): Promise<string | undefined> => (await verifiedServer(x)).refused;

export async function codeFromAuthorize(x: X, extra: Record<string, string>): Promise<URL | undefined> {
  const r = await call(await authorizeUrl(x.p, 0, extra), { tls: tlsOf(x.p, x.p.clients.code) });
  return r.status === 302 ? new URL(r.headers.location!) : undefined;
}

/** the raw (unopened) answer to a sealed validate */
export async function validateResponseEnvelope(x: X): Promise<Record<string, unknown>> {
  const c = x.p.clients.code;
  const body = JSON.stringify(
    await seal(transferBody(x.p), { signingKey: c.privateKey!, encryptionKey: x.p.bank!.apiPublicKey! }),
  );
  const r = await call(`${x.p.target.baseUrl}/v1/transfers/validate`, {
    method: 'POST',
    headers: {
      'X-Gateway-Client-Id': c.clientId,
      Authorization: `Bearer ${await tok(x)}`,
      'Content-Type': 'application/json',
    },
    body,
    tls: tlsOf(x.p, c),
  });
  return r.json as Record<string, unknown>;
}

/** validate with a raw body: the status (the JOSE case probes, 8a) */
export async function rawStatus(x: X, raw: string): Promise<number> {
  const headers = { 'Content-Type': 'application/json' };
  return (await api(x.p, { method: 'POST', path: '/transfers/validate', token: await tok(x), raw, headers })).status;
}
