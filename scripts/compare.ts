/** npm run compare -- a.json b.json (see lib/cli/compare.ts) */
import { enterCallersFolder } from '../lib/cli/cwd.ts';
import { runCompare } from '../lib/cli/compare.ts';

// a reader that stops early (`| head`) closes the pipe: the rest of the output is dropped, the exit code kept
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});
enterCallersFolder('compare');
process.exitCode = runCompare(process.argv.slice(2), process.stdout, process.stderr);
