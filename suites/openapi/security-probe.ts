/**
 * OAS-07's own exchanges (docs/openapi.md): the run's calls carry every credential, so whether the bank holds the
 * `security` its document gives the get operation shows only on a call without one. Next to a control (a transfer
 * created and read with every credential, answered 2xx), the same read is sent once without the client certificate
 * where the document requires mutualTLS and the run presents certificates (UAT), and once without the Authorization
 * header where every alternative requires a token. Each answer is judged by the session's judge like any other; a
 * refusal at the handshake is no answer (nothing to judge).
 */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { TransportError } from '../../lib/http/types.ts';
import type { DocOperation } from '../../lib/openapi/types.ts';

const TOKEN_TYPES = new Set(['oauth2', 'openIdConnect', 'http']);

/** every alternative of the operation's security names a scheme of these types */
const everyNeeds = (op: DocOperation, types: (t: string) => boolean): boolean =>
  (op.security?.alternatives.length ?? 0) > 0 &&
  op.security!.alternatives.every((alt) => alt.some((s) => types(s.type)));

/** sends the probes the get operation's documented security calls for; what they show the judge keeps */
export async function probeSecurity(ctx: CheckContext): Promise<void> {
  const get = ctx.openapi?.byKey.get;
  if (!get?.security) {
    ctx.note('the get operation documents no security: nothing to probe');
    return;
  }
  const none = ctx.identity('none');
  const withoutCert = none !== undefined && everyNeeds(get, (t) => t === 'mutualTLS');
  const withoutToken = everyNeeds(get, (t) => TOKEN_TYPES.has(t));
  if (!withoutCert && !withoutToken) return;
  const customer = ctx.customer({ workflow: false });
  const token = await ctx.tokens.codeToken(customer);
  const transferId = ctx.newTransferId();
  await ctx.api({
    op: 'create',
    transferId,
    token,
    body: ctx.transferBody(customer),
    label: 'control: create (OAS-07)',
  });
  const control = await ctx.api({ op: 'get', transferId, token, label: 'control: get with every credential (OAS-07)' });
  if (control.status < 200 || control.status > 299)
    throw new Inconclusive(
      `control: the get with every credential answered ${control.status}, so a call without one shows nothing`,
    );
  const send = async (what: string, call: Parameters<CheckContext['api']>[0]): Promise<void> => {
    try {
      const r = await ctx.api(call);
      ctx.note(`get ${what}: HTTP ${r.status}`);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      ctx.note(`get ${what}: no answer (${e.message.split('\n')[0]})`);
    }
  };
  if (withoutCert)
    await send('without a client certificate', {
      op: 'get',
      transferId,
      token,
      identity: none,
      label: 'get without a client certificate (OAS-07)',
    });
  if (withoutToken)
    await send('without an Authorization header', {
      op: 'get',
      transferId,
      token: null,
      label: 'get without an Authorization header (OAS-07)',
    });
}
