/**
 * The faults of what the bank answers to a document: the 422 error structure and the other error answers
 * (ERR-01..05), drift from the bank's OpenAPI document (OAS-01..08), and the values at the rules' edges the
 * properties find (a boundary spelled otherwise, free text a core system chokes on).
 */
import type { FaultDefinition } from '../types.ts';
import { f, S, ALL } from './define.ts';

export const DOCUMENT_FAULTS: readonly FaultDefinition[] = [
  f('error-extra-member', ['ERR-01'], ALL, 'error bodies carry an extra member `errors`'),
  f('error-status-number', ['ERR-01'], ALL, 'error bodies carry `status` as a number'),
  f(
    'missing-property-not-named',
    ['ERR-02'],
    ALL,
    'a missing property is reported as property "body", message "invalid request"',
  ),
  f('invalid-currency-accepted', ['ERR-03'], ALL, 'any 3-letter currency is accepted'),
  f('nonpositive-amount-accepted', ['ERR-03'], ALL, 'a zero or negative amount is accepted'),
  f('unknown-transfer-200', ['ERR-04'], ALL, 'GET of an unknown transfer id answers 200'),
  // the bank's OpenAPI document (docs/openapi/transfers.yaml): an answer's shape or status drifts from it
  f(
    'unknown-transfer-410',
    ['ERR-04', 'OAS-01'],
    // sandbox only: in UAT the JOSE side-effect check (JOSE-14) reads the same not-found and would fail with it
    S,
    'GET of an unknown transfer id answers 410 Gone, a status neither the contract (404) nor the document lists',
  ),
  f('get-text-plain', ['OAS-02'], ALL, 'the get answer says Content-Type text/plain (its body is the same JSON)'),
  f('get-member-renamed', ['OAS-03'], ALL, 'the get answer names created_at createdAt (the document requires it)'),
  f(
    'openapi-example-invalid',
    ['OAS-08'],
    ALL,
    "the mock's published document gives validate's request an example its schema refuses (amount.value a number)",
  ),
  f(
    'no-request-id',
    ['OAS-06'],
    ALL,
    'transfers answers carry no X-Request-Id header (the document requires it on 2xx)',
  ),
  f('method-not-allowed-404', ['ERR-04'], ALL, 'a disallowed method answers 404 instead of 405'),
  f('malformed-json-500', ['ERR-04'], ALL, 'a malformed JSON body answers 500 instead of 400'),
  f(
    'malformed-json-503-traceback',
    ['ERR-05', 'ERR-04'],
    ALL,
    'a malformed JSON body answers 503 with an HTML page holding a Python traceback and its file paths',
  ),
  f('error-leaks-stack', ['ERR-05'], ALL, 'error descriptions carry a stack trace with file paths'),
  // the invalid-documents property (docs/property-invalid-documents.md) — faults the fixed-input ERR checks miss and
  // the invalid-documents property finds
  f(
    'amount-string-500',
    ['ERR-03'],
    ALL,
    'an `amount` sent flat as a string holding a number ("150.00", not an object) crashes the validator: 500',
  ),
  f(
    'amount-number-accepted',
    ['ERR-03'],
    ALL,
    'an `amount.value` sent as a JSON number (150.5) is read as its decimal text and accepted',
  ),
  // the coverage classes at the rules' edges (docs/properties.md "Classes per rule"): a boundary spelled otherwise,
  // free text a core system chokes on
  f(
    'amount-zero-spellings-accepted',
    ['ERR-03'],
    ALL,
    'a zero `amount.value` is refused only when written `0` or `0.00` (a string compare): `0.0`, `00.00`, `000` … are accepted',
  ),
  f(
    'amount-negative-fraction-accepted',
    ['ERR-03'],
    ALL,
    'the sign of `amount.value` is read from its integer part (parseInt): `-0.01` … `-0.99` are accepted',
  ),
  f(
    'amount-fraction-truncated',
    ['XFER-01'],
    ALL,
    'an `amount.value` under 1.00 is read by its integer part (parseInt) and refused as not above zero: `0.01` … `0.99`, 422 naming amount.value',
  ),
  f(
    'remarks-emoji-500',
    // validate and create read the same core: the invalid-documents property (validate) and the create check catch it
    ['XFER-01', 'XFER-03'],
    ALL,
    'a valid request whose `remarks` hold a character outside the Basic Multilingual Plane (an emoji) crashes the core (a 3-byte UTF-8 column): 500',
  ),
  f(
    'remarks-longest-500',
    // validate and create read the same core: the invalid-documents property (validate) and the create check catch it
    ['XFER-01', 'XFER-03'],
    ALL,
    '`remarks` of 140 characters, the longest the contract allows, crash the core (its column holds 139): 500',
  ),
  // the mock's OpenAPI document (docs/property-invalid-documents.md): requests the document calls invalid or valid
  f(
    'free-text-length-unchecked',
    ['OAS-04'],
    ALL,
    "`remarks` and `purpose_code` longer than the 140 characters the mock's document allows are accepted",
  ),
  f(
    'remarks-short-limit',
    ['OAS-05'],
    ALL,
    "`remarks` of more than 100 characters are refused (422 naming remarks), though the mock's document allows 140",
  ),
  // an answer outside an OpenAPI format's range; free text that crashes only when stored
  f(
    'get-int32-overflow',
    ['OAS-03'],
    ALL,
    "the get answer carries revision 2147483648, one past the largest int32 (the mock's document says format: int32)",
  ),
  f(
    'remarks-create-500',
    ['XFER-03'],
    ALL,
    'a create whose `remarks` take more than 140 UTF-8 bytes crashes when the transfer is stored (a column sized in bytes): 500; validate, which stores nothing, accepts it',
  ),
];
