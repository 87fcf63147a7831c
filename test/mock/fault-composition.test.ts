/**
 * Faults switched on together: a JOSE relaxation (which opens requests with lenient-open.ts) must not take back what
 * a hardening fault allows. Each hardening fault's probe (probes-jose.ts: a hand-built
 * envelope, not the harness's cases) still sees its behaviour with a relaxation fault beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { advance } from './helpers.ts';
import type { X } from './probe-kit.ts';
import { PROBES } from './probes-jose.ts';

/** faults that allow what the clean opener refuses (HARD-01..03, HARD-07) */
const HARDENING = ['jose-accept-zip', 'jose-accept-several', 'jose-accept-duplicates', 'jose-accept-second-spelling'];
/** faults that relax one crypto rule each (the mock then opens requests with lenient-open.ts) */
const RELAXATIONS = [
  'jose-accept-any-enc',
  'jose-accept-compact',
  'jose-skip-signature-key-pin',
  'jose-accept-tampered',
  'jose-decrypt-any-known-key',
  'jose-tag-failure-500',
];

describe('a hardening fault beside a relaxation fault', () => {
  const x = {} as X;
  beforeAll(async () => {
    x.pki = await testPki();
    x.mock = await startMockBank({ mode: 'uat', pki: x.pki });
    x.p = x.mock.profile();
  });
  afterAll(async () => {
    await x.mock.close();
  });

  for (const hardening of HARDENING)
    it(`${hardening} is still seen beside each relaxation`, async () => {
      const hidden: string[] = [];
      for (const relaxation of RELAXATIONS) {
        x.mock.faults.set([hardening, relaxation]);
        await advance(x.p, 3601); // a fresh quota window
        if (!(await PROBES[hardening]!(x))) hidden.push(relaxation);
      }
      x.mock.faults.set([]);
      expect(hidden).toEqual([]);
    });
});
