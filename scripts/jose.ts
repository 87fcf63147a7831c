/**
 * npm run jose -- open|seal|forge: open, seal and forge envelopes by hand with a profile's keys (lib/workbench,
 * `npm run jose -- --help`). Exit 0 done, 1 an opened envelope failed a step, 2 bad input (one line on stderr).
 */
import { runJose } from '../lib/workbench/jose-cli.ts';

runJose(process.argv.slice(2), {
  stdin: process.stdin,
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`jose: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
