/**
 * The partner matrix: each fault of the reference client's catalogue (examples/partner-client/faults.ts) fails its
 * own requirement id and no other, the same proof the server side has with the mock's faults.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_FAULTS, type ClientFault } from '../../examples/partner-client/faults.ts';
import { exitCodeOf } from '../../lib/partner/report.ts';
import type { ScenarioId } from '../../lib/partner/types.ts';
import { certify, failing, useReferenceClient } from './helpers.ts';

const fixture = useReferenceClient('acme-pay-003');

/**
 * each fault with the scenarios that show it (normal where the id's judge needs its positive control); the run
 * fails on SHOULD ids too here (failOn should), so each fault makes the run fail
 */
const CASES: { fault: ClientFault; scenarios: ScenarioId[]; flow?: 'client-credentials'; mode?: 'sandbox' }[] = [
  { fault: 'plain-body', scenarios: ['normal'] },
  { fault: 'rs512', scenarios: ['normal'] },
  { fault: 'compact', scenarios: ['normal'] },
  { fault: 'no-verify', scenarios: ['normal', 'validate-bad-signature'] },
  { fault: 'no-client-id', scenarios: ['normal'] },
  { fault: 'no-msgid', scenarios: ['normal'], flow: 'client-credentials' },
  { fault: 'reuse-code', scenarios: ['normal'] },
  { fault: 'ignore-state', scenarios: ['state-mismatch'] },
  { fault: 'retry-refresh', scenarios: ['token-expiry'] },
  { fault: 'keep-first-refresh', scenarios: ['token-expiry'] },
  { fault: 'ignore-retry-after', scenarios: ['validate-429'] },
  { fault: 'tls11', scenarios: ['legacy-tls'] },
  { fault: 'new-transfer-id-on-retry', scenarios: ['create-answer-lost'] },
  // the sandbox: the clear id travels in a plain body, which the report must mask
  { fault: 'unmasked-id', scenarios: ['normal'], mode: 'sandbox' },
  // six leading characters kept instead of four (UAT: found in the opened sealed body)
  { fault: 'mask-six', scenarios: ['normal'] },
  { fault: 'token-per-call', scenarios: ['normal'] },
  { fault: 'tls-no-verify', scenarios: ['untrusted-server-cert'] },
];

describe('the client fault catalogue: each fault fails its id and no other', () => {
  it('every fault has a case', () => {
    expect(CASES.map((c) => c.fault).sort()).toEqual(Object.keys(CLIENT_FAULTS).sort());
  });
  for (const c of CASES) {
    const id = CLIENT_FAULTS[c.fault];
    it(`${c.fault} → ${id}`, async () => {
      const { results, verdicts, clearIds } = await certify(fixture.files(), fixture.client(), {
        scenarios: c.scenarios,
        clientEnv: { PARTNER_CLIENT_FAULTS: c.fault },
        ...(c.flow ? { flow: c.flow } : {}),
        ...(c.mode ? { mode: c.mode } : {}),
      });
      expect(failing(verdicts)).toEqual([id]);
      expect(exitCodeOf(results)).toBe(1);
      // whatever the client sent (a clear account id included), the report holds masks only
      const text = JSON.stringify(results);
      expect(clearIds.length).toBeGreaterThan(0);
      for (const clear of clearIds) expect(text).not.toContain(clear);
    }, 240_000);
  }
});
