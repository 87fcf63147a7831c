/**
 * Weak TLS 1.2 cipher families (TLS-09): for each family, a handshake that offers only that family's suites.
 */
import tls from 'node:tls';
import { CLIENT_SIDE_CODES, TlsProbeError, connect, describe, type Connected, type ProbeTarget } from './connect.ts';

export interface WeakCipherResult {
  family: string;
  /** false: this client's OpenSSL cannot offer the family, so nothing was learnt (never a pass) */
  offered: boolean;
  /** the server completed a TLS 1.2 handshake with a cipher of this family */
  accepted: boolean;
  cipher?: string;
  note?: string;
}

/** OpenSSL cipher-string selectors for each weak family. */
export const WEAK_CIPHER_FAMILIES: readonly { family: string; selector: string }[] = [
  { family: 'NULL', selector: 'eNULL' },
  { family: 'EXPORT', selector: 'EXPORT' },
  { family: 'RC4', selector: 'RC4' },
  { family: '3DES', selector: '3DES' },
  { family: 'aNULL', selector: 'aNULL' },
];

/**
 * For each family, offers ONLY that family's TLS 1.2 suites (SECLEVEL=0) and records whether the server agreed.
 * Families this client cannot offer (OpenSSL 3 ships no EXPORT suites; Node's build has no RC4/3DES suites)
 * come back offered:false with a note: the caller must report them as not checked, not as passed.
 */
export async function probeWeakCiphers(o: ProbeTarget): Promise<WeakCipherResult[]> {
  const out: WeakCipherResult[] = [];
  // sequential: bounded, and keeps the server's view simple
  for (const { family, selector } of WEAK_CIPHER_FAMILIES) {
    const unsupported = (why: string): WeakCipherResult => ({
      family,
      offered: false,
      accepted: false,
      note: `this client's OpenSSL ${process.versions.openssl} cannot offer ${family} suites (${why}); not checked`,
    });
    try {
      tls.createSecureContext({ ciphers: `${selector}:@SECLEVEL=0` });
    } catch (e) {
      out.push(unsupported((e as NodeJS.ErrnoException).code ?? 'no cipher match'));
      continue;
    }
    let c: Connected;
    try {
      c = await connect({ ...o, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', ciphers: `${selector}:@SECLEVEL=0` });
    } catch (e) {
      if (e instanceof TlsProbeError && e.code === 'TLS_PROBE_CLIENT_UNSUPPORTED') {
        out.push(unsupported(e.causeCode ?? e.message));
        continue;
      }
      throw e;
    }
    try {
      if (c.ok) {
        const cipher = c.socket.getCipher() as tls.CipherNameAndProtocol | undefined;
        out.push({ family, offered: true, accepted: true, cipher: cipher?.standardName ?? cipher?.name });
      } else if (c.error.code && CLIENT_SIDE_CODES.has(c.error.code)) {
        out.push(unsupported(c.error.code));
      } else {
        out.push({ family, offered: true, accepted: false, note: describe(c.error) });
      }
    } finally {
      c.socket.destroy();
    }
  }
  return out;
}
