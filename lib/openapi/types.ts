/**
 * The bank's OpenAPI document as the harness reads it (docs/openapi.md): the operations it needs, their request and
 * response schemas (dereferenced JSON Schema), and for a sealed body the schema of the payload inside the envelope.
 * Leaf types only: the loader (lib/openapi/load.ts) builds an OpenApiModel, the response judge and the input
 * generator read it.
 */

/** a dereferenced JSON Schema object (draft 4 subset for OpenAPI 3.0, 2020-12 for 3.1) */
export type JsonSchema = { readonly [k: string]: unknown } | boolean;

/** the operations of the transfers API the harness calls (lib/engine/session/context.ts Operation) */
export type ApiOperationKey = 'validate' | 'create' | 'get';

/** one media type of a request or a response body */
export interface DocMedia {
  /** the media type as the document writes it, e.g. `application/json` */
  readonly contentType: string;
  /** the body's schema as written (for a sealed body: the envelope's, when the document describes one) */
  readonly schema?: JsonSchema;
  /**
   * the body is a JWS-in-JWE envelope (docs/openapi.md, the `x-sealed` convention): `payloadSchema` is the schema of
   * the JSON inside it; absent when the body is plain JSON
   */
  readonly sealed?: { readonly payloadSchema?: JsonSchema };
  /** JSON pointer of this media type object in the document, for findings */
  readonly pointer: string;
}

/** one documented response header (OpenAPI Header Object; `Content-Type` is not one, OpenAPI says it is ignored) */
export interface DocHeader {
  /** as the document writes it; matched case-insensitively */
  readonly name: string;
  readonly required: boolean;
  /** the value's schema (a header is text: read as the schema's type before it is validated) */
  readonly schema?: JsonSchema;
  readonly pointer: string;
}

/** one documented response of an operation: a status (`200`), a range (`4XX`) or `default` */
export interface DocResponse {
  readonly status: string;
  readonly media: readonly DocMedia[];
  /** its documented headers (none: an empty list) */
  readonly headers?: readonly DocHeader[];
  readonly pointer: string;
}

/** one security scheme a requirement names, as the judge needs it (components.securitySchemes) */
export interface DocScheme {
  readonly name: string;
  /** `oauth2`, `openIdConnect`, `http`, `apiKey`, `mutualTLS` */
  readonly type: string;
  /** apiKey: where (`header`, `query`, `cookie`) and its name */
  readonly in?: string;
  readonly param?: string;
}

/** an operation's `security` (its own, else the document's): any one alternative, each of its schemes all */
export interface DocSecurity {
  readonly alternatives: readonly (readonly DocScheme[])[];
  /** JSON pointer of the `security` that applies (the operation's or the root's) */
  readonly pointer: string;
}

export interface DocOperation {
  /** the harness's name for it, when it is one the harness calls */
  readonly key?: ApiOperationKey;
  readonly operationId?: string;
  /** upper case: POST, PUT, GET... */
  readonly method: string;
  /** the full path template including the server's base path, e.g. `/v1/transfers/{transfer_id}` */
  readonly path: string;
  readonly request?: { readonly required: boolean; readonly media: readonly DocMedia[] };
  readonly responses: readonly DocResponse[];
  /** the security the document requires of it; absent when none is documented (or `security: []`) */
  readonly security?: DocSecurity;
  /** JSON pointer of the operation object, e.g. `/paths/~1transfers~1validate/post` */
  readonly pointer: string;
}

export interface OpenApiModel {
  /** the file as the profile names it (relative to the profile), for messages */
  readonly source: string;
  /** `3.0.x` or `3.1.x`, as the document says */
  readonly openapi: string;
  /** the base path of the first server URL (`/v1`), '' when none */
  readonly basePath: string;
  readonly operations: readonly DocOperation[];
  /** the operations the harness calls, identified in the document (absent: the document lacks it) */
  readonly byKey: Readonly<Partial<Record<ApiOperationKey, DocOperation>>>;
  /** how each of byKey was identified: the profile's paths, `x-openbank-operation`, or its shape (the only fit) */
  readonly identifiedBy: Readonly<Partial<Record<ApiOperationKey, 'profile paths' | 'x-openbank-operation' | 'shape'>>>;
  /** the document's contradictions with itself (OAS-08: an example its schema refuses...); absent: not checked */
  readonly documentFindings?: readonly { readonly pointer: string; readonly message: string }[];
  /** what the loader noticed and the report says once (an envelope-described body, an operation not found...) */
  readonly notes: readonly string[];
}
