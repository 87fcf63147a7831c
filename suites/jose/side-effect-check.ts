/** JOSE-14: a request refused for its JOSE layer has no side effect. */
import { CheckFailed, Inconclusive, statusFailure, type CheckSpec } from '../../lib/engine/check.ts';
import type { ApiResponse } from '../../lib/engine/session/context.ts';
import { expectReached } from '../shared.ts';
import { envelope, rsa } from '../../lib/negative/envelopes.ts';
import { keysOf } from './keys.ts';
import { partnerSender } from './negatives.ts';

export const refusalNoSideEffect: CheckSpec = {
  name: 'refusal-no-side-effect',
  requirements: ['JOSE-14'],
  title: 'a sealed PUT refused for its JOSE layer (bad signature) creates nothing: GET of its id is 404 afterwards',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    const put = (transferId: string, body: object, label: string): Promise<ApiResponse> =>
      ctx.api({ op: 'create', as: 'partner', transferId, token: s.token, rawBody: body, label });
    const get = (transferId: string, label: string): Promise<ApiResponse> =>
      ctx.api({ op: 'get', as: 'partner', transferId, token: s.token, label });
    const notVisible = ctx.profile.contract.statuses.notVisible;

    // control: the same request correctly sealed creates a transfer that GET shows
    const goodId = ctx.newTransferId();
    const good = await put(goodId, envelope(k, s.doc) as object, 'positive control: PUT sealed correctly');
    if (!ctx.profile.contract.statuses.create.includes(good.status)) {
      throw new Inconclusive(
        `positive control: a correctly sealed PUT was answered HTTP ${good.status}; a refusal would prove nothing`,
      );
    }
    const seen = await get(goodId, 'positive control: GET of the created transfer');
    if (seen.status !== 200)
      throw new Inconclusive(
        `positive control: GET of a created transfer was answered HTTP ${seen.status}; a 404 later would prove nothing`,
      );

    // the negative: signed by an attacker key
    const badId = ctx.newTransferId();
    const bad = await put(
      badId,
      envelope(k, s.doc, { jws: { signer: rsa(k.attacker.privateKeyPem) } }) as object,
      'PUT signed by an attacker key',
    );
    ctx.note(`PUT signed by an attacker key: HTTP ${bad.status}`);
    if (!ctx.profile.contract.statuses.joseRefused.includes(bad.status)) {
      throw new Inconclusive(
        `the PUT signed by an attacker key was not refused for its JOSE layer (HTTP ${bad.status}): JOSE-06's rule; no refusal to examine`,
      );
    }
    const after = await get(badId, 'GET of the refused transfer id');
    ctx.note(`GET of the refused transfer id: HTTP ${after.status}`);
    if (notVisible.includes(after.status)) return;
    if (after.status === 200) {
      // isolate: does GET answer 200 for any id (ERR-04's rule)?
      const unknown = await get(ctx.newTransferId(), 'isolation: GET of an id never used');
      if (unknown.status === 200)
        throw new Inconclusive('GET answers 200 even for an id never used (ERR-04): a 200 proves no side effect');
      throw CheckFailed.of(
        statusFailure(after, notVisible, 'the refused PUT created the transfer: GET of its id answers 200', {
          title: 'a refused request took effect',
          expected: `HTTP ${notVisible.join(' or ')}`,
          operation: 'get',
        }),
      );
    }
    expectReached(after, notVisible, 'GET of the refused transfer id');
  },
};
