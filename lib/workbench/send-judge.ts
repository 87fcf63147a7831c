/**
 * The judgement `npm run send` prints under an answer, with the suites' own judges handed in as a value
 * (`AnswerJudges`, wired by the command, scripts/send/judges.ts: lib/ never imports suites/): the status against the
 * contract (docs/contract.md), the 422 error structure (ERR-01), internals in an error answer (ERR-05), the
 * identifiers the answer carries (MASK-01/02, MASK-04's clear ids).
 * A reviewer's reading aid, not a verdict: no rule is passed or failed on one call.
 */
import type { ApiResponse, Operation } from '../engine/session/context.ts';
import type { FullProfile } from '../profile/schema.ts';
import { MASK_KEEP_HEAD, MASK_KEEP_TAIL } from '../mask/index.ts';

/** the suites' judges the reading uses (the checks' own, so that send reads an answer as a check would) */
export interface AnswerJudges {
  /** ERR-01: what is wrong with the shape of a 422 body, undefined when it holds */
  err01Defect(body: unknown): string | undefined;
  /** ERR-05: internals in an error answer, leaving out what echoes the text sent */
  leaksOf(answer: ApiResponse, sentText: string, basepath: string): string[];
  /** MASK-01/02: why `masked` is not the rule's mask of `id`, undefined when it is */
  ruleViolation(id: string, masked: string): string | undefined;
  /** every string member named account_id or emirates_id, at any depth, with its path */
  identifierMembers(document: unknown, path: string): { path: string; value: string }[];
}

/** what was sent, as the judgement needs it */
export interface Sent {
  op: Operation;
  /** default: the harness's valid body; plain: the reviewer's JSON, sealed by send; sealed: their envelope */
  kind: 'default' | 'plain' | 'sealed' | 'variant' | 'none';
  /** a forged variant's statuses that also count as its refusal (Z1: 413) */
  alsoRefused?: readonly number[];
  /** get: the transfer id came from --transfer-id (else a new id: no such transfer) */
  knownTransfer: boolean;
  /** the document's JSON text (what an answer may echo) */
  text: string;
}

const list = (s: readonly number[]): string => s.join(' or ');

/** what the contract says an answer with this status means (docs/contract.md, the profile's statuses) */
export function meaningOf(status: number, op: Operation, p: FullProfile): string {
  const s = p.contract.statuses;
  const okFor = op === 'create' ? s.create : [200];
  if (okFor.includes(status)) return `the ${op} succeeded`;
  const said: string[] = [];
  if (s.joseRefused.includes(status)) said.push('a payload refused for its JOSE layer or a malformed body');
  if (status === 401) said.push('no valid token or client id');
  if (s.mismatchedIdentifier.includes(status)) said.push("an identifier that is not the token's");
  if (status === 403) said.push('a missing scope or a refused source');
  if (s.notVisible.includes(status)) said.push('no such transfer for this customer');
  if (s.unmaskedIdentifier.includes(status)) said.push('an unmasked identifier');
  if (status === 422) said.push('a document that breaks a rule (the 422 names the member)');
  if (status === p.contract.quota.status) said.push("the quota's refusal");
  if (status === 413) said.push('a body too large');
  if (status >= 500) said.push('a server error: no rule of the contract answers this way');
  return said.length ? said.join('; ') : 'no answer the contract names for this call';
}

/** the statuses the contract gives what was sent, and why; undefined when the reviewer's own body says nothing */
function expectedOf(sent: Sent, p: FullProfile): { statuses: readonly number[]; why: string } | undefined {
  const s = p.contract.statuses;
  if (sent.kind === 'variant')
    return {
      statuses: [...s.joseRefused, ...(sent.alsoRefused ?? [])],
      why: 'a forged envelope is refused (contract.statuses.joseRefused)',
    };
  if (sent.kind !== 'default' && sent.kind !== 'none') return undefined;
  if (sent.op === 'validate') return { statuses: [200], why: 'a valid validate' };
  if (sent.op === 'create') return { statuses: s.create, why: 'a valid create (contract.statuses.create)' };
  return sent.knownTransfer
    ? { statuses: [200], why: 'a get of a transfer of this customer' }
    : { statuses: [404], why: 'a get of a transfer id nobody created' };
}

function statusLine(res: ApiResponse, sent: Sent, p: FullProfile): string {
  const meaning = meaningOf(res.status, sent.op, p);
  const exp = expectedOf(sent, p);
  if (!exp) return `status: HTTP ${res.status}: ${meaning}`;
  const holds = exp.statuses.includes(res.status);
  return `status: HTTP ${res.status}: ${meaning}; ${exp.why} is HTTP ${list(exp.statuses)}: ${holds ? 'as the contract says' : 'NOT what the contract says'}`;
}

/** the identifiers the answer carries, each judged, and the profile's clear ids found anywhere in it (MASK-04) */
function maskingLines(res: ApiResponse, p: FullProfile, j: AnswerJudges): string[] {
  const clear = p.customers.flatMap((c) => [
    { value: c.accountId, what: `the account id of customer "${c.name}"` },
    ...(c.emiratesId ? [{ value: c.emiratesId, what: `the emirates id of customer "${c.name}"` }] : []),
  ]);
  const head = (s: string): string => Array.from(s).slice(0, MASK_KEEP_HEAD).join('');
  const tail = (s: string): string => Array.from(s).slice(-MASK_KEEP_TAIL).join('');
  const lines: string[] = [];
  for (const m of j.identifierMembers(res.body, 'answer')) {
    const isClear = clear.find((x) => x.value === m.value);
    if (isClear) {
      lines.push(`masking: ${m.path} is ${isClear.what} in clear (MASK-04: never returned clear)`);
      continue;
    }
    const of = clear.find((x) => head(x.value) === head(m.value) && tail(x.value) === tail(m.value));
    const why = of ? j.ruleViolation(of.value, m.value) : undefined;
    if (!of) lines.push(`masking: ${m.path} is not the mask of a profile identifier (not judged)`);
    else
      lines.push(
        `masking: ${m.path} masks ${of.what}: ${why ? `breaks the rule (MASK-01/02): ${why}` : 'follows the rule'}`,
      );
  }
  const places = [res.raw.text, ...Object.entries(res.headers).map(([h, v]) => `${h}: ${v}`)];
  if (res.opened?.ok) places.push(JSON.stringify(res.opened.payload));
  for (const x of clear)
    if (places.some((t) => t.includes(x.value)) && !lines.some((l) => l.includes(`${x.what} in clear`)))
      lines.push(`masking: ${x.what} appears in clear in the answer (MASK-04: never returned clear)`);
  if (lines.length === 0) lines.push('masking: the answer names no account_id or emirates_id, and no clear one');
  return lines;
}

/** the judgement's lines */
export function judge(res: ApiResponse, sent: Sent, p: FullProfile, j: AnswerJudges): string[] {
  const lines = [statusLine(res, sent, p)];
  if (res.opened && !res.opened.ok)
    lines.push(`sealing: the sealed answer did not open (${res.opened.step}: ${res.opened.code}): JOSE-11's rule`);
  if (res.status === 422) {
    const defect = j.err01Defect(res.body);
    lines.push(`ERR-01: the 422 body ${defect ? `is out of shape: ${defect}` : 'has the five string members'}`);
  }
  if (res.status >= 400) {
    const leaks = j.leaksOf(res, sent.text, p.target.paths.transfersBasepath);
    lines.push(
      leaks.length ? `ERR-05: internals in the error answer: ${leaks.join('; ')}` : 'ERR-05: no internals found',
    );
  }
  return [...lines, ...maskingLines(res, p, j)];
}
