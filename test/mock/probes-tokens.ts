/**
 * Fault probes: MASK and TOK: masking, codes, tokens and their lifetimes, the authorize endpoint.
 * Gathered by test/mock/faults.test.ts (every test/mock/probes-*.ts), which runs each without and with its fault.
 */
import { seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { advance, api, basic, call, ccToken, codeFlow, tlsOf, tokenCall, transferBody } from './helpers.ts';
import { type Probe, codeFromAuthorize, tok, validate } from './probe-kit.ts';

export const PROBES: Record<string, Probe> = {
  // MASK
  'mask-any-mask-char': async (x) =>
    (await validate(x, { account_id: mask(x.p.customers[0]!.accountId).replace(/x/g, 'X') })).status === 200,
  'mask-length-not-kept': async (x) => {
    const a = x.p.customers[0]!.accountId;
    return (await validate(x, { account_id: `${a.slice(0, 4)}xxx${a.slice(-3)}` })).status === 200;
  },
  'accept-unmasked-id': async (x) => (await validate(x, { account_id: x.p.customers[0]!.accountId })).status === 200,
  'mask-echo-wrong-mask': async (x) => {
    const echoed = (await validate(x)).body.account_id;
    return typeof echoed === 'string' && echoed !== mask(x.p.customers[0]!.accountId);
  },
  'mask-echo-clear-id': async (x) =>
    (await validate(x)).text.includes(x.p.customers[0]!.accountId) ||
    JSON.stringify((await validate(x)).body).includes(x.p.customers[0]!.accountId),
  // TOK
  'token-missing-consented-on': async (x) => !('consented_on' in (await codeFlow(x.p))),
  'token-missing-expires-in': async (x) =>
    !('expires_in' in (await codeFlow(x.p))) && !('expires_in' in (await ccToken(x.p)).body),
  'cc-token-has-refresh': async (x) => 'refresh_token' in (await ccToken(x.p)).body,
  'code-reusable': async (x) => {
    const code = (await codeFromAuthorize(x, {}))!.searchParams.get('code')!;
    await tokenCall(x.p, { grant_type: 'authorization_code', code });
    return (await tokenCall(x.p, { grant_type: 'authorization_code', code })).status === 200;
  },
  'no-revoke-on-code-reuse': async (x) => {
    const code = (await codeFromAuthorize(x, {}))!.searchParams.get('code')!;
    const first = (await tokenCall(x.p, { grant_type: 'authorization_code', code })).json as { access_token: string };
    await tokenCall(x.p, { grant_type: 'authorization_code', code });
    return (await api(x.p, { method: 'GET', path: '/transfers/none', token: first.access_token })).status === 404;
  },
  'code-never-expires': async (x) => {
    const code = (await codeFromAuthorize(x, {}))!.searchParams.get('code')!;
    await advance(x.p, 61);
    return (await tokenCall(x.p, { grant_type: 'authorization_code', code })).status === 200;
  },
  'access-never-expires': async (x) => {
    const token = await tok(x);
    await advance(x.p, 3601);
    return (await api(x.p, { method: 'GET', path: '/transfers/none', token })).status === 404;
  },
  'no-www-authenticate': async (x) =>
    (await api(x.p, { method: 'GET', path: '/transfers/none' })).res.headers['www-authenticate'] === undefined,
  'scope-not-enforced': async (x) => {
    const t = (await ccToken(x.p, { ...x.p.clients.partner, scope: 'accounts' })).body.access_token as string;
    return (
      (await api(x.p, { method: 'GET', path: '/transfers/none', token: t, client: x.p.clients.partner })).status === 404
    );
  },
  'refresh-not-rotated': async (x) => {
    const t = await codeFlow(x.p);
    const r = (await tokenCall(x.p, { grant_type: 'refresh_token', refresh_token: t.refresh_token as string }))
      .json as Record<string, unknown>;
    return r.refresh_token === t.refresh_token;
  },
  'refresh-reuse-allowed': async (x) => {
    const t = await codeFlow(x.p);
    await tokenCall(x.p, { grant_type: 'refresh_token', refresh_token: t.refresh_token as string });
    return (
      (await tokenCall(x.p, { grant_type: 'refresh_token', refresh_token: t.refresh_token as string })).status === 200
    );
  },
  'refresh-idle-not-enforced': async (x) => {
    const t = await codeFlow(x.p);
    await advance(x.p, 181 * 86400);
    return (
      (await tokenCall(x.p, { grant_type: 'refresh_token', refresh_token: t.refresh_token as string })).status === 200
    );
  },
  'refresh-max-age-not-enforced': async (x) => {
    let rt = (await codeFlow(x.p)).refresh_token as string;
    for (let i = 0; i < 7; i++) {
      await advance(x.p, 170 * 86400);
      const r = await tokenCall(x.p, { grant_type: 'refresh_token', refresh_token: rt });
      if (r.status !== 200) return false;
      rt = (r.json as { refresh_token: string }).refresh_token;
    }
    // 1190 days after the first token
    return true;
  },
  'code-token-any-account': async (x) =>
    (
      await validate(x, {
        account_id: mask(x.p.customers[1]!.accountId),
        beneficiary_id: x.p.customers[1]!.beneficiaryId,
      })
    ).status === 200,
  'cc-binding-ignored': async (x) => {
    const t = (await ccToken(x.p)).body.access_token as string;
    const r = await api(x.p, {
      method: 'POST',
      path: '/transfers/validate',
      token: t,
      client: x.p.clients.partner,
      body: transferBody(x.p, 1),
    });
    return r.status === 200;
  },
  'token-wrong-secret-accepted': async (x) =>
    (
      await tokenCall(
        x.p,
        { grant_type: 'authorization_code', code: 'x' },
        { ...x.p.clients.code, clientSecret: 'wrong' },
      )
    ).status !== 401,
  'msgid-not-required': async (x) => {
    const c = x.p.clients.partner;
    const r = await call(`${x.p.target.baseUrl}/oauth/partner_auth/token`, {
      method: 'POST',
      headers: {
        'X-Gateway-Client-Id': c.clientId,
        'X-Gateway-Client-Secret': c.clientSecret,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(
        await seal(
          { grant_type: 'client_credentials', scope: 'transfers' },
          { signingKey: c.privateKey!, encryptionKey: x.p.bank!.apiPublicKey! },
        ),
      ),
      tls: tlsOf(x.p, c),
    });
    return r.status === 200;
  },
  'token-form-charset-refused': async (x) => {
    const c = x.p.clients.partner;
    const r = await call(`${x.p.target.baseUrl}/oauth/partner_auth/token`, {
      method: 'POST',
      headers: {
        Authorization: basic(c.clientId, c.clientSecret),
        'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
      },
      body: 'grant_type=client_credentials&scope=transfers',
    });
    return r.status !== 200;
  },
  'authorize-redirects-unregistered': async (x) =>
    (await codeFromAuthorize(x, { redirect_url: 'http://127.0.0.1:9/evil' }))?.pathname === '/evil',
  'authorize-response-type-optional': async (x) =>
    (await codeFromAuthorize(x, { response_type: 'token' }))?.searchParams.has('code') === true,
  'authorize-uuid-optional': async (x) =>
    (await codeFromAuthorize(x, { uuid: '', account_id: '' }))?.searchParams.has('code') === true,
  'state-not-returned': async (x) => !(await codeFromAuthorize(x, { state: 'abc' }))!.searchParams.has('state'),
};
