/**
 * The document checked against itself before any traffic (OAS-08, lib/openapi/self-check.ts): the whole-bank document
 * agrees with itself; a variant with an example its schema refuses, an enum value its own pattern refuses and a
 * required member that additionalProperties: false forbids is reported, each by its JSON pointer — by the loader,
 * and by the check as a warning (SHOULD) of a run that the rest passes.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certify } from '../../lib/engine/run/certify.ts';
import { loadOpenApi } from '../../lib/openapi/load.ts';
import { allChecks } from '../../suites/index.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const BANK = join(import.meta.dirname, '..', 'fixtures', 'openapi', 'bank');
const tmp = tempDirs('openapi-self-check-');

/** the bank's document with three contradictions of itself, in a fresh folder */
function contradicting(): string {
  const dir = tmp();
  cpSync(BANK, dir, { recursive: true });
  const text = readFileSync(join(BANK, 'bank.yaml'), 'utf8')
    .replace(
      "value: { beneficiary_id: B1, amount: { value: '250.00', currency: AED }, purpose_code: FAM }",
      'value: { beneficiary_id: B1, amount: { value: 250, currency: AED }, purpose_code: FAM }',
    )
    .replace(
      'frequency: { type: string, enum: [weekly, monthly, quarterly] }',
      // a function: `$'` in a replacement string means the text after the match
      () => "frequency: { type: string, pattern: '^[a-z]+$', enum: [weekly, monthly, Quarterly] }",
    )
    .replace(
      '      required: [creditor_beneficiary_id, amount, frequency]',
      '      additionalProperties: false\n      required: [creditor_beneficiary_id, amount, frequency, debtor_account]',
    );
  writeFileSync(join(dir, 'bank.yaml'), text);
  return dir;
}

const EXPECTED = [
  '/components/schemas/StandingOrder/required: requires "debtor_account", which properties does not list while additionalProperties is false: no document is valid',
  '/components/schemas/StandingOrder/properties/frequency/enum/2: the enum value "Quarterly" is not valid against its schema: (the value) must match pattern "^[a-z]+$"',
  '/paths/~1transfers~1validate/post/requestBody/content/application~1json/examples/local/value: example local is not valid against its schema: /amount/value must be string',
];

describe('the document checked against itself', () => {
  it('the whole-bank document agrees with itself; the contradicting variant is named by pointer', async () => {
    expect((await loadOpenApi('bank.yaml', BANK)).documentFindings).toEqual([]);
    const m = await loadOpenApi('bank.yaml', contradicting());
    expect(m.documentFindings?.map((f) => `${f.pointer}: ${f.message}`)).toEqual(EXPECTED);
  });

  it('OAS-08 warns with the three, the run otherwise passing', async () => {
    const dir = contradicting();
    const path = join(dir, 'p.json');
    writeFileSync(
      path,
      JSON.stringify({ name: 'self', environment: 'sandbox', embedded: { openapi: `file:${join(dir, 'bank.yaml')}` } }),
    );
    const outcome = await certify({
      checks: allChecks,
      profiles: [path],
      suites: ['openapi'],
      only: [],
      long: false,
      destructive: false,
      failOn: 'must',
    });
    const p = outcome.results!.profiles[0]!;
    const r = p.results.find((x) => x.requirements.includes('OAS-08'))!;
    expect(r.verdict).toBe('warn');
    for (const line of EXPECTED) expect(r.reason).toContain(line);
    expect(r.evidence.exchanges).toEqual([]);
    expect(p.results.filter((x) => x.verdict !== 'pass' && x !== r).map((x) => `${x.checkId} ${x.verdict}`)).toEqual(
      [],
    );
    expect(outcome.exitCode).toBe(0);
  });
});
