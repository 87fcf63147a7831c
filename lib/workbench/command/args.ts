/**
 * The command line of `npm run jose` (node:util parseArgs, strict), kept apart from the commands so that `--help` and
 * a usage error answer without loading the harness (scripts/jose.ts imports the commands only after this). A bad
 * command line is a BadInput: one line, exit 2.
 */
import { parseArgs } from 'node:util';
import { ConfigurationError } from '../../errors.ts';

/** bad input to a workbench command: its message is the one line said, the exit status 2 */
export class BadInput extends ConfigurationError {
  readonly code = 'BAD_INPUT' as const;
}

export const COMMANDS = ['open', 'seal', 'tamper', 'forge', 'keys'] as const;
export type Command = (typeof COMMANDS)[number];
export type Side = 'client' | 'bank';
export const ROLES = ['code', 'partner', 'internal'] as const;
export type Role = (typeof ROLES)[number];

/** the layers an edit names: `jwe.kid`, `jws.jku`, `payload.amount.value` */
export const LAYERS = ['jwe', 'jws', 'payload'] as const;
export type Layer = (typeof LAYERS)[number];
/** one --set or --unset: its layer, the member's path (payload: dotted), the value set (undefined: removed) */
export interface Edit {
  layer: Layer;
  path: string[];
  value?: unknown;
}

export const JWS_ALGS = ['RS256', 'RS512', 'PS256', 'HS256', 'none'] as const;
export const JWE_ALGS = ['RSA-OAEP-256', 'RSA-OAEP', 'RSA1_5'] as const;
export const ENCS = ['A256CBC-HS512', 'A128CBC-HS256', 'A128GCM', 'A256GCM'] as const;
export const FORMS = ['general', 'flattened', 'compact'] as const;
export const FLIPS = ['protected', 'iv', 'ciphertext', 'tag', 'encrypted_key'] as const;
export type JwsAlg = (typeof JWS_ALGS)[number];
export type JweAlg = (typeof JWE_ALGS)[number];
export type Enc = (typeof ENCS)[number];
export type Form = (typeof FORMS)[number];
export type Flip = (typeof FLIPS)[number];

/** what seal and tamper change (none given: seal makes the profile's envelope, tamper re-encrypts the JWS as it is) */
export interface Changes {
  edits: Edit[];
  /** the JWS alg (header and signature); `none`, `None`, `nOnE`...: no signature, the header as spelled */
  alg?: string;
  enc?: Enc;
  jweAlg?: JweAlg;
  kid?: string;
  /** a private key file (PEM or JWK), or `attacker` (the harness's attacker key, `jose keys` exports it) */
  signKey?: string;
  /** HS256 secret: text, a file's bytes, or a public key's PEM (key confusion) */
  hmac?: { text: string } | { file: string } | { publicKey: 'bank' | 'client' };
  /** put the signing key in the JWS header: its public JWK (`jwk`) or its certificate (`x5c`) */
  embed?: 'jwk' | 'x5c';
  signature?: 'empty' | 'truncated';
  /** no JWS: the payload encrypted as it is */
  unsigned: boolean;
  /** the content key also wrapped for another key: `attacker` or a public key / certificate file */
  alsoTo?: string;
  flip?: Flip;
  jwsForm?: Form;
  jweForm?: Form;
  /** seal: the input is a JWS (compact or JSON), encrypted as it is */
  innerJws: boolean;
}

export interface JoseArgs {
  command: Command;
  profile?: string;
  as?: Side;
  role: Role;
  variant?: string;
  keyUrl?: string;
  list: boolean;
  file?: string;
  /** open: read the envelope from a HAR 1.2 file, entry --entry N or the entry of --check ID */
  har?: string;
  entry?: number;
  check?: string;
  /** keys: the folder the attacker's keys are written to */
  out?: string;
  changes: Changes;
}

export type Parsed = JoseArgs | { help: true; command?: Command };

const oneOf = <T extends string>(v: string | undefined, all: readonly T[], what: string): T | undefined => {
  if (v === undefined) return undefined;
  if (!(all as readonly string[]).includes(v))
    throw new BadInput(`${what} must be ${all.slice(0, -1).join(', ')} or ${all.at(-1)}, not "${v}"`);
  return v as T;
};

/** a --set value: JSON when it parses as JSON (1, true, null, "1.00", {...}), else the text as a string */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function edit(spec: string, set: boolean): Edit {
  const eq = spec.indexOf('=');
  const name = set ? (eq < 0 ? spec : spec.slice(0, eq)) : spec;
  const dot = name.indexOf('.');
  const layer = dot < 0 ? name : name.slice(0, dot);
  const path = dot < 0 ? [] : name.slice(dot + 1).split('.');
  const opt = set ? '--set' : '--unset';
  if (!(LAYERS as readonly string[]).includes(layer) || path.length === 0 || path.some((p) => p === ''))
    throw new BadInput(
      `${opt} "${spec}": name a member as jwe.NAME, jws.NAME or payload.NAME (payload: a.b for nesting)`,
    );
  if (layer !== 'payload' && path.length > 1)
    throw new BadInput(`${opt} "${spec}": a header member is one name (jwe.NAME or jws.NAME)`);
  if (set && eq < 0) throw new BadInput(`--set "${spec}": give a value, LAYER.NAME=VALUE (--unset removes)`);
  return set ? { layer: layer as Layer, path, value: valueOf(spec.slice(eq + 1)) } : { layer: layer as Layer, path };
}

function hmacOf(v: Record<string, unknown>): Changes['hmac'] {
  const given = [
    typeof v.secret === 'string' && { text: v.secret },
    typeof v['secret-file'] === 'string' && { file: v['secret-file'] },
    typeof v['hmac-public-key'] === 'string' && {
      publicKey: oneOf(v['hmac-public-key'], ['bank', 'client'] as const, '--hmac-public-key')!,
    },
  ].filter((x) => x !== false);
  if (given.length > 1) throw new BadInput('--secret, --secret-file and --hmac-public-key: give one HS256 key');
  return given[0];
}

function changesOf(v: Record<string, unknown>, command: Command): Changes {
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? v[k] : undefined);
  const list = (k: string): string[] => (Array.isArray(v[k]) ? (v[k] as string[]) : []);
  const alg = str('alg');
  if (alg !== undefined && alg.toLowerCase() !== 'none' && !(JWS_ALGS as readonly string[]).includes(alg))
    throw new BadInput(
      `--alg must be ${JWS_ALGS.join(', ')} (none in any spelling), not "${alg}" (--set jws.alg=… writes any header)`,
    );
  const hmac = hmacOf(v);
  if (hmac && alg !== undefined && alg !== 'HS256') throw new BadInput(`an HS256 key was given with --alg ${alg}`);
  const embed = oneOf(str('embed'), ['jwk', 'x5c'] as const, '--embed');
  const signature = oneOf(str('signature'), ['empty', 'truncated'] as const, '--signature');
  const changes: Changes = {
    edits: [...list('set').map((s) => edit(s, true)), ...list('unset').map((s) => edit(s, false))],
    ...(alg !== undefined ? { alg } : hmac ? { alg: 'HS256' } : {}),
    ...(hmac && { hmac }),
    ...(embed && { embed }),
    ...(signature && { signature }),
    unsigned: v.unsigned === true,
    innerJws: v['inner-jws'] === true,
  };
  const enc = oneOf(str('enc'), ENCS, '--enc');
  const jweAlg = oneOf(str('jwe-alg'), JWE_ALGS, '--jwe-alg');
  const flip = oneOf(str('flip'), FLIPS, '--flip');
  const jwsForm = oneOf(str('jws-form'), FORMS, '--jws-form');
  const jweForm = oneOf(str('jwe-form'), FORMS, '--jwe-form');
  Object.assign(changes, {
    ...(enc && { enc }),
    ...(jweAlg && { jweAlg }),
    ...(flip && { flip }),
    ...(jwsForm && { jwsForm }),
    ...(jweForm && { jweForm }),
    ...(str('kid') !== undefined && { kid: str('kid') }),
    ...(str('sign-key') !== undefined && { signKey: str('sign-key') }),
    ...(str('also-to') !== undefined && { alsoTo: str('also-to') }),
  });
  const jwsChange =
    changes.alg !== undefined ||
    changes.kid !== undefined ||
    changes.signKey !== undefined ||
    changes.embed !== undefined ||
    changes.signature !== undefined ||
    changes.jwsForm !== undefined ||
    changes.edits.some((e) => e.layer !== 'jwe');
  if (changes.unsigned && jwsChange)
    throw new BadInput(
      '--unsigned encrypts the payload without a JWS: no JWS option (--alg, --sign-key, jws.*) with it',
    );
  if (changes.innerJws && (changes.unsigned || jwsChange))
    throw new BadInput('--inner-jws encrypts the JWS read as it is: change its JWE only (jwe.*, --enc, --jwe-alg)');
  if (command !== 'seal' && command !== 'tamper' && (changes.edits.length || jwsChange || changes.enc || changes.flip))
    throw new BadInput(`${command}: --set, --unset, --alg, --enc and the signing options are for seal and tamper`);
  if (command === 'tamper' && changes.innerJws)
    throw new BadInput('--inner-jws is for seal (tamper reads an envelope)');
  return changes;
}

const OPTIONS = {
  profile: { type: 'string' },
  as: { type: 'string' },
  role: { type: 'string' },
  variant: { type: 'string' },
  'key-url': { type: 'string' },
  list: { type: 'boolean', default: false },
  har: { type: 'string' },
  entry: { type: 'string' },
  check: { type: 'string' },
  out: { type: 'string' },
  set: { type: 'string', multiple: true },
  unset: { type: 'string', multiple: true },
  alg: { type: 'string' },
  enc: { type: 'string' },
  'jwe-alg': { type: 'string' },
  kid: { type: 'string' },
  'sign-key': { type: 'string' },
  secret: { type: 'string' },
  'secret-file': { type: 'string' },
  'hmac-public-key': { type: 'string' },
  embed: { type: 'string' },
  signature: { type: 'string' },
  unsigned: { type: 'boolean', default: false },
  'also-to': { type: 'string' },
  flip: { type: 'string' },
  'jws-form': { type: 'string' },
  'jwe-form': { type: 'string' },
  'inner-jws': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** node:util parseArgs's refusals (an unknown option, a missing value): bad input too */
export function isParseArgsError(e: unknown): e is Error {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** the command line, checked (a BadInput or a parseArgs error otherwise) */
export function parseJoseArgs(argv: string[]): Parsed {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  const [cmd, file, ...rest] = positionals;
  const names = COMMANDS.join(', ');
  if (cmd === undefined) {
    if (values.help) return { help: true };
    throw new BadInput(`a command is needed: ${names} (npm run jose -- --help)`);
  }
  if (!(COMMANDS as readonly string[]).includes(cmd))
    throw new BadInput(`unknown command "${cmd}": ${names} (npm run jose -- --help)`);
  const command = cmd as Command;
  if (values.help) return { help: true, command };
  if (rest.length) throw new BadInput(`one input only (FILE or -), got also: ${rest.join(' ')}`);
  const as = oneOf(values.as, ['client', 'bank'] as const, '--as');
  const role = oneOf(values.role ?? 'partner', ROLES, '--role')!;
  if (values.har === undefined && (values.entry !== undefined || values.check !== undefined))
    throw new BadInput('--entry and --check choose an entry of --har FILE');
  if (values.har !== undefined) {
    if (command !== 'open') throw new BadInput('--har: only open reads a HAR');
    if (file !== undefined) throw new BadInput(`--har ${values.har} and ${file}: give one input`);
    if ((values.entry === undefined) === (values.check === undefined))
      throw new BadInput('--har: give --entry N (its index in log.entries, from 0) or --check ID');
  }
  let entry: number | undefined;
  if (values.entry !== undefined) {
    if (!/^\d+$/.test(values.entry)) throw new BadInput(`--entry must be an index (0, 1, ...), not "${values.entry}"`);
    entry = Number(values.entry);
  }
  if (values.out !== undefined && command !== 'keys') throw new BadInput('--out: only keys writes files');
  return {
    command,
    role,
    list: values.list,
    changes: changesOf(values, command),
    ...(values.profile !== undefined && { profile: values.profile }),
    ...(as && { as }),
    ...(values.variant !== undefined && { variant: values.variant }),
    ...(values['key-url'] !== undefined && { keyUrl: values['key-url'] }),
    ...(file !== undefined && { file }),
    ...(values.har !== undefined && { har: values.har }),
    ...(entry !== undefined && { entry }),
    ...(values.check !== undefined && { check: values.check }),
    ...(values.out !== undefined && { out: values.out }),
  };
}
