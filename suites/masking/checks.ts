/**
 * MASK: masked identifiers (specification §2, §5.6). The target is held to the rule (the harness's own `mask` is tested
 * against the specification's literal vectors in test/mask, never reported as a target's verdict): it refuses ids
 * masked any other way, echoes only the rule's mask, refuses clear ids (MASK-03) and never returns a clear id
 * anywhere (MASK-04). Target checks use the code client (customer 0) unless said otherwise.
 */
import {
  CheckFailed,
  defineSuite,
  Inconclusive,
  leakFailure,
  NotApplicable,
  NotRun,
  statusFailure,
  valueFailure,
} from '../../lib/engine/check.ts';
import { exchangeOf } from '../../lib/http/record/exchanges.ts';
import { failure, type Failure } from '../../lib/engine/failure.ts';
import type { ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import { mask, MASK_KEEP_HEAD, MASK_KEEP_TAIL } from '../../lib/mask/index.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { judgeRefusal } from './refusal.ts';
import { identifierMembers, ruleViolation } from './rule.ts';
import { together } from '../shared.ts';
import { propertyChecks } from './property.ts';

const GATE = new Set([401, 403, 429]);

/** the id with its middle replaced: `ch` repeated `middle` times between the kept head and tail */
function remask(id: string, ch: string, middle: number): string {
  const a = Array.from(id);
  return a.slice(0, MASK_KEEP_HEAD).join('') + ch.repeat(Math.max(0, middle)) + a.slice(-MASK_KEEP_TAIL).join('');
}

const middleOf = (id: string): number => Array.from(id).length - MASK_KEEP_HEAD - MASK_KEEP_TAIL;

/** expectReached, but any other status is inconclusive too: these calls only set the scene */
function scene(res: ApiResponse, expected: readonly number[], what: string): void {
  if (!expected.includes(res.status)) {
    throw new Inconclusive(
      `${what}: expected HTTP ${expected.join(' or ')}, observed ${res.status}; the masking rule cannot be examined`,
    );
  }
  if (res.opened && !res.opened.ok)
    throw new Inconclusive(`${what}: the sealed response did not open (${res.opened.code}): JOSE-11's rule`);
}

interface Probe {
  title: string;
  value: string;
}

/** a probe the target did not refuse, as a record (its message: the probe's line of the reason) */
function probeNotRefused(p: Probe, status: number, observed: string, refused: readonly number[]): Failure {
  const data = { case: p.title, caseTitle: p.title, outcome: status < 300 ? 'accepted' : 'other', status };
  return failure('negative-accepted', `${p.title} (${observed})`, data, {
    operation: 'validate',
    label: p.title,
    expected: `HTTP ${refused.join(' or ')}`,
    observed,
  });
}

/**
 * Sends validate with the account id replaced by each probe value (after a control with the rule's mask) and
 * requires each to be refused with one of `refused` as the identifier's refusal (refusal.ts); 2xx, a 5xx or another
 * status fails, 401/429, a refusal it cannot attribute (and 403 when it is not a refusal status here) is inconclusive.
 */
async function refusedProbes(
  ctx: CheckContext,
  probes: readonly Probe[],
  refused: readonly number[],
  what: string,
): Promise<void> {
  const c = ctx.customer(0);
  const token = await ctx.tokens.codeToken(c);
  const control = await ctx.api({
    op: 'validate',
    token,
    body: ctx.transferBody(c),
    label: 'positive control: account_id masked by the rule',
  });
  ctx.note(`positive control (account_id masked by the rule): HTTP ${control.status}`);
  if (control.status !== 200)
    throw new Inconclusive(
      `positive control: the correctly masked request was answered HTTP ${control.status}, not 200`,
    );
  const bad: Failure[] = [];
  const unclear: string[] = [];
  for (const p of probes) {
    const res = await ctx.api({
      op: 'validate',
      token,
      body: ctx.transferBody(c, { account_id: p.value }),
      label: p.title,
    });
    // the identifier's refusal only (refusal.ts): a refusal naming another member, a gateway's body-less 403 or a
    // sealed answer that did not open proves nothing; a crash (5xx) is never a refusal
    const t = judgeRefusal(res, refused);
    ctx.note(`${p.title}: ${t.observed}`);
    if (t.verdict === 'held') continue;
    if (t.verdict === 'unclear' && res.status < 500) unclear.push(`${p.title} (${t.observed})`);
    else bad.push(probeNotRefused(p, res.status, t.observed, refused));
  }
  if (bad.length) {
    const list = bad.map((f) => f.message).join('; ');
    throw new CheckFailed(`${what}: not refused: ${list}`, {
      expected: `HTTP ${refused.join(' or ')}`,
      observed: list,
      failures: bad,
    });
  }
  if (unclear.length)
    throw new Inconclusive(`${what}: refused before the identifier was examined: ${unclear.join('; ')}`);
}

/** the mask rule, as a returned identifier's record expects it */
const RULE = 'first 4 and last 3 kept, x between, same length';

/** the profile's clear identifiers, named without showing them */
function clearIds(ctx: CheckContext): { value: string; what: string }[] {
  return ctx.profile.customers.flatMap((c: Customer) => [
    { value: c.accountId, what: `the account id of customer "${c.name}"` },
    ...(c.emiratesId ? [{ value: c.emiratesId, what: `the emirates id of customer "${c.name}"` }] : []),
  ]);
}

export const suite = defineSuite('masking', [
  {
    name: 'target-refuses-other-mask-characters',
    requirements: ['MASK-01'],
    title: 'the target refuses an account id masked with another character than x (X, *)',
    async run(ctx) {
      const id = ctx.customer(0).accountId;
      const s = ctx.profile.contract.statuses;
      await refusedProbes(
        ctx,
        [
          { title: 'account_id masked with "X"', value: remask(id, 'X', middleOf(id)) },
          { title: 'account_id masked with "*"', value: remask(id, '*', middleOf(id)) },
        ],
        [...s.unmaskedIdentifier, ...s.mismatchedIdentifier],
        'a mask with another character',
      );
    },
  },
  {
    name: 'target-refuses-wrong-length-mask',
    requirements: ['MASK-02'],
    title: 'the target refuses a masked account id one character shorter or longer than the id (the length is kept)',
    async run(ctx) {
      const id = ctx.customer(0).accountId;
      const s = ctx.profile.contract.statuses;
      await refusedProbes(
        ctx,
        [
          { title: 'account_id mask one x short', value: remask(id, 'x', middleOf(id) - 1) },
          { title: 'account_id mask one x long', value: remask(id, 'x', middleOf(id) + 1) },
        ],
        [...s.unmaskedIdentifier, ...s.mismatchedIdentifier],
        'a mask of the wrong length',
      );
    },
  },
  {
    name: 'echoed-identifiers-follow-the-rule',
    requirements: ['MASK-01', 'MASK-02'],
    title: "a masked account id or emirates id the target returns (validate, create, get) is exactly the rule's mask",
    async run(ctx) {
      const c = ctx.customer(0);
      const token = await ctx.tokens.codeToken(c);
      const body = ctx.transferBody(c);
      const v = await ctx.api({ op: 'validate', token, body });
      scene(v, [200], 'validate');
      const id = ctx.newTransferId();
      const cr = await ctx.api({ op: 'create', transferId: id, token, body });
      scene(cr, ctx.profile.contract.statuses.create, 'create');
      const g = await ctx.api({ op: 'get', transferId: id, token });
      scene(g, [200], 'get');
      const clear = clearIds(ctx);
      const problems: Failure[] = [];
      let judged = 0;
      for (const [label, res] of [
        ['validate', v],
        ['create', cr],
        ['get', g],
      ] as const) {
        for (const m of identifierMembers(res.body, label)) {
          if (clear.some((x) => x.value === m.value)) {
            ctx.note(`${m.path}: a clear identifier (MASK-04's rule, not judged here)`);
            continue;
          }
          // the profile identifier this value masks: same kept head and tail
          const head = (s: string): string => Array.from(s).slice(0, MASK_KEEP_HEAD).join('');
          const tail = (s: string): string => Array.from(s).slice(-MASK_KEEP_TAIL).join('');
          const of = clear.find((x) => head(x.value) === head(m.value) && tail(x.value) === tail(m.value));
          if (!of) {
            ctx.note(`${m.path}: not the mask of a profile identifier (not judged)`);
            continue;
          }
          judged += 1;
          const why = ruleViolation(of.value, m.value);
          ctx.note(`${m.path}: masks ${of.what}: ${why ?? 'follows the rule'}`);
          if (why)
            problems.push(
              valueFailure(m.path, `${m.path} (${of.what}): ${why}`, {
                expected: RULE,
                observed: why,
                operation: label,
                from: exchangeOf(res.raw),
              }),
            );
        }
      }
      if (problems.length) {
        const list = problems.map((f) => f.message).join('; ');
        throw new CheckFailed(`masked identifiers returned by the target break the rule: ${list}`, {
          expected: RULE,
          observed: list,
          failures: problems,
        });
      }
      if (judged === 0)
        throw new NotApplicable(
          'the target returns no masked account id or emirates id in validate, create or get responses',
        );
    },
  },
  {
    name: 'unmasked-identifier-refused',
    requirements: ['MASK-03'],
    title: 'a call naming a clear (unmasked) account id is refused',
    async run(ctx) {
      const refused = ctx.profile.contract.statuses.unmaskedIdentifier;
      const c = ctx.customer(0);
      await refusedProbes(ctx, [{ title: 'account_id sent clear', value: c.accountId }], refused, 'a clear account id');
    },
  },
  {
    // the rule's other half, its own verdict: a profile that cannot try it leaves it not run, never passed
    name: 'unmasked-emirates-id-refused',
    requirements: ['MASK-03'],
    title: 'a call naming a clear (unmasked) emirates id is refused',
    async run(ctx) {
      const refused = ctx.profile.contract.statuses.unmaskedIdentifier;
      // needs a client whose token is bound to an emirates id (the profile's internal client)
      const meta = ctx.profile.clients.internal?.oauthMetadata;
      const holder =
        meta && 'emirates_id' in meta
          ? ctx.profile.customers.find((x) => x.emiratesId === meta.emirates_id)
          : undefined;
      if (!holder?.emiratesId)
        throw new NotRun('the profile has no client bound to the emirates id of one of its customers');
      const t = await ctx.tokens.clientCredentials('internal');
      const token = t.token && typeof t.token.access_token === 'string' ? t.token.access_token : undefined;
      const call = (emiratesId: string, label: string): Promise<ApiResponse> =>
        ctx.api({
          op: 'validate',
          as: 'internal',
          token: token ?? null,
          body: ctx.transferBody(holder, { account_id: undefined, emirates_id: emiratesId }),
          label,
        });
      const control = token
        ? await call(mask(holder.emiratesId), 'positive control: emirates_id masked by the rule')
        : undefined;
      ctx.note(
        `positive control (emirates-bound client, emirates_id masked by the rule): ${control ? `HTTP ${control.status}` : 'no token'}`,
      );
      if (!control || control.status !== 200) {
        throw new Inconclusive(
          `the emirates-bound client's correctly masked call was not accepted (${control ? `HTTP ${control.status}` : 'no token'}): a refusal of the clear one would prove nothing`,
        );
      }
      const res = await call(holder.emiratesId, 'emirates_id sent clear');
      ctx.note(`emirates_id sent clear: HTTP ${res.status}${refused.includes(res.status) ? ' -> refused' : ''}`);
      if (refused.includes(res.status)) return;
      if (GATE.has(res.status))
        throw new Inconclusive(
          `emirates_id sent clear: refused before the identifier was examined (HTTP ${res.status})`,
        );
      throw CheckFailed.of(
        statusFailure(
          res,
          refused,
          `a clear emirates id was not refused (HTTP ${res.status}${res.status < 300 ? ', accepted' : ''})`,
          { title: 'clear identifier not refused', expected: `HTTP ${refused.join(' or ')}` },
        ),
      );
    },
  },
  {
    name: 'no-clear-identifier-returned',
    requirements: ['MASK-04'],
    title:
      'no response body, header or error (validate, create, get, 422, 403, 404) contains a clear account id or emirates id of any customer',
    async run(ctx) {
      const c = ctx.customer(0);
      const other = ctx.profile.customers.find((x) => x.accountId !== c.accountId);
      const token = await ctx.tokens.codeToken(c);
      const body = ctx.transferBody(c);
      const seen: [string, ApiResponse][] = [];
      const id = ctx.newTransferId();
      // the calls side by side (the get after its create), their answers judged in this order
      const [v, [cr, g], clear, others, unknown] = await together([
        ctx.api({ op: 'validate', token, body }),
        ctx
          .api({ op: 'create', transferId: id, token, body })
          .then(async (created) => [created, await ctx.api({ op: 'get', transferId: id, token })] as const),
        // error answers: whatever status they get, their text is scanned
        ctx.api({
          op: 'validate',
          token,
          body: ctx.transferBody(c, { account_id: c.accountId }),
          label: 'validate, account id clear',
        }),
        other
          ? ctx.api({
              op: 'validate',
              token,
              body: ctx.transferBody(c, { account_id: mask(other.accountId) }),
              label: "validate, another customer's account",
            })
          : Promise.resolve(undefined),
        ctx.api({ op: 'get', transferId: ctx.newTransferId(), token, label: 'get, unknown transfer' }),
      ]);
      scene(v, [200], 'validate');
      seen.push(['validate', v]);
      scene(cr, ctx.profile.contract.statuses.create, 'create');
      seen.push(['create', cr]);
      scene(g, [200], 'get');
      seen.push(['get', g]);
      seen.push(['validate with the account id sent clear (a 422)', clear]);
      if (others) seen.push(["validate naming another customer's account (a 403)", others]);
      seen.push(['get of an unknown transfer (a 404)', unknown]);

      const ids = clearIds(ctx);
      const leaks: string[] = [];
      const unread: string[] = [];
      for (const [label, res] of seen) {
        const places: [string, string][] = [
          ['body', res.raw.text],
          ...Object.entries(res.headers).map(([h, val]): [string, string] => [`header ${h}`, `${h}: ${val}`]),
        ];
        if (res.opened?.ok) places.push(['opened payload', JSON.stringify(res.opened.payload)]);
        else if (res.opened)
          unread.push(`${label} (HTTP ${res.status}: the sealed answer did not open, ${res.opened.code})`);
        for (const [where, text] of places)
          for (const x of ids) if (text.includes(x.value)) leaks.push(`${label}, ${where}: ${x.what}`);
        ctx.note(
          `${label}: HTTP ${res.status}, scanned ${places
            .map((p) => p[0].split(' ')[0])
            .filter((p, i, a) => a.indexOf(p) === i)
            .join(', ')}`,
        );
      }
      if (leaks.length)
        throw CheckFailed.of(
          leakFailure(`clear identifiers returned: ${leaks.join('; ')}`, leaks, {
            title: 'clear identifier returned',
            expected: 'masked identifiers only',
            observed: leaks.join('; '),
          }),
        );
      if (unread.length) throw new Inconclusive(`some answers could not be read: ${unread.join('; ')}`);
    },
  },
  ...propertyChecks,
]);
