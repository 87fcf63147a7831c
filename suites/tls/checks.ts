/**
 * Transport rules (seed §5.2, §5.3), UAT only (the catalogue decides). Handshake-level facts come from
 * lib/tls/probe.ts (node:tls, so refusals keep their reasons); the allow-list check goes through ctx.api with a
 * copy of the registered identity bound to another source address. Every probe's TLS facts go to ctx.tls().
 * A probe that could not reach the target, or asked for something this client cannot offer, is inconclusive.
 */
import { randomUUID } from 'node:crypto';
import { CheckFailed, Inconclusive, NotRun, defineSuite, ensure } from '../../lib/engine/check.ts';
import type { CheckContext, NegativeCert } from '../../lib/engine/context.ts';
import { TransportError, isServerCertificateError, type Identity } from '../../lib/http/types.ts';
import { sealByHand } from '../../lib/jose/craft.ts';
import { buildClientCredentialsRequest } from '../../lib/oauth/index.ts';
import {
  TlsProbeError,
  inspectServerCertificate,
  probeClientCertificate,
  probeProtocol,
  probeWeakCiphers,
  type ClientCertProbeResult,
  type TlsVersion,
} from '../../lib/tls/probe.ts';
import { clip } from '../shared.ts';

interface Endpoint {
  host: string;
  port: number;
  ca: string;
  servername?: string;
  localAddress?: string;
}

/** host and port of an https URL, with the profile's CA, server name and allow-listed source address */
function endpointOf(ctx: CheckContext, url = ctx.profile.target.baseUrl): Endpoint {
  const tls = ctx.profile.tls;
  if (!tls) throw new Inconclusive('the profile has no tls section');
  const u = new URL(url);
  if (u.protocol !== 'https:') throw new Inconclusive(`${u.origin} is not an https URL: no TLS to probe`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 443,
    ca: tls.caCertificate,
    ...(tls.serverName ? { servername: tls.serverName } : {}),
    ...(tls.allowedSourceAddress ? { localAddress: tls.allowedSourceAddress } : {}),
  };
}

/**
 * runs a probe; a probe error (network, timeout, client cannot offer it, untrusted server) is inconclusive. The
 * probe's connection takes a place among the calls in flight to the target (issue 18: a small target); one that
 * timed out among other calls is probed again alone (a handshake changes nothing at the target) before it counts.
 */
async function probe<T>(ctx: CheckContext, what: string, run: () => Promise<T>): Promise<T> {
  const url = ctx.profile.target.baseUrl;
  try {
    try {
      return await (ctx.holding ? ctx.holding(url, run) : run());
    } catch (e) {
      if (!(e instanceof TlsProbeError && e.code === 'TLS_PROBE_TIMEOUT' && ctx.holding)) throw e;
      ctx.note(`${what}: no handshake result while other calls were in flight; probed again alone`);
      return await ctx.holding(url, run, { alone: true });
    }
  } catch (e) {
    if (e instanceof TlsProbeError) throw new Inconclusive(`${what}: ${e.code}: ${e.message}`);
    throw e;
  }
}

/** the registered client certificate of the code client, for probes that should not fail for want of one */
function codeCert(ctx: CheckContext): { cert: string; key: string } {
  const id = ctx.identity('code');
  if (!id?.certificate || !id.privateKey)
    throw new Inconclusive('the profile gives no certificate for the code client');
  return { cert: id.certificate, key: id.privateKey };
}

/** a TLS 1.2 handshake with the registered certificate: the positive control of the refusal checks */
async function expectTls12(ctx: CheckContext, ep: Endpoint, control: boolean): Promise<void> {
  const r = await probe(ctx, 'TLS 1.2 probe', () => probeProtocol({ ...ep, ...codeCert(ctx), version: 'TLSv1.2' }));
  ctx.tls(r.evidence);
  if (r.accepted) return;
  if (control)
    throw new Inconclusive(
      `control: a TLS 1.2 handshake with the registered certificate failed too (${r.error ?? r.negotiated}); a refusal proves nothing`,
    );
  throw new CheckFailed(`a TLS 1.2 handshake was refused: ${r.error ?? `negotiated ${r.negotiated}`}`, {
    expected: 'TLS 1.2 accepted',
    observed: r.error ?? r.negotiated,
  });
}

// ---- client certificates --------------------------------------------------------------------------------

/** refused: no HTTP answer (handshake alert, or the connection closed), or 401/403 */
function refusalOf(r: ClientCertProbeResult): string | undefined {
  // a timeout is no answer at all, not the target's refusal: nothing can be concluded from it
  if (r.outcome !== 'http' && /TIMEOUT|ETIMEDOUT|timed out/i.test(r.error ?? ''))
    throw new Inconclusive(`no answer in time (${r.error ?? ''}): a timeout is not a refusal`);
  if (r.outcome !== 'http') return `${r.outcome}: ${r.error ?? ''}`;
  if (r.status === 401 || r.status === 403) return `HTTP ${r.status}`;
  return undefined;
}

/** what an HTTP answer said, short and redacted (an OAuth error code or the error body's property) */
function answerOf(ctx: CheckContext, r: ClientCertProbeResult): string {
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
async function expectCertificateRefused(ctx: CheckContext, which: NegativeCert): Promise<void> {
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
    throw new CheckFailed(
      `the ${which} client certificate was not refused: the token request was answered ${answerOf(ctx, r)}`,
      {
        expected: 'handshake refused, connection closed, or HTTP 401/403',
        observed: answerOf(ctx, r),
      },
    );
  }
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

// ---- source address ---------------------------------------------------------------------------------------

/** transport errors that mean "the address or route is not usable here", not "the server refused" */
const LOCAL_ERRORS = new Set(['EADDRNOTAVAIL', 'EINVAL', 'EACCES', 'ENETUNREACH', 'EHOSTUNREACH']);
/** transport errors where no connection was made, or nothing came back in time: not a refusal by the target */
const NO_CONNECTION = /TIMEOUT|ETIMEDOUT|ECONNREFUSED|EAI_|ENOTFOUND|ABORT/i;

export const suite = defineSuite('tls', [
  {
    name: 'tls12-accepted',
    requirements: ['TLS-01'],
    title: 'a TLS 1.2 handshake succeeds',
    async run(ctx) {
      await expectTls12(ctx, endpointOf(ctx), false);
      // TLS 1.3 is allowed ("1.2 and higher"): reported, not judged
      const t13 = await probe(ctx, 'TLS 1.3 probe', () =>
        probeProtocol({ ...endpointOf(ctx), ...codeCert(ctx), version: 'TLSv1.3' }),
      ).catch((e: unknown) => {
        ctx.note(`TLS 1.3 not probed: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (t13) ctx.note(`TLS 1.3 ${t13.accepted ? 'accepted' : `refused (${t13.error ?? ''})`} (allowed either way)`);
    },
  },
  {
    name: 'tls10-tls11-refused',
    requirements: ['TLS-01'],
    title: 'TLS 1.0 and TLS 1.1 handshakes are refused',
    async run(ctx) {
      const ep = endpointOf(ctx);
      await expectTls12(ctx, ep, true);
      const accepted: string[] = [];
      for (const version of ['TLSv1', 'TLSv1.1'] as const satisfies readonly TlsVersion[]) {
        // probeProtocol offers the version with SECLEVEL=0, so "refused" is the server's answer, not this client's limit
        const r = await probe(ctx, `${version} probe`, () => probeProtocol({ ...ep, ...codeCert(ctx), version }));
        ctx.tls(r.evidence);
        if (r.accepted) accepted.push(`${version} (${r.evidence.cipher ?? '?'})`);
        else ctx.note(`${version} refused: ${r.error ?? ''}`);
      }
      ensure(
        accepted.length === 0,
        `legacy protocol versions were accepted: ${accepted.join(', ')}`,
        'TLS 1.0 and 1.1 refused',
        accepted,
      );
    },
  },
  {
    name: 'client-certificate-required',
    requirements: ['TLS-02'],
    title: 'a transfers call without a client certificate is refused (handshake, connection or 401/403)',
    async run(ctx) {
      const ep = endpointOf(ctx);
      const token = await ctx.tokens.codeToken(ctx.customer({ workflow: false }));
      const path = new URL(ctx.url('transfer').replace('{transfer_id}', encodeURIComponent(ctx.newTransferId())))
        .pathname;
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
        throw new Inconclusive(
          `control: the call with the registered certificate was refused too: ${answerOf(ctx, ok)}`,
        );
      ctx.note(`control with the registered certificate: ${answerOf(ctx, ok)}`);
      const r = await probe(ctx, 'call without a client certificate', () => probeClientCertificate({ ...ep, request }));
      ctx.tls(r.evidence);
      if (r.outcome === 'http' && r.status === 429)
        throw new Inconclusive('the call without a certificate was refused for the quota (HTTP 429)');
      ctx.note(`without a certificate: ${answerOf(ctx, r)}`);
      if (!refusalOf(r)) {
        throw new CheckFailed(`a call without a client certificate was answered ${answerOf(ctx, r)}`, {
          expected: 'handshake refused, connection closed, or HTTP 401/403',
          observed: answerOf(ctx, r),
        });
      }
    },
  },
  {
    name: 'weak-client-key-refused',
    requirements: ['TLS-03'],
    title: 'a client certificate with a 1024-bit RSA key, registered to its client id, is refused',
    run: (ctx) => expectCertificateRefused(ctx, 'weak1024'),
  },
  {
    name: 'expired-client-certificate-refused',
    requirements: ['TLS-04'],
    title: 'an expired client certificate, registered to its client id, is refused',
    run: (ctx) => expectCertificateRefused(ctx, 'expired'),
  },
  {
    name: 'untrusted-ca-client-certificate-refused',
    requirements: ['TLS-04'],
    title: 'a client certificate from a CA the bank does not trust, registered to its client id, is refused',
    run: (ctx) => expectCertificateRefused(ctx, 'untrustedCa'),
  },
  {
    name: 'unregistered-client-certificate-refused',
    requirements: ['TLS-04'],
    title: "a trusted client certificate that is not the one registered for the client id (the partner's) is refused",
    run: (ctx) => expectCertificateRefused(ctx, 'unregistered'),
  },
  {
    name: 'server-certificate-valid',
    requirements: ['TLS-05'],
    title:
      'the server certificate chains to the configured CA, matches the host, is in date and has a key of at least 2048 bits',
    async run(ctx) {
      const ep = endpointOf(ctx);
      const s = await probe(ctx, 'server certificate', () => inspectServerCertificate(ep));
      ctx.tls(s.evidence);
      const problems: string[] = [];
      if (!s.chainsToCa) problems.push(`does not chain to the configured CA (${s.chainError ?? 'unverified'})`);
      if (!s.hostnameMatches) problems.push(`does not match ${ep.servername ?? ep.host} (${s.hostnameError ?? ''})`);
      if (!s.inDate) problems.push(`is not in date (${s.validFrom} to ${s.validTo})`);
      // the seed's minimum is for RSA; an EC key is judged by NIST SP 800-57 equivalence (224-bit EC ~ RSA 2048)
      const strongEnough = s.keyType === 'ec' ? s.keyBits >= 224 : s.keyBits >= 2048;
      if (s.keyType === 'ec')
        ctx.note(`EC server key (${s.keyBits} bits) judged as at least 224 bits, equivalent to RSA 2048`);
      if (!strongEnough) problems.push(`has a ${s.keyType} key of ${s.keyBits} bits`);
      ensure(
        problems.length === 0,
        `the server certificate ${problems.join('; ')}`,
        'chains to the CA, matches the host, in date, key >= 2048 bits',
        `${s.subject} (issuer ${s.issuer})`,
      );
    },
  },
  {
    name: 'source-address-allow-list',
    requirements: ['TLS-06'],
    title:
      'a call from a source address outside the allow-list is refused, while the same call from the allowed address is answered',
    async run(ctx) {
      const other = ctx.profile.tls?.disallowedSourceAddress;
      if (!other)
        throw new NotRun(
          'the profile names no tls.disallowedSourceAddress (a local address that is not on the allow-list)',
        );
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const registered = ctx.identity('code');
      if (!registered) throw new Inconclusive('no mutual-TLS identity for the code client');
      const id = ctx.newTransferId();
      const ok = await ctx.api({ op: 'get', transferId: id, token, label: 'get from the allowed source (control)' });
      if (ok.status === 401 || ok.status === 403 || ok.status === 429) {
        throw new Inconclusive(`control: the call from the allowed source address was refused (HTTP ${ok.status})`);
      }
      const elsewhere: Identity = { ...registered, name: `${registered.name}-from-${other}`, localAddress: other };
      let status: number;
      try {
        status = (await ctx.api({ op: 'get', transferId: id, token, identity: elsewhere, label: `get from ${other}` }))
          .status;
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        if (LOCAL_ERRORS.has(e.code)) throw new Inconclusive(`cannot send from ${other} on this machine: ${e.code}`);
        if (isServerCertificateError(e)) throw e; // the runner makes it inconclusive (TLS-05's rule)
        // a connection the target reset or closed after accepting it is its refusal; a connect that never
        // completed (timeout, refused, no route) may be this network's doing: no evidence without a positive
        // control from that address
        if (NO_CONNECTION.test(e.code))
          throw new Inconclusive(
            `from ${other}: no connection (${e.code}); nothing shows the target was reachable from that address`,
          );
        ctx.note(`from ${other}: the connection was closed without an HTTP answer (${e.code}): refused`);
        return;
      }
      const refused = ctx.profile.contract.statuses.sourceRefused;
      ctx.note(`from ${other}: HTTP ${status}; from the allowed source: HTTP ${ok.status}`);
      ensure(
        refused.includes(status),
        `a call from ${other} (not allow-listed) was answered HTTP ${status}`,
        `HTTP ${refused.join(' or ')}, or the connection closed`,
        status,
      );
    },
  },
  {
    name: 'weak-cipher-suites-refused',
    requirements: ['TLS-09'],
    title: 'TLS 1.2 handshakes offering only NULL, EXPORT, RC4, 3DES or anonymous suites are refused',
    async run(ctx) {
      const ep = endpointOf(ctx);
      await expectTls12(ctx, ep, true);
      const results = await probe(ctx, 'weak cipher probe', () => probeWeakCiphers({ ...ep, ...codeCert(ctx) }));
      const accepted: string[] = [];
      for (const r of results) {
        ctx.note(
          `${r.family}: ${!r.offered ? `not checked (${r.note ?? 'this client cannot offer it'})` : r.accepted ? `ACCEPTED (${r.cipher ?? '?'})` : `refused (${r.note ?? ''})`}`,
        );
        ctx.tls({
          label: `cipher family ${r.family}`,
          cipher: r.cipher ?? null,
          outcome: !r.offered ? 'not offered by this client' : r.accepted ? 'accepted' : 'refused',
        });
        if (r.offered && r.accepted) accepted.push(`${r.family} (${r.cipher ?? '?'})`);
      }
      ensure(
        accepted.length === 0,
        `weak TLS 1.2 cipher suites were accepted: ${accepted.join(', ')}`,
        'all weak families refused',
        accepted,
      );
      const offered = results.filter((r) => r.offered).map((r) => r.family);
      if (offered.length === 0)
        throw new Inconclusive('this client could offer none of the weak cipher families: nothing was checked');
      const unchecked = results.filter((r) => !r.offered).map((r) => r.family);
      if (unchecked.length)
        ctx.note(
          `checked: ${offered.join(', ')}; not checked (this client cannot offer them): ${unchecked.join(', ')}`,
        );
    },
  },
]);
