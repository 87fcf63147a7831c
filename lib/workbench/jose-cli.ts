/**
 * `npm run jose -- open|seal|tamper|forge|keys`: the reviewer's envelope tools (scripts/jose.ts runs runJose). Exit 0 when done
 * (open: every step verified), 1 when open's envelope failed a step (the report printed), 2 for bad input (one
 * line on stderr). Nothing printed carries a private key, a client secret or a token (the open report goes
 * through the redactor with the profile's secrets registered; seal and forge print envelopes only).
 */
import { createRedactor } from '../http/record/redact.ts';
import { secretsOf, type FullProfile } from '../profile/index.ts';
import { BadInput, isParseArgsError, parseJoseArgs, type Command, type JoseArgs } from './command/args.ts';
import { envelopeInput, jsonDocument, readInput } from './jose-input.ts';
import { bankPrivate, directionOf, keysOf, loadFullProfile, privateKeyOf, publicKeyOf } from './jose-keys.ts';
import { openReport } from './jose-open.ts';
import { helpText } from './command/help.ts';

export interface JoseIo {
  stdin: AsyncIterable<Buffer | string>;
  out(text: string): void;
  err(text: string): void;
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

async function run(a: JoseArgs, io: JoseIo): Promise<number> {
  if (a.command === 'forge' && a.list) {
    const { listText } = await import('./moves/list.ts');
    io.out(await listText());
    return 0;
  }
  if (a.command === 'keys') {
    const { exportAttacker } = await import('./moves/keys-export.ts');
    io.out(await exportAttacker(required(a.out, '--out DIR', a.command)));
    return 0;
  }
  const profile = await loadFullProfile(required(a.profile, '--profile', a.command));
  const keys = keysOf(profile, a.role);
  if (a.command === 'forge') {
    const id = required(a.variant, '--variant (or --list)', a.command);
    const doc = jsonDocument(await readInput(a.file, io.stdin));
    const { bodyText, profileVariant } = await import('./jose-forge.ts');
    const { body } = await profileVariant(id, doc, profile, keys, a.keyUrl);
    io.out(`${bodyText(body)}\n`);
    return 0;
  }
  const as = required(a.as, '--as client|bank', a.command);
  const d = directionOf(keys, as);
  if (a.command === 'seal' || a.command === 'tamper') {
    privateKeyOf(d.sign);
    publicKeyOf(d.encryptTo);
    const input = await readInput(a.file, io.stdin);
    const { sealWith, tamperWith } = await import('./moves/seal.ts');
    // tamper opens what the recipient of --as's envelope opens: the bank a client's request, the client an answer
    const env =
      a.command === 'seal'
        ? await sealWith(input, d, a.changes, keys.clientCertificate)
        : await tamperWith(
            input,
            d,
            () => (as === 'client' ? bankPrivate(keys) : keys.clientPrivateKey),
            a.changes,
            keys.clientCertificate,
          );
    io.out(`${env}\n`);
    return 0;
  }
  let input = await readInput(a.har ?? a.file, io.stdin);
  if (a.har !== undefined) {
    const { harEnvelope } = await import('./moves/har.ts');
    const pick = { ...(a.entry !== undefined && { entry: a.entry }), ...(a.check !== undefined && { check: a.check }) };
    input = harEnvelope(input, pick, as === 'bank' ? 'request' : 'response');
  }
  const envelope = envelopeInput(input);
  const report = await openReport(envelope, d, as);
  io.out(`${redactorOf(profile)(report.lines.join('\n'))}\n`);
  return report.verified ? 0 : 1;
}

export async function runJose(argv: string[], io: JoseIo): Promise<number> {
  try {
    const a = parseJoseArgs(argv);
    if ('help' in a) {
      io.out(helpText(a.command));
      return 0;
    }
    return await run(a, io);
  } catch (e) {
    if (e instanceof BadInput || isParseArgsError(e)) {
      io.err(`jose: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
