/**
 * The judgment of one generated transfer document's answer (the invalid-documents property,
 * docs/property-invalid-documents.md; documents.ts generates them):
 *  - an invalid document: 422 in the ERR-01 shape naming one of its defective members (ERR-02 for a missing one,
 *    ERR-03 for an invalid value); for a defective debit identifier the profile's unmasked-identifier status is
 *    also a refusal; never 2xx, never 5xx (a crash is a failure, never a refusal);
 *  - a malformed one: 400 (ERR-04);
 *  - a valid one: 200 (the control; a refusal leaves the run unjudged: the property's documents do not fit), never
 *    a 500 (XFER-01: a crash on a request the contract allows; 502, 503, 504 are no evidence), one carrying free text
 *    (non-ASCII, at its longest allowed length: contract.freeText) never a crash (a refusal naming that member is
 *    unjudged: the specification sets no length or script, the profile says it), nor the smallest amount
 *    (contract.smallestAmount) refused naming amount.value (XFER-01);
 *  - every error answer: no internal detail (ERR-05, the detector of the fixed ERR-05 check, leaks.ts); what the
 *    harness sent (the request path, a value of the document) echoed back is not an internal.
 * A gate's refusal (401, 403, the profile's quota status, a throttle's 429) and a sealed answer that does not open
 * are no evidence either way: unjudged. A broken answer names the rule its document breaks: ERR-02 for a missing
 * member, ERR-03 for an invalid value (both for several defects of both kinds), ERR-04 for the cut JSON, ERR-01 for
 * a 422 out of shape, ERR-05 for a leak.
 * Pure (no I/O): unit-tested in test/errors/documents.test.ts.
 */
import { mayName, namesFor, type GeneratedDocument } from './defects.ts';
import { bodyLeaks, isGatewayPage, pageLeaks } from './leaks.ts';
import { withoutEcho } from './bodies.ts';
import { CheckFailed } from '../../lib/engine/check.ts';
import { expectErrorStructure } from '../shared.ts';

/** what the judgment reads of an answer (an ApiResponse is one) */
export interface Answer {
  status: number;
  body: unknown;
  /** UAT: whether the sealed answer opened */
  opened?: { ok: boolean; step?: string; code?: string };
  raw: { text: string };
}

export interface JudgeOptions {
  /** contract.statuses.unmaskedIdentifier: also a refusal of a defective account_id */
  unmaskedIdentifier: readonly number[];
  /** target.paths.transfersBasepath: the request path echoed back is no leak */
  basepath: string;
  /** contract.quota.status: the quota's refusal (a 503 there is the quota, not a crash) */
  quotaStatus: number;
}

export type Judgment =
  | { verdict: 'holds' }
  | { verdict: 'broken'; reason: string; requirements: string[] }
  | { verdict: 'unjudged'; reason: string };

/** refusals of a gate, not of the document: 401, 403, the quota's status, and 429 (a throttle's, whatever the quota's) */
const gates = (o: Pick<JudgeOptions, 'quotaStatus'>): Set<number> => new Set([401, 403, 429, o.quotaStatus]);

/** the ERR-01 shape of a 422 body (the fixed check's own test, shared.ts): undefined when it holds, else what is wrong */
export function err01Defect(body: unknown): string | undefined {
  try {
    expectErrorStructure(body, 422, 'the 422 body');
    return undefined;
  } catch (e) {
    if (e instanceof CheckFailed) return e.message;
    throw e;
  }
}

/** internals in an error answer (ERR-05): the leak detector's finds that are not an echo of what was sent */
export function leaksOf(answer: Answer, sentText: string, basepath: string): string[] {
  if (answer.status < 400 || (answer.opened && !answer.opened.ok)) return [];
  const text = withoutEcho(answer.opened?.ok ? JSON.stringify(answer.body) : answer.raw.text, basepath);
  // a gateway's page (nginx's 429 names its version) is not the API's error answer (leaks.ts isGatewayPage): only
  // its version string is exempt, a traceback or a path on it leaks (pageLeaks)
  return (isGatewayPage(answer.status, answer.raw.text) ? pageLeaks(text) : bodyLeaks(text))
    .filter((l) => !sentText.includes(l.excerpt))
    .map((l) => `${l.kind}: ${l.excerpt}`);
}

function clip(s: string, n = 200): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function bodyText(a: Answer): string {
  return clip(a.opened?.ok ? JSON.stringify(a.body) : a.raw.text);
}

/** the judgment of `answer` to `doc` (sent as `sentText`: the JSON text, or the cut text of a malformed one) */
export function judgeAnswer(doc: GeneratedDocument, answer: Answer, sentText: string, o: JudgeOptions): Judgment {
  const s = answer.status;
  const leaks = leaksOf(answer, sentText, o.basepath);
  if (leaks.length > 0)
    return {
      verdict: 'broken',
      reason: `HTTP ${s} to ${doc.label}: the error answer leaks internals (${clip(leaks.join('; '))})`,
      requirements: ['ERR-05'],
    };
  if (gates(o).has(s)) return { verdict: 'unjudged', reason: `HTTP ${s} to ${doc.label}: a gate's refusal` };
  if (answer.opened && !answer.opened.ok)
    return {
      verdict: 'unjudged',
      reason: `HTTP ${s} to ${doc.label}: the sealed answer did not open (${answer.opened.step ?? ''}: ${answer.opened.code ?? ''}); sealing is JOSE-11's rule`,
    };
  if (doc.kind === 'valid') {
    if (s === 200) return { verdict: 'holds' };
    const valid = `the valid document (${doc.label})`;
    // 502, 503 and 504 are a gateway's or an unavailable back end's: no evidence (the run may have caused them)
    if (s >= 500 && ![502, 503, 504].includes(s))
      return {
        verdict: 'broken',
        reason: `${valid}: HTTP ${s}, a crash on a request the contract allows (${bodyText(answer)})`,
        requirements: ['XFER-01'],
      };
    const named = (answer.body as { property?: unknown } | undefined)?.property;
    // the specification sets no length nor script for free text: the contract's default (contract.freeText) is a
    // guess a bank may narrow, so its refusal naming the member is no failure, only a profile that does not fit
    if (doc.of?.kind === 'free-text' && s >= 400 && s < 500 && named === doc.of.member)
      return {
        verdict: 'unjudged',
        reason: `${valid}: refused with HTTP ${s} naming ${doc.of.member}: the specification sets no length or script for it, so this is the profile's to say (contract.freeText: maxLength, or members without it) (${bodyText(answer)})`,
      };
    if (doc.of?.kind === 'smallest-amount' && s >= 400 && s < 500 && named === 'amount.value')
      return {
        verdict: 'broken',
        reason: `${valid}: refused with HTTP ${s} naming amount.value, the smallest amount the target accepts (contract.smallestAmount) (${bodyText(answer)})`,
        requirements: ['XFER-01'],
      };
    return {
      verdict: 'unjudged',
      reason: `the valid document (${doc.label}) was refused with HTTP ${s} (${bodyText(answer)}): the generated documents do not fit this target`,
    };
  }
  const rules =
    doc.kind === 'malformed'
      ? ['ERR-04']
      : [...new Set(doc.defects.map((d) => (d.kind === 'missing' ? 'ERR-02' : 'ERR-03')))].sort();
  const broken = (why: string, requirements = rules): Judgment => ({
    verdict: 'broken',
    reason: `${doc.label}: ${why}`,
    requirements,
  });
  if (s >= 200 && s < 300) return broken(`accepted (HTTP ${s})`);
  if (s >= 500) return broken(`HTTP ${s}, a crash, not a refusal (${bodyText(answer)})`);
  if (doc.kind === 'malformed') return s === 400 ? { verdict: 'holds' } : broken(`HTTP ${s}, expected 400`);
  const debit = doc.defects.some((d) => d.member === 'account_id');
  if (s !== 422) {
    if (debit && o.unmaskedIdentifier.includes(s)) return { verdict: 'holds' };
    return broken(`HTTP ${s}, expected 422 naming ${namesFor(doc.defects).join(' or ')} (${bodyText(answer)})`);
  }
  const shape = err01Defect(answer.body);
  if (shape) return broken(`422 not in the error structure: ${shape}`, ['ERR-01']);
  const property = (answer.body as Record<string, unknown>).property;
  if (!mayName(doc.defects, property))
    return broken(`422 names ${JSON.stringify(property)}, expected ${namesFor(doc.defects).join(' or ')}`);
  return { verdict: 'holds' };
}
