/** parseJson's duplicate refusal: a quick member count first, the full scan only when a member was dropped */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicateMember, parseJson } from '../../lib/jose/json.ts';

describe('parseJson refuses duplicated members exactly as the full scan finds them', () => {
  it('names the duplicate, at any depth, escaped or not, and leaves colons in strings alone', () => {
    const cases: [string, string | undefined][] = [
      ['{"a":1,"a":2}', 'a'],
      ['{"a":{"b":1,"b":2}}', 'b'],
      ['[{"x":1},{"y":{"z":[{"q":1,"q":1}]}}]', 'q'],
      ['{"al\\u0067":"x","alg":"y"}', 'alg'],
      ['{"a:b":"c:d","e":"\\":"}', undefined],
      ['{"__proto__":1,"b":2}', undefined],
      ['{"a":[1,2,{"b":":"}],"c":{}}', undefined],
      ['"just: a string"', undefined],
    ];
    for (const [text, dup] of cases) {
      const r = parseJson(text, 'refuse');
      expect(r.ok ? undefined : r.reason, text).toBe(dup === undefined ? undefined : `duplicate member name "${dup}"`);
    }
  });

  it('agrees with the full scan on arbitrary JSON texts with members repeated', () => {
    const text = fc
      .jsonValue()
      .map((v) => JSON.stringify(v))
      .chain((t) =>
        fc.oneof(
          fc.constant(t),
          // repeat one member of the first object: `{"k":v,` → `{"k":v,"k":v,`
          fc.constant(
            t.replace(
              /\{("(?:[^"\\]|\\.)*":(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|"(?:[^"\\]|\\.)*")),/,
              '{$1,$1,',
            ),
          ),
        ),
      );
    let repeated = 0;
    fc.assert(
      fc.property(text, (t) => {
        if (findDuplicateMember(t) !== undefined) repeated++;
        const r = parseJson(t, 'refuse');
        const dup = findDuplicateMember(t);
        expect(r.ok ? undefined : r.reason).toBe(dup === undefined ? undefined : `duplicate member name "${dup}"`);
      }),
      { numRuns: 500 },
    );
    // the property is not vacuous: some texts had a member repeated
    expect(repeated).toBeGreaterThan(0);
  });
});
