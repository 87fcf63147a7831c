/**
 * npm run jose -- open --har FILE --entry N | --check ID: an envelope captured in a HAR 1.2 file (written here by
 * hand, with the standard fields only) opened as the bank (a request's postData.text) or as the client (an
 * answer's content.text, base64 when content.encoding says so); a wrong pick is one line and exit 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { DOC, makeWorld, type World } from './jose-fixture.ts';

const tempDir = tempDirs('jose-har-');
let w: World;
let har: string;

beforeAll(async () => {
  w = await makeWorld(tempDir);
  const seal = async (as: string, doc: unknown): Promise<string> =>
    (await w.jose(['seal', '--profile', w.profile, '--as', as], JSON.stringify(doc))).out.trim();
  const request = await seal('client', DOC);
  const answer = await seal('bank', { status: 'VALID', amount: { value: '150.00', currency: 'AED' } });
  const entry = (comment: string, req: string | undefined, res: string, encoding?: string): unknown => ({
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'POST',
      url: 'https://bank.example/transfers/validate',
      httpVersion: 'HTTP/1.1',
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: req?.length ?? 0,
      ...(req !== undefined && { postData: { mimeType: 'application/json', text: req } }),
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: res.length, mimeType: 'application/json', text: res, ...(encoding && { encoding }) },
      redirectURL: '',
      headersSize: -1,
      bodySize: res.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
    comment,
  });
  har = w.file(
    'run.har',
    JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: 'hand', version: '1' },
        entries: [
          entry('sent by uat: prerequisite reach-api', undefined, '{"ok":true}'),
          entry(
            'sent by uat: jose.alg-none\nlabel: validate',
            request,
            Buffer.from(answer).toString('base64'),
            'base64',
          ),
          entry('sent by uat: jose.twice', request, answer),
          entry('sent by uat: jose.twice', request, answer),
        ],
      },
    }),
  );
});

describe('open --har', () => {
  it('--entry N --as bank opens the request captured in that entry', async () => {
    const r = await w.jose(['open', '--profile', w.profile, '--as', 'bank', '--har', har, '--entry', '2']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"purpose_code": "FAM"');
    expect(r.out).toContain('result: verified');
  });

  it('--check ID --as client opens the answer of the one entry that check sent (base64 content)', async () => {
    const r = await w.jose([
      'open',
      '--profile',
      w.profile,
      '--as',
      'client',
      '--har',
      har,
      '--check',
      'jose.alg-none',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"status": "VALID"');
    expect(r.out).toContain('result: verified');
  });

  const bad: [string, string[], RegExp][] = [
    ['an entry past the end', ['--entry', '9'], /run\.har: no entry 9 \(log\.entries has 4, from 0\)/],
    ['an entry without a request body', ['--entry', '0'], /entry 0 has no request\.postData\.text/],
    ['a check that sent none', ['--check', 'jose.none'], /no entry was sent by check "jose\.none"/],
    ['a check that sent several', ['--check', 'jose.twice'], /sent 2 entries \(2, 3\): choose one with --entry N/],
    ['neither --entry nor --check', [], /--har: give --entry N/],
    ['a bad --entry', ['--entry', 'first'], /--entry must be an index/],
  ];
  it.each(bad)('%s: one line, exit 2', async (_name, pick, line) => {
    const r = await w.jose(['open', '--profile', w.profile, '--as', 'bank', '--har', har, ...pick]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(line);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('a file that is not a HAR: one line, exit 2', async () => {
    const notHar = w.file('x.har', '{"log":{}}');
    const r = await w.jose(['open', '--profile', w.profile, '--as', 'bank', '--har', notHar, '--entry', '0']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/x\.har: not a HAR \(no log\.entries\)/);
  });
});
