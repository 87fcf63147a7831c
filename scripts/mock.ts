/**
 * Standalone mock bank:
 *   npm run mock -- --mode uat|sandbox [--port N] [--admin-port N] [--fault id]... [--profile-out path]
 *                   [--no-auto-consent] [--plan-per-hour N]
 * Generates a fresh test PKI, writes its PEMs (0600) into a new 0700 temp directory with a ready full profile
 * that references them as `file:` paths (client secrets inline: the file is 0600), prints the URLs and the
 * profile path (never a secret) and the certify command to run next, and stops cleanly on SIGINT/SIGTERM/SIGHUP,
 * removing what it wrote. `npm run mock` execs node (package.json: `exec node --import tsx`), so that a signal sent
 * to the npm process reaches this one: no shell, tsx or esbuild process is left behind.
 */
import { mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FAULTS, startMockBank, type MockBank } from '../lib/mock/index.ts';
import { generateTestPki, writePkiFiles, type TestPki } from '../lib/pki/index.ts';
import { loadProfile } from '../lib/profile/load.ts';
import type { Environment } from '../lib/profile/schema.ts';

const USAGE =
  'usage: npm run mock -- --mode uat|sandbox [--port N] [--admin-port N] [--fault id]... [--profile-out path] [--no-auto-consent] [--plan-per-hour N]';

function fail(message: string): never {
  process.stderr.write(`mock: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function port(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`${name} must be a port number`);
  return n;
}

/** replaces every string that is one of the written PEMs by a `file:` reference to it */
function referenceFiles(value: unknown, files: Map<string, string>): unknown {
  if (typeof value === 'string') {
    const path = files.get(value);
    return path ? `file:${path}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => referenceFiles(v, files));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referenceFiles(v, files)]));
  return value;
}

interface MockArgs {
  mode: Environment;
  port?: number;
  adminPort?: number;
  faults: string[];
  autoConsent: boolean;
  planPerHour?: number;
  profileOut?: string;
}

/** the command line, checked (exit 2 with the usage on a bad one); undefined after --help */
function parseMockArgs(): MockArgs | undefined {
  let args;
  try {
    args = parseArgs({
      options: {
        mode: { type: 'string', default: 'sandbox' },
        port: { type: 'string' },
        'admin-port': { type: 'string' },
        fault: { type: 'string', multiple: true, default: [] },
        'profile-out': { type: 'string' },
        'no-auto-consent': { type: 'boolean', default: false },
        'plan-per-hour': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    fail((e as Error).message);
  }
  if (args.help) {
    process.stdout.write(
      `${USAGE}\nfaults:\n${FAULTS.map((f) => `  ${f.id.padEnd(34)} ${f.requirements.join(',').padEnd(16)} ${f.description}`).join('\n')}\n`,
    );
    return undefined;
  }
  const mode = args.mode as Environment;
  if (mode !== 'sandbox' && mode !== 'uat') fail('--mode must be uat or sandbox');
  const known = new Set(FAULTS.map((f) => f.id));
  const unknown = args.fault.filter((f) => !known.has(f));
  if (unknown.length) fail(`unknown fault(s): ${unknown.join(', ')} (see --help)`);
  let planPerHour: number | undefined;
  if (args['plan-per-hour'] !== undefined) {
    planPerHour = Number(args['plan-per-hour']);
    if (!Number.isInteger(planPerHour) || planPerHour < 1) fail('--plan-per-hour must be a positive integer');
  }
  const apiPort = port(args.port, '--port');
  const adminPort = port(args['admin-port'], '--admin-port');
  return {
    mode,
    faults: args.fault,
    autoConsent: !args['no-auto-consent'],
    ...(apiPort !== undefined ? { port: apiPort } : {}),
    ...(adminPort !== undefined ? { adminPort } : {}),
    ...(planPerHour !== undefined ? { planPerHour } : {}),
    ...(args['profile-out'] !== undefined ? { profileOut: args['profile-out'] } : {}),
  };
}

/** the PKI's PEMs (0600) in a new 0700 folder, and a profile (0600) that names them as files; checked to load */
async function writeProfile(
  mock: MockBank,
  pki: TestPki,
  mode: Environment,
  profileOut: string | undefined,
): Promise<{ dir: string; profilePath: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mock-bank-'));
  await chmod(dir, 0o700);
  const written = await writePkiFiles(pki, dir);
  const files = new Map<string, string>();
  for (const path of Object.values(written)) files.set(await readFile(path, 'utf8'), path);
  const profilePath = resolve(profileOut ?? join(dir, 'profile.json'));
  const described = mock.profile(`mock-${mode}-standalone`);
  // UAT: the bank's API private key too (a file), for `npm run jose -- open|seal --as bank` and forge's answer spoils
  const withBankKey =
    mode === 'uat'
      ? { ...described, bank: { ...described.bank, apiPrivateKey: pki.bankApi.privateKeyPem } }
      : described;
  const written0 = referenceFiles(withBankKey, files) as Record<string, unknown>;
  // the mock listens on loopback: a canary on loopback is one it can reach (JOSE-10 runs, not 'not run')
  const profile = { ...written0, run: { ...(written0.run as object | undefined), canaryHost: '127.0.0.1' } };
  await writeFile(profilePath, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  await chmod(profilePath, 0o600);
  await loadProfile(profilePath); // the written profile must load as it is
  return { dir, profilePath };
}

async function main(): Promise<void> {
  const args = parseMockArgs();
  if (!args) return;
  const { profileOut, ...options } = args;
  const pki = await generateTestPki();
  const mock = await startMockBank({ ...options, pki });
  const { dir, profilePath } = await writeProfile(mock, pki, args.mode, profileOut);

  process.stdout.write(
    [
      `mock bank (${args.mode}) listening`,
      `  API:     ${mock.url}`,
      `  admin:   ${mock.adminUrl}  (POST /clock, GET|PUT /faults, GET|PUT /consent)`,
      `  profile: ${profilePath}`,
      `  PKI:     ${dir}`,
      `  faults:  ${mock.faults.list().join(', ') || 'none'}`,
      'certify it from another terminal (--destructive: the quota and race checks may exhaust this mock, made for it):',
      `  npm run certify -- --profile ${profilePath} --destructive`,
      'Ctrl-C (or SIGTERM) to stop: the profile and the PKI files with their private keys are removed.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`mock: ${signal}, stopping\n`);
    await mock.close();
    await rm(dir, { recursive: true, force: true });
    if (!profilePath.startsWith(`${dir}/`)) await rm(profilePath, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));
}

main().catch((e: unknown) => {
  process.stderr.write(`mock: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
