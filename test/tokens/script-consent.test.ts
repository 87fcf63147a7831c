/**
 * Script consent judges what auto consent judges (profiles/README.md, docs/authorization-server-product.md): the whole
 * catalogue runs against the embedded sandbox mock twice, once with auto consent and once with `script` consent driven
 * by a login script that answers like a person (test/fixtures/consent-person.mjs: it signs in as the customer the
 * harness names, approves the mock's consent page, prints the callback URL); every check gets the same verdict. The
 * script is told who consents and which check asked, and runs from the profile's folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import type { CheckDefinition } from '../../lib/engine/check.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { ROOT } from '../../lib/root.ts';
import { allChecks } from '../../suites/index.ts';

const SCRIPT = `"${process.execPath}" consent-person.mjs`;

let auto: PreparedTarget;
let scripted: PreparedTarget;
beforeAll(async () => {
  const embedded = (name: string) => EmbeddedProfile.parse({ name, environment: 'sandbox', embedded: {} });
  [auto, scripted] = await Promise.all([prepare(embedded('auto')), prepare(embedded('script'))]);
  // the scripted target shows a consent page, as a product does: only a person (the script) gets a code
  const admin = scripted.runtime.profile.target.clock!.replace(/\/clock$/, '');
  const res = await fetch(`${admin}/consent`, { method: 'PUT', body: JSON.stringify({ auto: false }) });
  if (res.status !== 200)
    throw new Error(`setup: the mock's consent page could not be switched on (HTTP ${res.status})`);
}, 60_000);
afterAll(async () => {
  await Promise.all([auto?.close(), scripted?.close()]);
});

function withScriptConsent(p: FullProfile, command = SCRIPT): FullProfile {
  return {
    ...p,
    target: {
      ...p.target,
      consent: { mode: 'script', command, timeoutSeconds: 30, workingDirectory: `${ROOT}/test/fixtures` },
    },
  };
}

async function verdicts(
  target: PreparedTarget,
  profile: FullProfile,
  checks: readonly CheckDefinition[] = allChecks,
): Promise<CheckResult[]> {
  const session = await createSession({ ...target.runtime, profile });
  try {
    return await runChecks(checks, session, target.runtime.options);
  } finally {
    await session.close();
  }
}

describe('script consent gives the verdicts of auto consent', () => {
  it('the whole catalogue, check by check', async () => {
    const [a, s] = await Promise.all([
      verdicts(auto, auto.runtime.profile),
      verdicts(scripted, withScriptConsent(scripted.runtime.profile)),
    ]);
    const byId = new Map(s.map((r) => [r.checkId, r]));
    const differ = a
      .filter((r) => byId.get(r.checkId)?.verdict !== r.verdict)
      .map(
        (r) =>
          `${r.checkId}: auto ${r.verdict} (${r.reason ?? ''}), script ${byId.get(r.checkId)?.verdict} (${byId.get(r.checkId)?.reason ?? ''})`,
      );
    expect(differ).toEqual([]);
    // the consents really went through the script: its callbacks are in the evidence
    const consents = s.flatMap((r) => r.evidence.notes).filter((n) => /consent #\d+ \(script\): callback/.test(n));
    expect(consents.length).toBeGreaterThan(5);
  }, 240_000);

  it('XFER-07 proves its second customer: a script that signs in as the first customer whoever is named makes it inconclusive, not a failure', async () => {
    const xfer07 = allChecks.filter((c) => c.requirements.includes('XFER-07'));
    expect(xfer07).toHaveLength(2);
    const careless = withScriptConsent(scripted.runtime.profile, `${SCRIPT} --always-first-customer`);
    const results = await verdicts(scripted, careless, xfer07);
    for (const r of results) {
      expect(r.verdict, `${r.checkId}: ${r.reason ?? ''}`).toBe('inconclusive');
      expect(r.reason).toMatch(/is not shown to be another customer's \(control\).*observed 200/);
    }
  }, 120_000);

  it('a hand-made /authorize request is judged in script consent: a server that does not require scope fails TOK-16', async () => {
    const faulty = await prepare(
      EmbeddedProfile.parse({
        name: 'no-scope',
        environment: 'sandbox',
        embedded: { faults: ['authorize-scope-optional'] },
      }),
    );
    try {
      const admin = faulty.runtime.profile.target.clock!.replace(/\/clock$/, '');
      await fetch(`${admin}/consent`, { method: 'PUT', body: JSON.stringify({ auto: false }) });
      const checks = allChecks.filter((c) => c.id === 'tokens.authorize-requires-client-and-scope');
      const [r] = await verdicts(faulty, withScriptConsent(faulty.runtime.profile), checks);
      expect(r!.verdict, r!.reason).toBe('fail');
      expect(r!.reason).toMatch(/without scope: accepted, a code was issued/);
    } finally {
      await faulty.close();
    }
  }, 120_000);
});
