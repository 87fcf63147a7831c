/**
 * The input generator (lib/openapi/generate*.ts): every constraint kind gives its class, each class document is
 * invalid by ajv for that constraint alone, the controls are valid, what cannot be produced is listed, OpenAPI 3.0's
 * boolean bounds are read, and the random documents are the same for the same seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentInputs } from '../../lib/openapi/generate/generate.ts';
import { documentArbitrary } from '../../lib/openapi/generate/generate-random.ts';
import { validatorOf } from '../../lib/openapi/generate/generate-validate.ts';
import { pointerOf } from '../../lib/openapi/generate/generate-doc.ts';

const SCHEMA = {
  type: 'object',
  required: ['id', 'amount', 'lines'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: ['a', 'b'] },
    fixed: { type: 'string', const: 'v1' },
    amount: {
      type: 'object',
      required: ['value', 'currency'],
      properties: {
        value: { type: 'string', pattern: '^[0-9]+\\.[0-9]{2}$' },
        currency: { type: 'string', minLength: 3, maxLength: 3 },
      },
    },
    count: { type: 'integer', minimum: 1, maximum: 10, multipleOf: 2 },
    rate: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
      items: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
    },
  },
};
const BASE = {
  id: '123e4567-e89b-12d3-a456-426614174000',
  kind: 'a',
  fixed: 'v1',
  amount: { value: '150.00', currency: 'AED' },
  count: 2,
  rate: 0.5,
  lines: [{ n: 1 }],
};

const inputs = documentInputs(SCHEMA, BASE, '3.1.0');
const validator = validatorOf(SCHEMA, '3.1');

describe('the input generator', () => {
  it('gives one class per constraint kind, at every member path', () => {
    const labels = inputs.classes.map((c) => c.label);
    for (const l of [
      'id: required',
      'amount.currency: required',
      'lines[0].n: required',
      '(the document): additionalProperties',
      'id: type (number)',
      'count: type (number (not an integer))',
      'lines[0].n: type (string)',
      'kind: enum',
      'fixed: const',
      'amount.value: pattern',
      'id: format',
      'amount.currency: minLength',
      'amount.currency: maxLength',
      'count: minimum',
      'count: maximum',
      'count: multipleOf',
      'rate: exclusiveMinimum',
      'rate: exclusiveMaximum',
      'lines: minItems',
      'lines: maxItems',
      'lines: uniqueItems',
    ])
      expect(labels, l).toContain(l);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('each class document is invalid, and only for its constraint at its member', () => {
    expect(inputs.invalid).toHaveLength(inputs.classes.length);
    inputs.invalid.forEach((doc, i) => {
      const c = inputs.classes[i]!;
      const vs = validator.violations(doc.body);
      expect(vs.length, doc.label).toBeGreaterThan(0);
      // where the violations are: the member's own place (its parent's for a missing one)
      const at = pointerOf(c.constraint === 'required' ? c.path.slice(0, -1) : c.path);
      expect(new Set(vs.map((v) => v.pointer)), doc.label).toEqual(new Set([at]));
      // a value of another type may break the member's other keywords too (an enum of strings); else only its own
      const own = c.constraint.startsWith('type') ? vs.filter((v) => v.keyword === 'type') : vs;
      expect(new Set(own.map((v) => v.keyword)), doc.label).toEqual(
        new Set([c.constraint.startsWith('type') ? 'type' : c.constraint]),
      );
    });
  });

  it('the controls are valid: the base first, variants within the schema', () => {
    expect(inputs.valid[0]!.label).toBe('the base document');
    expect(inputs.valid.map((v) => v.label)).toEqual(
      expect.arrayContaining(['kind "b" (an enum value)', 'without kind', 'count at its maximum (10)']),
    );
    for (const v of inputs.valid) expect(validator.violations(v.body), v.label).toEqual([]);
  });

  it('lists what it cannot produce, never drops it', () => {
    const r = documentInputs(
      { type: 'object', properties: { a: { type: 'string', minLength: 0 }, b: { anyOf: [{ type: 'string' }] } } },
      { a: 'x', b: 'y' },
      '3.1.0',
    );
    expect(r.unproduced.map((u) => u.label)).toEqual(['a: minLength', 'b: anyOf']);
  });

  it('a format ajv-formats does not check is listed as such', () => {
    const r = documentInputs(
      {
        type: 'object',
        properties: { a: { type: 'string', format: 'iban' }, c: { type: 'integer', format: 'int32' } },
      },
      { a: 'x', c: 1 },
      '3.0.3',
    );
    expect(r.classes.filter((c) => c.constraint === 'format').map((c) => c.label)).toEqual(['c: format']);
    expect(r.unproduced).toEqual([{ label: 'a: format', why: expect.stringContaining('"iban"') as unknown }]);
  });

  it('an invalid base gives no class, and says why', () => {
    const r = documentInputs(SCHEMA, { ...BASE, amount: { value: 'x', currency: 'AED' } }, '3.1.0');
    expect(r.classes).toEqual([]);
    expect(r.unproduced[0]!.why).toContain('/amount/value pattern');
  });

  it("reads OpenAPI 3.0's boolean exclusive bounds and nullable", () => {
    const s = {
      type: 'object',
      properties: { n: { type: 'number', minimum: 0, exclusiveMinimum: true, nullable: true } },
    };
    const r = documentInputs(s, { n: 1 }, '3.0.3');
    expect(r.classes.map((c) => c.label)).toContain('n: exclusiveMinimum');
    expect(r.classes.map((c) => c.label)).not.toContain('n: type (null)');
  });

  it('adds an absent optional member to break its constraints, but makes no control of a value it made up', () => {
    const r = documentInputs({ type: 'object', properties: { note: { type: 'string', maxLength: 5 } } }, {}, '3.1.0');
    expect(r.classes.map((c) => c.label)).toContain('note: maxLength');
    expect(r.valid.map((v) => v.label)).toEqual(['the base document']);
  });

  it('random documents combine classes, are checked, and are the same for the same seed', () => {
    const arb = documentArbitrary(SCHEMA, BASE, '3.1.0', inputs)!;
    const a = fc.sample(arb, { seed: 42, numRuns: 60 });
    expect(fc.sample(arb, { seed: 42, numRuns: 60 })).toEqual(a);
    expect(fc.sample(arb, { seed: 43, numRuns: 60 })).not.toEqual(a);
    expect(a.some((d) => d.kind === 'invalid' && d.classes.length > 1)).toBe(true);
    expect(a.filter((d) => d.classes.length >= 2).length).toBeGreaterThan(a.length / 2);
    for (const d of a) expect(validator.violations(d.body).length > 0, d.label).toBe(d.kind === 'invalid');
  });

  it('the coverage is the same whatever the seed (no randomness in it)', () => {
    expect(documentInputs(SCHEMA, BASE, '3.1.0')).toEqual(inputs);
  });
});
