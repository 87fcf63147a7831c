// The bundle `certify` runs from (scripts/bin/certify.mjs): esbuild bundles scripts/certify.ts and the mocks' worker
// thread, with the packages they use, under node_modules/.cache/openbank-conformance/certify, on first use and again
// whenever one of its sources, a bundled package (npm install) or this module changes; a manifest stamps the inputs.
// Why a bundle: loading the sources through tsx's module hooks, and the packages' files through Node's loader, is most
// of a short run's start-up (docs/performance.md "Start-up"). Plain JavaScript, loaded before any TypeScript.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'openbank-conformance', 'certify');
const MANIFEST = join(CACHE, 'manifest.json');
/** this module, as the manifest names it: a change to how the bundle is built (the options in build()) rebuilds it */
const BUILDER = 'scripts/bin/bundle.mjs';
/** npm's record of what node_modules holds, rewritten by every install: a bundled package may have changed */
const INSTALLED = 'node_modules/.package-lock.json';
/**
 * the entry points: certify itself, the mocks' worker thread (lib/mock/server/thread.ts starts thread-main.mjs beside
 * it), and the reviewer's by-hand commands (scripts/bin/jose.mjs, send.mjs): one build, their shared code in chunks
 */
const ENTRIES = {
  certify: 'scripts/certify.ts',
  'thread-main': 'lib/mock/server/thread-main.ts',
  jose: 'scripts/jose.ts',
  send: 'scripts/send.ts',
};
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
    if (m.builder !== stamp(BUILDER)) return undefined;
    for (const [file, s] of Object.entries(m.inputs)) if (stamp(file) !== s) return undefined;
  } catch {
    return undefined; // a source was removed
  }
  const dir = join(CACHE, m.dir);
  return Object.keys(ENTRIES).every((e) => existsSync(join(dir, `${e}.mjs`))) ? dir : undefined;
}

/**
 * zod's index exports its 60-odd locales (`z.locales`, `z.core.locales`): a third of its code, compiled at every start
 * before the first call (about 10 ms of certify's main thread). The harness uses English only, zod's default, which
 * zod's schemas import on their own: in the bundle, the locales' index holds English alone.
 */
const ZOD_LOCALES = /[\\/]node_modules[\\/]zod[\\/]v4[\\/](?:core|classic|mini)[\\/][^\\/]+$/;
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      ZOD_LOCALES.test(args.importer)
        ? { path: 'zod/v4/locales', namespace: 'zod-en', pluginData: join(dirname(args.importer), '..', 'locales') }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

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
    plugins: [zodEnglishOnly],
    metafile: true,
    logLevel: 'silent',
  });
  // stamps taken after the build: a source edited during it is seen as changed next time
  const inputs = existsSync(join(ROOT, INSTALLED)) ? { [INSTALLED]: stamp(INSTALLED) } : {};
  for (const file of Object.keys(result.metafile.inputs)) {
    // a module a plugin made (`namespace:path`): its package is stamped by its own files
    if (/^[a-z-]+:/.test(file)) continue;
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

/**
 * the directory of a current bundle (one .mjs per entry point), built now if needed; undefined if none can be
 * (`command` names the command in the one line said then)
 */
export async function bundled(command = 'certify') {
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
    process.stderr.write(`${command}: could not bundle the sources (${why}); running them through tsx\n`);
    return undefined;
  }
}
