/**
 * An oracle of the mock's document's request schema (docs/openapi/transfers.yaml, `TransferRequest`), written by hand
 * from the schema's text, apart from the generator and its validator (lib/openapi/generate): the constraints a
 * request body breaks. With `split` (test/openapi/recursive.test.ts adds it) a member that is a request itself, at
 * any depth. A test judges the generator's documents with it.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON Schema's string length: code points */
const length = (s: string): number => [...s].length;

/** the constraints `body` breaks (`path: keyword`), none when the schema calls it valid */
export function requestBreaks(body: unknown, path = ''): string[] {
  const at = (member: string): string => (path ? `${path}.${member}` : member);
  if (!isObject(body)) return [`${path || '(body)'}: type`];
  const out: string[] = [];
  // required: [beneficiary_id, amount]
  for (const m of ['beneficiary_id', 'amount']) if (!(m in body)) out.push(`${at(m)}: required`);
  // beneficiary_id: { type: string, minLength: 1 }
  const ben = body.beneficiary_id;
  if ('beneficiary_id' in body && typeof ben !== 'string') out.push(`${at('beneficiary_id')}: type`);
  else if (typeof ben === 'string' && length(ben) < 1) out.push(`${at('beneficiary_id')}: minLength`);
  // amount: an object, required [value, currency]; value ^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$, currency ^[A-Z]{3}$
  if ('amount' in body) {
    const amount = body.amount;
    if (!isObject(amount)) out.push(`${at('amount')}: type`);
    else {
      const patterns: [string, RegExp][] = [
        ['value', /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/u],
        ['currency', /^[A-Z]{3}$/u],
      ];
      for (const [m, re] of patterns) {
        const v = amount[m];
        if (!(m in amount)) out.push(`${at(`amount.${m}`)}: required`);
        else if (typeof v !== 'string') out.push(`${at(`amount.${m}`)}: type`);
        else if (!re.test(v)) out.push(`${at(`amount.${m}`)}: pattern`);
      }
    }
  }
  // account_id, emirates_id: strings; purpose_code, remarks: strings of at most 140 characters
  for (const m of ['account_id', 'emirates_id', 'purpose_code', 'remarks']) {
    if (!(m in body)) continue;
    const v = body[m];
    if (typeof v !== 'string') out.push(`${at(m)}: type`);
    else if ((m === 'purpose_code' || m === 'remarks') && length(v) > 140) out.push(`${at(m)}: maxLength`);
  }
  // split: a request itself
  if ('split' in body) out.push(...requestBreaks(body.split, at('split')));
  return out;
}
