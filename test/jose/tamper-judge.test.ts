/**
 * The judgment of one tampered envelope (suites/jose/tamper-judge.ts) against scripted answers: a refusal counts
 * only with the contract's JOSE status and a GET that shows nothing; the quota's status (the profile's, 429 or a
 * gateway's 503), 429, gate refusals, transport errors and a GET that says nothing are no evidence; 5xx and 422 are
 * failures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { TransportError } from '../../lib/http/types.ts';
import type { Mutated } from '../../lib/negative/mutations.ts';
import { judgeTampered, shapeControls } from '../../suites/jose/tamper-judge.ts';
import { rsaPair, type Pair } from './helpers.ts';

type Answer = number | 'no-answer';

let bank: Pair;
let client: Pair;
beforeAll(() => {
  bank = rsaPair();
  client = rsaPair();
});

/** a context whose API answers, per operation, the statuses given in order (only what the judge uses) */
function fakeCtx(
  answers: Partial<Record<'create' | 'validate' | 'get', Answer[]>>,
  quotaStatus = 429,
): {
  ctx: CheckContext;
  sent: string[];
} {
  const sent: string[] = [];
  let n = 0;
  const ctx = {
    profile: {
      contract: {
        statuses: { joseRefused: [400], create: [201], notVisible: [404] },
        quota: { status: quotaStatus },
      },
    },
    tokens: { partnerToken: async () => 'token' },
    jose: { bankPublicKey: bank.pub, clientKey: () => ({ privateKey: client.priv, certificate: client.pub }) },
    newTransferId: () => `id-${++n}`,
    note: () => undefined,
    redact: (t: string) => t,
    api: async (c: { op: 'create' | 'validate' | 'get' }) => {
      sent.push(c.op);
      const a = answers[c.op]?.shift();
      if (a === undefined) throw new Error(`no answer scripted for ${c.op}`);
      if (a === 'no-answer') throw new TransportError('socket hang up', 'ECONNRESET');
      return { status: a, headers: {}, body: undefined, raw: { status: a, headers: {}, text: '', json: undefined } };
    },
  } as unknown as CheckContext;
  return { ctx, sent };
}

const demanded: Mutated = { envelope: {}, inner: {}, description: 'the JWE tag flipped', demand: 'JOSE-08' };

describe('judging one tampered envelope', () => {
  it.each([
    ['refused, nothing created', demanded, [400], [404], 'held', undefined],
    ['accepted', demanded, [201], [], 'broken', 'JOSE-08'],
    ['opened and read (422)', demanded, [422], [], 'broken', 'JOSE-08'],
    ['an error oracle (500)', demanded, [500], [], 'broken', 'JOSE-08'],
    ['quota (429)', demanded, [429], [], 'unclear', undefined],
    ['a gate refusal (401)', demanded, [401], [], 'unclear', undefined],
    ['no answer', demanded, ['no-answer'], [], 'unclear', undefined],
    ['refused, but the transfer exists', demanded, [400], [200], 'broken', 'JOSE-14'],
    ['refused, GET over quota', demanded, [400], [429], 'unclear', undefined],
    ['refused, GET without answer', demanded, [400], ['no-answer'], 'unclear', undefined],
  ] as const)('create: %s', async (_what, m, put, get, verdict, rule) => {
    const { ctx, sent } = fakeCtx({ create: [...put], get: [...get] });
    const r = await judgeTampered(ctx, 'create', m);
    expect({ verdict: r.verdict, rule: r.rule }).toEqual({ verdict, rule });
    expect(sent).toEqual(['create', ...get.map(() => 'get')]);
  });

  it("the quota's status is the profile's: a gateway quota of 503 is no evidence, a 500 still an error oracle", async () => {
    const quota503 = fakeCtx({ create: [503, 500, 429] }, 503);
    expect(await judgeTampered(quota503.ctx, 'create', demanded)).toMatchObject({ verdict: 'unclear' });
    expect(await judgeTampered(quota503.ctx, 'create', demanded)).toMatchObject({ verdict: 'broken', rule: 'JOSE-08' });
    // a 429 where the quota answers 503: a throttle, no evidence either
    expect(await judgeTampered(quota503.ctx, 'create', demanded)).toMatchObject({ verdict: 'unclear' });
    const refusedGet = fakeCtx({ create: [400], get: [503] }, 503);
    expect(await judgeTampered(refusedGet.ctx, 'create', demanded)).toMatchObject({ verdict: 'unclear' });
  });

  it('validate: a refusal is judged without a GET', async () => {
    const { ctx, sent } = fakeCtx({ validate: [400] });
    expect((await judgeTampered(ctx, 'validate', demanded)).verdict).toBe('held');
    expect(sent).toEqual(['validate']);
  });
});

const DOC = { beneficiary_id: 'BEN-0001', amount: { value: '150.00', currency: 'AED' } };

describe('the positive controls', () => {
  it('keep the shapes accepted unmutated and visible, leave the others out', async () => {
    const { ctx } = fakeCtx({ get: [404, 200, 200], create: [201, 400, 201] });
    const bases = await shapeControls(ctx, { doc: DOC });
    expect(bases.map((b) => b.shape)).toEqual(['single', 'two-signatures']);
  });

  it('are inconclusive when GET of an id never used shows something, or the one-recipient envelope is refused', async () => {
    await expect(shapeControls(fakeCtx({ get: [200] }).ctx, { doc: DOC })).rejects.toBeInstanceOf(Inconclusive);
    // the shapes' controls are sent side by side: each is answered (all refused)
    await expect(shapeControls(fakeCtx({ get: [404], create: [400, 400, 400] }).ctx, { doc: DOC })).rejects.toThrow(
      /positive control: the unmutated envelope was answered HTTP 400/,
    );
  });
});
