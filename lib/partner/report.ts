/**
 * A partner run as RunResults (lib/engine/results.ts), so that lib/report writes, signs and verifies it like a
 * certify run: one ProfileRun (environment = the mock's mode), one CheckResult per requirement id, the recorded
 * requests as each verdict's evidence, redacted here (tokens, the client secret, clear ids → masks).
 */
import { basename } from 'node:path';
import { catalogueVersion, requirement } from '../catalogue/index.ts';
import { harnessInfo } from '../engine/run/certify.ts';
import {
  RESULTS_SCHEMA_VERSION,
  type PrerequisiteResult,
  type CheckResult,
  type RecordedExchange,
  type RunResults,
  type Verdict,
} from '../engine/results.ts';
import { createRedactor, learnFromHeaders } from '../http/index.ts';
import type { Redactor } from '../http/types.ts';
import { classify } from '../jose/index.ts';
import { completed, judge, type Judgement } from './judge/judge.ts';
import type { PartnerRun } from './run.ts';
import { scenario } from './scenarios.ts';
import type { ScenarioRun, SeenRequest } from './types.ts';

const MAX_BODY_SHOWN = 2_000;

export function partnerRedactor(run: PartnerRun): Redactor {
  const r = createRedactor();
  r.add(run.clientSecret, 'client-secret');
  for (const id of run.clearIds) r.add(id, id.startsWith('784') && id.length === 15 ? 'emirates-id' : 'account-id');
  for (const s of run.runs) for (const q of s.requests) learnFromHeaders(r, q.headers);
  return r;
}

function shownBody(text: string, r: Redactor): string | undefined {
  if (!text) return undefined;
  const k = classify(text);
  if (k.kind === 'jwe' || k.kind === 'jws') return `<sealed ${k.kind.toUpperCase()} (${k.form}), ${text.length} bytes>`;
  const red = r.redact(text);
  return red.length > MAX_BODY_SHOWN ? `${red.slice(0, MAX_BODY_SHOWN)}… (${red.length} chars)` : red;
}

export function exchangeOfSeen(scenarioId: string, q: SeenRequest, r: Redactor): RecordedExchange {
  const reqBody = shownBody(q.body, r);
  const resBody = q.response ? shownBody(q.response.body, r) : undefined;
  const tls = q.tlsProtocol ? `, ${q.tlsProtocol}` : '';
  return {
    label: `${scenarioId} #${q.seq} ${q.route}${tls}${q.misbehaviour ? ` [bank: ${q.misbehaviour}]` : ''}`,
    method: q.method,
    url: r.redact(q.target),
    startedAt: new Date(q.at).toISOString(),
    durationMs: q.response ? q.response.at - q.at : 0,
    request: { headers: r.redactHeaders(q.headers), ...(reqBody !== undefined ? { body: reqBody } : {}) },
    ...(q.response
      ? {
          response: {
            status: q.response.status,
            headers: r.redactHeaders(q.response.headers),
            ...(resBody !== undefined ? { body: resBody } : {}),
          },
        }
      : { error: 'no answer sent (the bank misbehaved, or the connection ended)' }),
  };
}

function verdictOf(j: Judgement): Verdict {
  if (j.outcome === 'broken') return requirement(j.id).level === 'MUST' ? 'fail' : 'warn';
  return j.outcome;
}

function resultOf(j: Judgement, r: Redactor): CheckResult {
  const req = requirement(j.id);
  return {
    // a variant (CLI-02's negative catalogue) is a check of its own: one row per scenario in the report
    checkId: `partner.${j.id.toLowerCase()}${j.variant ? `.${j.variant}` : ''}`,
    suite: 'partner',
    title: j.variant ? `${req.title} — ${scenario(j.variant).title}` : req.title,
    requirements: [j.id],
    level: req.level,
    verdict: verdictOf(j),
    reason: r.redact(j.reason),
    evidence: {
      exchanges: j.evidence.map((e) => exchangeOfSeen(e.scenario, e.request, r)),
      notes: [],
      tls: [],
    },
    durationMs: 0,
  };
}

/** the client's last answers from the bank, newest last: why a client that did not complete stopped */
export function lastAnswers(s: ScenarioRun, r: Redactor, n = 3): string {
  const shown = s.requests.slice(-n).map((q) => {
    const answer = q.response ? `${q.response.status}${errorOf(q.response.body, r)}` : 'no answer';
    return `#${q.seq} ${q.method} ${q.route} → ${answer}`;
  });
  return shown.length ? shown.join('; ') : 'no request reached the bank';
}

function errorOf(body: string, r: Redactor): string {
  try {
    const o = JSON.parse(body) as Record<string, unknown>;
    const why = o.error_description ?? o.response_message ?? o.error;
    return typeof why === 'string' ? ` (${r.redact(why).slice(0, 120)})` : '';
  } catch {
    return '';
  }
}

/** the client's own last line of output (its reason, when it says one) */
function lastLine(output: string, r: Redactor): string {
  const line = output.trim().split('\n').pop()?.trim() ?? '';
  return line ? `; it said: "${r.redact(line).slice(0, 200)}"` : '';
}

/**
 * the positive control of the whole certification: with a bank that behaves, the client completes the task. A
 * client that does not fails it (as a failed prerequisite fails a certify run): its refusals elsewhere prove
 * nothing, and why it stopped (its last answers, its last words) is the reason.
 */
export function normalTask(run: PartnerRun, r: Redactor): PrerequisiteResult[] {
  const normal = run.runs.find((s) => s.scenario === 'normal');
  if (!normal) return [];
  const ok = completed(normal);
  return [
    {
      id: 'partner-normal-task',
      title: 'with a bank that behaves, the client completes the task (token, validate, create, get; exit 0)',
      verdict: ok ? 'pass' : 'fail',
      ...(ok
        ? {}
        : {
            reason:
              `scenario normal: the client did not complete the task (exit ${normal.exitCode ?? 'none'}` +
              `${normal.stopped ? `, ${normal.stopped}` : ''}); its last answers: ${lastAnswers(normal, r)}` +
              lastLine(normal.output, r),
          }),
      evidence: {
        exchanges: normal.requests.slice(-5).map((q) => exchangeOfSeen('normal', q, r)),
        notes: [],
        tls: [],
      },
      durationMs: normal.durationMs,
    },
  ];
}

export function partnerResults(
  run: PartnerRun,
  judgements: Judgement[],
  failOn: 'must' | 'should' = 'must',
): RunResults {
  const r = partnerRedactor(run);
  const finishedAt = new Date(Date.parse(run.startedAt) + run.durationMs).toISOString();
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    harness: harnessInfo(),
    catalogueVersion,
    startedAt: run.startedAt,
    finishedAt,
    options: { long: false, destructive: false, failOn, filters: {} },
    // stopped by a signal: INTERRUPTED (exit 130 / 143), certify's verdict (lib/engine/verdict.ts)
    ...(run.interrupted ? { interrupted: { signal: run.interrupted, at: finishedAt } } : {}),
    profiles: [
      {
        profile: `partner-${run.certificate.cn ?? run.setup.clientId}`,
        environment: run.setup.mode,
        target: { baseUrl: 'embedded mock bank (partner certification)', embeddedMock: true, faults: [] },
        assumptions: {
          partner: {
            certificateFile: basename(run.certificate.file),
            certificateSha256: run.setup.certSha256,
            certificateCn: run.certificate.cn,
            certificateExpiry: run.certificate.expiry,
            clientId: run.setup.clientId,
            flow: run.setup.flow,
            // keyed by scenario id: the HTML report flattens it into one row per fact
            scenarios: Object.fromEntries(
              run.runs.map((s) => [
                s.scenario,
                {
                  bank: scenario(s.scenario).title,
                  expected: scenario(s.scenario).expected,
                  exitCode: s.exitCode,
                  ...(s.stopped ? { stopped: s.stopped } : {}),
                  // a scenario the client should have completed and did not: why (its last answers, last words)
                  ...(scenario(s.scenario).completes && !completed(s)
                    ? { didNotComplete: `its last answers: ${lastAnswers(s, r)}${lastLine(s.output, r)}` }
                    : {}),
                  requests: s.requests.length,
                  durationMs: s.durationMs,
                  output: r.redact(s.output),
                },
              ]),
            ),
          },
        },
        startedAt: run.startedAt,
        durationMs: run.durationMs,
        results: judgements.map((j) => resultOf(j, r)),
        errors: run.errors.map((e) => r.redact(e)),
        prerequisites: normalTask(run, r),
        ...(run.interrupted ? { interrupted: run.interrupted } : {}),
      },
    ],
  };
}

/** certify's exit codes, from certify's verdicts (lib/engine/verdict.ts): a partial certification never passes */
export { exitCodeOf } from '../engine/verdict.ts';

/** judges a partner run (every scenario's requests) and builds its results */
export async function judgedResults(run: PartnerRun, failOn: 'must' | 'should' = 'must'): Promise<RunResults> {
  const judgements = await judge({
    setup: run.setup,
    runs: run.runs,
    bankApiPrivateKeyPem: run.pki.bankApi.privateKeyPem,
    clearIds: run.clearIds,
    certificateProblems: [],
  });
  return partnerResults(run, judgements, failOn);
}
