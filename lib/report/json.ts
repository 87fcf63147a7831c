/**
 * results.json: the archived record of a run. Written once as UTF-8 bytes; its SHA-256 is over those
 * exact bytes (the HTML states it; a JWS signs them). readResults validates against the versioned schema.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '../engine/results.ts';
import { readableVersion, RESULTS_SCHEMA_VERSION, RunResultsSchema } from './results-schema.ts';
import { EXIT_CONFIGURATION, HarnessError } from '../errors.ts';

export const RESULTS_FILE = 'results.json';

export class ResultsError extends HarnessError {
  constructor(
    override readonly code:
      | 'RESULTS_UNREADABLE'
      | 'RESULTS_NOT_JSON'
      | 'RESULTS_SCHEMA_VERSION'
      | 'RESULTS_INVALID'
      | 'RESULTS_WOULD_BE_INVALID',
    message: string,
  ) {
    super(message);
    this.name = 'ResultsError';
    // a file handed to a command that cannot be read as results is bad input (2); results this run would write
    // invalid are the harness's own defect (1)
    this.exitCode = code === 'RESULTS_WOULD_BE_INVALID' ? 1 : EXIT_CONFIGURATION;
  }
  override readonly exitCode: number;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The canonical text of a results file (2-space indent, trailing newline). */
export function serializeResults(results: RunResults): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}

/** where the results of a run that fail their own schema are kept (never read by verify-report or compare) */
export const INVALID_RESULTS_FILE = 'results.invalid.json';

/**
 * A harness error, raised before results.json is written: the results this run produced do not match the schema that
 * verify-report and compare read them with (a file the harness itself would later refuse is never written as
 * results.json). No data is lost: the (already scrubbed) text is kept as results.invalid.json, which no reader takes
 * for a certification, and the error names it.
 */
function refuseInvalid(text: string, dir: string): void {
  try {
    parseResults(text, 'the results of this run');
  } catch (e) {
    if (!(e instanceof ResultsError)) throw e;
    const kept = join(dir, INVALID_RESULTS_FILE);
    writeFileSync(kept, text, 'utf8');
    throw new ResultsError(
      'RESULTS_WOULD_BE_INVALID',
      `harness error: ${e.message}; results.json was not written; what the run found is kept, unsigned and for diagnosis only, in ${kept} (a bug of the harness: please report it)`,
    );
  }
}

/**
 * The results' text (serializeResults) as UTF-8 bytes (encoded once: written and hashed as they are) and their SHA-256,
 * the text validated once against the schema that verify-report and compare read them with (refused as refuseInvalid says)
 */
export function prepareResults(text: string, dir: string): { bytes: Buffer; sha256: string } {
  mkdirSync(dir, { recursive: true });
  refuseInvalid(text, dir);
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, sha256: sha256Hex(bytes) };
}

export function writeResults(results: RunResults, dir: string): { path: string; sha256: string; text: string } {
  const text = serializeResults(results);
  const { bytes, sha256 } = prepareResults(text, dir);
  const path = join(dir, RESULTS_FILE);
  writeFileSync(path, bytes);
  return { path, sha256, text };
}

/** Parse and validate results text; errors name the first offending paths. */
export function parseResults(text: string, source = 'results'): RunResults {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ResultsError('RESULTS_NOT_JSON', `${source} is not JSON: ${(e as Error).message}`);
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (!readableVersion(version)) {
    throw new ResultsError(
      'RESULTS_SCHEMA_VERSION',
      `${source} has schemaVersion ${JSON.stringify(version)}; this harness reads ${RESULTS_SCHEMA_VERSION.split('.')[0]}.0.0 to ${RESULTS_SCHEMA_VERSION}`,
    );
  }
  const parsed = RunResultsSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ResultsError(
      'RESULTS_INVALID',
      `${source} does not match the results schema ${RESULTS_SCHEMA_VERSION}: ${issues.join('; ')}`,
    );
  }
  return parsed.data;
}

export function readResults(path: string): RunResults {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ResultsError(
      'RESULTS_UNREADABLE',
      `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  return parseResults(text, path);
}
