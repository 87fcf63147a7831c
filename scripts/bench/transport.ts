/**
 * The transport yardstick of `npm run bench` (docs/performance.md): the median certify run's HTTP calls sent again, in
 * the same bench run, through undici to a bare node:http / node:https server (mutual TLS where the run's target used
 * it) on a worker thread — no harness, no mock, no JOSE, no recording: what Node's HTTP and TLS cost for that many
 * calls on this machine. Beside the crypto floor it bounds what any harness that makes those calls can reach: the run's
 * RSA CPU plus this transport CPU, over the cores. The arithmetic and the call split are pure
 * (test/bench/transport.test.ts); the measuring is `measureTransport`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { INITIAL } from '../../lib/http/connections/window.ts';
import type { Dispatcher, request as undiciRequest } from 'undici';
import type { Floor } from './floor.ts';

/** the script that runs one round in a fresh process */
const ROUND = fileURLToPath(new URL('./transport-round.ts', import.meta.url));

/** calls in flight per target in the yardstick: the harness's initial window (lib/http/connections/window.ts) */
export const YARDSTICK_IN_FLIGHT = INITIAL;

/** a run's HTTP calls by what they travelled over */
export interface CallSplit {
  tls: number;
  plain: number;
}

/**
 * The calls of a results.json split by transport: a profile's calls go over TLS when its target's base URL is
 * https, except its test clock's (the embedded mock's clock is on its plain loopback admin listener). Undefined
 * when the file names no calls.
 */
export function callSplitOf(resultsJson: string): CallSplit | undefined {
  try {
    const r = JSON.parse(resultsJson) as {
      profiles?: { target?: { baseUrl?: string }; traffic?: { calls?: Record<string, number> } }[];
    };
    const split: CallSplit = { tls: 0, plain: 0 };
    for (const p of r.profiles ?? []) {
      const tls = (p.target?.baseUrl ?? '').startsWith('https:');
      for (const [operation, n] of Object.entries(p.traffic?.calls ?? {})) {
        if (tls && operation !== 'clock') split.tls += n;
        else split.plain += n;
      }
    }
    return split.tls + split.plain > 0 ? split : undefined;
  } catch {
    return undefined;
  }
}

/** one measure of the yardstick */
export interface TransportMeasure {
  wallSeconds: number;
  /** the bench process's CPU while the calls ran (all threads: client, server thread, thread pool) */
  cpuSeconds: number;
}

/**
 * What the floor, the yardstick and a run say together: the bound `(RSA CPU + transport CPU) / cores` of a harness
 * that did nothing but the run's private-key operations and its calls, the run against it, and the goal
 * (wall ≤ 3 × floor, docs/performance.md "The crypto floor") against it.
 */
export function transportLines(
  f: Floor,
  split: CallSplit,
  inFlight: number,
  t: TransportMeasure,
  run: { wallSeconds: number; cpuSeconds: number },
): string[] {
  const calls = split.tls + split.plain;
  const rsaCpu = f.ops / f.signPerSecond;
  const bound = (rsaCpu + t.cpuSeconds) / f.cores;
  const beyond = run.cpuSeconds - rsaCpu - t.cpuSeconds;
  const goal = 3 * f.seconds;
  return [
    `transport yardstick: the median run's ${calls} HTTP calls (${split.tls} over mutual TLS, ${split.plain} plain) ` +
      `through undici to a bare node:http(s) server on a worker thread, keep-alive, ${inFlight} in flight per ` +
      `target: ${t.wallSeconds.toFixed(2)} s wall, ${t.cpuSeconds.toFixed(2)} CPU-s ` +
      `(${((1000 * t.cpuSeconds) / calls).toFixed(2)} ms per call)`,
    `  bound: a harness doing nothing but the run's RSA operations and these calls needs at least ` +
      `(${rsaCpu.toFixed(2)} + ${t.cpuSeconds.toFixed(2)}) CPU-s / ${f.cores} cores = ${bound.toFixed(2)} s = ` +
      `${(bound / f.seconds).toFixed(1)} x floor (Node's start, the checks' own connections and handshakes left out); ` +
      `the run: wall/bound ${(run.wallSeconds / bound).toFixed(1)}, CPU beyond RSA and bare transport ` +
      `${beyond.toFixed(2)} s, ${((1000 * beyond) / calls).toFixed(2)} ms per call; the goal wall <= 3 x floor ` +
      `(${goal.toFixed(2)} s) leaves ${(goal - bound).toFixed(2)} s beyond the bound for all the rest`,
  ];
}

/** the server: echoes a small JSON answer of about the size of the mock's (the worker runs this text as is) */
const SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
const answer = (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body = {};
    try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {}
    const out = JSON.stringify({ status: 'ACCEPTED', echo: body, reference: 'x'.repeat(400) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
};
const tls = https.createServer({ ...workerData, requestCert: true, rejectUnauthorized: true }, answer);
const plain = http.createServer(answer);
tls.listen(0, '127.0.0.1', () => plain.listen(0, '127.0.0.1', () =>
  parentPort.postMessage({ tls: tls.address().port, plain: plain.address().port })));
parentPort.on('message', () => { tls.close(); plain.close(); tls.closeAllConnections(); plain.closeAllConnections(); });
`;

/** `n` calls to `url` with `inFlight` at once (each a POST of a small JSON body, its answer read and parsed) */
async function send(
  request: typeof undiciRequest,
  url: string,
  dispatcher: Dispatcher,
  n: number,
  inFlight: number,
): Promise<void> {
  let sent = 0;
  const body = JSON.stringify({ amount: '10.00', currency: 'EUR', remittance: 'y'.repeat(400) });
  const lane = async (): Promise<void> => {
    while (sent < n) {
      sent++;
      const r = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', authorization: 'Bearer yardstick' },
        dispatcher,
      });
      if (r.statusCode !== 200) throw new Error(`the yardstick's server answered ${r.statusCode}`);
      JSON.parse(await r.body.text());
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, n) }, lane));
}

/** what a round is told (on its standard input) */
export interface RoundInput {
  split: CallSplit;
  inFlight: number;
  server: { key: string; cert: string; ca: string };
  client: { key: string; cert: string; ca: string };
}

/**
 * One round of the yardstick in this process, cold (a certify run's transport is too: a fresh process sends its
 * calls with nothing compiled yet): the server on a worker thread, `split`'s calls (both transports side by side,
 * as the run's profiles run), its wall and CPU time.
 */
export async function transportRound(input: RoundInput): Promise<TransportMeasure> {
  const { Agent, request } = await import('undici');
  const worker = new Worker(SERVER, { eval: true, workerData: input.server });
  try {
    const ports = await new Promise<{ tls: number; plain: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const tlsAgent = new Agent({ connect: { ...input.client, servername: 'localhost' } });
    const plainAgent = new Agent();
    try {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all([
        send(request, `https://127.0.0.1:${ports.tls}/transfers/validate`, tlsAgent, input.split.tls, input.inFlight),
        send(
          request,
          `http://127.0.0.1:${ports.plain}/transfers/validate`,
          plainAgent,
          input.split.plain,
          input.inFlight,
        ),
      ]);
      const cpu = process.cpuUsage(cpu0);
      return { wallSeconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
    } finally {
      await Promise.allSettled([tlsAgent.close(), plainAgent.close()]);
    }
  } finally {
    await worker.terminate();
  }
}

/**
 * The yardstick: `rounds` rounds, each in a fresh Node process (scripts/bench/transport-round.ts), the round of
 * median wall time. The certificates are the run-time test PKI's (the per-machine key cache's keys): the server's is
 * the mock's, the client's the partner's. Undefined when a round failed (said on standard error).
 */
export async function measureTransport(
  split: CallSplit,
  inFlight = YARDSTICK_IN_FLIGHT,
  rounds = 3,
): Promise<TransportMeasure | undefined> {
  const { testPki } = await import('../../lib/pki/index.ts');
  const pki = await testPki();
  const input: RoundInput = {
    split,
    inFlight,
    server: { key: pki.server.privateKeyPem, cert: pki.server.certPem, ca: pki.partnerCa.certPem },
    client: { key: pki.clients.partner.privateKeyPem, cert: pki.clients.partner.certPem, ca: pki.bankCa.certPem },
  };
  const measures: TransportMeasure[] = [];
  for (let i = 0; i < rounds; i++) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', ROUND], {
      input: JSON.stringify(input),
      encoding: 'utf8',
    });
    if (r.status !== 0) {
      process.stderr.write(
        `transport yardstick: round ${i + 1} exited ${r.status}\n${(r.stderr ?? '').slice(-2000)}\n`,
      );
      return undefined;
    }
    measures.push(JSON.parse(r.stdout) as TransportMeasure);
  }
  return measures.sort((a, b) => a.wallSeconds - b.wallSeconds)[Math.floor(rounds / 2)];
}
