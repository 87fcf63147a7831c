/**
 * Load figure of the mock itself (npm run bench -- --load): sealed validate calls per second against the embedded
 * UAT mock from the harness's own load loop (its HTTP client, one sealed body sent again and again, answers not
 * opened) at 16 and 64 calls in flight, next to `openssl speed rsa2048`: sign/s ÷ 2 is the ceiling for one sealed
 * request and response per core (the mock decrypts the request and signs the answer with RSA-2048 private keys).
 * The mock runs with the `quota-off` fault (100 calls an hour would otherwise turn the loop into 429s) on its own
 * worker thread. Prints figures; asserts nothing.
 * Beside it, what a call costs in CPU (the process's CPU time, and on Linux the main thread's: the harness's client),
 * in signatures' worth at openssl's rate: a load-independent figure (openssl speed divides by its CPU time, the calls/s
 * above by wall time, so on a busy machine the fraction above understates the mock); a sealed validate needs 2 (the
 * mock decrypts the request's content key and signs the answer; the client sends one sealed body again and again).
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { prepare } from '../../lib/engine/run/prepare.ts';
import { createSession, identityOf, urlOf } from '../../lib/engine/session/session.ts';
import { seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { opensslSignPerSecond } from './floor.ts';
import { startMockThread } from '../../lib/mock/server/thread.ts';
import { EmbeddedProfile, type FullProfile } from '../../lib/profile/schema.ts';

async function sealedValidate(
  p: FullProfile,
  token: string,
): Promise<Parameters<ReturnType<typeof createHttpClient>['send']>[0]> {
  const c = p.customers[0]!;
  const doc = {
    beneficiary_id: c.beneficiaryId,
    account_id: mask(c.accountId),
    amount: { value: '10.00', currency: 'AED' },
  };
  const body = JSON.stringify(
    await seal(doc, { signingKey: p.clients.code.privateKey!, encryptionKey: p.bank.apiPublicKey! }),
  );
  return {
    method: 'POST',
    url: urlOf(p, 'validate'),
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'x-gateway-client-id': p.clients.code.clientId,
      'content-type': 'application/json',
    },
    body,
    identity: identityOf(p, 'code')!,
  };
}

/** CPU seconds of the calling thread (Linux: /proc/thread-self/stat, in clock ticks of 10 ms), undefined elsewhere */
function threadCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    return Number.isFinite(ticks) ? ticks / 100 : undefined;
  } catch {
    return undefined;
  }
}

interface LoopResult {
  rate: number;
  other: number;
  /** CPU seconds per call: the whole process, and the main thread (the harness's client) when known */
  cpu: { all: number; client?: number };
}

/** calls/s for `seconds` with `inFlight` calls at once; counts 200s and others */
async function loop(send: () => Promise<number>, inFlight: number, seconds: number): Promise<LoopResult> {
  const end = performance.now() + seconds * 1000;
  let ok = 0;
  let other = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      if ((await send()) === 200) ok++;
      else other++;
    }
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = threadCpuSeconds();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const cpu = process.cpuUsage(cpu0);
  const main1 = threadCpuSeconds();
  const calls = Math.max(1, ok + other);
  const client = main0 !== undefined && main1 !== undefined ? (main1 - main0) / calls : undefined;
  return {
    rate: ok / ((performance.now() - t0) / 1000),
    other,
    cpu: { all: (cpu.user + cpu.system) / 1e6 / calls, ...(client !== undefined ? { client } : {}) },
  };
}

/** one call's CPU in milliseconds and in signatures' worth at `sign` per second */
function cpuLine(n: number, cpu: LoopResult['cpu'], sign: number): string {
  const ms = (s: number): string => `${(s * 1000).toFixed(2)} ms`;
  const signs = (s: number): string => `${(s * sign).toFixed(1)} signs`;
  const split =
    cpu.client === undefined
      ? ''
      : ` (harness client, main thread: ${ms(cpu.client)}; mock and crypto threads: ${ms(cpu.all - cpu.client)} = ${signs(cpu.all - cpu.client)}, floor 2)`;
  // 2 cores' worth of calls at this CPU cost, as a fraction of sign/s ÷ 2: the fraction above on an idle machine
  const idle = (2 / cpu.all / (sign / 2)).toFixed(2);
  return `CPU per call, ${n} in flight: ${ms(cpu.all)} = ${signs(cpu.all)} at openssl's rate${split}; on 2 idle cores that allows ${idle} of sign/s ÷ 2`;
}

export async function benchLoad(seconds = 5): Promise<string[]> {
  const thread = startMockThread();
  const profile = EmbeddedProfile.parse({
    name: 'bench-load',
    environment: 'uat',
    embedded: { faults: ['quota-off'] },
  });
  const prepared = await prepare(profile, {}, { mockThread: thread });
  const redactor = createRedactor();
  const http = createHttpClient({ redactor });
  try {
    const p = prepared.runtime.profile;
    // the token the checks would use: a session's code flow
    const session = await createSession(prepared.runtime);
    const def = { id: 'bench.load', suite: 'bench', requirements: [], title: 'bench', run: async () => {} };
    const ctx = session.context(def, { exchanges: [], notes: [], tls: [] });
    const token = await ctx.tokens.codeToken(p.customers[0]!);
    await session.close();
    const req = await sealedValidate(p, token);
    const send = async (): Promise<number> => (await http.send(req)).status;
    // warm-up, not counted: the connections of the widest loop, and V8's optimizing compiler (its background threads
    // cost the first seconds' calls more, docs/performance.md "Start-up": a 1-s warm-up at 4 in flight left that in
    // the 16-in-flight figure)
    await loop(send, 64, 1);
    await loop(send, 16, 2);
    const lines: string[] = [];
    const rates: [number, number][] = [];
    const cpu: [number, LoopResult['cpu']][] = [];
    for (const n of [16, 64]) {
      const r = await loop(send, n, seconds);
      rates.push([n, r.rate]);
      cpu.push([n, r.cpu]);
      lines.push(
        `sealed validate, ${n} in flight: ${r.rate.toFixed(0)} calls/s${r.other ? ` (${r.other} answers not 200)` : ''}`,
      );
    }
    const sign = opensslSignPerSecond(2);
    if (sign !== undefined)
      lines.push(
        `as a fraction of openssl sign/s ÷ 2: ${rates.map(([n, rate]) => `${(rate / (sign / 2)).toFixed(2)} at ${n} in flight`).join(', ')}`,
        ...cpu.map(([n, c]) => cpuLine(n, c, sign)),
      );
    lines.push(
      sign === undefined
        ? 'openssl speed rsa2048: not available'
        : `openssl speed rsa2048: ${sign.toFixed(0)} sign/s per core → ceiling ${(sign / 2).toFixed(0)} sealed calls/s per core (${cpus().length} cores on the machine; the mock uses one)`,
    );
    return lines;
  } finally {
    await http.close();
    await prepared.close();
    await thread.shutdown();
  }
}
