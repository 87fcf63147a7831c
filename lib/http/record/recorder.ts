/** The recorder (a list of redacted exchanges) and how a body is turned into recorded text. */
import { summariseJose, type JoseSummary } from './jose-summary.ts';
import type { RecordedExchange, Recorder, Redactor } from '../types.ts';

export function createRecorder(): Recorder {
  const list: RecordedExchange[] = [];
  return {
    record(exchange: RecordedExchange): void {
      list.push(exchange);
    },
    get exchanges(): readonly RecordedExchange[] {
      return list;
    },
  };
}

function size(n: number): string {
  return n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} kB`;
}

/**
 * A sealed body becomes a one-line summary with its algorithm headers (its content is unreadable anyway, and
 * the decoded headers go to `exchange.jose`); binary becomes a size; text is redacted, then truncated.
 */
export function recordedBody(
  text: string,
  redactor: Redactor,
  limit = 4096,
  jose: JoseSummary | undefined = summariseJose(text),
): string {
  const bytes = Buffer.byteLength(text);
  if (jose) {
    const first = jose.headers[0] ?? {};
    const algs = ['alg', 'enc', 'kid']
      .filter((k) => k in first)
      .map((k) => `${k}=${String(first[k])}`)
      .join(' ');
    return redactor.redact(`<${jose.kind} ${jose.form}, ${size(bytes)}${algs ? `; ${algs}` : ''}>`);
  }
  if (text.includes('\u0000') || text.includes('\uFFFD')) return `<binary, ${size(bytes)}>`;
  const red = redactor.redact(text);
  return red.length > limit ? `${red.slice(0, limit)}…[truncated, ${size(bytes)} in all]` : red;
}
