/**
 * npm run partner -- --cert <{CN}_PublicKey_{DDMMYY}.cer> --run "<command>" [options]   (see --help, docs/partner.md)
 * Exit codes: certify's (lib/engine/verdict.ts): 0 PASS, 1 FAIL, 2 configuration error (nothing run), 3 NOTHING RAN,
 * 5 INCOMPLETE (a rule not verified: a scenario not run, a client stopped, an inconclusive judgement),
 * 130 / 143 INTERRUPTED (SIGINT / SIGTERM: the clients stopped, the reports written with what was judged).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { proxyEnvironment } from '../lib/cli/proxy-args.ts';
import { parseProxyUrl, proxyUnreachable } from '../lib/tls/tunnel.ts';
import { onSignals } from '../lib/engine/run/interrupt.ts';
import { CliError } from '../lib/cli/errors.ts';
import { splitCommand } from '../lib/oauth/authorize.ts';
import { killClients } from '../lib/partner/process.ts';
import { exitCodeOf, judgedResults } from '../lib/partner/report.ts';
import { PartnerConfigError, runPartner, type PartnerOptions } from '../lib/partner/run.ts';
import { SCENARIOS } from '../lib/partner/scenarios.ts';
import type { ScenarioId } from '../lib/partner/types.ts';
import { ResultsError } from '../lib/report/json.ts';
import { ensureOutDir, OutDirError } from '../lib/report/outdir.ts';
import { summaryLine } from '../lib/report/summary.ts';
import { clearReports, writeReports } from '../lib/report/write.ts';

export const PARTNER_HELP = `Usage: npm run partner -- --cert <file.cer> (--run "<command>" | --listen) [options]

The bank's side of a partner certification: checks the partner's onboarding certificate (TLS-07), starts the
embedded mock bank with it registered to a client id, and runs the partner's client once per scenario (the bank
behaves, or misbehaves on purpose); every request is recorded and judged (CLI-01..09, MASK-05, TOK-18, TLS-08;
JOSE-05 for the answers' serialization).
The client gets everything through BANK_* environment variables (docs/partner.md).

Options:
  --cert <file>          the partner's certificate {CN}_PublicKey_{DDMMYY}.cer (DER or PEM), required
  --run "<command>"      the command that runs the partner's client (split on spaces and quotes, no shell)
  --listen               no command: print the variables and wait --duration seconds per scenario
  --duration <s>         with --listen (default 300)
  --mode <uat|sandbox>   the bank to play (default uat)
  --flow <code|client-credentials>  how the client gets its token (default code)
  --client-key <file>    passed to the client as BANK_CLIENT_KEY_FILE (the harness never reads it)
  --client-cert <file>   passed to the client as BANK_CLIENT_CERT_FILE
  --client-ca <file>     a CA that issued the partner's certificate (repeatable; a self-signed one needs none)
  --scenario <id>        run only this scenario (repeatable): ${SCENARIOS.map((s) => s.id).join(', ')}
  --timeout <s>          per scenario (default 60)
  --parallel <n>         scenarios run at once, each with its own bank (default 3; --listen runs one at a time)
  --out <dir>            where to write the reports (default reports/partner)
  --fail-on <level>      must (default): only MUST rules fail the run; should: SHOULD rules fail it too
  --signing-key <file>   operator key (PEM): also write results.json.jws
  --proxy <url>          the client's traffic through this HTTP proxy (http://host:port, CONNECT): given to it
                         as HTTPS_PROXY/HTTP_PROXY (and lower case), NO_PROXY emptied; a client that ignores
                         them is not proxied. A proxy that re-terminates TLS (--proxy-ca) is refused: it would be
                         judged in the client's place
  --help                 print this help

Verdicts and exit codes are certify's: 0 PASS (every client-side rule verified and held), 1 FAIL (a rule broken,
or the client did not complete the task with a bank that behaves), 2 configuration error (nothing run),
3 NOTHING RAN, 5 INCOMPLETE (nothing failed, but a rule was not verified: a scenario left out with --scenario, a
client stopped, a judgement inconclusive), 130 / 143 INTERRUPTED (SIGINT / SIGTERM: the clients are stopped and
the reports hold the scenarios that had ended). A partial certification never passes. The reports of an earlier
run in --out are removed first: none is left looking like this run's.
`;

/** a bad command line: exit 2 (CliError's exitCode) */
class Usage extends CliError {
  constructor(message: string) {
    super('CLI_USAGE', message);
  }
}

/** --proxy's URL, or a usage error naming it */
function proxyUrlOf(text: string): URL {
  try {
    return parseProxyUrl(text);
  } catch (e) {
    throw new Usage((e as Error).message);
  }
}

function parse(
  argv: string[],
): (PartnerOptions & { out: string; signingKey?: string; failOn: 'must' | 'should'; proxy?: URL }) | 'help' {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      cert: { type: 'string' },
      run: { type: 'string' },
      listen: { type: 'boolean' },
      duration: { type: 'string' },
      mode: { type: 'string', default: 'uat' },
      flow: { type: 'string', default: 'code' },
      'client-key': { type: 'string' },
      'client-cert': { type: 'string' },
      'client-ca': { type: 'string', multiple: true },
      scenario: { type: 'string', multiple: true },
      timeout: { type: 'string', default: '60' },
      parallel: { type: 'string', default: '3' },
      out: { type: 'string', default: 'reports/partner' },
      'signing-key': { type: 'string' },
      'fail-on': { type: 'string', default: 'must' },
      proxy: { type: 'string' },
      'proxy-ca': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (v.help) return 'help';
  if (!v.cert) throw new Usage('--cert <file> is required');
  if (v.mode !== 'uat' && v.mode !== 'sandbox') throw new Usage(`--mode must be uat or sandbox, not "${v.mode}"`);
  if (v.flow !== 'code' && v.flow !== 'client-credentials')
    throw new Usage(`--flow must be code or client-credentials, not "${v.flow}"`);
  if (v['fail-on'] !== 'must' && v['fail-on'] !== 'should') throw new Usage('--fail-on must be must or should');
  if (!!v.run === !!v.listen) throw new Usage('give exactly one of --run "<command>" and --listen');
  // a proxy that re-terminates TLS would be judged in the client's place (its checks of the bank's certificate, the
  // client certificate the bank sees): the client's traffic goes through a plain CONNECT proxy only
  if (v['proxy-ca'] !== undefined)
    throw new Usage(
      "--proxy-ca: a proxy that re-terminates TLS would be judged in the client's place (its certificate checks, its client certificate): give --proxy alone (CONNECT tunnels)",
    );
  const proxy = v.proxy === undefined ? undefined : proxyUrlOf(v.proxy);
  const command = v.run ? splitCommand(v.run) : undefined;
  if (command && command.length === 0) throw new Usage('--run: the command is empty');
  const seconds = (name: string, s: string | undefined, dflt: number): number => {
    const n = s === undefined ? dflt : Number(s);
    if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new Usage(`--${name} must be a number of seconds (1..3600)`);
    return n;
  };
  const known = new Set(SCENARIOS.map((s) => s.id as string));
  for (const s of v.scenario ?? []) if (!known.has(s)) throw new Usage(`--scenario: unknown scenario "${s}"`);
  const read = (name: string, f: string): string => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      throw new Usage(`--${name}: cannot read ${f}`);
    }
  };
  if (v.mode === 'uat' && v.run && (!v['client-key'] || !v['client-cert']))
    process.stderr.write(
      'partner: note: no --client-key/--client-cert: the client must find its own key and certificate\n',
    );
  return {
    certFile: v.cert,
    ...(command ? { run: command } : { listenSeconds: seconds('duration', v.duration, 300) }),
    mode: v.mode,
    flow: v.flow,
    ...(v['client-key'] ? { clientKeyFile: v['client-key'] } : {}),
    ...(v['client-cert'] ? { clientCertFile: v['client-cert'] } : {}),
    clientCaPems: (v['client-ca'] ?? []).map((f) => read('client-ca', f)),
    ...(v.scenario ? { scenarios: v.scenario as ScenarioId[] } : {}),
    timeoutMs: seconds('timeout', v.timeout, 60) * 1000,
    concurrency: seconds('parallel', v.parallel, 3),
    out: v.out,
    failOn: v['fail-on'],
    ...(v['signing-key'] ? { signingKey: read('signing-key', v['signing-key']) } : {}),
    ...(proxy ? { proxy, clientEnv: proxyEnvironment(proxy) } : {}),
    log: (line) => process.stdout.write(`${line}\n`),
  };
}

async function main(argv: string[]): Promise<number> {
  let opts;
  try {
    opts = parse(argv);
  } catch (e) {
    if (e instanceof Usage || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`partner: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
  if (opts === 'help') {
    process.stdout.write(PARTNER_HELP);
    return 0;
  }
  // an earlier run's reports (and signature) never stay in --out looking like this run's; the folder is checked
  // before any client runs
  clearReports(opts.out);
  // the proxy handed to the client must accept connections before any client runs
  const down = opts.proxy && (await proxyUnreachable(opts.proxy));
  if (down) {
    process.stderr.write(`partner: --proxy: ${down}\n`);
    return 2;
  }
  const interrupt = onSignals('partner', killClients);
  let run;
  try {
    ensureOutDir(opts.out);
    run = await runPartner({ ...opts, interrupt: interrupt.signal });
  } catch (e) {
    interrupt.done();
    if (e instanceof PartnerConfigError || e instanceof OutDirError) {
      process.stderr.write(`partner: ${e instanceof OutDirError ? `--out: ${e.message}` : e.message}\n`);
      return 2;
    }
    throw e;
  }
  const code = await judgeAndReport(run, opts);
  interrupt.done();
  return code;
}

/** judges the run, writes the three reports (and the signature), prints the verdicts; the exit code */
async function judgeAndReport(
  run: Awaited<ReturnType<typeof runPartner>>,
  opts: { out: string; failOn: 'must' | 'should'; signingKey?: string },
): Promise<number> {
  const results = await judgedResults(run, opts.failOn);
  let written;
  try {
    written = await writeReports(results, opts.out, opts.signingKey ? { signingKeyPem: opts.signingKey } : {});
  } catch (e) {
    // results that fail their own schema are never written: a harness error, said as such, and the run fails
    if (!(e instanceof ResultsError)) throw e;
    const message = e.message.startsWith('harness error') ? e.message : `harness error: ${e.message}`;
    process.stderr.write(`partner: ${message}\n`);
    return 1;
  }
  for (const c of results.profiles[0]!.results)
    process.stdout.write(`  ${c.verdict.padEnd(14)} ${c.requirements[0]}  ${c.reason ?? ''}\n`);
  const p = results.profiles[0]!;
  for (const q of p.prerequisites ?? [])
    if (q.verdict === 'fail') process.stdout.write(`  fail           ${q.id}  ${q.reason ?? q.title}\n`);
  for (const e of p.errors) process.stdout.write(`  error          ${e}\n`);
  process.stdout.write(`${summaryLine(p, opts.failOn)}\nreports: ${written.json}, ${written.html}, ${written.junit}\n`);
  if (results.interrupted)
    process.stderr.write(
      `partner: INTERRUPTED by ${results.interrupted.signal}: the reports hold the scenarios that had ended\n`,
    );
  return exitCodeOf(results);
}

process.exitCode = await main(process.argv.slice(2));
