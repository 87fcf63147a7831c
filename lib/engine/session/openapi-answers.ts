/**
 * Every answer of a session to the transfers API judged against the bank's OpenAPI document (lib/openapi/judge.ts,
 * docs/openapi.md): the answers of ctx.api (a sealed answer's payload once opened) and of any other request a check
 * sends to the API's base path, a burst's replies included (their status and content type; their body when it is not
 * sealed), with its headers and what the request carried (its Authorization header, its client certificate).
 */
import { exchangeOf } from '../../http/record/exchanges.ts';
import type { HttpRequest, HttpResponse, RecordedExchange } from '../../http/types.ts';
import { classify } from '../../jose/index.ts';
import type { OpenResult } from '../../jose/types.ts';
import { ResponseJudge, type Finding } from '../../openapi/judge.ts';
import type { CoverageTable } from '../../openapi/coverage.ts';
import type { OpenApiModel } from '../../openapi/types.ts';
import type { FullProfile } from '../../profile/schema.ts';

export type OasFinding = Finding<RecordedExchange | undefined>;

/** what the checks of the openapi suite read (ctx.answers) and the report takes (ProfileRun.openapi) */
export interface AnswersView {
  findings(): OasFinding[];
  table(): CoverageTable;
}

export class SessionAnswers implements AnswersView {
  private readonly judge: ResponseJudge<RecordedExchange | undefined>;
  /** requests ctx.api sends: judged there, once opened, not again by the plain send */
  private readonly viaApi = new WeakSet<HttpRequest>();

  /** the API's base URL with its base path: only answers below it are matched */
  private readonly apiBase: string;

  constructor(model: OpenApiModel, profile: FullProfile) {
    // mutual TLS is the UAT's (specification §5): a sandbox run presents no certificate, its mutualTLS is not judged
    this.judge = new ResponseJudge(model, { mutualTLS: profile.environment === 'uat' });
    this.apiBase = profile.target.baseUrl.replace(/\/+$/, '') + profile.target.paths.transfersBasepath;
  }

  markApi(req: HttpRequest): HttpRequest {
    this.viaApi.add(req);
    return req;
  }

  /** an answer to ctx.api: `read` is the opened payload when the answer came sealed */
  api(req: HttpRequest, res: HttpResponse, read: { body: unknown; opened?: OpenResult }): void {
    this.judgeOne(req, res, read.opened ? (read.opened.ok ? 'opened' : 'unopened') : undefined, read.body);
  }

  /** an answer to any other request of a check (ctx.send, a burst's reply with its recorded `exchange`) */
  sent(req: HttpRequest, res: HttpResponse, exchange?: RecordedExchange): void {
    if (this.viaApi.has(req)) return;
    const kind = res.json !== undefined ? classify(res.json).kind : undefined;
    this.judgeOne(req, res, kind === 'jwe' || kind === 'jws' ? 'unopened' : undefined, res.json, exchange);
  }

  private judgeOne(
    req: HttpRequest,
    res: HttpResponse,
    sealed: 'opened' | 'unopened' | undefined,
    body: unknown,
    exchange?: RecordedExchange,
  ): void {
    if (!req.url.startsWith(this.apiBase)) return;
    const contentType = Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    const url = new URL(req.url);
    const sent = Object.keys(req.headers ?? {}).map((k) => k.toLowerCase());
    this.judge.judge({
      method: req.method,
      path: url.pathname,
      headers: res.headers,
      credentials: {
        authorization: sent.includes('authorization'),
        clientCertificate: req.identity?.certificate !== undefined,
        headers: sent,
        query: [...url.searchParams.keys()],
      },
      status: res.status,
      ...(contentType !== undefined ? { contentType } : {}),
      empty: res.text === '',
      body,
      ...(sealed ? { sealed } : {}),
      ...(sealed === 'opened' ? { envelope: res.json } : {}),
      evidence: exchange ?? exchangeOf(res),
    });
  }

  findings(): OasFinding[] {
    return this.judge.findings();
  }

  table(): CoverageTable {
    return this.judge.table();
  }
}
