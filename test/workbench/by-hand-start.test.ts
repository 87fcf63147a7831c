/**
 * `npm run jose` and `npm run send` start as certify does: from the esbuild bundle (scripts/bin/bundle.mjs), no
 * TypeScript loaded through tsx, and `--help` or a usage error answered without loading the harness (the commands
 * are chunks of their own, imported only when a command runs). What each start loads is read with a module loader
 * hook (node:module register) that logs every module URL: no wall time is measured here (docs/performance.md has
 * the figures).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const tmp = tempDirs('by-hand-start-');

interface Started {
  status: number | null;
  stdout: string;
  stderr: string;
  /** the modules loaded, as file paths (node: built-ins left out) */
  files: string[];
}

function start(script: 'jose' | 'send', args: string[]): Started {
  const dir = tmp();
  const log = join(dir, 'loaded.log');
  writeFileSync(log, '');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) { appendFileSync(log, url + '\\n'); return next(url, context); }
`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });
`,
  );
  const r = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(join(dir, 'register.mjs')).href, join(ROOT, 'scripts', 'bin', `${script}.mjs`), ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000, input: '' },
  );
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, files };
}

/** does any loaded file hold this text (a function of the harness, by its name in the unminified bundle)? */
const holds = (s: Started, text: string): boolean => s.files.some((f) => readFileSync(f, 'utf8').includes(text));

describe('jose and send start from the bundle', () => {
  it('package.json runs both through their launchers, as certify', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.jose).toBe('exec node scripts/bin/jose.mjs');
    expect(pkg.scripts.send).toBe('exec node scripts/bin/send.mjs');
  });

  it('jose --help and a usage error load no TypeScript and not the commands; open loads them', () => {
    const help = start('jose', ['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('npm run jose -- tamper');
    expect(help.files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(help.files.some((f) => f.includes('tsx'))).toBe(false);
    expect(holds(help, 'function openReport(')).toBe(false);
    const usage = start('jose', ['seal', '--alg', 'ES999']);
    expect(usage.status).toBe(2);
    expect(usage.stderr.trim().split('\n')).toHaveLength(1);
    expect(holds(usage, 'function openReport(')).toBe(false);
    const open = start('jose', ['open', '--as', 'bank', '--profile', join(tmp(), 'none.json')]);
    expect(open.status).toBe(2);
    expect(open.stderr).toMatch(/^jose: profile .*none\.json/);
    expect(holds(open, 'function openReport(')).toBe(true);
  }, 240_000);

  it('send --help and a usage error load neither TypeScript nor the session', () => {
    const help = start('send', ['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('--repeat <n>');
    expect(help.files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(holds(help, 'function createSession(')).toBe(false);
    const usage = start('send', ['--op', 'delete', '--profile', 'p.json']);
    expect(usage.status).toBe(2);
    expect(usage.stderr.trim()).toBe('send: --op must be validate, create or get, not "delete"');
    expect(holds(usage, 'function createSession(')).toBe(false);
  }, 240_000);
});
