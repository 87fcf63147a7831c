/** npm run compare -- a.json b.json (see lib/cli/compare.ts) */
import { enterCallersFolder } from '../lib/cli/cwd.ts';
import { runCompare } from '../lib/cli/compare.ts';

enterCallersFolder('compare');
process.exitCode = runCompare(process.argv.slice(2), process.stdout, process.stderr);
