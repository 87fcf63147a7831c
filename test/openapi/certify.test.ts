/**
 * The OpenAPI document in certify runs of the embedded mocks (docs/openapi.md): with the mock's own document nothing
 * drifts and results.json carries the coverage table; each shape-changing mock fault fails its OAS id with the
 * exchange shown; a drifting document (test/fixtures/openapi/drift.yaml) gives the findings and coverage it should.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { certify } from '../../lib/engine/run/certify.ts';
import type { ProfileRun } from '../../lib/engine/results.ts';
import { RunResultsSchema } from '../../lib/report/results-schema.ts';
import { allChecks } from '../../suites/index.ts';
import { certifyBoth } from '../fixtures/certify-both.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = `file:${join(ROOT, 'docs', 'openapi', 'transfers.yaml')}`;
const DRIFT = `file:${join(ROOT, 'test', 'fixtures', 'openapi', 'drift.yaml')}`;
const tmp = tempDirs('openapi-certify-');

/** certify of embedded profiles (name → environment, document, faults), only the suites named */
async function run(
  profiles: { name: string; env: 'sandbox' | 'uat'; openapi: string; faults?: string[] }[],
  suites: string[],
): Promise<ProfileRun[]> {
  const dir = tmp();
  const paths = profiles.map((p) => {
    const path = join(dir, `${p.name}.json`);
    const embedded = { openapi: p.openapi, faults: p.faults ?? [] };
    writeFileSync(path, JSON.stringify({ name: p.name, environment: p.env, embedded }));
    return path;
  });
  const outcome = await certify({
    checks: allChecks,
    profiles: paths,
    suites,
    only: [],
    long: false,
    destructive: false,
    failOn: 'must',
  });
  expect(outcome.configErrors ?? []).toEqual([]);
  RunResultsSchema.parse(outcome.results);
  return outcome.results!.profiles;
}

const oas = (p: ProfileRun, id: string) => p.results.find((r) => r.requirements.includes(id))!;

describe('certify with the OpenAPI document', { timeout: 600_000 }, () => {
  it('the mocks with their own document: no OAS finding, every operation called, the coverage table written', async () => {
    const { runs } = await certifyBoth(tmp(), (env) => ({ name: `oas-${env}`, embedded: { openapi: DOC } }));
    for (const p of runs) {
      for (const id of ['OAS-01', 'OAS-02', 'OAS-03', 'OAS-06', 'OAS-07', 'OAS-08'])
        expect(oas(p, id).verdict, `${p.profile} ${id}`).toBe('pass');
      expect(p.openapi?.coverage.notCalled).toEqual([]);
      const rows = p.openapi!.coverage.rows;
      expect(rows.filter((r) => r.state === 'invalid')).toEqual([]);
      for (const s of ['200', '422'])
        expect(rows.find((r) => r.key === 'validate' && r.status === s)?.state).toBe('valid');
      expect(rows.find((r) => r.key === 'get' && r.status === '200')?.state).toBe('valid');
    }
  });

  it('shape-changing faults fail OAS-01, OAS-02 and OAS-03 (sealed payload in UAT) with the exchange shown', async () => {
    const runs = await run(
      [
        { name: 'sbx', env: 'sandbox', openapi: DOC, faults: ['unknown-transfer-410', 'get-text-plain'] },
        { name: 'uat', env: 'uat', openapi: DOC, faults: ['get-member-renamed'] },
      ],
      ['transfers', 'openapi'],
    );
    const [sbx, uat] = runs as [ProfileRun, ProfileRun];
    const s1 = oas(sbx, 'OAS-01');
    expect(s1.verdict).toBe('fail');
    expect(s1.reason).toMatch(/GET \/v1\/transfers\/\{transfer_id\} answered 410, a status the document does not list/);
    expect(s1.evidence.exchanges.some((x) => x.response?.status === 410)).toBe(true);
    const s2 = oas(sbx, 'OAS-02');
    expect(s2.verdict).toBe('fail');
    expect(s2.reason).toMatch(/Content-Type text\/plain is not one the document lists \(application\/json\)/);
    expect(s2.evidence.exchanges.length).toBeGreaterThan(0);
    expect(oas(sbx, 'OAS-03').verdict).toBe('pass');
    const u3 = oas(uat, 'OAS-03');
    expect(u3.verdict).toBe('fail');
    expect(u3.reason).toMatch(/must have required property 'created_at'/);
    expect(u3.evidence.exchanges.some((x) => x.method === 'GET' && x.response?.status === 200)).toBe(true);
    expect(oas(uat, 'OAS-01').verdict).toBe('pass');
    expect(uat.openapi!.coverage.rows.find((r) => r.key === 'get' && r.status === '200')?.state).toBe('invalid');
  });

  it('a dropped required header fails OAS-06, an answer without the documented client certificate OAS-07', async () => {
    const runs = await run(
      [
        { name: 'clean-sbx', env: 'sandbox', openapi: DOC },
        { name: 'clean-uat', env: 'uat', openapi: DOC },
        { name: 'no-id', env: 'sandbox', openapi: DOC, faults: ['no-request-id'] },
        { name: 'no-mtls', env: 'uat', openapi: DOC, faults: ['mtls-optional'] },
      ],
      ['transfers', 'openapi'],
    );
    const [sbx, uat, noId, noMtls] = runs as [ProfileRun, ProfileRun, ProfileRun, ProfileRun];
    for (const p of [sbx, uat])
      for (const id of ['OAS-01', 'OAS-02', 'OAS-03', 'OAS-06', 'OAS-07'])
        expect(oas(p, id).verdict, `${p.profile} ${id}: ${oas(p, id).reason}`).toBe('pass');
    // the UAT probes: refused without a certificate, and without a token
    expect(oas(uat, 'OAS-07').evidence.notes.join('\n')).toMatch(
      /get without a client certificate: HTTP 403\nget without an Authorization header: HTTP 401/,
    );
    const h = oas(noId, 'OAS-06');
    expect(h.verdict).toBe('fail');
    expect(h.reason).toMatch(
      /GET \/v1\/transfers\/\{transfer_id\} → 200: 200: the header X-Request-Id the document requires is missing/,
    );
    expect(h.evidence.exchanges.some((x) => x.response?.status === 200)).toBe(true);
    expect(oas(noId, 'OAS-03').verdict).toBe('pass');
    const t = oas(noMtls, 'OAS-07');
    expect(t.verdict).toBe('fail');
    expect(t.reason).toMatch(
      /GET \/v1\/transfers\/\{transfer_id\} answered 200 to a request without mtls \(a client certificate\); the document requires bearer \(an Authorization header\) and mtls \(a client certificate\) \(\/security\)/,
    );
    expect(t.evidence.exchanges.some((x) => x.label === 'get without a client certificate (OAS-07)')).toBe(true);
  });

  it('a drifting document: the number where a string is answered is a finding, the rest shows in the coverage', async () => {
    const [p] = (await run([{ name: 'drift', env: 'sandbox', openapi: DRIFT }], ['transfers', 'openapi'])) as [
      ProfileRun,
    ];
    const body = oas(p, 'OAS-03');
    expect(body.verdict).toBe('fail');
    expect(body.reason).toMatch(/\/amount\/value must be number/);
    // the extra optional member and the never-sent status are no finding; they show in the table
    expect(oas(p, 'OAS-01').verdict).toBe('pass');
    expect(oas(p, 'OAS-02').verdict).toBe('pass');
    const cov = p.openapi!.coverage;
    expect(cov.notCalled).toEqual(['GET /v1/accounts/{account_id}/transfers']);
    expect(cov.rows.find((r) => r.key === 'create' && r.status === '409')).toMatchObject({
      documented: true,
      state: 'never',
    });
  });

  it('a whole-bank document: both mocks certified on the three transfers operations, the others never called', async () => {
    const bank = `file:${join(ROOT, 'test', 'fixtures', 'openapi', 'bank', 'bank.yaml')}`;
    const runs = await run(
      [
        { name: 'bank-sbx', env: 'sandbox', openapi: bank },
        { name: 'bank-uat', env: 'uat', openapi: bank },
      ],
      ['transfers', 'openapi'],
    );
    for (const p of runs) {
      for (const id of ['OAS-01', 'OAS-02', 'OAS-03', 'OAS-06', 'OAS-07', 'OAS-08'])
        expect(oas(p, id).verdict, `${p.profile} ${id}`).toBe('pass');
      const cov = p.openapi!.coverage;
      const keyed = [...new Set(cov.rows.filter((r) => r.key).map((r) => `${r.key} ${r.operation}`))].sort();
      expect(keyed).toEqual([
        'create PUT /v1/transfers/{transferId}',
        'get GET /v1/transfers/{transferId}',
        'validate POST /v1/transfers/validate',
      ]);
      expect(cov.notCalled).toHaveLength(21);
      expect(cov.notCalled).toContain('PUT /v1/beneficiaries/{beneficiaryId}');
      expect(cov.rows.filter((r) => r.state === 'invalid')).toEqual([]);
      expect(p.openapi!.notes).toContain(
        'create is PUT /v1/transfers/{transferId}, identified by its shape, the only operation that fits',
      );
    }
  });

  it('a profile without a document: the OAS checks are not applicable, with the reason', async () => {
    const dir = tmp();
    const path = join(dir, 'plain.json');
    writeFileSync(path, JSON.stringify({ name: 'plain', environment: 'sandbox', embedded: {} }));
    const outcome = await certify({
      checks: allChecks,
      profiles: [path],
      suites: ['openapi'],
      only: [],
      long: false,
      destructive: false,
      failOn: 'must',
    });
    const p = outcome.results!.profiles[0]!;
    expect(p.results.map((r) => [r.verdict, r.reason])).toEqual(
      Array(6).fill(['not-applicable', 'the profile names no OpenAPI document (target.openapi)']),
    );
    expect(p.openapi).toBeUndefined();
  });
});
