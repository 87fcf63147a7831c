/**
 * The one entry point the engine calls: writes results.json, report.html, junit.xml and, with an
 * operator key, results.json.jws into `outDir`. Results are scrubbed (lib/report/scrub.ts) first, so all
 * four files are rendered from the same, redacted object; the HTML states the SHA-256 of results.json.
 * The results are serialized, encoded and validated once (walked for the scrub only when their text shows a secret); each file is written (on the thread pool) while the next is
 * rendered, and the signature is made while the HTML and the JUnit XML are.
 */
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResults } from '../engine/results.ts';
import { toHtml } from './html.ts';
import { ensureOutDir } from './outdir.ts';
import { INVALID_RESULTS_FILE, prepareResults, RESULTS_FILE, serializeResults } from './json.ts';
import { toJunitXml } from './junit.ts';
import { mayScrub, scrubResults } from './scrub.ts';
import { signResults } from './sign.ts';

export const REPORT_FILES = {
  json: RESULTS_FILE,
  jws: 'results.json.jws',
  html: 'report.html',
  junit: 'junit.xml',
  invalid: INVALID_RESULTS_FILE,
} as const;

/**
 * Removes an earlier run's reports from `outDir` (a missing folder or file is fine): a run that stops before it
 * writes its own (a configuration error, an interruption before the reports, a harness error) never leaves
 * another run's reports, or a signature of another results.json, looking current.
 */
export function clearReports(outDir: string): void {
  for (const file of Object.values(REPORT_FILES)) {
    try {
      rmSync(join(outDir, file), { force: true });
    } catch {
      // --out is not a folder (or cannot be read): there is no earlier report in it; ensureOutDir names the cause
    }
  }
}

export interface WrittenReports {
  json: string;
  sha256: string;
  html: string;
  junit: string;
  jws?: string;
}

export async function writeReports(
  results: RunResults,
  outDir: string,
  opts: { signingKeyPem?: string; signingKid?: string } = {},
): Promise<WrittenReports> {
  ensureOutDir(outDir);
  // the results as the engine wrote them are nearly always clean: told from their text, not by walking them
  const raw = serializeResults(results);
  const clean = mayScrub(raw) ? scrubResults(results) : results;
  const text = clean === results ? raw : serializeResults(clean);
  const { bytes, sha256 } = prepareResults(text, outDir);
  const json = join(outDir, REPORT_FILES.json);
  const html = join(outDir, REPORT_FILES.html);
  const junit = join(outDir, REPORT_FILES.junit);
  const jws = opts.signingKeyPem ? join(outDir, REPORT_FILES.jws) : undefined;
  const writes: Promise<unknown>[] = [writeFile(json, bytes)];
  if (jws && opts.signingKeyPem)
    writes.push(signResults(text, opts.signingKeyPem, opts.signingKid).then((s) => writeFile(jws, `${s}\n`, 'utf8')));
  writes.push(writeFile(html, toHtml(clean, { resultsSha256: sha256 }), 'utf8'));
  writes.push(writeFile(junit, toJunitXml(clean), 'utf8'));
  // every write settled before an error is raised (the first, in the order above): nothing is left writing
  const failed = (await Promise.allSettled(writes)).find((w) => w.status === 'rejected');
  if (failed) throw failed.reason;
  return { json, sha256, html, junit, ...(jws ? { jws } : {}) };
}
