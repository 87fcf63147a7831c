/**
 * Target profile schema. A profile is a JSONC file (see profiles/). Secrets and keys are written as
 * `${env:NAME}` or `file:relative/path` references and resolved by the loader (lib/profile/load.ts)
 * before this schema validates the result. Every default of docs/contract.md that a real target
 * may differ on is a setting here, with the contract's value as its default.
 *
 * Two shapes:
 *  - an embedded profile (`embedded` set): the harness starts the mock bank in-process and the mock
 *    describes itself as a full profile (MockBank.profile()), into which `contract` overrides are merged;
 *  - a full profile (`target` set): any real target, or the standalone mock (`npm run mock`).
 */
import { z } from 'zod';
import { EmbeddedOptions } from './schema-embedded.ts';
import { RunSettings } from './schema-run.ts';

export { RunSettings };

export const Environment = z.enum(['sandbox', 'uat']);
export type Environment = z.infer<typeof Environment>;

const Pem = z
  .string()
  .regex(/-----BEGIN [A-Z ]+-----/, 'expected a PEM block (write file:path to read it from a file)');
const HttpUrl = z.url({ protocol: /^https?$/ });
const Path = z.string().startsWith('/');
/** a `file:` reference the loader keeps as a path (lib/profile/load.ts), not the file's text */
export const OpenApiRef = z.string().startsWith('file:', 'write file:path (relative to the profile)');

export const Paths = z.strictObject({
  /** transfers API basepath (contract: /v1) */
  transfersBasepath: Path.default('/v1'),
  validate: Path.default('/transfers/validate'),
  /** create (PUT) and get (GET); `{transfer_id}` is substituted */
  transfer: Path.default('/transfers/{transfer_id}'),
  authorize: Path.default('/oauth/v1/authorize'),
  /** customer sign-in token endpoint (authorization_code, refresh_token) */
  token: Path.default('/oauth/v1/token'),
  partnerToken: Path.default('/oauth/partner_auth/token'),
  internalToken: Path.default('/oauth/internal_auth/token'),
});
export type Paths = z.infer<typeof Paths>;

/** A client identity the bank registered: API keys and, in UAT, the mutual-TLS certificate and key. */
const ClientBase = z.strictObject({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** PEM certificate registered for mutual TLS (UAT); its key also signs JWS requests. */
  certificate: Pem.optional(),
  privateKey: Pem.optional(),
});

export const CodeClient = ClientBase.extend({
  redirectUri: HttpUrl,
  /** the scope that the transfers API requires */
  scope: z.string().default('transfers'),
});
export type CodeClient = z.infer<typeof CodeClient>;

export const CredentialsClient = ClientBase.extend({
  tokenEndpoint: z.enum(['partner', 'internal']).default('partner'),
  scope: z.string().default('transfers'),
  /** sent as oauth_metadata: binds the token to this identifier (clear value; the harness masks it in calls) */
  oauthMetadata: z
    .union([z.strictObject({ account_id: z.string() }), z.strictObject({ emirates_id: z.string() })])
    .optional(),
});
export type CredentialsClient = z.infer<typeof CredentialsClient>;

export const Customer = z.strictObject({
  /** a label used in reports (never the clear identifiers) */
  name: z.string().min(1),
  uuid: z.string().min(1),
  /** clear account id: a secret; it is masked before it reaches any report */
  accountId: z.string().min(8),
  emiratesId: z.string().min(8).optional(),
  beneficiaryId: z.string().min(1),
  /** whether a workflow (approvers) applies to this customer's transfers */
  workflow: z.boolean().default(false),
});
export type Customer = z.infer<typeof Customer>;

export const Consent = z.discriminatedUnion('mode', [
  /** /authorize answers 302 straight to the redirect URI (test customer, no sign-in page) */
  z.strictObject({ mode: z.literal('auto') }),
  /** the harness prints the URL and waits on a local callback listener */
  z.strictObject({ mode: z.literal('manual'), timeoutSeconds: z.number().int().positive().max(3600).default(300) }),
  /** a login script is run with the URL as its argument and prints the callback URL */
  z.strictObject({
    mode: z.literal('script'),
    command: z.string().min(1),
    timeoutSeconds: z.number().int().positive().max(600).default(60),
    /** the folder the script runs in; the loader sets the profile's folder (where `file:` references resolve) */
    workingDirectory: z.string().min(1).optional(),
  }),
]);
export type Consent = z.infer<typeof Consent>;

/**
 * Who calls the introspection endpoint: many servers let only resource servers introspect (RFC 7662 §2.2 lets them
 * answer `{"active": false}` for a token the caller may not see). Secret and key as `${env:NAME}` or `file:path`.
 */
export const IntrospectionClient = z
  .strictObject({
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    /** default client_secret_basic with a secret, else tls_client_auth (RFC 8705: client_id, its certificate alone) */
    authMethod: z.enum(['client_secret_basic', 'client_secret_post', 'tls_client_auth']).optional(),
    /** presented in mutual TLS whatever the method (without them, in UAT, no client certificate is presented) */
    certificate: Pem.optional(),
    privateKey: Pem.optional(),
  })
  .superRefine((c, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if ((c.certificate === undefined) !== (c.privateKey === undefined))
      issue('privateKey', 'certificate and privateKey go together');
    const method = c.authMethod ?? (c.clientSecret !== undefined ? 'client_secret_basic' : 'tls_client_auth');
    if (method === 'tls_client_auth' && c.certificate === undefined)
      issue('certificate', 'required for tls_client_auth (or give a clientSecret)');
    if (method !== 'tls_client_auth' && c.clientSecret === undefined) issue('clientSecret', `required for ${method}`);
  });
export type IntrospectionClient = z.infer<typeof IntrospectionClient>;

/**
 * Where the target's authorization server differs from the specification the way off-the-shelf products do
 * (docs/authorization-server-product.md).
 */
export const OAuthOptions = z.strictObject({
  /**
   * PKCE (RFC 7636): S256 sends a code_challenge in every code flow and its verifier in the exchange; none: the
   * specification's flow
   */
  pkce: z.enum(['none', 'S256']).default('none'),
  /**
   * the redirect parameter's name: the specification's `redirect_url` (sent only when a check asks for another URI), or RFC
   * 6749's `redirect_uri` (sent in every /authorize request and code exchange, as RFC 6749 §4.1.3 asks)
   */
  redirectParameter: z.enum(['redirect_url', 'redirect_uri']).default('redirect_url'),
  /**
   * RFC 7662 token introspection endpoint (an absolute URL, or a path on the OAuth base), called as the code client
   * (Basic): when named, it is the evidence of "token revoked / still active" (TOK-04, TOK-10). The shorter form of
   * `introspection: { endpoint }`.
   */
  introspectionEndpoint: z.string().min(1).optional(),
  /** RFC 7662: the endpoint (a URL or a path on the OAuth base) and who calls it (default: the code client, Basic) */
  introspection: z.strictObject({ endpoint: z.string().min(1), client: IntrospectionClient.optional() }).optional(),
});
export type OAuthOptions = z.infer<typeof OAuthOptions>;

/** Contract defaults (docs/contract.md) a real target may override. */
export const Contract = z
  .strictObject({
    tokens: z
      .object({
        accessTokenSeconds: z.number().int().positive().default(3600),
        codeSeconds: z.number().int().positive().default(60),
        refreshIdleDays: z.number().int().positive().default(180),
        refreshMaxDays: z.number().int().positive().default(1095),
      })
      .prefault({}),
    quota: z
      .object({
        perHour: z.number().int().positive().default(100),
        windowSeconds: z.number().int().positive().default(3600),
        status: z.number().int().default(429),
        /** a plan-wide figure, when the target has one */
        planPerHour: z.number().int().positive().optional(),
      })
      .prefault({}),
    statuses: z
      .object({
        create: z.array(z.number().int()).default([201, 200]),
        repeatCreate: z.array(z.number().int()).default([200, 201]),
        joseRefused: z.array(z.number().int()).default([400]),
        unmaskedIdentifier: z.array(z.number().int()).default([422]),
        mismatchedIdentifier: z.array(z.number().int()).default([403]),
        notVisible: z.array(z.number().int()).default([404]),
        emptyBody: z.array(z.number().int()).default([400, 422]),
        sourceRefused: z.array(z.number().int()).default([403]),
      })
      .prefault({}),
    /** UAT: GET responses are sealed too (contract: yes) */
    sealGetResponses: z.boolean().default(true),
    /** allowed transfer status values; empty = any non-empty string */
    transferStatuses: z.array(z.string()).default(['PENDING_APPROVAL', 'PROCESSING', 'COMPLETED', 'REJECTED']),
    currency: z.string().length(3).default('AED'),
    /** a currency code the target must refuse */
    invalidCurrency: z.string().default('XYZ'),
    /**
     * the request's free-text members and their longest allowed length in characters (Unicode code points): any text
     * up to it, in any script, is accepted (contract: `remarks`, 140, the remittance information of ISO 20022 and
     * SWIFT field 70); an empty list: no free text is sent beyond the base document's
     */
    /**
     * the smallest amount the target accepts in a valid document (contract: 0.01, above zero with two decimals); a
     * bank with a minimum amount names it here
     */
    smallestAmount: z
      .string()
      .regex(/^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/, 'a decimal string with at most two decimals')
      .refine((v) => Number(v) > 0, 'above zero')
      .default('0.01'),
    freeText: z
      .object({
        members: z.array(z.string().min(1)).default(['remarks']),
        maxLength: z.number().int().positive().default(140),
      })
      .prefault({}),
    /** the target's request body limit in bytes (HARD-04: a body over it is 413); unset: the size probe is not run */
    maxRequestBytes: z.number().int().positive().optional(),
    /** request body size the target must refuse, in bytes */
    oversizeBytes: z
      .number()
      .int()
      .positive()
      .default(8 * 1024 * 1024),
    scopes: z
      .object({
        transfers: z.string().default('transfers'),
        /** a scope the client may obtain that does not grant the transfers API */
        other: z.string().default('accounts'),
      })
      .prefault({}),
  })
  .prefault({});
export type Contract = z.infer<typeof Contract>;

/** a `file:` reference arrives as the file's text: JSON text becomes its value (anything else is left to fail) */
function parseJsonText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

export const KnownDeviation = z.strictObject({
  /** requirement id, or a check id (suite.name) */
  id: z.string().min(1),
  reason: z.string().min(1),
  link: z.string().optional(),
});
export type KnownDeviation = z.infer<typeof KnownDeviation>;

/**
 * A rule the operator decided not to verify in this profile's runs (e.g. the destructive quota checks on a shared
 * sandbox): a MUST left not run or inconclusive by a waived id does not make the run INCOMPLETE; the report shows
 * the waiver and its reason. A waiver never hides a failure (that is what knownDeviations are for).
 */
export const Waiver = z.strictObject({
  /** requirement id, or a check id (suite.name) */
  id: z.string().min(1),
  reason: z.string().min(1),
});
export type Waiver = z.infer<typeof Waiver>;

/** Certificates for negative mutual-TLS checks against a real target (the bank must have registered some). */
const CertAndKey = z.strictObject({
  certificate: Pem,
  privateKey: Pem,
  /** the client id the bank registered this certificate for (so that the only defect is the one under test);
   *  absent for `unregistered`, which is presented with the partner's client id */
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
});
export const NegativeCertificates = z.strictObject({
  weak1024: CertAndKey.optional(),
  expired: CertAndKey.optional(),
  untrustedCa: CertAndKey.optional(),
  unregistered: CertAndKey.optional(),
});

export const Tls = z.strictObject({
  /** PEM of the CA the bank's server certificate chains to */
  caCertificate: Pem,
  /** host name expected in the server certificate (default: the URL host) */
  serverName: z.string().optional(),
  /** source address the bank allow-listed (the default route when absent) */
  allowedSourceAddress: z.string().optional(),
  /** a local source address that is NOT on the bank's allow-list (loopback: 127.0.0.2) */
  disallowedSourceAddress: z.string().optional(),
  negativeCertificates: NegativeCertificates.prefault({}),
});

const Common = {
  name: z.string().min(1),
  description: z.string().optional(),
  environment: Environment,
  contract: Contract,
  /** inline, or `file:deviations.json` (a versioned JSON array kept beside the profile) */
  knownDeviations: z.preprocess(parseJsonText, z.array(KnownDeviation)).default([]),
  /** ids not verified on purpose (reason required): they do not make the run INCOMPLETE */
  waivers: z.array(Waiver).optional(),
  run: RunSettings,
  /** operator key that signs results.json (results.json.jws), so an archived certification is tamper-evident */
  report: z.strictObject({ signingKey: Pem.optional(), signingKid: z.string().optional() }).prefault({}),
};

export const FullProfile = z
  .strictObject({
    ...Common,
    target: z.strictObject({
      baseUrl: HttpUrl,
      /** OAuth endpoints on another host, when they are */
      oauthBaseUrl: HttpUrl.optional(),
      paths: Paths.prefault({}),
      /**
       * which of the transfers paths the profile sets itself: they identify the operations in `openapi` (docs/openapi.md),
       * the others are filled from it. The loader lists those the profile writes in `paths` (a profile made in code lists
       * those it sets); kept as data so that a copy of the profile (structuredClone, JSON) identifies the same operations
       */
      pathsWritten: z.array(z.enum(['transfersBasepath', 'validate', 'transfer'])).optional(),
      /** test clock: POST {"advance_seconds": N} -> 204 */
      clock: HttpUrl.optional(),
      consent: Consent.default({ mode: 'auto' }),
      /** the authorization server's variants (PKCE, the redirect parameter's name, introspection) */
      oauth: OAuthOptions.prefault({}),
      /**
       * the transfers API behind the OAuth endpoints: `present`, or `none` (an authorization server alone, or its API
       * certified separately): the checks that need the API's answer are then not run, with that reason
       */
      api: z.enum(['present', 'none']).default('present'),
      /**
       * the bank's OpenAPI document (docs/openapi.md), `file:path` relative to the profile: every answer is judged
       * against it (OAS-01..03, 06, 07); where `paths` is not set, it gives the transfers operations' paths and base path
       */
      openapi: OpenApiRef.optional(),
    }),
    /** UAT: the bank's API-domain public key (PEM SPKI or certificate): JWE to it, JWS responses verify with it */
    bank: z
      .strictObject({
        apiPublicKey: Pem.optional(),
        /**
         * the bank's API-domain private key, for a reviewer of their own bank only (`npm run jose -- open|seal --as
         * bank`, the answer spoils of `forge`); no check uses it. A secret: `file:` or `${env:NAME}`
         */
        apiPrivateKey: Pem.optional(),
      })
      .prefault({}),
    tls: Tls.optional(),
    clients: z.strictObject({
      /** authorization-code client (fintech) */
      code: CodeClient,
      /** client-credentials partner, bound to the first customer's account id */
      partner: CredentialsClient,
      /** client-credentials internal client, optional */
      internal: CredentialsClient.optional(),
    }),
    /** at least two customers; the first without workflow, one with workflow if XFER-02 is to run */
    customers: z.array(Customer).min(2),
  })
  .superRefine((p, ctx) => {
    const o = p.target.oauth;
    if (
      o.introspection &&
      o.introspectionEndpoint !== undefined &&
      o.introspectionEndpoint !== o.introspection.endpoint
    )
      ctx.addIssue({
        code: 'custom',
        path: ['target', 'oauth', 'introspectionEndpoint'],
        message: 'differs from introspection.endpoint: name the endpoint once',
      });
    if (p.environment !== 'uat') return;
    // UAT is mutual TLS end to end: a plain-HTTP URL could only end in transport errors, after the whole run
    for (const k of ['baseUrl', 'oauthBaseUrl'] as const) {
      const u = p.target[k];
      if (u && !u.startsWith('https://'))
        ctx.addIssue({
          code: 'custom',
          path: ['target', k],
          message: 'must be an https:// URL when environment is uat',
        });
    }
    if (!p.tls) ctx.addIssue({ code: 'custom', path: ['tls'], message: 'required when environment is uat' });
    if (!p.bank.apiPublicKey)
      ctx.addIssue({ code: 'custom', path: ['bank', 'apiPublicKey'], message: 'required when environment is uat' });
    for (const k of ['code', 'partner'] as const) {
      const c = p.clients[k];
      if (!c.certificate)
        ctx.addIssue({
          code: 'custom',
          path: ['clients', k, 'certificate'],
          message: 'required when environment is uat',
        });
      if (!c.privateKey)
        ctx.addIssue({
          code: 'custom',
          path: ['clients', k, 'privateKey'],
          message: 'required when environment is uat',
        });
    }
  });
export type FullProfile = z.infer<typeof FullProfile>;
export type FullProfileInput = z.input<typeof FullProfile>;

export const EmbeddedProfile = z.strictObject({
  ...Common,
  embedded: EmbeddedOptions.prefault({}),
});
export type EmbeddedProfile = z.infer<typeof EmbeddedProfile>;

export const AnyProfile = z.union([EmbeddedProfile.strict(), FullProfile]);
export type AnyProfile = z.infer<typeof AnyProfile>;
