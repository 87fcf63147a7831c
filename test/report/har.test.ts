/**
 * certify `--har <file>` (lib/report/har-wire.ts writeWireHar): every exchange of the run as HAR 1.2, valid against the HAR schema
 * (har-validator): one entry per call the run counted at the target (its traffic's calls), bodies as on the wire
 * (sealed envelopes in full, sizes their bytes), each entry naming the check that sent it, the sealed payloads
 * (sent and opened) and both layers' headers in its comment, and redacted as the reports are: a run against a UAT
 * mock that leaks (fault mask-echo-clear-id echoes clear account ids) writes no client secret, private key, token,
 * code or clear account id into the HAR. `--har-keep-tokens` keeps the tokens (and says so), never a secret or key.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank } from '../../lib/mock/index.ts';
import type { MockBank } from '../../lib/mock/types.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { harOf, type Har } from '../../lib/report/har.ts';
import { parseResults } from '../../lib/report/json.ts';
import { runCertify, type CertifyRun } from '../cli/run-certify.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const validator = createRequire(import.meta.url)('har-validator') as { har(data: unknown): Promise<unknown> };
const tmp = tempDirs('har-');

let mock: MockBank;
let profile: FullProfile;
let run: CertifyRun;
let out: string;
let harFile: string;
let kept: { run: CertifyRun; file: string };

/** distinctive chunks of a PEM's base64 body */
function pemChunks(pem: string): string[] {
  const body = pem
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .join('');
  return [body.slice(0, 40), body.slice(body.length >> 1, (body.length >> 1) + 40), body.slice(-40)];
}

beforeAll(async () => {
  mock = await startMockBank({ mode: 'uat', pki: await testPki(), faults: ['mask-echo-clear-id'] });
  profile = FullProfile.parse(mock.profile('har-uat'));
  const dir = tmp();
  const path = join(dir, 'har-uat.json');
  writeFileSync(path, JSON.stringify(mock.profile('har-uat')));
  chmodSync(path, 0o600);
  out = join(dir, 'out');
  harFile = join(dir, 'run.har');
  const suites = ['--suite', 'masking', '--suite', 'transfers', '--suite', 'tokens'];
  run = await runCertify(['--profile', path, ...suites, '--out', out, '--har', harFile], 240_000);
  const keptFile = join(dir, 'kept.har');
  kept = {
    file: keptFile,
    run: await runCertify(
      ['--profile', path, '--suite', 'transfers', '--out', join(dir, 'kept'), '--har', keptFile, '--har-keep-tokens'],
      240_000,
    ),
  };
}, 400_000);

/** the client secrets and distinctive chunks of the private keys of the profile's clients */
function secretCanaries(): { what: string; value: string }[] {
  const canaries: { what: string; value: string }[] = [];
  for (const c of [profile.clients.code, profile.clients.partner, profile.clients.internal]) {
    if (!c) continue;
    canaries.push({ what: `client secret of ${c.clientId}`, value: c.clientSecret });
    if (c.privateKey)
      for (const v of pemChunks(c.privateKey)) canaries.push({ what: `key of ${c.clientId}`, value: v });
  }
  return canaries;
}

afterAll(async () => {
  await mock?.close();
});

describe('--har', () => {
  it('is HAR 1.2, valid against the HAR schema', async () => {
    expect(run.stdout).toMatch(/^har: .*run\.har \(\d+ exchanges\)$/m);
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as Har;
    expect(har.log.version).toBe('1.2');
    await expect(validator.har(har)).resolves.toBeTruthy();
  });

  it('names the check that sent each entry, and shows the sealed payloads sent and the answers opened', () => {
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as Har;
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8')).profiles[0]!;
    const ids = new Set([
      ...results.results.map((r) => `har-uat: ${r.checkId}`),
      ...(results.prerequisites ?? []).map((p) => `har-uat: prerequisite ${p.id}`),
    ]);
    // the exchanges the reports' evidence keeps each name their check; the others (a token fetched for the run,
    // a clock move) say so
    const exchanges =
      results.results.reduce((n, r) => n + r.evidence.exchanges.length, 0) +
      (results.prerequisites ?? []).reduce((n, p) => n + p.evidence.exchanges.length, 0);
    const sentBy = har.log.entries.map((e) => /^sent by (.*)$/m.exec(e.comment ?? '')?.[1] ?? '');
    expect(sentBy.filter((s) => ids.has(s))).toHaveLength(exchanges);
    expect(sentBy.filter((s) => !ids.has(s))).toEqual(
      Array<string>(har.log.entries.length - exchanges).fill("the run (no check's evidence keeps it)"),
    );
    const comments = har.log.entries.map((e) => e.comment ?? '').join('\n');
    expect(comments).toMatch(/^sealed request's payload: \{/m);
    expect(comments).toMatch(/^answer opened: \{"transfer_id":"TRF-/m);
    expect(comments).toMatch(/^answer's inner JWS header: \{"alg":"RS256"/m);
    expect(comments).toMatch(/^request's inner JWS header: \[\{"alg":"RS256"/m);
    expect(comments).toMatch(/^request JWE general headers: \[\{"alg":"RSA-OAEP-256"/m);
    // every sealed request with the payload the harness sealed, its inner JWS header too
    const sealedRequests = har.log.entries.filter((e) => e.request.postData?.text.startsWith('{"protected":'));
    expect(sealedRequests.length).toBeGreaterThan(20);
    expect(
      sealedRequests
        .filter(
          (e) =>
            !/^sealed request's payload: \{/m.test(e.comment ?? '') ||
            !/^request's inner JWS header: /m.test(e.comment ?? ''),
        )
        .map((e) => e.comment),
    ).toEqual([]);
    // every sealed answer opened (by the run, or for the file with the client's key)
    const sealedAnswers = har.log.entries.filter((e) => e.response.content.text?.startsWith('{"protected":'));
    expect(sealedAnswers.filter((e) => !/^answer opened/m.test(e.comment ?? '')).map((e) => e.comment)).toEqual([]);
  });

  it("holds every call the run made (its traffic's count), bodies as on the wire: envelopes in full, sizes true", () => {
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as Har;
    const results = parseResults(readFileSync(join(out, 'results.json'), 'utf8')).profiles[0]!;
    const calls = Object.values(results.traffic?.calls ?? {}).reduce((n, c) => n + c, 0);
    expect(har.log.entries).toHaveLength(calls);
    const text = JSON.stringify(har);
    expect(text).not.toContain('<JWE');
    expect(text).not.toContain('<JWS');
    // a sealed request and a sealed answer: the envelope itself, whose length is the size given
    const sealed = (t: string | undefined): boolean => /^\{"protected":"[^"]+","recipients":\[/.test(t ?? '');
    const requests = har.log.entries.filter((e) => sealed(e.request.postData?.text));
    const answers = har.log.entries.filter((e) => sealed(e.response.content.text));
    expect(requests.length).toBeGreaterThan(20);
    expect(answers.length).toBeGreaterThan(20);
    for (const e of requests) expect(Buffer.byteLength(e.request.postData!.text)).toBe(e.request.bodySize);
    for (const e of answers) expect(Buffer.byteLength(e.response.content.text!)).toBe(e.response.content.size);
  });

  it('--har-keep-tokens: the bearer tokens are kept for a replay, said in the file; no client secret or key', () => {
    expect(kept.run.stdout).toMatch(/^har: .*kept\.har \(\d+ exchanges; tokens kept, --har-keep-tokens\)$/m);
    const text = readFileSync(kept.file, 'utf8');
    const har = JSON.parse(text) as Har & { log: { creator: { comment?: string } } };
    expect(har.log.comment).toMatch(/^tokens kept \(--har-keep-tokens\)/);
    expect(har.log.creator.comment).toBe(har.log.comment);
    const bearer = har.log.entries
      .flatMap((e) => e.request.headers)
      .filter((h) => h.name.toLowerCase() === 'authorization' && /^Bearer mockAT_/.test(h.value));
    expect(bearer.length).toBeGreaterThan(10);
    expect(
      secretCanaries()
        .filter((c) => text.includes(c.value))
        .map((c) => c.what),
    ).toEqual([]);
    expect(/mockCS_/.exec(text)?.[0]).toBeUndefined();
  });

  it('holds no client secret, private key, token, code or clear account id (redacted as the reports)', () => {
    const text = readFileSync(harFile, 'utf8');
    const canaries = secretCanaries();
    for (const cu of profile.customers) {
      canaries.push({ what: `clear account id of ${cu.name}`, value: cu.accountId });
      if (cu.emiratesId) canaries.push({ what: `clear emirates id of ${cu.name}`, value: cu.emiratesId });
    }
    const leaks = canaries.filter((c) => text.includes(c.value)).map((c) => c.what);
    expect(leaks).toEqual([]);
    // the mock's opaque tokens, codes and secrets carry kind prefixes: none, even in part
    expect(/mock(AC|AT|RT|GR|CS)_/.exec(text)?.[0]).toBeUndefined();
    // the leaking mock's clear ids did pass through: the HAR shows their markers, as the reports do
    expect(text).toMatch(/\[clear account id of customer /);
  });

  it('an exchange without an answer is an entry with status 0 and the error in its comment; secrets scrubbed', async () => {
    const har = harOf([
      {
        sentBy: 'p: tls.x',
        exchange: {
          method: 'POST',
          url: 'https://127.0.0.1:1/v1/transfers/validate?x=1',
          startedAt: new Date(0).toISOString(),
          durationMs: 12,
          request: {
            headers: { authorization: 'Bearer abc.def.ghi', 'content-type': 'application/json' },
            body: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----',
          },
          error: 'PROXY_REFUSED: the proxy http://127.0.0.1:9 refused CONNECT 127.0.0.1:1: 407',
        },
      },
    ]);
    await expect(validator.har(har)).resolves.toBeTruthy();
    const [e] = har.log.entries;
    expect(e!.response.status).toBe(0);
    expect(e!.comment).toContain('no answer: PROXY_REFUSED');
    expect(e!.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    expect(JSON.stringify(har)).not.toContain('abc.def.ghi');
    expect(JSON.stringify(har)).not.toContain('MIIE');
  });
});
