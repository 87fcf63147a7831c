/**
 * A check's transfers API call as a session makes it (ctx.api): the URL of a path key, the client's headers, mutual-TLS
 * identity and sealing (UAT), the sealed answer opened and recorded. Split from session.ts (one concern per file).
 */
import { randomUUID } from 'node:crypto';
import { exchangeOf } from '../../http/record/exchanges.ts';
import { keyFingerprint } from '../../http/record/jose-summary.ts';
import type { HttpRequest, HttpResponse, Identity } from '../../http/types.ts';
import { classify, JWS_ALG, open as openEnvelope, seal as sealPayload } from '../../jose/index.ts';
import { rememberInner } from '../../jose/sent.ts';
import type { OpenResult } from '../../jose/types.ts';
import type { FullProfile } from '../../profile/schema.ts';
import { Inconclusive, NotApplicable, NotRun } from '../check.ts';
import type { Send } from '../clock/clock.ts';
import type { ApiCall, ApiResponse, CheckContext, ClientRole, NegativeCert } from './context.ts';
import { missingNegativeCertificate } from './negative-certs.ts';
import type { SessionParts } from './tokens.ts';

const TRANSFER_PATH_KEYS = new Set(['validate', 'transfer']);
const OAUTH_PATH_KEYS = new Set(['authorize', 'token', 'partnerToken', 'internalToken']);

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
  if (!n) throw new NotRun(missingNegativeCertificate(who));
  return { name: `negative-${who}`, certificate: n.certificate, privateKey: n.privateKey, ...base };
}

export function joseFor(profile: FullProfile): CheckContext['jose'] {
  const bankPublicKey = profile.bank.apiPublicKey ?? '';
  const clientKey = (as: ClientRole = 'code'): { privateKey: string; certificate: string } => {
    const c = profile.clients[as];
    if (!c?.privateKey || !c.certificate)
      throw new Inconclusive(`the profile gives no key and certificate for the ${as} client`);
    return { privateKey: c.privateKey, certificate: c.certificate };
  };
  return {
    seal: (payload: unknown, as: ClientRole = 'code') => {
      const k = clientKey(as);
      // seal() signs with the protected header {alg: RS256} (no kid): remembered for the evidence
      return sealPayload(payload, { signingKey: k.privateKey, encryptionKey: bankPublicKey }).then((jwe) =>
        rememberInner(jwe, [{ alg: JWS_ALG }], JSON.stringify(payload)),
      );
    },
    open: (envelope: unknown, as: ClientRole = 'code', allowFlattened = true): Promise<OpenResult> => {
      const k = clientKey(as);
      // a response is judged by what JOSE-11 demands, not by the bank's strictness on requests
      return openEnvelope(envelope, {
        decryptionKey: k.privateKey,
        verificationKey: bankPublicKey,
        allowFlattened,
        policy: 'response',
      });
    },
    bankPublicKey,
    clientKey,
  };
}

/** opens a sealed response (UAT) and records the opened document (redacted) as evidence */
async function readResponse(
  res: HttpResponse,
  as: ClientRole,
  parts: SessionParts,
  jose: CheckContext['jose'],
): Promise<{ body: unknown; opened?: OpenResult }> {
  if (parts.profile.environment !== 'uat' || res.json === undefined) return { body: res.json };
  const kind = classify(res.json).kind;
  if (kind !== 'jwe' && kind !== 'jws') return { body: res.json };
  const opened = await jose.open(res.json, as, true);
  const ex = exchangeOf(res);
  if (ex?.jose) {
    ex.jose.opened = opened.ok
      ? JSON.parse(parts.redactor.redact(JSON.stringify(opened.payload ?? null)))
      : `did not open: ${opened.step} ${opened.code}: ${opened.reason}`;
    // which JWS was inside, and which key verified it (a failure past the signature step never verified)
    if (opened.jwsHeader) ex.jose.innerHeader = opened.jwsHeader;
    if (opened.ok) ex.jose.verifiedWith = keyFingerprint(jose.bankPublicKey);
  }
  return opened.ok ? { body: opened.payload, opened } : { body: res.json, opened };
}

export function apiFor(
  parts: SessionParts,
  send: Send,
  jose: CheckContext['jose'],
): (call: ApiCall) => Promise<ApiResponse> {
  const { profile } = parts;
  return async (call) => {
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
    else if (call.body !== undefined)
      body = profile.environment === 'uat' ? await jose.seal(call.body, as) : (call.body as object);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const identity = call.identity ?? identityOf(profile, as);
    const req: HttpRequest = {
      method,
      url,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(identity ? { identity } : {}),
      label: call.label ?? `${call.op} ${method}`,
    };
    const res = await send(parts.answers ? parts.answers.markApi(req) : req);
    // the plaintext the harness sealed, redacted like any body (the JWE itself is unreadable in the evidence)
    const ex = exchangeOf(res);
    if (ex && profile.environment === 'uat' && call.rawBody === undefined && call.body !== undefined)
      ex.sealedPlaintext = parts.redactor.redact(JSON.stringify(call.body, null, 2));
    const read = await readResponse(res, as, parts, jose);
    parts.answers?.api(req, res, read);
    return {
      status: res.status,
      headers: res.headers,
      body: read.body,
      ...(read.opened ? { opened: read.opened } : {}),
      raw: res,
    };
  };
}

export function newTransferId(): string {
  return `TRF-${randomUUID()}`;
}
