/**
 * Whose refusal an answer to a masked (or clear) identifier is (MASK-01 … MASK-03, docs/properties.md): the fixed
 * checks and the property judge it alike.
 */
import { isObject } from '../../lib/engine/check.ts';
import type { ApiResponse } from '../../lib/engine/session/context.ts';
import type { Trial } from '../../lib/engine/property/property.ts';

/** the members of the transfers API's error answer (docs/contract.md "Errors and refusals") */
const ERROR_MEMBERS = ['status', 'response_code', 'property', 'response_message', 'description'];

/**
 * the identifier's refusal, an acceptance, or no evidence. A refusal is the identifier's when it has the profile's
 * status and is the API's error answer (a JSON object with the error members) naming account_id / emirates_id or
 * naming nothing; one naming another member, one with no such answer (a gateway's 403 with no body or its own page)
 * and a sealed answer that did not open cannot be attributed: no evidence either way (docs/properties.md)
 */
export function judgeRefusal(res: ApiResponse, refused: readonly number[]): Trial {
  const s = res.status;
  if (res.opened && !res.opened.ok)
    return {
      verdict: 'unclear',
      observed: `HTTP ${s}, the sealed answer did not open (${res.opened.code}): whose refusal it is cannot be read`,
      status: s,
    };
  const body = isObject(res.body) ? res.body : undefined;
  const named = typeof body?.property === 'string' && body.property !== '' ? body.property : undefined;
  if (refused.includes(s)) {
    if (!body || !ERROR_MEMBERS.some((m) => m in body))
      return {
        verdict: 'unclear',
        observed: `HTTP ${s} without the API's error answer (no error members): not attributable to the identifier`,
        status: s,
      };
    if (named !== undefined && named !== 'account_id' && named !== 'emirates_id')
      return { verdict: 'unclear', observed: `HTTP ${s} naming ${named} (refused for another cause)`, status: s };
    return { verdict: 'held', observed: `HTTP ${s}${named ? ` naming ${named}` : ''} (refused)`, status: s };
  }
  if (s === 401 || s === 403 || s === 429 || s >= 500)
    return { verdict: 'unclear', observed: `HTTP ${s} (not the identifier's refusal: no evidence)`, status: s };
  return { verdict: 'broken', observed: `HTTP ${s}${s < 300 ? ' (accepted)' : ''}`, status: s };
}
