/**
 * Failures as data (lib/engine/failure.ts): a CheckFailed carries records whose fields the reports read, while its
 * message (the verdict's reason) is the text the check gave before records existed. The expected messages are
 * written out here, not built with the code under test.
 */
import { describe, expect, it } from 'vitest';
import {
  CheckFailed,
  ensure,
  ensureEqual,
  ensureStatus,
  ensureValue,
  fail,
  failValue,
} from '../../lib/engine/check.ts';
import { failure, settleFailures, type Failure } from '../../lib/engine/failure.ts';
import { rememberExchange } from '../../lib/http/record/exchanges.ts';
import type { HttpResponse, RecordedExchange } from '../../lib/http/types.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { CaseOutcome } from '../../lib/engine/results.ts';
import type { NegativeCase } from '../../lib/negative/cases.ts';
import { judge, type CaseResult } from '../../suites/jose/negatives.ts';
import { expectReached } from '../../suites/shared.ts';

function thrown(f: () => void): CheckFailed {
  try {
    f();
  } catch (e) {
    if (e instanceof CheckFailed) return e;
    throw e;
  }
  throw new Error('nothing thrown');
}

describe('CheckFailed and the assertion helpers', () => {
  it('a failure given no record carries one generic record of its message, and no "undefined" for what it omits', () => {
    const e = thrown(() => ensure(false, 'the response is not a JOSE envelope'));
    expect(e.message).toBe('the response is not a JOSE envelope');
    expect(e.expected).toBeUndefined();
    expect(e.observed).toBeUndefined();
    expect(e.failures).toEqual([
      { kind: 'generic', title: 'check failed', message: 'the response is not a JOSE envelope' },
    ]);
    const f = thrown(() => fail('x refused', 'HTTP 200', { status: 400 }));
    expect(f.failures[0]).toMatchObject({ kind: 'generic', expected: 'HTTP 200', observed: '{"status":400}' });
  });

  it('ensureStatus and expectReached: a status record, the reason as before', () => {
    const e = thrown(() => ensureStatus({ status: 500 }, [200, 201], 'create'));
    expect(e.message).toBe('create: expected HTTP 200 or 201, observed 500');
    expect(e.failures).toEqual([
      {
        kind: 'status',
        title: 'unexpected HTTP status',
        message: 'create: expected HTTP 200 or 201, observed 500',
        statuses: [200, 201],
        status: 500,
        expected: '200 or 201',
        observed: '500',
      },
    ]);
    const r = thrown(() => expectReached({ status: 422, body: { a: 1 } }, [200], 'validate'));
    expect(r.message).toBe('validate: expected HTTP 200, observed 422 (body: {"a":1})');
    expect([r.expected, r.observed]).toEqual(['200', '422']);
    expect(r.failures[0]).toMatchObject({ kind: 'status', statuses: [200], status: 422 });
  });

  it('a value read and found absent is stated as such (as before records), one not passed is not', () => {
    const e = thrown(() => ensureEqual(undefined, 'ACCEPTED', 'status'));
    expect([e.expected, e.observed]).toEqual(['ACCEPTED', 'undefined']);
    expect(e.failures[0]).toMatchObject({ kind: 'value', expected: 'ACCEPTED', observed: 'undefined' });
    const only = thrown(() => ensure(false, 'no envelope', 'sealed JWE JSON'));
    expect([only.expected, only.observed]).toEqual(['sealed JWE JSON', undefined]);
  });

  it('ensureEqual: a value record naming what was read', () => {
    const e = thrown(() => ensureEqual('flattened', 'general', 'JWE serialization'));
    expect(e.message).toBe('JWE serialization: expected general, observed flattened');
    expect(e.failures[0]).toMatchObject({
      kind: 'value',
      name: 'JWE serialization',
      expected: 'general',
      observed: 'flattened',
    });
  });

  it('ensureValue and failValue: a value record of the name given, message, expected and observed as ensure keeps them', () => {
    const e = thrown(() => ensureValue(false, 'error', 'token: expected error "invalid_grant"', 'invalid_grant', 'x'));
    expect([e.message, e.expected, e.observed]).toEqual([
      'token: expected error "invalid_grant"',
      'invalid_grant',
      'x',
    ]);
    expect(e.failures).toEqual([
      {
        kind: 'value',
        title: 'wrong value',
        message: 'token: expected error "invalid_grant"',
        name: 'error',
        expected: 'invalid_grant',
        observed: 'x',
      },
    ]);
    expect(() => ensureValue(true, 'error', 'never')).not.toThrow();
    const f = thrown(() =>
      failValue('TLS 1.2 handshake', 'a TLS 1.2 handshake was refused: reset', 'TLS 1.2 accepted'),
    );
    expect(f.failures).toEqual([
      {
        kind: 'value',
        title: 'wrong value',
        message: 'a TLS 1.2 handshake was refused: reset',
        name: 'TLS 1.2 handshake',
        expected: 'TLS 1.2 accepted',
      },
    ]);
    expect(f.observed).toBeUndefined();
  });
});

describe("a JOSE family's cases not refused", () => {
  const ctx = {
    profile: { contract: { statuses: { joseRefused: [400] }, quota: { status: 429 } } },
    recordCase: (c: CaseOutcome) => recorded.push(c),
  } as unknown as CheckContext;
  const recorded: CaseOutcome[] = [];
  const kase = (id: string, title: string): NegativeCase => ({ id, title, body: () => ({}) }) as NegativeCase;
  const results: CaseResult[] = [
    { c: kase('A1', 'JWS alg "none" with an empty signature'), outcome: 'accepted', status: 200, detail: 'HTTP 200' },
    { c: kase('A2', 'JWS alg HS256'), outcome: 'refused', status: 400, detail: 'HTTP 400' },
    { c: kase('E5', 'JWE alg RSA1_5'), outcome: 'other', status: 422, detail: 'HTTP 422' },
  ];

  it('each is a record of its own, the reason the same joined text as before', () => {
    const e = thrown(() => judge(ctx, results, 'jws-alg-rs256-only'));
    expect(e.message).toBe(
      'jws-alg-rs256-only: not refused with HTTP 400: A1 JWS alg "none" with an empty signature (HTTP 200, accepted); E5 JWE alg RSA1_5 (HTTP 422)',
    );
    expect(e.expected).toBe('HTTP 400 for every case');
    expect(e.failures.map((f) => f.kind)).toEqual(['negative-accepted', 'negative-accepted']);
    expect(e.failures[0]).toEqual({
      kind: 'negative-accepted',
      title: 'negative case not refused',
      message: 'A1 JWS alg "none" with an empty signature (HTTP 200, accepted)',
      case: 'A1',
      caseTitle: 'JWS alg "none" with an empty signature',
      outcome: 'accepted',
      status: 200,
      operation: 'validate',
      label: 'A1 JWS alg "none" with an empty signature',
      expected: 'HTTP 400',
      observed: 'HTTP 200',
    });
    expect(e.failures[1]).toMatchObject({ case: 'E5', outcome: 'other', status: 422 });
    expect(recorded.map((c) => c.verdict)).toEqual(['fail', 'pass', 'fail']);
  });
});

describe('settleFailures', () => {
  it('finds the exchange a record names by its label (the last one sent) and redacts every text', () => {
    const f: Failure = {
      kind: 'leak',
      title: 'leak found',
      message: 'token SECRET in the body',
      found: ['SECRET'],
      label: 'A1 x',
    };
    const [s] = settleFailures([f], [{ label: 'A1 x' }, { label: 'other' }, { label: 'A1 x' }], (t) =>
      t.replaceAll('SECRET', '[redacted]'),
    );
    expect(s).toEqual({ ...f, message: 'token [redacted] in the body', found: ['[redacted]'], exchange: 2 });
    expect(settleFailures([f], [{ label: 'other' }], (t) => t)[0]!.exchange).toBeUndefined();
  });

  it('finds the exchange an answer came from by identity, whatever the labels (a status record of a response)', () => {
    const x = (label: string): RecordedExchange =>
      ({ label, method: 'GET', url: 'u', startedAt: '', durationMs: 0, request: { headers: {} } }) as RecordedExchange;
    const evidence = [x('get'), x('get'), x('get')];
    const raw = { status: 410, headers: {}, text: '', json: undefined } as HttpResponse;
    rememberExchange(raw, evidence[1]!);
    const e = thrown(() => ensureStatus({ status: 410, raw }, [404], 'get'));
    expect(settleFailures(e.failures, evidence, (t) => t)[0]).toMatchObject({ kind: 'status', exchange: 1 });
    // the source is kept beside the record, never written in it
    expect(Object.keys(e.failures[0]!)).not.toContain('from');
    const unsent = failure('generic', 'm', {}, { from: x('get') });
    expect(settleFailures([unsent], evidence, (t) => t)[0]!.exchange).toBeUndefined();
  });
});
