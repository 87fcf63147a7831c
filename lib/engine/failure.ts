/**
 * Failures as data: what a check found wrong, as a record the reports, the HAR comments and the fault matrix read
 * the same fields of. A `CheckFailed` carries one record (or several: each negative case a family's target did not
 * refuse); its message, the verdict's reason, is the record's message (or the summary the check gives of several).
 *
 * Common fields: kind, title (what went wrong, without the values: the same for every failure of its kind and
 * check), message (the failure in words), the requirement ids it breaks (absent: every id of its check), the
 * operation when known, expected and observed (as text: a status list, a value, a case's outcome), the label of the
 * exchange it came from and that exchange's index in the check's evidence when known. Each kind adds its own data.
 */

export interface FailureCommon {
  /** what went wrong, without the values, e.g. "unexpected HTTP status" */
  title: string;
  /** the failure in words: the verdict's reason when it is the check's only record */
  message: string;
  /** the ids it breaks, when fewer than its check names (absent: every id of the check) */
  requirements?: string[];
  /** the operation it was seen on (validate, create, get, token, authorize...), when known */
  operation?: string;
  expected?: string;
  observed?: string;
  /** the label of the exchange it came from (RecordedExchange.label), when known */
  label?: string;
  /** the index of that exchange in the check's evidence.exchanges (resolved from `label` by the runner) */
  exchange?: number;
}

/** an answer with a status the rule does not allow */
export interface StatusFailure extends FailureCommon {
  kind: 'status';
  /** the statuses the rule allows */
  statuses: number[];
  /** the status the target answered */
  status: number;
}

/** a value (a member, a header, a JOSE header parameter) missing or other than the rule says */
export interface ValueFailure extends FailureCommon {
  kind: 'value';
  /** what was read, e.g. "JWE enc" or "error.property" */
  name: string;
}

/** a negative case the target did not refuse (accepted, or answered otherwise than the refusal) */
export interface NegativeAcceptedFailure extends FailureCommon {
  kind: 'negative-accepted';
  /** the case id within its check, e.g. "A12" (evidence.cases) */
  case: string;
  caseTitle: string;
  /** accepted, other (another answer than the refusal), fetched (a key URL it names was fetched) */
  outcome: string;
  /** the status answered, when there was an answer */
  status?: number;
}

/** the smallest input a property-based check found the rule broken for (evidence.property.counterexample) */
export interface CounterexampleFailure extends FailureCommon {
  kind: 'counterexample';
  /** the input, redacted */
  input: string;
}

/**
 * an answer other than the bank's OpenAPI document says (an undocumented status or Content-Type, a body or header
 * its schema refuses): `operation` names the document's operation
 */
export interface DocumentFailure extends FailureCommon {
  kind: 'document';
  /** the status answered */
  status: number;
  /** the documented response it was judged by (`200`, `4XX`, `default`), '' when none */
  documented: string;
  /** where in the schema, '' when the finding is not about the body's schema */
  schemaPath: string;
}

/** something the target should keep to itself, found in what it sent (internals, clear identifiers, software names) */
export interface LeakFailure extends FailureCommon {
  kind: 'leak';
  /** each finding, as the check names it */
  found: string[];
}

/** any other failure: the message says it */
export interface GenericFailure extends FailureCommon {
  kind: 'generic';
}

export type Failure =
  | StatusFailure
  | ValueFailure
  | NegativeAcceptedFailure
  | CounterexampleFailure
  | DocumentFailure
  | LeakFailure
  | GenericFailure;
export type FailureKind = Failure['kind'];

/** the default title of each kind (a check may give its own) */
export const FAILURE_TITLE: Readonly<Record<FailureKind, string>> = {
  status: 'unexpected HTTP status',
  value: 'wrong value',
  'negative-accepted': 'negative case not refused',
  counterexample: 'property counterexample',
  document: 'answer not as documented',
  leak: 'leak found',
  generic: 'check failed',
};

/** what a check gives of a failure besides its kind's data: expected and observed as any value (shown as text) */
export interface FailureDetail {
  /** the exchange it came from, as recorded (lib/http/record/exchanges.ts exchangeOf): found again by identity */
  from?: object | undefined;
  expected?: unknown;
  observed?: unknown;
  requirements?: readonly string[];
  operation?: string;
  label?: string;
  title?: string;
}

/**
 * the exchange each record came from, when its check gave it (FailureDetail.from): kept beside the record, not in it
 * (the record is data, written as it is), until the runner turns it into an index of the check's evidence
 */
const SOURCES = new WeakMap<object, object>();

type KindData<K extends FailureKind> = Omit<Extract<Failure, { kind: K }>, keyof FailureCommon | 'kind'>;

/** a record of `kind`: its title the kind's unless given, expected and observed shown as text */
export function failure<K extends FailureKind>(
  kind: K,
  message: string,
  data: KindData<K>,
  detail: FailureDetail = {},
): Extract<Failure, { kind: K }> {
  const f: Record<string, unknown> = { kind, title: detail.title ?? FAILURE_TITLE[kind], message, ...data };
  if ('expected' in detail) f.expected = show(detail.expected);
  if ('observed' in detail) f.observed = show(detail.observed);
  if (detail.requirements && detail.requirements.length > 0) f.requirements = [...detail.requirements];
  if (detail.operation !== undefined) f.operation = detail.operation;
  if (detail.label !== undefined) f.label = detail.label;
  if (detail.from) SOURCES.set(f, detail.from);
  return f as unknown as Extract<Failure, { kind: K }>;
}

/** the text fields of a record the matrix's "caught for its reason" and the reports search */
export function failureText(f: Failure): string[] {
  const texts = [f.title, f.message];
  if (f.kind === 'negative-accepted') texts.push(`${f.case} ${f.caseTitle}`);
  if (f.observed !== undefined) texts.push(f.observed);
  return texts;
}

/** a record in one line, e.g. "[status] unexpected HTTP status: validate: expected HTTP 200, observed 500" */
export function failureLine(f: Failure): string {
  const at = f.exchange !== undefined ? ` (exchange ${f.exchange + 1})` : '';
  const ids = f.requirements ? ` {${f.requirements.join(' ')}}` : '';
  return `[${f.kind}] ${f.title}${ids}: ${f.message}${at}`;
}

/**
 * the records a report shows beside a result's reason: all of them, but a lone generic one that only repeats the
 * reason (naming no id and no exchange) adds nothing
 */
export function shownFailures(r: { failures?: readonly Failure[] | undefined }): readonly Failure[] {
  const list = r.failures ?? [];
  const only = list.length === 1 ? list[0] : undefined;
  if (only && only.kind === 'generic' && only.requirements === undefined && only.exchange === undefined) return [];
  return list;
}

/** "failure: [kind] title {ids}: message (exchange n)", one per record shown (the text reports: junit.xml) */
export function failureLines(r: { failures?: readonly Failure[] | undefined }): string[] {
  return shownFailures(r).map((f) => `failure: ${failureLine(f)}`);
}

/**
 * the records as the results keep them: every text redacted, each record's exchange index resolved from the exchange
 * it came from (FailureDetail.from), else from its label (the last exchange of the check's evidence with that label)
 */
export function settleFailures(
  list: readonly Failure[],
  exchanges: readonly { label?: string }[],
  redact: (s: string) => string,
): Failure[] {
  return list.map((f) => {
    const out = redactStrings(f, redact);
    const from = SOURCES.get(f);
    const at = from ? (exchanges as readonly object[]).lastIndexOf(from) : -1;
    if (at >= 0 && f.exchange === undefined) out.exchange = at;
    else if (f.label !== undefined && f.exchange === undefined) {
      const i = exchanges.findLastIndex((x) => x.label === f.label);
      if (i >= 0) out.exchange = i;
    }
    return out;
  });
}

function redactStrings<T>(v: T, redact: (s: string) => string): T {
  if (typeof v === 'string') return redact(v) as T;
  if (Array.isArray(v)) return v.map((x: unknown) => redactStrings(x, redact)) as T;
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactStrings(x, redact)])) as T;
  return v;
}

/** a value as text: a string as it is, anything else as JSON (or String() when it has none) */
export function show(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s;
  } catch {
    return String(v);
  }
}
