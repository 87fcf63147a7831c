import { describe, expect, it } from 'vitest';
import { readHtmlClaims, toHtml } from '../../lib/report/html.ts';
import { fixtureResults } from '../fixtures/results.ts';

const SHA = 'a'.repeat(64);
const page = toHtml(fixtureResults({ runErrors: ['profile invalid: <b>bold</b>'] }), { resultsSha256: SHA });

describe('toHtml', () => {
  it('references nothing outside the file', () => {
    expect(page).not.toMatch(/\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(page).not.toMatch(/@import/i);
    expect(page).not.toMatch(/url\(\s*["']?\s*(https?:)?\/\//i);
    expect(page).not.toMatch(/<link\b/i);
    expect(page).not.toMatch(/<script\b[^>]*\bsrc=/i);
    expect(page).not.toMatch(/<(img|iframe|object|embed|video|audio)\b/i);
    // the only URLs are target URLs, written as text
    for (const m of page.matchAll(/https?:\/\/[^\s"'<&]+/g)) expect(m[0]).toMatch(/^https?:\/\/127\.0\.0\.1/);
  });

  it('shows hostile evidence as text, never as markup', () => {
    expect(page).not.toContain('<script>window.__pwned');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(page).toContain('&quot;&gt;&lt;script&gt;window.__pwned=2');
    expect(page).toContain('&lt;b&gt;bold&lt;/b&gt;');
    // exactly one script element: the page's own script (no data block)
    expect(page.match(/<script\b/g)?.length).toBe(1);
    expect(page).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]/);
  });

  it('allows only its own style and script by hash (Content-Security-Policy)', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('states the results.json SHA-256, and embeds no second copy of the results', () => {
    const claims = readHtmlClaims(page);
    expect(claims.sha256).toBe(SHA);
    expect(claims.embedsData).toBe(false);
    expect(page).not.toContain('<script type="application/json"');
    expect(page).toContain(`<code class="sha" id="results-sha256">${SHA}</code>`);
  });

  it('has the verdicts, matrix, evidence, assumptions, fingerprint, harness and timings', () => {
    expect(page).toContain('<span class="pv pv-fail">FAIL</span>');
    expect(page).toContain('<span class="pv pv-inc">INCOMPLETE</span>');
    expect(page).toMatch(/<th scope="row" class="rid">JOSE-01<\/th>/);
    expect(page).toMatch(/<td class="cell v-fail" data-profile="mock-uat" data-verdict="fail"/);
    expect(page).toMatch(
      /<td class="cell v-not-applicable" data-profile="mock-sandbox"[^>]*title="jose.plain-json-refused: not applicable — JOSE sealing/,
    );
    expect(page).toContain('expected failure');
    expect(page).toContain('HTTP 400 (contract statuses.joseRefused)');
    expect(page).toContain('RSA-OAEP-256'); // decoded JOSE header
    expect(page).toContain('TLS_AES_256_GCM_SHA384'); // TLS evidence
    expect(page).toContain('jose.accept-plain-json'); // mock fault
    expect(page).toContain('<code>contract.tokens.accessTokenSeconds</code>'); // assumptions
    expect(page).toContain('3F:2A:00:11'); // server certificate fingerprint
    expect(page).toContain('0123456789abcdef0123456789abcdef01234567'); // commit
    expect(page).toContain('1.23 s'); // a check's timing
  });
});

describe('prerequisites and cases in the page', () => {
  it('a failed prerequisite is listed first with the checks it blocked, each blocked check links to it', () => {
    const r = fixtureResults();
    const p = r.profiles[0]!;
    const blocked = { ...p.results[0]!, verdict: 'inconclusive' as const, blockedBy: 'client-credentials-token' };
    const withCases = {
      ...p.results[1]!,
      evidence: {
        ...p.results[1]!.evidence,
        cases: [{ id: 'A12', verdict: 'fail' as const, outcome: 'accepted', detail: 'RS512 last: <accepted>' }],
      },
    };
    const run = {
      ...p,
      results: [blocked, withCases, ...p.results.slice(2)],
      prerequisites: [
        {
          id: 'client-credentials-token',
          title: 'a client-credentials token is issued',
          verdict: 'fail' as const,
          reason: 'HTTP 500 from the token endpoint',
          evidence: { exchanges: [], notes: [], tls: [] },
          durationMs: 3,
        },
      ],
    };
    const doc = toHtml({ ...r, profiles: [run, ...r.profiles.slice(1)] }, { resultsSha256: SHA });
    const attention = doc.slice(doc.indexOf('<section id="attention">'), doc.indexOf('</section>'));
    expect(attention).toContain('Fix first: prerequisites that failed');
    expect(attention).toContain('HTTP 500 from the token endpoint');
    expect(attention).toMatch(/1 checks blocked by it/);
    expect(attention).toContain('id="prereq-0-client-credentials-token"');
    expect(doc).toContain('href="#prereq-0-client-credentials-token"');
    // the per-case table, its detail as text
    expect(doc).toContain('<code>A12</code>');
    expect(doc).toContain('RS512 last: &lt;accepted&gt;');
  });

  it('a sealed exchange shows the plaintext sealed, the inner JWS header and the key that verified the answer', () => {
    const r = fixtureResults();
    const x = r.profiles[1]!.results.flatMap((c) => c.evidence.exchanges).find((e) => e.jose)!;
    x.sealedPlaintext = '{"amount": "<b>10.00</b>"}';
    x.jose!.innerHeader = { alg: 'RS256', kid: 'bank-sig-1' };
    x.jose!.verifiedWith = 'SHA-256 of the SPKI 00ff';
    const out = toHtml(r, { resultsSha256: SHA });
    expect(out).toMatch(
      /Plaintext the harness sealed \(request\)<\/h5><pre>\{&quot;amount&quot;: &quot;&lt;b&gt;10\.00/,
    );
    expect(out).toMatch(/inner JWS header<\/span><pre>[^<]*RS256[^<]*bank-sig-1/);
    expect(out).toContain('signature verified with</span> <code>SHA-256 of the SPKI 00ff</code>');
  });
});
