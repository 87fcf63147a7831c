/**
 * The mock's request target (lib/mock/server/server.ts, requestTarget): a plain path is taken as it is, without the URL
 * parser; every target must give the path and the query the URL parser gives, and a target it refuses is refused.
 */
import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../lib/mock/server/server.ts';

/** the oracle: WHATWG URL, as a server would resolve the target against its origin */
const parsed = (t: string): URL => new URL(t, 'http://oracle.invalid');

describe('the request target', () => {
  const targets = [
    '/',
    '',
    '/v1/transfers/validate',
    '/v1/transfers/0b6f6c9e-5a1f-4a7e-9a55-3c1b1c2b4d5e',
    '/oauth/v1/authorize',
    '/oauth/v1/authorize?client_id=a&redirect_url=https%3A%2F%2Fx',
    '/v1//transfers',
    '//evil.example/v1/transfers',
    '///v1',
    '/v1/./transfers',
    '/v1/../oauth/v1/token',
    '/v1/transfers/%2e%2e/x',
    '/v1/transfers/a%2Fb',
    '/v1/transfers\\x',
    '/v1/transfers/é',
    '/v1/transfers/a b',
    '/v1/transfers#frag',
    '/v1/transfers?',
    '/api/transfers/~user',
    '/V1/Transfers',
    'http://other.example/v1/transfers',
    '*',
  ];

  it('gives the path and the query the URL parser gives, for every kind of target', () => {
    for (const t of targets) {
      const r = requestTarget(t);
      expect(r.path, t).toBe(parsed(t).pathname);
      expect(r.url().pathname, t).toBe(parsed(t).pathname);
      expect(r.url().search, t).toBe(parsed(t).search);
    }
  });

  it('takes a plain path as it is, and parses it only when its URL is asked for, once', () => {
    const r = requestTarget('/oauth/v1/token');
    expect(r.path).toBe('/oauth/v1/token');
    expect(r.url()).toBe(r.url());
  });

  it('refuses what the URL parser refuses', () => {
    expect(() => parsed('http://[::1')).toThrow();
    expect(() => requestTarget('http://[::1')).toThrow();
  });
});
