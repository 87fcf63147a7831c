/**
 * Probes of the faults of the invalid-documents property (docs/property-invalid-documents.md) for
 * test/mock/faults.test.ts, which gathers every test/mock/probes-*.ts: each is true when the faulty behaviour is seen.
 */
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';

/** a probe reads only the mock's profile (so it fits probe-kit's `Probe`, whose X has more) */
type Probe = (x: { p: Profile }) => Promise<boolean>;

/** the status of a validate of the valid body with `amount` replaced */
async function validateAmount(x: { p: Profile }, amount: unknown): Promise<number> {
  const token = (await codeFlow(x.p)).access_token as string;
  const body = transferBody(x.p, 0, { amount });
  return (await api(x.p, { method: 'POST', path: '/transfers/validate', token, body })).status;
}

export const PROBES: Record<string, Probe> = {
  'amount-string-500': async (x) => (await validateAmount(x, '150.00')) === 500,
  'amount-number-accepted': async (x) => (await validateAmount(x, { value: 150.5, currency: 'AED' })) === 200,
};
