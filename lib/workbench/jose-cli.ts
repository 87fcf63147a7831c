/**
 * `npm run jose -- open|seal|forge`: the reviewer's envelope tools (scripts/jose.ts runs runJose). Exit 0 when done
 * (open: every step verified), 1 when open's envelope failed a step (the report printed), 2 for bad input (one
 * line on stderr). Nothing printed carries a private key, a client secret or a token (the open report goes
 * through the redactor with the profile's secrets registered; seal and forge print envelopes only).
 */
import { parseArgs } from 'node:util';
import { seal } from '../jose/index.ts';
import { createRedactor } from '../http/index.ts';
import { secretsOf, type FullProfile } from '../profile/index.ts';
import { BadInput, envelopeInput, jsonDocument, readInput } from './jose-input.ts';
import {
  directionOf,
  keysOf,
  loadFullProfile,
  privateKeyOf,
  publicKeyOf,
  ROLES,
  type Role,
  type Side,
} from './jose-keys.ts';
import { openReport } from './jose-open.ts';
import { bodyText, profileVariant } from './jose-forge.ts';
import { helpText, listText } from './jose-help.ts';

export interface JoseIo {
  stdin: AsyncIterable<Buffer | string>;
  out(text: string): void;
  err(text: string): void;
}

const COMMANDS = ['open', 'seal', 'forge'] as const;
type Command = (typeof COMMANDS)[number];

interface Args {
  command: Command;
  profile?: string;
  as?: Side;
  role: Role;
  variant?: string;
  keyUrl?: string;
  list: boolean;
  help: boolean;
  file?: string;
}

function parse(argv: string[]): Args | { help: true; command?: Command } {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string' },
      as: { type: 'string' },
      role: { type: 'string' },
      variant: { type: 'string' },
      'key-url': { type: 'string' },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  const [cmd, file, ...rest] = positionals;
  if (cmd === undefined) {
    if (values.help) return { help: true };
    throw new BadInput('a command is needed: open, seal or forge (npm run jose -- --help)');
  }
  if (!(COMMANDS as readonly string[]).includes(cmd))
    throw new BadInput(`unknown command "${cmd}": open, seal or forge (npm run jose -- --help)`);
  const command = cmd as Command;
  if (values.help) return { help: true, command };
  if (rest.length) throw new BadInput(`one input only (FILE or -), got also: ${rest.join(' ')}`);
  if (values.as !== undefined && values.as !== 'client' && values.as !== 'bank')
    throw new BadInput(`--as must be client or bank, not "${values.as}"`);
  const role = values.role ?? 'partner';
  if (!(ROLES as readonly string[]).includes(role))
    throw new BadInput(`--role must be code, partner or internal, not "${role}"`);
  return {
    command,
    role: role as Role,
    list: values.list,
    help: false,
    ...(values.profile !== undefined && { profile: values.profile }),
    ...(values.as !== undefined && { as: values.as as Side }),
    ...(values.variant !== undefined && { variant: values.variant }),
    ...(values['key-url'] !== undefined && { keyUrl: values['key-url'] }),
    ...(file !== undefined && { file }),
  };
}

function required<T>(v: T | undefined, what: string, command: Command): T {
  if (v === undefined) throw new BadInput(`${command}: ${what} is required (npm run jose -- ${command} --help)`);
  return v;
}

/** the open report's text without secrets: the profile's client secrets and private keys, and tokens by name */
function redactorOf(p: FullProfile): (s: string) => string {
  const r = createRedactor();
  for (const s of secretsOf(p))
    if (s.kind === 'client-secret' || s.kind === 'credentials' || s.kind === 'private-key') r.add(s.value, s.kind);
  return (s) => r.redact(s);
}

async function run(a: Args, io: JoseIo): Promise<number> {
  if (a.command === 'forge' && a.list) {
    io.out(await listText());
    return 0;
  }
  const profile = await loadFullProfile(required(a.profile, '--profile', a.command));
  const keys = keysOf(profile, a.role);
  if (a.command === 'forge') {
    const id = required(a.variant, '--variant (or --list)', a.command);
    const doc = jsonDocument(await readInput(a.file, io.stdin));
    const { body } = await profileVariant(id, doc, profile, keys, a.keyUrl);
    io.out(`${bodyText(body)}\n`);
    return 0;
  }
  const as = required(a.as, '--as client|bank', a.command);
  const d = directionOf(keys, as);
  if (a.command === 'seal') {
    privateKeyOf(d.sign);
    publicKeyOf(d.encryptTo);
    const doc = jsonDocument(await readInput(a.file, io.stdin));
    const env = await seal(doc, { signingKey: d.sign.pem, encryptionKey: d.encryptTo.pem });
    io.out(`${JSON.stringify(env)}\n`);
    return 0;
  }
  const envelope = envelopeInput(await readInput(a.file, io.stdin));
  const report = await openReport(envelope, d, as);
  io.out(`${redactorOf(profile)(report.lines.join('\n'))}\n`);
  return report.verified ? 0 : 1;
}

/** node:util parseArgs's refusals (an unknown option, a missing value): bad input too */
function isParseArgsError(e: unknown): e is Error {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

export async function runJose(argv: string[], io: JoseIo): Promise<number> {
  try {
    const a = parse(argv);
    if (a.help) {
      io.out(await helpText(a.command));
      return 0;
    }
    return await run(a as Args, io);
  } catch (e) {
    if (e instanceof BadInput || isParseArgsError(e)) {
      io.err(`jose: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
