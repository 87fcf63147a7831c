/**
 * report.html: the certification report people read and archive. ONE self-contained file: inline CSS and
 * JS only (no fonts, scripts, styles or images from anywhere), opens from file://, prints cleanly.
 *
 * Everything is rendered on the server side so that the page reads (and prints) without JavaScript; the
 * inline script only filters, searches and opens checks. Evidence is hostile input (a target chooses its
 * bodies and headers), so every interpolation goes through the `html` tagged template, which escapes
 * unless a value is already `Raw`. A Content-Security-Policy allows only this page's own style and
 * script (by hash): even an escaping mistake could not run a target's script or fetch anything.
 * The results are embedded as JSON in <script type="application/json"> with `<`, `>`, `&` escaped.
 */
import { createHash } from 'node:crypto';
import { requirements as catalogue } from '../catalogue/index.ts';
import type {
  CaseOutcome,
  CheckResult,
  ProfileRun,
  RecordedExchange,
  RecordedMessage,
  RunResults,
  TlsEvidence,
  Verdict,
} from '../engine/results.ts';
import { breaksRule, unverified } from '../engine/verdict.ts';
import { VERDICTS, VERDICT_LABEL, countVerdicts, profileVerdict, runVerdict, worstVerdict } from './summary.ts';
import type { ProfileVerdict } from './summary.ts';
import { escapeAttr, stripForbidden } from './text.ts';

// ---------------------------------------------------------------- escaping template

class Raw {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}
type Part = Raw | string | number | boolean | null | undefined | Part[];

function render(v: Part): string {
  if (v instanceof Raw) return v.html;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === null || v === undefined || v === false) return '';
  return escapeAttr(String(v)); // escapes & < > " ' and keeps newlines as &#10; (safe in text and attributes)
}
function html(strings: TemplateStringsArray, ...vals: Part[]): Raw {
  let out = strings[0] ?? '';
  vals.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new Raw(out);
}

// ---------------------------------------------------------------- small helpers

const SYMBOL: Record<Verdict | 'none', string> = {
  pass: '✓',
  fail: '✗',
  warn: '!',
  'not-applicable': '–',
  'not-run': '○',
  inconclusive: '?',
  'expected-fail': '≈',
  'unexpected-pass': '✓!',
  error: '⚠',
  none: '·',
};

function ms(n: number): string {
  if (n < 1000) return `${Math.round(n)} ms`;
  if (n < 60_000) return `${(n / 1000).toFixed(2)} s`;
  return `${Math.floor(n / 60_000)} min ${Math.round((n % 60_000) / 1000)} s`;
}

function badge(v: Verdict, title?: string): Raw {
  return html`<span class="badge v-${v}" title="${title ?? VERDICT_LABEL[v]}"><span class="sym" aria-hidden="true">${SYMBOL[v]}</span> ${VERDICT_LABEL[v]}</span>`;
}
function verdictBanner(v: ProfileVerdict): Raw {
  const cls =
    v === 'PASS'
      ? 'pv-pass'
      : v === 'FAIL'
        ? 'pv-fail'
        : v === 'INCOMPLETE' || v === 'UNREACHABLE' || v === 'INTERRUPTED'
          ? 'pv-inc'
          : 'pv-none';
  return html`<span class="pv ${cls}">${v}</span>`;
}

/** Pretty-print a JSON body so that a reviewer can read it; anything else is shown as sent. */
function prettyBody(body: string): string {
  const t = body.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.stringify(JSON.parse(t), null, 2);
    } catch {
      /* not JSON: shown as is */
    }
  }
  return body;
}
function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Flatten nested assumptions into dotted paths: contract.tokens.accessTokenSeconds = 3600. */
function flatten(obj: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (obj && typeof obj === 'object' && !Array.isArray(obj) && Object.keys(obj).length > 0) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out.set(
      prefix,
      Array.isArray(obj)
        ? obj.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') || '(none)'
        : typeof obj === 'string'
          ? obj
          : JSON.stringify(obj),
    );
  }
  return out;
}

const checkAnchor = (pi: number, ri: number): string => `check-${pi}-${ri}`;

/** a partner certification (npm run partner): the harness played the bank and judged a partner's client */
const isPartnerRun = (r: RunResults): boolean =>
  r.profiles.length > 0 && r.profiles.every((p) => p.assumptions.partner !== undefined);

// ---------------------------------------------------------------- sections

function headerSection(r: RunResults, sha: string): Raw {
  const verdict = runVerdict(r);
  const duration = Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  const filters = Object.entries(r.options.filters).filter(([, v]) => v.length > 0);
  return html`<header class="top">
  <div class="title-row">
    <div>
      ${
        isPartnerRun(r)
          ? html`<p class="kicker">Partner client certification report</p>
      <h1>A partner's client against the client-side rules (the harness played the bank)</h1>`
          : html`<p class="kicker">Conformance &amp; security certification report</p>
      <h1>Transfers API and open-API security conventions</h1>`
      }
    </div>
    <div class="overall">${verdictBanner(verdict)}<span class="overall-note">overall verdict, ${r.profiles.length} ${r.profiles.length === 1 ? 'profile' : 'profiles'}</span></div>
  </div>
  <dl class="meta">
    <div><dt>Harness</dt><dd>${r.harness.name} ${r.harness.version}</dd></div>
    <div><dt>Commit</dt><dd><code>${r.harness.commit ?? 'unknown'}</code></dd></div>
    <div><dt>Node.js</dt><dd>${r.harness.node}</dd></div>
    <div><dt>Requirement catalogue</dt><dd>version ${r.catalogueVersion}</dd></div>
    <div><dt>Started</dt><dd>${r.startedAt}</dd></div>
    <div><dt>Finished</dt><dd>${r.finishedAt}${Number.isFinite(duration) ? ` (${ms(duration)})` : ''}</dd></div>
    <div><dt>Fails on</dt><dd>${r.options.failOn === 'should' ? 'MUST and SHOULD rules (--fail-on should)' : 'MUST rules (SHOULD rules are warnings)'}</dd></div>
    <div><dt>Long checks</dt><dd>${r.options.long ? 'allowed (--long)' : 'not run (no --long)'}</dd></div>
    <div><dt>Destructive checks</dt><dd>${r.options.destructive ? 'allowed (--destructive)' : 'not run (no --destructive)'}</dd></div>
    <div><dt>Filters</dt><dd>${filters.length ? filters.map(([k, v]) => `--${k} ${v.join(', ')}`).join('; ') : 'none: every check ran'}</dd></div>
    <div class="wide"><dt>results.json SHA-256</dt><dd><code class="sha" id="results-sha256">${sha}</code></dd></div>
  </dl>
  <nav class="toc" aria-label="Sections"><a href="#attention">What failed</a><a href="#summary">Verdicts</a><a href="#matrix">Traceability matrix</a><a href="#checks">Checks and evidence</a><a href="#assumptions">Assumptions</a><a href="#integrity">Integrity</a></nav>
</header>`;
}

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

function prereqAnchor(pi: number, id: string): string {
  return `prereq-${pi}-${id}`;
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
function attentionSection(r: RunResults): Raw {
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
function matrixSection(r: RunResults): Raw {
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
    const hits = run.results.map((c, ri) => ({ c, ri })).filter(({ c }) => c.requirements.includes(id));
    if (hits.length === 0) {
      const why = noResultWhy(id, run, r.options.filters);
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

function headersTable(h: Record<string, string>): Raw {
  const entries = Object.entries(h);
  if (entries.length === 0) return html`<p class="muted">no headers recorded</p>`;
  return html`<table class="headers"><tbody>${entries.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>`;
}
function message(title: string, m: RecordedMessage | undefined, status?: number): Raw {
  if (!m) return html`<div class="msg"><h5>${title}</h5><p class="muted">none</p></div>`;
  return html`<div class="msg"><h5>${title}${status !== undefined ? html` <span class="status s${String(status)[0] ?? ''}">HTTP ${status}</span>` : ''}</h5>${headersTable(m.headers)}${m.body !== undefined ? html`<pre class="body">${prettyBody(m.body)}</pre>` : html`<p class="muted">no body</p>`}</div>`;
}
function exchangeBlock(x: RecordedExchange, i: number): Raw {
  const outcome = x.response
    ? html`<span class="status s${String(x.response.status)[0] ?? ''}">HTTP ${x.response.status}</span>`
    : html`<span class="status s5">no response</span>`;
  return html`<div class="exchange">
  <div class="x-head"><span class="x-n">${i + 1}</span> ${x.label ?? 'HTTP exchange'}</div>
  <div class="x-line"><code>${x.method} ${x.url}</code> → ${outcome} <span class="muted">${ms(x.durationMs)}, at ${x.startedAt}</span></div>
  ${x.error ? html`<p class="x-error"><strong>Transport error:</strong> ${x.error}</p>` : ''}
  <div class="x-cols">${message('Request sent', x.request)}${message('Response received', x.response, x.response?.status)}</div>
  ${x.sealedPlaintext !== undefined ? html`<div class="jose"><h5>Plaintext the harness sealed (request)</h5><pre>${x.sealedPlaintext}</pre></div>` : ''}
  ${x.jose ? joseBlock(x.jose) : ''}
</div>`;
}
/** a sealed message: its JWE layer, the JWS inside it (alg, kid) and the key that verified it, the opened payload */
function joseBlock(j: NonNullable<RecordedExchange['jose']>): Raw {
  return html`<div class="jose"><h5>Decoded JOSE headers (${j.direction}): ${j.form}</h5>${j.headers.map((h, k) => html`<div class="jh"><span class="muted">layer ${k + 1}</span><pre>${json(h)}</pre></div>`)}${j.innerHeader !== undefined ? html`<div class="jh"><span class="muted">inner JWS header</span><pre>${json(j.innerHeader)}</pre></div>` : ''}${j.verifiedWith !== undefined ? html`<div class="jh"><span class="muted">signature verified with</span> <code>${j.verifiedWith}</code></div>` : ''}${j.opened !== undefined ? html`<div class="jh"><span class="muted">opened payload</span><pre>${json(j.opened)}</pre></div>` : ''}</div>`;
}
function tlsBlock(t: TlsEvidence): Raw {
  const c = t.peerCertificate;
  const row = (k: string, v: Part): Raw =>
    v === undefined || v === null || v === '' ? html`` : html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`;
  return html`<div class="tls"><h5>TLS: ${t.label}</h5><table class="headers"><tbody>
    ${row('outcome', t.outcome)}${row('protocol', t.protocol)}${row('cipher', t.cipher)}${row('authorized', t.authorized === undefined ? undefined : String(t.authorized))}${row('authorization error', t.authorizationError)}
    ${c ? html`${row('server certificate subject', c.subject)}${row('issuer', c.issuer)}${row('valid', `${c.validFrom} to ${c.validTo}`)}${row('subject alternative names', c.subjectAltName)}${row('SHA-256', c.sha256)}${row('key', keyOf(c))}${row('presented chain (leaf first)', chainOf(c.chain))}` : ''}
  </tbody></table></div>`;
}
/** the server key's type and size, e.g. "rsa, 2048 bits" */
function keyOf(c: NonNullable<TlsEvidence['peerCertificate']>): string | undefined {
  const parts = [c.keyType, c.keyBits !== undefined ? `${c.keyBits} bits` : undefined].filter((x) => x !== undefined);
  return parts.length ? parts.join(', ') : undefined;
}
/** the chain the server presented (TLS-05's inspection), one item per certificate, leaf first */
function chainOf(chain: NonNullable<TlsEvidence['peerCertificate']>['chain']): Raw | undefined {
  if (!chain?.length) return undefined;
  return html`<ol class="chain">${chain.map((k) => html`<li>${k.subject} <span class="muted">issued by</span> ${k.issuer}; valid ${k.validFrom} to ${k.validTo}; SHA-256 <code class="sha">${k.sha256}</code></li>`)}</ol>`;
}

function checkBlock(run: ProfileRun, pi: number, c: CheckResult, ri: number): Raw {
  const search = [
    run.profile,
    c.suite,
    c.checkId,
    c.title,
    c.requirements.join(' '),
    c.reason ?? '',
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
      <div><dt>Requirements</dt><dd>${c.requirements.join(', ') || 'none'}</dd></div>
      <div><dt>Verdict</dt><dd>${badge(c.verdict)}</dd></div>
      ${c.reason ? html`<div><dt>Reason</dt><dd class="reason">${c.reason}</dd></div>` : ''}
      ${c.blockedBy !== undefined ? html`<div><dt>Blocked by</dt><dd>prerequisite <a class="jump" href="#${prereqAnchor(pi, c.blockedBy)}"><code>${c.blockedBy}</code></a> failed: nothing was sent</dd></div>` : ''}
      ${c.waived !== undefined ? html`<div><dt>Waived</dt><dd class="reason">not verified on purpose: ${c.waived}</dd></div>` : ''}
      ${run.target.embeddedMock && run.target.faults.length ? html`<div><dt>Mock faults on</dt><dd><span class="fault">${run.target.faults.join(', ')}</span></dd></div>` : ''}
    </dl>
    ${c.expected !== undefined || c.observed !== undefined ? html`<div class="eo"><div class="exp"><h5>Expected</h5><pre>${c.expected ?? '(not stated)'}</pre></div><div class="obs"><h5>Observed</h5><pre>${c.observed ?? '(not stated)'}</pre></div></div>` : ''}
    ${hasEvidence ? html`<h4>Evidence</h4>` : html`<p class="muted">No evidence recorded for this check.</p>`}
    ${ev.notes.length ? html`<ul class="notes">${ev.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
    ${casesTable(ev.cases)}
    ${ev.exchanges.map((x, i) => exchangeBlock(x, i))}
    ${ev.tls.map((t) => tlsBlock(t))}
  </div>
</details>`;
}

/** a check's negative cases, each with its own outcome (e.g. the JOSE suites') */
function casesTable(cases: CaseOutcome[] | undefined): Raw {
  if (!cases?.length) return html``;
  return html`<h5>Cases</h5><table class="cases"><thead><tr><th>case</th><th>verdict</th><th>outcome</th><th>detail</th></tr></thead><tbody>${cases.map(
    (k) => html`<tr><td><code>${k.id}</code></td><td>${k.verdict}</td><td>${k.outcome}</td><td>${k.detail}</td></tr>`,
  )}</tbody></table>`;
}

function checksSection(r: RunResults): Raw {
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

function assumptionsSection(r: RunResults): Raw {
  const flat = r.profiles.map((p) => flatten(p.assumptions));
  const keys = [...new Set(flat.flatMap((f) => [...f.keys()]))];
  return html`<section id="assumptions">
  <h2>Assumptions</h2>
  <p class="help">Where the bank's specification is silent, the harness uses the defaults of its contract; a profile may override them for a real target. These are the values in force for each profile (highlighted where profiles differ).</p>
  ${
    keys.length === 0
      ? html`<p class="muted">No assumptions recorded.</p>`
      : html`<div class="table-wrap"><table class="assume"><thead><tr><th scope="col">Setting</th>${r.profiles.map((p) => html`<th scope="col">${p.profile}</th>`)}</tr></thead><tbody>${keys.map(
          (k) => {
            const vals = flat.map((f) => f.get(k));
            const differ = new Set(vals).size > 1;
            return html`<tr class="${differ ? 'differ' : ''}"><th scope="row"><code>${k}</code></th>${vals.map((v) => html`<td>${v ?? '—'}</td>`)}</tr>`;
          },
        )}</tbody></table></div>`
  }
</section>`;
}

function integritySection(sha: string): Raw {
  return html`<section id="integrity">
  <h2>Integrity</h2>
  <p>This report was generated from <code>results.json</code> with SHA-256 <code class="sha">${sha}</code>. The same results are embedded in this file. To check an archived certification, with this file beside <code>results.json</code>:</p>
  <pre class="cmd">npm run verify-report -- results.json                           # unsigned run: the SHA-256 above
npm run verify-report -- results.json --key operator-public.pem # signed run: results.json.jws too</pre>
  <p class="help">A signed run has <code>results.json.jws</code> beside it (the profile's <code>report.signingKey</code>); <code>operator-public.pem</code> is the operator's public key or certificate. The hash alone shows that the two files agree, not who wrote them.</p>
</section>`;
}

// ---------------------------------------------------------------- page assets

const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--accent:#0b3d91;
--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;
--na:#59636e;--na-bg:#f6f8fa;--nr:#4d5a6a;--nr-bg:#e7ecf0;--inc:#8250df;--inc-bg:#fbefff;--xf:#0969da;--xf-bg:#ddf4ff;
--up:#bc4c00;--up-bg:#fff1e5;--err:#82071e;--err-bg:#ffcecb}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1400px;margin:0 auto;padding:0 24px 48px}
code,pre,.sha{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:12.5px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.sha{overflow-wrap:anywhere}
h1{font-size:24px;margin:2px 0 0}h2{font-size:19px;margin:32px 0 8px;padding-bottom:6px;border-bottom:2px solid var(--accent);color:var(--accent)}
h3{font-size:16px;margin:18px 0 8px}h4{font-size:14px;margin:14px 0 6px}h5{font-size:12.5px;margin:8px 0 4px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.muted{color:var(--muted)}.help{color:var(--muted);margin:4px 0 12px;max-width:900px}
.top{background:var(--soft);border-bottom:1px solid var(--line);padding:20px 24px 0;margin:0 -24px 8px}
.kicker{margin:0;color:var(--accent);font-weight:600;text-transform:uppercase;font-size:12px;letter-spacing:.08em}
.title-row{display:flex;justify-content:space-between;align-items:flex-start;gap:16px;flex-wrap:wrap}
.overall{display:flex;flex-direction:column;align-items:flex-end;gap:2px}.overall .pv{font-size:22px;padding:6px 18px}.overall-note{font-size:12px;color:var(--muted)}
.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:6px 24px;margin:14px 0}
.meta div,.kv div{display:flex;gap:8px;min-width:0}.meta dt{min-width:120px}.meta .wide{grid-column:1/-1}
dt{color:var(--muted);min-width:150px;flex:none}dd{margin:0;min-width:0;overflow-wrap:anywhere}
.toc{display:flex;gap:18px;padding:10px 0;border-top:1px solid var(--line);flex-wrap:wrap}.toc a{color:var(--accent);text-decoration:none;font-weight:600}
.pv{display:inline-block;font-weight:700;border-radius:6px;padding:2px 10px;letter-spacing:.05em;border:2px solid}
.pv-pass{color:var(--pass);background:var(--pass-bg)}.pv-fail{color:var(--fail);background:var(--fail-bg)}.pv-none{color:var(--nr);background:var(--nr-bg)}.pv-inc{color:var(--inc);background:var(--inc-bg)}
ul.attention{padding-left:18px}ul.attention li{margin:4px 0}
.profiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(480px,1fr));gap:16px}
.profile-card{border:1px solid var(--line);border-radius:8px;padding:12px 16px;break-inside:avoid}
.pc-head{display:flex;align-items:center;gap:10px}.pc-head h3{margin:4px 0;flex:1}
.env{font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);border:1px solid var(--line);border-radius:10px;padding:0 7px}
.kv{display:grid;gap:3px;margin:8px 0}.tag{font-size:11px;background:var(--xf-bg);color:var(--xf);border-radius:10px;padding:0 7px}
.fault{font-family:ui-monospace,monospace;font-size:12.5px;background:var(--up-bg);color:var(--up);padding:0 5px;border-radius:4px}
.run-errors{border:1px solid var(--err);background:var(--err-bg);color:var(--err);border-radius:6px;padding:6px 12px;margin:8px 0}.run-errors ul{margin:4px 0;padding-left:20px}
table{border-collapse:collapse}th,td{text-align:left;vertical-align:top}
.counts{margin-top:6px;font-size:12.5px}.counts th,.counts td{border:1px solid var(--line);padding:2px 10px}.counts td.n{min-width:64px}.counts tbody th{font-weight:400}.counts thead th{background:var(--soft);font-weight:600;font-size:11.5px;line-height:1.2}
.counts td.n{text-align:right;font-variant-numeric:tabular-nums}.counts td.zero{color:#a0a8b0}.counts tr.total{font-weight:600;background:var(--soft)}
.table-wrap{overflow-x:auto}
.matrix{width:100%;font-size:13px}.matrix th,.matrix td{border:1px solid var(--line);padding:4px 8px}
.matrix thead th{position:sticky;top:0;background:var(--soft);z-index:1}.matrix .rid{white-space:nowrap;font-family:ui-monospace,monospace}
.matrix .rq-title{min-width:260px;max-width:520px;color:#3d444d}.pcol{min-width:170px}
.lvl{font-size:11px;font-weight:700}.lvl-SHOULD{color:var(--muted)}
.cell .cl{font-weight:600;text-decoration:none;color:inherit;white-space:nowrap}.cell .why{display:block;font-size:11.5px;color:#3d444d;overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.cell .nchk{font-size:11px;color:var(--muted);margin-left:6px}
.cell.v-none{background:repeating-linear-gradient(45deg,#fff,#fff 6px,#f3f4f6 6px,#f3f4f6 12px);color:var(--muted)}.cell.v-none .cl{font-weight:400}
.v-pass{background:var(--pass-bg);color:var(--pass)}.v-fail{background:var(--fail-bg);color:var(--fail)}.v-warn{background:var(--warn-bg);color:var(--warn)}
.v-not-applicable{background:var(--na-bg);color:var(--na)}.v-not-run{background:var(--nr-bg);color:var(--nr)}.v-inconclusive{background:var(--inc-bg);color:var(--inc)}
.v-expected-fail{background:var(--xf-bg);color:var(--xf)}.v-unexpected-pass{background:var(--up-bg);color:var(--up)}.v-error{background:var(--err-bg);color:var(--err)}
.counts td.n.v-pass,.counts td.n.v-fail,.counts td.n.v-warn,.counts td.n.v-error,.counts td.n.v-unexpected-pass{font-weight:700}
.badge{display:inline-block;border-radius:12px;padding:1px 9px;font-size:12px;font-weight:600;white-space:nowrap;border:1px solid rgba(0,0,0,.08)}
.legend{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0 10px}
.filters{position:sticky;top:0;z-index:2;background:#fffffff2;border:1px solid var(--line);border-radius:8px;padding:8px 12px;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin-bottom:12px}
.filters fieldset{border:0;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:4px;align-items:center}.filters legend{float:left;margin-right:6px;color:var(--muted)}
.vbox{border-radius:12px;padding:1px 8px;font-size:12px;cursor:pointer;user-select:none}.vbox input{margin:0 2px 0 0;vertical-align:-1px}.vbox .cnt{font-weight:700}
.filters button{font:inherit;font-size:12px;border:1px solid var(--line);background:#fff;border-radius:6px;padding:2px 8px;cursor:pointer}.filters button:hover{background:var(--soft)}
.filters select,.filters input[type=search]{font:inherit;font-size:13px;padding:2px 6px;border:1px solid var(--line);border-radius:6px}
.fsearch input{width:240px}#shown{color:var(--muted);font-size:12px;margin-left:auto}
.js .js-note{display:none}.js-note{color:var(--muted)}
.check{border:1px solid var(--line);border-left-width:5px;border-radius:6px;margin:6px 0;background:#fff}
.v-pass-edge{border-left-color:var(--pass)}.v-fail-edge{border-left-color:var(--fail)}.v-warn-edge{border-left-color:#d4a72c}.v-not-applicable-edge{border-left-color:#c9d1d9}
.v-not-run-edge{border-left-color:#8c959f}.v-inconclusive-edge{border-left-color:var(--inc)}.v-expected-fail-edge{border-left-color:var(--xf)}.v-unexpected-pass-edge{border-left-color:var(--up)}.v-error-edge{border-left-color:var(--err)}
.check>summary{display:flex;gap:10px;align-items:baseline;padding:7px 10px;cursor:pointer;list-style:none;flex-wrap:wrap}
.check>summary::-webkit-details-marker{display:none}.check>summary::before{content:"▸";color:var(--muted);width:10px}.check[open]>summary::before{content:"▾"}
.check[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
.s-verdict{flex:none;min-width:128px}.s-ids{display:flex;gap:4px;flex:none}.rq{font-family:ui-monospace,monospace;font-size:12px;background:#eef1f5;border-radius:4px;padding:0 5px;color:#24292f}
.s-title{flex:1;min-width:200px;font-weight:500;overflow-wrap:anywhere}.s-meta{color:var(--muted);font-size:12px;white-space:nowrap}
.check-body{padding:8px 16px 14px}.reason{font-weight:600}
.eo{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin:10px 0}.eo>div{border:1px solid var(--line);border-radius:6px;padding:4px 10px 8px}
.eo .exp{background:#f6fbf7}.eo .obs{background:#fff8f7}
.notes{margin:4px 0 8px;padding-left:20px}
.exchange{border:1px solid var(--line);border-radius:6px;margin:10px 0;padding:8px 12px;break-inside:auto}
.x-head{font-weight:600}.x-n{display:inline-block;min-width:20px;text-align:center;background:var(--accent);color:#fff;border-radius:10px;font-size:11px;margin-right:4px}
.x-line{margin:4px 0;overflow-wrap:anywhere}.x-error{color:var(--err);margin:4px 0}
.x-cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}.msg{min-width:0}
.cases{font-size:12px;width:100%;margin-bottom:6px;border-collapse:collapse}.cases th{text-align:left;color:#3d444d;padding:1px 8px 1px 0}.cases td{padding:1px 8px 1px 0;overflow-wrap:anywhere;vertical-align:top}.headers{font-size:12px;width:100%;margin-bottom:4px}.headers th{font-family:ui-monospace,monospace;font-weight:600;color:#3d444d;padding:1px 10px 1px 0;white-space:nowrap;width:1%}.headers td{font-family:ui-monospace,monospace;overflow-wrap:anywhere;padding:1px 0}
pre.body,.jh pre,.eo pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:6px 8px;max-height:420px;overflow:auto}
.eo pre{background:transparent;border:0;padding:0;max-height:none}
.status{font-weight:700;border-radius:4px;padding:0 5px;font-size:12px}.s2{background:var(--pass-bg);color:var(--pass)}.s3{background:var(--xf-bg);color:var(--xf)}.s4{background:var(--warn-bg);color:var(--warn)}.s5{background:var(--fail-bg);color:var(--fail)}
.jose,.tls{border-top:1px dashed var(--line);margin-top:8px;padding-top:4px}.jh{margin:4px 0}.chain{margin:0;padding-left:1.2em}
.assume{font-size:13px}.assume th,.assume td{border:1px solid var(--line);padding:3px 10px}.assume thead th{background:var(--soft)}.assume tr.differ td{background:var(--warn-bg)}
pre.cmd{background:#0d1117;color:#e6edf3;border-radius:6px;padding:8px 12px}
footer{margin-top:36px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:8px}
[hidden]{display:none!important}
@media (max-width:900px){.x-cols,.eo{grid-template-columns:1fr}.profiles{grid-template-columns:1fr}}
@media print{
  @page{margin:14mm 12mm}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  body{font-size:10.5pt}main{max-width:none;padding:0}
  .top{margin:0;padding:0 0 4px;background:none}
  .toc,.filters,.js-note,.legend,.fbtns{display:none!important}
  .matrix thead th{position:static}.cell .why{-webkit-line-clamp:unset;display:block}
  h2{break-after:avoid}h3,h4{break-after:avoid}
  .profile-card,.exchange,.tls,.eo,tr{break-inside:avoid}
  .check{break-inside:avoid-page}
  .check>summary::before{content:""}
  pre.body,.jh pre{max-height:none;overflow:visible}
  details.check::details-content{content-visibility:visible;display:block}
  a{color:inherit;text-decoration:none}
}`;

/* The page's only script: filters, search, expand/collapse, matrix links, print. No network, no innerHTML. */
const JS = `(function(){
'use strict';
document.documentElement.classList.add('js');
var checks=[].slice.call(document.querySelectorAll('details.check'));
var rows=[].slice.call(document.querySelectorAll('#matrix-table tbody tr'));
var boxes=[].slice.call(document.querySelectorAll('#filters input[name=verdict]'));
var fProfile=document.getElementById('f-profile'),fSuite=document.getElementById('f-suite'),fSearch=document.getElementById('f-search'),shown=document.getElementById('shown');
var PROBLEMS=['fail','error','unexpected-pass','warn','inconclusive','not-run'];
function selected(){var s={};boxes.forEach(function(b){if(b.checked)s[b.value]=true;});return s;}
function apply(){
  var s=selected(),p=fProfile.value,su=fSuite.value,q=fSearch.value.trim().toLowerCase(),n=0,allV=boxes.every(function(b){return b.checked;});
  checks.forEach(function(c){
    var ok=!!s[c.dataset.verdict]&&(!p||c.dataset.profile===p)&&(!su||c.dataset.suite===su)&&(!q||c.dataset.search.indexOf(q)>=0);
    c.hidden=!ok;if(ok)n++;
  });
  [].slice.call(document.querySelectorAll('.sgroup,.pgroup')).forEach(function(g){g.hidden=!g.querySelector('details.check:not([hidden])');});
  shown.textContent='showing '+n+' of '+checks.length+' checks';
  [].slice.call(document.querySelectorAll('#matrix-table [data-profile]')).forEach(function(el){el.hidden=!!p&&el.dataset.profile!==p;});
  rows.forEach(function(r){
    var textOk=!q||r.dataset.search.indexOf(q)>=0;
    var cells=[].slice.call(r.querySelectorAll('td.cell')).filter(function(td){return !td.hidden;});
    var vOk=allV||cells.some(function(td){return !!s[td.dataset.verdict];});
    r.hidden=!(textOk&&vOk);
  });
}
function setAll(on,only){boxes.forEach(function(b){b.checked=only?only.indexOf(b.value)>=0:on;});apply();}
boxes.forEach(function(b){b.addEventListener('change',apply);});
fProfile.addEventListener('change',apply);fSuite.addEventListener('change',apply);fSearch.addEventListener('input',apply);
document.getElementById('filters').addEventListener('submit',function(e){e.preventDefault();});
document.getElementById('only-problems').addEventListener('click',function(){setAll(false,PROBLEMS);});
document.getElementById('all-verdicts').addEventListener('click',function(){setAll(true);});
document.getElementById('expand-all').addEventListener('click',function(){checks.forEach(function(c){if(!c.hidden)c.open=true;});});
document.getElementById('collapse-all').addEventListener('click',function(){checks.forEach(function(c){c.open=false;});});
function reveal(id){
  var el=document.getElementById(id);if(!el||el.tagName!=='DETAILS')return;
  if(el.hidden){fProfile.value='';fSuite.value='';fSearch.value='';setAll(true);}
  el.open=true;el.scrollIntoView({block:'start'});
}
document.addEventListener('click',function(e){
  var a=e.target.closest&&e.target.closest('a.jump');if(!a)return;
  var id=a.getAttribute('href').slice(1);if(!id)return;e.preventDefault();history.replaceState(null,'','#'+id);reveal(id);
});
if(location.hash)reveal(location.hash.slice(1));
var opened=[];
window.addEventListener('beforeprint',function(){opened=checks.filter(function(c){return !c.open;});opened.forEach(function(c){c.open=true;});});
window.addEventListener('afterprint',function(){opened.forEach(function(c){c.open=false;});opened=[];});
apply();
})();`;

const hashOf = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** JSON for a data block: `<`, `>`, `&` and the JS line separators escaped so that nothing can close the element. */
function embedJson(v: unknown): string {
  return (
    JSON.stringify(v)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')
      // U+FFFE/U+FFFF are not allowed in an HTML/XML document; JSON.stringify leaves them raw
      .replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
  );
}

export function toHtml(results: RunResults, opts: { resultsSha256: string }): string {
  const sha = opts.resultsSha256;
  const verdict = runVerdict(results);
  const csp = `default-src 'none'; style-src ${hashOf(CSS)}; script-src ${hashOf(JS)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const body = html`<main>
${headerSection(results, sha)}
${attentionSection(results)}
<section id="summary">
  <h2>Verdict per profile</h2>
  <p class="help">FAIL: a MUST rule is broken${results.options.failOn === 'should' ? ' or a SHOULD rule is broken (--fail-on should)' : ''}, or a known deviation unexpectedly holds. INCOMPLETE: nothing failed, but a ${results.options.failOn === 'should' ? 'rule' : 'MUST rule'} that applies was not verified (not run, inconclusive or a harness error) and the profile does not waive it, or the run hit errors. PASS: every ${results.options.failOn === 'should' ? 'rule' : 'MUST rule'} that applies was verified and held (waived ones are listed). Counts are by the level of the rule and the outcome of its check.${results.interrupted ? ` INTERRUPTED: the run was stopped by ${results.interrupted.signal} at ${results.interrupted.at}; these results are what was verified until then.` : ''}</p>
  <div class="profiles">${results.profiles.map((p) => profileCard(p, results.options.failOn))}</div>
</section>
${matrixSection(results)}
${checksSection(results)}
${assumptionsSection(results)}
${integritySection(sha)}
<footer>Generated by ${results.harness.name} ${results.harness.version}${results.harness.commit ? ` (commit ${results.harness.commit})` : ''} on ${results.finishedAt}. Self-contained: this file loads nothing from the network.</footer>
</main>`;
  // stripForbidden: control characters in evidence would only be HTML parse errors; drop them everywhere.
  return stripForbidden(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp /* our own constant: quotes are single, no escaping needed */}">
<meta name="results-sha256" content="${escapeAttr(sha)}">
<meta name="generator" content="${escapeAttr(`${results.harness.name} ${results.harness.version}`)}">
<title>${escapeAttr(`${verdict} — ${isPartnerRun(results) ? 'partner client certification' : 'conformance report'} — ${results.profiles.map((p) => p.profile).join(', ')}`)}</title>
<style>${CSS}</style>
</head>
<body>
${body.html}
<script type="application/json" id="results-data">${embedJson(results)}</script>
<script>${JS}</script>
</body>
</html>
`);
}

/** Read back what a report states about itself (used by verify-report). */
export function readHtmlClaims(htmlText: string): { sha256?: string; data?: unknown } {
  const sha = /<meta name="results-sha256" content="([0-9a-f]{64})">/.exec(htmlText)?.[1];
  const dataText = /<script type="application\/json" id="results-data">([\s\S]*?)<\/script>/.exec(htmlText)?.[1];
  let data: unknown;
  if (dataText !== undefined) {
    try {
      data = JSON.parse(dataText);
    } catch {
      data = undefined;
    }
  }
  return { ...(sha ? { sha256: sha } : {}), ...(data !== undefined ? { data } : {}) };
}
