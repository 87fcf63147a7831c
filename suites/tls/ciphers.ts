/**
 * Weak cipher families (TLS-09): TLS 1.2 handshakes offering only NULL, EXPORT, RC4, 3DES or anonymous suites
 * are refused, next to the TLS 1.2 positive control with the registered certificate.
 */
import { Inconclusive, ensure } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/context.ts';
import { probeWeakCiphers } from '../../lib/tls/probe.ts';
import { codeCert, endpointOf, expectTls12, probe } from './common.ts';

export async function expectWeakCiphersRefused(ctx: CheckContext): Promise<void> {
  const ep = endpointOf(ctx);
  await expectTls12(ctx, ep, true);
  const results = await probe('weak cipher probe', () => probeWeakCiphers({ ...ep, ...codeCert(ctx) }));
  const accepted: string[] = [];
  for (const r of results) {
    ctx.note(
      `${r.family}: ${!r.offered ? `not checked (${r.note ?? 'this client cannot offer it'})` : r.accepted ? `ACCEPTED (${r.cipher ?? '?'})` : `refused (${r.note ?? ''})`}`,
    );
    ctx.tls({
      label: `cipher family ${r.family}`,
      cipher: r.cipher ?? null,
      outcome: !r.offered ? 'not offered by this client' : r.accepted ? 'accepted' : 'refused',
    });
    if (r.offered && r.accepted) accepted.push(`${r.family} (${r.cipher ?? '?'})`);
  }
  ensure(
    accepted.length === 0,
    `weak TLS 1.2 cipher suites were accepted: ${accepted.join(', ')}`,
    'all weak families refused',
    accepted,
  );
  const offered = results.filter((r) => r.offered).map((r) => r.family);
  if (offered.length === 0)
    throw new Inconclusive('this client could offer none of the weak cipher families: nothing was checked');
  const unchecked = results.filter((r) => !r.offered).map((r) => r.family);
  if (unchecked.length)
    ctx.note(`checked: ${offered.join(', ')}; not checked (this client cannot offer them): ${unchecked.join(', ')}`);
}
