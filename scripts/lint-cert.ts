/**
 * npm run lint-cert -- <{CN}_PublicKey_{DDMMYY}.cer> [...]: TLS-07 on its own, for a partner preparing onboarding.
 * Exit codes: 0 every file passes, 2 a file has a defect (one line per defect) or none was given.
 */
import { formatCertificateCheck, lintCertificateFile } from '../lib/partner/certificate.ts';

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
    const c = lintCertificateFile(f);
    ok &&= c.ok;
    (c.ok ? process.stdout : process.stderr).write(`${formatCertificateCheck(c)}\n`);
  }
  process.exitCode = ok ? 0 : 2;
}
