/**
 * report.html in a real headless browser (Debian's chromium through playwright-core), opened from file://.
 * Chromium missing is a FAILURE with instructions, not a skip. Every wait is bounded.
 */
import { existsSync } from 'node:fs';
import { tempDirs } from '../fixtures/tmp.ts';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../lib/report/write.ts';
import { fixtureResults } from '../fixtures/results.ts';

const tmp = tempDirs('report-html-');

const CHROMIUM = '/usr/bin/chromium';
const STEP_MS = 5_000;

/** page.pdf has no timeout of its own. */
function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(t));
}

let browser: Browser | undefined;
let pageOrNull: Page | undefined;
/** The page under test; a missing chromium fails each test with instructions. */
function ready(): Page {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} not found: the browser test needs Debian's chromium (apt-get install -y chromium; .ci/run installs it)`,
    );
  if (!pageOrNull) throw new Error('the page did not open (see the beforeAll error)');
  return pageOrNull;
}
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return; // every test then FAILS with the reason (not a skip)
  const dir = tmp();
  const written = await writeReports(fixtureResults(), dir);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 30_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(STEP_MS);
  page.setDefaultNavigationTimeout(10_000);
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  await page.goto(pathToFileURL(written.html).href, { waitUntil: 'load' });
  pageOrNull = page;
}, 60_000);

afterAll(async () => {
  await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 10_000))]);
});

describe('report.html in headless chromium, from file://', () => {
  it('loads with no script errors, no CSP violations and no request beyond the file itself', async () => {
    const page = ready();
    expect(await page.title()).toMatch(/^FAIL — conformance report/);
    expect(problems).toEqual([]);
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    expect(await page.evaluate('document.documentElement.classList.contains("js")')).toBe(true);
  });

  it('renders the traceability matrix', async () => {
    const page = ready();
    const rows = page.locator('#matrix-table tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(60);
    const jose01 = page.locator('#matrix-table tbody tr', { has: page.locator('th.rid', { hasText: /^JOSE-01$/ }) });
    await expect
      .poll(() => jose01.locator('td.cell[data-profile="mock-uat"]').innerText(), { timeout: STEP_MS })
      .toMatch(/fail/);
    expect(await jose01.locator('td.cell[data-profile="mock-sandbox"]').innerText()).toMatch(
      /not applicable[\s\S]*UAT and production only/,
    );
    expect(await jose01.locator('td.cell[data-profile="mock-uat"]').isVisible()).toBe(true);
  });

  it("shows a failing check's evidence after clicking it, hostile body as text", async () => {
    const page = ready();
    const check = page.locator('details.check[data-profile="mock-uat"][data-verdict="fail"]', {
      hasText: 'plain JSON request is refused',
    });
    const body = check.locator('.check-body');
    expect(await body.isVisible()).toBe(false);
    await check.locator('summary').click();
    await body.waitFor({ state: 'visible', timeout: STEP_MS });
    const text = await body.innerText();
    expect(text).toContain('HTTP 400 (contract statuses.joseRefused)'); // expected
    expect(text).toContain('HTTP 201 with a transfer id'); // observed
    expect(text).toContain('PUT https://127.0.0.1:8443/v1/transfers/8d3c1c2e-0001');
    expect(text).toContain('<script>window.__pwned=1</script>');
    expect(text).toContain('jose.accept-plain-json');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    await check.locator('summary').click(); // close again for the next tests
  });

  it('a matrix cell opens the check it names', async () => {
    const page = ready();
    const cell = page
      .locator('#matrix-table tbody tr', { has: page.locator('th.rid', { hasText: /^XFER-02$/ }) })
      .locator('td.cell[data-profile="mock-uat"] a');
    await cell.click();
    const target = page.locator('details.check[data-verdict="expected-fail"]');
    await target.locator('.check-body').waitFor({ state: 'visible', timeout: STEP_MS });
    expect(await target.getAttribute('open')).not.toBeNull();
  });

  it('"What failed" comes first, and its links open the checks', async () => {
    const page = ready();
    const first = await page.locator('main > section').first().getAttribute('id');
    expect(first).toBe('attention');
    expect(await page.locator('#attention').innerText()).toMatch(/Failed\s+3[\s\S]*Not verified/);
    const link = page.locator('#attention a.jump', { hasText: 'jose.plain-json-refused' });
    const id = (await link.getAttribute('href'))!.slice(1);
    await link.click();
    const target = page.locator(`details#${id}`);
    await target.locator('.check-body').waitFor({ state: 'visible', timeout: STEP_MS });
    await target.locator('summary').click(); // close again for the next tests
  });

  it('filters by verdict, profile, suite and search', async () => {
    const page = ready();
    const visible = () => page.locator('details.check:visible').count();
    expect(await visible()).toBe(15);
    await page.click('#only-problems');
    expect(await visible()).toBe(9); // fail ×2, warn, inconclusive, unexpected-pass, error, not run ×3
    expect(await page.locator('details.check[data-verdict="pass"]:visible').count()).toBe(0);
    expect(await page.locator('#shown').innerText()).toBe('showing 9 of 15 checks');
    await page.click('#all-verdicts');
    await page.selectOption('#f-profile', 'mock-sandbox');
    expect(await visible()).toBe(4);
    expect(await page.locator('#matrix-table td.cell[data-profile="mock-uat"]:visible').count()).toBe(0);
    await page.selectOption('#f-profile', '');
    await page.selectOption('#f-suite', 'tls');
    expect(await visible()).toBe(2);
    await page.selectOption('#f-suite', '');
    await page.fill('#f-search', 'tok-03');
    expect(await visible()).toBe(1);
    expect(await page.locator('#matrix-table tbody tr:visible').count()).toBe(1);
    await page.fill('#f-search', '');
    expect(await visible()).toBe(15);
  });

  it('prints: filters hidden, every check printed with its evidence', async () => {
    const page = ready();
    const closed = page.locator('details.check:not([open])').first();
    expect(await closed.locator('.check-body').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await closed.locator('.check-body').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    const pdf = await bounded(page.pdf({ format: 'A4' }), 20_000, 'printing to PDF');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
