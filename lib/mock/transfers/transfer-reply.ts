/** One answer of the transfers API: sealed to the calling client in UAT once it is established, plain before. */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { MockContext } from '../context.ts';
import type { RegisteredClient } from '../data.ts';
import { apiErrorBody, type ApiError } from '../errors.ts';
import { sendJson } from '../server/http.ts';
import { sealResponse } from '../jose/seal.ts';
import type { TransferFaults } from './transfer-faults.ts';

export class Reply {
  /** the client responses are sealed to (UAT), once established */
  client: RegisteredClient | undefined;
  constructor(
    private readonly ctx: MockContext,
    private readonly res: ServerResponse,
    private readonly ff: TransferFaults,
  ) {}

  /** the status answered, once it was */
  status: number | undefined;

  async json(
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
    close = false,
    /** another media type than application/json (get-text-plain) */
    contentType?: string,
  ): Promise<void> {
    this.status = status;
    const out = this.ctx.mode === 'uat' && this.client ? await sealResponse(this.ctx, body, this.client) : body;
    const extra: Record<string, string> = {};
    if (this.ff.serverSoftwareHeaders) Object.assign(extra, { Server: 'nginx/1.25.3', 'X-Powered-By': 'Express' });
    // lenient: a gateway in front (RFC 9110 §7.6.3: a protocol and a pseudonym, no software)
    if (this.ctx.lenient) extra.Via = '1.1 gateway';
    // the request's id, as the mock's document promises on its answers (docs/openapi/transfers.yaml)
    if (!this.ff.noRequestId) extra['X-Request-Id'] = randomUUID();
    const opts = { headers: { 'Cache-Control': 'no-store', ...extra, ...headers }, close };
    sendJson(this.res, status, out, contentType ? { ...opts, contentType } : opts);
  }

  /**
   * an answer without the API's error body, never sealed: a bare status (quota-refusal-bare, quota-early-long-wait),
   * or a page of the server's own (malformed-json-503-traceback)
   */
  bare(status: number, headers: Record<string, string> = {}, page?: { type: string; text: string }): void {
    this.status = status;
    const length = String(page ? Buffer.byteLength(page.text) : 0);
    const type: Record<string, string> = page ? { 'Content-Type': page.type } : {};
    this.res.writeHead(status, { ...headers, ...type, 'Content-Length': length });
    this.res.end(page?.text);
  }

  async error(e: ApiError, close = false): Promise<void> {
    const headers = { ...(e.headers ?? {}) };
    if (e.status === 401 && this.ff.noWwwAuthenticate) delete headers['WWW-Authenticate'];
    await this.json(e.status, apiErrorBody(e, this.ctx.faults), headers, close);
  }
}

/** a sink for work done while the real answer is something else (quota-refusal-side-effect) */
export function discard(): ServerResponse {
  return { headersSent: true } as unknown as ServerResponse;
}
