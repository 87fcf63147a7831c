/**
 * HAR 1.2 for a reviewer's proxy or browser tools: the exchanges as the reports hold them (harOf, writeHar:
 * `npm run send -- --har`): one entry per recorded exchange, redacted when recorded and scrubbed again like every
 * report (lib/report/scrub.ts); bodies are the recorded ones (a sealed body is its summary line, a long one truncated).
 * A run's HAR from the wire (certify `--har`) is written by lib/report/har-wire.ts with these entries' shapes.
 */
import { writeFileSync } from 'node:fs';
import type { RecordedExchange, RecordedMessage } from '../http/types.ts';
import type { RunResults } from '../engine/results.ts';
import { failureLine } from '../engine/failure.ts';
import { scrubValue } from './scrub.ts';

/** one exchange to write, and who sent it (a check id, a prerequisite) */
export interface HarItem {
  exchange: RecordedExchange;
  /** e.g. "jose.alg-none" or "prerequisite reach-api"; said first in the entry's comment */
  sentBy?: string;
  /** the failure records of the check that name this exchange (CheckResult.failures, `exchange`), one line each */
  failures?: string[];
}

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[]; comment?: string };
}

export const headersOf = (h: Record<string, string>): HarNameValue[] =>
  Object.entries(h).map(([name, value]) => ({ name, value: String(value) }));

const mimeOf = (m: RecordedMessage): string => {
  const k = Object.keys(m.headers).find((n) => n.toLowerCase() === 'content-type');
  return k ? m.headers[k]! : m.body !== undefined ? 'text/plain' : '';
};

/**
 * the lines of an entry's comment: who sent it, its label, the failures found in it, the sealed payloads opened, a
 * transport error
 */
function commentOf(item: HarItem): string | undefined {
  const x = item.exchange;
  const lines: string[] = [];
  if (item.sentBy) lines.push(`sent by ${item.sentBy}`);
  if (x.label) lines.push(x.label);
  for (const f of item.failures ?? []) lines.push(`failed: ${f}`);
  if (x.sealedPlaintext !== undefined) lines.push(`sealed request's payload: ${x.sealedPlaintext}`);
  if (x.jose) {
    lines.push(`${x.jose.direction} ${x.jose.form} JOSE headers: ${JSON.stringify(x.jose.headers)}`);
    if (x.jose.innerHeader) lines.push(`inner JWS header: ${JSON.stringify(x.jose.innerHeader)}`);
    if (x.jose.opened !== undefined)
      lines.push(
        `${x.jose.direction === 'response' ? 'answer' : 'request'} opened: ${typeof x.jose.opened === 'string' ? x.jose.opened : JSON.stringify(x.jose.opened)}`,
      );
    if (x.jose.verifiedWith) lines.push(`signature verified with ${x.jose.verifiedWith}`);
  }
  if (x.error) lines.push(`no answer: ${x.error}`);
  return lines.length ? lines.join('\n') : undefined;
}

export function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** one HAR entry of a recorded exchange (no answer: status 0, the error in the comment) */
export function harEntry(item: HarItem): HarEntry {
  const x = item.exchange;
  const req = x.request;
  const res = x.response;
  const comment = commentOf(item);
  return {
    startedDateTime: new Date(x.startedAt).toISOString(),
    time: Math.max(0, x.durationMs),
    request: {
      method: x.method,
      url: x.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(req.headers),
      queryString: queryOf(x.url),
      ...(req.body !== undefined ? { postData: { mimeType: mimeOf(req), text: req.body } } : {}),
      headersSize: -1,
      bodySize: req.body !== undefined ? Buffer.byteLength(req.body) : 0,
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: res ? 'HTTP/1.1' : '',
      cookies: [],
      headers: headersOf(res?.headers ?? {}),
      content: {
        size: res?.body !== undefined ? Buffer.byteLength(res.body) : 0,
        mimeType: res ? mimeOf(res) : '',
        ...(res?.body !== undefined ? { text: res.body } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: res?.body !== undefined ? Buffer.byteLength(res.body) : -1,
    },
    cache: {},
    timings: { send: 0, wait: Math.max(0, x.durationMs), receive: 0 },
    ...(comment ? { comment } : {}),
  };
}

/** a HAR 1.2 log of `items` (scrubbed like the reports), in the order they started; `version`: the harness's */
export function harOf(items: readonly HarItem[], comment?: string, version = '0'): Har {
  const clean = scrubValue(items.map((i) => ({ ...i })));
  const entries = clean.map(harEntry).sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return {
    log: {
      version: '1.2',
      creator: { name: 'openbank-conformance', version },
      entries,
      ...(comment ? { comment } : {}),
    },
  };
}

/** every exchange a run's results hold: each profile's prerequisites', then its checks' (with their ids) */
export function harItemsOf(results: RunResults): HarItem[] {
  const items: HarItem[] = [];
  for (const run of results.profiles) {
    for (const p of run.prerequisites ?? [])
      for (const exchange of p.evidence.exchanges)
        items.push({ exchange, sentBy: `${run.profile}: prerequisite ${p.id}` });
    for (const r of run.results)
      r.evidence.exchanges.forEach((exchange, i) => {
        // "failed: <check>: [kind] title: message" (the entry is the exchange: its index is not repeated)
        const failures = (r.failures ?? [])
          .filter((f) => f.exchange === i)
          .map((f) => `${r.checkId}: ${failureLine({ ...f, exchange: undefined })}`);
        items.push({ exchange, sentBy: `${run.profile}: ${r.checkId}`, ...(failures.length ? { failures } : {}) });
      });
  }
  return items;
}

/** writes `items` (or a run's results) to `file` as HAR 1.2; throws the file system's error */
export function writeHar(file: string, items: readonly HarItem[] | RunResults, comment?: string): Har {
  const har = Array.isArray(items)
    ? harOf(items, comment)
    : harOf(harItemsOf(items as RunResults), comment, (items as RunResults).harness.version);
  writeFileSync(file, `${JSON.stringify(har, null, 2)}\n`, 'utf8');
  return har;
}
