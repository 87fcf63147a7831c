/**
 * An OpenApiModel (lib/openapi/types.ts) built from a small fixture document without `$ref`s (YAML aliases share
 * its schemas), for the tests of the document-inputs property: the loader (lib/openapi/load.ts) builds the real
 * one. A media type's `x-sealed: true` says its schema is the sealed payload's (docs/openapi.md).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ApiOperationKey, DocMedia, DocOperation, JsonSchema, OpenApiModel } from '../../lib/openapi/types.ts';

const KEYS: Record<string, ApiOperationKey> = { validateTransfer: 'validate', createTransfer: 'create' };

type Json = Record<string, unknown>;

function mediaOf(content: Json, pointer: string): DocMedia[] {
  return Object.entries(content).map(([contentType, m]) => {
    const media = m as Json;
    const schema = media.schema as JsonSchema | undefined;
    const x = media['x-sealed'] as true | { payload?: JsonSchema } | undefined;
    const payload = x === true ? schema : x?.payload;
    return {
      contentType,
      ...(schema !== undefined ? { schema } : {}),
      ...(x ? { sealed: { ...(payload !== undefined ? { payloadSchema: payload } : {}) } } : {}),
      pointer: `${pointer}/content/${contentType.replaceAll('/', '~1')}`,
    };
  });
}

/** the model of a parsed document (`doc`) named `source` */
export function modelOf(doc: Json, source: string): OpenApiModel {
  const operations: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const [method, o] of Object.entries(item as Json)) {
      const op = o as Json;
      const pointer = `/paths/${path.replaceAll('/', '~1')}/${method}`;
      const body = op.requestBody as { required?: boolean; content: Json } | undefined;
      const key = KEYS[op.operationId as string];
      operations.push({
        ...(key ? { key } : {}),
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        path,
        ...(body
          ? { request: { required: body.required === true, media: mediaOf(body.content, `${pointer}/requestBody`) } }
          : {}),
        responses: [],
        pointer,
      });
    }
  const byKey = Object.fromEntries(operations.filter((o) => o.key).map((o) => [o.key, o]));
  return { source, openapi: doc.openapi as string, basePath: '', operations, byKey, identifiedBy: {}, notes: [] };
}

/** the model of a fixture file under test/fixtures/openapi/ */
export function fixtureModel(name: string): OpenApiModel {
  const file = new URL(`../fixtures/openapi/${name}`, import.meta.url);
  return modelOf(parse(readFileSync(file, 'utf8')) as Json, name);
}
