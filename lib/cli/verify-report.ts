/** `npm run verify-report -- reports/results.json [--key pubkey.pem] [--jws file]`: exit 0 verified, 1 not, 2 usage. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { verifyReport } from '../report/verify.ts';
import type { ProgressStream } from './progress.ts';

export const VERIFY_HELP = `Usage: npm run verify-report -- <results.json or the reports' folder> [--key <public-key-or-certificate.pem>] [--jws <file>] [--html <file>]

Checks that results.json matches the results schema, that its detached JWS (default <results.json>.jws)
verifies with the operator's public key or certificate (--key), and, when report.html is beside it (or
--html is given), that the report states the same SHA-256 (and that a report written before, with a copy of
the results in it, embeds the same results).
Without --key (an unsigned run), report.html is required and results.json is checked by its SHA-256 only:
that shows the two files agree, not who wrote them.
Exit codes: 0 verified, 1 a check failed, 2 usage error.
`;

export async function runVerifyReport(argv: string[], out: ProgressStream, err: ProgressStream): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        key: { type: 'string' },
        jws: { type: 'string' },
        html: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    err.write(`verify-report: ${(e as Error).message.split('\n')[0]}\n${VERIFY_HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.write(VERIFY_HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    err.write(`verify-report: give exactly one results.json\n${VERIFY_HELP}`);
    return 2;
  }
  // the reports' folder (certify's --out) stands for the results.json in it
  const given = positionals[0] as string;
  const resultsPath = isFolder(given) ? join(given, 'results.json') : given;
  let keyPem: string | undefined;
  try {
    if (values.key) keyPem = readFileSync(values.key, 'utf8');
  } catch (e) {
    err.write(`verify-report: cannot read the key ${values.key}: ${(e as NodeJS.ErrnoException).code ?? 'error'}\n`);
    return 2;
  }
  const r = await verifyReport({
    resultsPath,
    ...(keyPem !== undefined ? { keyPem } : {}),
    ...(values.jws ? { jwsPath: values.jws } : {}),
    ...(values.html ? { htmlPath: values.html } : {}),
  });
  for (const s of r.steps) out.write(`${s.ok ? 'ok  ' : 'FAIL'} ${s.name}: ${s.detail}\n`);
  // a signed run checked without --key is not "unsigned": its signature was simply not checked
  const jws = values.jws ?? `${resultsPath}.jws`;
  const byHash = existsSync(jws)
    ? `VERIFIED by hash only: the run is signed (${jws}) but its signature was not checked: give --key <operator public key> to check it\n`
    : 'VERIFIED by hash only (unsigned run)\n';
  out.write(r.ok ? (r.signed ? 'VERIFIED (signature and hash)\n' : byHash) : 'NOT VERIFIED\n');
  return r.ok ? 0 : 1;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
