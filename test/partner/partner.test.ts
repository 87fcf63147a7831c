/**
 * Partner certification end to end: the reference client passes every scenario (UAT code flow, UAT client
 * credentials, sandbox), so does the shell client (sandbox); a client that hangs or floods is stopped with a
 * reason; the report names the partner and carries no secret. The client fault catalogue: faults.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../lib/partner/report.ts';
import { scenariosFor } from '../../lib/partner/scenarios.ts';
import { toHtml } from '../../lib/report/html.ts';
import { ROOT } from '../../lib/root.ts';
import { certify, failing, useReferenceClient } from './helpers.ts';

const fixture = useReferenceClient();

describe('the reference client', () => {
  it('passes every scenario in UAT with the code flow (exit 0)', async () => {
    const { results, verdicts } = await certify(fixture.files(), fixture.client());
    expect(results.profiles[0]!.errors).toEqual([]);
    expect(verdicts).toEqual(Object.fromEntries(Object.keys(verdicts).map((id) => [id, 'pass'])));
    expect(Object.keys(verdicts).sort()).toEqual(
      [
        'CLI-01',
        'CLI-02',
        'CLI-03',
        'CLI-04',
        'CLI-05',
        'CLI-06',
        'CLI-07',
        'CLI-08',
        'CLI-09',
        'JOSE-05',
        'MASK-05',
        'TLS-07',
        'TLS-08',
        'TOK-18',
      ].sort(),
    );
    expect(exitCodeOf(results)).toBe(0);
    // token-expiry puts the newest-refresh-token rule to the test: a second refresh, after a rotation
    const cli05 = results.profiles[0]!.results.find((c) => c.requirements[0] === 'CLI-05')!;
    expect(cli05.reason).toMatch(/^1 refresh\(es\) with the rotated \(newest\) refresh token; the refused refresh/);
    // the report names the partner's certificate, its client id and every scenario with the client's exit code
    const partner = results.profiles[0]!.assumptions.partner as Record<string, unknown>;
    expect(partner).toMatchObject({
      certificateSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      certificateCn: 'acme-pay-001',
      clientId: expect.stringMatching(/^partner-[0-9a-f]{8}$/),
      flow: 'code',
    });
    expect(Object.keys(partner.scenarios as object)).toEqual(scenariosFor('uat', 'code').map((x) => x.id));
    // every variant of the negative catalogue judged on its own, and passed
    const variants = results.profiles[0]!.results.filter((c) => c.checkId.startsWith('partner.cli-02.'));
    const spoiled = (requirement: string) =>
      scenariosFor('uat', 'code')
        .filter((x) => x.spoil?.requirement === requirement)
        .map((x) => x.id);
    expect(variants.map((c) => c.checkId.slice('partner.cli-02.'.length))).toEqual(spoiled('CLI-02'));
    expect(variants.every((c) => c.verdict === 'pass')).toBe(true);
    // the serializations (a genuine answer, compact or flattened): JOSE-05, a SHOULD, one row per variant too
    const forms = results.profiles[0]!.results.filter((c) => c.checkId.startsWith('partner.jose-05.'));
    expect(forms.map((c) => c.checkId.slice('partner.jose-05.'.length))).toEqual(spoiled('JOSE-05'));
    expect(forms.map((c) => c.checkId.slice('partner.jose-05.'.length))).toEqual([
      'validate-compact-jwe',
      'validate-compact-jws',
      'validate-flattened-jwe',
      'validate-flattened-jws',
    ]);
    expect(forms.map((c) => [c.level, c.verdict])).toEqual(forms.map(() => ['SHOULD', 'pass']));
    // a genuine answer of another call (replayed): answer binding, CLI-09, a SHOULD, one row per variant
    const bound = results.profiles[0]!.results.filter((c) => c.checkId.startsWith('partner.cli-09.'));
    expect(bound.map((c) => c.checkId.slice('partner.cli-09.'.length))).toEqual(spoiled('CLI-09'));
    expect(spoiled('CLI-09')).toEqual(['validate-replayed', 'create-replayed']);
    expect(bound.map((c) => [c.level, c.verdict])).toEqual(bound.map(() => ['SHOULD', 'pass']));
    // the HTML report is a partner report: its title, the client-side rules only, one row per variant
    const page = toHtml(results, { resultsSha256: '0'.repeat(64) });
    expect(page).toMatch(/<title>PASS — partner client certification — partner-acme-pay-001<\/title>/);
    expect(page).toContain('Partner client certification report');
    const rows = [...page.matchAll(/<th scope="row" class="rid">([^<]+)<\/th>/g)].map((m) => m[1]);
    expect(rows).toHaveLength(results.profiles[0]!.results.length);
    expect(rows).not.toContain('XFER-01');
    expect(rows.filter((id) => id === 'CLI-02')).toHaveLength(variants.length);
    expect(rows.filter((id) => id === 'JOSE-05')).toHaveLength(4);
    expect(rows.filter((id) => id === 'CLI-09')).toHaveLength(2);
    // the titles as the page shows them (its text escapes `'`)
    expect(page).toContain(
      'validate&#39;s answer: a genuine, correctly signed answer, its JWE in the compact serialization',
    );
    expect(page).toContain(
      'validate&#39;s answer: signed with an attacker&#39;s key that the JWS header offers as `jwk`',
    );
    expect((partner.scenarios as Record<string, { exitCode: number }>)['validate-plain']!.exitCode).not.toBe(0);
    const text = JSON.stringify(results);
    // the report carries neither the client secret nor a bearer token nor a clear account id
    expect(text).not.toMatch(/partnerCS_/);
    expect(text).not.toMatch(/Bearer [A-Za-z0-9_-]{16,}/);
  }, 240_000);

  it('passes in UAT with client credentials (code-flow rules not applicable)', async () => {
    const { results, verdicts } = await certify(fixture.files(), fixture.client(), {
      flow: 'client-credentials',
      // the token answer's negative catalogue (client credentials only), beside the normal task
      scenarios: [
        'normal',
        'validate-unsigned',
        'token-expiry',
        ...scenariosFor('uat', 'client-credentials')
          .filter((x) => x.spoil?.answer === 'cc-token')
          .map((x) => x.id),
      ],
    });
    expect(results.profiles[0]!.errors).toEqual([]);
    expect(failing(verdicts)).toEqual([]);
    expect(verdicts).toMatchObject({
      'CLI-01': 'pass',
      'CLI-03': 'pass',
      'CLI-04': 'not-applicable',
      'CLI-05': 'not-applicable',
    });
    const tokenVariants = results.profiles[0]!.results.filter((c) => c.checkId.startsWith('partner.cli-02.cc-token-'));
    expect(tokenVariants).toHaveLength(10);
    expect(tokenVariants.filter((c) => c.verdict !== 'pass')).toEqual([]);
    // scenarios left out: a partial certification is INCOMPLETE, never a pass
    expect(exitCodeOf(results)).toBe(5);
  }, 240_000);

  it('passes in the sandbox (TLS and sealing rules not applicable)', async () => {
    const { results, verdicts } = await certify(fixture.files(), fixture.client(), {
      mode: 'sandbox',
      scenarios: ['normal', 'create-answer-lost', 'token-expiry', 'state-mismatch'],
    });
    expect(results.profiles[0]!.errors).toEqual([]);
    expect(failing(verdicts)).toEqual([]);
    expect(verdicts).toMatchObject({
      'CLI-01': 'not-applicable',
      'TLS-08': 'not-applicable',
      'CLI-08': 'pass',
      'CLI-04': 'pass',
    });
    expect(exitCodeOf(results)).toBe(5);
  }, 240_000);

  it('a client in another language (bash + curl) is certified in the sandbox with client credentials', async () => {
    const { results, verdicts } = await certify(
      fixture.files(),
      ['bash', join(ROOT, 'examples', 'partner-client-sh', 'client.sh')],
      {
        mode: 'sandbox',
        flow: 'client-credentials',
        scenarios: ['normal', 'create-answer-lost'],
      },
    );
    expect(results.profiles[0]!.errors).toEqual([]);
    expect(failing(verdicts)).toEqual([]);
    expect(verdicts).toMatchObject({ 'CLI-03': 'pass', 'CLI-08': 'pass', 'MASK-05': 'pass', 'TOK-18': 'pass' });
  }, 240_000);

  it('a client that floods the bank is stopped, bounded in calls', async () => {
    const flood = 'const u = process.env.BANK_BASE_URL + "/transfers/x"; for (;;) await fetch(u).catch(() => {});';
    const { results } = await certify(fixture.files(), [process.execPath, '--input-type=module', '-e', flood], {
      mode: 'sandbox',
      scenarios: ['normal'],
    });
    const errors = results.profiles[0]!.errors.join('\n');
    expect(errors).toMatch(/flooded the bank \(more than 300 requests in one scenario\)/);
    const normalTask = results.profiles[0]!.prerequisites?.find((q) => q.id === 'partner-normal-task');
    expect(normalTask?.verdict).toBe('fail');
    // why: its last answers
    expect(normalTask?.reason).toMatch(
      /did not complete the task .*its last answers: #\d+ GET get → 401 \(X-Gateway-Client-Id is missing\)/,
    );
    expect(exitCodeOf(results)).toBe(1);
  }, 240_000);

  it('a client that hangs is stopped, the run fails with the reason', async () => {
    const { results, verdicts } = await certify(
      fixture.files(),
      [process.execPath, '-e', 'setTimeout(() => {}, 60000)'],
      {
        scenarios: ['normal'],
        timeoutMs: 1_000,
      },
    );
    expect(results.profiles[0]!.errors.join('\n')).toMatch(/did not finish within 1 s/);
    expect(verdicts['TOK-18']).toBe('inconclusive');
    expect(results.profiles[0]!.prerequisites?.[0]?.reason).toMatch(/no request reached the bank/);
    const normal = (
      results.profiles[0]!.assumptions.partner as { scenarios: Record<string, { didNotComplete?: string }> }
    ).scenarios.normal!;
    expect(normal.didNotComplete).toBe('its last answers: no request reached the bank');
    expect(exitCodeOf(results)).toBe(1);
  }, 30_000);
});
