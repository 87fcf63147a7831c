/**
 * The transfers suite (XFER-*), one file per concern: validate, create and its idempotency, get, access control
 * (XFER-07/08); shared setup in helpers.ts. The order below is the suite's order.
 */
import { defineSuite } from '../../lib/engine/check.ts';
import { accessChecks } from './access.ts';
import { createReturnsReference, idempotencyChecks } from './create.ts';
import { createFreeText } from './create-free-text.ts';
import { getDetailsAndStatus } from './get.ts';
import { approversOnlyWithWorkflow, validatePreConfirmation } from './validate.ts';

export const suite = defineSuite('transfers', [
  validatePreConfirmation,
  createReturnsReference,
  createFreeText,
  getDetailsAndStatus,
  approversOnlyWithWorkflow,
  ...idempotencyChecks,
  ...accessChecks,
]);
