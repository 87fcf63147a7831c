/**
 * What open() accepts beyond the cryptography: the request policy (what the bank enforces on a request:
 * strict, every hardening on) and the response policy (what JOSE-11 demands of a response, no more: the RFC
 * defaults for duplicates, zip, several recipients or signatures, crit parameters jose understands, no size
 * limit). Both pin the algorithms and the keys. A refusal is thrown as an OpenRefusal with its step and code.
 */
import { JWE_ALG, JWE_ENC, JWS_ALG, type OpenFailureCode, type OpenOptions, type OpenStep } from './types.ts';
import type { Duplicates, Json } from './json.ts';
import { HarnessError } from '../errors.ts';

/** default maximum size of an envelope handed to open() under the request policy */
export const DEFAULT_MAX_BYTES = 1024 * 1024;
/** largest decompressed plaintext of a zip DEF response (jose's own default is 250 kB) */
export const MAX_DECOMPRESSED_BYTES = 16 * 1024 * 1024;

export interface OpenPolicy {
  name: 'request' | 'response';
  maxBytes: number;
  duplicates: Duplicates;
  /** several recipients / signatures allowed (one must open / verify with the pinned key) */
  several: boolean;
  zip: boolean;
  /** request: any crit is refused, b64 must be true; response: jose decides (it understands b64) */
  crit: 'refuse' | 'library';
  allowFlattened: boolean;
}

export function policyOf(opts: OpenOptions & { maxBytes?: number }): OpenPolicy {
  const response = opts.policy === 'response';
  return {
    name: response ? 'response' : 'request',
    maxBytes: opts.maxBytes ?? (response ? Number.POSITIVE_INFINITY : DEFAULT_MAX_BYTES),
    duplicates: response ? 'last-wins' : 'refuse',
    several: response,
    zip: response,
    crit: response ? 'library' : 'refuse',
    allowFlattened: opts.allowFlattened === true,
  };
}

export class OpenRefusal extends HarnessError {
  constructor(
    readonly step: OpenStep,
    override readonly code: OpenFailureCode,
    reason: string,
  ) {
    super(reason);
  }
}

export const refuse = (step: OpenStep, code: OpenFailureCode, reason: string): never => {
  throw new OpenRefusal(step, code, reason);
};

/** the JWE header (protected + unprotected + recipient) against the policy, before any crypto */
export function checkJweHeader(h: Json, p: OpenPolicy): void {
  if (h.alg !== JWE_ALG)
    refuse('jwe-header', 'JWE_ALG_NOT_ALLOWED', `JWE alg ${JSON.stringify(h.alg)}; only ${JWE_ALG}`);
  if (h.enc !== JWE_ENC)
    refuse('jwe-header', 'JWE_ENC_NOT_ALLOWED', `JWE enc ${JSON.stringify(h.enc)}; only ${JWE_ENC}`);
  if ('zip' in h && !p.zip) refuse('jwe-header', 'JWE_ZIP_NOT_ALLOWED', 'JWE zip (compression) is not allowed');
  if ('crit' in h && p.crit === 'refuse')
    refuse('jwe-header', 'CRIT_UNSUPPORTED', 'JWE crit: no extension is supported');
}

/** the JWS header (protected + unprotected) against the policy, before the signature is verified */
export function checkJwsHeader(h: Json, p: OpenPolicy): void {
  if (h.alg !== JWS_ALG)
    refuse('jws-header', 'JWS_ALG_NOT_ALLOWED', `JWS alg ${JSON.stringify(h.alg)}; only ${JWS_ALG}`);
  if (p.crit === 'library') return;
  if ('b64' in h && h.b64 !== true)
    refuse('jws-header', 'JWS_B64_NOT_ALLOWED', 'JWS b64 other than true (unencoded payload) is not allowed');
  if ('crit' in h) refuse('jws-header', 'CRIT_UNSUPPORTED', 'JWS crit: no extension is supported');
}
