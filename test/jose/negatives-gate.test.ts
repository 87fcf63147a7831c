/**
 * A JOSE negative case answered with the quota's status (the profile's `contract.quota.status`: a gateway's quota
 * may answer 503) is a gate's refusal, no evidence either way (inconclusive), not a failure of the rule; a 500 is
 * still an answer that is no refusal (a failure), and a 429 a throttle whatever the quota's status.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import { sendCase, type Sender } from '../../suites/jose/negatives.ts';

function ctxWith(quotaStatus: number): CheckContext {
  return {
    profile: { contract: { statuses: { joseRefused: [400] }, quota: { status: quotaStatus } } },
    note: () => undefined,
  } as unknown as CheckContext;
}

const answering = (status: number): Sender => ({
  token: 't',
  doc: {},
  validate: async () => ({ status, headers: {}, body: undefined, raw: { text: '' } }) as unknown as ApiResponse,
});

const c = { id: 'T4', title: 'one bit of the authentication tag flipped', body: () => ({}) };

describe("a negative case and the quota's status", () => {
  it.each([
    [503, 503, 'gate'],
    [503, 429, 'gate'],
    [503, 500, 'other'],
    [429, 429, 'gate'],
    [429, 503, 'other'],
    [503, 400, 'refused'],
  ])('quota answers %i, the case is answered %i: %s', async (quota, status, outcome) => {
    expect((await sendCase(ctxWith(quota), answering(status), c)).outcome).toBe(outcome);
  });
});
