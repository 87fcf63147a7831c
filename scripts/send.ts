/**
 * npm run send -- --profile <file> --op validate|create|get [options]   (see --help, README "Reviewing by hand")
 * One transfers API call as the profile's client, printed and judged (lib/workbench/send.ts); --proxy, --proxy-ca
 * and --har are its transport (lib/cli/send-transport.ts).
 * Exit codes: 0 the call was made (whatever the bank answered), 1 no answer or no token, 2 bad input.
 */
import { proxyHarTransport } from '../lib/cli/send-transport.ts';
import { runSend } from '../lib/workbench/send.ts';

// a reader that stops early (`| head`) closes the pipe: the rest of the output is dropped, the call still ends cleanly
let readerGone = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  readerGone = true;
});

try {
  process.exitCode = await runSend(
    process.argv.slice(2),
    {
      out: (t) => void (readerGone || process.stdout.write(`${t}\n`)),
      err: (t) => process.stderr.write(`${t}\n`),
    },
    proxyHarTransport,
  );
} catch (e) {
  // a harness bug: one line, no stack trace (the message carries no secret: the profile's are never in one)
  process.stderr.write(`send: harness error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
