/** "Checks and evidence": the filter form and one collapsible block per check, grouped by profile and suite. */
import type { CheckResult, ProfileRun, RunResults } from '../../engine/results.ts';
import { VERDICTS, VERDICT_LABEL, countVerdicts } from '../summary.ts';
import { casesTable, exchangeBlock, failuresTable, tlsBlock } from './evidence.ts';
import { shownFailures } from '../../engine/failure.ts';
import { badge, checkAnchor, ms, prereqAnchor } from './format.ts';
import { html } from './template.ts';
import type { Raw } from './template.ts';

function checkBlock(run: ProfileRun, pi: number, c: CheckResult, ri: number): Raw {
  const search = [
    run.profile,
    c.suite,
    c.checkId,
    c.title,
    c.requirements.join(' '),
    c.reason ?? '',
    ...(c.failures ?? []).map((f) => `${f.kind} ${f.title}`),
    VERDICT_LABEL[c.verdict],
  ]
    .join(' ')
    .toLowerCase();
  const ev = c.evidence;
  const hasEvidence = ev.exchanges.length + ev.tls.length + ev.notes.length > 0;
  return html`<details class="check v-${c.verdict}-edge" id="${checkAnchor(pi, ri)}" data-verdict="${c.verdict}" data-profile="${run.profile}" data-suite="${c.suite}" data-search="${search}">
  <summary><span class="s-verdict">${badge(c.verdict)}</span><span class="s-ids">${c.requirements.map((id) => html`<span class="rq">${id}</span>`)}</span><span class="s-title">${c.title}</span><span class="s-meta">${run.profile} · ${c.suite} · ${ms(c.durationMs)}</span></summary>
  <div class="check-body">
    <dl class="kv">
      <div><dt>Check</dt><dd><code>${c.checkId}</code> (${c.level})</dd></div>
      <div><dt>Requirements</dt><dd>${c.requirements.join(', ') || 'none'}${c.failed ? ` — failed: ${c.failed.join(', ')} (the others not verified by this check)` : ''}${c.partial ? ` — judged in part: ${c.partial.join(', ')} (a pass does not verify it)` : ''}</dd></div>
      <div><dt>Verdict</dt><dd>${badge(c.verdict)}</dd></div>
      ${c.reason ? html`<div><dt>Reason</dt><dd class="reason">${c.reason}</dd></div>` : ''}
      ${c.blockedBy !== undefined ? html`<div><dt>Blocked by</dt><dd>prerequisite <a class="jump" href="#${prereqAnchor(pi, c.blockedBy)}"><code>${c.blockedBy}</code></a> failed: nothing was sent</dd></div>` : ''}
      ${c.waived !== undefined ? html`<div><dt>Waived</dt><dd class="reason">not verified on purpose: ${c.waived}</dd></div>` : ''}
      ${run.target.embeddedMock && run.target.faults.length ? html`<div><dt>Mock faults on</dt><dd><span class="fault">${run.target.faults.join(', ')}</span></dd></div>` : ''}
    </dl>
    ${c.expected !== undefined || c.observed !== undefined ? html`<div class="eo"><div class="exp"><h5>Expected</h5><pre>${c.expected ?? '(not stated)'}</pre></div><div class="obs"><h5>Observed</h5><pre>${c.observed ?? '(not stated)'}</pre></div></div>` : ''}
    ${failuresTable(shownFailures(c))}
    ${hasEvidence ? html`<h4>Evidence</h4>` : html`<p class="muted">No evidence recorded for this check.</p>`}
    ${ev.notes.length ? html`<ul class="notes">${ev.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
    ${casesTable(ev.cases)}
    ${ev.exchanges.map((x, i) => exchangeBlock(x, i))}
    ${ev.tls.map((t) => tlsBlock(t))}
  </div>
</details>`;
}

export function checksSection(r: RunResults): Raw {
  const total = r.profiles.reduce((s, p) => s + p.results.length, 0);
  const present = VERDICTS.filter((v) => r.profiles.some((p) => p.results.some((c) => c.verdict === v)));
  const suites = [...new Set(r.profiles.flatMap((p) => p.results.map((c) => c.suite)))];
  const counts = countVerdicts(r.profiles.flatMap((p) => p.results));
  return html`<section id="checks">
  <h2>Checks and evidence</h2>
  <p class="help">Click a check to see what was sent, what came back and why it was judged so. Secrets and account identifiers were redacted or masked before this report was written.</p>
  <form class="filters" id="filters" role="search" autocomplete="off">
    <fieldset class="fv"><legend>Verdict</legend>${present.map((v) => html`<label class="vbox v-${v}"><input type="checkbox" name="verdict" value="${v}" checked> ${VERDICT_LABEL[v]} <span class="cnt">${counts[v]}</span></label>`)}
      <button type="button" id="only-problems">problems only</button><button type="button" id="all-verdicts">all</button></fieldset>
    <label>Profile <select id="f-profile"><option value="">all profiles</option>${r.profiles.map((p) => html`<option value="${p.profile}">${p.profile}</option>`)}</select></label>
    <label>Suite <select id="f-suite"><option value="">all suites</option>${suites.map((s) => html`<option value="${s}">${s}</option>`)}</select></label>
    <label class="fsearch">Search <input type="search" id="f-search" placeholder="requirement id, title, reason…"></label>
    <span class="fbtns"><button type="button" id="expand-all">expand all</button><button type="button" id="collapse-all">collapse all</button></span>
    <output id="shown" aria-live="polite">showing ${total} of ${total} checks</output>
  </form>
  <p class="js-note" id="js-note">Filters need JavaScript; every check is listed below.</p>
  ${r.profiles.map(
    (p, pi) =>
      html`<div class="pgroup" data-profile="${p.profile}"><h3>${p.profile} <span class="env">${p.environment}</span></h3>${groupBySuite(
        p,
      ).map(
        ([suite, list]) =>
          html`<div class="sgroup" data-suite="${suite}"><h4 class="suite-h">${suite}</h4>${list.map(({ c, ri }) => checkBlock(p, pi, c, ri))}</div>`,
      )}</div>`,
  )}
</section>`;
}
function groupBySuite(p: ProfileRun): [string, { c: CheckResult; ri: number }[]][] {
  const m = new Map<string, { c: CheckResult; ri: number }[]>();
  p.results.forEach((c, ri) => {
    const l = m.get(c.suite) ?? [];
    l.push({ c, ri });
    m.set(c.suite, l);
  });
  return [...m];
}
