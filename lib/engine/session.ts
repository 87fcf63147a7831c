/**
 * A session is one profile's target as the checks see it: the redactor (every secret of the profile registered
 * before the first call), one HTTP client (one agent per identity), token caches, and the target clock. Each
 * check gets its own CheckContext from it, with its own evidence.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { mask } from '../mask/index.ts';
import { createHttpClient, createRedactor, exchangeOf } from '../http/index.ts';
import type { HttpRequest, HttpResponse, Identity, Recorder, Redactor } from '../http/types.ts';
import { classify, open as openEnvelope, seal as sealPayload } from '../jose/index.ts';
import type { OpenResult } from '../jose/types.ts';
import { secretsOf } from '../profile/secrets.ts';
import type { Customer, FullProfile } from '../profile/schema.ts';
import { Blocked, NotApplicable, NotRun, Inconclusive, type CheckDefinition } from './check.ts';
import type { ApiCall, ApiResponse, CheckContext, ClientRole, NegativeCert, TargetClock, Tokens } from './context.ts';
import { createBoard, type MutableBoard } from './prerequisites.ts';
import type { PrerequisiteBoard, PrerequisiteId } from './types.ts';
import type { Evidence, RecordedExchange } from './results.ts';
import type { ContextFactory } from './runner.ts';
import type { HarnessRuntime } from './runtime.ts';
import { createTokens, type SessionParts, type TokenState } from './tokens.ts';

export type { SessionParts };

export interface Session extends ContextFactory {
  readonly redactor: Redactor;
  /** the run's prerequisites (lib/engine/prerequisites.ts records failures on it) */
  readonly prerequisites: MutableBoard;
  close(): Promise<void>;
}

const TRANSFER_PATH_KEYS = new Set(['validate', 'transfer']);
const OAUTH_PATH_KEYS = new Set(['authorize', 'token', 'partnerToken', 'internalToken']);

export async function createSession(runtime: HarnessRuntime): Promise<Session> {
  const { profile, options } = runtime;
  const redactor = createRedactor();
  for (const s of secretsOf(profile)) redactor.add(s.value, s.kind);
  const run = profile.run;
  const http = createHttpClient({
    redactor,
    defaultTimeoutMs: run.requestTimeoutMs,
    maxResponseBytes: run.maxResponseBytes,
    ...(run.connectTimeoutMs ? { connectTimeoutMs: run.connectTimeoutMs } : {}),
    ...(run.firstByteTimeoutMs ? { firstByteTimeoutMs: run.firstByteTimeoutMs } : {}),
    ...(run.responseTimeoutMs ? { responseTimeoutMs: run.responseTimeoutMs } : {}),
  });
  const state: TokenState = { clockOffsetSeconds: 0, caches: new Map() };
  const prerequisites = createBoard();
  return {
    profile,
    redactor,
    prerequisites,
    redact: (text) => redactor.redact(text),
    context: (def, evidence) =>
      createContext(def, evidence, { profile, options, redactor, http, state }, prerequisites),
    close: () => http.close(),
  };
}

function recorderInto(evidence: Evidence): Recorder {
  return {
    record: (e: RecordedExchange) => {
      evidence.exchanges.push(e);
    },
    get exchanges() {
      return evidence.exchanges;
    },
  };
}

export function urlOf(profile: FullProfile, path: string, base?: 'api' | 'oauth'): string {
  const paths = profile.target.paths as Record<string, string>;
  const oauthBase = profile.target.oauthBaseUrl ?? profile.target.baseUrl;
  const join = (b: string, p: string): string => b.replace(/\/+$/, '') + p;
  if (TRANSFER_PATH_KEYS.has(path))
    return join(profile.target.baseUrl, profile.target.paths.transfersBasepath + paths[path]);
  if (OAUTH_PATH_KEYS.has(path)) return join(oauthBase, paths[path]!);
  return join(base === 'oauth' ? oauthBase : profile.target.baseUrl, path);
}

export function identityOf(profile: FullProfile, who: ClientRole | NegativeCert | 'none'): Identity | undefined {
  if (profile.environment !== 'uat' || !profile.tls) return undefined;
  const tls = profile.tls;
  const base = {
    ca: tls.caCertificate,
    ...(tls.serverName ? { serverName: tls.serverName } : {}),
    ...(tls.allowedSourceAddress ? { localAddress: tls.allowedSourceAddress } : {}),
  };
  if (who === 'none') return { name: 'none', ...base };
  if (who === 'code' || who === 'partner' || who === 'internal') {
    const c = profile.clients[who];
    if (!c) throw new NotApplicable(`the profile has no ${who} client`);
    if (!c.certificate || !c.privateKey)
      throw new Inconclusive(`the profile gives no certificate for the ${who} client`);
    return { name: who, certificate: c.certificate, privateKey: c.privateKey, ...base };
  }
  const n = tls.negativeCertificates[who];
  if (!n)
    throw new Inconclusive(
      `the profile supplies no ${who} client certificate registered with the bank (tls.negativeCertificates.${who})`,
    );
  return { name: `negative-${who}`, certificate: n.certificate, privateKey: n.privateKey, ...base };
}

/** cached tokens are prerequisites: when theirs failed, asking for one blocks the check (no traffic) */
function guardTokens(tokens: Tokens, board: PrerequisiteBoard): Tokens {
  const guard = async (id: PrerequisiteId): Promise<void> => {
    await board.settled(id);
    const why = board.failed(id);
    if (why !== undefined) throw new Blocked(id, why);
  };
  return {
    ...tokens,
    partnerToken: async () => {
      await guard('client-credentials-token');
      return tokens.partnerToken();
    },
    codeToken: async (c) => {
      await guard('code-grant');
      return tokens.codeToken(c);
    },
    codeGrant: async (c, o) => {
      await guard('code-grant');
      return tokens.codeGrant(c, o);
    },
  };
}

/** the prerequisites' own steps ask for tokens unguarded (they establish them) */
function tokensFor(def: CheckDefinition, tokens: Tokens, board: PrerequisiteBoard): Tokens {
  return def.suite === 'prerequisites' ? tokens : guardTokens(tokens, board);
}

function createContext(
  def: CheckDefinition,
  evidence: Evidence,
  parts: SessionParts,
  board: PrerequisiteBoard,
): CheckContext {
  const { profile, options, redactor, http } = parts;
  const recorder = recorderInto(evidence);
  const env = profile.environment;
  const maxCalls = profile.run.maxCallsPerCheck;
  let calls = 0;
  const send = async (req: HttpRequest): Promise<HttpResponse> => {
    if (++calls > maxCalls)
      throw new Inconclusive(`call budget: the check made more than ${maxCalls} calls (profile run.maxCallsPerCheck)`);
    return http.send({ ...req, label: req.label ?? def.id }, recorder);
  };
  const bankPublicKey = profile.bank.apiPublicKey ?? '';

  const clientKey = (as: ClientRole = 'code'): { privateKey: string; certificate: string } => {
    const c = profile.clients[as];
    if (!c?.privateKey || !c.certificate)
      throw new Inconclusive(`the profile gives no key and certificate for the ${as} client`);
    return { privateKey: c.privateKey, certificate: c.certificate };
  };
  const openAs = (envelope: unknown, as: ClientRole = 'code', allowFlattened = true): Promise<OpenResult> => {
    const k = clientKey(as);
    return openEnvelope(envelope, { decryptionKey: k.privateKey, verificationKey: bankPublicKey, allowFlattened });
  };
  const jose = {
    seal: (payload: unknown, as: ClientRole = 'code') => {
      const k = clientKey(as);
      return sealPayload(payload, { signingKey: k.privateKey, encryptionKey: bankPublicKey });
    },
    open: openAs,
    bankPublicKey,
    clientKey,
  };

  /** opens a sealed response (UAT) and records the opened document (redacted) as evidence */
  const readResponse = async (res: HttpResponse, as: ClientRole): Promise<{ body: unknown; opened?: OpenResult }> => {
    if (env !== 'uat' || res.json === undefined) return { body: res.json };
    const kind = classify(res.json).kind;
    if (kind !== 'jwe' && kind !== 'jws') return { body: res.json };
    const opened = await openAs(res.json, as, true);
    const ex = exchangeOf(res);
    if (ex?.jose) {
      ex.jose.opened = opened.ok
        ? JSON.parse(redactor.redact(JSON.stringify(opened.payload ?? null)))
        : `did not open: ${opened.step} ${opened.code}: ${opened.reason}`;
    }
    return opened.ok ? { body: opened.payload, opened } : { body: res.json, opened };
  };

  const api = async (call: ApiCall): Promise<ApiResponse> => {
    const as = call.as ?? 'code';
    const client = profile.clients[as];
    if (!client) throw new NotApplicable(`the profile has no ${as} client`);
    const method = call.method ?? (call.op === 'validate' ? 'POST' : call.op === 'create' ? 'PUT' : 'GET');
    const url = call.path
      ? urlOf(profile, call.path)
      : call.op === 'validate'
        ? urlOf(profile, 'validate')
        : urlOf(profile, 'transfer').replace('{transfer_id}', encodeURIComponent(call.transferId ?? newTransferId()));
    const headers: Record<string, string> = { accept: 'application/json', ...(call.headers ?? {}) };
    if (call.token !== null) headers.authorization = `Bearer ${call.token}`;
    const clientId = call.clientId === undefined ? client.clientId : call.clientId;
    if (clientId !== null) headers['x-gateway-client-id'] = clientId;
    let body: string | object | undefined;
    if (call.rawBody !== undefined) body = call.rawBody;
    else if (call.body !== undefined) body = env === 'uat' ? await jose.seal(call.body, as) : (call.body as object);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const identity = call.identity ?? identityOf(profile, as);
    const res = await send({
      method,
      url,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(identity ? { identity } : {}),
      label: call.label ?? `${call.op} ${method}`,
    });
    const read = await readResponse(res, as);
    return {
      status: res.status,
      headers: res.headers,
      body: read.body,
      ...(read.opened ? { opened: read.opened } : {}),
      raw: res,
    };
  };

  const clock: TargetClock = {
    available: profile.target.clock !== undefined,
    advance: async (seconds: number) => {
      if (profile.target.clock) {
        const res = await send({
          method: 'POST',
          url: profile.target.clock,
          body: { advance_seconds: seconds },
          label: `test clock +${seconds} s`,
        });
        if (res.status !== 204 && res.status !== 200)
          throw new Inconclusive(`the test clock refused to move: HTTP ${res.status}`);
        parts.state.clockOffsetSeconds += seconds;
        return;
      }
      if (options.long && seconds <= options.maxWaitSeconds) {
        evidence.notes.push(`waited ${seconds} s of real time (no test clock)`);
        await sleep(seconds * 1000);
        return;
      }
      throw new NotRun(`needs a test clock or --long to let ${seconds} s pass`);
    },
  };

  const customer = (which: number | { workflow: boolean }): Customer => {
    if (typeof which === 'number') {
      const c = profile.customers[which];
      if (!c) throw new NotApplicable(`the profile has no customer #${which + 1}`);
      return c;
    }
    const c = profile.customers.find((x) => x.workflow === which.workflow);
    if (!c) throw new NotApplicable(`the profile has no customer ${which.workflow ? 'with' : 'without'} a workflow`);
    return c;
  };

  const ctx: CheckContext = {
    profile,
    env,
    options,
    customer,
    url: (path, base) => urlOf(profile, path, base),
    identity: (who) => identityOf(profile, who),
    send,
    api,
    transferBody: (c, overrides = {}) => ({
      beneficiary_id: c.beneficiaryId,
      account_id: mask(c.accountId),
      amount: { value: '150.00', currency: profile.contract.currency },
      purpose_code: 'FAM',
      remarks: 'conformance harness',
      ...overrides,
    }),
    newTransferId,
    tokens: tokensFor(def, createTokens({ ...parts, send, identity: (who) => identityOf(profile, who) }), board),
    jose,
    clock,
    note: (t) => evidence.notes.push(redactor.redact(t)),
    tls: (e) => evidence.tls.push(e),
    redact: (t) => redactor.redact(t),
    dispose: () => {},
  };
  return ctx;
}

function newTransferId(): string {
  return `TRF-${randomUUID()}`;
}
