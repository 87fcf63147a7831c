/** A check's evidence: HTTP exchanges (with decoded JOSE), TLS handshakes, negative cases, failure records. */
import type { CaseOutcome, Failure, RecordedExchange, RecordedMessage, TlsEvidence } from '../../engine/results.ts';
import { json, ms, prettyBody } from './format.ts';
import { html } from './template.ts';
import type { Part, Raw } from './template.ts';

function headersTable(h: Record<string, string>): Raw {
  const entries = Object.entries(h);
  if (entries.length === 0) return html`<p class="muted">no headers recorded</p>`;
  return html`<table class="headers"><tbody>${entries.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>`;
}
function message(title: string, m: RecordedMessage | undefined, status?: number): Raw {
  if (!m) return html`<div class="msg"><h5>${title}</h5><p class="muted">none</p></div>`;
  return html`<div class="msg"><h5>${title}${status !== undefined ? html` <span class="status s${String(status)[0] ?? ''}">HTTP ${status}</span>` : ''}</h5>${headersTable(m.headers)}${m.body !== undefined ? html`<pre class="body">${prettyBody(m.body)}</pre>` : html`<p class="muted">no body</p>`}</div>`;
}
export function exchangeBlock(x: RecordedExchange, i: number): Raw {
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
export function tlsBlock(t: TlsEvidence): Raw {
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

/** a check's negative cases, each with its own outcome (e.g. the JOSE suites') */
export function casesTable(cases: CaseOutcome[] | undefined): Raw {
  if (!cases?.length) return html``;
  return html`<h5>Cases</h5><table class="cases"><thead><tr><th>case</th><th>verdict</th><th>outcome</th><th>detail</th></tr></thead><tbody>${cases.map(
    (k) => html`<tr><td><code>${k.id}</code></td><td>${k.verdict}</td><td>${k.outcome}</td><td>${k.detail}</td></tr>`,
  )}</tbody></table>`;
}

/** a check's failure records (lib/engine/failure.ts): what was found wrong, each with the exchange it came from */
export function failuresTable(failures: readonly Failure[]): Raw {
  if (!failures.length) return html``;
  return html`<h5>Failures</h5><table class="cases failures"><thead><tr><th>kind</th><th>what</th><th>breaks</th><th>expected</th><th>observed</th><th>exchange</th></tr></thead><tbody>${failures.map(
    (f) =>
      html`<tr><td><code>${f.kind}</code></td><td><strong>${f.title}</strong><br>${f.message}</td><td>${f.requirements?.join(', ') ?? "the check's ids"}</td><td>${f.expected ?? ''}</td><td>${f.observed ?? ''}</td><td>${f.exchange !== undefined ? String(f.exchange + 1) : ''}</td></tr>`,
  )}</tbody></table>`;
}
