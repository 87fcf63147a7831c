/**
 * npm run jose -- open|seal|tamper|forge|keys: open, seal, tamper with and forge envelopes by hand with a profile's
 * keys (lib/workbench, `npm run jose -- --help`). Exit 0 done, 1 an opened envelope failed a step, 2 bad input (one
 * line on stderr). `--help` and a bad command line answer before the harness is loaded (scripts/bin/jose.mjs runs
 * this from the bundle: the commands are a chunk of their own, loaded by the import below).
 */
import { BadInput, isParseArgsError, parseJoseArgs } from '../lib/workbench/command/args.ts';
import { helpText } from '../lib/workbench/command/help.ts';

const argv = process.argv.slice(2);
const io = {
  stdin: process.stdin,
  out: (t: string) => void process.stdout.write(t),
  err: (t: string) => void process.stderr.write(t),
};

function early(): number | undefined {
  try {
    const a = parseJoseArgs(argv);
    if ('help' in a) return (io.out(helpText(a.command)), 0);
    return undefined;
  } catch (e) {
    if (e instanceof BadInput || isParseArgsError(e)) return (io.err(`jose: ${e.message}\n`), 2);
    throw e;
  }
}

try {
  process.exitCode =
    early() ??
    (await (async () => {
      // before any schema is built (the profile's): zod validates without compiling a parser per schema
      await import('../lib/cli/zod-jitless.ts');
      return (await import('../lib/workbench/jose-cli.ts')).runJose(argv, io);
    })());
} catch (e) {
  process.stderr.write(`jose: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
