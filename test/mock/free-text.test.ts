/**
 * The mock's free text (docs/contract.md `contract.freeText`: any text up to 140 characters): characters are code
 * points, as JSON Schema's maxLength counts them, so 140 emoji (280 UTF-16 units) are accepted and 141 refused.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { api, codeFlow, transferBody, type Profile } from './helpers.ts';

let mock: MockBank;
let p: Profile;
let token: string;

beforeAll(async () => {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki() });
  p = mock.profile('free-text');
  token = (await codeFlow(p)).access_token as string;
}, 60_000);
afterAll(() => mock.close());

const validate = async (remarks: string): Promise<number> =>
  (await api(p, { method: 'POST', path: '/transfers/validate', token, body: transferBody(p, 0, { remarks }) })).status;

it('remarks of 140 characters past U+FFFF are accepted, 141 refused; 140 Arabic letters accepted', async () => {
  expect([
    await validate('\u{1F381}'.repeat(140)),
    await validate('\u{1F381}'.repeat(141)),
    await validate('ع'.repeat(140)),
  ]).toEqual([200, 422, 200]);
});
