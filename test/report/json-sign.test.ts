import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tempDirs } from '../fixtures/tmp.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULTS_SCHEMA_VERSION } from '../../lib/engine/results.ts';
import { parseResults, readResults, serializeResults, sha256Hex, writeResults } from '../../lib/report/json.ts';
import { mayScrub, scrubResults } from '../../lib/report/scrub.ts';
import { signResults, verifyResults } from '../../lib/report/sign.ts';
import { verifyReport } from '../../lib/report/verify.ts';
import { writeReports } from '../../lib/report/write.ts';
import { runVerifyReport } from '../../lib/cli/verify-report.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { sink } from '../fixtures/sink.ts';

const tmp = tempDirs('results-');

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const pem = (k: typeof rsa) => ({
  priv: k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  pub: k.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
});
const R = pem(rsa);
const E = pem(ec);

describe('results.json', () => {
  it('round-trips through the schema; the SHA-256 is over the exact bytes written', () => {
    const dir = tmp();
    const { path, sha256 } = writeResults(fixtureResults(), dir);
    expect(sha256).toBe(sha256Hex(readFileSync(path)));
    expect(readResults(path)).toEqual(JSON.parse(JSON.stringify(fixtureResults())));
  });

  it('refuses other schema versions, non-JSON and invalid shapes with stable codes', () => {
    const text = JSON.stringify({ ...fixtureResults(), schemaVersion: '0.9.0' });
    expect(() => parseResults(text)).toThrow(expect.objectContaining({ code: 'RESULTS_SCHEMA_VERSION' }));
    expect(() => parseResults('{nope')).toThrow(expect.objectContaining({ code: 'RESULTS_NOT_JSON' }));
    const bad = fixtureResults() as unknown as { profiles: { results: { verdict: string }[] }[] };
    bad.profiles[0]!.results[0]!.verdict = 'maybe';
    expect(() => parseResults(JSON.stringify(bad))).toThrow(/profiles\.0\.results\.0\.verdict/);
    expect(() => readResults(join(tmp(), 'absent.json'))).toThrow(
      expect.objectContaining({ code: 'RESULTS_UNREADABLE' }),
    );
    expect(RESULTS_SCHEMA_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('scrubs credential headers and private keys before writing (defence in depth)', () => {
    const r = fixtureResults();
    const x = r.profiles[1]!.results[0]!.evidence.exchanges[0]!;
    x.request.headers = { Authorization: 'Basic Y2xpZW50OnMzY3JldA==', cookie: 'sid=abc' };
    r.profiles[1]!.results[0]!.evidence.notes.push(
      'key -----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY----- end',
    );
    const clean = JSON.stringify(scrubResults(r));
    expect(clean).not.toContain('Y2xpZW50OnMzY3JldA');
    expect(clean).not.toContain('sid=abc');
    expect(clean).not.toContain('MIIE');
    expect(clean).toContain('Basic [redacted]');
    expect(r.profiles[1]!.results[0]!.evidence.exchanges[0]!.request.headers.Authorization).toBe(
      'Basic Y2xpZW50OnMzY3JldA==',
    ); // input untouched
  });

  it('changes nothing in its input, and keeps the members around a redacted one, in their order', () => {
    const r = fixtureResults();
    const x = r.profiles[1]!.results[0]!.evidence.exchanges[0]!;
    x.request.headers = { accept: 'application/json', authorization: 'Bearer eyJ.secret.sig', 'x-b': 'kept' };
    const notes = r.profiles[1]!.results[0]!.evidence.notes;
    notes.push('before', 'a -----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----', 'after');
    const before = structuredClone(r);
    const clean = scrubResults(r);
    expect(r).toEqual(before);
    const cx = clean.profiles[1]!.results[0]!.evidence;
    expect(Object.entries(cx.exchanges[0]!.request.headers)).toEqual([
      ['accept', 'application/json'],
      ['authorization', 'Bearer [redacted]'],
      ['x-b', 'kept'],
    ]);
    expect(cx.notes.slice(-3)).toEqual(['before', 'a [redacted private key]', 'after']);
    // what holds nothing to redact reads as it was
    expect(JSON.stringify(clean.profiles[0])).toBe(JSON.stringify(before.profiles[0]));
  });
});

describe('the scrub told from the text (mayScrub)', () => {
  const withHeaders = (headers: Record<string, string>, note?: string) => {
    const r = fixtureResults();
    const ev = r.profiles[1]!.results[0]!.evidence;
    ev.exchanges[0]!.request.headers = headers;
    if (note !== undefined) ev.notes.push(note);
    return r;
  };
  // every class the walk redacts, each header name in its cases, values JSON escapes
  const dirty: [string, ReturnType<typeof fixtureResults>][] = [
    ['Authorization, Basic', withHeaders({ Authorization: 'Basic Y2xpZW50OnMzY3JldA==' })],
    ['authorization, a value with quotes', withHeaders({ authorization: 'Bearer "a\\"b' })],
    ['PROXY-AUTHORIZATION', withHeaders({ 'PROXY-AUTHORIZATION': 'Basic eA==' })],
    ['Cookie', withHeaders({ Cookie: 'sid=abc' })],
    ['set-cookie', withHeaders({ 'set-cookie': 'sid=abc; HttpOnly' })],
    ['X-Api-Key', withHeaders({ 'X-Api-Key': 'k1' })],
    ['a token only its fingerprint says', withHeaders({ authorization: 'Bearer eyJ (token sha256:0123456789ab)' })],
    [
      'a private key in a note',
      withHeaders({}, 'a -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----'),
    ],
  ];
  it.each(dirty)('sees what the walk would change: %s', (_, r) => {
    expect(scrubResults(r)).not.toBe(r); // the walk's own verdict: it changes something
    expect(mayScrub(serializeResults(r))).toBe(true);
  });

  it('is false for results whose credential headers are redacted already (what the engine writes), and the walk agrees', () => {
    const r = withHeaders({
      Authorization: 'Bearer [redacted] (token sha256:0123456789ab)',
      cookie: '[redacted]',
      'x-authorization': 'Bearer plain', // not a credential header: kept by the walk too
      accept: 'application/json',
    });
    expect(mayScrub(serializeResults(r))).toBe(false);
    expect(scrubResults(r)).toBe(r);
  });

  it('writeReports redacts what the text shows, in every file', async () => {
    const dir = tmp();
    const w = await writeReports(
      withHeaders(
        { Authorization: 'Basic Y2xpZW50OnMzY3JldA==' },
        'k -----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----',
      ),
      dir,
    );
    for (const f of [w.json, w.html, w.junit]) {
      const text = readFileSync(f, 'utf8');
      expect(text).not.toContain('Y2xpZW50OnMzY3JldA');
      expect(text).not.toContain('MIIE');
    }
    expect(readFileSync(w.json, 'utf8')).toContain('Basic [redacted]');
  });
});

describe('signing', () => {
  const text = readFileSync(writeResults(fixtureResults(), tmp()).path, 'utf8');

  it.each([
    ['RS256', R],
    ['ES256', E],
  ])('%s round trip, and any change to the bytes is detected', async (alg, k) => {
    const jws = await signResults(text, k.priv, 'operator-1');
    expect(jws).toMatch(/^[\w-]+\.\.[\w-]+$/);
    const ok = await verifyResults(text, jws, k.pub);
    expect(ok).toEqual({ ok: true, reason: `signature verifies (${alg}, kid operator-1)`, alg, kid: 'operator-1' });
    const tampered = text.replace('"verdict": "fail"', '"verdict": "pass"');
    expect(tampered).not.toBe(text);
    expect((await verifyResults(tampered, jws, k.pub)).ok).toBe(false);
    expect((await verifyResults(`${text} `, jws, k.pub)).ok).toBe(false);
  });

  it('refuses the wrong key, a mismatched alg, a malformed JWS and weak keys', async () => {
    const jws = await signResults(text, R.priv);
    const other = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }));
    expect(await verifyResults(text, jws, other.pub)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/does not verify/),
    });
    expect(await verifyResults(text, jws, E.pub)).toMatchObject({
      ok: false,
      reason: 'JWS alg RS256 does not match the ES256 key given',
    });
    expect((await verifyResults(text, 'a.b.c', R.pub)).reason).toMatch(/not a detached compact JWS/);
    expect((await verifyResults(text, jws, 'junk')).reason).toMatch(/not a readable PEM/);
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    await expect(signResults(text, weak)).rejects.toMatchObject({ code: 'SIGN_KEY_UNSUPPORTED' });
    const err = await signResults(text, '-----BEGIN PRIVATE KEY-----\nsecretstuff\n-----END PRIVATE KEY-----').catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({ code: 'SIGN_KEY_INVALID' });
    expect((err as Error).message).not.toContain('secretstuff');
  });

  it('verifies with a certificate as well as a bare public key', async () => {
    const forge = (await import('node-forge')).default;
    const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const keys = { privateKey: forge.pki.privateKeyFromPem(pkcs1), publicKey: forge.pki.publicKeyFromPem(R.pub) };
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = '01';
    cert.validity.notBefore = new Date();
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: 'commonName', value: 'operator' }]);
    cert.setIssuer([{ name: 'commonName', value: 'operator' }]);
    cert.sign(keys.privateKey, forge.md.sha256.create());
    const jws = await signResults(text, pkcs1); // PKCS#1 PEM is accepted
    expect((await verifyResults(text, jws, forge.pki.certificateToPem(cert))).ok).toBe(true);
  });
});

describe('writeReports + verify-report', () => {
  it('writes the four files; verify-report passes, then catches each kind of tampering', async () => {
    const dir = tmp();
    const w = await writeReports(fixtureResults(), dir, { signingKeyPem: R.priv, signingKid: 'op' });
    expect(w.jws).toBe(join(dir, 'results.json.jws'));
    expect(readFileSync(w.html, 'utf8')).toContain(`<meta name="results-sha256" content="${w.sha256}">`);
    const good = await verifyReport({ resultsPath: w.json, keyPem: R.pub });
    expect(good.steps.map((s) => [s.name, s.ok])).toEqual([
      ['schema', true],
      ['signature', true],
      ['html-sha256', true],
    ]);
    expect(good.ok).toBe(true);
    // the page embeds no copy of the results: the SHA-256 it states binds it
    expect(readFileSync(w.html, 'utf8')).not.toContain('id="results-data"');

    const original = readFileSync(w.json, 'utf8');
    writeFileSync(w.json, original.replace('"verdict": "fail"', '"verdict": "pass"'));
    const bad = await verifyReport({ resultsPath: w.json, keyPem: R.pub });
    expect(bad.ok).toBe(false);
    expect(bad.steps.filter((s) => !s.ok).map((s) => s.name)).toEqual(['signature', 'html-sha256']);

    writeFileSync(w.json, original);
    writeFileSync(
      w.html,
      readFileSync(w.html, 'utf8').replace(/content="[0-9a-f]{64}"/, `content="${'0'.repeat(64)}"`),
    );
    expect(
      (await verifyReport({ resultsPath: w.json, keyPem: R.pub })).steps.find((s) => s.name === 'html-sha256')?.ok,
    ).toBe(false);
  });

  it("a page written before, with a copy of the results in it, verifies when the copy is results.json's, not when it differs", async () => {
    const dir = tmp();
    const w = await writeReports(fixtureResults(), dir, { signingKeyPem: R.priv });
    const text = readFileSync(w.json, 'utf8');
    const page = readFileSync(w.html, 'utf8');
    // the copy as such a page held it: compact JSON, `<` `>` `&` escaped, before the page's script
    const withCopy = (data: unknown): string =>
      page.replace(
        '<script>',
        `<script type="application/json" id="results-data">${JSON.stringify(data).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}</script>\n<script>`,
      );
    writeFileSync(w.html, withCopy(JSON.parse(text)));
    const same = await verifyReport({ resultsPath: w.json, keyPem: R.pub });
    expect(same.steps.map((s) => [s.name, s.ok])).toEqual([
      ['schema', true],
      ['signature', true],
      ['html-sha256', true],
      ['html-data', true],
    ]);
    const other = JSON.parse(text) as { catalogueVersion: string };
    other.catalogueVersion = 'another';
    writeFileSync(w.html, withCopy(other));
    const differs = await verifyReport({ resultsPath: w.json, keyPem: R.pub });
    expect(differs.ok).toBe(false);
    expect(differs.steps.filter((s) => !s.ok).map((s) => s.name)).toEqual(['html-data']);
  });

  it('an unsigned run does not verify', async () => {
    const dir = tmp();
    const w = await writeReports(fixtureResults(), dir);
    expect(w.jws).toBeUndefined();
    const r = await verifyReport({ resultsPath: w.json, keyPem: R.pub });
    expect(r.ok).toBe(false);
    expect(r.steps.find((s) => s.name === 'signature')?.detail).toMatch(/no signature/);
  });

  it('an unsigned run verifies by hash without a key, against report.html, and a changed byte is caught', async () => {
    const dir = tmp();
    const w = await writeReports(fixtureResults(), dir);
    const r = await verifyReport({ resultsPath: w.json });
    expect(r.ok, JSON.stringify(r.steps)).toBe(true);
    expect(r.signed).toBe(false);
    expect(r.steps.find((s) => s.name === 'signature')?.detail).toMatch(/not checked: the run is unsigned/);
    writeFileSync(w.json, readFileSync(w.json, 'utf8').replace('"pass"', '"fail"'));
    expect((await verifyReport({ resultsPath: w.json })).ok).toBe(false);
    // without report.html there is nothing to check the hash against
    const alone = tmp();
    const only = writeResults(fixtureResults(), alone).path;
    const none = await verifyReport({ resultsPath: only });
    expect(none.ok).toBe(false);
    expect(none.steps.find((s) => s.name === 'html-sha256')?.detail).toMatch(/there is no .*report\.html/);
  });

  it('the command: exit 0 verified, 1 not, 2 usage', async () => {
    const dir = tmp();
    const w = await writeReports(fixtureResults(), dir, { signingKeyPem: E.priv });
    const key = join(dir, 'pub.pem');
    writeFileSync(key, E.pub);
    const out = sink();
    const err = sink();
    expect(await runVerifyReport([w.json, '--key', key], out, err)).toBe(0);
    expect(out.text).toContain('VERIFIED');
    const other = join(dir, 'other.pem');
    writeFileSync(other, pem(generateKeyPairSync('ec', { namedCurve: 'prime256v1' })).pub);
    expect(await runVerifyReport([w.json, '--key', other], sink(), sink())).toBe(1);
    const unsignedOut = sink();
    expect(await runVerifyReport([w.json], unsignedOut, err)).toBe(0); // no key: checked by hash against report.html
    // a signed run checked without --key: not called unsigned; says the signature was not checked
    expect(unsignedOut.text).toMatch(
      /VERIFIED by hash only: the run is signed \(\S+results\.json\.jws\) but its signature was not checked: give --key/,
    );
    expect(unsignedOut.text).not.toContain('unsigned');
    // the reports' folder stands for its results.json
    const byFolder = sink();
    expect(await runVerifyReport([dir, '--key', key], byFolder, sink())).toBe(0);
    expect(byFolder.text).toContain('VERIFIED (signature and hash)');
    expect(await runVerifyReport([], sink(), err)).toBe(2);
    expect(err.text).toContain('give exactly one results.json');
    expect(await runVerifyReport([w.json, '--key', key, '--bogus'], sink(), sink())).toBe(2);
    expect(await runVerifyReport([w.json, '--key', join(dir, 'missing.pem')], sink(), sink())).toBe(2);
  });
});

describe('certify validates what it writes', () => {
  it('results that would fail their own schema (a negative duration) are a harness error: no results.json, no report, the scrubbed results kept as results.invalid.json', async () => {
    const dir = tmp();
    const bad = fixtureResults();
    const exchange = bad.profiles.flatMap((p) => p.results).flatMap((r) => r.evidence?.exchanges ?? [])[0]!;
    exchange.durationMs = -3;
    await expect(writeReports(bad, dir)).rejects.toThrow(
      expect.objectContaining({
        code: 'RESULTS_WOULD_BE_INVALID',
        message: expect.stringMatching(/^harness error: .*durationMs.*results\.json was not written/),
      }),
    );
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
    const kept = readFileSync(join(dir, 'results.invalid.json'), 'utf8');
    expect(JSON.parse(kept)).toMatchObject({ schemaVersion: RESULTS_SCHEMA_VERSION });
    expect(kept).toContain('"durationMs": -3');
    await expect(writeReports(bad, dir)).rejects.toThrow(
      /kept, unsigned and for diagnosis only, in \S+results\.invalid\.json/,
    );
  });

  it('reads every results version of its own major up to its own minor, and no other', () => {
    const [major, minor] = RESULTS_SCHEMA_VERSION.split('.').map(Number) as [number, number];
    const withVersion = (v: string) => JSON.stringify({ ...fixtureResults(), schemaVersion: v });
    expect(parseResults(withVersion(`${major}.0.0`)).schemaVersion).toBe(`${major}.0.0`);
    expect(() => parseResults(withVersion(`${major}.${minor + 1}.0`))).toThrow(
      expect.objectContaining({ code: 'RESULTS_SCHEMA_VERSION' }),
    );
    expect(() => parseResults(withVersion(`${major + 1}.0.0`))).toThrow(
      expect.objectContaining({ code: 'RESULTS_SCHEMA_VERSION' }),
    );
  });
});
