/**
 * QUOTA-04 on the run's timeline (docs/design.md): its window spends create only (filled, then the refused create);
 * the reads of what the refused create left come once the window is over, on a move the others make (the
 * maximum-age walk's), not on a move of its own inside its window that waited for the other windows in progress.
 * Alone (certify --only), its window's own move past it serves the reads: no second move.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

const ids = ['quota.refused-call-no-side-effect', 'tokens.refresh-max-age'];

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function run(only: readonly string[]): Promise<CheckResult[]> {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults: [] });
  const profile = FullProfile.parse(mock.profile('reads'));
  return runOn(
    profile,
    { ...defaultRunOptions, embedded: true },
    allChecks.filter((c) => only.includes(c.id)),
  );
}

const moves = (r: CheckResult): string[] =>
  r.evidence.exchanges.flatMap((e) => (e.label?.startsWith('test clock +') ? [e.label] : []));
const labels = (r: CheckResult): string[] => r.evidence.exchanges.map((e) => e.label ?? '');

describe('QUOTA-04: the reads once its window is over', () => {
  test(
    'beside the maximum-age walk: no move of its own, the reads after one of the walk’s',
    { timeout: 60_000 },
    async () => {
      const results = await run(ids);
      expect(results.map((r) => [r.checkId, r.verdict, r.reason ?? '']).sort()).toEqual(
        [...ids].sort().map((id) => [id, 'pass', '']),
      );
      const q = results.find((r) => r.checkId === ids[0])!;
      expect(moves(q)).toEqual([]);
      expect(q.evidence.notes.join('\n')).toMatch(
        /the reads come \d{6,} s \(of the target's clock\) after the refused create/,
      );
      // the reads come after the refused create, and after a move of the walk made in between
      const walk = results.find((r) => r.checkId === ids[1])!;
      const at = (r: CheckResult, label: string): number =>
        Date.parse(r.evidence.exchanges.find((e) => e.label === label)!.startedAt);
      const refused = at(q, 'create refused for the quota');
      const read = at(q, 'get the transfer refused for the quota');
      const between = walk.evidence.exchanges.filter(
        (e) =>
          e.label?.startsWith('test clock +') && Date.parse(e.startedAt) > refused && Date.parse(e.startedAt) < read,
      );
      expect(between.length).toBeGreaterThan(0);
      expect(labels(q)).toContain('get the transfer created in the window (control)');
    },
  );

  test('alone: the window’s own moves before and after it, the reads on the second', { timeout: 60_000 }, async () => {
    const [q] = await run([ids[0]!]);
    expect([q!.verdict, q!.reason ?? '']).toEqual(['pass', '']);
    expect(moves(q!)).toEqual(['test clock +3601 s', 'test clock +3601 s']);
    expect(q!.evidence.notes.join('\n')).toMatch(
      /the reads come 3601 s \(of the target's clock\) after the refused create/,
    );
  });
});
