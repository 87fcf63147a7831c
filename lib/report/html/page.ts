/** The page's header (run metadata, overall verdict), its assumptions table and its integrity section. */
import type { RunResults } from '../../engine/results.ts';
import { runVerdict } from '../summary.ts';
import { flatten, isPartnerRun, ms, verdictBanner } from './format.ts';
import { html } from './template.ts';
import type { Raw } from './template.ts';

export function headerSection(r: RunResults, sha: string): Raw {
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

export function assumptionsSection(r: RunResults): Raw {
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

export function integritySection(sha: string): Raw {
  return html`<section id="integrity">
  <h2>Integrity</h2>
  <p>This report was generated from <code>results.json</code> with SHA-256 <code class="sha">${sha}</code>. To check an archived certification, with this file beside <code>results.json</code>:</p>
  <pre class="cmd">npm run verify-report -- results.json                           # unsigned run: the SHA-256 above
npm run verify-report -- results.json --key operator-public.pem # signed run: results.json.jws too</pre>
  <p class="help">A signed run has <code>results.json.jws</code> beside it (the profile's <code>report.signingKey</code>); <code>operator-public.pem</code> is the operator's public key or certificate. The hash alone shows that the two files agree, not who wrote them.</p>
</section>`;
}
