/** The requirement traceability matrix (a partner run: the client-side rules it judged). */
import { requirements as catalogue } from '../../catalogue/index.ts';
import { requirementVerdict, type CheckResult, type ProfileRun, type RunResults } from '../../engine/results.ts';
import { VERDICTS, VERDICT_LABEL, worstVerdict } from '../summary.ts';
import { SYMBOL, badge, checkAnchor, isPartnerRun } from './format.ts';
import { html } from './template.ts';
import type { Raw } from './template.ts';

/** why a requirement has no result for a profile: its applicability first, the filters only when they were used */
function noResultWhy(id: string, run: ProfileRun, filters: Record<string, string[]>): string {
  const q = catalogue.find((x) => x.id === id);
  if (q && !q.applies.includes(run.environment)) {
    if (q.applies.length === 1 && q.applies[0] === 'client')
      return 'a rule for the client side (partner certification): not checked against a bank target';
    return `applies to ${q.applies.join(', ')} only, not to this ${run.environment} profile`;
  }
  const used = ['only', 'suite', 'grep'].filter((k) => (filters[k] ?? []).length > 0);
  if (used.length) return `not selected by the filters of this run (${used.map((k) => `--${k}`).join(', ')})`;
  return 'no check of this harness covers this requirement';
}

/** Matrix rows: every catalogue requirement, then any id a check names that the catalogue lacks. */
export function matrixSection(r: RunResults): Raw {
  if (isPartnerRun(r)) return partnerMatrix(r);
  const rows: { id: string; level: string; title: string }[] = catalogue.map((q) => ({
    id: q.id,
    level: q.level,
    title: q.title,
  }));
  const known = new Set(rows.map((x) => x.id));
  for (const p of r.profiles)
    for (const c of p.results)
      for (const id of c.requirements)
        if (!known.has(id)) {
          known.add(id);
          rows.push({ id, level: c.level, title: '(not in the requirement catalogue)' });
        }
  const cell = (pi: number, run: ProfileRun, id: string): Raw => {
    // a check's verdict for this id: a failure that broke other ids, or a pass of an id judged in part, says nothing
    const hits = run.results.flatMap((c, ri) => {
      const verdict = requirementVerdict(c, id);
      return verdict === undefined ? [] : [{ c: { ...c, verdict }, ri }];
    });
    if (hits.length === 0) {
      const named = run.results.filter((c) => c.requirements.includes(id));
      const why =
        named.length > 0
          ? `named by ${named.map((c) => c.checkId).join(', ')}, which did not verify it (${named.map((c) => (c.failed ? `it failed on ${c.failed.join(', ')}` : 'it judges only part of this rule')).join('; ')})`
          : noResultWhy(id, run, r.options.filters);
      return html`<td class="cell v-none" data-profile="${run.profile}" data-verdict="none" title="${why}"><span class="cl">${SYMBOL.none} no result</span></td>`;
    }
    const worst = worstVerdict(hits.map((h) => h.c.verdict)) ?? 'not-run';
    const lines = hits.map(({ c }) => `${c.checkId}: ${VERDICT_LABEL[c.verdict]}${c.reason ? ` — ${c.reason}` : ''}`);
    const first = hits.find((h) => h.c.verdict === worst) ?? hits[0];
    const whyText = hits
      .filter((h) => h.c.verdict === worst && h.c.reason)
      .map((h) => h.c.reason)
      .join('; ');
    return html`<td class="cell v-${worst}" data-profile="${run.profile}" data-verdict="${worst}" title="${lines.join('\n')}"><a class="cl jump" href="#${first ? checkAnchor(pi, first.ri) : ''}"><span class="sym" aria-hidden="true">${SYMBOL[worst]}</span> ${VERDICT_LABEL[worst]}</a>${hits.length > 1 ? html`<span class="nchk">${hits.length} checks</span>` : ''}${whyText ? html`<span class="why">${whyText}</span>` : ''}</td>`;
  };
  return html`<section id="matrix">
  <h2>Requirement traceability matrix</h2>
  <p class="help">One row per requirement of the catalogue, one column per profile. A cell shows the worst verdict of the checks that name the requirement, with its reason; hover for every check, click to open its evidence.</p>
  <div class="legend">${VERDICTS.map((v) => badge(v))}<span class="badge v-none"><span class="sym">${SYMBOL.none}</span> no result</span></div>
  <div class="table-wrap"><table class="matrix" id="matrix-table">
    <thead><tr><th scope="col">Requirement</th><th scope="col">Level</th><th scope="col" class="rq-title">Rule</th>${r.profiles.map((p) => html`<th scope="col" class="pcol" data-profile="${p.profile}">${p.profile}<br><span class="env">${p.environment}</span></th>`)}</tr></thead>
    <tbody>${rows.map(
      (row) =>
        html`<tr data-search="${`${row.id} ${row.title}`.toLowerCase()}"><th scope="row" class="rid">${row.id}</th><td class="lvl lvl-${row.level}">${row.level}</td><td class="rq-title">${row.title}</td>${r.profiles.map((p, pi) => cell(pi, p, row.id))}</tr>`,
    )}</tbody>
  </table></div>
</section>`;
}

/**
 * A partner run's matrix: the client-side rules it judged only, one row per check (a rule judged per scenario,
 * CLI-02's negative catalogue, has one row per variant), each cell its verdict and reason.
 */
function partnerMatrix(r: RunResults): Raw {
  const rows = new Map<string, CheckResult>();
  for (const p of r.profiles) for (const c of p.results) if (!rows.has(c.checkId)) rows.set(c.checkId, c);
  const cell = (pi: number, run: ProfileRun, checkId: string): Raw => {
    const ri = run.results.findIndex((c) => c.checkId === checkId);
    const c = run.results[ri];
    if (!c)
      return html`<td class="cell v-none" data-profile="${run.profile}" data-verdict="none"><span class="cl">${SYMBOL.none} no result</span></td>`;
    return html`<td class="cell v-${c.verdict}" data-profile="${run.profile}" data-verdict="${c.verdict}" title="${c.reason ?? ''}"><a class="cl jump" href="#${checkAnchor(pi, ri)}"><span class="sym" aria-hidden="true">${SYMBOL[c.verdict]}</span> ${VERDICT_LABEL[c.verdict]}</a>${c.reason ? html`<span class="why">${c.reason}</span>` : ''}</td>`;
  };
  return html`<section id="matrix">
  <h2>Client-side rules</h2>
  <p class="help">One row per client-side rule judged, and per scenario for a rule judged scenario by scenario (CLI-02: one row per forged or spoiled answer, so a partner sees which one its client accepted). Click a cell to open its evidence.</p>
  <div class="legend">${VERDICTS.map((v) => badge(v))}</div>
  <div class="table-wrap"><table class="matrix" id="matrix-table">
    <thead><tr><th scope="col">Requirement</th><th scope="col">Level</th><th scope="col" class="rq-title">Rule (scenario)</th>${r.profiles.map((p) => html`<th scope="col" class="pcol" data-profile="${p.profile}">${p.profile}<br><span class="env">${p.environment}</span></th>`)}</tr></thead>
    <tbody>${[...rows.values()].map(
      (c) =>
        html`<tr data-search="${`${c.requirements.join(' ')} ${c.title}`.toLowerCase()}"><th scope="row" class="rid">${c.requirements.join(', ')}</th><td class="lvl lvl-${c.level}">${c.level}</td><td class="rq-title">${c.title}</td>${r.profiles.map((p, pi) => cell(pi, p, c.checkId))}</tr>`,
    )}</tbody>
  </table></div>
</section>`;
}
