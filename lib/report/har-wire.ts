/**
 * A run's HAR (certify `--har <file>`, writeWireHar): every exchange of the run as it crossed the wire
 * (lib/http/record/tap.ts), one entry per request a proxy on the way sees (each attempt, each request of a burst,
 * token and clock calls), bodies as sent and received (sealed envelopes in full: an entry can be replayed, or opened
 * with `jose open`), sizes the bytes on the wire. Redacted at the end with the redactor of the session that sent
 * each one (every token learnt by then), as the reports are; `keepTokens` leaves access and refresh tokens and codes
 * in (never a client secret, a private key or a clear identifier), for a replay in a test environment, and the file
 * says so. Each entry's comment: the check that sent it (when its evidence keeps it), the failures that check
 * found in it (its failure records naming the exchange), the sealed payload, both
 * layers' JOSE headers, the opened answer. Entries are written one by one (a full run has some 1,500), in the order
 * they started. The entries' shapes and the exchanges the reports hold: lib/report/har.ts.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { open as openEnvelope } from '../jose/index.ts';
import { TOKEN_KINDS } from '../http/record/redact.ts';
import { summariseJose } from '../http/record/jose-summary.ts';
import type { TappedExchange } from '../http/record/tap.ts';
import type { RecordedExchange } from '../http/types.ts';
import type { RunResults } from '../engine/results.ts';
import { harItemsOf, headersOf, queryOf, type HarEntry, type HarItem } from './har.ts';
import { scrubValue } from './scrub.ts';

export interface WireHarOptions {
  /** leave access/refresh tokens and codes in (a test environment's replay); said in the file's comment */
  keepTokens?: boolean;
  /** the harness's version, for the creator */
  version?: string;
  /** opens a sealed answer that the run did not (envelopeOpener) */
  open?: Opener;
}

/** a sealed answer the run did not open */
const unopened = (x: TappedExchange): boolean =>
  x.response !== undefined &&
  x.recorded.jose?.opened === undefined &&
  x.response.body !== '' &&
  summariseJose(x.response.body)?.kind === 'JWE';

/** a sealed answer the run did not open (a burst's, a raw call's), opened for the HAR with the run's client keys */
export interface Opened {
  payload: unknown;
  jwsHeader?: Record<string, unknown>;
}
export type Opener = (envelope: string) => Promise<Opened | undefined>;

/**
 * opens an answer with each decryption key in turn (the client that called is not recorded), verifying with the
 * bank's key of the same set; undefined when none opens it
 */
export function envelopeOpener(sets: readonly { decryptionKeys: string[]; verificationKey: string }[]): Opener {
  return async (text) => {
    let value: unknown = text.trim();
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      // a compact envelope: the text itself
    }
    for (const set of sets)
      for (const decryptionKey of set.decryptionKeys) {
        const r = await openEnvelope(value, {
          decryptionKey,
          verificationKey: set.verificationKey,
          allowFlattened: true,
          policy: 'response',
        });
        if (r.ok) return { payload: r.payload, jwsHeader: r.jwsHeader };
      }
    return undefined;
  };
}

/** said in the log's comment of a HAR that keeps tokens */
export const KEPT_TOKENS_COMMENT =
  'tokens kept (--har-keep-tokens): access and refresh tokens and authorization codes are in clear, for a replay in a test environment; client secrets, private keys and clear identifiers are redacted. Do not share this file.';

const contentType = (h: Record<string, string>, hasBody: boolean): string => {
  const k = Object.keys(h).find((n) => n.toLowerCase() === 'content-type');
  return k ? h[k]! : hasBody ? 'text/plain' : '';
};

/**
 * the comment of a wire entry: who sent it, its label, the failures found in it, both layers of a sealed request
 * and answer, an error
 */
function wireCommentOf(x: TappedExchange, sentBy: string | undefined, opened?: Opened, failures?: string[]): string {
  const rec = x.recorded;
  const lines: string[] = [sentBy ? `sent by ${sentBy}` : "sent by the run (no check's evidence keeps it)"];
  if (rec.label) lines.push(rec.label);
  for (const f of failures ?? []) lines.push(`failed: ${f}`);
  const reqJose = x.request.body !== undefined ? summariseJose(x.request.body) : undefined;
  if (reqJose) {
    lines.push(`request ${reqJose.kind} ${reqJose.form} headers: ${JSON.stringify(reqJose.headers)}`);
    if (x.request.inner) lines.push(`request's inner JWS header: ${JSON.stringify(x.request.inner)}`);
  }
  // the payload the harness sealed: as the evidence recorded it, else the one it remembers having sealed
  const payload = rec.sealedPlaintext ?? (reqJose ? x.request.payload : undefined);
  if (payload !== undefined) lines.push(`sealed request's payload: ${payload}`);
  const resJose = x.response ? summariseJose(x.response.body) : undefined;
  if (resJose) lines.push(`answer ${resJose.kind} ${resJose.form} headers: ${JSON.stringify(resJose.headers)}`);
  const j = rec.jose;
  if (j?.direction === 'response') {
    if (j.innerHeader) lines.push(`answer's inner JWS header: ${JSON.stringify(j.innerHeader)}`);
    if (j.opened !== undefined)
      lines.push(`answer opened: ${typeof j.opened === 'string' ? j.opened : JSON.stringify(j.opened)}`);
    if (j.verifiedWith) lines.push(`signature verified with ${j.verifiedWith}`);
  }
  if (resJose && j?.opened === undefined && opened) {
    if (opened.jwsHeader) lines.push(`answer's inner JWS header: ${JSON.stringify(opened.jwsHeader)}`);
    lines.push(`answer opened (for this file, with the client's key): ${JSON.stringify(opened.payload)}`);
  }
  if (rec.error) lines.push(`no answer: ${rec.error}`);
  return lines.join('\n');
}

/** one HAR entry of a tapped exchange, redacted by its session's redactor (keeping tokens when asked) */
export function wireEntry(
  x: TappedExchange,
  sentBy: string | undefined,
  keepTokens = false,
  opened?: Opened,
  /** the failure records that name this exchange (HarItem.failures) */
  failures?: string[],
): HarEntry {
  const r = keepTokens && x.redactor.keeping ? x.redactor.keeping(TOKEN_KINDS) : x.redactor;
  const rec = x.recorded;
  const url = r.redact(x.request.url);
  const res = x.response;
  const entry: HarEntry = {
    startedDateTime: new Date(rec.startedAt).toISOString(),
    time: Math.max(0, rec.durationMs),
    request: {
      method: rec.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(r.redactHeaders(x.request.headers)),
      queryString: queryOf(url),
      ...(x.request.body !== undefined
        ? {
            postData: {
              mimeType: contentType(x.request.headers, true),
              text: r.redact(x.request.body),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: x.request.bytes,
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: res ? 'HTTP/1.1' : '',
      cookies: [],
      headers: headersOf(res ? r.redactHeaders(res.headers) : {}),
      content: {
        size: res?.bytes ?? 0,
        mimeType: res ? contentType(res.headers, res.body !== '') : '',
        ...(res ? { text: r.redact(res.body) } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: res ? res.bytes : -1,
    },
    cache: {},
    timings: { send: 0, wait: Math.max(0, rec.durationMs), receive: 0 },
    comment: r.redact(wireCommentOf(x, sentBy, opened, failures)),
  };
  // defence in depth, as every report: credential headers and private keys (tokens are kept only when asked)
  return keepTokens ? entry : scrubValue(entry);
}

/**
 * which check (or prerequisite) each recorded exchange is the evidence of (the last whose evidence keeps it), and
 * the failures found in it by every check that keeps it (the openapi suite adopts the exchanges of its findings)
 */
function itemOf(results: RunResults | undefined): (x: RecordedExchange) => HarItem | undefined {
  const byObject = new Map<RecordedExchange, HarItem>();
  for (const item of results ? harItemsOf(results) : []) {
    if (!item.sentBy) continue;
    const seen = byObject.get(item.exchange);
    const failures = [...(seen?.failures ?? []), ...(item.failures ?? [])];
    byObject.set(item.exchange, { ...item, ...(failures.length ? { failures } : {}) });
  }
  return (x) => byObject.get(x);
}

/**
 * writes `tapped` to `file` as HAR 1.2, entry by entry; the check of each from the run's results (when given).
 * Returns the number of entries; throws the file system's error.
 */
export async function writeWireHar(
  file: string,
  tapped: readonly TappedExchange[],
  results: RunResults | undefined,
  o: WireHarOptions = {},
): Promise<number> {
  const itemFor = itemOf(results);
  const order = [...tapped].sort((a, b) => a.recorded.startedAt.localeCompare(b.recorded.startedAt));
  const head = {
    version: '1.2',
    creator: {
      name: 'openbank-conformance',
      version: o.version ?? results?.harness.version ?? '0',
      ...(o.keepTokens ? { comment: KEPT_TOKENS_COMMENT } : {}),
    },
    ...(o.keepTokens ? { comment: KEPT_TOKENS_COMMENT } : {}),
  };
  const fd = openSync(file, 'w', 0o600);
  try {
    const open = JSON.stringify({ log: head });
    // {"log":{...head} -> {"log":{...head,"entries":[ ... ]}}
    writeSync(fd, `${open.slice(0, -2)},"entries":[\n`);
    for (const [i, x] of order.entries()) {
      const opened = o.open && unopened(x) ? await o.open(x.response!.body) : undefined;
      const item = itemFor(x.recorded);
      const entry = wireEntry(x, item?.sentBy, o.keepTokens, opened, item?.failures);
      writeSync(fd, `${i ? ',\n' : ''}${JSON.stringify(entry)}`);
    }
    writeSync(fd, '\n]}}\n');
  } finally {
    closeSync(fd);
  }
  return order.length;
}
