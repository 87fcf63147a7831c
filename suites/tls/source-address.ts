/**
 * The source-address allow-list (TLS-06): the same call from an address outside the list is refused, while from
 * the allowed address it is answered. It goes through ctx.api with a copy of the registered identity bound to
 * another source address.
 */
import { CheckFailed, Inconclusive, NotRun, statusFailure } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { TransportError, isServerCertificateError, type Identity } from '../../lib/http/types.ts';
import { proxyName } from '../../lib/tls/tunnel.ts';

/** transport errors that mean "the address or route is not usable here", not "the server refused" */
const LOCAL_ERRORS = new Set(['EADDRNOTAVAIL', 'EINVAL', 'EACCES', 'ENETUNREACH', 'EHOSTUNREACH']);
/** transport errors where no connection was made, or nothing came back in time: not a refusal by the target */
const NO_CONNECTION = /TIMEOUT|ETIMEDOUT|ECONNREFUSED|EAI_|ENOTFOUND|ABORT/i;

export async function expectOtherSourceRefused(ctx: CheckContext): Promise<void> {
  const other = ctx.profile.tls?.disallowedSourceAddress;
  if (!other)
    throw new NotRun(
      'the profile names no tls.disallowedSourceAddress (a local address that is not on the allow-list)',
    );
  // through a proxy (--proxy) the target sees the proxy's address, whatever source the harness binds
  const via = ctx.proxy;
  if (via)
    throw new Inconclusive(
      `not judged through ${proxyName(via.url)}: the target sees the proxy's source address, not the harness's`,
    );
  const alice = ctx.customer({ workflow: false });
  const token = await ctx.tokens.codeToken(alice);
  const registered = ctx.identity('code');
  if (!registered) throw new Inconclusive('no mutual-TLS identity for the code client');
  const id = ctx.newTransferId();
  const ok = await ctx.api({ op: 'get', transferId: id, token, label: 'get from the allowed source (control)' });
  if (ok.status === 401 || ok.status === 403 || ok.status === 429) {
    throw new Inconclusive(`control: the call from the allowed source address was refused (HTTP ${ok.status})`);
  }
  const elsewhere: Identity = { ...registered, name: `${registered.name}-from-${other}`, localAddress: other };
  let status: number;
  try {
    status = (await ctx.api({ op: 'get', transferId: id, token, identity: elsewhere, label: `get from ${other}` }))
      .status;
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    if (LOCAL_ERRORS.has(e.code)) throw new Inconclusive(`cannot send from ${other} on this machine: ${e.code}`);
    if (isServerCertificateError(e)) throw e; // the runner makes it inconclusive (TLS-05's rule)
    // a connection the target reset or closed after accepting it is its refusal; a connect that never
    // completed (timeout, refused, no route) may be this network's doing: no evidence without a positive
    // control from that address
    if (NO_CONNECTION.test(e.code))
      throw new Inconclusive(
        `from ${other}: no connection (${e.code}); nothing shows the target was reachable from that address`,
      );
    ctx.note(`from ${other}: the connection was closed without an HTTP answer (${e.code}): refused`);
    return;
  }
  const refused = ctx.profile.contract.statuses.sourceRefused;
  ctx.note(`from ${other}: HTTP ${status}; from the allowed source: HTTP ${ok.status}`);
  if (!refused.includes(status))
    throw CheckFailed.of(
      statusFailure(status, refused, `a call from ${other} (not allow-listed) was answered HTTP ${status}`, {
        expected: `HTTP ${refused.join(' or ')}, or the connection closed`,
      }),
    );
}
