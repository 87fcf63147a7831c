/**
 * Load figure of the mock itself (npm run bench -- --load): sealed validate calls per second against the embedded
 * UAT mock from the harness's own load loop (its HTTP client, one sealed body sent again and again, answers not
 * opened) at 16 and 64 calls in flight, next to `openssl speed rsa2048`: sign/s ÷ 2 is the ceiling for one sealed
 * request and response per core (the mock decrypts the request and signs the answer with RSA-2048 private keys).
 * The mock runs with the `quota-off` fault (100 calls an hour would otherwise turn the loop into 429s) on its own
 * worker thread. Prints figures; asserts nothing.
 */
import { cpus } from 'node:os';
import { createHttpClient, createRedactor } from '../../lib/http/index.ts';
import { prepare } from '../../lib/engine/prepare.ts';
import { createSession, identityOf, urlOf } from '../../lib/engine/session.ts';
import { seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { opensslSignPerSecond } from './floor.ts';
import { startMockThread } from '../../lib/mock/thread.ts';
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

/** calls/s for `seconds` with `inFlight` calls at once; counts 200s and others */
async function loop(
  send: () => Promise<number>,
  inFlight: number,
  seconds: number,
): Promise<{ rate: number; other: number }> {
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
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { rate: ok / ((performance.now() - t0) / 1000), other };
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
    await loop(send, 4, 1); // warm-up: connections, JIT
    const lines: string[] = [];
    const rates: [number, number][] = [];
    for (const n of [16, 64]) {
      const r = await loop(send, n, seconds);
      rates.push([n, r.rate]);
      lines.push(
        `sealed validate, ${n} in flight: ${r.rate.toFixed(0)} calls/s${r.other ? ` (${r.other} answers not 200)` : ''}`,
      );
    }
    const sign = opensslSignPerSecond(2);
    if (sign !== undefined)
      lines.push(
        `as a fraction of openssl sign/s ÷ 2: ${rates.map(([n, rate]) => `${(rate / (sign / 2)).toFixed(2)} at ${n} in flight`).join(', ')}`,
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
