/**
 * `npm run send`: one transfers API call as the profile's client, the reviewer's repeater. It runs in a session of
 * its own (lib/engine/session/session.ts createSession: the token flows of lib/engine/session/tokens.ts, mutual TLS,
 * sealing, the redactor), makes the call through the check context's `api` with the body send-body.ts builds, prints
 * the request and the answer (opened) and judges the answer (send-judge.ts, with the suites' judges the command hands
 * in: `AnswerJudges`). Exit codes: 0 the call was made, 1 no answer or no token, 2 bad input.
 */
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Inconclusive, NotApplicable, NotRun, type CheckDefinition } from '../engine/check.ts';
import type { ApiResponse, CheckContext } from '../engine/session/context.ts';
import { prepare } from '../engine/run/prepare.ts';
import type { Evidence } from '../engine/results.ts';
import { createSession } from '../engine/session/session.ts';
import { TransportError } from '../http/types.ts';
import { mask } from '../mask/index.ts';
import { loadProfile, ProfileError } from '../profile/load.ts';
import type { AnyProfile, Customer } from '../profile/schema.ts';
import { parseSendArgs, SEND_HELP, SendUsage, type SendArgs } from './send-args.ts';
import { judge, type AnswerJudges, type Sent } from './send-judge.ts';
import { answerLines, requestLines, tokenLines, type SentBody } from './send-print.ts';
import { directTransport, type SendTransport, type TransportFactory } from './send-transport.ts';
import { bodyOf } from './send-body.ts';
import { HarnessError } from '../errors.ts';

export interface SendIo {
  out(text: string): void;
  err(text: string): void;
}

/** no token, or no answer: the call was not made (exit 1) */
class NoCall extends HarnessError {
  readonly code = 'NO_CALL' as const;
}

const DEF: CheckDefinition = {
  id: 'send',
  suite: 'send',
  requirements: [],
  title: 'npm run send: one call by hand',
  run: async () => {},
};

/**
 * whose transfer: --customer, else the customer a partner or internal client's token is bound to (its
 * oauthMetadata), else the first; and the valid body for it (a client bound to an emirates id names that id)
 */
function customerOf(ctx: CheckContext, args: SendArgs): { customer: Customer; body: Record<string, unknown> } {
  const all = ctx.profile.customers;
  const meta = args.role === 'code' ? undefined : ctx.profile.clients[args.role]?.oauthMetadata;
  const bound =
    meta && 'emirates_id' in meta
      ? all.find((x) => x.emiratesId === meta.emirates_id)
      : all.find((x) => meta && 'account_id' in meta && x.accountId === meta.account_id);
  const customer = args.customer === undefined ? (bound ?? all[0]!) : all.find((x) => x.name === args.customer);
  if (!customer)
    throw new SendUsage(
      `--customer: no customer "${args.customer}" in the profile (${all.map((x) => x.name).join(', ')})`,
    );
  const byEmirates = meta && 'emirates_id' in meta && customer === bound && customer.emiratesId;
  const body = byEmirates
    ? ctx.transferBody(customer, { account_id: undefined, emirates_id: mask(customer.emiratesId!) })
    : ctx.transferBody(customer);
  return { customer, body };
}

/** the access token of the `as` client: the code grant for the customer, or client credentials */
async function tokenFor(ctx: CheckContext, args: SendArgs, customer: Customer): Promise<string> {
  try {
    if (args.role === 'code') return await ctx.tokens.codeToken(customer);
    if (args.role === 'partner') return await ctx.tokens.partnerToken();
    const r = await ctx.tokens.clientCredentials('internal');
    const access = r.token?.access_token;
    if (typeof access !== 'string')
      throw new NoCall(`the internal client's token request gave no access token (HTTP ${r.response.status})`);
    return access;
  } catch (e) {
    if (e instanceof Inconclusive) throw new NoCall(`no token for the ${args.role} client: ${e.message}`);
    throw e;
  }
}

/** the checks the profile must pass before a call (a client, its certificate): a usage error naming what is missing */
function ensureClient(ctx: CheckContext, args: SendArgs): void {
  try {
    if (!ctx.profile.clients[args.role])
      throw new SendUsage(`--role ${args.role}: the profile has no ${args.role} client`);
    ctx.identity(args.role);
    if (ctx.env === 'uat') ctx.jose.clientKey(args.role);
  } catch (e) {
    if (e instanceof NotApplicable || e instanceof Inconclusive || e instanceof NotRun)
      throw new SendUsage(`--role ${args.role}: ${e.message}`);
    throw e;
  }
  const c = ctx.profile.clients[args.role];
  if (c?.certificate && c.privateKey) keyMatches(c.certificate, c.privateKey, `clients.${args.role}`);
}

/** the client's private key is its certificate's (else TLS and signing fail deep inside, a stack trace) */
function keyMatches(certificate: string, privateKey: string, field: string): void {
  let cert: string;
  let key: string;
  try {
    cert = new X509Certificate(certificate).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  } catch (e) {
    throw new SendUsage(`profile: ${field}.certificate is not a certificate (${(e as Error).message})`);
  }
  try {
    key = createPublicKey(createPrivateKey(privateKey)).export({ type: 'spki', format: 'der' }).toString('base64');
  } catch (e) {
    throw new SendUsage(`profile: ${field}.privateKey is not a private key (${(e as Error).message})`);
  }
  if (cert !== key)
    throw new SendUsage(
      `profile: ${field}.privateKey does not match ${field}.certificate (the key of another certificate)`,
    );
}

/** the token the call carries: --token as given, none when --header gives an Authorization, else the flow's */
async function tokenOf(
  ctx: CheckContext,
  evidence: Evidence,
  args: SendArgs,
  customer: Customer,
  io: SendIo,
): Promise<string | null> {
  if (args.headers.authorization !== undefined) return (io.out("token: none of send's (--header Authorization)"), null);
  if (args.token !== undefined) return (io.out('token: given by --token (no token asked for)'), args.token);
  try {
    return await tokenFor(ctx, args, customer);
  } finally {
    io.out(`token (${args.role} client${args.role === 'code' ? `, customer "${customer.name}"` : ''}):`);
    io.out(tokenLines(evidence.exchanges).join('\n'));
  }
}

/** one send of the request: printed, judged; its status */
async function once(ctx: CheckContext, evidence: Evidence, args: SendArgs, io: SendIo, c: Prepared): Promise<number> {
  const { body, token } = c;
  const before = evidence.exchanges.length;
  const transferId = args.op === 'validate' ? undefined : (args.transferId ?? ctx.newTransferId());
  let res: ApiResponse;
  try {
    res = await ctx.api({
      op: args.op,
      as: args.role,
      token,
      ...(args.headers['x-gateway-client-id'] !== undefined && { clientId: null }),
      ...(Object.keys(args.headers).length && { headers: args.headers }),
      ...(transferId ? { transferId } : {}),
      ...(body ? (body.sealed ? { rawBody: body.wire } : { body: body.wire }) : {}),
      label: `send ${args.op}`,
    });
  } finally {
    const ex = evidence.exchanges[before];
    // the document inside an envelope send sealed or forged, as the reports keep it (redacted): a HAR shows it too
    if (ex && body?.sealed && body.payload !== undefined)
      ex.sealedPlaintext = ctx.redact(JSON.stringify(body.payload, null, 2));
    io.out(requestLines(ex, body).join('\n'));
  }
  io.out(answerLines(res, evidence.exchanges[before], ctx.jose.bankPublicKey).join('\n'));
  const sent: Sent = {
    op: args.op,
    kind: !body ? 'none' : args.sealed ? 'sealed' : args.variant ? 'variant' : args.bodyFile ? 'plain' : 'default',
    knownTransfer: args.transferId !== undefined,
    ...(body?.alsoRefused ? { alsoRefused: body.alsoRefused } : {}),
    text: body ? JSON.stringify(body.payload ?? body.wire) : '',
  };
  io.out(['judgement', ...judge(res, sent, ctx.profile, c.judges).map((l) => `  ${l}`)].join('\n'));
  return res.status;
}

/** what every send of the call shares: its body, its token, the judges of its answers */
interface Prepared {
  body: SentBody | undefined;
  token: string | null;
  judges: AnswerJudges;
}

/** the call, printed and judged, --repeat times; a replayed envelope the bank accepted is noted */
async function call(ctx: CheckContext, evidence: Evidence, args: SendArgs, io: SendIo, how: How): Promise<void> {
  ensureClient(ctx, args);
  const { customer, body: valid } = customerOf(ctx, args);
  const body = await bodyOf(ctx, args, valid);
  const times = args.repeat > 1 ? `, ${args.repeat} times` : '';
  io.out(`send ${args.op} to ${ctx.profile.name} (${ctx.env}), ${how.via}${times}`);
  const token = await tokenOf(ctx, evidence, args, customer, io);
  const statuses: number[] = [];
  for (let i = 0; i < args.repeat; i++) {
    if (args.repeat > 1) io.out(`--- send ${i + 1} of ${args.repeat}`);
    statuses.push(await once(ctx, evidence, args, io, { body, token, judges: how.judges }));
  }
  for (const line of replayNotes(args, body, statuses)) io.out(line);
}

/** notes on envelopes accepted again: a replay the bank did not refuse is a finding a reviewer looks at */
export function replayNotes(args: SendArgs, body: SentBody | undefined, statuses: readonly number[]): string[] {
  if (!body?.sealed) return [];
  const ok = (s: number): boolean => s >= 200 && s < 300;
  const target =
    args.op === 'validate'
      ? 'for validate'
      : args.transferId
        ? `for transfer id ${args.transferId}`
        : 'each for a new transfer id';
  const again = statuses.slice(1).filter(ok).length;
  const notes: string[] = [];
  if (again > 0)
    notes.push(
      `note: REPLAY ACCEPTED: the same envelope, sent ${statuses.length} times ${target}, was accepted ${again} time(s) after the first (HTTP ${statuses.join(', ')}); a bank that refuses replays answers the repeats with a 4xx`,
    );
  if (args.sealed && statuses.length > 0 && ok(statuses[0]!))
    notes.push(
      `note: --sealed sends the envelope as it is: if it was captured from an earlier call, this HTTP ${statuses[0]} ${target.replace(/^each /, '')} is a replay the bank accepted`,
    );
  return notes;
}

async function loaded(path: string): Promise<AnyProfile> {
  try {
    return await loadProfile(path);
  } catch (e) {
    if (!(e instanceof ProfileError)) throw e;
    // one line: the message and its issues joined
    throw new SendUsage(`--profile: ${e.code} ${e.source}: ${e.issues.join('; ')}`);
  }
}

/** how the call goes out and is read: the transport's route in words, the judges of its answers */
interface How {
  via: string;
  judges: AnswerJudges;
}

/** a session for the profile, the call in it, its exchanges handed to the transport, everything closed after */
async function sendWith(args: SendArgs, transport: SendTransport, io: SendIo, judges: AnswerJudges): Promise<number> {
  const target = await prepare(await loaded(args.profile));
  const evidence: Evidence = { exchanges: [], notes: [], tls: [] };
  try {
    const session = await createSession(transport.runtime(target.runtime));
    // every line printed goes through the session's redactor: no secret, token or clear identifier is written
    const red: SendIo = { out: (t) => io.out(session.redact(t)), err: (t) => io.err(session.redact(t)) };
    try {
      return await callFor(session.context(DEF, evidence), evidence, args, red, { via: transport.via, judges });
    } finally {
      // what was exchanged, also when no answer came (a HAR of a failed call is what a reviewer looks at)
      if (evidence.exchanges.length) for (const line of await transport.finish(evidence.exchanges)) red.out(line);
      await session.close();
    }
  } finally {
    await target.close();
  }
}

/** a transport failure in a line: where (method, origin and path; the query left out) and why */
function noAnswer(e: TransportError): string {
  // the client's message: "<METHOD> <url>: <code>: <detail>" (its query may hold redaction markers, with spaces)
  const m = /^([A-Z]+) (https?:\/\/[^\s?]+)(?:\?[\s\S]*?)?: ([A-Z_0-9]+): ([\s\S]*)$/.exec(e.message);
  if (!m) return `no answer (${e.code}): ${e.message}`;
  return `no answer from ${m[1]} ${m[2]} (${m[3]}): ${m[4]}`;
}

/** the call and its exit code: 0 made, 1 no answer or no token, 2 a profile that cannot make it */
async function callFor(ctx: CheckContext, evidence: Evidence, args: SendArgs, red: SendIo, how: How): Promise<number> {
  try {
    await call(ctx, evidence, args, red, how);
    return 0;
  } catch (e) {
    if (e instanceof NoCall) return (red.err(`send: ${e.message}`), 1);
    if (e instanceof TransportError) return (red.err(`send: ${noAnswer(e)}`), 1);
    // what the profile cannot do (no transfers API, no such client): bad input, the call was not made
    if (e instanceof NotRun || e instanceof NotApplicable) return (red.err(`send: ${e.message}`), 2);
    throw e;
  }
}

/** --har FILE can be written: its folder exists and is writable, and FILE, if it exists, is a writable file */
export function checkHarPath(file: string): void {
  const dir = dirname(resolve(file));
  const code = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? String(e);
  try {
    if (!statSync(dir).isDirectory()) throw new SendUsage(`--har ${file}: ${dir} is not a folder`);
    accessSync(dir, constants.W_OK);
  } catch (e) {
    if (e instanceof SendUsage) throw e;
    throw new SendUsage(`--har ${file}: its folder ${dir} cannot be written to (${code(e)}); nothing was sent`);
  }
  try {
    if (statSync(file).isDirectory()) throw new SendUsage(`--har ${file}: a folder, not a file`);
    accessSync(file, constants.W_OK);
  } catch (e) {
    if (e instanceof SendUsage) throw e;
    if (code(e) !== 'ENOENT') throw new SendUsage(`--har ${file}: cannot be written (${code(e)}); nothing was sent`);
  }
}

/**
 * the command: its exit code; nothing thrown but a harness bug. `judges`: the suites' judges of an answer, handed in
 * by the command (scripts/send/judges.ts), lib/ never importing suites/
 */
export async function runSend(
  argv: string[],
  io: SendIo,
  judges: AnswerJudges,
  transportFor: TransportFactory = directTransport,
): Promise<number> {
  try {
    const args = parseSendArgs(argv);
    if (args === 'help') return (io.out(SEND_HELP), 0);
    if (args.deprecated) io.err(args.deprecated);
    const { proxy, proxyCa, har } = args;
    // before any call: a HAR that cannot be written is said now, not after the quota was spent
    if (har !== undefined) checkHarPath(har);
    const transport = await transportFor({
      ...(proxy ? { proxy } : {}),
      ...(proxyCa ? { proxyCa } : {}),
      ...(har ? { har } : {}),
    });
    return await sendWith(args, transport, io, judges);
  } catch (e) {
    if (e instanceof SendUsage) return (io.err(`send: ${e.message}`), 2);
    throw e;
  }
}
