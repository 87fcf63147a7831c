/**
 * README "Reviewing by hand": its `npm run send` and `npm run jose` lines, run as written against `npm run mock` (P:
 * the profile it prints). The first send line through npm itself (the package.json wiring, the exit code), the others
 * in-process. captured.json is an envelope a client sealed (what a proxy captures); `jose open --as bank` reads its
 * payload, which is edited (another amount) into edited.json; `jose seal --as client` writes sealed.json, which the
 * `--sealed` line sends: the bank's answer must show that amount.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from '../../lib/jose/index.ts';
import { runJose } from '../../lib/workbench/jose-cli.ts';
import { mask } from '../../lib/mask/index.ts';
import { loadProfile } from '../../lib/profile/load.ts';
import type { FullProfile } from '../../lib/profile/schema.ts';
import { proxyHarTransport } from '../../lib/cli/send-transport.ts';
import { runSend } from '../../lib/workbench/send.ts';
import { sendJudges } from '../../scripts/send/judges.ts';
import { startMitmdump } from '../proxy/mitmdump.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const root = join(import.meta.dirname, '../..');
const tmp = tempDirs('send-readme-');

/** the lines of the section's shell block that start with `command`, comments cut */
function sectionLines(command: string): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Reviewing by hand\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section ?? '')?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith(command));
}

/** the `npm run send` lines of the section's shell block */
function sectionSendLines(): string[] {
  return sectionLines('npm run send -- ');
}

/** the section's `npm run jose` lines: [words, the file its output is written to (> file)] */
function sectionJoseLines(): { argv: string[]; into?: string }[] {
  return sectionLines('npm run jose -- ').map((l) => {
    const [cmd, into] = l.replace(/^npm run jose -- /, '').split(/\s*>\s*/);
    return { argv: cmd!.split(/\s+/), ...(into ? { into } : {}) };
  });
}

/** `npm run jose` in-process: its exit code and what it printed */
async function jose(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runJose(argv, {
    stdin: (async function* () {})(),
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

let mock: ChildProcess;
let profilePath = '';
beforeAll(async () => {
  mock = spawn('npm', ['run', 'mock', '--', '--mode', 'uat'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  mock.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 100_000;
  while (!out.includes('Ctrl-C') && Date.now() < deadline) await sleep(200);
  profilePath = /profile: +(\S+)/.exec(out)?.[1] ?? '';
}, 120_000);
afterAll(async () => {
  if (!mock || mock.exitCode !== null) return;
  const exited = new Promise((r) => mock.on('exit', r));
  mock.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000)]);
});

/** the line's words, P and the files named by the section replaced by real paths */
function argvOf(line: string, files: Record<string, string>): string[] {
  return line
    .replace(/^npm run send -- /, '')
    .split(/\s+/)
    .map((w) => (w === 'P' ? profilePath : (files[w] ?? w)));
}

async function send(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runSend(
    argv,
    { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) },
    sendJudges,
    proxyHarTransport,
  );
  return { code, out, err };
}

const OPENED = /opened: JWE general decrypted with the client's key; JWS general RS256 verified/;

/** what a line of the section must show */
function expectedOf(line: string): { code: number; shows: RegExp[] } {
  // through mitmdump re-terminating TLS (its CA by --proxy-ca), the HAR written
  if (line.includes('--proxy'))
    return {
      code: 0,
      shows: [/through the proxy http:\/\/127\.0\.0\.1:\d+ \(re-terminating TLS/, OPENED, /har: \S+ \(2 exchanges\)/],
    };
  if (line.includes('--variant')) return { code: 0, shows: [/answer HTTP 400/, /is HTTP 400: as the contract says/] };
  // the edited amount, as the bank answered it
  // the envelope's payload read as the bank (npm run mock writes bank.apiPrivateKey), and the bank's answer to it
  if (line.includes('--sealed'))
    return {
      code: 0,
      shows: [
        /payload inside \(opened as the bank, signature verified[^)]*\):\n\s+\{[\s\S]*?"value": "99.00"/,
        OPENED,
        /"total_credit_amount": \{\s+"value": "99.00"/,
      ],
    };
  return { code: 0, shows: [OPENED, /as the contract says/] };
}

/** the command through npm, as a reviewer runs it */
function spawned(argv: string[]): { code: number; out: string; err: string } {
  const r = spawnSync('npm', ['run', '-s', 'send', '--', ...argv], { cwd: root, encoding: 'utf8', timeout: 90_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe('README "Reviewing by hand" against npm run mock', () => {
  it('the section has its send lines: the valid body, a variant, a re-sealed envelope, the proxy', () => {
    const lines = sectionSendLines();
    expect(lines.some((l) => !/--(variant|body|proxy)/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('--variant'))).toBe(true);
    expect(lines.some((l) => l.includes('--sealed'))).toBe(true);
    expect(lines.some((l) => l.includes('--proxy'))).toBe(true);
  });

  it('each send line does what the section says', async () => {
    expect(profilePath, 'npm run mock printed its profile').not.toBe('');
    const dir = tmp();
    // the reviewer's proxy: mitmdump re-terminating TLS, the client certificate configured in it (the partner's)
    const p0 = (await loadProfile(profilePath)) as FullProfile;
    const pem = join(dir, 'client.pem');
    writeFileSync(pem, `${p0.clients.partner.certificate}\n${p0.clients.partner.privateKey}`, { mode: 0o600 });
    const mitm = await startMitmdump(tmp(), ['--set', `client_certs=${pem}`, '--set', 'ssl_insecure=true']);
    const files: Record<string, string> = {
      'captured.json': join(dir, 'captured.json'),
      'edited.json': join(dir, 'edited.json'),
      'sealed.json': join(dir, 'sealed.json'),
      'run.har': join(dir, 'run.har'),
      'mitm-ca.pem': mitm.caFile,
      'http://127.0.0.1:8080': mitm.url,
    };
    // what a proxy captured: the harness's valid document, sealed by the client (the partner, as send calls)
    const p = (await loadProfile(profilePath)) as FullProfile;
    const alice = p.customers[0]!;
    const captured = {
      beneficiary_id: alice.beneficiaryId,
      account_id: mask(alice.accountId),
      amount: { value: '10.00', currency: p.contract.currency },
    };
    const envelope = await seal(captured, {
      signingKey: p.clients.partner.privateKey!,
      encryptionKey: p.bank.apiPublicKey!,
    });
    writeFileSync(files['captured.json'], JSON.stringify(envelope));
    const [open, reseal] = sectionJoseLines();
    expect(open?.argv.slice(0, 3)).toEqual(['open', '--profile', 'P']);
    const opened = await jose(open!.argv.map((w) => (w === 'P' ? profilePath : (files[w] ?? w))));
    expect(opened.code, opened.err).toBe(0);
    expect(opened.out).toContain('"value": "10.00"');
    // the reviewer copies the payload it printed and changes its amount
    writeFileSync(
      files['edited.json'],
      JSON.stringify({ ...captured, amount: { ...captured.amount, value: '99.00' } }),
    );
    expect(reseal?.argv.slice(0, 3)).toEqual(['seal', '--profile', 'P']);
    expect(reseal?.into).toBe('sealed.json');
    const sealed = await jose(reseal!.argv.map((w) => (w === 'P' ? profilePath : (files[w] ?? w))));
    expect(sealed.code, sealed.err).toBe(0);
    writeFileSync(files['sealed.json'], sealed.out);
    for (const line of sectionSendLines()) {
      const want = expectedOf(line);
      // a proxy is the process's route (lib/tls/tunnel.ts), its CA in the TLS contexts made after it: its own process
      const r = line.includes('--proxy') ? spawned(argvOf(line, files)) : await send(argvOf(line, files));
      expect(r.code, `${line}\n${r.err}`).toBe(want.code);
      for (const m of want.shows) expect(r.out + r.err, line).toMatch(m);
    }
    await mitm.stop();
  }, 120_000);

  it('the first line through npm: exit 0, the answer opened, no stack trace or secret', () => {
    const first = sectionSendLines()[0]!;
    const r = spawnSync('npm', ['run', '-s', 'send', '--', ...argvOf(first, {})], {
      cwd: root,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('opened: JWE general decrypted');
    expect(r.stdout + r.stderr).not.toMatch(/PRIVATE KEY|\n\s+at /);
    const bad = spawnSync('npm', ['run', '-s', 'send', '--', '--profile', profilePath, '--op', 'nope'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('send: --op must be validate, create or get, not "nope"');
  }, 200_000);

  it('a reader that stops early (| head): exit 0, no EPIPE stack trace', async () => {
    const child = spawn('npm', ['run', '-s', 'send', '--', '--profile', profilePath, '--op', 'validate'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.once('data', () => child.stdout!.destroy());
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code, err).toBe(0);
    expect(err).not.toMatch(/EPIPE|\n\s+at /);
  }, 90_000);
});
