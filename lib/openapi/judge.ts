/**
 * The response judge (docs/openapi.md): every answer of a run matched to the document's operation (method and path
 * template) and judged — its status documented (OAS-01: the status, its range `4XX`, or `default`), its content type
 * documented for that status (OAS-02), its body valid against that status's schema (OAS-03; a sealed answer's
 * payload once opened), its documented headers (OAS-06) and, for a 2xx answer, the operation's security (OAS-07;
 * judge-promises.ts). A finding is kept once per operation, status and schema path (a header's name, `security`),
 * with the first answer that showed it as evidence; the coverage counts what was seen (coverage.ts).
 */
import { Coverage, type CoverageTable } from './coverage.ts';
import type { DocMedia, DocOperation, DocResponse, JsonSchema, OpenApiModel } from './types.ts';
import { validatorsFor, type Validators } from './validators.ts';
import { headerProblems, securityProblem, type RequestCredentials } from './judge-promises.ts';

export type { RequestCredentials } from './judge-promises.ts';

export type OasRequirement = 'OAS-01' | 'OAS-02' | 'OAS-03' | 'OAS-06' | 'OAS-07';

/** one answer as the harness received it */
export interface Answer<E> {
  method: string;
  /** the URL's path (no query) */
  path: string;
  status: number;
  /** the Content-Type header, when there was one */
  contentType?: string;
  /** the body's text was empty */
  empty: boolean;
  /** the parsed JSON body (for a sealed answer that opened, the payload), undefined when not JSON */
  body: unknown;
  /** `opened`: body is the payload of a sealed answer; `unopened`: a sealed answer that did not open (not judged) */
  sealed?: 'opened' | 'unopened';
  /** the parsed envelope of a sealed answer (judged when the document describes the envelope) */
  envelope?: unknown;
  /** the answer's headers (OAS-06 judges the documented ones; absent: not judged) */
  headers?: Readonly<Record<string, string>>;
  /** what the request carried (OAS-07 judges a 2xx answer against the operation's security; absent: not judged) */
  credentials?: RequestCredentials;
  /** what the findings show (the recorded exchange) */
  evidence: E;
}

export interface Finding<E> {
  requirement: OasRequirement;
  /** `GET /v1/transfers/{transfer_id}` */
  operation: string;
  /** the status answered */
  status: number;
  /** the documented response it was judged by (`200`, `4XX`, `default`), '' when none */
  documented: string;
  /** where in the schema (OAS-03), else '' */
  schemaPath: string;
  message: string;
  evidence: E;
}

interface Route {
  op: DocOperation;
  pattern: RegExp;
  /** literal characters in the template: the most literal match wins (/transfers/validate before {id}) */
  weight: number;
}

const routeOf = (op: DocOperation): Route => {
  const parts = op.path.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return { op, pattern: new RegExp(`^${parts.join('[^/]+')}/?$`), weight: parts.join('').length };
};

/** a media type without parameters, lower case */
const mime = (ct: string | undefined): string => (ct ?? '').split(';')[0]!.trim().toLowerCase();

function mediaFor(media: readonly DocMedia[], contentType: string): DocMedia | undefined {
  const exact = media.find((m) => mime(m.contentType) === contentType);
  if (exact) return exact;
  const [type] = contentType.split('/');
  return media.find((m) => mime(m.contentType) === `${type}/*`) ?? media.find((m) => mime(m.contentType) === '*/*');
}

/** the documented response of a status: the status, its range, or default */
export function responseFor(op: DocOperation, status: number): DocResponse | undefined {
  const s = String(status);
  return (
    op.responses.find((r) => r.status === s) ??
    op.responses.find((r) => r.status === `${s[0]}XX`) ??
    op.responses.find((r) => r.status === 'DEFAULT')
  );
}

export class ResponseJudge<E> {
  private readonly routes: Route[];
  private readonly validators: Validators;
  private readonly found = new Map<string, Finding<E>>();
  readonly coverage: Coverage;
  /** answers to a path or method the document does not describe */
  unmatched = 0;

  constructor(
    readonly model: OpenApiModel,
    /** a `mutualTLS` scheme is judged (the run presents client certificates: UAT); else it is taken as met */
    private readonly opts: { mutualTLS?: boolean } = {},
  ) {
    this.routes = model.operations.map(routeOf).sort((a, b) => b.weight - a.weight);
    this.validators = validatorsFor(model.openapi);
    this.coverage = new Coverage(model);
  }

  /** the document's operation of a method and path, if any */
  operationOf(method: string, path: string): DocOperation | undefined {
    // the most literal template that matches is the path item (OpenAPI: concrete paths before templated ones);
    // a method it does not describe is not a documented operation, even when a templated path has that method
    const m = method.toUpperCase();
    const item = this.routes.find((r) => r.pattern.test(path));
    return item ? this.routes.find((r) => r.op.method === m && r.op.path === item.op.path)?.op : undefined;
  }

  judge(a: Answer<E>): void {
    const op = this.operationOf(a.method, a.path);
    if (!op) {
      this.unmatched++;
      return;
    }
    const name = `${op.method} ${op.path}`;
    const finding = (requirement: OasRequirement, documented: string, schemaPath: string, message: string): void => {
      const key = `${requirement} ${name} ${a.status} ${schemaPath}`;
      if (!this.found.has(key))
        this.found.set(key, {
          requirement,
          operation: name,
          status: a.status,
          documented,
          schemaPath,
          message,
          evidence: a.evidence,
        });
    };
    if (a.credentials) {
      const p = securityProblem(op, a.status, a.credentials, this.opts.mutualTLS === true);
      if (p) finding('OAS-07', '', p.schemaPath, `${name} ${p.message}`);
    }
    const r = responseFor(op, a.status);
    if (!r) {
      finding('OAS-01', '', '', `${name} answered ${a.status}, a status the document does not list for it`);
      this.coverage.seen(op, String(a.status), false);
      return;
    }
    const problems = this.judgeBody(r, a, (...f) => finding(f[0], r.status, f[1], f[2]));
    const headers = a.headers ? headerProblems(r, a.headers, this.validators) : [];
    for (const h of headers) finding('OAS-06', r.status, h.schemaPath, h.message);
    this.coverage.seen(op, r.status, problems + headers.length === 0);
  }

  /** OAS-02 and OAS-03 of an answer whose status is documented; resolves with the number of problems */
  private judgeBody(
    r: DocResponse,
    a: Answer<E>,
    finding: (req: OasRequirement, schemaPath: string, m: string) => void,
  ): number {
    if (r.media.length === 0) {
      if (a.empty) return 0;
      finding(
        'OAS-02',
        '',
        `${r.status}: the document gives no body, the answer has one (${a.contentType ?? 'no Content-Type'})`,
      );
      return 1;
    }
    const ct = mime(a.contentType);
    const media = ct ? mediaFor(r.media, ct) : undefined;
    if (!media) {
      const listed = r.media.map((m) => m.contentType).join(', ');
      finding(
        'OAS-02',
        '',
        `${r.status}: Content-Type ${a.contentType ?? '(none)'} is not one the document lists (${listed})`,
      );
      return 1;
    }
    if (a.sealed === 'unopened') return 0;
    const target = this.schemaFor(media, a);
    if (!target) return 0;
    if (target.value === undefined) {
      finding('OAS-03', '', `${r.status}: the body is not JSON, the document gives a schema for ${media.contentType}`);
      return 1;
    }
    const errors = this.validators.check(target.schema, target.value);
    for (const e of errors)
      finding('OAS-03', e.schemaPath, `${r.status}: ${e.message} (${media.pointer}${e.schemaPath.slice(1)})`);
    return errors.length;
  }

  /** the schema an answer's body is judged by, and the value: a sealed answer's payload, or the envelope as described */
  private schemaFor(media: DocMedia, a: Answer<E>): { schema: JsonSchema; value: unknown } | undefined {
    if (a.sealed === 'opened') {
      const payload = media.sealed?.payloadSchema ?? (envelopeDescribed(media) ? undefined : media.schema);
      if (payload !== undefined) return { schema: payload, value: a.body };
      return media.schema !== undefined ? { schema: media.schema, value: a.envelope } : undefined;
    }
    return media.schema !== undefined ? { schema: media.schema, value: a.body } : undefined;
  }

  /** the findings so far, in the order they were first seen */
  findings(): Finding<E>[] {
    return [...this.found.values()];
  }

  table(): CoverageTable {
    return this.coverage.table(this.unmatched);
  }
}

/** the document describes the envelope itself (no x-sealed, an envelope's members): the payload is not checked */
function envelopeDescribed(media: DocMedia): boolean {
  const s = media.schema;
  const props =
    typeof s === 'object' && typeof s.properties === 'object' && s.properties !== null ? Object.keys(s.properties) : [];
  return (
    !media.sealed && (props.includes('ciphertext') || (props.includes('protected') && props.includes('recipients')))
  );
}
