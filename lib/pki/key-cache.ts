/**
 * A per-machine cache of the run-time test PKI's RSA key pairs (docs/performance.md): generating them was the largest
 * fixed cost of a run (ten key generations, some seconds of CPU). Only the test PKI's keys (lib/pki generateTestPki)
 * come from here, never a profile's own keys or secrets; the certificates are still issued at every run.
 *
 * The file is `<package>/node_modules/.cache/openbank-conformance/test-keys/test-keys.v<FORMAT>.json` (never
 * committed: node_modules is ignored; HARNESS_KEY_CACHE_DIR names another folder), mode 0600 in a 0700 folder,
 * written whole to a temporary file and renamed (atomic: concurrent runs each read a whole file, the last writer
 * wins). A file that cannot be used (unreadable, not JSON, another format, a key that does not parse or does not
 * match its public half or its size, readable by others, owned by another user) is said in one line and replaced
 * with new keys. HARNESS_FRESH_KEYS=1 (`certify --fresh-keys`) generates new keys and replaces the cached ones.
 */
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.ts';
import type { KeyPair } from './types.ts';

/** the file's format: a change of it (or of what a run needs from the keys) is a new file name and version */
export const KEY_CACHE_FORMAT = 1;

export interface KeyCacheOptions {
  /** the cache's folder (default HARNESS_KEY_CACHE_DIR, else the package's cache folder) */
  dir?: string;
  /** new keys, replacing the cached ones (default HARNESS_FRESH_KEYS=1) */
  fresh?: boolean;
  /** where the one-line notices go (default stderr) */
  log?: (line: string) => void;
}

interface CacheFile {
  format: number;
  /** key pairs by modulus length (bits) */
  keys: Record<string, KeyPair[]>;
}

export function keyCacheDir(): string {
  return process.env.HARNESS_KEY_CACHE_DIR || join(ROOT, 'node_modules', '.cache', 'openbank-conformance', 'test-keys');
}

export function keyCacheFile(dir = keyCacheDir()): string {
  return join(dir, `test-keys.v${KEY_CACHE_FORMAT}.json`);
}

/** whether this run was asked for new test keys (HARNESS_FRESH_KEYS=1 or true) */
export function freshKeysAsked(): boolean {
  return /^(1|true|yes)$/i.test(process.env.HARNESS_FRESH_KEYS ?? '');
}

class Unusable extends Error {}

/** the cached keys by size, or why the file cannot be used (undefined when there is no file) */
function readCache(file: string): Record<string, KeyPair[]> | undefined {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return undefined;
  }
  if (!st.isFile()) throw new Unusable('not a regular file');
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Unusable('owned by another user');
  if ((st.mode & 0o077) !== 0) throw new Unusable(`mode ${(st.mode & 0o777).toString(8)}, not 600`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Unusable(`not readable as JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const f = parsed as Partial<CacheFile> | null;
  if (!f || typeof f !== 'object' || f.format !== KEY_CACHE_FORMAT)
    throw new Unusable(`not format ${KEY_CACHE_FORMAT}`);
  if (!f.keys || typeof f.keys !== 'object') throw new Unusable('no keys');
  return f.keys;
}

/** a cached key pair is used only when it parses, is RSA of `bits` and its public half is its own */
function checkPair(k: unknown, bits: number): KeyPair {
  const p = k as Partial<KeyPair> | null;
  if (!p || typeof p.privateKeyPem !== 'string' || typeof p.publicKeyPem !== 'string')
    throw new Unusable('a key pair without its PEMs');
  let priv;
  try {
    priv = createPrivateKey(p.privateKeyPem);
  } catch {
    throw new Unusable('a private key that does not parse');
  }
  if (priv.asymmetricKeyType !== 'rsa' || priv.asymmetricKeyDetails?.modulusLength !== bits)
    throw new Unusable(`a key that is not RSA-${bits}`);
  const pub = createPublicKey(priv).export({ type: 'spki', format: 'pem' });
  if (pub !== p.publicKeyPem) throw new Unusable('a public key that is not its private key’s');
  return { privateKeyPem: p.privateKeyPem, publicKeyPem: p.publicKeyPem };
}

function writeCache(dir: string, file: string, keys: Record<string, KeyPair[]>): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ format: KEY_CACHE_FORMAT, keys } satisfies CacheFile), {
      mode: 0o600,
      flag: 'wx',
    });
    chmodSync(tmp, 0o600); // the umask may have narrowed it; never widened
    renameSync(tmp, file); // atomic: a concurrent run reads the old file or this one, whole
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Key pairs of the given sizes, in order (distinct: each size's pairs are taken one after another), from the
 * cache when it holds them, else generated by `generate` (at once, in parallel) and the cache written.
 */
export async function cachedKeyPairs(
  sizes: readonly number[],
  generate: (bits: number) => Promise<KeyPair>,
  options: KeyCacheOptions = {},
): Promise<KeyPair[]> {
  const dir = options.dir ?? keyCacheDir();
  const file = keyCacheFile(dir);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const fresh = options.fresh ?? freshKeysAsked();
  const wanted = new Map<number, number>();
  for (const b of sizes) wanted.set(b, (wanted.get(b) ?? 0) + 1);

  let cached: Record<string, KeyPair[]> = {};
  if (!fresh) {
    try {
      const all = readCache(file) ?? {};
      // every pair of a size a run takes is checked; a size it does not take is kept as it is
      for (const [b, n] of wanted) {
        const list = all[String(b)];
        if (Array.isArray(list) && list.length >= n) all[String(b)] = list.slice(0, n).map((k) => checkPair(k, b));
      }
      cached = all;
    } catch (e) {
      if (!(e instanceof Unusable)) throw e;
      log(`test keys: the key cache ${file} cannot be used (${e.message}): new test keys are generated and cached`);
      cached = {};
    }
  }
  const missing = [...wanted].filter(([b, n]) => !(Array.isArray(cached[String(b)]) && cached[String(b)]!.length >= n));
  if (missing.length) {
    const made = await Promise.all(missing.map(([b, n]) => Promise.all(Array.from({ length: n }, () => generate(b)))));
    missing.forEach(([b], i) => (cached[String(b)] = made[i]!));
    try {
      writeCache(dir, file, cached);
    } catch (e) {
      log(`test keys: the key cache ${file} could not be written (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  const next = new Map<number, number>();
  return sizes.map((b) => {
    const i = next.get(b) ?? 0;
    next.set(b, i + 1);
    return cached[String(b)]![i]!;
  });
}
