/**
 * lib/http/connections/connections.ts originOf: the origin of a call's URL, parsed once per scheme and authority as
 * written, is the one the whole URL gives (WHATWG URL's own `origin` is the oracle), in every spelling of an authority.
 */
import { describe, expect, test } from 'vitest';
import { originOf } from '../../lib/http/connections/connections.ts';

const URLS = [
  'https://bank.example/open-banking/v1/transfers/abc?x=1#f',
  'https://bank.example:443/a',
  'https://BANK.Example:8443/a/b',
  'http://127.0.0.1:8080/validate',
  'http://127.0.0.1:80',
  'https://[::1]:9443/x',
  'https://[0:0:0:0:0:0:0:1]/x',
  'https://user:pass@bank.example:444/x',
  'https://bank.example?q=1',
  'https://bank.example#frag',
  'https://bank.example\\path\\x',
  'https://bank.example.:443/x',
  'https://xn--bnk-qla.example/x',
  'https://bänk.example/x',
  'http://bank.example/a//b//c',
];

describe('originOf', () => {
  test.each(URLS)('%s: the origin the whole URL gives', (url) => {
    expect(originOf(url)).toBe(new URL(url).origin);
    // asked again (from the cache): the same
    expect(originOf(url)).toBe(new URL(url).origin);
  });

  test('a URL that is not one is refused as the URL parser refuses it', () => {
    expect(() => originOf('not a url')).toThrow(TypeError);
    expect(() => originOf('https://bank.example:99999/x')).toThrow(TypeError);
  });
});
