/**
 * The paths a profile writes itself identify the operations in its OpenAPI document (lib/profile/openapi.ts): kept as
 * data on the profile (`target.pathsWritten`), so that a copy of a loaded profile (structuredClone, a JSON round trip)
 * identifies the same operations in a whole-bank document whose standing orders are shaped as transfers, where the
 * document alone identifies none.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepare } from '../../lib/engine/run/prepare.ts';
import type { ApiOperationKey, OpenApiModel } from '../../lib/openapi/types.ts';
import { loadProfile, ProfileError } from '../../lib/profile/index.ts';
import { openApiOf } from '../../lib/profile/openapi.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';
import { sandboxProfileJson } from '../fixtures/sandbox-profile.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const BANK = join(import.meta.dirname, '..', 'fixtures', 'openapi', 'bank');
const tmp = tempDirs('paths-written-');

/** the whole-bank document set in a fresh folder, its standing orders taking a transfer's members */
function indistinguishableBank(): string {
  const dir = tmp();
  cpSync(BANK, dir, { recursive: true });
  const text = readFileSync(join(BANK, 'bank.yaml'), 'utf8');
  writeFileSync(join(dir, 'bank.yaml'), text.replace(/creditor_beneficiary_id/g, 'beneficiary_id'));
  return dir;
}

function profileIn(dir: string, paths?: Record<string, string>): string {
  const file = join(dir, 'p.json');
  const doc = sandboxProfileJson('whole-bank', 'file:bank.yaml', paths);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** each operation the harness calls, by its operationId, and how it was identified */
const identified = (m: OpenApiModel | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(m?.byKey ?? {}).map(([k, o]) => [k, `${o.operationId} (${m?.identifiedBy[k as ApiOperationKey]})`]),
  );

const TRANSFERS = {
  validate: 'validateTransfer (profile paths)',
  create: 'createTransfer (profile paths)',
  get: 'getTransfer (profile paths)',
};

describe('the paths a profile writes, in a copy of it', () => {
  it('structuredClone and a JSON round trip of a loaded profile identify the same operations', async () => {
    const dir = indistinguishableBank();
    const written = { validate: '/transfers/validate', transfer: '/transfers/{transferId}' };
    const loaded = (await loadProfile(profileIn(dir, written))) as FullProfile;
    expect(identified(await openApiOf(loaded, 'loaded'))).toEqual(TRANSFERS);
    const cloned = structuredClone(loaded);
    expect(identified(await openApiOf(cloned, 'cloned'))).toEqual(TRANSFERS);
    expect(cloned.target.pathsWritten).toEqual(['validate', 'transfer']);
    const json = JSON.parse(JSON.stringify(loaded)) as FullProfile;
    expect(identified(await openApiOf(json, 'json'))).toEqual(TRANSFERS);
    // written to a file and loaded again: its list kept, with every path it now writes
    writeFileSync(join(dir, 'again.json'), JSON.stringify(loaded));
    const again = (await loadProfile(join(dir, 'again.json'))) as FullProfile;
    expect(identified(await openApiOf(again, 'again'))).toEqual(TRANSFERS);
    expect(again.target.pathsWritten).toEqual(['transfersBasepath', 'validate', 'transfer']);
    // prepare reads the document of the profile it is given
    const prepared = await prepare(cloned);
    try {
      expect(identified(prepared.runtime.openapi)).toEqual(TRANSFERS);
    } finally {
      await prepared.close();
    }
  });

  it('without written paths the same document identifies nothing: the copy above did not pass on the document alone', async () => {
    const e = await loadProfile(profileIn(indistinguishableBank())).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ProfileError);
    expect((e as ProfileError).issues[0]).toContain('validate is ambiguous, 2 operations fit (shape)');
  });

  it('the paths the profile leaves unset are filled from the document, and not listed', async () => {
    const dir = tmp();
    cpSync(BANK, dir, { recursive: true });
    const loaded = (await loadProfile(profileIn(dir, { transfersBasepath: '/v1' }))) as FullProfile;
    expect(loaded.target.pathsWritten).toEqual(['transfersBasepath']);
    expect(loaded.target.paths).toMatchObject({
      validate: '/transfers/validate',
      transfer: '/transfers/{transfer_id}',
    });
    expect(identified(await openApiOf(structuredClone(loaded), 'cloned')).get).toBe('getTransfer (shape)');
  });
});
