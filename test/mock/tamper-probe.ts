/**
 * The envelopes of the tampered-envelope property's fault (docs/properties.md, jose-tag-unchecked-other-recipient): a
 * validate call with an envelope of one shape (lib/negative/mutations.ts), its tag flipped or not, sent and answered
 * raw (the lenient mock's sealed answer has two recipients, which the helpers' opener refuses).
 */
import { attacker, type Keys } from '../../lib/negative/envelopes.ts';
import { applyMutation, sealedBase, type Mutation, type Shape } from '../../lib/negative/mutations.ts';
import { call, codeFlow, tlsOf, transferBody, type Profile } from './helpers.ts';

const TAG_FLIP: Mutation = { kind: 'flip', member: 'tag', at: 0, bit: 0 };

async function keysOf(p: Profile): Promise<Keys> {
  return {
    clientPrivateKey: p.clients.code.privateKey!,
    clientCertificate: p.clients.code.certificate!,
    bankPublicKey: p.bank!.apiPublicKey!,
    attacker: await attacker(),
  };
}

/** the status of validate for an envelope of `shape`, tag flipped or not */
export async function validateShape(p: Profile, shape: Shape, tampered: boolean): Promise<number> {
  const base = sealedBase(await keysOf(p), transferBody(p), shape);
  const envelope = tampered ? applyMutation(base, TAG_FLIP)!.envelope : base.jwe;
  const token = (await codeFlow(p)).access_token as string;
  const r = await call(`${p.target.baseUrl}/v1/transfers/validate`, {
    method: 'POST',
    headers: {
      'X-Gateway-Client-Id': p.clients.code.clientId,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(envelope),
    tls: tlsOf(p, p.clients.code),
  });
  return r.status;
}
