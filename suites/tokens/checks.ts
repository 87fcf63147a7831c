/**
 * The tokens suite (TOK-*), one file per concern: token response fields, codes, access tokens on the API, refresh
 * tokens, what a token may act on, client authentication and request format, /authorize,
 * PKCE.
 */
import { defineSuite } from '../../lib/engine/check.ts';
import { accessChecks } from './access.ts';
import { authorizeChecks } from './authorize.ts';
import { bindingChecks } from './binding.ts';
import { clientAuthChecks } from './client-auth.ts';
import { codesChecks } from './codes.ts';
import { fieldsChecks } from './fields.ts';
import { pkceChecks } from './pkce.ts';
import { refreshChecks } from './refresh.ts';

export const suite = defineSuite('tokens', [
  ...fieldsChecks,
  ...codesChecks,
  ...accessChecks,
  ...refreshChecks,
  ...bindingChecks,
  ...clientAuthChecks,
  ...authorizeChecks,
  ...pkceChecks,
]);
