/**
 * The faults of the transfers API's behaviour: masked identifiers (MASK-01..04), validate, create, get and access
 * control (XFER-01..08), the general conventions (CONV-01, CONV-02) and their hardening (HARD-04, HARD-05).
 */
import type { FaultDefinition } from '../types.ts';
import { f, ALL } from './define.ts';

export const TRANSFER_FAULTS: readonly FaultDefinition[] = [
  f('mask-any-mask-char', ['MASK-01'], ALL, 'a masked id may use X, * or # in place of x'),
  f(
    'mask-length-not-kept',
    ['MASK-02'],
    ALL,
    'a masked id is matched on its first 4 and last 3 characters, whatever its length',
  ),
  f('accept-unmasked-id', ['MASK-03'], ALL, 'a clear (unmasked) account id or emirates id is accepted'),
  f('mask-echo-clear-id', ['MASK-04'], ALL, 'validate and get responses, and 403 errors, echo the clear account id'),
  f(
    'mask-echo-wrong-mask',
    ['MASK-01', 'MASK-02'],
    ALL,
    'validate and get responses echo the account id masked with * and one character short',
  ),
  // the transfers API: validate, create and its idempotency, get, access control
  f('validate-missing-debit-amount', ['XFER-01'], ALL, 'validate answers without debit_amount'),
  f('approvers-always', ['XFER-02'], ALL, 'validate lists approvers for every customer'),
  f('create-no-reference', ['XFER-03'], ALL, 'create answers without payment_reference_id'),
  f('get-no-status', ['XFER-04'], ALL, 'get answers without status'),
  f('put-not-idempotent', ['XFER-05'], ALL, 'a repeated PUT with the same body creates a second payment'),
  f('put-different-body-accepted', ['XFER-05'], ALL, 'a repeated PUT with a different body replaces the transfer'),
  f(
    'read-only-honoured',
    ['XFER-06'],
    ALL,
    'read-only fields (status, payment_reference_id, created_at) sent in a PUT are stored',
  ),
  f('bola', ['XFER-07'], ALL, 'a transfer is visible to any valid token'),
  f('api-key-not-required', ['XFER-08'], ALL, 'the X-Gateway-Client-Id header is not required on the transfers API'),
  // general conventions (specification §1, §9)
  f(
    'basepath-unversioned',
    ['CONV-01'],
    ALL,
    'the transfers API is served (and advertised) under /api, without a version',
  ),
  f('empty-body-accepted', ['CONV-02'], ALL, 'POST/PUT without a body are processed with default values'),
  // hardening (HARD-04, HARD-05), and a fault for a check no other fault made fail
  f('body-size-unlimited', ['HARD-04'], ALL, 'request bodies over the advertised size limit are read and processed'),
  f(
    'server-software-headers',
    ['HARD-05'],
    ALL,
    'transfers answers carry `Server: nginx/1.25.3` and `X-Powered-By: Express`',
  ),
  f(
    'put-other-customer-replaces',
    ['XFER-07'],
    ALL,
    "a PUT of an existing transfer id with another customer's token replaces that customer's transfer",
  ),
  // the property checks (docs/properties.md): fixed-input checks miss these
  f(
    'mask-last-three-only',
    ['MASK-01', 'MASK-02'],
    ALL,
    'a well-formed mask of the right length is matched to the account (or emirates id) on its last three characters only: a changed kept head passes (the fixed-input checks miss it, the property finds it)',
  ),
];
