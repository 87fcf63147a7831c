/**
 * A bad OpenAPI document (target.openapi) ends `npm run certify` with exit 2 before any traffic, naming the file and
 * the line or JSON pointer: one that does not parse, one that is not valid OpenAPI, one with a remote $ref (never
 * fetched: it points at the same counting listener as the target), one that lacks an operation the harness calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { runCertify } from './run-certify.ts';

const dir = tempDirs('certify-openapi-bad-')();
const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'openapi', 'transfers.yaml'), 'utf8');
const BANK = join(import.meta.dirname, '..', 'fixtures', 'openapi', 'bank');
let server: Server;
let hits = 0;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end('{}');
  });
  server.on('connection', () => hits++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

/** a full profile aimed at the counting listener, naming `doc` (written beside it) as its document */
function profile(name: string, doc: string): string {
  writeFileSync(join(dir, `${name}.yaml`), doc);
  const p = {
    name,
    environment: 'sandbox',
    target: { baseUrl, openapi: `file:${name}.yaml` },
    clients: {
      code: { clientId: 'c1', clientSecret: 'code-secret', redirectUri: 'http://127.0.0.1:2/cb' },
      partner: { clientId: 'p1', clientSecret: 'partner-secret' },
    },
    customers: [
      { name: 'a', uuid: 'u1', accountId: '1234567890123', beneficiaryId: 'B1' },
      { name: 'b', uuid: 'u2', accountId: '9876543210987654', beneficiaryId: 'B2', workflow: true },
    ],
  };
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(p));
  return path;
}

async function expectRefused(name: string, doc: string, message: RegExp): Promise<void> {
  const before = hits;
  const r = await runCertify(['--profile', profile(name, doc), '--out', join(dir, `out-${name}`)], 120_000);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(hits - before, 'connections to the target').toBe(0);
}

describe.concurrent('a bad OpenAPI document: exit 2 before any traffic', { timeout: 180_000 }, () => {
  test('not parseable: the line is named', async () => {
    await expectRefused(
      'unparseable',
      DOC.replace('info:\n', 'info: {title: [\n'),
      /target\.openapi: \S*unparseable\.yaml line \d+, column \d+: does not parse/,
    );
  });

  test('not valid OpenAPI: the JSON pointer is named', async () => {
    await expectRefused(
      'invalid',
      DOC.replace("        '413': { $ref: '#/components/responses/Error' }\n", '        bogus: 1\n'),
      /invalid\.yaml \/paths\/~1transfers~1validate\/post\/responses\/bogus \(line \d+, column \d+\): is not valid OpenAPI/,
    );
  });

  test('a remote $ref: named, never fetched', async () => {
    await expectRefused(
      'remote',
      DOC.replace("charges: { $ref: '#/components/schemas/Money' }", `charges: { $ref: '${baseUrl}/money.json' }`),
      /remote\.yaml \/components\/schemas\/ValidateAnswer\/properties\/charges\/\$ref: \$ref "http:\/\/127\.0\.0\.1:\d+\/money\.json" is remote/,
    );
  });

  test('a whole-bank document whose transfers are indistinguishable by shape: the candidates named', async () => {
    for (const f of ['money.yaml', 'errors.yaml', 'parties.yaml']) cpSync(join(BANK, f), join(dir, f));
    await expectRefused(
      'ambiguous',
      readFileSync(join(BANK, 'bank.yaml'), 'utf8').replace(/creditor_beneficiary_id/g, 'beneficiary_id'),
      /ambiguous\.yaml \/paths: does not identify the operations the harness calls: validate is ambiguous, 2 operations fit \(shape\): POST \/v1\/standing-orders\/validate \(validateStandingOrder\), POST \/v1\/transfers\/validate \(validateTransfer\); say which with x-openbank-operation: validate on one operation, or target\.paths\.validate in the profile/,
    );
  });

  test('a Swagger 2.0 document: recognised, the way to convert it said', async () => {
    await expectRefused(
      'swagger',
      "swagger: '2.0'\ninfo: { title: t, version: '1' }\npaths: {}\n",
      /swagger\.yaml \/swagger: is a Swagger 2\.0 document \(OpenAPI 2\.0\).*convert it first/,
    );
  });

  test('an operation the harness calls is missing: named', async () => {
    await expectRefused(
      'missing',
      DOC.replace('x-openbank-operation: get', 'x-openbank-operation: none').replace(/^ {4}get:$/m, '    delete:'),
      /missing\.yaml \/paths: does not identify the operation the harness calls: get/,
    );
  });
});
