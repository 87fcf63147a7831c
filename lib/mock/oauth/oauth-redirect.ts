/** The answers of /authorize and its consent form: an error page (never a redirect) or a redirect to the client. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import { escapeHtml, header, sendJson, sendRaw } from '../server/http.ts';
import { NO_STORE } from './oauth-common.ts';

/** an error page: never a redirect (invalid client or redirect URI) */
export function errorPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
): void {
  if ((header(req, 'accept') ?? '').includes('text/html')) {
    sendRaw(
      res,
      status,
      `<!doctype html><title>Authorization error</title><h1>${escapeHtml(error)}</h1><p>${escapeHtml(description)}</p>`,
      'text/html; charset=utf-8',
      { headers: NO_STORE },
    );
  } else {
    sendJson(res, status, { error, error_description: description }, { headers: NO_STORE });
  }
}

export function redirect(
  ctx: MockContext,
  res: ServerResponse,
  uri: string,
  params: Record<string, string>,
  state: string | undefined,
): void {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) u.searchParams.append(k, v);
  if (state !== undefined && !ctx.faults.on('state-not-returned')) u.searchParams.append('state', state);
  res.writeHead(302, { Location: u.toString(), ...NO_STORE, 'Content-Length': 0 });
  res.end();
}
