/**
 * The operations the harness calls, identified and never guessed (lib/openapi/identify.ts, docs/openapi.md): in a
 * whole-bank document (test/fixtures/openapi/bank: accounts, beneficiaries and standing orders before the transfers
 * API) by their shape; the same document with the standing orders shaped as transfers stops, naming the candidates
 * and the two ways to say which; the extension and the profile's paths each settle it. A Swagger 2.0 document is
 * recognised and refused with the way to convert it.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOpenApi, OpenApiError } from '../../lib/openapi/load.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const BANK = join(import.meta.dirname, '..', 'fixtures', 'openapi', 'bank');
const tmp = tempDirs('openapi-identify-');

/** the bank's document set copied to a fresh folder, bank.yaml edited by `edit` */
export function bankVariant(edit: (t: string) => string): string {
  const dir = tmp();
  cpSync(BANK, dir, { recursive: true });
  writeFileSync(join(dir, 'bank.yaml'), edit(readFileSync(join(BANK, 'bank.yaml'), 'utf8')));
  return dir;
}

/** the standing orders take a transfer's members: the same shape as the transfers operations */
const indistinguishable = (t: string): string => t.replace(/creditor_beneficiary_id/g, 'beneficiary_id');

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(OpenApiError);
  return (e as OpenApiError).message;
}

describe('identifying validate, create and get', () => {
  it('a whole-bank document: the transfers operations by their shape, never the beneficiaries listed first', async () => {
    const m = await loadOpenApi('bank.yaml', BANK);
    expect(m.basePath).toBe('/v1');
    expect(m.operations).toHaveLength(24);
    const named = Object.fromEntries(Object.entries(m.byKey).map(([k, o]) => [k, `${o.method} ${o.path}`]));
    expect(named).toEqual({
      validate: 'POST /v1/transfers/validate',
      create: 'PUT /v1/transfers/{transferId}',
      get: 'GET /v1/transfers/{transferId}',
    });
    expect(m.identifiedBy).toEqual({ validate: 'shape', create: 'shape', get: 'shape' });
    expect(
      m.operations
        .filter((o) => o.key)
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(['createTransfer', 'getTransfer', 'validateTransfer']);
  });

  it('transfers indistinguishable by shape: refused, naming the candidates and the two ways to say which', async () => {
    const message = await refusal(loadOpenApi('bank.yaml', bankVariant(indistinguishable)));
    expect(message).toContain(
      'validate is ambiguous, 2 operations fit (shape): POST /v1/standing-orders/validate (validateStandingOrder), POST /v1/transfers/validate (validateTransfer); say which with x-openbank-operation: validate on one operation, or target.paths.validate in the profile',
    );
    expect(message).toContain('PUT /v1/standing-orders/{orderId} (putStandingOrder), PUT /v1/transfers/{transferId}');
    expect(message).toContain('GET /v1/standing-orders/{orderId} (getStandingOrder), GET /v1/transfers/{transferId}');
  });

  it('x-openbank-operation settles it; the profile paths settle it; neither is overruled by the shape', async () => {
    const marked = bankVariant((t) =>
      indistinguishable(t)
        .replace('operationId: validateTransfer', 'operationId: validateTransfer\n      x-openbank-operation: validate')
        .replace('operationId: createTransfer', 'operationId: createTransfer\n      x-openbank-operation: create')
        .replace('operationId: getTransfer', 'operationId: getTransfer\n      x-openbank-operation: get'),
    );
    const m = await loadOpenApi('bank.yaml', marked);
    expect(m.byKey.create?.operationId).toBe('createTransfer');
    expect(m.identifiedBy).toEqual({
      validate: 'x-openbank-operation',
      create: 'x-openbank-operation',
      get: 'x-openbank-operation',
    });
    const byPaths = await loadOpenApi('bank.yaml', bankVariant(indistinguishable), {
      paths: { validate: '/transfers/validate', transfer: '/transfers/{transfer_id}' },
    });
    expect(byPaths.byKey.get?.operationId).toBe('getTransfer');
    expect(byPaths.identifiedBy.validate).toBe('profile paths');
  });

  it('the extension on two operations is no identification', async () => {
    const dir = bankVariant((t) =>
      t
        .replace('operationId: validateTransfer', 'operationId: validateTransfer\n      x-openbank-operation: validate')
        .replace(
          'operationId: validateStandingOrder',
          'operationId: validateStandingOrder\n      x-openbank-operation: validate',
        ),
    );
    expect(await refusal(loadOpenApi('bank.yaml', dir))).toContain(
      'validate is ambiguous, 2 operations fit (x-openbank-operation)',
    );
  });

  it('a Swagger 2.0 document is recognised and refused with the way to convert it', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'swagger.yaml'),
      "swagger: '2.0'\ninfo: { title: t, version: '1' }\nbasePath: /v1\npaths: {}\n",
    );
    const message = await refusal(loadOpenApi('swagger.yaml', dir));
    expect(message).toMatch(/^swagger\.yaml \/swagger: is a Swagger 2\.0 document \(OpenAPI 2\.0\)/);
    expect(message).toContain('Convert to OpenAPI 3');
    expect(message).not.toContain('found undefined');
  });
});
