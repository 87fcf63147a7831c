/**
 * The keys the lenient opener (lenient-open.ts) verifies a JWS with: the client's registered key, and under a
 * JOSE-10 fault a key the JWS header names (jwk, x5c) or points at (jku, x5u: fetched from loopback addresses
 * only, never the network).
 */
import { X509Certificate, type KeyObject } from 'node:crypto';
import { flattenedVerify, importJWK, type JWK } from 'jose';

type Json = Record<string, unknown>;
type VerifyKey = Parameters<typeof flattenedVerify>[1];

/** the relaxations that make a header key trusted (lenient-open.ts Relaxations) */
export interface HeaderKeyRelaxations {
  anyJwsAlg?: boolean;
  ignoreCrit?: boolean;
  headerJwk?: boolean;
  fetchJku?: boolean;
  fetchX5u?: boolean;
  headerX5c?: boolean;
  /** `first-wins` (the jose-duplicates-first-wins fault): the header was checked on first values, jose runs unpinned */
  duplicates?: 'last-wins' | 'first-wins';
}

export const JWS_ALGS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * whether the signature verifies with the client's key, or with a header key that a relaxation trusts; `header` and
 * `alg` as processed (jose reads the protected header again, the last of a duplicated member)
 */
export async function verifyWithAnyKey(
  jws: Json,
  sig: Json,
  header: Json,
  alg: string,
  crit: string[],
  verificationKey: KeyObject,
  relax: HeaderKeyRelaxations,
): Promise<boolean> {
  const candidates: VerifyKey[] = [];
  if (relax.headerJwk && isObject(header.jwk)) {
    try {
      candidates.push(await importJWK(header.jwk as JWK, alg));
    } catch {
      /* not a usable key */
    }
  }
  if (relax.fetchJku && typeof header.jku === 'string') candidates.push(...(await fetchLoopbackJwks(header.jku, alg)));
  if (relax.fetchX5u && typeof header.x5u === 'string') candidates.push(...(await fetchLoopbackX5u(header.x5u)));
  if (relax.headerX5c && Array.isArray(header.x5c) && typeof header.x5c[0] === 'string') {
    try {
      candidates.push(new X509Certificate(Buffer.from(header.x5c[0], 'base64')).publicKey);
    } catch {
      /* not a certificate */
    }
  }
  candidates.push(verificationKey);
  const members = {
    payload: jws.payload,
    signature: sig.signature,
    ...(sig.protected !== undefined && { protected: sig.protected }),
    ...(sig.header !== undefined && { header: sig.header }),
  };
  for (const key of candidates) {
    try {
      await flattenedVerify(members as Parameters<typeof flattenedVerify>[0], key, {
        ...(relax.duplicates === 'first-wins' ? {} : { algorithms: relax.anyJwsAlg ? [...JWS_ALGS] : ['RS256'] }),
        ...(relax.ignoreCrit ? { crit: Object.fromEntries(crit.map((c) => [c, false])) } : {}),
      });
      return true;
    } catch {
      /* next candidate */
    }
  }
  return false;
}

/** a loopback http(s) URL, or undefined (the faults that fetch never reach the network) */
function loopbackUrl(url: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopback = /^127\./.test(host) || host === 'localhost' || host === '::1';
  return (u.protocol === 'http:' || u.protocol === 'https:') && loopback ? u : undefined;
}

/** the jose-fetch-x5u fault only: fetches a certificate PEM from a loopback address and trusts its key */
async function fetchLoopbackX5u(url: string): Promise<VerifyKey[]> {
  const u = loopbackUrl(url);
  if (!u) return [];
  try {
    const res = await fetch(u, { signal: AbortSignal.timeout(2000), redirect: 'error' });
    return [new X509Certificate(await res.text()).publicKey];
  } catch {
    return [];
  }
}

/** the jose-fetch-jku fault only: fetches a JWKS, from loopback addresses only (never the network) */
async function fetchLoopbackJwks(url: string, alg: string): Promise<VerifyKey[]> {
  const u = loopbackUrl(url);
  if (!u) return [];
  try {
    const res = await fetch(u, { signal: AbortSignal.timeout(2000), redirect: 'error' });
    const body = (await res.json()) as { keys?: unknown };
    const jwks = Array.isArray(body.keys) ? body.keys.slice(0, 10) : [body];
    const out: VerifyKey[] = [];
    for (const k of jwks) {
      try {
        if (isObject(k)) out.push(await importJWK(k as JWK, alg));
      } catch {
        /* skip */
      }
    }
    return out;
  } catch {
    return [];
  }
}
