/**
 * The invalid-documents property's coverage list against the mock faults that only a property finds (the fault
 * matrix's "Caught by a property check" section): each is broken by an input of the list, so that the property
 * fails on them in every run, whatever the seed; the clean and the lenient mock break none of it, in both modes.
 * The broken answer names the rule its document breaks (ERR-03 here), not every id of the property.
 */
import { describe, expect, it } from 'vitest';
import type { Environment } from '../../lib/profile/schema.ts';
import { documentClass } from '../../suites/errors/coverage.ts';
import { documentsSpec } from '../../suites/errors/property.ts';
import { runCoverage } from './coverage-run.ts';

const CHECK = 'errors.invalid-documents-property';

/** the classes of the coverage inputs the mock got wrong, with the ids each broke */
async function brokenClasses(env: Environment, embedded: { faults?: string[]; lenient?: boolean }): Promise<string[]> {
  const { inputs, trials } = await runCoverage(env, embedded, CHECK, documentsSpec);
  expect(trials).toHaveLength(inputs.length);
  // every input judged: none left without evidence (no quota, no gate on the mock)
  expect(trials.filter((t) => t.verdict === 'unclear').map((t) => t.observed)).toEqual([]);
  return inputs.flatMap((d, i) =>
    trials[i]!.verdict === 'broken' ? [`${documentClass(d)}: ${(trials[i]!.requirements ?? []).join(' ')}`] : [],
  );
}

describe('the invalid-documents coverage list against the mock', { timeout: 120_000 }, () => {
  it('amount-string-500 (sandbox and UAT): the amount sent flat as a decimal string is broken, ERR-03', async () => {
    expect.hasAssertions();
    for (const env of ['sandbox', 'uat'] as const)
      expect(await brokenClasses(env, { faults: ['amount-string-500'] })).toEqual([
        'amount wrong-type string (a decimal): ERR-03',
      ]);
  });

  it('amount-number-accepted: amount.value sent as a JSON number is broken, ERR-03', async () => {
    expect.hasAssertions();
    expect(await brokenClasses('sandbox', { faults: ['amount-number-accepted'] })).toEqual([
      'amount.value wrong-type number: ERR-03',
    ]);
  });

  it('amount-zero-spellings-accepted: each spelling of zero but `0` and `0.00` is broken, ERR-03', async () => {
    expect.hasAssertions();
    expect(await brokenClasses('sandbox', { faults: ['amount-zero-spellings-accepted'] })).toEqual([
      'amount.value non-positive zero (1 decimal): ERR-03',
      'amount.value non-positive zero (2 integer digits, 0 decimals): ERR-03',
      'amount.value non-positive zero (2 integer digits, 1 decimal): ERR-03',
      'amount.value non-positive zero (2 integer digits, 2 decimals): ERR-03',
      'amount.value non-positive zero (3 integer digits, 0 decimals): ERR-03',
    ]);
  });

  it('amount-negative-fraction-accepted: `-0.01`, one past zero, is broken, ERR-03', async () => {
    expect.hasAssertions();
    expect(await brokenClasses('uat', { faults: ['amount-negative-fraction-accepted'] })).toEqual([
      'amount.value non-positive negative, above -1: ERR-03',
    ]);
  });

  it('amount-fraction-truncated: the smallest amount, 0.01, refused naming amount.value is broken, XFER-01', async () => {
    expect.hasAssertions();
    expect(await brokenClasses('uat', { faults: ['amount-fraction-truncated'] })).toEqual([
      'valid, the smallest amount: XFER-01',
    ]);
  });

  it('remarks-emoji-500 and remarks-longest-500: the valid document with that free text is broken, XFER-01', async () => {
    expect.hasAssertions();
    expect(await brokenClasses('sandbox', { faults: ['remarks-emoji-500'] })).toEqual([
      'valid, remarks non-ASCII: XFER-01',
    ]);
    expect(await brokenClasses('uat', { faults: ['remarks-longest-500'] })).toEqual([
      'valid, remarks longest: XFER-01',
    ]);
  });

  it('the clean mock (sandbox, UAT) and the lenient mock get every input of the list right', async () => {
    expect.hasAssertions();
    const [sandbox, uat, lenient] = await Promise.all([
      brokenClasses('sandbox', {}),
      brokenClasses('uat', {}),
      brokenClasses('sandbox', { lenient: true }),
    ]);
    expect({ sandbox, uat, lenient }).toEqual({ sandbox: [], uat: [], lenient: [] });
  });
});
