/**
 * Checks an archived certification: results.json matches the schema, its detached JWS verifies with the
 * operator's public key (or certificate), and, when report.html lies beside it, the HTML states the
 * SHA-256 of these exact bytes (and, a page written before that embeds a copy of the results, that it is the same).
 *
 * Without a key (an unsigned run), the signature is not checked and report.html is required: results.json is then
 * checked by its SHA-256 against the one the report states (the two files agree; nothing proves who wrote them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readHtmlClaims } from './html.ts';
import { parseResults, sha256Hex } from './json.ts';
import { verifyResults } from './sign.ts';
import { REPORT_FILES } from './write.ts';

export interface VerifyStep {
  name: string;
  ok: boolean;
  detail: string;
}
export interface VerifyReportOutcome {
  ok: boolean;
  /** the signature was checked (a key was given); false: checked by hash against report.html only */
  signed: boolean;
  steps: VerifyStep[];
}

export async function verifyReport(opts: {
  resultsPath: string;
  jwsPath?: string;
  /** the operator's public key or certificate; without it, the run is checked by hash against report.html */
  keyPem?: string;
  htmlPath?: string;
}): Promise<VerifyReportOutcome> {
  const steps: VerifyStep[] = [];
  const signed = opts.keyPem !== undefined;
  const done = (): VerifyReportOutcome => ({ ok: steps.length > 0 && steps.every((s) => s.ok), signed, steps });
  let bytes: Buffer;
  try {
    bytes = readFileSync(opts.resultsPath);
  } catch (e) {
    steps.push({
      name: 'results',
      ok: false,
      detail: `cannot read ${opts.resultsPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    });
    return done();
  }
  const text = bytes.toString('utf8');
  const sha = sha256Hex(bytes);
  try {
    parseResults(text, opts.resultsPath);
    steps.push({ name: 'schema', ok: true, detail: `results.json matches the results schema (SHA-256 ${sha})` });
  } catch (e) {
    steps.push({ name: 'schema', ok: false, detail: (e as Error).message });
  }

  const jwsPath = opts.jwsPath ?? `${opts.resultsPath}.jws`;
  if (opts.keyPem === undefined) {
    steps.push({
      name: 'signature',
      ok: true,
      detail: existsSync(jwsPath)
        ? `not checked: no --key given (${jwsPath} exists: give the operator's public key to check it)`
        : 'not checked: the run is unsigned (no --key, no .jws); checked by its SHA-256 against report.html',
    });
  } else if (!existsSync(jwsPath)) {
    steps.push({
      name: 'signature',
      ok: false,
      detail: `no signature at ${jwsPath} (the run was not signed, or give --jws)`,
    });
  } else {
    const v = await verifyResults(text, readFileSync(jwsPath, 'utf8'), opts.keyPem);
    steps.push({ name: 'signature', ok: v.ok, detail: v.reason });
  }

  const htmlPath = opts.htmlPath ?? join(dirname(opts.resultsPath), REPORT_FILES.html);
  if (!signed && !existsSync(htmlPath))
    steps.push({
      name: 'html-sha256',
      ok: false,
      detail: `without --key results.json is checked against the SHA-256 report.html states, and there is no ${htmlPath} (give --html)`,
    });
  if (existsSync(htmlPath)) steps.push(...htmlSteps(htmlPath, text, sha));
  return done();
}

/**
 * report.html states the SHA-256 of these exact bytes; a page written before that embeds a copy of the results (a page
 * written now embeds none: the hash binds it) embeds the same results
 */
function htmlSteps(htmlPath: string, text: string, sha: string): VerifyStep[] {
  const out: VerifyStep[] = [];
  const claims = readHtmlClaims(readFileSync(htmlPath, 'utf8'));
  if (claims.sha256 === sha) out.push({ name: 'html-sha256', ok: true, detail: `${htmlPath} states the same SHA-256` });
  else
    out.push({
      name: 'html-sha256',
      ok: false,
      detail: `${htmlPath} states SHA-256 ${claims.sha256 ?? '(none)'}, results.json has ${sha}`,
    });
  if (!claims.embedsData) return out;
  let same: boolean;
  try {
    same = isDeepStrictEqual(claims.data, JSON.parse(text));
  } catch {
    same = false;
  }
  out.push({
    name: 'html-data',
    ok: same,
    detail: same
      ? 'the results embedded in the HTML are those of results.json'
      : `the results embedded in ${htmlPath} differ from results.json`,
  });
  return out;
}
