/**
 * The token probe's positive control (suites/tokens/helpers.ts expectTokenWorks): only an answer that shows the
 * token accepted (404 for the unknown transfer it asks for, or a 2xx) counts; a refusal or a 5xx makes the check
 * inconclusive, never a pass of the rule that follows.
 */
import { describe, expect, test } from 'vitest';
import { expectTokenWorks } from '../../suites/tokens/helpers.ts';
import { Inconclusive } from '../../lib/engine/check.ts';
import type { ApiResponse } from '../../lib/engine/session/context.ts';

const answer = (status: number): ApiResponse => ({
  status,
  headers: {},
  body: undefined,
  raw: { status, headers: {}, text: '', json: undefined },
});

describe('expectTokenWorks', () => {
  test.each([404, 200])('HTTP %i shows the token accepted', (status) => {
    expect(() => expectTokenWorks(answer(status), 'probe')).not.toThrow();
  });
  test.each([401, 403, 429, 500, 502, 503])('HTTP %i is inconclusive', (status) => {
    expect(() => expectTokenWorks(answer(status), 'probe')).toThrow(Inconclusive);
  });
});
