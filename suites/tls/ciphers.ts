/**
 * Weak cipher families (TLS-09): TLS 1.2 offers of only NULL, EXPORT, RC4, 3DES or anonymous suites are refused,
 * next to the TLS 1.2 positive control with the registered certificate. Each family is a case of its own
 * (evidence.cases: how it was offered and what the server answered); a family that could not be offered leaves the
 * check inconclusive, naming it: the verdict never claims more than was tested.
 */
import { CheckFailed, Inconclusive } from '../../lib/engine/check.ts';
import { failure, type Failure } from '../../lib/engine/failure.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { CaseOutcome } from '../../lib/engine/results.ts';
import { probeWeakCiphers, type WeakCipherResult } from '../../lib/tls/probe.ts';
import { codeCert, endpointOf, expectTls12, probe } from './common.ts';

const HOW: Record<WeakCipherResult['method'], string> = {
  handshake: 'a full TLS 1.2 handshake offering only this family',
  'client-hello': "a hand-built TLS 1.2 ClientHello offering only this family (the server's ServerHello answers)",
  none: 'not offered',
};

/** each family's case, and the families accepted and not verified */
export function weakCipherCases(results: readonly WeakCipherResult[]): {
  cases: CaseOutcome[];
  accepted: string[];
  unverified: string[];
} {
  const cases = results.map((r): CaseOutcome => {
    const detail = `${HOW[r.method]}${r.note ? `: ${r.note}` : ''}`;
    if (!r.offered) return { id: r.family, verdict: 'inconclusive', outcome: 'not verified', detail };
    if (r.accepted) return { id: r.family, verdict: 'fail', outcome: `accepted (${r.cipher ?? '?'})`, detail };
    return { id: r.family, verdict: 'pass', outcome: 'refused', detail };
  });
  return {
    cases,
    accepted: results.filter((r) => r.offered && r.accepted).map((r) => `${r.family} (${r.cipher ?? '?'})`),
    unverified: results.filter((r) => !r.offered).map((r) => r.family),
  };
}

/** a weak cipher family the target accepted, as a record */
function cipherAccepted(r: WeakCipherResult): Failure {
  const data = { case: r.family, caseTitle: `cipher family ${r.family}`, outcome: 'accepted' };
  return failure('negative-accepted', `${r.family} (${r.cipher ?? '?'})`, data, {
    title: 'weak cipher suite accepted',
    expected: 'handshake refused',
    observed: `accepted (${r.cipher ?? '?'})`,
  });
}

export async function expectWeakCiphersRefused(ctx: CheckContext): Promise<void> {
  const ep = endpointOf(ctx);
  await expectTls12(ctx, ep, true);
  const results = await probe(ctx, 'weak cipher probe', () => probeWeakCiphers({ ...ep, ...codeCert(ctx) }));
  const { cases, accepted, unverified } = weakCipherCases(results);
  for (const c of cases) {
    ctx.recordCase(c);
    ctx.tls({
      label: `cipher family ${c.id}`,
      cipher: results.find((r) => r.family === c.id)?.cipher ?? null,
      outcome: c.outcome,
    });
  }
  if (accepted.length)
    throw new CheckFailed(`weak TLS 1.2 cipher suites were accepted: ${accepted.join(', ')}`, {
      expected: 'all weak families refused',
      observed: accepted,
      failures: results.filter((r) => r.offered && r.accepted).map(cipherAccepted),
    });
  const refused = cases.filter((c) => c.verdict === 'pass').map((c) => c.id);
  if (unverified.length)
    throw new Inconclusive(
      `not verified: ${unverified.join(', ')} (could not be offered from here; see evidence.cases)${refused.length ? `; refused: ${refused.join(', ')}` : ''}`,
    );
  ctx.note(`refused: ${refused.join(', ')} (evidence.cases says how each was offered)`);
}
