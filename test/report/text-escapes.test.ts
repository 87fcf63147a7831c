/**
 * The report writers' escapes (lib/report/text.ts) are single passes with a quick test for forbidden characters:
 * the same output as the plain chains of replacements they stand for, on any UTF-16 text (lone surrogates,
 * controls, U+FFFE/U+FFFF, markup characters).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { escapeAttr, escapeText, stripForbidden } from '../../lib/report/text.ts';

const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const strip = (s: string): string => s.replace(XML_FORBIDDEN, '');
const text = (s: string): string => strip(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attr = (s: string): string =>
  text(s)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');

const special = [0, 8, 9, 10, 11, 13, 31, 32, 34, 38, 39, 60, 62, 0x7f, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe, 0xffff];
const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(...special), fc.constantFrom(97, 0x263a));
const anyText = fc.array(unit, { maxLength: 30 }).map((u) => String.fromCharCode(...u));

it('stripForbidden, escapeText and escapeAttr give what the plain replacements give', () => {
  fc.assert(
    fc.property(anyText, (s) => {
      expect([stripForbidden(s), escapeText(s), escapeAttr(s)]).toEqual([strip(s), text(s), attr(s)]);
    }),
    { numRuns: 3000 },
  );
});

it('keeps text with paired surrogates as it is, and strips each kind of forbidden character next to one', () => {
  const emoji = 'payee \u{1F600} r\u00e9f\u00e9rence \u{10FFFF}';
  expect(stripForbidden(emoji)).toBe(emoji);
  const cases = [
    `${emoji}\uD800`, // a high surrogate at the end
    `\uDC00${emoji}`, // a low surrogate first
    `\uDBFF\uDBFF\uDC00`, // a high one before a pair
    `\uD83D\uDE00\uDE00`, // a low one after a pair
    `${emoji}\u0000\u000B\u001F`, // controls
    `${emoji}\uFFFE\uFFFF`, // non-characters
  ];
  for (const s of cases) expect(stripForbidden(s)).toBe(strip(s));
  expect(cases.map(stripForbidden).every((s) => s.isWellFormed() && !/[\u0000-\u0008\uFFFE\uFFFF]/.test(s))).toBe(true);
});
