/**
 * The per-machine cache of the test PKI's keys (lib/pki/key-cache.ts, docs/performance.md): reused while usable,
 * replaced on request (fresh), replaced with a clear line when corrupted, mismatched or readable by others; 0600 in a
 * 0700 folder; written atomically (concurrent runs); only ever the test PKI's keys.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateRsaKeyPair, generateTestPki } from '../../lib/pki/index.ts';
import {
  cachedKeyPairs,
  freshKeysAsked,
  KEY_CACHE_FORMAT,
  keyCacheFile,
  type KeyCacheOptions,
} from '../../lib/pki/key-cache.ts';
import type { KeyPair } from '../../lib/pki/types.ts';

let dir: string;
let generated: number;
let lines: string[];
const generate = (bits: number): Promise<KeyPair> => {
  generated++;
  return generateRsaKeyPair(bits);
};
const opts = (o: KeyCacheOptions = {}): KeyCacheOptions => ({
  dir: join(dir, 'keys'),
  log: (l) => lines.push(l),
  ...o,
});
const file = (): string => keyCacheFile(join(dir, 'keys'));
const privates = (ks: KeyPair[]): string[] => ks.map((k) => k.privateKeyPem);
/** freshKeysAsked() with HARNESS_FRESH_KEYS set to `v` (unset when undefined) */
function asked(v: string | undefined): boolean {
  if (v === undefined) delete process.env.HARNESS_FRESH_KEYS;
  else process.env.HARNESS_FRESH_KEYS = v;
  return freshKeysAsked();
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'key-cache-'));
  generated = 0;
  lines = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('cachedKeyPairs', () => {
  it('generates distinct keys once, writes them 0600 in a 0700 folder, then reuses them', async () => {
    const first = await cachedKeyPairs([1024, 1024, 1024], generate, opts());
    const made = generated;
    const again = await cachedKeyPairs([1024, 1024, 1024], generate, opts());
    expect(made).toBe(3);
    expect(generated).toBe(3);
    expect(new Set(privates(first)).size).toBe(3);
    expect(privates(again)).toEqual(privates(first));
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'keys')).mode & 0o777).toBe(0o700);
    expect(file()).toMatch(new RegExp(`test-keys\\.v${KEY_CACHE_FORMAT}\\.json$`));
    expect(lines).toEqual([]);
  });

  it('fresh (certify --fresh-keys, HARNESS_FRESH_KEYS=1): new keys, which replace the cached ones', async () => {
    const cached = await cachedKeyPairs([1024, 1024], generate, opts());
    const fresh = await cachedKeyPairs([1024, 1024], generate, opts({ fresh: true }));
    const next = await cachedKeyPairs([1024, 1024], generate, opts());
    expect(generated).toBe(4);
    expect(privates(fresh)).not.toContain(cached[0]!.privateKeyPem);
    expect(privates(fresh)).not.toContain(cached[1]!.privateKeyPem);
    expect(privates(next)).toEqual(privates(fresh));
  });

  it('HARNESS_FRESH_KEYS=1 asks for fresh keys; unset or 0 does not', () => {
    const was = process.env.HARNESS_FRESH_KEYS;
    try {
      expect([asked('1'), asked('true'), asked('0'), asked(''), asked(undefined)]).toEqual([
        true,
        true,
        false,
        false,
        false,
      ]);
    } finally {
      asked(was);
    }
  });

  it('a corrupted cache file is replaced by new keys, said in one line naming the file', async () => {
    await cachedKeyPairs([1024], generate, opts());
    writeFileSync(file(), '{"format": 1, "keys": {"1024": [{"privateKeyPem": "-----BEGIN', { mode: 0o600 });
    const keys = await cachedKeyPairs([1024], generate, opts());
    expect(generated).toBe(2);
    expect(lines).toEqual([
      expect.stringMatching(/^test keys: the key cache .*test-keys\.v1\.json cannot be used \(not readable as JSON/),
    ]);
    expect(JSON.parse(readFileSync(file(), 'utf8')).keys['1024'][0].privateKeyPem).toBe(keys[0]!.privateKeyPem);
  });

  it('a key pair whose public half is not its own, or of another size, is not used', async () => {
    const [a, b] = await cachedKeyPairs([1024, 1024], generate, opts());
    writeFileSync(
      file(),
      JSON.stringify({
        format: 1,
        keys: { '1024': [{ privateKeyPem: a!.privateKeyPem, publicKeyPem: b!.publicKeyPem }] },
      }),
      { mode: 0o600 },
    );
    const mixed = await cachedKeyPairs([1024], generate, opts());
    writeFileSync(file(), JSON.stringify({ format: 1, keys: { '2048': [a] } }), { mode: 0o600 });
    await cachedKeyPairs([2048], async () => a!, opts());
    expect(privates(mixed)).not.toContain(a!.privateKeyPem);
    expect(lines).toEqual([
      expect.stringMatching(/cannot be used \(a public key that is not its private key’s\)/),
      expect.stringMatching(/cannot be used \(a key that is not RSA-2048\)/),
    ]);
  });

  it('another format is not read: new keys', async () => {
    const [k] = await cachedKeyPairs([1024], generate, opts());
    writeFileSync(file(), JSON.stringify({ format: 0, keys: { '1024': [k] } }), { mode: 0o600 });
    await cachedKeyPairs([1024], generate, opts());
    expect(generated).toBe(2);
    expect(lines).toEqual([expect.stringMatching(/cannot be used \(not format 1\)/)]);
  });

  it('a cache file readable by others is not trusted: new keys, and the file is 0600 again', async () => {
    const [k] = await cachedKeyPairs([1024], generate, opts());
    chmodSync(file(), 0o644);
    const [again] = await cachedKeyPairs([1024], generate, opts());
    expect(again!.privateKeyPem).not.toBe(k!.privateKeyPem);
    expect(lines).toEqual([expect.stringMatching(/cannot be used \(mode 644, not 600\)/)]);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('concurrent runs on a cold cache each get their keys; the file left is whole, no temporary file stays', async () => {
    const runs = await Promise.all([1, 2, 3].map(() => cachedKeyPairs([1024, 1024], generate, opts())));
    const left = JSON.parse(readFileSync(file(), 'utf8')) as { keys: Record<string, KeyPair[]> };
    expect(runs.map((r) => r.length)).toEqual([2, 2, 2]);
    expect(runs.map(privates)).toContainEqual(privates(left.keys['1024']!));
    expect(readdirSync(join(dir, 'keys'))).toEqual([`test-keys.v${KEY_CACHE_FORMAT}.json`]);
  });

  it('an unwritable cache folder: the keys are still given, the failure said in one line', async () => {
    writeFileSync(join(dir, 'keys'), 'a file where the folder should be');
    const keys = await cachedKeyPairs([1024], generate, opts());
    expect(keys).toHaveLength(1);
    expect(lines).toEqual([expect.stringMatching(/^test keys: the key cache .* could not be written/)]);
  });
});

describe('generateTestPki with the cache', () => {
  it('two PKIs from one cache share their keys but not their certificates; without the cache they share nothing', async () => {
    const a = await generateTestPki(1024, { ...opts() });
    const b = await generateTestPki(1024, { ...opts() });
    const c = await generateTestPki(1024, { cache: false });
    expect(b.server.privateKeyPem).toBe(a.server.privateKeyPem);
    expect(b.server.certPem).not.toBe(a.server.certPem);
    expect(c.server.privateKeyPem).not.toBe(a.server.privateKeyPem);
    // the PKI's roles keep distinct keys (the three negative certificates share one by design)
    expect(new Set([a.bankCa, a.server, a.bankApi, a.partnerCa, a.attacker].map((k) => k.privateKeyPem)).size).toBe(5);
  });
});
