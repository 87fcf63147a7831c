/** TLS-07 on a file: the partner's onboarding certificate, read and checked before anything starts. */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checkOnboardingCertificate, type OnboardingCheck } from '../tls/onboarding.ts';

export interface CertificateFile extends OnboardingCheck {
  file: string;
  /** the certificate as PEM, when it could be read */
  pem?: string;
  sha256?: string;
}

export function lintCertificateFile(file: string): CertificateFile {
  let contents: Buffer;
  try {
    contents = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    return { file, ok: false, problems: [`certificate file ${file} cannot be read (${code})`] };
  }
  // a private key given by mistake: say so first (and never read it further: it is the partner's secret)
  if (/-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(contents.toString('latin1')))
    return {
      file,
      ok: false,
      problems: [
        `${file} holds a private key, not a certificate: give the certificate ({CN}_PublicKey_{DDMMYY}.cer) and keep the private key to yourself`,
      ],
    };
  const check = checkOnboardingCertificate(file, contents);
  try {
    const x = new X509Certificate(contents);
    return { file, ...check, pem: x.toString(), sha256: x.fingerprint256.replace(/:/g, '').toLowerCase() };
  } catch {
    return { file, ...check };
  }
}

/** one line per defect, for a terminal */
export function formatCertificateCheck(c: CertificateFile): string {
  if (c.ok) return `TLS-07 pass: ${c.file} (CN ${c.cn}, expires ${c.expiry}, RSA ${c.keyBits} bits)`;
  const hint = c.expectedFileName ? `\n  the file for this certificate would be named ${c.expectedFileName}` : '';
  return `TLS-07 fail: ${c.file}\n${c.problems.map((p) => `  - ${p}`).join('\n')}${hint}`;
}
