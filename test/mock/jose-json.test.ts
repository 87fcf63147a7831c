/**
 * The mock's reading of JOSE JSON texts (lib/mock/jose/jose-json.ts): a duplicated member name is found without a
 * syntax tree (name separators counted against the parsed members), so colons, quotes and escapes inside strings,
 * escaped spellings of one name and __proto__ must neither hide a duplicate nor invent one.
 */
import { describe, expect, it } from 'vitest';
import { readJson } from '../../lib/mock/jose/jose-json.ts';

const duplicated = (text: string): boolean => {
  try {
    readJson(text, 'refuse', 'the text');
    return false;
  } catch (e) {
    return (e as { kind?: string }).kind === 'duplicate';
  }
};

describe('readJson refuses duplicated member names, and only those', () => {
  it.each([
    ['a plain duplicate', '{"a":1,"a":2}'],
    ['a duplicate in a nested object', '{"x":[{"b":1}, {"c":{"d":1,"d":1}}]}'],
    ['one name spelled with an escape', '{"a":1,"\\u0061":2}'],
    ['__proto__ twice', '{"__proto__":1,"__proto__":{}}'],
    ['names holding colons and escaped quotes', '{"a:\\"b":1,"a:\\"b":2}'],
  ])('%s is refused', (_name, text) => {
    expect.hasAssertions();
    expect(duplicated(text)).toBe(true);
  });

  it.each([
    ['distinct names', '{"a":1,"b":{"a":2}}'],
    ['colons and quotes inside strings', '{"a":"x:y\\":z","b":["::",":"],"c\\\\":"\\\\"}'],
    ['a single __proto__', '{"__proto__":{"a":1},"a":1}'],
    ['an array of objects with the same names', '[{"a":1},{"a":2}]'],
    ['a scalar', '"a:b"'],
  ])('%s is read', (_name, text) => {
    expect.hasAssertions();
    expect(duplicated(text)).toBe(false);
    expect(readJson(text, 'refuse', 'the text')).toEqual(JSON.parse(text));
  });
});
