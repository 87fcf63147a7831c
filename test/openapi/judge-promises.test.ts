/**
 * The response judge's headers (OAS-06) and security (OAS-07) on hand-made operations (lib/openapi/judge-promises.ts):
 * a required header missing, a value its schema refuses (read as the schema's type), a header matched whatever its
 * case; a 2xx answer to a request that satisfied no documented alternative, and the ones that did.
 */
import { describe, expect, it } from 'vitest';
import { ResponseJudge, type RequestCredentials } from '../../lib/openapi/judge.ts';
import type { DocOperation, DocScheme, OpenApiModel } from '../../lib/openapi/types.ts';

const bearer: DocScheme = { name: 'oauth2', type: 'oauth2' };
const mtls: DocScheme = { name: 'mtls', type: 'mutualTLS' };
const key: DocScheme = { name: 'key', type: 'apiKey', in: 'header', param: 'X-Api-Key' };

const op = (alternatives: DocScheme[][]): DocOperation => ({
  method: 'GET',
  path: '/v1/things/{id}',
  pointer: '/paths/~1things~1{id}/get',
  security: { alternatives, pointer: '/security' },
  responses: [
    {
      status: '200',
      media: [],
      headers: [
        { name: 'X-Request-Id', required: true, schema: { type: 'string', format: 'uuid' }, pointer: '/h1' },
        { name: 'X-Rate-Remaining', required: false, schema: { type: 'integer', minimum: 0 }, pointer: '/h2' },
      ],
      pointer: '/r',
    },
  ],
});
const model = (o: DocOperation): OpenApiModel => ({
  source: 'doc.yaml',
  openapi: '3.1.0',
  basePath: '/v1',
  operations: [o],
  byKey: {},
  identifiedBy: {},
  notes: [],
});
const creds = (c: Partial<RequestCredentials>): RequestCredentials => ({
  authorization: false,
  clientCertificate: false,
  headers: [],
  query: [],
  ...c,
});
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

function findings(o: DocOperation, headers: Record<string, string>, c: RequestCredentials, mutualTLS = true) {
  const j = new ResponseJudge<string>(model(o), { mutualTLS });
  j.judge({
    method: 'GET',
    path: '/v1/things/1',
    status: 200,
    empty: true,
    body: undefined,
    headers,
    credentials: c,
    evidence: 'x',
  });
  return j.findings().map((f) => `${f.requirement} ${f.message}`);
}

describe('documented headers (OAS-06)', () => {
  const ok = creds({ authorization: true });
  it('present and valid, whatever the case of the name: no finding', () => {
    expect(findings(op([[bearer]]), { 'x-request-id': ID, 'X-RATE-REMAINING': '7' }, ok)).toEqual([]);
  });
  it('a required header missing; a value its schema refuses', () => {
    expect(findings(op([[bearer]]), { 'x-rate-remaining': '-1' }, ok)).toEqual([
      'OAS-06 200: the header X-Request-Id the document requires is missing (/h1)',
      'OAS-06 200: the header X-Rate-Remaining "-1" is not valid against its schema: must be >= 0 (/h2/schema)',
    ]);
    expect(findings(op([[bearer]]), { 'x-request-id': 'req-1' }, ok)).toEqual([
      'OAS-06 200: the header X-Request-Id "req-1" is not valid against its schema: must match format "uuid" (/h1/schema)',
    ]);
  });
});

describe('documented security (OAS-07)', () => {
  const h = { 'x-request-id': ID };
  it('a 2xx without what any alternative needs is a finding, naming what was missing and what is required', () => {
    expect(findings(op([[bearer, mtls]]), h, creds({ authorization: true }))).toEqual([
      'OAS-07 GET /v1/things/{id} answered 200 to a request without mtls (a client certificate); the document requires oauth2 (an Authorization header) and mtls (a client certificate) (/security)',
    ]);
    expect(findings(op([[bearer], [key]]), h, creds({}))).toEqual([
      'OAS-07 GET /v1/things/{id} answered 200 to a request without oauth2 (an Authorization header), key (header X-Api-Key); the document requires oauth2 (an Authorization header); or key (header X-Api-Key) (/security)',
    ]);
  });
  it('one alternative met, an empty alternative, or mutualTLS where the run presents no certificates: none', () => {
    expect(findings(op([[bearer], [key]]), h, creds({ headers: ['x-api-key'] }))).toEqual([]);
    expect(findings(op([[bearer], []]), h, creds({}))).toEqual([]);
    expect(findings(op([[bearer, mtls]]), h, creds({ authorization: true }), false)).toEqual([]);
  });
});
