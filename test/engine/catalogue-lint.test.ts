/**
 * The catalogue lint: every requirement that a server target must keep has a check; every MUST id has a mock
 * fault; no check or fault names an unknown id; check ids are unique; docs/requirements.md (the requirement →
 * checks → files table) is the one the catalogue and the suites write now.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isRequirementId, requirements } from '../../lib/catalogue/index.ts';
import { FAULTS } from '../../lib/mock/faults.ts';
import { ROOT } from '../../lib/root.ts';
import { currentRequirementsPage } from '../../scripts/docs/requirements-page.ts';
import { allChecks, suites } from '../../suites/index.ts';

const serverIds = requirements.filter((r) => r.applies.some((a) => a === 'sandbox' || a === 'uat'));
const checked = new Set(allChecks.flatMap((c) => c.requirements));
const faulted = new Set(FAULTS.flatMap((f) => f.requirements));

describe('catalogue lint', () => {
  test('every check names known requirement ids', () => {
    const unknown = allChecks.flatMap((c) =>
      c.requirements.filter((id) => !isRequirementId(id)).map((id) => `${c.id}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });
  test('every fault names known requirement ids', () => {
    const unknown = FAULTS.flatMap((f) =>
      f.requirements.filter((id) => !isRequirementId(id)).map((id) => `${f.id}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });
  test('every sandbox/UAT/all requirement has a check', () => {
    expect(serverIds.filter((r) => !checked.has(r.id)).map((r) => r.id)).toEqual([]);
  });
  test('every MUST sandbox/UAT/all requirement has a fault', () => {
    expect(serverIds.filter((r) => r.level === 'MUST' && !faulted.has(r.id)).map((r) => r.id)).toEqual([]);
  });
  test('check ids and fault ids are unique, suites are named after their folder', () => {
    const ids = allChecks.map((c) => c.id);
    expect(ids).toHaveLength(new Set(ids).size);
    const fids = FAULTS.map((f) => f.id);
    expect(fids).toHaveLength(new Set(fids).size);
    for (const s of suites) for (const c of s.checks) expect(c.id.startsWith(`${s.name}.`)).toBe(true);
  });
  test('docs/requirements.md is current (run `npm run docs:requirements` when this fails)', () => {
    const page = readFileSync(join(ROOT, 'docs/requirements.md'), 'utf8');
    const stale = page !== currentRequirementsPage(ROOT);
    expect(stale, 'docs/requirements.md is stale: run `npm run docs:requirements`').toBe(false);
  });
});
