/** Manual consent (auto-consent off): the consent page, and POST /oauth/v1/authorize/consent. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import type { MockCustomer, RegisteredClient } from '../data.ts';
import { escapeHtml, readBody, sendRaw } from '../server/http.ts';
import { issueBoundCode, type CodeBinding } from './oauth-code-binding.ts';
import { certificateNotBound, NO_STORE, perMock, sendOAuthError, type OkGate } from './oauth-common.ts';
import { errorPage, redirect } from './oauth-redirect.ts';

interface PendingConsent {
  client: RegisteredClient;
  customer: MockCustomer;
  scope: string;
  redirectUri: string;
  state: string | undefined;
  expiresAt: number;
  grant: CodeBinding;
}

const pending = perMock<PendingConsent>();

/** manual consent: the request is kept under a consent id and the customer sees a page to approve or deny */
export function consentPage(
  ctx: MockContext,
  res: ServerResponse,
  p: {
    client: RegisteredClient;
    customer: MockCustomer;
    scope: string;
    redirectUri: string;
    state: string | undefined;
    grant: CodeBinding;
  },
): void {
  const id = randomBytes(18).toString('base64url');
  pending(ctx).set(id, { ...p, expiresAt: ctx.clock.now() + 600_000 });
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Consent</title></head><body>
<h1>Authorize ${escapeHtml(p.client.id)}</h1>
<p>Customer: <strong id="customer">${escapeHtml(p.customer.name)}</strong></p>
<p>Client: <strong id="client">${escapeHtml(p.client.id)}</strong></p>
<p>Scope: <strong id="scope">${escapeHtml(p.scope)}</strong></p>
<form method="post" action="/oauth/v1/authorize/consent">
<input type="hidden" name="consent_id" value="${id}">
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form></body></html>`;
  sendRaw(res, 200, page, 'text/html; charset=utf-8', { headers: NO_STORE });
}

export async function handleConsent(
  ctx: MockContext,
  req: IncomingMessage,
  res: ServerResponse,
  gate: OkGate,
): Promise<void> {
  const read = await readBody(req, 16 * 1024);
  if (!read.ok) return errorPage(req, res, 400, 'invalid_request', 'the form is too large');
  const form = new URLSearchParams(read.body.toString('utf8'));
  const id = form.get('consent_id') ?? '';
  const p = pending(ctx).get(id);
  if (!p || ctx.clock.now() > p.expiresAt)
    return errorPage(req, res, 400, 'invalid_request', 'the consent request is unknown or expired');
  const wrongCert = certificateNotBound(ctx, gate, p.client.id);
  if (wrongCert) return sendOAuthError(res, wrongCert);
  pending(ctx).delete(id);
  if (form.get('decision') !== 'approve')
    return redirect(
      ctx,
      res,
      p.redirectUri,
      { error: 'access_denied', error_description: 'the customer denied the request' },
      p.state,
    );
  return redirect(ctx, res, p.redirectUri, { code: issueBoundCode(ctx, p) }, p.state);
}
