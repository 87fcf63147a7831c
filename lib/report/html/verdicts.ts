/** "What failed" (fix first, failed, not verified, waived, run errors) and "Verdict per profile" (cards, counts). */
import type { CheckResult, ProfileRun, RunResults } from '../../engine/results.ts';
import { breaksRule, unverified } from '../../engine/verdict.ts';
import { VERDICTS, countVerdicts, profileVerdict } from '../summary.ts';
import { badge, checkAnchor, ms, prereqAnchor, verdictBanner } from './format.ts';
import { html } from './template.ts';
import type { Raw } from './template.ts';

interface Located {
  run: ProfileRun;
  pi: number;
  c: CheckResult;
  ri: number;
}
function attentionList(items: Located[], title: string, why: (c: CheckResult) => string | undefined): Raw {
  if (items.length === 0) return html``;
  return html`<h3>${title} <span class="cnt">${items.length}</span></h3><ul class="attention">${items.map(
    ({ run, pi, c, ri }) =>
      html`<li>${badge(c.verdict)} <a class="jump" href="#${checkAnchor(pi, ri)}"><code>${c.checkId}</code></a> <span class="rq">${c.requirements.join(' ')}</span> <span class="muted">${run.profile}</span> — ${c.title}${why(c) ? html`<br><span class="why">${why(c)}</span>` : ''}</li>`,
  )}</ul>`;
}

/** the failed prerequisites (fix these first), each with its cause and the checks it kept from running */
function fixFirstList(r: RunResults): Raw {
  const failed = r.profiles.flatMap((run, pi) =>
    (run.prerequisites ?? []).filter((q) => q.verdict === 'fail').map((q) => ({ run, pi, q })),
  );
  if (failed.length === 0) return html``;
  return html`<h3>Fix first: prerequisites that failed <span class="cnt">${failed.length}</span></h3><ul class="attention">${failed.map(
    ({ run, pi, q }) =>
      html`<li id="${prereqAnchor(pi, q.id)}">${badge('fail')} <code>${q.id}</code> <span class="muted">${run.profile}</span> — ${q.title}<br><span class="why">${q.reason ?? ''}</span><br><span class="muted">${run.results.filter((c) => c.blockedBy === q.id).length} checks blocked by it (inconclusive, nothing sent)</span></li>`,
  )}</ul>`;
}

/** First thing on the page: what to fix first, what failed, what was not verified, what was waived, run errors. */
export function attentionSection(r: RunResults): Raw {
  const failOn = r.options.failOn;
  const all: Located[] = r.profiles.flatMap((run, pi) => run.results.map((c, ri) => ({ run, pi, c, ri })));
  const failed = all.filter((x) => breaksRule(x.c, failOn));
  // a check blocked by a failed prerequisite is explained by it (listed under "Fix first"), not repeated here
  const notVerified = all.filter((x) => unverified(x.c, failOn) && x.c.blockedBy === undefined);
  const waived = all.filter((x) => x.c.waived !== undefined);
  const runProblems = r.profiles.flatMap((p) => [
    ...(p.unreachable ? [`${p.profile}: target unreachable: ${p.unreachable}`] : []),
    ...p.errors.map((e) => `${p.profile}: ${e}`),
  ]);
  const clean = failed.length + notVerified.length + runProblems.length === 0;
  return html`<section id="attention">
  <h2>What failed</h2>
  ${clean ? html`<p>Nothing failed, and every rule that counts was verified${waived.length ? ' or waived (below)' : ''}.</p>` : ''}
  ${runProblems.length ? html`<div class="run-errors"><strong>The run itself hit errors:</strong><ul>${runProblems.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
  ${fixFirstList(r)}
  ${attentionList(failed, 'Failed', (c) => c.reason)}
  ${attentionList(notVerified, 'Not verified (the verdict cannot be PASS)', (c) => c.reason)}
  ${attentionList(waived, 'Waived by the profile (not verified on purpose)', (c) => c.waived)}
</section>`;
}

/** Counts by outcome (rows) and level (columns): narrow enough for a card whatever outcomes occur. */
function countsTable(run: ProfileRun): Raw {
  const levels = ['MUST', 'SHOULD'] as const;
  const all = countVerdicts(run.results);
  const rows = VERDICTS.filter((v) => ['pass', 'fail', 'warn', 'not-applicable', 'not-run'].includes(v) || all[v] > 0);
  const byLevel = levels.map((l) => countVerdicts(run.results.filter((x) => x.level === l)));
  return html`<table class="counts">
  <thead><tr><th scope="col">Outcome</th>${levels.map((l) => html`<th scope="col">${l}</th>`)}<th scope="col">all</th></tr></thead>
  <tbody>${rows.map(
    (v) =>
      html`<tr><th scope="row">${badge(v)}</th>${byLevel.map((c) => html`<td class="${c[v] ? `n v-${v}` : 'n zero'}">${c[v]}</td>`)}<td class="n">${all[v]}</td></tr>`,
  )}<tr class="total"><th scope="row">total</th>${levels.map((l) => html`<td class="n">${run.results.filter((x) => x.level === l).length}</td>`)}<td class="n">${run.results.length}</td></tr></tbody>
</table>`;
}

function profileCard(run: ProfileRun, failOn: 'must' | 'should'): Raw {
  const v = profileVerdict(run, failOn);
  const t = run.target;
  return html`<article class="profile-card">
  <div class="pc-head"><h3>${run.profile}</h3><span class="env">${run.environment}</span>${verdictBanner(v)}</div>
  <dl class="kv">
    <div><dt>Target</dt><dd><code>${t.baseUrl}</code>${t.embeddedMock ? html` <span class="tag">embedded mock bank</span>` : ''}</dd></div>
    ${t.oauthBaseUrl ? html`<div><dt>OAuth endpoints</dt><dd><code>${t.oauthBaseUrl}</code></dd></div>` : ''}
    <div><dt>Server certificate SHA-256</dt><dd><code class="sha">${t.serverCertificateSha256 ?? 'not recorded (no TLS, or not reached)'}</code></dd></div>
    ${t.embeddedMock ? html`<div><dt>Mock faults switched on</dt><dd>${t.faults.length ? html`<span class="fault">${t.faults.join(', ')}</span> <span class="muted">(deliberately broken rules, for demonstration)</span>` : 'none (a clean mock)'}</dd></div>` : ''}
    <div><dt>Started</dt><dd>${run.startedAt} (${ms(run.durationMs)})</dd></div>
  </dl>
  ${run.unreachable ? html`<div class="run-errors"><strong>Target unreachable:</strong> ${run.unreachable}</div>` : ''}
  ${run.errors.length ? html`<div class="run-errors"><strong>Run errors: part of this profile did not run.</strong><ul>${run.errors.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
  <div class="table-wrap">${countsTable(run)}</div>
</article>`;
}

/** "Verdict per profile": what each verdict means under this run's --fail-on, then one card per profile. */
export function summarySection(results: RunResults): Raw {
  return html`<section id="summary">
  <h2>Verdict per profile</h2>
  <p class="help">FAIL: a MUST rule is broken${results.options.failOn === 'should' ? ' or a SHOULD rule is broken (--fail-on should)' : ''}, or a known deviation unexpectedly holds. INCOMPLETE: nothing failed, but a ${results.options.failOn === 'should' ? 'rule' : 'MUST rule'} that applies was not verified (not run, inconclusive or a harness error) and the profile does not waive it, or the run hit errors. PASS: every ${results.options.failOn === 'should' ? 'rule' : 'MUST rule'} that applies was verified and held (waived ones are listed). Counts are by the level of the rule and the outcome of its check.${results.interrupted ? ` INTERRUPTED: the run was stopped by ${results.interrupted.signal} at ${results.interrupted.at}; these results are what was verified until then.` : ''}</p>
  <div class="profiles">${results.profiles.map((p) => profileCard(p, results.options.failOn))}</div>
</section>`;
}
