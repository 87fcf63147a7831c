#!/usr/bin/env node
// `certify` (package.json "bin" and `npm run certify`): runs scripts/certify.ts from a bundle that esbuild builds
// on first use and again whenever one of its sources changes, under node_modules/.cache/openbank-conformance.
// Loading the sources through tsx's module hooks costs about two seconds of CPU per run (one hooks thread for the
// process and one for the mocks' worker thread); the bundle loads without them. The packages are bundled too: loaded
// from node_modules, their few hundred files cost Node's module loader (resolving, reading, wrapping each one) about a
// sixth of a CPU-second per run (issue 21: a one-check certify, A/B alternated); a package whose package.json changes
// (npm install) rebuilds the bundle. When the bundle cannot be built, certify runs from the sources through tsx, as
// before.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// V8's optimizing compiler (TurboFan, on background threads) spent ~1.6 CPU-s of a ~10 CPU-s certify of both mocks
// (perf, issue 21) compiling code that a run of a few seconds calls too few times to repay it. Functions must now be 8
// times as warm before they are optimized (V8's interrupt budget, 66 KB of bytecode by default): the hot loops still
// are, and a run uses about a tenth less CPU (A/B alternated, 3 pairs at load 7: 9.02 -> 8.13 CPU-s). Process-wide, so
// the mocks' worker thread too; set before any of the run's modules is loaded.
setFlagsFromString('--interrupt-budget=540672');

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'openbank-conformance', 'certify');
const MANIFEST = join(CACHE, 'manifest.json');
/** this script, as the manifest names it */
const BUILDER = 'scripts/bin/certify.mjs';
/** npm's record of what node_modules holds, rewritten by every install: a bundled package may have changed */
const INSTALLED = 'node_modules/.package-lock.json';
/** the entry points: certify itself, and the mocks' worker thread (lib/mock/thread.ts starts thread-main.mjs beside it) */
const ENTRIES = { certify: 'scripts/certify.ts', 'thread-main': 'lib/mock/thread-main.ts' };
/**
 * older builds are removed once they are this old: a run loads all its modules from its build in its first second
 * or two (its threads too), so no run still needs one by then
 */
const PRUNE_AFTER_MS = 10 * 60 * 1000;

const stamp = (file) => {
  const s = statSync(join(ROOT, file));
  return `${s.size}:${s.mtimeMs}`;
};

/** the current build's directory, when every source it was built from is unchanged */
function currentBuild(esbuildVersion) {
  let m;
  try {
    m = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return undefined;
  }
  if (m.esbuild !== esbuildVersion || JSON.stringify(m.entries) !== JSON.stringify(ENTRIES)) return undefined;
  try {
    // this script too: a change to how the bundle is built (the options in build()) rebuilds it
    if (m.builder !== stamp(BUILDER)) return undefined;
    for (const [file, s] of Object.entries(m.inputs)) if (stamp(file) !== s) return undefined;
  } catch {
    return undefined; // a source was removed
  }
  const dir = join(CACHE, m.dir);
  return existsSync(join(dir, 'certify.mjs')) ? dir : undefined;
}

async function build(esbuild) {
  mkdirSync(CACHE, { recursive: true });
  const name = `build-${Date.now().toString(36)}-${process.pid}`;
  const builder = stamp(BUILDER);
  const dir = join(CACHE, name);
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // a package's ES module build where it has one (jsonc-parser's main is a UMD build that requires its files at run time)
    mainFields: ['module', 'main'],
    // the CommonJS packages (undici, node-forge) require Node's built-in modules: an ES module has no `require` of its own
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'silent',
  });
  // stamps taken after the build: a source edited during it is seen as changed next time
  const inputs = existsSync(join(ROOT, INSTALLED)) ? { [INSTALLED]: stamp(INSTALLED) } : {};
  for (const file of Object.keys(result.metafile.inputs)) {
    // a bundled package's files by its package.json (rewritten by npm when the package is installed or updated)
    const pkg = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file);
    const stamped = pkg ? `${pkg[1]}/package.json` : file;
    inputs[stamped] ??= stamp(stamped);
  }
  const tmp = `${MANIFEST}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ esbuild: esbuild.version, entries: ENTRIES, builder, dir: name, inputs }));
  renameSync(tmp, MANIFEST); // atomic: concurrent runs each see a whole manifest
  prune(name);
  return dir;
}

function prune(keep) {
  const now = Date.now();
  for (const entry of readdirSync(CACHE)) {
    if (entry === keep || !entry.startsWith('build-')) continue;
    const path = join(CACHE, entry);
    try {
      if (now - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another run pruned it first
    }
  }
}

/** esbuild's version, read from its package.json (loading esbuild itself is only needed to build) */
function esbuildVersion() {
  try {
    return JSON.parse(readFileSync(createRequire(import.meta.url).resolve('esbuild/package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

async function bundled() {
  const version = esbuildVersion();
  if (!version) return undefined;
  const ready = currentBuild(version);
  if (ready) return ready;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  try {
    return await build(esbuild);
  } catch (e) {
    const why = e?.errors?.[0]?.text ?? e?.message ?? String(e);
    process.stderr.write(`certify: could not bundle the sources (${why}); running them through tsx\n`);
    return undefined;
  }
}

const dir = await bundled();
if (dir) {
  await import(pathToFileURL(join(dir, 'certify.mjs')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(ROOT, 'scripts', 'certify.ts')).href);
}
