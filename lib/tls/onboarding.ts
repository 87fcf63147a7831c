/**
 * TLS-07: a client certificate handed over for onboarding is named `{CN}_PublicKey_{DDMMYY}.cer`, where CN is the
 * certificate's subject CN and DDMMYY its expiry date (notAfter), and its RSA key has at least 2048 bits.
 *
 * Decision (the spec does not say): DDMMYY is the notAfter date in UTC. The contents may be DER or PEM.
 */
import { X509Certificate } from 'node:crypto';
import { basename } from 'node:path';

export interface OnboardingCheck {
  ok: boolean;
  /** subject CN of the certificate */
  cn?: string;
  /** notAfter of the certificate, ISO 8601 (UTC) */
  expiry?: string;
  keyBits?: number;
  /** the name the file should have, when the certificate could be read */
  expectedFileName?: string;
  problems: string[];
}

export const MIN_RSA_BITS = 2048;
const NAME_RE = /^(.+)_PublicKey_(\d{6})\.cer$/;

/** DDMMYY of a date, in UTC. */
export function ddmmyyUtc(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${p(d.getUTCFullYear() % 100)}`;
}

/** The subject CN (first CN= line of Node's multi-line subject), if any. */
function subjectCn(x: X509Certificate): string | undefined {
  for (const line of x.subject.split('\n')) if (line.startsWith('CN=')) return line.slice(3);
  return undefined;
}

export function checkOnboardingCertificate(fileName: string, contents: Buffer): OnboardingCheck {
  const problems: string[] = [];
  const name = basename(fileName);
  const m = NAME_RE.exec(name);
  if (!m) problems.push(`file name "${name}" does not follow {CN}_PublicKey_{DDMMYY}.cer`);

  let x: X509Certificate;
  try {
    x = new X509Certificate(contents);
  } catch {
    problems.push('contents are not an X.509 certificate (DER or PEM)');
    return { ok: false, problems };
  }

  const cn = subjectCn(x);
  const notAfter = new Date(x.validTo);
  const expiry = notAfter.toISOString();
  const date = ddmmyyUtc(notAfter);
  const details = x.publicKey.asymmetricKeyDetails;
  const keyBits = details?.modulusLength;

  if (!cn) problems.push('certificate subject has no CN');
  if (m && cn !== undefined && m[1] !== cn)
    problems.push(`CN in file name "${m[1]}" does not match certificate CN "${cn}"`);
  if (m && m[2] !== date)
    problems.push(
      `expiry in file name ${m[2]} does not match certificate expiry ${date} (DDMMYY, UTC; notAfter ${expiry})`,
    );
  if (x.publicKey.asymmetricKeyType !== 'rsa') {
    problems.push(`key type is ${x.publicKey.asymmetricKeyType ?? 'unknown'}, an RSA key is required`);
  } else if (keyBits === undefined || keyBits < MIN_RSA_BITS) {
    problems.push(`RSA key has ${keyBits ?? 'unknown'} bits, at least ${MIN_RSA_BITS} required`);
  }

  return {
    ok: problems.length === 0,
    ...(cn !== undefined ? { cn, expectedFileName: `${cn}_PublicKey_${date}.cer` } : {}),
    expiry,
    ...(keyBits !== undefined ? { keyBits } : {}),
    problems,
  };
}
