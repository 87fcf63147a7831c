/** Small formatting helpers of the HTML report: verdict badges, durations, JSON, anchors. */
import type { RunResults, Verdict } from '../../engine/results.ts';
import { VERDICT_LABEL } from '../summary.ts';
import type { ProfileVerdict } from '../summary.ts';
import { html } from './template.ts';
import type { Raw } from './template.ts';

export const SYMBOL: Record<Verdict | 'none', string> = {
  pass: '✓',
  fail: '✗',
  warn: '!',
  'not-applicable': '–',
  'not-run': '○',
  inconclusive: '?',
  'expected-fail': '≈',
  'unexpected-pass': '✓!',
  error: '⚠',
  none: '·',
};

export function ms(n: number): string {
  if (n < 1000) return `${Math.round(n)} ms`;
  if (n < 60_000) return `${(n / 1000).toFixed(2)} s`;
  return `${Math.floor(n / 60_000)} min ${Math.round((n % 60_000) / 1000)} s`;
}

export function badge(v: Verdict, title?: string): Raw {
  return html`<span class="badge v-${v}" title="${title ?? VERDICT_LABEL[v]}"><span class="sym" aria-hidden="true">${SYMBOL[v]}</span> ${VERDICT_LABEL[v]}</span>`;
}
export function verdictBanner(v: ProfileVerdict): Raw {
  const cls =
    v === 'PASS'
      ? 'pv-pass'
      : v === 'FAIL'
        ? 'pv-fail'
        : v === 'INCOMPLETE' || v === 'UNREACHABLE' || v === 'INTERRUPTED'
          ? 'pv-inc'
          : 'pv-none';
  return html`<span class="pv ${cls}">${v}</span>`;
}

/** Pretty-print a JSON body so that a reviewer can read it; anything else is shown as sent. */
export function prettyBody(body: string): string {
  const t = body.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.stringify(JSON.parse(t), null, 2);
    } catch {
      /* not JSON: shown as is */
    }
  }
  return body;
}
export function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Flatten nested assumptions into dotted paths: contract.tokens.accessTokenSeconds = 3600. */
export function flatten(obj: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (obj && typeof obj === 'object' && !Array.isArray(obj) && Object.keys(obj).length > 0) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out.set(
      prefix,
      Array.isArray(obj)
        ? obj.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') || '(none)'
        : typeof obj === 'string'
          ? obj
          : JSON.stringify(obj),
    );
  }
  return out;
}

export const checkAnchor = (pi: number, ri: number): string => `check-${pi}-${ri}`;

/** a partner certification (npm run partner): the harness played the bank and judged a partner's client */
export const isPartnerRun = (r: RunResults): boolean =>
  r.profiles.length > 0 && r.profiles.every((p) => p.assumptions.partner !== undefined);

export function prereqAnchor(pi: number, id: string): string {
  return `prereq-${pi}-${id}`;
}
