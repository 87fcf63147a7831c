/**
 * The README's partner section lists the client-side negative catalogue (CLI-02, CLI-09, JOSE-05), grouped by the
 * answer spoiled: every CLI-02 scenario of lib/partner/scenarios.ts is named under its answer, with the right count,
 * and nothing is named that the harness does not play.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../lib/partner/scenarios.ts';
import { ROOT } from '../../lib/root.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = README.slice(README.indexOf("## Certifying a partner's client"), README.indexOf('## Other commands'));

/** the README's bullet for one answer: its stated count and the variant ids it names in backticks */
function bullet(heading: string): { count: number; variants: string[] } {
  const start = section.indexOf(`- **${heading}** (`);
  expect(start, `no bullet for ${heading}`).toBeGreaterThanOrEqual(0);
  const end = section.indexOf('\n- ', start + 1);
  const text = section.slice(start, end < 0 ? section.indexOf('\n\n', start) : end);
  const count = Number(/\((\d+)[,)]/.exec(text)![1]);
  const variants = [...text.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!).filter((v) => v !== 'client-credentials');
  return { count, variants };
}

describe('README: the client-side negative catalogue', () => {
  it.each([
    ['validate', "validate's answer"],
    ['create', "create's answer"],
    ['cc-token', 'the UAT client-credentials token answer'],
  ])('lists every %s variant the harness plays, and only those', (answer, heading) => {
    const played = SCENARIOS.filter((s) => s.spoil?.answer === answer).map((s) => s.spoil!.how);
    const listed = bullet(heading);
    expect(listed.count).toBe(played.length);
    expect([...listed.variants].sort()).toEqual([...played].sort());
  });

  it('says which variants are judged under JOSE-05 (a SHOULD), not CLI-02', () => {
    const forms = SCENARIOS.filter((s) => s.spoil?.requirement === 'JOSE-05').map((s) => s.spoil!.how);
    expect(forms.length).toBeGreaterThan(0);
    const sentence = section.slice(
      section.indexOf(`\`${forms[0]}\``),
      section.indexOf('\n- **', section.indexOf(`\`${forms[0]}\``)),
    );
    for (const f of forms) expect(sentence).toContain(`\`${f}\``);
    expect(sentence).toMatch(/JOSE-05, a SHOULD/);
  });

  it('says the replayed variants are judged under CLI-09 (answer binding, a SHOULD), not CLI-02', () => {
    const bound = SCENARIOS.filter((x) => x.spoil?.requirement === 'CLI-09').map((x) => x.spoil!.how);
    expect([...new Set(bound)]).toEqual(['replayed']);
    expect(section).toMatch(
      /replayed answer \(validate's or\s+create's\): .* judged under CLI-09, answer binding \(a SHOULD/s,
    );
    expect(section).toMatch(/CLI-01\.\.09/);
  });
});
