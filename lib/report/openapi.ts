/** The OpenAPI coverage table (results.json `openapi.coverage`) as the JUnit properties and the HTML section write it. */
import type { OpenApiRun, ProfileRun } from '../engine/results.ts';
import { html, type Raw } from './html/template.ts';
import { escapeAttr } from './text.ts';

const STATE_TEXT = { valid: 'seen and valid', invalid: 'seen and invalid', never: 'never seen' } as const;

/** one line per row: `POST /v1/transfers/validate 200` → `seen and valid (12)` */
export function coverageEntries(o: OpenApiRun): [string, string][] {
  const rows = o.coverage.rows.map((r): [string, string] => [
    `openapi ${r.operation} ${r.status}${r.documented ? '' : ' (not documented)'}`,
    `${STATE_TEXT[r.state]}${r.valid + r.invalid > 0 ? ` (${r.valid} valid, ${r.invalid} invalid)` : ''}`,
  ]);
  const never = o.coverage.notCalled.map((op): [string, string] => [`openapi ${op}`, 'never called']);
  return [['openapi document', `${o.source} (OpenAPI ${o.version})`], ...rows, ...never];
}

/** the <properties> of a JUnit testsuite (the openapi suite's), or '' when the run has no document */
export function junitProperties(run: ProfileRun): string {
  if (!run.openapi) return '';
  const props = coverageEntries(run.openapi).map(
    ([name, value]) => `      <property name="${escapeAttr(name)}" value="${escapeAttr(value)}"/>`,
  );
  return `    <properties>\n${props.join('\n')}\n    </properties>\n`;
}

/** the HTML report's section: each profile's document × status table */
export function openApiSection(runs: readonly ProfileRun[]): Raw | string {
  const withDoc = runs.filter((p) => p.openapi);
  if (withDoc.length === 0) return '';
  return html`<section id="openapi">
  <h2>OpenAPI coverage</h2>
  <p class="help">Each operation of the bank's OpenAPI document × each status it documents, as the run's answers met them (OAS-01..03, OAS-06, OAS-07; docs/openapi.md).</p>
  ${withDoc.map((p) => {
    const o = p.openapi!;
    return html`<h3>${p.profile}: ${o.source} (OpenAPI ${o.version})</h3>
  <div class="table-wrap"><table class="assume"><thead><tr><th scope="col">Operation</th><th scope="col">Status</th><th scope="col">Seen</th><th scope="col">Valid</th><th scope="col">Invalid</th></tr></thead><tbody>${o.coverage.rows.map(
    (r) =>
      html`<tr class="${r.state === 'invalid' ? 'differ' : ''}"><td><code>${r.operation}</code></td><td>${r.status}${r.documented ? '' : ' (not documented)'}</td><td>${STATE_TEXT[r.state]}</td><td>${String(r.valid)}</td><td>${String(r.invalid)}</td></tr>`,
  )}</tbody></table></div>
  ${o.coverage.notCalled.length > 0 ? html`<p>Never called: ${o.coverage.notCalled.join(', ')}</p>` : ''}
  ${o.notes.map((n) => html`<p class="muted">${n}</p>`)}`;
  })}
</section>`;
}
