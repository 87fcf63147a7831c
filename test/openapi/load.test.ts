/**
 * The OpenAPI loader (lib/openapi/load.ts) and the profile field (target.openapi): the model of docs/openapi/transfers.yaml,
 * and each bad document named by file and line or JSON pointer, a remote $ref never fetched.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOpenApi, OpenApiError } from '../../lib/openapi/load.ts';
import { loadProfile, ProfileError } from '../../lib/profile/index.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';
import { tempDirs } from '../fixtures/tmp.ts';
import { sandboxProfileJson } from '../fixtures/sandbox-profile.ts';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'openapi', 'transfers.yaml');
const text = readFileSync(DOC, 'utf8');
const tmp = tempDirs('openapi-load-');

/** the mock's document with `edit` applied, written as `name` in a fresh folder */
function variant(edit: (t: string) => string, name = 'doc.yaml'): { dir: string; file: string } {
  const dir = tmp();
  writeFileSync(join(dir, name), edit(text));
  return { dir, file: name };
}

async function failure(p: Promise<unknown>): Promise<OpenApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OpenApiError);
  return e as OpenApiError;
}

describe('loadOpenApi', () => {
  it('reads the mock document: 3.1, base path, the three operations by their extension, sealed bodies', async () => {
    const m = await loadOpenApi(DOC, '/');
    expect(m.openapi).toBe('3.1.0');
    expect(m.basePath).toBe('/v1');
    expect(m.byKey.validate?.path).toBe('/v1/transfers/validate');
    expect(m.byKey.create).toMatchObject({ method: 'PUT', path: '/v1/transfers/{transfer_id}', key: 'create' });
    expect(m.byKey.get).toMatchObject({ method: 'GET', key: 'get' });
    const ok = m.byKey.get!.responses.find((r) => r.status === '200')!;
    expect(ok.media[0]!.sealed?.payloadSchema).toMatchObject({ required: expect.arrayContaining(['transfer_id']) });
    expect(m.notes).toEqual([]);
  });

  it('finds the operations by their shape when the document names none', async () => {
    const { dir, file } = variant((t) => t.replace(/^\s*x-openbank-operation: .*$/gm, ''));
    const m = await loadOpenApi(file, dir);
    expect(Object.keys(m.byKey).sort()).toEqual(['create', 'get', 'validate']);
    expect(m.byKey.get?.key).toBe('get');
  });

  it('a document that does not parse is named with its line', async () => {
    const { dir, file } = variant((t) => t.replace('info:\n', 'info: {title: [\n'));
    const e = await failure(loadOpenApi(file, dir));
    expect(e.message).toMatch(/^doc\.yaml line \d+, column \d+: does not parse/);
  });

  it('a document that is not valid OpenAPI is named with the JSON pointer and line of the fault', async () => {
    const { dir, file } = variant((t) =>
      t.replace("        '413': { $ref: '#/components/responses/Error' }\n", '        bogus: 1\n'),
    );
    const e = await failure(loadOpenApi(file, dir));
    expect(e.message).toContain('/paths/~1transfers~1validate/post/responses/bogus');
    expect(e.message).toMatch(/line \d+, column \d+/);
    expect(e.message).toContain('is not valid OpenAPI 3.1.0');
  });

  it('a remote $ref is named with its pointer and never fetched', async () => {
    let hits = 0;
    const server = createServer((_q, r) => {
      hits++;
      r.end('{}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/money.json`;
    try {
      const { dir, file } = variant((t) =>
        t.replace("charges: { $ref: '#/components/schemas/Money' }", `charges: { $ref: '${url}' }`),
      );
      const e = await failure(loadOpenApi(file, dir));
      expect(e.message).toContain(`$ref "${url}" is remote`);
      expect(e.message).toContain('/components/schemas/ValidateAnswer/properties/charges/$ref');
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it('a $ref to a file outside the folder is refused; one inside is read', async () => {
    const out = variant((t) => t.replace("$ref: '#/components/schemas/Money'", "$ref: '../money.yaml'"));
    expect((await failure(loadOpenApi(out.file, out.dir))).message).toContain('outside the document');
    const inside = variant((t) =>
      t.replace("charges: { $ref: '#/components/schemas/Money' }", "charges: { $ref: 'money.yaml' }"),
    );
    writeFileSync(
      join(inside.dir, 'money.yaml'),
      'type: object\nrequired: [value]\nproperties: {value: {type: string}}\n',
    );
    const m = await loadOpenApi(inside.file, inside.dir);
    expect(JSON.stringify(m.byKey.validate?.responses[0]?.media[0]?.schema)).toContain('"required":["value"]');
  });

  it('an operation the harness needs that the document lacks is named (a note when the API is not called)', async () => {
    const { dir, file } = variant((t) =>
      t.replace('x-openbank-operation: get', 'x-openbank-operation: none').replace(/^ {4}get:$/m, '    delete:'),
    );
    expect((await failure(loadOpenApi(file, dir))).message).toMatch(
      /does not identify the operation the harness calls: get \(GET on the create template; none fits\)/,
    );
    const m = await loadOpenApi(file, dir, { requireOperations: false });
    expect(m.notes).toContain('the document has no get operation');
  });

  it('a document describing the envelope is accepted with a note', async () => {
    const envelope =
      '{ type: object, required: [ciphertext], properties: { ciphertext: { type: string }, protected: { type: string }, recipients: { type: array } } }';
    const { dir, file } = variant((t) =>
      t.replace(
        "              x-sealed: true\n              schema: { $ref: '#/components/schemas/Transfer' }",
        `              schema: ${envelope}`,
      ),
    );
    const m = await loadOpenApi(file, dir);
    expect(m.notes.join('\n')).toMatch(
      /the payload of GET \/transfers\/\{transfer_id\} 200 .* could not be checked: the document describes the envelope/,
    );
  });
});

describe('target.openapi in a profile', () => {
  const profile = (openapi: string, paths?: Record<string, string>): Record<string, unknown> =>
    sandboxProfileJson('t', openapi, paths);

  it('the document gives the paths the profile does not set', async () => {
    const { dir } = variant(
      (t) =>
        t
          .replace('https://127.0.0.1/v1', 'https://127.0.0.1/api/v2')
          .replace('/transfers/{transfer_id}:', '/payments/{id}:')
          .replace(/transfer_id\n {6}in: path/, 'id\n      in: path'),
      'bank.yaml',
    );
    writeFileSync(join(dir, 'p.json'), JSON.stringify(profile('file:bank.yaml')));
    const p = (await loadProfile(join(dir, 'p.json'))) as FullProfile;
    expect(p.target.paths).toMatchObject({
      transfersBasepath: '/api/v2',
      validate: '/transfers/validate',
      transfer: '/payments/{transfer_id}',
    });
    writeFileSync(join(dir, 'q.json'), JSON.stringify(profile('file:bank.yaml', { transfer: '/payments/{pid}' })));
    const q = (await loadProfile(join(dir, 'q.json'))) as FullProfile;
    expect(q.target.paths).toMatchObject({ transfersBasepath: '/api/v2', transfer: '/payments/{pid}' });
  });

  it('a path the profile sets that the document does not describe is named, and no operation is guessed', async () => {
    const { dir } = variant((t) => t, 'bank.yaml');
    writeFileSync(join(dir, 'q.json'), JSON.stringify(profile('file:bank.yaml', { transfer: '/t/{transfer_id}' })));
    const e = await loadProfile(join(dir, 'q.json')).then(
      () => undefined,
      (x: unknown) => x as ProfileError,
    );
    expect(e?.code).toBe('PROFILE_OPENAPI');
    expect(e?.issues[0]).toContain(
      "create: the profile's target.paths.transfer is PUT /v1/t/{transfer_id}, an operation the document does not describe",
    );
  });

  it('a bad document is a ProfileError naming the field, the file and where', async () => {
    const dir = tmp();
    copyFileSync(DOC, join(dir, 'ok.yaml'));
    writeFileSync(join(dir, 'bad.yaml'), 'openapi: 3.1.0\ninfo: [\n');
    writeFileSync(join(dir, 'p.json'), JSON.stringify(profile('file:bad.yaml')));
    const e = await loadProfile(join(dir, 'p.json')).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ProfileError);
    expect((e as ProfileError).code).toBe('PROFILE_OPENAPI');
    expect((e as ProfileError).issues[0]).toMatch(/^target\.openapi: .*bad\.yaml line \d+, column \d+: does not parse/);
  });
});
