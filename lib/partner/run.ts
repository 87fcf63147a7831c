/**
 * A partner certification run: the partner's certificate checked (TLS-07), then one embedded mock bank per
 * scenario with that certificate registered to a client id the harness issues, the partner's client run against
 * it (or waited for, --listen), every request recorded, then judged (judge.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockBank, type MockBank, type MockTlsOverrides } from '../mock/index.ts';
import { testPki } from '../pki/index.ts';
import { inPool } from '../pool.ts';
import type { TestPki } from '../pki/types.ts';
import type { Environment } from '../profile/schema.ts';
import { bankIntercept } from './bank.ts';
import { lintCertificateFile, type CertificateFile } from './certificate.ts';
import { startClient } from './process.ts';
import { scenariosFor, type ScenarioDef } from './scenarios.ts';
import { attackerLeaf } from './spoil.ts';
import type { Flow, PartnerSetup, ScenarioId, ScenarioRun, SeenRequest } from './types.ts';
import { ConfigurationError } from '../errors.ts';

/** the partner's redirect URI the harness registers (nothing listens there: the client reads the 302) */
export const PARTNER_REDIRECT_URI = 'http://127.0.0.1:9/callback';

export class PartnerConfigError extends ConfigurationError {
  readonly code = 'PARTNER_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'PartnerConfigError';
  }
}

export interface PartnerOptions {
  certFile: string;
  /** the client's command, already split (no shell) */
  run?: string[];
  /** wait this long for a client started by hand instead of running one */
  listenSeconds?: number;
  mode: Environment;
  flow: Flow;
  clientKeyFile?: string;
  clientCertFile?: string;
  /** more CAs trusted for the partner's certificate (PEM text) */
  clientCaPems?: string[];
  /** only these scenarios (default: all that apply) */
  scenarios?: ScenarioId[];
  /** per scenario, ms (default 60 s) */
  timeoutMs?: number;
  cwd?: string;
  /** scenarios run at once (default 3; each has its own bank) */
  concurrency?: number;
  /** more environment variables for the client (e.g. a test's fault switch) */
  clientEnv?: Record<string, string>;
  /** progress lines for a terminal */
  log?: (line: string) => void;
  /**
   * aborted (its reason the signal's name, e.g. 'SIGTERM') to stop the run: the clients running are stopped, no
   * scenario starts, each bank closes, and the run returns the scenarios that had ended (interrupted: the signal)
   */
  interrupt?: AbortSignal;
}

export interface PartnerRun {
  setup: PartnerSetup;
  certificate: CertificateFile;
  runs: ScenarioRun[];
  /** the clear ids of the test customers (MASK-05), the client secret (redaction) */
  clearIds: string[];
  clientSecret: string;
  pki: TestPki;
  errors: string[];
  startedAt: string;
  durationMs: number;
  /** the signal that stopped the run (its scenarios still running were not judged) */
  interrupted?: string;
}

interface Context {
  opts: PartnerOptions;
  setup: PartnerSetup;
  secret: string;
  pki: TestPki;
  dir: string;
  untrustedServer: { cert: string; key: string };
  /** the scenarios a signal stopped before their client ended: not judged */
  cut: Set<ScenarioId>;
}

/** the signal's name once `interrupt` is aborted */
const signalOf = (interrupt: AbortSignal | undefined): string | undefined =>
  interrupt?.aborted ? String(interrupt.reason ?? 'SIGINT') : undefined;

/** calls `then` with the signal's name when `interrupt` is aborted (at once if it is); returns the unsubscribe */
function whenInterrupted(interrupt: AbortSignal | undefined, then: (signal: string) => void): () => void {
  if (!interrupt) return () => undefined;
  const say = (): void => then(signalOf(interrupt)!);
  if (interrupt.aborted) say();
  else interrupt.addEventListener('abort', say, { once: true });
  return () => interrupt.removeEventListener('abort', say);
}

function untrustedServerCertificate(pki: TestPki): { cert: string; key: string } {
  const c = attackerLeaf(pki, 'localhost', 'server');
  return { cert: c.certPem, key: c.privateKeyPem };
}

function tlsFor(c: Context, s: ScenarioDef): MockTlsOverrides {
  const base: MockTlsOverrides = { ca: [c.pki.partnerCa.certPem, c.setup.certPem, ...(c.opts.clientCaPems ?? [])] };
  if (s.id === 'untrusted-server-cert') return { ...base, ...c.untrustedServer };
  if (s.id === 'legacy-tls')
    return { ...base, minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' };
  return base;
}

/** the documented variables the client gets (docs/partner.md) */
export function clientEnv(c: Context, mock: MockBank, s: ScenarioDef): Record<string, string> {
  const alice = mock.profile().customers![0]!;
  const o = c.opts;
  return {
    BANK_ENVIRONMENT: c.setup.mode,
    BANK_FLOW: c.setup.flow,
    BANK_BASE_URL: `${mock.url}/v1`,
    BANK_OAUTH_BASE_URL: mock.url,
    BANK_CA_FILE: join(c.dir, 'bank-ca.pem'),
    BANK_API_PUBLIC_KEY_FILE: join(c.dir, 'bank-api-public-key.pem'),
    BANK_CLIENT_ID: c.setup.clientId,
    BANK_CLIENT_SECRET: c.secret,
    BANK_REDIRECT_URI: PARTNER_REDIRECT_URI,
    BANK_CUSTOMER_UUID: alice.uuid,
    BANK_ACCOUNT_ID: alice.accountId,
    BANK_BENEFICIARY_ID: alice.beneficiaryId,
    BANK_SCENARIO: s.id,
    ...(o.clientKeyFile ? { BANK_CLIENT_KEY_FILE: o.clientKeyFile } : {}),
    ...(o.clientCertFile ? { BANK_CLIENT_CERT_FILE: o.clientCertFile } : {}),
  };
}

/**
 * The harness's own key listener of a jku/x5u variant (loopback): every request is recorded as a key-fetch (the
 * client fetched a URL an answer named: CLI-02 fails) and answered 404.
 */
async function keyListener(requests: SeenRequest[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    requests.push({
      seq: requests.length + 1,
      at: Date.now(),
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      route: 'key-fetch',
      headers: {},
      body: '',
      response: { status: 404, headers: {}, body: '', at: Date.now() },
    });
    res.writeHead(404, { 'Content-Type': 'text/plain', Connection: 'close' }).end('no key here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function runScenario(c: Context, s: ScenarioDef, clearIds: Set<string>): Promise<ScenarioRun> {
  const requests: SeenRequest[] = [];
  const needsListener = s.spoil?.how === 'jku' || s.spoil?.how === 'x5u';
  const listener = needsListener ? await keyListener(requests) : undefined;
  try {
    return await runWithBank(c, s, clearIds, requests, listener?.url ?? 'http://127.0.0.1:9');
  } finally {
    await listener?.close();
  }
}

async function runWithBank(
  c: Context,
  s: ScenarioDef,
  clearIds: Set<string>,
  requests: SeenRequest[],
  listenerUrl: string,
): Promise<ScenarioRun> {
  let stopClient: (reason: string) => void = () => undefined;
  const bank: { mock?: MockBank } = {};
  const intercept = bankIntercept(
    {
      scenario: s.id,
      mode: c.setup.mode,
      pki: c.pki,
      partnerCertPem: c.setup.certPem,
      advanceClock: (seconds) => bank.mock?.clock.advance(seconds),
      onFlood: () => stopClient('flooded the bank (more than 300 requests in one scenario)'),
      listenerUrl,
    },
    requests,
  );
  const mock = await startMockBank({
    mode: c.setup.mode,
    pki: c.pki,
    extraClients: [
      {
        id: c.setup.clientId,
        kind: c.setup.flow === 'code' ? 'code' : 'partner',
        certPem: c.setup.certPem,
        redirectUris: [PARTNER_REDIRECT_URI],
        secret: c.secret,
      },
    ],
    intercept,
    // a client's second spelling of its bytes is read as those bytes (no rule judges a client's spelling)
    readSpellings: true,
    ...(c.setup.mode === 'uat' ? { tls: tlsFor(c, s) } : {}),
  });
  bank.mock = mock;
  try {
    for (const cu of mock.profile().customers ?? []) {
      clearIds.add(cu.accountId);
      if (cu.emiratesId) clearIds.add(cu.emiratesId);
    }
    const env = clientEnv(c, mock, s);
    const exit = c.opts.run ? await runOnce(c, s, env, (stop) => (stopClient = stop)) : await listen(c, s, env);
    return { scenario: s.id, ...exit, requests, payments: mock.paymentCount() };
  } finally {
    await mock.close();
  }
}

async function runOnce(
  c: Context,
  s: ScenarioDef,
  env: Record<string, string>,
  onStop: (stop: (reason: string) => void) => void,
): Promise<Omit<ScenarioRun, 'scenario' | 'requests' | 'payments'>> {
  const client = startClient(
    c.opts.run!,
    { ...process.env, ...c.opts.clientEnv, ...env },
    c.opts.timeoutMs ?? 60_000,
    c.opts.cwd,
  );
  onStop(client.stop);
  const unsubscribe = whenInterrupted(c.opts.interrupt, (signal) => {
    c.cut.add(s.id);
    client.stop(`interrupted by ${signal}`);
  });
  const exit = await client.done;
  unsubscribe();
  return {
    exitCode: exit.exitCode,
    ...(exit.stopped !== undefined ? { stopped: exit.stopped } : {}),
    durationMs: exit.durationMs,
    output: exit.output,
  };
}

async function listen(
  c: Context,
  s: ScenarioDef,
  env: Record<string, string>,
): Promise<Omit<ScenarioRun, 'scenario' | 'requests' | 'payments'>> {
  const seconds = c.opts.listenSeconds ?? 300;
  const log = c.opts.log ?? (() => undefined);
  log(`scenario ${env.BANK_SCENARIO}: the bank listens for ${seconds} s; start the client with:`);
  for (const [k, v] of Object.entries(env)) log(`  export ${k}=${k === 'BANK_CLIENT_SECRET' ? `'${v}'` : v}`);
  let unsubscribe = (): void => undefined;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000);
    unsubscribe = whenInterrupted(c.opts.interrupt, () => {
      c.cut.add(s.id);
      clearTimeout(timer);
      resolve();
    });
  });
  unsubscribe();
  return {
    exitCode: null,
    byHand: true,
    durationMs: seconds * 1000,
    output: '(client started by hand: no output kept)',
  };
}

/**
 * the scenarios whose client waits or works longest first (Retry-After, two expiries and three sign-ins, a retried
 * create): started last, one of them would end the run alone, seconds after the others
 */
const LONGEST: readonly ScenarioId[] = ['validate-429', 'token-expiry', 'create-answer-lost', 'normal'];
function longestFirst(chosen: ScenarioDef[]): ScenarioDef[] {
  const rank = (s: ScenarioDef): number => {
    const i = LONGEST.indexOf(s.id);
    return i < 0 ? LONGEST.length : i;
  };
  return [...chosen].sort((a, b) => rank(a) - rank(b));
}

function checkedCertificate(opts: PartnerOptions): CertificateFile & { pem: string; sha256: string } {
  const cert = lintCertificateFile(opts.certFile);
  if (!cert.ok || !cert.pem || !cert.sha256) {
    throw new PartnerConfigError(`--cert: TLS-07: ${cert.problems.join('; ')}`);
  }
  return cert as CertificateFile & { pem: string; sha256: string };
}

export async function runPartner(opts: PartnerOptions): Promise<PartnerRun> {
  if (!opts.run && opts.listenSeconds === undefined) throw new PartnerConfigError('give --run "<command>" or --listen');
  const cert = checkedCertificate(opts);
  const started = Date.now();
  const pki = await testPki();
  const setup: PartnerSetup = {
    mode: opts.mode,
    flow: opts.flow,
    clientId: `partner-${randomBytes(4).toString('hex')}`,
    certPem: cert.pem,
    certSha256: cert.sha256,
  };
  const secret = `partnerCS_${randomBytes(24).toString('base64url')}`;
  const dir = mkdtempSync(join(tmpdir(), 'partner-'));
  const c: Context = {
    opts,
    setup,
    secret,
    pki,
    dir,
    untrustedServer: untrustedServerCertificate(pki),
    cut: new Set(),
  };
  writeFileSync(join(dir, 'bank-ca.pem'), pki.bankCa.certPem);
  writeFileSync(join(dir, 'bank-api-public-key.pem'), pki.bankApi.publicKeyPem);
  const chosen = scenariosFor(opts.mode, opts.flow).filter((s) => !opts.scenarios || opts.scenarios.includes(s.id));
  if (chosen.length === 0)
    throw new PartnerConfigError('--scenario: none of the scenarios named applies to this mode and flow');
  const runs: ScenarioRun[] = [];
  const clearIds = new Set<string>();
  const errors: string[] = [];
  try {
    const n = opts.listenSeconds === undefined ? (opts.concurrency ?? 3) : 1;
    // by hand (--listen) the scenarios come in their documented order, normal first
    const queue = opts.listenSeconds === undefined ? longestFirst(chosen) : chosen;
    const done = await inPool(
      queue,
      n,
      (s) => scenarioLogged(c, s, clearIds),
      () => opts.interrupt?.aborted === true,
    );
    const order = new Map(chosen.map((s, i) => [s.id, i]));
    for (const r of done.sort((a, b) => order.get(a.scenario)! - order.get(b.scenario)!)) {
      if (c.cut.has(r.scenario)) continue;
      runs.push(r);
      if (r.stopped) errors.push(`scenario ${r.scenario}: the client ${r.stopped}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const interrupted = signalOf(opts.interrupt);
  if (interrupted)
    errors.push(
      `interrupted by ${interrupted}: ${runs.length} of ${chosen.length} scenarios had ended and were judged; ` +
        'the others were not run (or stopped before their client ended) and are not judged',
    );
  return {
    setup,
    certificate: cert,
    runs,
    clearIds: [...clearIds],
    clientSecret: secret,
    pki,
    errors,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    ...(interrupted ? { interrupted } : {}),
  };
}

async function scenarioLogged(c: Context, s: ScenarioDef, clearIds: Set<string>): Promise<ScenarioRun> {
  const r = await runScenario(c, s, clearIds);
  const how = `exit ${r.exitCode ?? 'none'}${r.stopped ? ` (${r.stopped})` : ''}, ${r.requests.length} requests`;
  c.opts.log?.(`scenario ${s.id} (${s.title}): client ${how}`);
  return r;
}
