/**
 * The structure verdicts kept between loads (lib/openapi/valid-cache.ts): a valid document leaves one marker per
 * content, a changed content another; a document with errors leaves none and says the same errors every time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi, OpenApiError } from '../../lib/openapi/load.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'openapi', 'transfers.yaml');
const text = readFileSync(DOC, 'utf8');
const tmp = tempDirs('openapi-valid-cache-');
let dir: string;
const before = process.env.HARNESS_OPENAPI_CACHE_DIR;
beforeAll(() => {
  dir = tmp();
  process.env.HARNESS_OPENAPI_CACHE_DIR = dir;
});
afterAll(() => {
  if (before === undefined) delete process.env.HARNESS_OPENAPI_CACHE_DIR;
  else process.env.HARNESS_OPENAPI_CACHE_DIR = before;
});

/** the error of loading `doc` as the text of the mock's document */
async function errorOf(doc: string): Promise<string> {
  const e = await loadOpenApi(DOC, '/', { text: doc }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OpenApiError);
  return (e as OpenApiError).message;
}

describe('the valid documents kept', () => {
  it('one marker per valid content, whatever the loads; a changed content gets its own', async () => {
    const first = await loadOpenApi(DOC, '/', { text });
    expect(readdirSync(dir)).toHaveLength(1);
    const again = await loadOpenApi(DOC, '/', { text });
    expect(again.operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      first.operations.map((o) => `${o.method} ${o.path}`),
    );
    expect(again.documentFindings).toEqual(first.documentFindings);
    expect(readdirSync(dir)).toHaveLength(1);
    await loadOpenApi(DOC, '/', { text: text.replace(/^(\s+title: ).*$/m, '$1Another title') });
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('a document with errors leaves no marker and says the same error each time', async () => {
    const bad = text.replace("        '413': { $ref: '#/components/responses/Error' }\n", '        bogus: 1\n');
    expect(bad).not.toBe(text);
    const markers = readdirSync(dir).length;
    const once = await errorOf(bad);
    expect(once).toContain('is not valid OpenAPI 3.1.0');
    expect(once).toContain('/paths/~1transfers~1validate/post/responses/bogus');
    expect(await errorOf(bad)).toBe(once);
    expect(readdirSync(dir)).toHaveLength(markers);
  });
});
