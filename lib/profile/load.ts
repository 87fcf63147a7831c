/**
 * Profile loader: JSONC text -> references resolved -> zod-validated profile.
 *
 *  1. JSONC (comments, trailing commas) via jsonc-parser; syntax errors report line:column.
 *  2. References, in every string value:
 *       `${env:NAME}`      anywhere inside a string: replaced by the variable's value (unset = error);
 *       `file:rel/path`    as the whole string: replaced by the file's text, path relative to the profile's
 *                          directory (`${env:...}` inside the path is substituted first).
 *     A value read from a variable or a file is never re-interpreted (no nested references).
 *  3. Validation: EmbeddedProfile when the document has `embedded`, else FullProfile.
 *
 * Errors never print a resolved value: they name the field path, the variable or the file.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { ZodError } from 'zod';
import { EmbeddedProfile, FullProfile, type AnyProfile } from './schema.ts';
import { ProfileError, formatPath } from './errors.ts';
import { isOpenApiField, withOpenApi } from './openapi.ts';

export { ProfileError, formatPath } from './errors.ts';
export type { ProfileErrorCode } from './errors.ts';

export interface ParseOptions {
  /** directory `file:` references are relative to (default: the directory of `source`, else the cwd) */
  baseDir?: string;
  /** variables for `${env:NAME}` (default: process.env) */
  env?: Record<string, string | undefined>;
  /** a label for error messages, normally the profile's path */
  source?: string;
}

const ENV_REF = /\$\{env:([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FILE_PREFIX = 'file:';
/** a profile never needs more; bounds a mistaken `file:` pointing at a huge file */
const MAX_FILE_BYTES = 1024 * 1024;

export async function loadProfile(path: string, opts: Omit<ParseOptions, 'source'> = {}): Promise<AnyProfile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'read error';
    throw new ProfileError('PROFILE_NOT_FOUND', path, [`cannot read the profile (${code})`]);
  }
  const parsed = parseWithRaw(text, { baseDir: opts.baseDir ?? dirname(resolve(path)), env: opts.env, source: path });
  // the OpenAPI document loads with the profile, before any traffic (lib/profile/openapi.ts)
  await withOpenApi(parsed.profile, parsed.raw, path);
  return parsed.profile;
}

export function parseProfile(text: string, opts: ParseOptions = {}): AnyProfile {
  return parseWithRaw(text, opts).profile;
}

/** the profile, and the document as written (references resolved, before the schema's defaults) */
function parseWithRaw(text: string, opts: ParseOptions): { profile: AnyProfile; raw: unknown } {
  const source = opts.source ?? '<profile>';
  const baseDir = opts.baseDir ?? (opts.source ? dirname(resolve(opts.source)) : process.cwd());
  const env = opts.env ?? process.env;

  const doc = parseText(text, source);
  const resolved = new Set<string>();
  const issues: string[] = [];
  const value = resolveRefs(doc, [], { baseDir, env, issues, resolved });
  if (issues.length) throw new ProfileError('PROFILE_REFERENCE', source, issues);

  const isEmbedded = typeof value === 'object' && value !== null && 'embedded' in value;
  const result = isEmbedded ? EmbeddedProfile.safeParse(value) : FullProfile.safeParse(value);
  if (!result.success) throw new ProfileError('PROFILE_INVALID', source, zodIssues(result.error, resolved));
  // a login script runs from the profile's folder, as its `file:` references are resolved
  if ('target' in result.data && result.data.target.consent.mode === 'script')
    result.data.target.consent.workingDirectory ??= baseDir;
  return { profile: result.data, raw: value };
}

function parseText(text: string, source: string): unknown {
  const errors: ParseError[] = [];
  const doc: unknown = parseJsonc(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  if (errors.length) {
    const issues = errors.map((e) => `${lineCol(text, e.offset)}: ${printParseErrorCode(e.error)}`);
    throw new ProfileError('PROFILE_SYNTAX', source, issues);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new ProfileError('PROFILE_SYNTAX', source, ['1:1: the profile must be a JSON object']);
  }
  return doc;
}

/** 1-based line:column of a character offset. */
function lineCol(text: string, offset: number): string {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return `${line}:${col}`;
}

interface RefContext {
  baseDir: string;
  env: Record<string, string | undefined>;
  issues: string[];
  /** every value read from a variable or file, to scrub from validation messages */
  resolved: Set<string>;
}

function resolveRefs(v: unknown, path: PropertyKey[], ctx: RefContext): unknown {
  if (typeof v === 'string') return resolveString(v, path, ctx);
  if (Array.isArray(v)) return v.map((item, i) => resolveRefs(item, [...path, i], ctx));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) out[k] = resolveRefs(item, [...path, k], ctx);
    return out;
  }
  return v;
}

function substituteEnv(s: string, path: PropertyKey[], ctx: RefContext): string {
  return s.replace(ENV_REF, (_m, name: string) => {
    if (!ENV_NAME.test(name)) {
      ctx.issues.push(`${formatPath(path)}: invalid variable name in \${env:${name}}`);
      return '';
    }
    const value = ctx.env[name];
    if (value === undefined) {
      ctx.issues.push(`${formatPath(path)}: environment variable ${name} is not set`);
      return '';
    }
    if (value.length >= 4) ctx.resolved.add(value);
    return value;
  });
}

function resolveString(s: string, path: PropertyKey[], ctx: RefContext): string {
  if (!s.startsWith(FILE_PREFIX)) return substituteEnv(s, path, ctx);
  const before = ctx.issues.length;
  const rel = substituteEnv(s.slice(FILE_PREFIX.length).trim(), path, ctx);
  if (ctx.issues.length > before) return '';
  if (!rel) {
    ctx.issues.push(`${formatPath(path)}: empty file: reference`);
    return '';
  }
  const file = resolve(ctx.baseDir, rel);
  // the OpenAPI document is read by its own loader (lib/openapi/load.ts): the reference stays a path
  if (isOpenApiField(path)) return `${FILE_PREFIX}${file}`;
  try {
    const buf = readFileSync(file);
    if (buf.length > MAX_FILE_BYTES) {
      ctx.issues.push(`${formatPath(path)}: file ${rel} is larger than ${MAX_FILE_BYTES} bytes`);
      return '';
    }
    const text = buf.toString('utf8');
    if (text.length >= 4) ctx.resolved.add(text);
    return text;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'read error';
    // the full path too: a relative reference resolves from the profile's folder, which a reader may not guess
    ctx.issues.push(`${formatPath(path)}: cannot read file ${rel} (${file === rel ? code : `${file}: ${code}`})`);
    return '';
  }
}

function zodIssues(err: ZodError, resolved: Set<string>): string[] {
  return err.issues.map((i) => {
    let msg = i.message;
    // zod 4 messages do not quote input values, but a custom message might: scrub anything resolved
    for (const secret of resolved) if (msg.includes(secret)) msg = msg.split(secret).join('[REDACTED]');
    return `${formatPath(i.path)}: ${msg}`;
  });
}
