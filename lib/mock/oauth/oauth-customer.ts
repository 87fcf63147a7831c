/** The customer an /authorize request names: UAT uuid + account_id encrypted to the bank key; sandbox clear selectors. */
import { compactDecrypt } from 'jose';
import { privateKeyFromPem } from '../../jose/keys.ts';
import type { MockContext } from '../context.ts';
import type { MockCustomer } from '../data.ts';
import { single } from './oauth-common.ts';

type Who = { ok: true; customer: MockCustomer } | { ok: false; error: string; description: string };

export async function identifyCustomer(ctx: MockContext, q: URLSearchParams): Promise<Who> {
  const uuid = single(q, 'uuid');
  const account = single(q, 'account_id');
  if (uuid === null || account === null)
    return { ok: false, error: 'invalid_request', description: 'uuid or account_id is repeated' };
  const denied: Who = { ok: false, error: 'access_denied', description: 'the customer could not be identified' };
  const alice = ctx.data.customers[0]!;

  if (ctx.mode === 'uat') {
    if (!uuid || !account) {
      if (ctx.faults.on('authorize-uuid-optional') && !uuid && !account) return { ok: true, customer: alice };
      return { ok: false, error: 'invalid_request', description: !uuid ? 'uuid is missing' : 'account_id is missing' };
    }
    let clear: string;
    try {
      const out = await compactDecrypt(account, privateKeyFromPem(ctx.pki.bankApi.privateKeyPem), {
        keyManagementAlgorithms: ['RSA-OAEP-256'],
        contentEncryptionAlgorithms: ['A256CBC-HS512'],
      });
      clear = new TextDecoder().decode(out.plaintext);
    } catch {
      return {
        ok: false,
        error: 'invalid_request',
        description: 'account_id must be encrypted to the bank key (JWE compact, RSA-OAEP-256, A256CBC-HS512)',
      };
    }
    const c = ctx.data.customers.find((x) => x.uuid === uuid);
    return c && c.accountId === clear ? { ok: true, customer: c } : denied;
  }
  // sandbox: optional clear selectors, alice by default
  let c: MockCustomer | undefined = alice;
  if (uuid) c = ctx.data.customers.find((x) => x.uuid === uuid);
  if (account) {
    const byAccount = ctx.data.customers.find((x) => x.accountId === account);
    if (uuid ? byAccount !== c : !byAccount) return denied;
    c = byAccount;
  }
  return c ? { ok: true, customer: c } : denied;
}
