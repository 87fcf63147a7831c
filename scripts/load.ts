/**
 * npm run load -- --profile <file> [--out dir] [--seed N] [--vus N] [--duration 30s]
 * Writes the k6 bundle (transfers.js) and its data file (load-data.json) for the profile's target; see
 * load/README.md. An embedded-mock profile starts the mock to learn its URLs and keys, writes the files and stops it
 * (for k6 against a mock, start `npm run mock` and use the profile it writes). Never writes a secret: k6 reads them
 * from LOAD_CLIENT_SECRET and (UAT) LOAD_CLIENT_KEY.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runSeed } from '../lib/data/index.ts';
import { prepare } from '../lib/engine/run/prepare.ts';
import { loadProfile } from '../lib/profile/load.ts';
import { LOAD_DEFAULTS, writeLoad } from './load/generate.ts';

const USAGE = 'usage: npm run load -- --profile <file> [--out dir] [--seed N] [--vus N] [--duration 30s]';
const HELP = `${USAGE}

Writes the k6 bundle (transfers.js) and its data file (load-data.json) for the profile's target (load/README.md).
  --profile <file>   a real target's profile, or the one \`npm run mock\` writes for the mock it keeps running
  --out <dir>        where to write them (default reports/load)
  --seed <n>         seed of the generated transfers (default the profile's run.dataSeed, else random)
  --vus <n>          k6 virtual users
  --duration <d>     k6 duration, e.g. 30s
  --help             print this help
k6 reads the secrets from LOAD_CLIENT_SECRET and (UAT) LOAD_CLIENT_KEY; the files never hold one.
`;

function fail(message: string): never {
  process.stderr.write(`load: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function int(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a non-negative integer, not "${v}"`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string' },
      out: { type: 'string', default: 'reports/load' },
      seed: { type: 'string' },
      vus: { type: 'string' },
      duration: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (!values.profile) fail('--profile is required');
  const profile = await loadProfile(values.profile).catch((e: unknown) => fail(String((e as Error).message)));
  // an embedded mock lives as long as this command: a bundle pointing at it would point at nothing
  if ('embedded' in profile)
    fail(
      `${values.profile} is an embedded-mock profile: its mock stops when this command ends, so k6 would find nothing there. Start the mock with \`npm run mock -- --mode uat\` (it keeps running and writes a profile) and pass the profile it writes`,
    );
  const prepared = await prepare(profile);
  const full = prepared.runtime.profile;
  const settings = {
    ...LOAD_DEFAULTS,
    seed: runSeed(int(values.seed, 'seed') ?? full.run.dataSeed),
    ...(values.vus ? { vus: int(values.vus, 'vus')! } : {}),
    ...(values.duration ? { duration: values.duration } : {}),
    insecureSkipTLSVerify: false,
  };
  const out = await writeLoad(full, settings, resolve(values.out));
  const env =
    full.environment === 'uat'
      ? 'LOAD_CLIENT_SECRET=… LOAD_CLIENT_KEY="$(cat code-client.key)"'
      : 'LOAD_CLIENT_SECRET=…';
  process.stdout.write(
    `load: ${out.bundle}\nload: ${out.data} (seed ${settings.seed})\nrun:  ${env} k6 run -e LOAD_DATA=${out.data} ${out.bundle}\n`,
  );
  await prepared.close();
}

main().catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
