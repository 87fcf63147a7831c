#!/usr/bin/env node
// Runs the TypeScript reference client (client.ts) from one ES module that esbuild bundles once and again only when
// one of its sources changes, under node_modules/.cache/openbank-conformance/partner-client. A certification starts
// the client once per scenario (40 and more times): `npx tsx client.ts` spends about a second of CPU per start
// loading the sources through tsx, the bundle loads in a tenth of that. Packages stay external (they resolve from
// node_modules). The bundle is named by the SHA-256 of its sources' contents, so a client started while another
// builds never runs a stale or half-written one. Without esbuild it runs client.ts through tsx, as before.
//   npm run partner -- --cert … --run "node examples/partner-client/run.mjs"
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = 'examples/partner-client/client.ts';
const CACHE = join(ROOT, 'node_modules', '.cache', 'openbank-conformance', 'partner-client');
const SOURCES = join(CACHE, 'sources.json');
/** bundles of older sources are removed once this old (no client still loading them) */
const PRUNE_AFTER_MS = 10 * 60 * 1000;

/** SHA-256 of the sources' contents (paths and bytes), or undefined when one is gone */
function digest(files) {
  const h = createHash('sha256');
  try {
    for (const f of files)
      h.update(f)
        .update('\0')
        .update(readFileSync(join(ROOT, f)))
        .update('\0');
  } catch {
    return undefined;
  }
  return h.digest('hex').slice(0, 32);
}

/** the bundle of the current sources, when one was built */
function current() {
  try {
    const files = JSON.parse(readFileSync(SOURCES, 'utf8'));
    const d = digest(files);
    const file = d && join(CACHE, `client-${d}.mjs`);
    return file && existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

async function build() {
  const esbuild = await import('esbuild');
  mkdirSync(CACHE, { recursive: true });
  const tmp = join(CACHE, `build-${process.pid}-${Date.now().toString(36)}.mjs`);
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: tmp,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  const files = Object.keys(result.metafile.inputs)
    .filter((f) => !f.startsWith('node_modules/'))
    .sort();
  const d = digest(files);
  const file = join(CACHE, `client-${d}.mjs`);
  renameSync(tmp, file); // atomic: a concurrent start sees the whole bundle or none
  const list = `${SOURCES}.${process.pid}.tmp`;
  writeFileSync(list, JSON.stringify(files));
  renameSync(list, SOURCES);
  prune(file);
  return file;
}

function prune(keep) {
  const now = Date.now();
  for (const entry of readdirSync(CACHE)) {
    const path = join(CACHE, entry);
    if (path === keep || !/^(client|build)-.*\.mjs$/.test(entry)) continue;
    try {
      if (now - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { force: true });
    } catch {
      // another start pruned it first
    }
  }
}

let bundle = current();
if (!bundle) {
  try {
    bundle = await build();
  } catch (e) {
    const why = e?.errors?.[0]?.text ?? e?.message ?? String(e);
    process.stderr.write(`partner-client: could not bundle client.ts (${why}); running it through tsx\n`);
  }
}
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(ROOT, ENTRY)).href);
}
