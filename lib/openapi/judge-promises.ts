/**
 * The document's promises beyond status, media type and body (docs/openapi.md, the response judge): the documented
 * response headers (OAS-06: a required one present, each value valid against its schema) and the operation's
 * `security` (OAS-07: an answer 2xx to a request that satisfied none of the documented alternatives, as
 * Schemathesis's `ignored_auth`). Pure: judge.ts calls them on each answer it matched.
 */
import type { DocOperation, DocResponse, DocScheme, JsonSchema } from './types.ts';
import type { Validators } from './validators.ts';

/** what the request carried, as far as the document's security schemes can be told from it */
export interface RequestCredentials {
  /** an Authorization header was sent */
  authorization: boolean;
  /** a client certificate was presented (mutual TLS) */
  clientCertificate: boolean;
  /** the request's header names, lower case */
  headers: readonly string[];
  /** the request's query parameter names */
  query: readonly string[];
}

export interface Problem {
  schemaPath: string;
  message: string;
}

/** a header's text as the schema's type reads it (OpenAPI's `simple` style for a scalar) */
function headerValue(schema: JsonSchema | undefined, text: string): unknown {
  const t = typeof schema === 'object' ? schema.type : undefined;
  const types = Array.isArray(t) ? t : [t];
  if (types.includes('string') || t === undefined) return text;
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text.trim()))
    return Number(text.trim());
  if (types.includes('boolean') && /^(true|false)$/.test(text.trim())) return text.trim() === 'true';
  return text;
}

/** OAS-06: each documented header of the answer's response: present when required, valid when present */
export function headerProblems(r: DocResponse, headers: Readonly<Record<string, string>>, v: Validators): Problem[] {
  const got = new Map(Object.entries(headers).map(([k, x]) => [k.toLowerCase(), x]));
  const out: Problem[] = [];
  for (const h of r.headers ?? []) {
    const text = got.get(h.name.toLowerCase());
    const schemaPath = `header ${h.name}`;
    if (text === undefined) {
      if (h.required)
        out.push({
          schemaPath,
          message: `${r.status}: the header ${h.name} the document requires is missing (${h.pointer})`,
        });
      continue;
    }
    if (h.schema === undefined) continue;
    const errors = v.check(h.schema, headerValue(h.schema, text));
    if (errors.length > 0)
      out.push({
        schemaPath,
        message: `${r.status}: the header ${h.name} ${JSON.stringify(text)} is not valid against its schema: ${errors.map((e) => e.message.replace('(the body) ', '')).join('; ')} (${h.pointer}/schema)`,
      });
  }
  return out;
}

/** what a scheme needs, in words, and whether the request carried it (`mutualTLS`: judged where the run uses it) */
function scheme(s: DocScheme, c: RequestCredentials, mutualTLS: boolean): { what: string; met: boolean } {
  switch (s.type) {
    case 'oauth2':
    case 'openIdConnect':
    case 'http':
      return { what: `${s.name} (an Authorization header)`, met: c.authorization };
    case 'apiKey': {
      const param = (s.param ?? '').toLowerCase();
      const met =
        s.in === 'query'
          ? c.query.includes(s.param ?? '')
          : s.in === 'cookie'
            ? c.headers.includes('cookie')
            : c.headers.includes(param);
      return { what: `${s.name} (${s.in ?? 'header'} ${s.param ?? ''})`, met };
    }
    case 'mutualTLS':
      return { what: `${s.name} (a client certificate)`, met: c.clientCertificate || !mutualTLS };
    default:
      // a scheme the harness cannot tell from the request is never held against the bank
      return { what: s.name, met: true };
  }
}

/** OAS-07: a 2xx answer to a request that satisfied none of the operation's documented security alternatives */
export function securityProblem(
  op: DocOperation,
  status: number,
  c: RequestCredentials,
  mutualTLS: boolean,
): Problem | undefined {
  const sec = op.security;
  if (!sec || status < 200 || status > 299) return undefined;
  const judged = sec.alternatives.map((alt) => alt.map((s) => scheme(s, c, mutualTLS)));
  if (judged.some((alt) => alt.every((s) => s.met))) return undefined;
  const wanted = judged.map((alt) => alt.map((s) => s.what).join(' and ')).join('; or ');
  const missing = [...new Set(judged.flatMap((alt) => alt.filter((s) => !s.met).map((s) => s.what)))].join(', ');
  return {
    schemaPath: 'security',
    message: `answered ${status} to a request without ${missing}; the document requires ${wanted} (${sec.pointer})`,
  };
}
