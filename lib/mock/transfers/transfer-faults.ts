/**
 * The faults the transfers API knows, in one table: a handler asks `faultsOf(ctx)` once per call and reads plain
 * booleans, instead of `ctx.faults.on('...')` calls scattered through the code.
 */
import type { FaultSet } from '../fault-set.ts';

export const TRANSFER_FAULTS = {
  methodNotAllowed404: 'method-not-allowed-404',
  apiKeyNotRequired: 'api-key-not-required',
  noWwwAuthenticate: 'no-www-authenticate',
  scopeNotEnforced: 'scope-not-enforced',
  quotaNoRetryAfter: 'quota-no-retry-after',
  quotaRefusalSideEffect: 'quota-refusal-side-effect',
  quotaRefusalBare: 'quota-refusal-bare',
  quotaEarlyLongWait: 'quota-early-long-wait',
  bodySizeUnlimited: 'body-size-unlimited',
  emptyBodyAccepted: 'empty-body-accepted',
  malformedJson500: 'malformed-json-500',
  malformedJson503Traceback: 'malformed-json-503-traceback',
  joseSideEffectOnRefusal: 'jose-side-effect-on-refusal',
  missingPropertyNotNamed: 'missing-property-not-named',
  nonpositiveAmountAccepted: 'nonpositive-amount-accepted',
  invalidCurrencyAccepted: 'invalid-currency-accepted',
  acceptUnmaskedId: 'accept-unmasked-id',
  codeTokenAnyAccount: 'code-token-any-account',
  ccBindingIgnored: 'cc-binding-ignored',
  maskEchoClearId: 'mask-echo-clear-id',
  maskEchoWrongMask: 'mask-echo-wrong-mask',
  validateMissingDebitAmount: 'validate-missing-debit-amount',
  approversAlways: 'approvers-always',
  createNoReference: 'create-no-reference',
  putNotIdempotent: 'put-not-idempotent',
  putDifferentBodyAccepted: 'put-different-body-accepted',
  putOtherCustomerReplaces: 'put-other-customer-replaces',
  readOnlyHonoured: 'read-only-honoured',
  bola: 'bola',
  unknownTransfer200: 'unknown-transfer-200',
  getNoStatus: 'get-no-status',
  unknownTransfer410: 'unknown-transfer-410',
  getTextPlain: 'get-text-plain',
  getMemberRenamed: 'get-member-renamed',
  noRequestId: 'no-request-id',
  serverSoftwareHeaders: 'server-software-headers',
  // the invalid-documents property (docs/property-invalid-documents.md)
  amountString500: 'amount-string-500',
  amountNumberAccepted: 'amount-number-accepted',
  // the coverage classes at the rules' edges (docs/properties.md "Classes per rule")
  amountZeroSpellingsAccepted: 'amount-zero-spellings-accepted',
  amountNegativeFractionAccepted: 'amount-negative-fraction-accepted',
  amountFractionTruncated: 'amount-fraction-truncated',
  remarksEmoji500: 'remarks-emoji-500',
  remarksLongest500: 'remarks-longest-500',
  // the mock's OpenAPI document's inputs (docs/property-invalid-documents.md, "Inputs from the document")
  freeTextLengthUnchecked: 'free-text-length-unchecked',
  remarksShortLimit: 'remarks-short-limit',
  // judge precision: an OpenAPI format's range, free text stored at create
  getInt32Overflow: 'get-int32-overflow',
  remarksCreate500: 'remarks-create-500',
} as const;

export type TransferFaults = { readonly [K in keyof typeof TRANSFER_FAULTS]: boolean };

function readTransferFaults(faults: FaultSet): TransferFaults {
  const out = {} as Record<keyof typeof TRANSFER_FAULTS, boolean>;
  for (const [k, id] of Object.entries(TRANSFER_FAULTS)) out[k as keyof typeof TRANSFER_FAULTS] = faults.on(id);
  return Object.freeze(out);
}

/**
 * the switched-on state of every transfers fault (an unknown id in the table throws at once), read once per set of
 * faults (FaultSet.memo: a change of faults reads them again)
 */
export function faultsOf(faults: FaultSet): TransferFaults {
  return faults.memo(readTransferFaults);
}
