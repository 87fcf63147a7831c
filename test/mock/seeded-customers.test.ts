/** the mock's customers are drawn from the run's data seed (MockOptions.seed): two runs of one --seed compare */
import { describe, expect, it } from 'vitest';
import { startMockBank, type MockOptions } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';

async function customersOf(extra: Partial<MockOptions>): Promise<unknown[]> {
  const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), ...extra });
  try {
    return mock.profile('seeded').customers ?? [];
  } finally {
    await mock.close();
  }
}

describe('the mock seeded by the run', () => {
  it('the same seed draws the same customers; another seed, or none, other ones', async () => {
    const first = await customersOf({ seed: 42 });
    expect(first).toHaveLength(3);
    expect(await customersOf({ seed: 42 })).toEqual(first);
    const other = await customersOf({ seed: 43 });
    expect(other).not.toEqual(first);
    const unseeded = await customersOf({});
    expect(unseeded).not.toEqual(first);
    for (const c of [...first, ...other] as { uuid: string; accountId: string; emiratesId: string }[]) {
      expect(c.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(c.accountId).toMatch(/^[1-9]\d{12}(\d{6})?$/);
      expect(c.emiratesId).toMatch(/^784\d{12}$/);
    }
  });
});
