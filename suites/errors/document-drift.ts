/**
 * Where the bank's OpenAPI document and docs/contract.md ("Transfer bodies", the specification §2, §7) disagree on
 * the request body of validate and create: a member the contract requires that the document does not (or does not
 * describe), a member of another JSON type (`amount.value` a number where the contract says a decimal string), a list
 * of values where the contract allows any (`amount.currency` an enum, narrower than ISO 4217), a member the document
 * requires that the contract does not, undocumented members refused where the contract ignores read-only ones. One
 * sentence per disagreement, for one note each; the contract's rule stays what the MUST checks (ERR-01..05) judge.
 * Pure: unit-tested in test/errors/document-drift.test.ts.
 */
import type { JsonSchema } from '../../lib/openapi/types.ts';

type Schema = { readonly [k: string]: unknown };

/** the contract's members of a transfer request, and their JSON types (the debit identifier: the caller's) */
function contractMembers(debit: string): Record<string, string> {
  return {
    beneficiary_id: 'string',
    amount: 'object',
    'amount.value': 'string',
    'amount.currency': 'string',
    [debit]: 'string',
  };
}

const asSchema = (s: unknown): Schema | undefined =>
  s !== null && typeof s === 'object' && !Array.isArray(s) ? (s as Schema) : undefined;

/** the schema of a dotted member (`amount.value`), its parent's, and whether the parent requires it */
function lookup(root: JsonSchema, member: string): { schema?: Schema; required: boolean } {
  let s = asSchema(root);
  let required = true;
  for (const name of member.split('.')) {
    const props = asSchema(s?.properties);
    const req = Array.isArray(s?.required) ? (s.required as unknown[]) : [];
    required &&= req.includes(name);
    s = asSchema(props?.[name]);
    if (!s) return { required };
  }
  return { schema: s, required };
}

function typesOf(s: Schema): string[] {
  const t = s.type;
  const list = (Array.isArray(t) ? t : t === undefined ? [] : [t]).filter((x): x is string => typeof x === 'string');
  return s.nullable === true ? [...list, 'null'] : list;
}

/** the disagreements, one sentence each; `debit` is the debit identifier the harness sends (account_id) */
export function documentDrift(schema: JsonSchema, debit: string, where: string): string[] {
  const out: string[] = [];
  const say = (s: string): void => void out.push(`${where}: ${s}; the MUST checks judge docs/contract.md's rule`);
  for (const [member, type] of Object.entries(contractMembers(debit))) {
    const { schema: s, required } = lookup(schema, member);
    if (!s) {
      say(`the document does not describe \`${member}\`, which docs/contract.md requires`);
      continue;
    }
    if (!required) say(`the document does not require \`${member}\`, which docs/contract.md requires`);
    const types = typesOf(s);
    if (types.length > 0 && !types.includes(type))
      say(
        `the document's \`${member}\` is ${types.join(' or ')}, docs/contract.md's is ${type === 'object' ? 'an object' : `a ${type}`}${member === 'amount.value' ? ' (a decimal string)' : ''}`,
      );
    if (Array.isArray(s.enum))
      say(
        `the document lists ${s.enum.length} value(s) for \`${member}\` (${s.enum
          .slice(0, 5)
          .map((v) => JSON.stringify(v))
          .join(
            ', ',
          )}${s.enum.length > 5 ? ', …' : ''}), docs/contract.md allows any ${member === 'amount.currency' ? 'ISO 4217 code' : 'value of its kind'}`,
      );
  }
  const known = new Set(Object.keys(contractMembers(debit)));
  for (const [prefix, s] of [
    ['', asSchema(schema)],
    ['amount.', lookup(schema, 'amount').schema],
  ] as const) {
    const req = Array.isArray(s?.required) ? (s.required as unknown[]).filter((r) => typeof r === 'string') : [];
    for (const r of req)
      if (!known.has(`${prefix}${r}`)) say(`the document requires \`${prefix}${r}\`, which docs/contract.md does not`);
  }
  if (asSchema(schema)?.additionalProperties === false)
    say('the document refuses undocumented members, docs/contract.md ignores the read-only ones a client sends');
  return out;
}

/**
 * the members docs/contract.md requires that `body` lacks: a document the bank's schema finds valid but the contract
 * says must be refused (ERR-02) is no control of OAS-05 — the bank cannot keep both
 */
export function contractMissing(body: unknown, debit: string): string[] {
  const at = (member: string): unknown =>
    member
      .split('.')
      .reduce<unknown>(
        (v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
        body,
      );
  return Object.keys(contractMembers(debit)).filter((m) => at(m) === undefined);
}
