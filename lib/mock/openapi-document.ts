/**
 * The mock's OpenAPI document as the mock publishes it (docs/openapi/transfers.yaml, named by an embedded profile's
 * `embedded.openapi`): the file as written, or with the fault `openapi-example-invalid` an example its own schema
 * refuses (validate's request gives `amount.value` as a number where the schema says a string) — what OAS-08 (the
 * document checked against itself) must catch. A text edit, no parse: the document stays the bank's text.
 */

export const DOCUMENT_FAULT = 'openapi-example-invalid';

/** where the example goes: validate's request media type, right after its x-sealed marker */
const ANCHOR = "            x-sealed: true\n            schema: { $ref: '#/components/schemas/TransferRequest' }\n";
const EXAMPLE = '            example: { beneficiary_id: B1, amount: { value: 250, currency: AED } }\n';

/** the document's text as published under `faults`; undefined when no fault changes it (or it has no such place) */
export function publishedDocument(text: string, faults: readonly string[]): string | undefined {
  if (!faults.includes(DOCUMENT_FAULT)) return undefined;
  const at = text.indexOf(ANCHOR);
  if (at < 0) return undefined;
  return text.slice(0, at + ANCHOR.length) + EXAMPLE + text.slice(at + ANCHOR.length);
}
