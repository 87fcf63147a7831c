/**
 * `npm run send`: one transfers API call as the profile's client, the reviewer's repeater. It runs in a session of
 * its own (lib/engine/session/session.ts createSession: the token flows of lib/engine/session/tokens.ts, mutual TLS, sealing,
 * the redactor), makes the call through the check context's `api`, prints the request and the answer (opened) and
 * judges the answer (send-judge.ts). Exit codes: 0 the call was made, 1 no answer or no token, 2 bad input.
 */
import { readFileSync } from 'node:fs';
import { Inconclusive, NotApplicable, NotRun, type CheckDefinition } from '../engine/check.ts';
import type { ApiResponse, CheckContext, ClientRole } from '../engine/session/context.ts';
import { prepare } from '../engine/run/prepare.ts';
import type { Evidence } from '../engine/results.ts';
import { createSession } from '../engine/session/session.ts';
import { TransportError } from '../http/types.ts';
import { open } from '../jose/index.ts';
import { mask } from '../mask/index.ts';
import { loadProfile, ProfileError } from '../profile/load.ts';
import type { AnyProfile, Customer } from '../profile/schema.ts';
import { parseSendArgs, SEND_HELP, SendUsage, type SendArgs } from './send-args.ts';
import { judge, type Sent } from './send-judge.ts';
import { answerLines, requestLines, tokenLines, type SentBody } from './send-print.ts';
import { directTransport, type SendTransport, type TransportFactory } from './send-transport.ts';
import { forgeVariant } from './send-variants.ts';
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

/** the --body file: its text, and the document when it is JSON (every body must be) */
function readBodyFile(file: string): { text: string; doc: unknown } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SendUsage(`--body: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return { text, doc: JSON.parse(text) as unknown };
  } catch (e) {
    throw new SendUsage(`--body: ${file} is not JSON (${(e as Error).message.split('\n')[0]})`);
  }
}

/**
 * whose transfer: --customer, else the customer a partner or internal client's token is bound to (its
 * oauthMetadata), else the first; and the valid body for it (a client bound to an emirates id names that id)
 */
function customerOf(ctx: CheckContext, args: SendArgs): { customer: Customer; body: Record<string, unknown> } {
  const all = ctx.profile.customers;
  const meta = args.as === 'code' ? undefined : ctx.profile.clients[args.as]?.oauthMetadata;
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
    if (args.as === 'code') return await ctx.tokens.codeToken(customer);
    if (args.as === 'partner') return await ctx.tokens.partnerToken();
    const r = await ctx.tokens.clientCredentials('internal');
    const access = r.token?.access_token;
    if (typeof access !== 'string')
      throw new NoCall(`the internal client's token request gave no access token (HTTP ${r.response.status})`);
    return access;
  } catch (e) {
    if (e instanceof Inconclusive) throw new NoCall(`no token for the ${args.as} client: ${e.message}`);
    throw e;
  }
}

/**
 * the payload inside a reviewer's envelope, opened as the bank when the profile holds its key (bank.apiPrivateKey)
 * with the bank's request policy and the `as` client's certificate; what failed when it does not open
 */
async function insideOf(
  ctx: CheckContext,
  as: ClientRole,
  envelope: unknown,
): Promise<Pick<SentBody, 'payload' | 'inside'>> {
  const bankKey = ctx.profile.bank.apiPrivateKey;
  if (!bankKey) return {};
  const verificationKey = ctx.jose.clientKey(as).certificate;
  const r = await open(envelope, { decryptionKey: bankKey, verificationKey, policy: 'request' });
  if (r.ok)
    return { payload: r.payload, inside: `opened as the bank, signature verified with the ${as} client's certificate` };
  return { inside: `did not open as the bank: ${r.step}: ${r.code}: ${r.reason}` };
}

/** the body to send, built before the token is asked for (a bad variant sends nothing) */
async function bodyOf(
  ctx: CheckContext,
  args: SendArgs,
  valid: Record<string, unknown>,
): Promise<SentBody | undefined> {
  if (args.op === 'get') return undefined;
  const uat = ctx.env === 'uat';
  if (!uat && (args.sealed || args.variant))
    throw new SendUsage(`--${args.sealed ? 'sealed' : 'variant'}: the profile is sandbox, whose bodies are not sealed`);
  const file = args.bodyFile ? readBodyFile(args.bodyFile) : undefined;
  if (args.sealed) {
    const what = `the envelope of ${args.bodyFile}, sent as it is`;
    return { wire: file!.text, sealed: true, what, ...(await insideOf(ctx, args.as, file!.doc)) };
  }
  const doc = file ? file.doc : valid;
  const what = file ? `${args.bodyFile}, sealed by send` : "the harness's valid transfer body";
  if (args.variant !== undefined) {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      throw new SendUsage(`--variant: the document to forge (${args.bodyFile}) is not a JSON object`);
    const v = await forgeVariant(ctx, args.as, args.variant, doc as Record<string, unknown>);
    const what = `variant ${v.id}: ${v.title}`;
    return { wire: v.body, sealed: true, payload: doc, what, ...(v.alsoRefused ? { alsoRefused: v.alsoRefused } : {}) };
  }
  if (!uat) return { wire: doc as object, sealed: false, what };
  return {
    wire: await ctx.jose.seal(doc, args.as),
    sealed: true,
    payload: doc,
    what: `${what} (RS256 in RSA-OAEP-256/A256CBC-HS512)`,
  };
}

/** the checks the profile must pass before a call (a client, its certificate): a usage error naming what is missing */
function ensureClient(ctx: CheckContext, args: SendArgs): void {
  try {
    if (!ctx.profile.clients[args.as]) throw new SendUsage(`--as ${args.as}: the profile has no ${args.as} client`);
    ctx.identity(args.as);
    if (ctx.env === 'uat') ctx.jose.clientKey(args.as);
  } catch (e) {
    if (e instanceof NotApplicable || e instanceof Inconclusive || e instanceof NotRun)
      throw new SendUsage(`--as ${args.as}: ${e.message}`);
    throw e;
  }
}

/** the call, printed and judged */
async function call(ctx: CheckContext, evidence: Evidence, args: SendArgs, io: SendIo, via: string): Promise<void> {
  ensureClient(ctx, args);
  const { customer, body: valid } = customerOf(ctx, args);
  const body = await bodyOf(ctx, args, valid);
  io.out(`send ${args.op} to ${ctx.profile.name} (${ctx.env}), ${via}`);
  let token: string;
  try {
    token = await tokenFor(ctx, args, customer);
  } finally {
    io.out(`token (${args.as} client${args.as === 'code' ? `, customer "${customer.name}"` : ''}):`);
    io.out(tokenLines(evidence.exchanges).join('\n'));
  }
  const before = evidence.exchanges.length;
  const transferId = args.op === 'validate' ? undefined : (args.transferId ?? ctx.newTransferId());
  let res: ApiResponse;
  try {
    res = await ctx.api({
      op: args.op,
      as: args.as,
      token,
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
  io.out(['judgement', ...judge(res, sent, ctx.profile).map((l) => `  ${l}`)].join('\n'));
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

/** a session for the profile, the call in it, its exchanges handed to the transport, everything closed after */
async function sendWith(args: SendArgs, transport: SendTransport, io: SendIo): Promise<number> {
  const target = await prepare(await loaded(args.profile));
  const evidence: Evidence = { exchanges: [], notes: [], tls: [] };
  try {
    const session = await createSession(transport.runtime(target.runtime));
    // every line printed goes through the session's redactor: no secret, token or clear identifier is written
    const red: SendIo = { out: (t) => io.out(session.redact(t)), err: (t) => io.err(session.redact(t)) };
    try {
      return await callFor(session.context(DEF, evidence), evidence, args, red, transport.via);
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
async function callFor(
  ctx: CheckContext,
  evidence: Evidence,
  args: SendArgs,
  red: SendIo,
  via: string,
): Promise<number> {
  try {
    await call(ctx, evidence, args, red, via);
    return 0;
  } catch (e) {
    if (e instanceof NoCall) return (red.err(`send: ${e.message}`), 1);
    if (e instanceof TransportError) return (red.err(`send: ${noAnswer(e)}`), 1);
    // what the profile cannot do (no transfers API, no such client): bad input, the call was not made
    if (e instanceof NotRun || e instanceof NotApplicable) return (red.err(`send: ${e.message}`), 2);
    throw e;
  }
}

/** the command: its exit code; nothing thrown but a harness bug */
export async function runSend(
  argv: string[],
  io: SendIo,
  transportFor: TransportFactory = directTransport,
): Promise<number> {
  try {
    const args = parseSendArgs(argv);
    if (args === 'help') return (io.out(SEND_HELP), 0);
    const { proxy, proxyCa, har } = args;
    const transport = await transportFor({
      ...(proxy ? { proxy } : {}),
      ...(proxyCa ? { proxyCa } : {}),
      ...(har ? { har } : {}),
    });
    return await sendWith(args, transport, io);
  } catch (e) {
    if (e instanceof SendUsage) return (io.err(`send: ${e.message}`), 2);
    throw e;
  }
}
