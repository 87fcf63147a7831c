/**
 * The bank's OpenAPI document as its promise to its partners (docs/openapi.md): every answer of the run to the
 * transfers API judged against it (lib/engine/session/openapi-answers.ts), one check per requirement, run once every other
 * check has ended (CheckDefinition.last). The other checks keep their own verdicts; a finding here is reported once
 * per operation, status and schema path, with the first exchange that showed it.
 */
import { CheckFailed, defineSuite, Inconclusive, NotApplicable, valueFailure } from '../../lib/engine/check.ts';
import { failure, type Failure } from '../../lib/engine/failure.ts';
import type { RecordedExchange } from '../../lib/engine/results.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { OasFinding } from '../../lib/engine/session/openapi-answers.ts';
import type { OasRequirement } from '../../lib/openapi/judge.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';
import { probeSecurity } from './security-probe.ts';

/** at most this many findings' exchanges copied into the check's evidence */
const MAX_EVIDENCE = 12;

const noDocument = (p: FullProfile): string | undefined =>
  p.target.openapi ? undefined : 'the profile names no OpenAPI document (target.openapi)';

/**
 * a positive control: the operations the harness calls, each answered once at least — a run of the openapi suite
 * alone calls them itself (validate, create, then get of what it created), a full run has already
 */
async function ensureCalled(ctx: CheckContext): Promise<void> {
  const rows = ctx.answers!.table().rows;
  const called = (key: string): boolean => rows.some((r) => r.key === key && r.valid + r.invalid > 0);
  if (called('validate') && called('create') && called('get')) return;
  const customer = ctx.customer({ workflow: false });
  const token = await ctx.tokens.codeToken(customer);
  const body = ctx.transferBody(customer);
  await ctx.api({ op: 'validate', token, body, label: 'validate (OpenAPI coverage)' });
  const transferId = ctx.newTransferId();
  await ctx.api({ op: 'create', transferId, token, body, label: 'create (OpenAPI coverage)' });
  await ctx.api({ op: 'get', transferId, token, label: 'get (OpenAPI coverage)' });
}

function describeFinding(f: OasFinding): string {
  const where = f.evidence ? ` [${f.evidence.label ?? `${f.evidence.method} ${f.evidence.url}`}]` : '';
  return `${f.operation} → ${f.status}: ${f.message}${where}`;
}

/**
 * a finding as a record; the exchange it came from named by its label when the check's evidence keeps it and no
 * other exchange kept has that label
 */
function documentFailure(f: OasFinding, what: string, kept: readonly RecordedExchange[]): Failure {
  const label = f.evidence?.label;
  const unique =
    label !== undefined && kept.includes(f.evidence!) && kept.filter((x) => x.label === label).length === 1;
  const data = { status: f.status, documented: f.documented, schemaPath: f.schemaPath };
  return failure('document', describeFinding(f), data, {
    title: what,
    operation: f.operation,
    requirements: [f.requirement],
    observed: f.message,
    ...(unique ? { label } : {}),
  });
}

async function judge(ctx: CheckContext, requirement: OasRequirement, what: string): Promise<void> {
  const answers = ctx.answers;
  if (!answers) throw new NotApplicable('the profile names no OpenAPI document (target.openapi)');
  for (const n of ctx.openapi?.notes ?? []) ctx.note(n);
  await ensureCalled(ctx);
  const table = answers.table();
  const judged = table.rows.reduce((n, r) => n + r.valid + r.invalid, 0);
  const mine = answers.findings().filter((f) => f.requirement === requirement);
  if (mine.length > 0) {
    const exchanges = [...new Set(mine.flatMap((f) => (f.evidence ? [f.evidence] : [])).slice(0, MAX_EVIDENCE))];
    ctx.adopt({ exchanges, notes: [], tls: [] });
    throw new CheckFailed(
      `${mine.length} answer${mine.length > 1 ? 's' : ''} of ${judged} ${mine.length > 1 ? 'differ' : 'differs'} from ${table.source} (${what}):\n${mine.map(describeFinding).join('\n')}`,
      {
        expected: what,
        observed: mine.map(describeFinding).slice(0, 3).join('; '),
        failures: mine.map((f) => documentFailure(f, what, exchanges)),
      },
    );
  }
  if (judged === 0)
    throw new Inconclusive(`no answer of the run matched an operation of ${table.source}: nothing was judged`);
  ctx.note(`${judged} answers judged against ${table.source}: ${what}`);
}

export const suite = defineSuite('openapi', [
  {
    name: 'status-documented',
    requirements: ['OAS-01'],
    title: 'every answer has a status the document lists for its operation',
    last: true,
    notApplicable: noDocument,
    run: (ctx) => judge(ctx, 'OAS-01', 'each status documented for its operation'),
  },
  {
    name: 'content-type-documented',
    requirements: ['OAS-02'],
    title: 'every answer has a Content-Type the document lists for its operation and status',
    last: true,
    notApplicable: noDocument,
    run: (ctx) => judge(ctx, 'OAS-02', 'each Content-Type documented for its status'),
  },
  {
    name: 'body-valid',
    requirements: ['OAS-03'],
    title: "every answer's body (sealed: its payload) is valid against the document's schema",
    last: true,
    notApplicable: noDocument,
    run: (ctx) => judge(ctx, 'OAS-03', 'each body valid against its schema'),
  },
  {
    name: 'headers-documented',
    requirements: ['OAS-06'],
    title: 'every answer carries the response headers the document requires, each value valid against its schema',
    last: true,
    notApplicable: noDocument,
    run: (ctx) => judge(ctx, 'OAS-06', 'each documented response header present when required and valid'),
  },
  {
    name: 'security-held',
    requirements: ['OAS-07'],
    title: 'no 2xx answer to a call without the security the document gives its operation (oauth2, mutualTLS, ...)',
    last: true,
    notApplicable: noDocument,
    run: async (ctx) => {
      if (ctx.answers) await probeSecurity(ctx);
      await judge(ctx, 'OAS-07', "each operation's documented security held");
    },
  },
  {
    name: 'document-consistent',
    requirements: ['OAS-08'],
    title: 'the document agrees with itself: its examples valid against their schemas, no schema contradicting itself',
    notApplicable: noDocument,
    // the document only: no traffic
    run: (ctx) => {
      const model = ctx.openapi;
      if (!model) throw new NotApplicable('the profile names no OpenAPI document (target.openapi)');
      const found = model.documentFindings ?? [];
      if (found.length > 0) {
        const lines = found.map((f) => `${f.pointer}: ${f.message}`);
        // one record per contradiction: what was read is the document's place (its JSON pointer)
        const failures = found.map((f, i) =>
          valueFailure(f.pointer, lines[i]!, { title: 'document contradicts itself', observed: f.message }),
        );
        throw new CheckFailed(
          `${found.length} contradiction${found.length > 1 ? 's' : ''} of ${model.source} with itself (what partners code against):\n${lines.join('\n')}`,
          {
            expected: 'examples valid against their schemas, schemas that admit a document',
            observed: lines.slice(0, 3).join('; '),
            failures,
          },
        );
      }
      ctx.note(`${model.source}: its examples valid against their schemas, no schema contradicting itself`);
      return Promise.resolve();
    },
  },
]);
