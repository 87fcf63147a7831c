/**
 * Probes of the mock faults that exist for the property checks (issue 20), run by faults-properties.test.ts (not by
 * the long faults.test.ts, whose "every fault has a probe" counts these too). A probe is true when the faulty
 * behaviour is seen. Each helper of issue 20 adds its probes in its own block.
 */
import { mask } from '../../lib/mask/index.ts';
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';
import { PROBES as DOCPROP_PROBES } from './probes-docprop.ts';

export type PropertyProbe = (p: Profile) => Promise<boolean>;

/** validate as customer 0 with the account id given; the status */
async function validateWith(p: Profile, accountId: string): Promise<number> {
  const token = (await codeFlow(p, 0)).access_token as string;
  const r = await api(p, {
    method: 'POST',
    path: '/transfers/validate',
    token,
    body: transferBody(p, 0, { account_id: accountId }),
  });
  return r.status;
}

/** the first kept character changed, digit to digit: a well-formed mask of the right length, of no customer */
export function headChanged(id: string): string {
  const m = Array.from(mask(id));
  m[0] = String((Number(m[0]) + 1) % 10);
  return m.join('');
}

export const PROPERTY_FAULT_PROBES: Record<string, PropertyProbe> = {
  // issue 20: properties (props)
  'mask-last-three-only': async (p) => (await validateWith(p, headChanged(p.customers[0]!.accountId))) === 200,
  // issue 20: properties (docprop): the probes of probes-docprop.ts
  ...Object.fromEntries(Object.entries(DOCPROP_PROBES).map(([id, probe]) => [id, (p: Profile) => probe({ p })])),
};
