/**
 * npm run send -- --profile <file> --op validate|create|get [options]   (see --help, README "Reviewing by hand")
 * One transfers API call as the profile's client, printed and judged (lib/workbench/send.ts); --proxy, --proxy-ca
 * and --har are its transport (lib/cli/send-transport.ts), the suites' judges read its answer (send/judges.ts).
 * `--help` and a bad command line answer before the harness is loaded (scripts/bin/send.mjs runs this from the
 * bundle: the command is a chunk of its own, imported below).
 * Exit codes: 0 the call was made (whatever the bank answered), 1 no answer or no token, 2 bad input.
 */
import { parseSendArgs, SEND_HELP, SendUsage } from '../lib/workbench/send-args.ts';

// a reader that stops early (`| head`) closes the pipe: the rest of the output is dropped, the call still ends cleanly
let readerGone = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  readerGone = true;
});
const argv = process.argv.slice(2);
const io = {
  out: (t: string) => void (readerGone || process.stdout.write(`${t}\n`)),
  err: (t: string) => void process.stderr.write(`${t}\n`),
};

/** --help and a bad command line, answered here; undefined: the call is to be made */
function early(): number | undefined {
  try {
    return parseSendArgs(argv) === 'help' ? (io.out(SEND_HELP), 0) : undefined;
  } catch (e) {
    if (e instanceof SendUsage) return (io.err(`send: ${e.message}`), 2);
    throw e;
  }
}

try {
  process.exitCode =
    early() ??
    (await (async () => {
      // before any schema is built (the profile's): zod validates without compiling a parser per schema
      await import('../lib/cli/zod-jitless.ts');
      const [{ proxyHarTransport }, { runSend }, { sendJudges }] = await Promise.all([
        import('../lib/cli/send-transport.ts'),
        import('../lib/workbench/send.ts'),
        import('./send/judges.ts'),
      ]);
      return runSend(argv, io, sendJudges, proxyHarTransport);
    })());
} catch (e) {
  // a harness bug: one line, no stack trace (the message carries no secret: the profile's are never in one)
  process.stderr.write(`send: harness error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
