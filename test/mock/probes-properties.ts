/**
 * Probes of the mock faults that exist for the property checks (docs/properties.md; the invalid documents' are in
 * probes-docprop.ts), gathered by test/mock/faults.test.ts with every test/mock/probes-*.ts: each is true when the
 * faulty behaviour is seen. A probe reads only the mock's profile.
 */
import { mask } from '../../lib/mask/index.ts';
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';
import { validateShape } from './tamper-probe.ts';

type Probe = (x: { p: Profile }) => Promise<boolean>;

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
function headChanged(id: string): string {
  const m = Array.from(mask(id));
  m[0] = String((Number(m[0]) + 1) % 10);
  return m.join('');
}

export const PROBES: Record<string, Probe> = {
  // the property checks (docs/properties.md)
  'mask-last-three-only': async ({ p }) => (await validateWith(p, headChanged(p.customers[0]!.accountId))) === 200,
  // the tampered-envelope property: two recipients, the bank's second, the tag flipped
  'jose-tag-unchecked-other-recipient': async ({ p }) => (await validateShape(p, 'two-recipients', true)) === 200,
};
