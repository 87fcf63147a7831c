/**
 * The types of the input generator (generate.ts): its coverage classes, generated documents, what it could not
 * produce, and the state of its walk through a schema. A leaf, so that its parts import no cycle.
 */
import type { Path, Step, JsonObject } from './generate-doc.ts';
import type { DocumentValidator } from './generate-validate.ts';
import type { Schema } from './generate-values.ts';

/** one coverage class: the edits that make the base violate one constraint of one member */
export interface DocClass {
  /** `amount.currency: enum`, `beneficiary_id: required`, `amount.value: type (number)` */
  readonly label: string;
  readonly member: string;
  readonly constraint: string;
  readonly steps: readonly Step[];
  /** where the edits are (two classes combine when their paths do not overlap) */
  readonly path: Path;
}

/** one generated document: invalid (its classes) or valid by the schema (a control) */
export interface GeneratedInput {
  readonly kind: 'invalid' | 'valid';
  readonly body: unknown;
  readonly label: string;
  /** the coverage classes it violates (none for a valid one) */
  readonly classes: readonly string[];
}

/** a constraint the schema states that no generated document violates alone, and why */
export interface Unproduced {
  readonly label: string;
  readonly why: string;
}

export interface DocumentInputs {
  readonly classes: readonly DocClass[];
  /** one document per class, in the classes' order */
  readonly invalid: readonly GeneratedInput[];
  /** the base first, then variants within the schema */
  readonly valid: readonly GeneratedInput[];
  readonly unproduced: readonly Unproduced[];
}

export interface Walk {
  readonly v: DocumentValidator;
  readonly base: JsonObject;
  readonly classes: DocClass[];
  readonly unproduced: Unproduced[];
  /** members whose schema was walked, with the edits that make them present (controls are made from them) */
  readonly members: { schema: Schema; path: Path; prefix: readonly Step[]; required: boolean }[];
}
