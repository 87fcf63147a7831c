/**
 * npm run jose -- seal / tamper / keys: jwt_tool's moves for a JWS in a JWE. Each forgery of the catalogue a
 * reviewer makes by hand is one command, and its inner JWS is byte for byte the one the check's builder makes
 * (RSA PKCS#1 v1.5 and HMAC signatures are deterministic); headers of both layers set and removed; signing with a
 * key file (made here, at run time), a secret, the attacker key; the inner JWS re-encrypted unchanged. The
 * envelopes are read here with the `jose` package and node:crypto (not with the workbench's or lib/jose's code).
 */
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, verify as verifySig } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compactDecrypt, flattenedDecrypt, generalDecrypt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../fixtures/tmp.ts';
import { DOC, makeWorld, type World } from './jose-fixture.ts';

type Json = Record<string, unknown>;
const tempDir = tempDirs('jose-tamper-');
let w: World;
beforeAll(async () => {
  w = await makeWorld(tempDir);
});

const b64json = (s: string): Json => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Json;

interface Shape {
  jweHeader: Json;
  recipients: number;
  /** the plaintext (the inner JWS text), or why it does not decrypt with the bank's key */
  inner: string;
}

/** what an envelope is, read with the jose package and the bank's private key */
async function shape(text: string): Promise<Shape> {
  const t = text.trim();
  const key = createPrivateKey(w.pki.bankApi.privateKeyPem);
  const options = {
    keyManagementAlgorithms: ['RSA-OAEP-256', 'RSA-OAEP'],
    contentEncryptionAlgorithms: ['A256CBC-HS512', 'A128CBC-HS256', 'A128GCM', 'A256GCM'],
    // the crit extensions the tests write (H7's exp): understood here, to read what was built
    crit: { exp: true, b64: true },
  };
  const compact = !t.startsWith('{');
  const v = compact ? undefined : (JSON.parse(t) as Json);
  const jweHeader = b64json(compact ? t.split('.')[0]! : (v!.protected as string));
  const recipients = compact ? 1 : Array.isArray(v!.recipients) ? v!.recipients.length : 1;
  let inner: string;
  try {
    const r = compact
      ? await compactDecrypt(t, key, options)
      : 'recipients' in v!
        ? await generalDecrypt(v as never, key, options)
        : await flattenedDecrypt(v as never, key, options);
    inner = Buffer.from(r.plaintext).toString('utf8');
  } catch (e) {
    inner = `does not decrypt: ${(e as Error).name}`;
  }
  return { jweHeader, recipients, inner };
}

/** the first signature of a JSON JWS text: its protected header decoded, its signature's bytes */
function sig(jwsText: string): { header: Json; signature: Buffer; signingInput: string } {
  const v = JSON.parse(jwsText) as Json;
  const s = (v.signatures as Json[])[0]!;
  return {
    header: b64json(s.protected as string),
    signature: Buffer.from(s.signature as string, 'base64url'),
    signingInput: `${s.protected as string}.${v.payload as string}`,
  };
}

const seal = async (args: string[], doc: unknown = DOC): Promise<string> => {
  const r = await w.jose(['seal', '--profile', w.profile, '--as', 'client', ...args], JSON.stringify(doc));
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return r.out;
};
const forge = async (id: string): Promise<string> => {
  const r = await w.jose(['forge', '--profile', w.profile, '--variant', id], JSON.stringify(DOC));
  expect(r.code, r.err).toBe(0);
  return r.out;
};

describe("the forgeries of the catalogue, one seal command each, the check's envelope", () => {
  const KEY_URL = 'http://127.0.0.1:9';
  const table: [string, string[]][] = [
    ['A1', ['--alg', 'none']],
    ['A2', ['--hmac-public-key', 'client']],
    ['H1', ['--sign-key', 'attacker', '--embed', 'jwk']],
    ['H2', ['--sign-key', 'attacker', '--set', `jws.jku=${KEY_URL}/jwks.json`]],
    ['H4', ['--sign-key', 'attacker', '--embed', 'x5c']],
    ['H6', ['--set', 'jws.crit=["exp"]', '--set', 'jws.exp=1']],
    ['H7', ['--set', 'jwe.crit=["exp"]', '--set', 'jwe.exp=1']],
    ['A5', ['--sign-key', 'attacker']],
    ['S6', ['--unsigned']],
    ['E1', ['--enc', 'A128GCM']],
    ['E3', ['--enc', 'A128CBC-HS256']],
    ['E4', ['--jwe-alg', 'RSA-OAEP']],
    ['S9', ['--also-to', 'attacker']],
    ['S2', ['--jwe-form', 'compact']],
  ];
  it.each(table)('%s: jose seal %j', async (id, args) => {
    const mine = await shape(await seal(args));
    const theirs = await shape(await forge(id));
    expect(mine.inner).not.toMatch(/^does not decrypt/);
    expect(mine).toEqual(theirs);
  });

  it('T4: --flip tag, its JWE headers the profile’s and the tag refused by the key holder', async () => {
    const env = JSON.parse(await seal(['--flip', 'tag'])) as Json;
    const s = await shape(JSON.stringify(env));
    expect(s.jweHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' });
    expect(s.inner).toMatch(/^does not decrypt/);
    expect((await shape(await forge('T4'))).inner).toMatch(/^does not decrypt/);
  });
});

describe('headers of either layer set and removed, payload members, signing keys', () => {
  const NAMES: [string, string][] = [
    ['kid', '"k-1"'],
    ['jku', 'https://attacker.example/jwks.json'],
    ['x5u', 'https://attacker.example/cert.pem'],
    ['jwk', '{"kty":"RSA","n":"AQAB","e":"AQAB"}'],
    ['x5c', '["MIIB"]'],
    ['crit', '["exp"]'],
    ['typ', 'JOSE+JSON'],
    ['cty', 'JWT'],
  ];
  it.each(NAMES)('--set jwe.%s and jws.(same) = %s, each layer its own header', async (name, value) => {
    // exp: the member crit names (each test sets it: the reader here understands exp)
    const s = await shape(
      await seal([
        '--set',
        `jwe.${name}=${value}`,
        '--set',
        `jws.${name}=${value}`,
        '--set',
        'jwe.exp=1',
        '--set',
        'jws.exp=1',
      ]),
    );
    const expected = ((): unknown => {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    })();
    expect(s.jweHeader[name]).toEqual(expected);
    expect(sig(s.inner).header[name]).toEqual(expected);
  });

  it('--unset removes a member of either layer (even alg and enc), --set payload.a.b edits the payload', async () => {
    const s = await shape(
      await seal([
        '--unset',
        'jws.alg',
        '--unset',
        'jwe.kid',
        '--set',
        'payload.amount.value="9.99"',
        '--unset',
        'payload.purpose_code',
      ]),
    );
    expect(sig(s.inner).header).toEqual({});
    const payload = b64json((JSON.parse(s.inner) as Json).payload as string);
    expect(payload).toEqual({ ...DOC, amount: { value: '9.99', currency: 'AED' }, purpose_code: undefined });
    const noEnc = await w.jose(
      ['seal', '--profile', w.profile, '--as', 'client', '--unset', 'jwe.enc'],
      JSON.stringify(DOC),
    );
    const env = JSON.parse(noEnc.out) as Json;
    expect(b64json(env.protected as string)).toEqual({ alg: 'RSA-OAEP-256' });
  });

  it('HS256 with a given secret: the HMAC of the signing input under that secret', async () => {
    const s = sig((await shape(await seal(['--secret', 'hunter2']))).inner);
    expect(s.header).toEqual({ alg: 'HS256' });
    expect(s.signature).toEqual(createHmac('sha256', 'hunter2').update(s.signingInput).digest());
    const bank = sig((await shape(await seal(['--hmac-public-key', 'bank']))).inner);
    const spki = createPublicKey(w.pki.bankApi.certPem).export({ type: 'spki', format: 'pem' });
    expect(bank.signature).toEqual(createHmac('sha256', spki).update(bank.signingInput).digest());
  });

  it('--sign-key FILE (PEM and JWK, made here), --alg PS256, --kid: verified with that key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = w.file('mine.pem', privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const jwk = w.file('mine.jwk.json', JSON.stringify(privateKey.export({ format: 'jwk' })));
    const a = sig((await shape(await seal(['--sign-key', pem, '--kid', 'mine']))).inner);
    expect(a.header).toEqual({ alg: 'RS256', kid: 'mine' });
    expect(verifySig('sha256', Buffer.from(a.signingInput), publicKey, a.signature)).toBe(true);
    const b = sig((await shape(await seal(['--sign-key', jwk, '--alg', 'PS256']))).inner);
    expect(b.header).toEqual({ alg: 'PS256' });
    expect(
      verifySig('sha256', Buffer.from(b.signingInput), { key: publicKey, padding: 6, saltLength: 32 }, b.signature),
    ).toBe(true);
  });

  it('an empty or a truncated signature; alg none in another spelling', async () => {
    expect(sig((await shape(await seal(['--signature', 'empty']))).inner).signature).toHaveLength(0);
    expect(sig((await shape(await seal(['--signature', 'truncated']))).inner).signature).toHaveLength(128);
    const none = sig((await shape(await seal(['--alg', 'nOnE']))).inner);
    expect(none.header).toEqual({ alg: 'nOnE' });
    expect(none.signature).toHaveLength(0);
  });
});

describe('tamper and re-encryption', () => {
  it('tamper with JWE changes only re-encrypts the inner JWS byte for byte (no re-signing)', async () => {
    const env = await seal([]);
    const before = await shape(env);
    const r = await w.jose(
      ['tamper', '--profile', w.profile, '--as', 'client', '--set', 'jwe.kid=other', '--enc', 'A128GCM'],
      env,
    );
    expect(r.code, r.err).toBe(0);
    const after = await shape(r.out);
    expect(after.inner).toBe(before.inner);
    expect(after.jweHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A128GCM', kid: 'other' });
  });

  it('tamper reads an envelope whose JWE header marks an extension crit (H7), and keeps that header', async () => {
    const h7 = await seal(['--set', 'jwe.crit=["exp"]', '--set', 'jwe.exp=1']);
    const r = await w.jose(['tamper', '--profile', w.profile, '--as', 'client', '--set', 'jwe.kid=k'], h7);
    expect(r.code, r.err).toBe(0);
    const after = await shape(r.out);
    expect(after.jweHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', crit: ['exp'], exp: 1, kid: 'k' });
    expect(after.inner).toBe((await shape(h7)).inner);
  });

  it('tamper of a payload member re-signs with the client key; seal --inner-jws encrypts a JWS as it is', async () => {
    const env = await seal([]);
    const r = await w.jose(
      ['tamper', '--profile', w.profile, '--as', 'client', '--set', 'payload.amount.value="1.01"'],
      env,
    );
    expect(r.code, r.err).toBe(0);
    const s = sig((await shape(r.out)).inner);
    expect(
      verifySig('sha256', Buffer.from(s.signingInput), createPublicKey(w.pki.clients.partner.certPem), s.signature),
    ).toBe(true);
    const jws = (await shape(env)).inner;
    const again = await w.jose(['seal', '--profile', w.profile, '--as', 'client', '--inner-jws'], jws);
    expect(again.code, again.err).toBe(0);
    expect((await shape(again.out)).inner).toBe(jws);
  });
});

describe('tamper without the bank key', () => {
  it('an inner JWS is sealed again to the bank with the profile’s public key only; an envelope needs the bank key', async () => {
    const jws = (await shape(await seal([]))).inner;
    const r = await w.jose(['tamper', '--profile', w.profileNoBankKey, '--as', 'client', '--set', 'jwe.kid=z'], jws);
    expect(r.code, r.err).toBe(0);
    expect((await shape(r.out)).inner).toBe(jws);
    const env = await w.jose(['tamper', '--profile', w.profileNoBankKey, '--as', 'client'], await seal([]));
    expect(env.code).toBe(2);
    expect(env.err.trim()).toBe('jose: profile: bank.apiPrivateKey is missing (needed for this command)');
  });
});

describe('keys --out: the attacker key and JWKS for jku / x5u', () => {
  it('writes the key pair, certificate and JWKS; a seal signed with the file verifies with the JWKS key', async () => {
    const dir = join(w.dir, 'attacker');
    const r = await w.jose(['keys', '--out', dir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('PRIVATE KEY');
    expect(statSync(join(dir, 'attacker-private.pem')).mode & 0o077).toBe(0);
    const jwks = JSON.parse(readFileSync(join(dir, 'jwks.json'), 'utf8')) as { keys: Json[] };
    expect(jwks.keys[0]).toMatchObject({ kid: 'attacker', kty: 'RSA' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const pub = createPublicKey({ key: jwks.keys[0] as never, format: 'jwk' });
    const s = sig((await shape(await seal(['--sign-key', join(dir, 'attacker-private.pem')]))).inner);
    expect(verifySig('sha256', Buffer.from(s.signingInput), pub, s.signature)).toBe(true);
  });
});

describe('bad input to seal and tamper: one line, exit 2', () => {
  const bad: [string, string[], string, RegExp][] = [
    [
      'a --set without a layer',
      ['seal', '--as', 'client', '--set', 'kid=1'],
      '{}',
      /--set "kid=1": name a member as jwe\.NAME/,
    ],
    ['a --set without a value', ['seal', '--as', 'client', '--set', 'jws.kid'], '{}', /give a value/],
    ['an unknown --alg', ['seal', '--as', 'client', '--alg', 'ES999'], '{}', /--alg must be RS256/],
    [
      'x5c without the attacker',
      ['seal', '--as', 'client', '--embed', 'x5c'],
      '{}',
      /--embed x5c needs --sign-key attacker/,
    ],
    ['HS256 without a key', ['seal', '--as', 'client', '--alg', 'HS256'], '{}', /--alg HS256 needs its key/],
    [
      'a secret with RS256',
      ['seal', '--as', 'client', '--alg', 'RS256', '--secret', 'x'],
      '{}',
      /HS256 key was given with --alg RS256/,
    ],
    [
      'a missing key file',
      ['seal', '--as', 'client', '--sign-key', '/nonexistent/k.pem'],
      '{}',
      /--sign-key \/nonexistent\/k\.pem: cannot be read/,
    ],
    ['tamper of a plain payload', ['tamper', '--as', 'client'], '{"a":1}', /tamper reads an envelope or its inner JWS/],
    [
      '--unsigned with --alg',
      ['seal', '--as', 'client', '--unsigned', '--alg', 'none'],
      '{}',
      /--unsigned encrypts the payload without a JWS/,
    ],
    ['--inner-jws of a payload', ['seal', '--as', 'client', '--inner-jws'], '{"a":1}', /--inner-jws: not a JWS/],
  ];
  it.each(bad)('%s', async (_name, args, stdin, line) => {
    const [cmd, ...rest] = args;
    const r = await w.jose([cmd!, '--profile', w.profile, ...rest], stdin);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(line);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
