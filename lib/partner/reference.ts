/**
 * The partner's reference (docs/partner.md section 4) as data: every request of the task and its answer, per mode,
 * with fields, JSON types, example values and headers. docs/partner.md's section is generated from it
 * (`referenceMarkdown`), and test/partner/reference.test.ts sends each documented request to the mock bank, built
 * from these fields only, and checks the answer against the documented fields and types: the guide, the mock bank
 * and the judge cannot drift apart without a test failing.
 */
import type { Environment } from '../profile/schema.ts';

export type JsonType = 'string' | 'integer' | 'object' | 'array';

export interface FieldDoc {
  name: string;
  type: JsonType;
  required: boolean;
  /** a value that works (the test sends it unless it has a live value for the field) */
  example: string | number | Record<string, string>;
  note: string;
  /** the members of an object */
  members?: FieldDoc[];
  /** required, but not by the endpoint itself (it answers without it): what refuses a client that leaves it out */
  enforcedBy?: string;
}

export interface HeaderDoc {
  name: string;
  value: string;
}

export type MessageId = 'authorize' | 'code-token' | 'refresh' | 'cc-token' | 'validate' | 'create' | 'get';

export interface MessageDoc {
  id: MessageId;
  title: string;
  method: 'GET' | 'POST' | 'PUT';
  /** `{oauth}` is BANK_OAUTH_BASE_URL, `{base}` BANK_BASE_URL */
  path: string;
  headers: HeaderDoc[];
  /** where the fields travel */
  carrier: 'query' | 'form' | 'json' | 'none';
  /** the JSON body is sealed (UAT: JWS RS256 with the client's key inside JWE to the bank's API key) */
  sealed: boolean;
  fields: FieldDoc[];
  answer: {
    status: number;
    /** `Location` for the authorize redirect */
    headers: HeaderDoc[];
    sealed: boolean;
    fields: FieldDoc[];
  };
}

const s = (name: string, required: boolean, example: string, note: string): FieldDoc => ({
  name,
  type: 'string',
  required,
  example,
  note,
});
const int = (name: string, example: number, note: string): FieldDoc => ({
  name,
  type: 'integer',
  required: true,
  example,
  note,
});
const money = (name: string, note: string, value = '150.00'): FieldDoc => ({
  name,
  type: 'object',
  required: true,
  example: { value, currency: 'AED' },
  note,
  members: [
    s('value', true, value, 'decimal string, at most 2 decimals, greater than 0 (not a JSON number)'),
    s('currency', true, 'AED', 'ISO 4217: AED, USD, EUR, GBP, SAR, INR, JPY or CHF'),
  ],
});

const BASIC: HeaderDoc = { name: 'Authorization', value: 'Basic base64(urlencode(BANK_CLIENT_ID):urlencode(secret))' };
const FORM: HeaderDoc = { name: 'Content-Type', value: 'application/x-www-form-urlencoded' };
const JSON_TYPE: HeaderDoc = { name: 'Content-Type', value: 'application/json' };
const BEARER: HeaderDoc = { name: 'Authorization', value: 'Bearer <access_token>' };
const CLIENT_ID: HeaderDoc = { name: 'X-Gateway-Client-Id', value: '<BANK_CLIENT_ID>' };
const NO_STORE: HeaderDoc = { name: 'Cache-Control', value: 'no-store' };

const TOKEN_FIELDS: FieldDoc[] = [
  s('access_token', true, 'AT_3q2…', 'opaque; reuse it until it expires (TOK-18)'),
  s('token_type', true, 'bearer', ''),
  int('expires_in', 3600, 'seconds'),
  int('consented_on', 1764000000, 'Unix seconds of the consent'),
  s('scope', true, 'transfers', ''),
];
const REFRESH_FIELDS: FieldDoc[] = [
  s('refresh_token', true, 'RT_9xk…', 'rotated on every refresh: keep the newest (CLI-05)'),
  int('refresh_token_expires_in', 94608000, 'seconds left of the grant'),
];

const TRANSFER_BODY: FieldDoc[] = [
  s('beneficiary_id', true, 'BEN-0001', "BANK_BENEFICIARY_ID: one of the customer's beneficiaries, at most 64 chars"),
  s('account_id', true, '1234xxxxxx123', 'BANK_ACCOUNT_ID masked: first 4 and last 3 characters kept, x between'),
  money('amount', 'the amount to credit'),
  s('purpose_code', false, 'FAM', 'at most 140 characters'),
  s('remarks', false, 'certification', 'at most 140 characters'),
];

function authorize(mode: Environment): MessageDoc {
  const uat = mode === 'uat';
  return {
    id: 'authorize',
    title: 'Sign-in (code flow): authorization request',
    method: 'GET',
    path: '{oauth}/oauth/v1/authorize',
    headers: [],
    carrier: 'query',
    sealed: false,
    fields: [
      s('response_type', true, 'code', ''),
      s('client_id', true, '<BANK_CLIENT_ID>', ''),
      s('scope', true, 'transfers', ''),
      {
        ...s('state', true, 'k3J9…', 'random per sign-in; the only defence against a forged callback (no PKCE)'),
        enforcedBy: 'CLI-04',
      },
      s('uuid', uat, '<BANK_CUSTOMER_UUID>', uat ? '' : 'optional in the sandbox'),
      ...(uat
        ? [
            s(
              'account_id',
              true,
              'eyJhbGciOiJSU0EtT0FFUC0yNTYi…',
              'JWE compact RSA-OAEP-256 + A256CBC-HS512 of BANK_ACCOUNT_ID to the bank API key',
            ),
          ]
        : []),
      s('redirect_url', false, '<BANK_REDIRECT_URI>', 'optional: one URI is registered (redirect_uri is read too)'),
    ],
    answer: {
      status: 302,
      headers: [{ name: 'Location', value: '<BANK_REDIRECT_URI>?code=<code>&state=<state>' }],
      sealed: false,
      fields: [],
    },
  };
}

const codeToken: MessageDoc = {
  id: 'code-token',
  title: 'Sign-in (code flow): code exchange, once, within 60 s',
  method: 'POST',
  path: '{oauth}/oauth/v1/token',
  headers: [BASIC, FORM],
  carrier: 'form',
  sealed: false,
  fields: [
    s('grant_type', true, 'authorization_code', ''),
    s('code', true, '<code>', 'from the callback, once its state was checked'),
    s('redirect_uri', false, '<BANK_REDIRECT_URI>', 'optional'),
  ],
  answer: { status: 200, headers: [NO_STORE], sealed: false, fields: [...TOKEN_FIELDS, ...REFRESH_FIELDS] },
};

const refresh: MessageDoc = {
  id: 'refresh',
  title: 'Code flow: refresh after a 401 (once; refused → sign in again)',
  method: 'POST',
  path: '{oauth}/oauth/v1/token',
  headers: [BASIC, FORM],
  carrier: 'form',
  sealed: false,
  fields: [s('grant_type', true, 'refresh_token', ''), s('refresh_token', true, '<refresh_token>', 'the newest one')],
  answer: { status: 200, headers: [NO_STORE], sealed: false, fields: [...TOKEN_FIELDS, ...REFRESH_FIELDS] },
};

function ccToken(mode: Environment): MessageDoc {
  const uat = mode === 'uat';
  const metadata: FieldDoc = uat
    ? {
        name: 'oauth_metadata',
        type: 'object',
        required: true,
        example: { account_id: '<BANK_ACCOUNT_ID>' },
        note: 'binds the token to the account (clear id: the one place it travels clear)',
        members: [s('account_id', true, '<BANK_ACCOUNT_ID>', 'in clear')],
        enforcedBy: 'the transfers API: an unbound token moves no money in UAT (403)',
      }
    : s(
        'oauth_metadata',
        false,
        '{"account_id":"<BANK_ACCOUNT_ID>"}',
        'JSON object as a string, or the bracket form oauth_metadata[account_id]=<BANK_ACCOUNT_ID>; binds the token (clear id); without it the token acts on the account each call names',
      );
  return {
    id: 'cc-token',
    title: 'Client credentials: partner token bound to the account',
    method: 'POST',
    path: '{oauth}/oauth/partner_auth/token',
    headers: uat
      ? [
          CLIENT_ID,
          { name: 'X-Gateway-Client-Secret', value: '<BANK_CLIENT_SECRET>' },
          { name: 'MsgId', value: '<a fresh UUID per request>' },
          JSON_TYPE,
        ]
      : [BASIC, FORM],
    carrier: uat ? 'json' : 'form',
    sealed: uat,
    fields: [s('grant_type', true, 'client_credentials', ''), s('scope', true, 'transfers', ''), metadata],
    answer: { status: 200, headers: [NO_STORE], sealed: uat, fields: TOKEN_FIELDS },
  };
}

function transfers(mode: Environment): MessageDoc[] {
  const uat = mode === 'uat';
  const headers = [BEARER, CLIENT_ID];
  return [
    {
      id: 'validate',
      title: 'Validate the transfer',
      method: 'POST',
      path: '{base}/transfers/validate',
      headers: [...headers, JSON_TYPE],
      carrier: 'json',
      sealed: uat,
      fields: TRANSFER_BODY,
      answer: {
        status: 200,
        headers: [],
        sealed: uat,
        fields: [
          money('charges', "the bank's charges", '5.25'),
          money('debit_amount', 'amount + charges', '155.25'),
          money('total_credit_amount', 'the amount credited'),
          s('authentication_mode', true, 'OTP', ''),
        ],
      },
    },
    {
      id: 'create',
      title: 'Create it (PUT again with the same transfer_id when an answer is lost)',
      method: 'PUT',
      path: '{base}/transfers/{transfer_id}',
      headers: [...headers, JSON_TYPE],
      carrier: 'json',
      sealed: uat,
      fields: TRANSFER_BODY,
      answer: {
        status: 201,
        headers: [],
        sealed: uat,
        fields: [
          s('transfer_id', true, '6f1c…', "the client's own id: 1 to 64 of A-Z a-z 0-9 . _ : -"),
          s('payment_reference_id', true, 'PRN…', ''),
          s('status', true, 'PROCESSING', 'PROCESSING or PENDING_APPROVAL'),
        ],
      },
    },
    {
      id: 'get',
      title: 'Read it back',
      method: 'GET',
      path: '{base}/transfers/{transfer_id}',
      headers,
      carrier: 'none',
      sealed: false,
      fields: [],
      answer: {
        status: 200,
        headers: [],
        sealed: uat,
        fields: [
          s('transfer_id', true, '6f1c…', ''),
          s('payment_reference_id', true, 'PRN…', ''),
          s('status', true, 'PROCESSING', ''),
          s('beneficiary_id', true, 'BEN-0001', ''),
          money('amount', ''),
          s('created_at', true, '2026-11-25T15:00:00.000Z', 'ISO 8601'),
        ],
      },
    },
  ];
}

/** every request of the task and its answer in `mode` */
export function reference(mode: Environment): MessageDoc[] {
  return [authorize(mode), codeToken, refresh, ccToken(mode), ...transfers(mode)];
}

const cell = (t: string): string => t.replace(/\|/g, '\\|');
const exampleOf = (f: FieldDoc): string =>
  typeof f.example === 'string' ? `\`${f.example}\`` : `\`${JSON.stringify(f.example)}\``;

function fieldRows(fields: FieldDoc[], prefix = ''): string[] {
  return fields.flatMap((f) => [
    `| \`${prefix}${f.name}\` | ${f.type} | ${f.required ? (f.enforcedBy ? `yes (${f.enforcedBy}; the endpoint answers without it)` : 'yes') : 'no'} | ${cell(exampleOf(f))} | ${cell(f.note)} |`,
    ...fieldRows(f.members ?? [], `${prefix}${f.name}.`),
  ]);
}

function table(fields: FieldDoc[]): string[] {
  if (fields.length === 0) return [];
  return [
    '',
    '| field | JSON type | required | example | note |',
    '| --- | --- | --- | --- | --- |',
    ...fieldRows(fields),
  ];
}

function messageMarkdown(m: MessageDoc): string[] {
  const where = {
    query: 'query string',
    form: 'form body',
    json: m.sealed ? 'JSON body, sealed' : 'JSON body',
    none: 'no body',
  }[m.carrier];
  const hs = m.headers.length ? m.headers.map((h) => `\`${h.name}: ${h.value}\``).join(', ') : 'none';
  const ah = m.answer.headers.map((h) => `, \`${h.name}: ${h.value}\``).join('');
  return [
    `#### ${m.title}`,
    '',
    `\`${m.method} ${m.path}\` — ${where}; headers: ${hs}.`,
    ...table(m.fields),
    '',
    `Answer: HTTP ${m.answer.status}${ah}${m.answer.fields.length ? `, ${m.answer.sealed ? 'sealed JSON (open and verify it before use)' : 'plain JSON'}:` : '.'}`,
    ...table(m.answer.fields),
    '',
  ];
}

/** docs/partner.md's reference, between its markers */
export function referenceMarkdown(): string {
  const out: string[] = [];
  for (const mode of ['uat', 'sandbox'] as const) {
    out.push(`### 4.${mode === 'uat' ? 1 : 2} ${mode === 'uat' ? 'UAT' : 'Sandbox'}`, '');
    for (const m of reference(mode)) out.push(...messageMarkdown(m));
  }
  return out.join('\n');
}
