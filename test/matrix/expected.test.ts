/**
 * The fault matrix's expectation table (expected.ts), read before any case runs: every mock fault names, for each
 * mode it has, the checks that must catch it (known checks of its ids, together naming each of its ids that applies)
 * and a fragment of their reason. A fault added without an entry fails here, saying what to add.
 */
import { expect, test } from 'vitest';
import { FAULTS } from '../../lib/mock/faults.ts';
import { requirement } from '../../lib/catalogue/index.ts';
import { allChecks } from '../../suites/index.ts';
import { EXPECTED } from './expected.ts';
import { expectationProblems } from './judge.ts';

test('every mock fault names the checks that must catch it and a fragment of their reason', () => {
  const problems = expectationProblems(FAULTS, EXPECTED, allChecks, (id, env) => requirement(id).applies.includes(env));
  expect(problems, 'test/matrix/expected.ts').toEqual([]);
});
