/**
 * What `npm run send` prints: the token flow's exchanges in a line each, the request (method, URL, headers as the
 * recorder redacted them, the body; sealed: the envelope, its headers and the payload inside), the answer (status,
 * headers, body; sealed: opened, with the verification's outcome). Every line goes through the session's redactor
 * before it is written (lib/http/record/redact.ts): no secret, token or clear identifier reaches the terminal.
 */
import type { ApiResponse } from '../engine/session/context.ts';
import { keyFingerprint } from '../http/record/jose-summary.ts';
import type { RecordedExchange } from '../http/types.ts';
import { inspect } from '../jose/index.ts';
import { innerHeadersOf } from '../jose/sent.ts';

export interface SentBody {
  /** what went on the wire: the envelope (sealed) or the plain document (sandbox) */
  wire: string | object;
  sealed: boolean;
  /** the document inside the envelope, when send knows it (it sealed or forged it) */
  payload?: unknown;
  /** a word on the body: "the harness's valid transfer body", "variant E1: JWE enc A128GCM" */
  what: string;
  /** how send read the payload of an envelope it did not seal ("opened as the bank, ..."); undefined: not read */
  inside?: string;
  /** the inner JWS's headers, when send knows them (it opened the envelope as the bank) */
  innerHeaders?: Record<string, unknown>[];
  /** a forged variant: statuses that also count as its refusal */
  alsoRefused?: readonly number[];
}

const pretty = (v: unknown): string => {
  if (typeof v !== 'string') return JSON.stringify(v, null, 2);
  try {
    return JSON.stringify(JSON.parse(v), null, 2);
  } catch {
    return v;
  }
};

const indent = (text: string, by = '    '): string =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n');

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`);
}

/** the token flow's exchanges (everything before the call), one line each */
export function tokenLines(exchanges: readonly RecordedExchange[]): string[] {
  return exchanges.map(
    (e) => `  ${e.method} ${e.url} -> ${e.response ? `HTTP ${e.response.status}` : `no answer (${e.error ?? '?'})`}`,
  );
}

function envelopeLines(body: SentBody): string[] {
  const lines = [`  body (${body.what}):`, indent(pretty(body.wire))];
  if (!body.sealed) return lines;
  const seen = inspect(typeof body.wire === 'string' ? body.wire : JSON.stringify(body.wire));
  lines.push(`  envelope: JWE ${seen.jweForm}${seen.jwsForm ? `, JWS ${seen.jwsForm}` : ''}; headers:`);
  for (const h of seen.headers) lines.push(`    ${JSON.stringify(h)}`);
  // the inner JWS's: remembered by the sealer that built it (lib/jose/sent.ts), or read by opening it as the bank
  const inner = body.innerHeaders ?? innerHeadersOf(body.wire);
  if (seen.jwsForm) lines.push('  JWS headers (inside): the envelope is a JWS, its headers above');
  else if (inner) lines.push(`  JWS headers (inside): ${inner.map((h) => JSON.stringify(h)).join(' ')}`);
  else
    lines.push(
      `  JWS headers (inside): not known: ${body.inside ?? 'sealed to the bank, and the profile has no bank.apiPrivateKey to open it'}`,
    );
  const how = body.inside ? ` (${body.inside})` : '';
  lines.push(
    body.payload !== undefined
      ? `  payload inside${how}:\n${indent(pretty(body.payload))}`
      : body.inside
        ? `  payload inside: ${body.inside}`
        : '  payload inside: sealed to the bank, and the profile has no bank.apiPrivateKey to open it',
  );
  return lines;
}

export function requestLines(ex: RecordedExchange | undefined, body: SentBody | undefined): string[] {
  if (!ex) return ['request: (not recorded)'];
  return [
    `request ${ex.method} ${ex.url}`,
    ...headerLines(ex.request.headers),
    ...(body ? envelopeLines(body) : ['  (no body)']),
  ];
}

export function answerLines(res: ApiResponse, ex: RecordedExchange | undefined, bankKey: string): string[] {
  const lines = [`answer HTTP ${res.status}`, ...headerLines(ex?.response?.headers ?? res.headers)];
  lines.push(res.raw.text === '' ? '  (no body)' : `  body:\n${indent(pretty(res.raw.text))}`);
  const o = res.opened;
  if (!o) return lines;
  if (o.ok) {
    lines.push(
      `  opened: JWE ${o.jweForm} decrypted with the client's key; JWS ${o.jwsForm} ${String(o.jwsHeader.alg)} verified with the bank's API key (${keyFingerprint(bankKey)})`,
      `  JWE headers: ${JSON.stringify(o.jweHeader)}`,
      `  JWS headers: ${JSON.stringify(o.jwsHeader)}`,
      ...(o.ignoredHeaderKeys.length
        ? [`  header keys ignored (never trusted): ${o.ignoredHeaderKeys.join(', ')}`]
        : []),
      `  payload:\n${indent(pretty(o.payload))}`,
    );
  } else {
    lines.push(`  opened: FAILED at ${o.step}: ${o.code}: ${o.reason}`);
    lines.push(`  JWE headers: ${o.jweHeader ? JSON.stringify(o.jweHeader) : `not read (failed at ${o.step})`}`);
    lines.push(`  JWS headers: ${o.jwsHeader ? JSON.stringify(o.jwsHeader) : `not read (failed at ${o.step})`}`);
  }
  return lines;
}
