/**
 * The redactor's index of registered secrets (lib/http/record/redact.ts): a text is searched only for the variants whose
 * prefix occurs in it, and the result is the same as searching it for every variant, longest first — also when a
 * secret contains another, overlaps another, or straddles a replacement put in before it.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createRedactor } from '../../lib/http/record/redact.ts';

/** the registered variants replaced one after another, longest first: what the index must equal */
function naive(text: string, table: [string, string][]): string {
  let out = text;
  for (const [secret, rep] of [...table].sort((a, b) => b[0].length - a[0].length))
    if (out.includes(secret)) out = out.split(secret).join(rep);
  return out;
}

// a small alphabet (brackets included) so that secrets often occur in, overlap and straddle one another
const chars = fc.constantFrom('a', 'b', 'c', '[', ']', ':', 'R');
const word = (min: number, max: number) => fc.array(chars, { minLength: min, maxLength: max }).map((x) => x.join(''));

/**
 * replacement words of their own letters: a replacement holds no secret whole (in a run the replacements are markers,
 * `[redacted:…]`), so the naive search's cascade into a replacement's inside is not what is compared; a secret that
 * straddles a replacement's brackets and the text beside it still is
 */
const replacementWord = fc.array(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 6 }).map((x) => x.join(''));

/** secrets with their replacements, and texts made of those secrets, their replacements and random words */
const cases = fc
  .uniqueArray(fc.tuple(word(4, 9), replacementWord), { minLength: 1, maxLength: 12, selector: (t) => t[0] })
  .chain((pairs) => {
    const pieces = [...pairs.map(([s]) => s), ...pairs.map(([, r]) => `[${r}]`)];
    const piece = fc.oneof(
      word(0, 5),
      fc.constantFrom(...pieces),
      fc.constantFrom(...pieces).map((x) => x.slice(1)),
    );
    return fc.tuple(
      fc.constant(pairs),
      fc.array(
        fc.array(piece, { maxLength: 8 }).map((x) => x.join('')),
        { maxLength: 4 },
      ),
    );
  });

it('redacts registered secrets exactly as a search for each of them, longest first', () => {
  fc.assert(
    fc.property(cases, ([pairs, texts]) => {
      const r = createRedactor();
      // registered with the given replacement: the variants are the secret's forms (redact.ts variants())
      for (const [secret, rep] of pairs) r.add(secret, 'test', `[${rep}]`);
      const table = new Map<string, string>();
      for (const [secret, rep] of pairs) {
        const variants = [secret, encodeURIComponent(secret), new URLSearchParams({ x: secret }).toString().slice(2)];
        for (const v of [...variants, JSON.stringify(secret).slice(1, -1)]) if (!table.has(v)) table.set(v, `[${rep}]`);
      }
      const expected = texts.map((t) => naive(t, [...table]));
      expect(texts.map((t) => r.redact(t))).toEqual(expected);
    }),
    { numRuns: 500 },
  );
});

it('a secret that appears only across a replacement put in before it is still replaced', () => {
  const r = createRedactor();
  r.add('xxxxxxxx', 'test', '[A]');
  r.add(']yyy', 'test', '[B]');
  expect(r.redact('xxxxxxxxyyy')).toBe('[A[B]');
});

// the secrets' alphabet with every replacement's end characters below (still no replacement letter x, y, z)
const chars2 = fc.constantFrom('a', 'b', 'c', '[', ']', '<', '>', '(', ':');
const wordOf = (c: fc.Arbitrary<string>, min: number, max: number) =>
  fc.array(c, { minLength: min, maxLength: max }).map((x) => x.join(''));

it('a secret registered before a replacement that it can straddle is still found across it', () => {
  const r = createRedactor();
  r.add('ab<y', 'test', '[x]');
  expect(r.redact('ab<')).toBe('ab<');
  r.add('ccccc', 'test', '<y>'); // its '<' and '>' make 'ab<y' a candidate in every text
  expect(r.redact('abccccc')).toBe('[x]>');
});

it('kept up to date as secrets are registered between redactions, also when a replacement brings new end characters', () => {
  // replacements bracketed by different characters: a later one makes earlier secrets straddle candidates
  const bracket = fc.constantFrom(['[', ']'], ['<', '>'], ['a', 'c'], ['(', ':']);
  const step = fc.oneof(
    fc.record({ add: wordOf(chars2, 4, 9), rep: replacementWord, br: bracket }),
    fc.record({
      text: fc.array(fc.oneof(wordOf(chars2, 0, 5), fc.constantFrom('[x]', '<y>', 'axc', '(z:')), { maxLength: 8 }),
    }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
      const r = createRedactor();
      const table = new Map<string, string>();
      const added = new Set<string>();
      const got: string[] = [];
      const expected: string[] = [];
      for (const s of steps) {
        if ('add' in s) {
          const rep = `${s.br[0]}${s.rep}${s.br[1]}`;
          r.add(s.add, 'test', rep);
          if (added.has(s.add)) continue; // a secret added again keeps its first variants' replacements
          added.add(s.add);
          const variants = [s.add, encodeURIComponent(s.add), new URLSearchParams({ x: s.add }).toString().slice(2)];
          for (const v of [...variants, JSON.stringify(s.add).slice(1, -1)]) if (!table.has(v)) table.set(v, rep);
        } else {
          const text = s.text.join('');
          got.push(r.redact(text));
          expected.push(naive(text, [...table]));
        }
      }
      expect(got).toEqual(expected);
    }),
    { numRuns: 500 },
  );
});
