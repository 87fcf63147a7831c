/**
 * MASK properties (docs/properties.md): fast-check searches the near-miss identifiers a bank gets wrong, where the
 * fixed-input checks (checks.ts) send a few hand-picked ones. Each input is one validate call naming the near-miss as
 * the debit identifier, with the token of the customer it nearly names: an account id through the code client (that
 * customer's token), an emirates id through the internal client bound to it. A refusal counts only when it is the
 * identifier's (422 or 403 naming account_id / emirates_id, the profile's statuses), next to the exact mask accepted.
 */
import { Inconclusive, type CheckSpec } from '../../lib/engine/check.ts';
import type { ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import { checkProperty, PROPERTY_CHECK, type PropertySpec } from '../../lib/engine/property/property.ts';
import { clearIdMarker } from '../../lib/http/record/redact.ts';
import { mask } from '../../lib/mask/index.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import {
  clearFormWords,
  clearValue,
  editWords,
  idOf,
  nearMissValue,
  owners,
  ownerWords,
  type Owner,
} from './near-miss.ts';
import { clearCoverage, nearMissCoverage } from './near-miss-coverage.ts';
import { judgeRefusal as judge } from './refusal.ts';
// the generators (fast-check) are loaded by these checks when they run, not by every run
import type * as Generators from './near-miss-arb.ts';
const generators = (): Promise<typeof Generators> => import('./near-miss-arb.ts');

/** the customer the internal client's token is bound to by its emirates id (oauth_metadata), if any */
function emiratesHolder(ctx: CheckContext): number | undefined {
  const meta = ctx.profile.clients.internal?.oauthMetadata;
  if (!meta || !('emirates_id' in meta)) return undefined;
  const i = ctx.profile.customers.findIndex((c) => c.emiratesId !== undefined && c.emiratesId === meta.emirates_id);
  return i < 0 ? undefined : i;
}

/** validate naming `value` as the owner's identifier, with the token that may act on the owner (`token`: that token) */
interface Sender {
  (c: CheckContext, owner: Owner, value: string, label: string): Promise<ApiResponse>;
  token(c: CheckContext, owner: Owner): Promise<string | undefined>;
}

function sender(ctx: CheckContext): Sender {
  let internal: Promise<string | undefined> | undefined;
  // the token is fetched again once the clock has moved since (a move to a fresh quota window ages it)
  let since = (): number => 0;
  const internalToken = (c: CheckContext): Promise<string | undefined> => {
    if (since() > 0) internal = undefined;
    if (!internal) since = ctx.clock.stopwatch();
    return (internal ??= c.tokens
      .clientCredentials('internal')
      .then((t) => (typeof t.token?.access_token === 'string' ? t.token.access_token : undefined)));
  };
  const send = async (c: CheckContext, owner: Owner, value: string, label: string): Promise<ApiResponse> => {
    const customer = ctx.profile.customers[owner.customer]!;
    if (owner.id === 'account') {
      const token = await c.tokens.codeToken(customer);
      return c.api({ op: 'validate', token, body: c.transferBody(customer, { account_id: value }), label });
    }
    const token = await internalToken(c);
    if (token === undefined) {
      internal = undefined;
      throw new Inconclusive('the internal client got no token: its emirates ids cannot be tried');
    }
    const res = await c.api({
      op: 'validate',
      as: 'internal',
      token,
      body: c.transferBody(customer, { account_id: undefined, emirates_id: value }),
      label,
    });
    // a token aged out by a move to a fresh quota window: the next input gets a new one
    if (res.status === 401) internal = undefined;
    return res;
  };
  return Object.assign(send, {
    token: (c: CheckContext, owner: Owner): Promise<string | undefined> =>
      owner.id === 'account' ? c.tokens.codeToken(ctx.profile.customers[owner.customer]!) : internalToken(c),
  });
}

/**
 * the positive controls: the exact mask of every owner the inputs are drawn for (each customer, each kind of id)
 * accepted through the same request shape; a refusal of a near miss of an owner whose control was not accepted
 * would prove nothing
 */
async function controls(ctx: CheckContext, who: readonly Owner[], send: Sender): Promise<void> {
  // every owner's token before any control is sent: a token prerequisite that failed blocks the check before it sends
  // anything (a blocked check carries no exchange; test/hostile shows it). The customers' code tokens side by side
  // (one prerequisite guards them all), the internal client's after them (not sent when that prerequisite blocks)
  const accounts = who.filter((o) => o.id === 'account');
  // every fetch settled, the first failure in the owners' order thrown: the same reason whichever failed first in time
  const settled = await Promise.allSettled(accounts.map((o) => send.token(ctx, o)));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  for (const o of who) {
    if (o.id === 'account') continue;
    if ((await send.token(ctx, o)) === undefined)
      throw new Inconclusive('the internal client got no token: its emirates ids cannot be tried');
  }
  // then every owner's control side by side, judged in the owners' order
  const answers = await Promise.all(
    who.map((o) =>
      send(ctx, o, mask(idOf(ctx.profile.customers, o)), `positive control: ${o.id} id masked by the rule`),
    ),
  );
  for (const [i, o] of who.entries()) {
    const res = answers[i]!;
    ctx.note(`positive control (${ownerWords(ctx.profile.customers, o)} masked by the rule): HTTP ${res.status}`);
    if (res.status !== 200)
      throw new Inconclusive(
        `positive control: the exact mask of ${ownerWords(ctx.profile.customers, o)} was answered HTTP ${res.status}, not 200: a refusal of a near miss would prove nothing`,
      );
  }
}

function ownersOf(ctx: CheckContext): Owner[] {
  const holder = emiratesHolder(ctx);
  return owners(ctx.profile.customers, holder === undefined ? [] : [holder]);
}

const spends = (n: { owner: Owner }) => ({ as: n.owner.id === 'account' ? ('code' as const) : ('internal' as const) });

export function masksSpec(
  ctx: CheckContext,
  gen: typeof Generators,
): PropertySpec<Parameters<typeof nearMissValue>[1]> {
  const customers: readonly Customer[] = ctx.profile.customers;
  const who = ownersOf(ctx);
  const send = sender(ctx);
  const s = ctx.profile.contract.statuses;
  const refused = [...s.unmaskedIdentifier, ...s.mismatchedIdentifier];
  const value = (n: Parameters<typeof nearMissValue>[1]): string => nearMissValue(customers, n);
  return {
    what: 'near-miss masks',
    held: 'refused',
    arbitrary: gen.nearMisses(customers, who),
    coverage: () => nearMissCoverage(customers, who),
    show: (n) =>
      `${JSON.stringify(value(n))} (${n.edits.map(editWords).join(', ')}) as ${ownerWords(customers, n.owner)}`,
    spends,
    expected: `HTTP ${refused.join(' or ')} naming the identifier`,
    control: (c) => controls(c, who, send),
    trial: async (c, n) => judge(await send(c, n.owner, value(n), 'property input: near-miss mask'), refused),
    failure: (n, t) =>
      `accepted ${JSON.stringify(value(n))} (${n.edits.map(editWords).join(', ')}) as a mask of ${ownerWords(customers, n.owner)}: ${t.observed}`,
  };
}

export function clearSpec(ctx: CheckContext, gen: typeof Generators): PropertySpec<Parameters<typeof clearValue>[1]> {
  const customers: readonly Customer[] = ctx.profile.customers;
  const who = ownersOf(ctx);
  const send = sender(ctx);
  const s = ctx.profile.contract.statuses;
  const value = (n: Parameters<typeof clearValue>[1]): string => clearValue(customers, n);
  // the exact clear id is the contract's 422; a look-alike of it may also be refused as no identifier of the token's
  const refusedFor = (n: Parameters<typeof clearValue>[1]): number[] =>
    n.form.op === 'clear' ? [...s.unmaskedIdentifier] : [...s.unmaskedIdentifier, ...s.mismatchedIdentifier];
  const words = (n: Parameters<typeof clearValue>[1]): string =>
    `${ownerWords(customers, n.owner)} ${clearFormWords(n.form)}`;
  return {
    what: 'clear identifiers and look-alikes',
    held: 'refused',
    arbitrary: gen.clearNearMisses(who),
    coverage: () => clearCoverage(who),
    show: words,
    // the value shows the clear id: never in the report, whatever form it takes
    sensitive: (n) => [
      {
        value: value(n),
        marker: `${clearIdMarker(n.owner.id === 'account' ? 'account-id' : 'emirates-id', customers[n.owner.customer]!.name)} (${clearFormWords(n.form)})`,
      },
    ],
    spends,
    expected: `HTTP ${s.unmaskedIdentifier.join(' or ')} (a look-alike: or ${s.mismatchedIdentifier.join(' or ')})`,
    control: (c) => controls(c, who, send),
    trial: async (c, n) => judge(await send(c, n.owner, value(n), 'property input: clear identifier'), refusedFor(n)),
    failure: (n, t) => `did not refuse ${words(n)}: ${t.observed}`,
  };
}

export const propertyChecks: readonly CheckSpec[] = [
  {
    name: 'near-miss-masks-refused-property',
    requirements: ['MASK-01', 'MASK-02'],
    title:
      "property: near-miss masks of every customer's account id and emirates id (a kept character changed, dropped or doubled, one x more or less, X * • and look-alikes of x, whitespace inside, another customer's kept part, mixed) are all refused; the exact mask is accepted",
    ...PROPERTY_CHECK,
    async run(ctx) {
      await checkProperty(ctx, masksSpec(ctx, await generators()));
    },
  },
  {
    name: 'clear-identifiers-refused-property',
    requirements: ['MASK-03'],
    title:
      'property: the clear account ids and emirates ids of every customer, and their look-alikes (whitespace inside or around, dashes), are all refused; the exact mask is accepted',
    ...PROPERTY_CHECK,
    async run(ctx) {
      await checkProperty(ctx, clearSpec(ctx, await generators()));
    },
  },
];
