/**
 * TEST DOUBLE of the k6 module API (k6, k6/http, k6/encoding, k6/metrics and the globals open, __ENV, __VU,
 * __ITER): just enough to run the generated load bundle once per scenario against the embedded mock in a test.
 * It is not a load runner (one VU, a few iterations, one request at a time) and lives in test/ only.
 * k6's HTTP calls are synchronous: the double makes them on a worker thread and waits with Atomics.wait.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';

export interface DoubleRequest {
  name: string;
  method: string;
  url: string;
  status: number;
  /** failed per the request's expected statuses (k6's http_req_failed) */
  failed: boolean;
}
export interface DoubleRun {
  requests: DoubleRequest[];
  checks: { name: string; ok: boolean }[];
  rates: Record<string, boolean[]>;
  options: Record<string, unknown>;
}

interface Tls {
  cert?: string;
  key?: string;
  insecure: boolean;
}
interface SyncAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  error?: string;
}

const WORKER = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
parentPort.on('message', ({ req, tls, sab }) => {
  const flag = new Int32Array(sab, 0, 2);
  const bytes = new Uint8Array(sab, 8);
  const done = (answer) => {
    const enc = Buffer.from(JSON.stringify(answer));
    if (enc.length > bytes.length) return done({ status: 0, headers: {}, body: '', error: 'answer too large' });
    bytes.set(enc);
    flag[1] = enc.length;
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  const u = new URL(req.url);
  const mod = u.protocol === 'https:' ? https : http;
  const r = mod.request(u, { method: req.method, headers: req.headers, cert: tls.cert, key: tls.key,
    rejectUnauthorized: !tls.insecure, agent: false, timeout: 10000 }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
  });
  r.on('timeout', () => r.destroy(new Error('timeout')));
  r.on('error', (e) => done({ status: 0, headers: {}, body: '', error: String(e.code || e.message) }));
  if (req.body != null) r.write(req.body);
  r.end();
});`;

/** "retry-after" → "Retry-After", as k6 presents header names */
function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());
}

class SyncHttp {
  private worker = new Worker(WORKER, { eval: true });
  /** from the script's options (tlsAuth, insecureSkipTLSVerify), set after its init code ran */
  tls: Tls = { insecure: false };
  send(req: { method: string; url: string; headers: Record<string, string>; body: string | null }): SyncAnswer {
    const sab = new SharedArrayBuffer(8 + 8 * 1024 * 1024);
    const flag = new Int32Array(sab, 0, 2);
    this.worker.postMessage({ req, tls: this.tls, sab });
    if (Atomics.wait(flag, 0, 0, 30_000) === 'timed-out') throw new Error(`k6 double: ${req.url} timed out`);
    const text = Buffer.from(new Uint8Array(sab, 8, flag[1])).toString('utf8');
    return JSON.parse(text) as SyncAnswer;
  }
  close(): Promise<number> {
    return this.worker.terminate();
  }
}

interface ResponseDouble {
  status: number;
  headers: Record<string, string>;
  body: string;
  error: string;
  json(selector?: string): unknown;
}

function modules(run: DoubleRun, http: SyncHttp): Record<string, unknown> {
  const expectedStatuses = (...codes: number[]): { expected: number[] } => ({ expected: codes });
  const request = (
    method: string,
    url: string,
    body: string | null,
    params: {
      headers?: Record<string, string>;
      tags?: { name?: string };
      responseCallback?: { expected: number[] };
    } = {},
  ): ResponseDouble => {
    const a = http.send({ method, url, headers: params.headers ?? {}, body });
    const headers = Object.fromEntries(Object.entries(a.headers).map(([k, v]) => [canonical(k), String(v)]));
    const expected = params.responseCallback?.expected;
    const failed = expected ? !expected.includes(a.status) : a.status === 0 || a.status >= 400;
    run.requests.push({ name: params.tags?.name ?? url, method, url, status: a.status, failed });
    return {
      status: a.status,
      headers,
      body: a.body,
      error: a.error ?? '',
      json: (selector) => {
        const doc = JSON.parse(a.body) as Record<string, unknown>;
        return selector === undefined ? doc : (doc[selector] ?? null);
      },
    };
  };
  return {
    k6: {
      check: (value: unknown, sets: Record<string, (v: unknown) => boolean>) => {
        let all = true;
        for (const [name, f] of Object.entries(sets)) {
          const ok = Boolean(f(value));
          run.checks.push({ name, ok });
          all &&= ok;
        }
        return all;
      },
      fail: (message?: string) => {
        throw new Error(message ?? 'fail');
      },
    },
    // CommonJS interop: a default import of these gets module.exports itself
    'k6/http': { request, expectedStatuses },
    'k6/encoding': { b64encode: (s: string) => Buffer.from(s, 'utf8').toString('base64') },
    'k6/metrics': {
      Rate: class {
        constructor(private readonly name: string) {
          run.rates[name] = [];
        }
        add(v: boolean): void {
          run.rates[this.name]!.push(v);
        }
      },
    },
  };
}

/** the bundle as CommonJS whose k6 imports read from the double (and __ITER bound to the double's counter) */
async function asCommonJs(bundlePath: string): Promise<string> {
  const out = await build({
    entryPoints: [bundlePath],
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'k6-double',
        setup(b) {
          b.onResolve({ filter: /^k6(\/.*)?$/ }, (a) => ({ path: a.path, namespace: 'k6-double' }));
          b.onLoad({ filter: /.*/, namespace: 'k6-double' }, (a) => ({
            contents: `module.exports = globalThis.__k6double[${JSON.stringify(a.path)}];`,
            loader: 'js',
          }));
        },
      },
    ],
  });
  return out.outputFiles[0]!.text;
}

/**
 * Runs one scenario of the bundle: init code once (one VU), then the scenario's exec function `iterations` times.
 * `env` is k6's __ENV; `open` reads files (the data file).
 */
export async function runBundle(
  bundlePath: string,
  o: { env: Record<string, string>; iterations: number },
): Promise<DoubleRun> {
  const code = await asCommonJs(bundlePath);
  const run: DoubleRun = { requests: [], checks: [], rates: {}, options: {} };
  const g = globalThis as Record<string, unknown>;
  let iter = 0;
  g.__k6double = undefined;
  const http = new SyncHttp();
  try {
    g.__k6double = modules(run, http);
    const mod: { exports: Record<string, unknown> } = { exports: {} };
    const init = new Function(
      'module',
      'exports',
      'open',
      '__ENV',
      '__VU',
      '__ITER_REF',
      code.replace(/\b__ITER\b/g, '__ITER_REF.value'),
    );
    const iterRef = {
      get value() {
        return iter;
      },
    };
    init(mod, mod.exports, (p: string) => readFileSync(p, 'utf8'), o.env, 1, iterRef);
    run.options = mod.exports.options as Record<string, unknown>;
    const auth = (run.options.tlsAuth as { cert: string; key: string }[] | undefined)?.[0];
    http.tls = {
      ...(auth ? { cert: auth.cert, key: auth.key } : {}),
      insecure: run.options.insecureSkipTLSVerify === true,
    };
    const scenarios = run.options.scenarios as Record<string, { exec?: string }>;
    const exec = Object.values(scenarios)[0]?.exec ?? 'default';
    const fn = mod.exports[exec] as () => void;
    for (iter = 0; iter < o.iterations; iter++) fn();
    return run;
  } finally {
    delete g.__k6double;
    await http.close();
  }
}
