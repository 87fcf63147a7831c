/**
 * The command line of `npm run send` (node:util parseArgs, strict): one call as the profile's client. A bad command
 * line throws SendUsage naming the option; the command prints it on one line and exits 2, before any traffic.
 */
import { parseArgs } from 'node:util';
import type { ClientRole, Operation } from '../engine/session/context.ts';
import { ConfigurationError } from '../errors.ts';

export class SendUsage extends ConfigurationError {
  readonly code = 'SEND_USAGE' as const;
}

export interface SendArgs {
  profile: string;
  op: Operation;
  /** --body: a JSON file (plain: sealed as the profile says; with `sealed`, an envelope sent as it is) */
  bodyFile?: string;
  sealed: boolean;
  /** --variant: the body forged by this variant of the JOSE catalogue */
  variant?: string;
  /** --customer: a customer's name in the profile (default: the one the client's token is bound to, else the first) */
  customer?: string;
  transferId?: string;
  /** --role: whose client id, certificate, key and token (the spelling `--as` is kept, with a deprecation line) */
  role: ClientRole;
  /** --token: this access token instead of the token flow (an expired or foreign token, by hand) */
  token?: string;
  /** --header "Name: value": headers added to the call (authorization here replaces the token) */
  headers: Record<string, string>;
  /** --repeat N: the same request sent N times (a create: a new transfer id each time unless --transfer-id) */
  repeat: number;
  /** what the command line used that is deprecated: a line for stderr */
  deprecated?: string;
  proxy?: string;
  /** --proxy-ca: the CA (PEM file) of a proxy that re-terminates TLS */
  proxyCa?: string;
  har?: string;
}

/** the most --repeat sends (a bounded loop; a burst is certify's) */
export const MAX_REPEAT = 20;

export const SEND_HELP = `Usage: npm run send -- --profile <file> --op validate|create|get [options]

One transfers API call as the profile's client, the reviewer's repeater: the token flow the profile says (the code
grant for the code client, client credentials for partner and internal), mutual TLS and sealing as its environment
says (UAT: JWS-in-JWE). Prints the request (secrets redacted; sealed: the envelope and the payload inside), the
answer (sealed: opened, with how it verified) and a judgement: the status against the contract (docs/contract.md),
the 422 error structure (ERR-01), internals in an error answer (ERR-05), the masking of identifiers (MASK-01..04).

Options:
  --profile <file>       the target profile (required); an embedded-mock profile starts its mock for the call
  --op <op>              validate (POST), create (PUT) or get (GET) (required)
  --body <file>          a JSON document, sealed as the profile says (default: the harness's valid transfer body
                         for the customer); not with --op get
  --sealed               the --body file is an envelope already (re-sealed or forged by hand): sent as it is
  --variant <id>         the body forged by a variant of the JOSE catalogue (UAT; the ids: an unknown one lists them)
  --customer <name>      whose transfer (and, with --as code, whose sign-in); default: the customer the
                         client's token is bound to, else the profile's first
  --transfer-id <id>     create and get: the transfer id (default: a new one)
  --role <client>        partner (default), code or internal: whose client id, certificate, key and token (as
                         npm run jose's --role: an envelope it seals is signed by the client send calls as);
                         the old spelling --as still works, with a deprecation line
  --token <token>        send this access token (expired, revoked, another client's) instead of asking for one
  --header "Name: value" add a header to the call (repeatable; Authorization here sends no token of send's)
  --repeat <n>           send the same request n times (1..${MAX_REPEAT}): the same envelope each time, a create
                         for a new transfer id each time unless --transfer-id; an envelope accepted again is noted
                         (a replay the bank did not refuse)
  --proxy <url>          send through this HTTP proxy
  --proxy-ca <file>      with --proxy: the CA of a proxy that re-terminates TLS (PEM)
  --har <file>           write the exchanges as HAR 1.2 (its folder must exist and be writable: checked before
                         anything is sent)
  --help                 print this help

Exit codes: 0 the call was made (whatever the bank answered), 1 no answer (a transport failure, or no token: the
cause is said), 2 bad input (option, profile, body file, customer, variant): one line, nothing sent.
`;

const OPS: readonly Operation[] = ['validate', 'create', 'get'];
const ROLES: readonly ClientRole[] = ['code', 'partner', 'internal'];

function parsed(argv: string[]): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        profile: { type: 'string' },
        op: { type: 'string' },
        body: { type: 'string' },
        sealed: { type: 'boolean' },
        variant: { type: 'string' },
        customer: { type: 'string' },
        'transfer-id': { type: 'string' },
        role: { type: 'string' },
        as: { type: 'string' },
        token: { type: 'string' },
        header: { type: 'string', multiple: true },
        repeat: { type: 'string' },
        proxy: { type: 'string' },
        'proxy-ca': { type: 'string' },
        har: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0] ?? 'invalid arguments';
    throw new SendUsage(`${msg.replace(/\.+$/, '')}. Run with --help for the options.`);
  }
}

/** the arguments, checked; 'help' for --help */
export function parseSendArgs(argv: string[]): SendArgs | 'help' {
  const v = parsed(argv).values as Record<string, string | boolean | string[] | undefined>;
  if (v.help === true) return 'help';
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const profile = str('profile');
  if (!profile) throw new SendUsage('--profile <file> is required');
  const op = str('op');
  if (!op) throw new SendUsage('--op validate|create|get is required');
  if (!OPS.includes(op as Operation)) throw new SendUsage(`--op must be validate, create or get, not "${op}"`);
  if (str('role') !== undefined && str('as') !== undefined) throw new SendUsage('--role and --as: give --role only');
  const roleOpt = str('as') !== undefined ? '--as' : '--role';
  const role = str('role') ?? str('as') ?? 'partner';
  if (!ROLES.includes(role as ClientRole))
    throw new SendUsage(`${roleOpt} must be code, partner or internal, not "${role}"`);
  const headers = headersOf(Array.isArray(v.header) ? v.header : []);
  const repeatText = str('repeat') ?? '1';
  const repeat = /^\d+$/.test(repeatText) ? Number(repeatText) : NaN;
  if (!(repeat >= 1 && repeat <= MAX_REPEAT))
    throw new SendUsage(`--repeat must be a whole number from 1 to ${MAX_REPEAT}, not "${repeatText}"`);
  const token = str('token');
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token))
    throw new SendUsage('--token: a token is printable ASCII without spaces');
  const sealed = v.sealed === true;
  const bodyFile = str('body');
  const variant = str('variant');
  if (op === 'get' && (bodyFile !== undefined || sealed || variant !== undefined))
    throw new SendUsage('--op get sends no body: --body, --sealed and --variant are for validate and create');
  if (sealed && bodyFile === undefined) throw new SendUsage('--sealed needs --body <file> (the envelope to send)');
  if (sealed && variant !== undefined)
    throw new SendUsage('--sealed and --variant: give one (an envelope of your own, or a forged one)');
  const proxy = str('proxy');
  if (proxy !== undefined && !/^https?:\/\/[^/\s]+\/?$/i.test(proxy))
    throw new SendUsage(`--proxy: "${proxy}" is not an http:// or https:// proxy URL (scheme, host and port)`);
  const proxyCa = str('proxy-ca');
  if (proxyCa !== undefined && proxy === undefined) throw new SendUsage('--proxy-ca needs --proxy <url>');
  const transferId = str('transfer-id');
  if (transferId !== undefined && transferId.trim() === '') throw new SendUsage('--transfer-id needs an id');
  const rest = {
    customer: str('customer'),
    transferId,
    variant,
    bodyFile,
    proxy,
    proxyCa,
    har: str('har'),
    token,
    deprecated:
      roleOpt === '--as' ? 'send: --as is now --role (the same meaning; --as goes in a later release)' : undefined,
  };
  return {
    profile,
    op: op as Operation,
    sealed,
    role: role as ClientRole,
    headers,
    repeat,
    ...(Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined)) as Partial<SendArgs>),
  };
}

/** --header "Name: value" lines, checked: a header name (RFC 9110 token) and a value without line breaks */
function headersOf(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/.exec(line);
    if (!m || /[\r\n]/.test(m[2]!))
      throw new SendUsage(`--header "${line}": give "Name: value" (a header name, a colon, a value on one line)`);
    out[m[1]!.toLowerCase()] = m[2]!;
  }
  return out;
}
