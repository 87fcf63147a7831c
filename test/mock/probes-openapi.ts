/**
 * Fault probes: OAS, answers whose status, content type, headers or shape drift from the mock's OpenAPI document
 * (docs/openapi/transfers.yaml). Gathered by test/mock/faults.test.ts, which runs each without and with its fault.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { publishedDocument } from '../../lib/mock/openapi-document.ts';
import { api, transferBody } from './helpers.ts';
import { type Probe, type X, tok } from './probe-kit.ts';

/** a transfer created, then got: the get answer */
async function created(x: X, id: string): ReturnType<typeof api> {
  const token = await tok(x);
  await api(x.p, { method: 'PUT', path: `/transfers/${id}`, token, body: transferBody(x.p) });
  return api(x.p, { method: 'GET', path: `/transfers/${id}`, token });
}

const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'openapi', 'transfers.yaml'), 'utf8');

/** validate's request example in the document the mock publishes under its faults (read here, not by the judge) */
function publishedExample(x: X): { amount?: { value?: unknown } } | undefined {
  const doc = parse(publishedDocument(DOC, x.mock.faults.list()) ?? DOC) as {
    paths: Record<string, { post?: { requestBody?: { content?: Record<string, { example?: unknown }> } } }>;
  };
  return doc.paths['/transfers/validate']?.post?.requestBody?.content?.['application/json']?.example as
    { amount?: { value?: unknown } } | undefined;
}

export const PROBES: Record<string, Probe> = {
  // the schema says amount.value is a string: a number there is what OAS-08 must name
  'openapi-example-invalid': (x) => Promise.resolve(typeof publishedExample(x)?.amount?.value === 'number'),
  'unknown-transfer-410': async (x) =>
    (await api(x.p, { method: 'GET', path: '/transfers/none-410', token: await tok(x) })).status === 410,
  'get-text-plain': async (x) =>
    ((await created(x, `tp-${Date.now()}`)).res.headers['content-type'] ?? '').startsWith('text/plain'),
  'no-request-id': async (x) => (await created(x, `ri-${Date.now()}`)).res.headers['x-request-id'] === undefined,
  'get-member-renamed': async (x) => {
    const body = (await created(x, `mr-${Date.now()}`)).body;
    return 'createdAt' in body && !('created_at' in body);
  },
  // read against the literal bound, not the judge's format: one past the largest signed 32-bit integer
  'get-int32-overflow': async (x) => (await created(x, `io-${Date.now()}`)).body.revision === 2147483648,
};
