/**
 * npm run lint-cert -- <{CN}_PublicKey_{DDMMYY}.cer> [...]: TLS-07 on its own, for a partner preparing onboarding.
 * Exit codes: 0 every file passes, 2 a file has a defect (one line per defect) or none was given.
 */
import { readFileSync } from 'node:fs';
import { formatCertificateCheck, lintCertificateFile } from '../lib/partner/certificate.ts';

/** a private key given instead of the certificate: said as such (its content is never printed) */
function isPrivateKey(file: string): boolean {
  try {
    return /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(readFileSync(file, 'latin1'));
  } catch {
    return false; // unreadable: lintCertificateFile names the cause
  }
}

const files = process.argv.slice(2);
if (files.length === 0 || files.includes('--help')) {
  process.stdout.write(
    'Usage: npm run lint-cert -- <{CN}_PublicKey_{DDMMYY}.cer> [...]\n' +
      'Checks each onboarding certificate (TLS-07): the file name pattern, CN and expiry (DDMMYY, UTC) agree\n' +
      'with the certificate, RSA key of at least 2048 bits. DER or PEM. Exit 0 all pass, 2 a defect.\n',
  );
  process.exitCode = files.length === 0 ? 2 : 0;
} else {
  let ok = true;
  for (const f of files) {
    if (isPrivateKey(f)) {
      ok = false;
      process.stderr.write(
        `${f}: this is a private key, not a certificate: give the onboarding certificate ({CN}_PublicKey_{DDMMYY}.cer, e.g. made with \`openssl req -new -x509 -key <key> ...\`) and keep the private key to yourself\n`,
      );
      continue;
    }
    const c = lintCertificateFile(f);
    ok &&= c.ok;
    (c.ok ? process.stdout : process.stderr).write(`${formatCertificateCheck(c)}\n`);
  }
  process.exitCode = ok ? 0 : 2;
}
