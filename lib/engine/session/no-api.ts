/**
 * An authorization server alone (profile target.api: none): no transfers API behind the OAuth endpoints, or one
 * certified separately. A check that sends anything to the API's paths is not run, with that reason: the token
 * endpoint and /authorize checks run, those that need the API's answer say why they did not.
 */
import { NotRun } from '../check.ts';
import type { HttpRequest } from '../../http/types.ts';
import type { FullProfile } from '../../profile/schema.ts';

export const NO_API =
  "the profile declares no API behind the target (target.api: none): this check needs the API's answer";

/** the URL prefix of the API's own paths (base URL and basepath) */
function apiPrefix(profile: FullProfile): string {
  return profile.target.baseUrl.replace(/\/+$/, '') + profile.target.paths.transfersBasepath;
}

/** throws NotRun when the profile has no API and the request goes to the API's paths */
export function refuseWithoutApi(profile: FullProfile, reqs: readonly Pick<HttpRequest, 'url'>[]): void {
  if (profile.target.api !== 'none') return;
  const prefix = apiPrefix(profile);
  if (reqs.some((r) => r.url === prefix || r.url.startsWith(`${prefix}/`) || r.url.startsWith(`${prefix}?`)))
    throw new NotRun(NO_API);
}
