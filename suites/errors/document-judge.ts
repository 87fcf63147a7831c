/**
 * The judgment of one answer to a document generated from the bank's OpenAPI document (document-property.ts):
 *  - a document the schema finds invalid (OAS-04): refused, any 4xx; accepted (2xx) or crashed on (5xx) fails;
 *  - a document the schema finds valid (OAS-05): not refused as malformed: a 400, or a 422 naming a member the
 *    document describes, fails; 2xx holds; another refusal (404, 409, a 422 naming a member the document does not
 *    describe) and a 5xx are no evidence either way.
 * A gate's refusal (401, 403, 429, the profile's quota status) and a sealed answer that does not open are no evidence
 * either way. Pure (no I/O): unit-tested in test/errors/document-judge.test.ts.
 */
import type { GeneratedInput } from '../../lib/openapi/generate/generate.ts';
import type { Answer, Judgment } from './documents-judge.ts';

function clip(s: string, n = 200): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function bodyText(a: Answer): string {
  return clip(a.opened?.ok ? JSON.stringify(a.body) : a.raw.text);
}

/** the member a 422 names (`property` of the error structure), if any */
function namedMember(a: Answer): string | undefined {
  const p = (a.body as { property?: unknown } | undefined)?.property;
  return typeof p === 'string' ? p : undefined;
}

export interface DocumentJudgeOptions {
  /** contract.quota.status: the quota's refusal, never evidence */
  quotaStatus: number;
  /** true when the request schema describes this member (`amount.value`), for a 422 that names it */
  describes(member: string): boolean;
}

/** the judgment of `answer` to the generated document `doc` */
export function judgeDocumentAnswer(doc: GeneratedInput, answer: Answer, o: DocumentJudgeOptions): Judgment {
  const s = answer.status;
  if ([401, 403, 429, o.quotaStatus].includes(s))
    return { verdict: 'unjudged', reason: `HTTP ${s} to ${doc.label}: a gate's refusal` };
  if (answer.opened && !answer.opened.ok)
    return {
      verdict: 'unjudged',
      reason: `HTTP ${s} to ${doc.label}: the sealed answer did not open (${answer.opened.step ?? ''}: ${answer.opened.code ?? ''}); sealing is JOSE-11's rule`,
    };
  if (doc.kind === 'invalid') {
    const broken = (why: string): Judgment => ({
      verdict: 'broken',
      reason: `${doc.label}, which the document says is invalid: ${why}`,
      requirements: ['OAS-04'],
    });
    if (s >= 400 && s < 500) return { verdict: 'holds' };
    if (s >= 500) return broken(`HTTP ${s}, a crash, not a refusal (${bodyText(answer)})`);
    return broken(`accepted (HTTP ${s})`);
  }
  if (s >= 200 && s < 300) return { verdict: 'holds' };
  const named = namedMember(answer);
  const refused = (why: string): Judgment => ({
    verdict: 'broken',
    reason: `${doc.label}, which the document says is valid: ${why} (${bodyText(answer)})`,
    requirements: ['OAS-05'],
  });
  if (s === 400) return refused('refused as malformed, HTTP 400');
  if (s === 422 && named !== undefined && o.describes(named)) return refused(`HTTP 422 naming ${named}`);
  return {
    verdict: 'unjudged',
    reason: `HTTP ${s} to ${doc.label}${named ? ` naming ${named}` : ''}: not a refusal of its shape (${bodyText(answer)})`,
  };
}
