/**
 * The response judge (lib/openapi/judge.ts) on hand-made models: documented statuses (exact, range, default),
 * content types (exact, wildcard), bodies (OpenAPI 3.0 `nullable`, 3.1 type arrays), sealed answers, findings once
 * per operation, status and schema path; and the coverage table in the JUnit properties (valid against the schema)
 * and the HTML report.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResponseJudge, type Answer } from '../../lib/openapi/judge.ts';
import type { DocOperation, JsonSchema, OpenApiModel } from '../../lib/openapi/types.ts';
import { toHtml } from '../../lib/report/html.ts';
import { toJunitXml } from '../../lib/report/junit.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const item: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' }, note: { type: 'string', nullable: true } },
};
const media = (schema: JsonSchema, contentType = 'application/json', sealed = false) => ({
  contentType,
  schema,
  ...(sealed ? { sealed: { payloadSchema: schema } } : {}),
  pointer: '/x',
});
const get: DocOperation = {
  key: 'get',
  method: 'GET',
  path: '/v1/things/{id}',
  pointer: '/paths/~1things~1{id}/get',
  responses: [
    { status: '200', media: [media(item, 'application/json', true)], pointer: '/r200' },
    { status: '4XX', media: [media({ type: 'object' }, 'application/*')], pointer: '/r4' },
    { status: '204', media: [], pointer: '/r204' },
  ],
};
const special: DocOperation = {
  method: 'GET',
  path: '/v1/things/special',
  pointer: '/s',
  responses: [{ status: 'DEFAULT', media: [], pointer: '/d' }],
};
const model = (openapi: string): OpenApiModel => ({
  source: 'doc.yaml',
  openapi,
  basePath: '/v1',
  operations: [get, special],
  byKey: { get },
  identifiedBy: { get: 'x-openbank-operation' },
  notes: [],
});

const answer = (over: Partial<Answer<string>>): Answer<string> => ({
  method: 'GET',
  path: '/v1/things/a1',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  empty: false,
  body: { id: 'a1' },
  evidence: 'ex',
  ...over,
});

describe('ResponseJudge', () => {
  it('a conformant answer: no finding, the coverage says seen and valid', () => {
    const j = new ResponseJudge<string>(model('3.0.3'));
    j.judge(answer({ body: { id: 'a1', note: null } }));
    j.judge(answer({ status: 404, contentType: 'application/problem+json', body: {} }));
    j.judge(answer({ status: 204, empty: true, contentType: undefined, body: undefined }));
    j.judge(answer({ path: '/v1/things/special', status: 500, empty: true, body: undefined }));
    expect(j.findings()).toEqual([]);
    const rows = j.table().rows;
    expect(rows.find((r) => r.status === '200')).toMatchObject({ state: 'valid', valid: 1 });
    expect(rows.find((r) => r.status === '4XX')).toMatchObject({ state: 'valid' });
    expect(rows.find((r) => r.status === 'default')).toMatchObject({ state: 'valid' });
    expect(j.table().notCalled).toEqual([]);
  });

  it('an undocumented status, content type and an invalid body are findings, once per operation, status and schema path', () => {
    const j = new ResponseJudge<string>(model('3.0.3'));
    j.judge(answer({ status: 302, evidence: 'first' }));
    j.judge(answer({ status: 302, evidence: 'second' }));
    j.judge(answer({ contentType: 'text/plain' }));
    j.judge(answer({ body: { ident: 'a1' }, evidence: 'bad-1' }));
    j.judge(answer({ body: { ident: 'a2' }, evidence: 'bad-2' }));
    j.judge(answer({ status: 204, empty: false, contentType: 'application/json' }));
    const f = j.findings();
    expect(f.map((x) => [x.requirement, x.status, x.evidence])).toEqual([
      ['OAS-01', 302, 'first'],
      ['OAS-02', 200, 'ex'],
      ['OAS-03', 200, 'bad-1'],
      ['OAS-02', 204, 'ex'],
    ]);
    expect(f[2]!.message).toMatch(/must have required property 'id'/);
    expect(j.table().rows.find((r) => r.status === '302')).toMatchObject({ documented: false, state: 'invalid' });
  });

  it('3.1 reads type arrays (Ajv2020); 3.0 reads nullable', () => {
    const schema: JsonSchema = { type: 'object', properties: { n: { type: ['string', 'null'] } } };
    const op: DocOperation = { ...get, responses: [{ status: '200', media: [media(schema)], pointer: '/r' }] };
    const j = new ResponseJudge<string>({ ...model('3.1.0'), operations: [op] });
    j.judge(answer({ body: { n: null } }));
    j.judge(answer({ body: { n: 3 } }));
    expect(j.findings().map((x) => x.message)).toEqual([expect.stringMatching(/\/n must be string,null/)]);
    const k = new ResponseJudge<string>(model('3.0.3'));
    k.judge(answer({ body: { id: 'a', note: 5 } }));
    expect(k.findings()).toHaveLength(1);
  });

  it("OpenAPI's numeric formats: int32's range exact, int64's as a parsed double can say it, float and double finite", () => {
    const n = (format: string, type = 'integer'): JsonSchema => ({ type, format });
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        i: n('int32'),
        l: n('int64'),
        f: n('float', 'number'),
        d: n('double', 'number'),
        s: n('int64', 'string'),
      },
    };
    const op: DocOperation = { ...get, responses: [{ status: '200', media: [media(schema)], pointer: '/r' }] };
    // the answers as a bank writes them (JSON text), the bounds written out, not computed by the code under test
    const flagged = (version: string, text: string): string[] => {
      const j = new ResponseJudge<string>({ ...model(version), operations: [op] });
      j.judge(answer({ body: JSON.parse(text) as unknown }));
      return j.findings().map((x) => x.message);
    };
    for (const version of ['3.0.3', '3.1.0']) {
      for (const ok of [
        '{"i": 2147483647}',
        '{"i": -2147483648}',
        '{"l": 9223372036854775807}',
        '{"l": -9223372036854775808}',
        '{"l": 9007199254740993}',
        '{"f": 3.4028235e38}',
        '{"d": 1.7976931348623157e308}',
        '{"s": "99999999999999999999999"}',
      ])
        expect(flagged(version, ok), `${version} ${ok}`).toEqual([]);
      for (const [bad, member] of [
        ['{"i": 2147483648}', '/i must match format "int32"'],
        ['{"i": -2147483649}', '/i must match format "int32"'],
        ['{"l": 9223372036854777856}', '/l must match format "int64"'],
        ['{"l": -9223372036854777856}', '/l must match format "int64"'],
        ['{"f": 3.5e38}', '/f must match format "float"'],
        ['{"d": 1e400}', '/d must match format "double"'],
      ])
        expect(flagged(version, bad!), `${version} ${bad}`).toEqual([expect.stringContaining(member!)]);
    }
  });

  it('a sealed answer is judged on its payload once opened, not when it did not open', () => {
    const j = new ResponseJudge<string>(model('3.1.0'));
    j.judge(answer({ sealed: 'opened', body: { id: 'x' }, envelope: { ciphertext: 'c' } }));
    j.judge(answer({ sealed: 'unopened', body: { ciphertext: 'c' } }));
    expect(j.findings()).toEqual([]);
    j.judge(answer({ sealed: 'opened', body: { other: 1 }, envelope: { ciphertext: 'c' } }));
    expect(j.findings().map((x) => x.requirement)).toEqual(['OAS-03']);
  });

  it('the most literal path is the path item; a method it does not describe is not judged', () => {
    const post: DocOperation = { method: 'POST', path: '/v1/things/special', pointer: '/p', responses: [] };
    const j = new ResponseJudge<string>({ ...model('3.1.0'), operations: [get, post] });
    j.judge(answer({ path: '/v1/things/special', status: 405 }));
    j.judge(answer({ path: '/v2/things/a', status: 200 }));
    expect(j.findings()).toEqual([]);
    expect(j.table().unmatched).toBe(2);
  });
});

describe('the coverage table in the reports', () => {
  const dir = tempDirs('openapi-report-')();
  const withTable = () => {
    const r = fixtureResults();
    const j = new ResponseJudge<string>(model('3.1.0'));
    j.judge(answer({ body: { ident: '<script>' } }));
    const p = r.profiles[0]!;
    p.openapi = { source: 'doc.yaml', version: '3.1.0', notes: ['a note'], coverage: j.table() };
    p.results.push({ ...p.results[0]!, checkId: 'openapi.body-valid', suite: 'openapi', requirements: ['OAS-03'] });
    return r;
  };

  it('JUnit: the openapi suite carries the table as properties, valid against junit-10.xsd', () => {
    const xml = toJunitXml(withTable());
    expect(xml).toMatch(/<testsuite name="[^"]+ \/ openapi"[^>]*>\n {4}<properties>/);
    expect(xml).toContain(
      '<property name="openapi GET /v1/things/{id} 200" value="seen and invalid (0 valid, 1 invalid)"/>',
    );
    expect(xml).toContain('<property name="openapi GET /v1/things/special" value="never called"/>');
    const file = join(dir, 'j.xml');
    writeFileSync(file, xml);
    const xsd = join(import.meta.dirname, '..', 'fixtures', 'junit-10.xsd');
    const r = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8', timeout: 20_000 });
    expect(`${r.stdout}${r.stderr}`).toContain('validates');
  });

  it('HTML: an "OpenAPI coverage" section with each row', () => {
    const page = toHtml(withTable(), { resultsSha256: '0'.repeat(64) });
    expect(page).toContain('<h2>OpenAPI coverage</h2>');
    expect(page).toMatch(/<code>GET \/v1\/things\/\{id\}<\/code><\/td><td>200<\/td><td>seen and invalid<\/td>/);
    expect(page).toContain('Never called: GET /v1/things/special');
  });
});
