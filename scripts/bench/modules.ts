/**
 * The CPU profile of `npm run bench` by module: which of the harness's modules (and which packages, which of Node's
 * own) a run's time goes to, self and total (a sample counts once for every module on its stack), over all its threads.
 * certify runs from its bundle (scripts/bin/bundle.mjs), so a profile names bundle chunks: esbuild writes a
 * `// lib/http/client.ts` comment where each source module's code starts, and a frame's line is mapped back to the
 * last such comment above it. The arithmetic is pure (test/bench/modules.test.ts); reading the chunks is `chunkModules`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CpuProfile } from './floor.ts';

/** a chunk's module starts: [0-based line, source path], by line */
export type ModuleStarts = readonly (readonly [number, string])[];

/** where each source module starts in a bundle chunk (esbuild's `// path` comments), by line */
export function moduleStarts(text: string): ModuleStarts {
  const out: [number, string][] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // a package linked from elsewhere (the bench's worktree before) is named by a relative path out of the checkout
    const m = /^\/\/ (?:\.\.\/)*(?:[^\s/]+\/)*?((?:node_modules|lib|scripts|suites)\/\S+\.(?:[cm]?[jt]sx?|json))$/.exec(
      lines[i]!,
    );
    if (m) out.push([i, m[1]!]);
  }
  return out;
}

/** a source path as the tables name it: a package by its name (`pkg:undici`), a harness module by its path */
export function moduleName(path: string): string {
  const pkg = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  return pkg ? `pkg:${pkg[1]}` : path;
}

/**
 * The module of a frame: Node's own by its url (`node:net`), a bundle chunk's line by its module comment, another file
 * by its path; a frame without url (the garbage collector, native code, the program) by its name in parentheses.
 */
export function frameModule(
  frame: { functionName: string; url: string; lineNumber?: number },
  starts: (url: string) => ModuleStarts | undefined,
): string {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : `(native ${frame.functionName})`;
  if (!frame.url.startsWith('file:')) return frame.url;
  const s = starts(frame.url);
  const line = frame.lineNumber ?? 0;
  let found: string | undefined;
  if (s)
    for (const [at, path] of s) {
      if (at > line) break;
      found = path;
    }
  if (found) return moduleName(found);
  // a chunk's own lines before its first module (esbuild's helpers), or a file outside a bundle
  if (/\/\.cache\/openbank-conformance\//.test(frame.url)) return '(bundle helpers)';
  return moduleName(frame.url.replace(/^file:\/\/.*?\/(?=(node_modules|lib|scripts|suites)\/)/, ''));
}

export interface ModuleTime {
  module: string;
  selfMs: number;
  totalMs: number;
}

/** self and total time by module over the profiles, largest self first; idle time is not CPU and is left out */
export function byModule(
  profiles: readonly CpuProfile[],
  starts: (url: string) => ModuleStarts | undefined,
): { modules: ModuleTime[]; sampledMs: number } {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let sampledMs = 0;
  for (const p of profiles) {
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const moduleOf = new Map(p.nodes.map((n) => [n.id, frameModule(n.callFrame, starts)]));
    const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
    p.samples.forEach((id, i) => {
      if (idle.has(id)) return;
      const ms = (p.timeDeltas[i] ?? 0) / 1000;
      sampledMs += ms;
      const own = moduleOf.get(id) ?? '(unknown)';
      self.set(own, (self.get(own) ?? 0) + ms);
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const m = moduleOf.get(at);
        if (m === undefined || m === '(root)' || seen.has(m)) continue;
        seen.add(m);
        total.set(m, (total.get(m) ?? 0) + ms);
      }
    });
  }
  const modules = [...total.keys()]
    .map((module) => ({ module, selfMs: self.get(module) ?? 0, totalMs: total.get(module) ?? 0 }))
    .sort((a, b) => b.selfMs - a.selfMs || b.totalMs - a.totalMs);
  return { modules, sampledMs };
}

/** a module of the harness (its sources), not a package, nor Node's, nor the engine's */
export const isHarnessModule = (m: string): boolean => /^(lib|scripts|suites)\//.test(m);

/** the lines `npm run bench` prints: the top modules by self time, and the harness's own by total time */
export function moduleLines(t: { modules: ModuleTime[]; sampledMs: number }, n = 8): string[] {
  const pct = (ms: number): string => `${((100 * ms) / t.sampledMs).toFixed(1)}%`;
  const fmt = (m: ModuleTime): string =>
    `${m.module} ${m.selfMs.toFixed(0)} ms self (${pct(m.selfMs)}), ${m.totalMs.toFixed(0)} ms total (${pct(m.totalMs)})`;
  const ours = t.modules.filter((m) => isHarnessModule(m.module)).sort((a, b) => b.totalMs - a.totalMs);
  const oursSelf = ours.reduce((s, m) => s + m.selfMs, 0);
  return [
    `  by module, self time (all threads; a bundle chunk's lines mapped to their source): ` +
      t.modules
        .slice(0, n)
        .map((m) => `${m.module} ${pct(m.selfMs)}`)
        .join(', '),
    `  the harness's own modules (lib/, scripts/, suites/): ${pct(oursSelf)} self in all; by total time:`,
    ...ours.slice(0, n).map((m) => `    ${fmt(m)}`),
  ];
}

/** the module starts of the bundle chunks a profile names, read once each (undefined for a file that cannot be read) */
export function chunkModules(): (url: string) => ModuleStarts | undefined {
  const cache = new Map<string, ModuleStarts | undefined>();
  return (url) => {
    if (!cache.has(url)) {
      try {
        cache.set(url, moduleStarts(readFileSync(fileURLToPath(url), 'utf8')));
      } catch {
        cache.set(url, undefined);
      }
    }
    return cache.get(url);
  };
}
