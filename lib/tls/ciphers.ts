/**
 * Weak TLS 1.2 cipher families (TLS-09): for each family, an offer of only that family's suites. Where this
 * client's OpenSSL can offer the family (NULL, aNULL), a full handshake; where it cannot (EXPORT, RC4, 3DES: no
 * OpenSSL on this machine has them, see hello.ts), a hand-built ClientHello whose ServerHello says whether the
 * server accepts one of them, after a positive control: the same hand-built ClientHello with modern suites must be
 * answered with a ServerHello, or the hand-built offers are no evidence about this target.
 */
import tls from 'node:tls';
import {
  CLIENT_SIDE_CODES,
  TlsProbeError,
  connect,
  describe,
  sniFor,
  type Connected,
  type ProbeTarget,
} from './connect.ts';
import { offerSuites, type HelloAnswer, type HelloTarget } from './hello.ts';

export interface WeakCipherResult {
  family: string;
  /**
   * how the family was offered: a full handshake by this client's OpenSSL, a hand-built ClientHello (the server's
   * ServerHello is its answer), or not at all (nothing was learnt: never a pass)
   */
  method: 'handshake' | 'client-hello' | 'none';
  /** false: the family could not be offered, so nothing was learnt (never a pass) */
  offered: boolean;
  /** the server agreed to a suite of this family (completed the handshake, or chose it in its ServerHello) */
  accepted: boolean;
  cipher?: string;
  note?: string;
}

/**
 * Each weak family: the OpenSSL selector (for a full handshake) and its TLS 1.2 suites by IANA code and name (for
 * a hand-built ClientHello), from the IANA TLS Cipher Suites registry.
 */
export const WEAK_CIPHER_FAMILIES: readonly { family: string; selector: string; suites: Record<number, string> }[] = [
  {
    family: 'NULL',
    selector: 'eNULL',
    suites: {
      0x0001: 'TLS_RSA_WITH_NULL_MD5',
      0x0002: 'TLS_RSA_WITH_NULL_SHA',
      0x003b: 'TLS_RSA_WITH_NULL_SHA256',
      0xc006: 'TLS_ECDHE_ECDSA_WITH_NULL_SHA',
      0xc010: 'TLS_ECDHE_RSA_WITH_NULL_SHA',
      0xc015: 'TLS_ECDH_anon_WITH_NULL_SHA',
    },
  },
  {
    family: 'EXPORT',
    selector: 'EXPORT',
    suites: {
      0x0003: 'TLS_RSA_EXPORT_WITH_RC4_40_MD5',
      0x0006: 'TLS_RSA_EXPORT_WITH_RC2_CBC_40_MD5',
      0x0008: 'TLS_RSA_EXPORT_WITH_DES40_CBC_SHA',
      0x000b: 'TLS_DH_DSS_EXPORT_WITH_DES40_CBC_SHA',
      0x000e: 'TLS_DH_RSA_EXPORT_WITH_DES40_CBC_SHA',
      0x0011: 'TLS_DHE_DSS_EXPORT_WITH_DES40_CBC_SHA',
      0x0014: 'TLS_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA',
      0x0017: 'TLS_DH_anon_EXPORT_WITH_RC4_40_MD5',
      0x0019: 'TLS_DH_anon_EXPORT_WITH_DES40_CBC_SHA',
      0x0062: 'TLS_RSA_EXPORT1024_WITH_DES_CBC_SHA',
      0x0063: 'TLS_DHE_DSS_EXPORT1024_WITH_DES_CBC_SHA',
      0x0064: 'TLS_RSA_EXPORT1024_WITH_RC4_56_SHA',
      0x0065: 'TLS_DHE_DSS_EXPORT1024_WITH_RC4_56_SHA',
    },
  },
  {
    family: 'RC4',
    selector: 'RC4',
    suites: {
      0x0004: 'TLS_RSA_WITH_RC4_128_MD5',
      0x0005: 'TLS_RSA_WITH_RC4_128_SHA',
      0x0018: 'TLS_DH_anon_WITH_RC4_128_MD5',
      0xc002: 'TLS_ECDH_ECDSA_WITH_RC4_128_SHA',
      0xc007: 'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
      0xc00c: 'TLS_ECDH_RSA_WITH_RC4_128_SHA',
      0xc011: 'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
      0xc016: 'TLS_ECDH_anon_WITH_RC4_128_SHA',
    },
  },
  {
    family: '3DES',
    selector: '3DES',
    suites: {
      0x000a: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      0x000d: 'TLS_DH_DSS_WITH_3DES_EDE_CBC_SHA',
      0x0010: 'TLS_DH_RSA_WITH_3DES_EDE_CBC_SHA',
      0x0013: 'TLS_DHE_DSS_WITH_3DES_EDE_CBC_SHA',
      0x0016: 'TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA',
      0x001b: 'TLS_DH_anon_WITH_3DES_EDE_CBC_SHA',
      0xc003: 'TLS_ECDH_ECDSA_WITH_3DES_EDE_CBC_SHA',
      0xc008: 'TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA',
      0xc00d: 'TLS_ECDH_RSA_WITH_3DES_EDE_CBC_SHA',
      0xc012: 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA',
      0xc017: 'TLS_ECDH_anon_WITH_3DES_EDE_CBC_SHA',
    },
  },
  {
    family: 'aNULL',
    selector: 'aNULL',
    suites: {
      0x0034: 'TLS_DH_anon_WITH_AES_128_CBC_SHA',
      0x003a: 'TLS_DH_anon_WITH_AES_256_CBC_SHA',
      0x006c: 'TLS_DH_anon_WITH_AES_128_CBC_SHA256',
      0x006d: 'TLS_DH_anon_WITH_AES_256_CBC_SHA256',
      0x00a6: 'TLS_DH_anon_WITH_AES_128_GCM_SHA256',
      0x00a7: 'TLS_DH_anon_WITH_AES_256_GCM_SHA384',
      0xc018: 'TLS_ECDH_anon_WITH_AES_128_CBC_SHA',
      0xc019: 'TLS_ECDH_anon_WITH_AES_256_CBC_SHA',
    },
  },
];

/** the positive control of the hand-built offers: suites every TLS 1.2 server of the rules accepts one of */
const MODERN_SUITES: Record<number, string> = {
  0xc02f: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  0xc030: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  0xc02b: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  0xc02c: 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  0xcca8: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  0xcca9: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  0x009e: 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256',
  0x009f: 'TLS_DHE_RSA_WITH_AES_256_GCM_SHA384',
};

const ALERTS: Record<number, string> = {
  10: 'unexpected_message',
  40: 'handshake_failure',
  47: 'illegal_parameter',
  70: 'protocol_version',
  71: 'insufficient_security',
  80: 'internal_error',
  112: 'unrecognized_name',
};

function said(a: HelloAnswer): string {
  if (a.outcome === 'alert') return `alert ${a.description} ${ALERTS[a.description] ?? ''}`.trim();
  if (a.outcome === 'chosen') return `ServerHello chose 0x${a.suite.toString(16).padStart(4, '0')}`;
  return a.outcome === 'closed' ? 'closed without a ServerHello' : a.detail;
}

/** a hand-built offer's answer; no answer in time is unreadable (that family not verified), not the whole check's end */
async function answerOf(target: HelloTarget, suites: readonly number[]): Promise<HelloAnswer> {
  try {
    return await offerSuites(target, suites);
  } catch (e) {
    if (e instanceof TlsProbeError && e.code === 'TLS_PROBE_TIMEOUT')
      return { outcome: 'unreadable', detail: e.message };
    throw e;
  }
}

/** one family over this client's OpenSSL: undefined when it cannot offer the family */
async function byHandshake(o: ProbeTarget, family: string, selector: string): Promise<WeakCipherResult | undefined> {
  const ciphers = `${selector}:@SECLEVEL=0`;
  try {
    tls.createSecureContext({ ciphers });
  } catch {
    return undefined;
  }
  let c: Connected;
  try {
    c = await connect({ ...o, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', ciphers });
  } catch (e) {
    if (e instanceof TlsProbeError && e.code === 'TLS_PROBE_CLIENT_UNSUPPORTED') return undefined;
    throw e;
  }
  try {
    if (c.ok) {
      const cipher = c.socket.getCipher() as tls.CipherNameAndProtocol | undefined;
      const name = cipher?.standardName ?? cipher?.name;
      return { family, method: 'handshake', offered: true, accepted: true, ...(name ? { cipher: name } : {}) };
    }
    if (c.error.code && CLIENT_SIDE_CODES.has(c.error.code)) return undefined;
    return { family, method: 'handshake', offered: true, accepted: false, note: describe(c.error) };
  } finally {
    c.socket.destroy();
  }
}

/**
 * For each family, offers ONLY that family's TLS 1.2 suites and records whether the server agreed: by a full
 * handshake where this client's OpenSSL can offer them, else by a hand-built ClientHello (after its control).
 * A family that could be offered neither way comes back offered:false with a note: the caller must report it as not
 * verified, never as passed.
 */
export async function probeWeakCiphers(o: ProbeTarget): Promise<WeakCipherResult[]> {
  const target = {
    host: o.host,
    port: o.port,
    ...(sniFor(o.host, o.servername) ? { servername: sniFor(o.host, o.servername)! } : {}),
    ...(o.localAddress ? { localAddress: o.localAddress } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.proxy ? { proxy: o.proxy } : {}),
  };
  let control: HelloAnswer | undefined;
  const out: WeakCipherResult[] = [];
  // sequential: bounded, and keeps the server's view simple
  for (const { family, selector, suites } of WEAK_CIPHER_FAMILIES) {
    const full = await byHandshake(o, family, selector);
    if (full) {
      out.push(full);
      continue;
    }
    const lacks = `this client's OpenSSL ${process.versions.openssl} cannot offer ${family} suites`;
    control ??= await answerOf(target, Object.keys(MODERN_SUITES).map(Number));
    if (control.outcome !== 'chosen') {
      out.push({
        family,
        method: 'none',
        offered: false,
        accepted: false,
        note: `${lacks}, and the hand-built ClientHello's control with modern suites was not answered with a ServerHello (${said(control)}): not verified`,
      });
      continue;
    }
    const codes = Object.keys(suites).map(Number);
    const a = await answerOf(target, codes);
    const base = { family, method: 'client-hello' as const };
    const how = `${lacks}: offered in a hand-built ClientHello (control: ${MODERN_SUITES[control.suite] ?? said(control)} chosen)`;
    if (a.outcome === 'chosen')
      out.push({
        ...base,
        offered: true,
        accepted: true,
        cipher: suites[a.suite]!,
        note: `${how}; the ServerHello chose it`,
      });
    else if (a.outcome === 'unreadable')
      out.push({
        ...base,
        method: 'none',
        offered: false,
        accepted: false,
        note: `${how}; answer unreadable (${a.detail}): not verified`,
      });
    else out.push({ ...base, offered: true, accepted: false, note: `${how}; refused: ${said(a)}` });
  }
  return out;
}
