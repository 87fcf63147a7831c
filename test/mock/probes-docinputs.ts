/**
 * Probes of the faults of the document-inputs property (OAS-04, OAS-05; the mock's document says purpose_code and
 * remarks are strings of at most 140 characters) for test/mock/faults.test.ts, which gathers every
 * test/mock/probes-*.ts: each is true when the faulty behaviour is seen.
 */
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';

type Probe = (x: { p: Profile }) => Promise<boolean>;

/** the status of a validate of the valid body with `remarks` of `n` characters */
async function validateRemarks(x: { p: Profile }, n: number): Promise<number> {
  const token = (await codeFlow(x.p)).access_token as string;
  const body = transferBody(x.p, 0, { remarks: 'r'.repeat(n) });
  return (await api(x.p, { method: 'POST', path: '/transfers/validate', token, body })).status;
}

export const PROBES: Record<string, Probe> = {
  'free-text-length-unchecked': async (x) => (await validateRemarks(x, 141)) === 200,
  'remarks-short-limit': async (x) => (await validateRemarks(x, 140)) === 422,
};
