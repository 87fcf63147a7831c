/**
 * The mock faults of the invalid-documents property (docs/property-invalid-documents.md): each changes the mock's
 * answer to the input the property generates, and leaves alone the inputs of the fixed-input ERR checks
 * (suites/errors/checks.ts), which therefore miss it (the fault matrix shows the property catching it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';
import { PROBES } from './probes-docprop.ts';

let mock: MockBank;
let p: Profile;
let token: string;

beforeAll(async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki() });
  p = mock.profile('faults-docprop');
  token = (await codeFlow(p)).access_token as string;
}, 60_000);
afterAll(() => mock.close());

/** the status of a validate with the valid body changed by `over` (amount members merged into the amount) */
async function validate(over: Record<string, unknown>, amount?: Record<string, unknown>): Promise<number> {
  const base = transferBody(p, 0, over);
  const body = amount ? { ...base, amount: { ...(base.amount as object), ...amount } } : base;
  return (await api(p, { method: 'POST', path: '/transfers/validate', token, body })).status;
}

/** the statuses of the inputs a fault is about, and of the fixed checks' own inputs, with the fault on and off */
async function statuses(fault: string, probe: () => Promise<number[]>): Promise<{ off: number[]; on: number[] }> {
  mock.faults.set([]);
  const off = await probe();
  mock.faults.set([fault]);
  try {
    return { off, on: await probe() };
  } finally {
    mock.faults.set([]);
  }
}

describe('faults of property 2 (invalid documents)', () => {
  it('amount-string-500: an amount sent flat as a number string crashes; the fixed inputs are still refused', async () => {
    const r = await statuses('amount-string-500', async () => [
      await validate({ amount: '150.00' }),
      await validate({ amount: '-1' }),
      // the fixed checks' inputs: ERR-02's invalid amount ("ten"), ERR-03's values
      await validate({ amount: 'ten' }),
      await validate({}, { value: '0.00' }),
      await validate({}, { currency: 'XYZ' }),
    ]);
    expect(r).toEqual({ off: [422, 422, 422, 422, 422], on: [500, 500, 422, 422, 422] });
  });

  it('amount-number-accepted: amount.value as a JSON number is accepted; the fixed inputs are still refused', async () => {
    const r = await statuses('amount-number-accepted', async () => [
      await validate({}, { value: 150.5 }),
      await validate({}, { value: 0 }),
      await validate({}, { value: '10.005' }),
      await validate({}, { value: '-10.00' }),
    ]);
    expect(r).toEqual({ off: [422, 422, 422, 422], on: [200, 422, 422, 422] });
  });

  it('the probes (probes-docprop.ts) see each fault only when it is on', async () => {
    const seen: Record<string, [boolean, boolean]> = {};
    for (const [id, probe] of Object.entries(PROBES)) {
      const x = { p };
      const r = await statuses(id, async () => [Number(await probe(x))]);
      seen[id] = [r.off[0] === 1, r.on[0] === 1];
    }
    expect(seen).toEqual({ 'amount-string-500': [false, true], 'amount-number-accepted': [false, true] });
  });
});
