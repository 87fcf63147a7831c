/**
 * Probes of the faults at the rules' edges (docs/properties.md "Classes per rule") for test/mock/faults.test.ts,
 * which gathers every test/mock/probes-*.ts: each is true when the faulty behaviour is seen.
 */
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';

type Probe = (x: { p: Profile }) => Promise<boolean>;

/** the status of a validate of the valid body changed by `over` (`value`: the amount's) */
async function validate(x: { p: Profile }, over: { value?: string; remarks?: string }): Promise<number> {
  const token = (await codeFlow(x.p)).access_token as string;
  const base = transferBody(x.p, 0, over.remarks === undefined ? {} : { remarks: over.remarks });
  const body = over.value === undefined ? base : { ...base, amount: { ...(base.amount as object), value: over.value } };
  return (await api(x.p, { method: 'POST', path: '/transfers/validate', token, body })).status;
}

export const PROBES: Record<string, Probe> = {
  'amount-zero-spellings-accepted': async (x) => (await validate(x, { value: '00.00' })) === 200,
  'amount-negative-fraction-accepted': async (x) => (await validate(x, { value: '-0.01' })) === 200,
  'amount-fraction-truncated': async (x) => (await validate(x, { value: '0.01' })) === 422,
  'remarks-emoji-500': async (x) => (await validate(x, { remarks: 'gift \u{1F381}' })) === 500,
  'remarks-longest-500': async (x) => (await validate(x, { remarks: 'r'.repeat(140) })) === 500,
  // 71 Arabic letters, 142 UTF-8 bytes in 71 characters: validate accepts it, the create crashes storing it
  'remarks-create-500': async (x) => {
    const remarks = '\u0627'.repeat(71);
    if ((await validate(x, { remarks })) !== 200) return false;
    const token = (await codeFlow(x.p)).access_token as string;
    const body = transferBody(x.p, 0, { remarks });
    return (await api(x.p, { method: 'PUT', path: `/transfers/rc-${Date.now()}`, token, body })).status === 500;
  },
};
