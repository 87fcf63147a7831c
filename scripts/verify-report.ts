/** npm run verify-report -- reports/results.json [--jws file] --key pubkey.pem (see lib/cli/verify-report.ts) */
import { enterCallersFolder } from '../lib/cli/cwd.ts';
import { runVerifyReport } from '../lib/cli/verify-report.ts';

enterCallersFolder('verify-report');
process.exitCode = await runVerifyReport(process.argv.slice(2), process.stdout, process.stderr);
