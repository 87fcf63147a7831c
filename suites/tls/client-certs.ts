/**
 * Client certificates (TLS-02..04): a call without one, and token requests with negative certificates, are
 * refused, each next to its positive control with the registered certificate.
 */
import { randomUUID } from 'node:crypto';
import { CheckFailed, Inconclusive } from '../../lib/engine/check.ts';
import { failure, type Failure } from '../../lib/engine/failure.ts';
import type { CheckContext, NegativeCert } from '../../lib/engine/session/context.ts';
import { sealByHand } from '../../lib/jose/craft.ts';
import { buildClientCredentialsRequest } from '../../lib/oauth/index.ts';
import { probeClientCertificate, type ClientCertProbeResult } from '../../lib/tls/probe.ts';
import { clip } from '../shared.ts';
import { codeCert, endpointOf, probe, type Endpoint } from './common.ts';

/** refused: no HTTP answer (handshake alert, or the connection closed), or 401/403 */
export function refusalOf(r: ClientCertProbeResult): string | undefined {
  // a timeout is no answer at all, not the target's refusal: nothing can be concluded from it
  if (r.outcome !== 'http' && /TIMEOUT|ETIMEDOUT|timed out/i.test(r.error ?? ''))
    throw new Inconclusive(`no answer in time (${r.error ?? ''}): a timeout is not a refusal`);
  if (r.outcome !== 'http') return `${r.outcome}: ${r.error ?? ''}`;
  if (r.status === 401 || r.status === 403) return `HTTP ${r.status}`;
  return undefined;
}

/** what an HTTP answer said, short and redacted (an OAuth error code or the error body's property) */
export function answerOf(ctx: CheckContext, r: ClientCertProbeResult): string {
  if (r.outcome !== 'http') return `${r.outcome} (${r.error ?? ''})`;
  let said: string;
  try {
    const j = JSON.parse(r.body ?? '') as Record<string, unknown>;
    said = [j.error, j.error_description, j.property, j.response_message]
      .filter((x) => typeof x === 'string')
      .join(': ');
  } catch {
    said = '';
  }
  return `HTTP ${r.status}${said ? ` (${ctx.redact(clip(said, 160))})` : ''}`;
}

/** the probe request: a sealed client-credentials token request as `clientId`, signed with `signingKey` */
async function tokenRequest(
  ctx: CheckContext,
  clientId: string,
  clientSecret: string,
  signingKey: string,
): Promise<{ url: string; request: NonNullable<Parameters<typeof probeClientCertificate>[0]['request']> }> {
  const partner = ctx.profile.clients.partner;
  // the builder gives the UAT headers and JSON; the JSON is sealed by hand because jose refuses to sign with a
  // key under 2048 bits, and the weak-key case must be able to sign with its own key
  const req = await buildClientCredentialsRequest(ctx.profile, {
    role: 'partner',
    client: { ...partner, clientId, clientSecret },
    oauthMetadata: null,
    style: 'plain-json',
    msgId: randomUUID(),
    identity: { name: 'probe' },
  });
  const payload = JSON.parse(String(req.body)) as unknown;
  const sealed = sealByHand(payload, { signingKeyPem: signingKey, encryptionKeyPem: ctx.jose.bankPublicKey });
  const u = new URL(req.url);
  return {
    url: req.url,
    request: {
      method: 'POST',
      path: `${u.pathname}${u.search}`,
      headers: req.headers ?? {},
      body: JSON.stringify(sealed),
    },
  };
}

/**
 * TLS-03/04: the client-credentials token request with a negative certificate (registered to its own client id,
 * or, for `unregistered`, presented with the partner's id) is refused; the same request with the partner's
 * registered certificate is answered 200 first (positive control).
 */
export async function expectCertificateRefused(ctx: CheckContext, which: NegativeCert): Promise<void> {
  const identity = ctx.identity(which);
  if (!identity?.certificate || !identity.privateKey)
    throw new Inconclusive(`the profile gives no ${which} certificate`);
  const neg = ctx.profile.tls?.negativeCertificates[which];
  const partner = ctx.profile.clients.partner;
  if (!partner.privateKey || !partner.certificate)
    throw new Inconclusive('the profile gives no certificate for the partner client');

  // positive control: the partner's registered certificate, same request shape
  const control = await tokenRequest(ctx, partner.clientId, partner.clientSecret, partner.privateKey);
  const ep = endpointOf(ctx, control.url);
  const ok = await probe(ctx, 'control with the registered certificate', () =>
    probeClientCertificate({ ...ep, cert: partner.certificate!, key: partner.privateKey!, request: control.request }),
  );
  ctx.tls({ ...ok.evidence, label: 'control: registered partner certificate' });
  if (ok.outcome !== 'http' || ok.status !== 200) {
    throw new Inconclusive(
      `control: the token request with the partner's registered certificate was answered ${answerOf(ctx, ok)}, not 200`,
    );
  }

  let clientId = partner.clientId;
  let clientSecret = partner.clientSecret;
  let signingKey = partner.privateKey;
  if (which !== 'unregistered') {
    if (!neg?.clientId || !neg.clientSecret)
      throw new Inconclusive(
        `the profile gives no clientId/clientSecret registered for tls.negativeCertificates.${which}`,
      );
    clientId = neg.clientId;
    clientSecret = neg.clientSecret;
    signingKey = identity.privateKey;
  }
  const bad = await tokenRequest(ctx, clientId, clientSecret, signingKey);
  const credentialsShown = (): Promise<void> =>
    which === 'unregistered'
      ? Promise.resolve()
      : expectCredentialsValid(
          ctx,
          ep,
          { clientId, clientSecret, signingKey },
          partner.certificate!,
          partner.privateKey!,
        );
  const r = await probe(ctx, `${which} certificate`, () =>
    probeClientCertificate({ ...ep, cert: identity.certificate!, key: identity.privateKey!, request: bad.request }),
  );
  ctx.tls({ ...r.evidence, label: `${which} client certificate` });
  if (r.outcome === 'http' && r.status === 429)
    throw new Inconclusive(`the ${which} certificate's request was refused for the quota (HTTP 429)`);
  const refused = refusalOf(r);
  ctx.note(`${which} certificate: ${answerOf(ctx, r)}`);
  // an HTTP 401/403 could be about the client id or secret: show they are valid (a handshake refusal reads none)
  if (refused && r.outcome === 'http') await credentialsShown();
  if (!refused) {
    const message = `the ${which} client certificate was not refused: the token request was answered ${answerOf(ctx, r)}`;
    throw CheckFailed.of(certificateNotRefused(ctx, r, message, which, `${which} client certificate`));
  }
}

/** a certificate (or none) the target did not refuse, as a record: the case is which certificate */
function certificateNotRefused(
  ctx: CheckContext,
  r: ClientCertProbeResult,
  message: string,
  which: string,
  caseTitle: string,
  operation = 'token',
): Failure {
  const data = {
    case: which,
    caseTitle,
    outcome: r.outcome === 'http' && r.status !== undefined && r.status < 300 ? 'accepted' : 'other',
    ...(r.outcome === 'http' && r.status !== undefined ? { status: r.status } : {}),
  };
  return failure('negative-accepted', message, data, {
    title: which === 'none' ? 'call without a client certificate answered' : 'client certificate not refused',
    operation,
    expected: 'handshake refused, connection closed, or HTTP 401/403',
    observed: answerOf(ctx, r),
  });
}

/**
 * The negative client's id and secret are valid: presented over the registered partner certificate (a good
 * handshake), they are answered otherwise than the same id with a wrong secret (the target got past the secret).
 * Else a 401/403 to the negative certificate may be about the credentials: inconclusive.
 */
async function expectCredentialsValid(
  ctx: CheckContext,
  ep: Endpoint,
  neg: { clientId: string; clientSecret: string; signingKey: string },
  cert: string,
  key: string,
): Promise<void> {
  const ask = async (secret: string, label: string): Promise<string> => {
    const req = await tokenRequest(ctx, neg.clientId, secret, neg.signingKey);
    const r = await probe(ctx, label, () => probeClientCertificate({ ...ep, cert, key, request: req.request }));
    ctx.tls({ ...r.evidence, label });
    return r.outcome === 'http' ? `${r.status} ${r.body ?? ''}` : `${r.outcome}`;
  };
  const right = await ask(neg.clientSecret, 'control: the negative client id and secret over the partner certificate');
  const wrong = await ask(`${neg.clientSecret}-wrong`, 'control: the negative client id with a wrong secret');
  if (right === wrong)
    throw new Inconclusive(
      "the negative client's id and secret are answered exactly as a wrong secret: nothing shows they are valid, so the refusal may be about them",
    );
}

/** TLS-02: a transfers call without a client certificate is refused; with the registered one it is answered */
export async function expectCallWithoutCertificateRefused(ctx: CheckContext): Promise<void> {
  const ep = endpointOf(ctx);
  const token = await ctx.tokens.codeToken(ctx.customer({ workflow: false }));
  const path = new URL(ctx.url('transfer').replace('{transfer_id}', encodeURIComponent(ctx.newTransferId()))).pathname;
  const request = {
    method: 'GET',
    path,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'x-gateway-client-id': ctx.profile.clients.code.clientId,
    },
  };
  const ok = await probe(ctx, 'control with the registered certificate', () =>
    probeClientCertificate({ ...ep, ...codeCert(ctx), request }),
  );
  ctx.tls({ ...ok.evidence, label: 'control: registered code certificate' });
  if (refusalOf(ok) || ok.status === 429)
    throw new Inconclusive(`control: the call with the registered certificate was refused too: ${answerOf(ctx, ok)}`);
  ctx.note(`control with the registered certificate: ${answerOf(ctx, ok)}`);
  const r = await probe(ctx, 'call without a client certificate', () => probeClientCertificate({ ...ep, request }));
  ctx.tls(r.evidence);
  if (r.outcome === 'http' && r.status === 429)
    throw new Inconclusive('the call without a certificate was refused for the quota (HTTP 429)');
  ctx.note(`without a certificate: ${answerOf(ctx, r)}`);
  if (!refusalOf(r)) {
    const message = `a call without a client certificate was answered ${answerOf(ctx, r)}`;
    throw CheckFailed.of(certificateNotRefused(ctx, r, message, 'none', 'no client certificate', 'get'));
  }
}
