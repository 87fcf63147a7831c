/**
 * The embedded mock bank: implements docs/contract.md, with a test clock, a switchable fault catalogue
 * (faults.ts) and optional auto-consent, all reachable only in-process or through the loopback admin listener.
 */
import { startAdminListener } from './server/admin.ts';
import { MockClock } from './clock.ts';
import { LIMITS, type MockContext } from './context.ts';
import { addExtraClients, createData, oneClient, unseeded, type MockData } from './data.ts';
import { seeded } from '../data/seed.ts';
import { FaultSet } from './fault-set.ts';
import { describe } from './profile.ts';
import { QuotaStore } from './transfers/quota.ts';
import { addResourceServer } from './oauth/resource-server.ts';
import { startApiListener } from './server/server.ts';
import { TokenStore } from './oauth/tokens.ts';
import { TransferStore } from './transfers/transfer-store.ts';
import type { MockBank, MockOptions } from './types.ts';

export type {
  ExtraClient,
  FaultDefinition,
  InterceptedRequest,
  MockBank,
  MockIntercept,
  MockOptions,
  MockTlsOverrides,
  ThrottleOptions,
} from './types.ts';
export { FAULTS } from './faults.ts';
export { faultDefinition, UnknownFaultError } from './fault-set.ts';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** the resource-server shape registers its client (lib/mock/oauth/resource-server.ts) */
function withResourceServer(data: MockData, opts: MockOptions): MockData {
  return opts.oauth?.resourceServerIntrospection ? addResourceServer(data, opts.pki) : data;
}

/** the registered clients: one per grant, or one for every grant (MockOptions.oneClient) */
function clientsOf(opts: MockOptions): MockData {
  const data = createData(opts.pki, opts.seed === undefined ? unseeded : seeded(opts.seed));
  return opts.oneClient ? oneClient(data) : data;
}

export async function startMockBank(opts: MockOptions): Promise<MockBank> {
  const clock = new MockClock();
  const faults = new FaultSet(opts.faults ?? []);
  const limits = { ...LIMITS, ...opts.limits };
  const ctx: MockContext = {
    mode: opts.mode,
    pki: opts.pki,
    clock,
    faults,
    data: withResourceServer(addExtraClients(clientsOf(opts), opts.extraClients ?? []), opts),
    tokens: new TokenStore(clock, faults, limits),
    quota: new QuotaStore(
      clock,
      faults,
      LIMITS.quotaPerHour,
      LIMITS.quotaWindowSeconds,
      opts.planPerHour,
      opts.spikeArrest,
      opts.quotaCounts,
      opts.quotaWindow,
      opts.waits,
    ),
    transfers: new TransferStore(),
    autoConsent: opts.autoConsent ?? true,
    allowList: new Set(opts.allowList ?? ['127.0.0.1', '::1']),
    // lenient: no size limit at all (nothing in the specification or the contract's MUSTs sets one)
    maxBodyBytes: opts.maxBodyBytes ?? (opts.lenient ? Infinity : DEFAULT_MAX_BODY_BYTES),
    lenient: opts.lenient ?? false,
    readSpellings: opts.readSpellings ?? opts.lenient ?? false,
    oauth: opts.oauth ?? {},
    ...(opts.intercept ? { intercept: opts.intercept } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
    limits,
  };
  const api = await startApiListener(ctx, opts.host ?? '127.0.0.1', opts.port ?? 0, {
    ...(opts.latencyMs ? { latencyMs: opts.latencyMs } : {}),
    ...(opts.headersTimeoutMs ? { headersTimeoutMs: opts.headersTimeoutMs } : {}),
    ...(opts.requestTimeoutMs ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    ...(opts.backlog !== undefined ? { backlog: opts.backlog } : {}),
    ...(opts.maxConnections !== undefined ? { maxConnections: opts.maxConnections } : {}),
    ...(opts.connectionClose ? { connectionClose: true } : {}),
    ...(opts.connectRoundTrip ? { connectRoundTrip: true } : {}),
    ...(opts.abortiveClose ? { abortiveClose: true } : {}),
    ...(opts.throttle ? { throttle: opts.throttle } : {}),
    ...(opts.waits ? { waits: opts.waits } : {}),
  });
  let admin;
  try {
    admin = await startAdminListener(
      ctx,
      opts.adminPort ?? 0,
      opts.clockLatencyMs,
      opts.connectionClose,
      opts.connectRoundTrip,
    );
  } catch (e) {
    await api.close();
    throw e;
  }
  let closed: Promise<void> | undefined;
  return {
    mode: opts.mode,
    url: api.url,
    adminUrl: admin.url,
    faults: { set: (ids) => faults.set(ids), list: () => faults.list() },
    clock: { now: () => clock.now(), advance: (s) => clock.advance(s), offsetSeconds: () => clock.offsetSeconds() },
    profile: (name = `mock-${opts.mode}`) => describe(ctx, name, api.url, admin.url, opts.planPerHour),
    transferCount: () => ctx.transfers.count(),
    paymentCount: () => ctx.transfers.payments,
    close: () => (closed ??= Promise.all([api.close(), admin.close()]).then(() => undefined)),
  };
}
