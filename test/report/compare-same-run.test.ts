/** two runs of the embedded mock with one --seed are the same run for `compare --same`; a changed reason is not */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompare } from '../../lib/cli/compare.ts';
import { readResults, writeResults } from '../../lib/report/json.ts';
import { notVerified, runCertify } from '../cli/run-certify.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { sink } from '../fixtures/sink.ts';

const tmp = tempDirs('same-run-');

describe('compare --same on two runs', () => {
  it('the same profile, ids and seed twice: no difference; a reason changed afterwards: that one', async () => {
    const dir = tmp();
    // masked account ids (MASK-02), a client-set reference to ignore (XFER-06), an unknown client id (XFER-08)
    const args = (out: string) => [
      ...['--profile', 'profiles/mock-sandbox.json', '--only', 'MASK-02,XFER-06,XFER-08', '--seed', '7'],
      ...['--out', join(dir, out)],
    ];
    for (const out of ['a', 'b']) {
      const run = await runCertify(args(out));
      expect(run.code, notVerified(join(dir, out))).toBe(0);
    }
    const a = join(dir, 'a', 'results.json');
    const b = join(dir, 'b', 'results.json');
    const same = sink();
    expect(runCompare(['--same', a, b], same, sink()), same.text).toBe(0);

    const changed = readResults(b);
    const check = changed.profiles[0]!.results.find((r) => r.checkId === 'transfers.read-only-fields-ignored');
    check!.reason = 'another reason';
    const c = writeResults(changed, join(dir, 'b')).path;
    const diff = sink();
    expect(runCompare(['--same', a, c], diff, sink())).toBe(1);
    expect(diff.text).toContain(': 1\n  profiles[mock-sandbox].results[transfers.read-only-fields-ignored].reason\n');
  }, 120_000);
});
