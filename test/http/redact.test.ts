import { describe, expect, it } from 'vitest';
import { clearIdMarker, createRedactor, learnFromHeaders, TOKEN_KINDS } from '../../lib/http/record/redact.ts';
import { mask } from '../../lib/mask/index.ts';

const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7CANARYKEY\nabcdef0123456789abcdef0123456789\n-----END PRIVATE KEY-----\n';

describe('redactor', () => {
  it('keeps the scheme of Authorization and hides the credentials', () => {
    const r = createRedactor();
    const h = r.redactHeaders({
      Authorization: 'Bearer tok-CANARY-1',
      'proxy-authorization': 'Basic ' + Buffer.from('id:sec-CANARY').toString('base64'),
      'X-Gateway-Client-Secret': 'sec-CANARY-2',
      Cookie: 'sid=CANARY-3',
      'set-cookie': 'sid=CANARY-4; HttpOnly',
      'www-authenticate': 'Bearer error="invalid_token"',
    });
    expect(h).toEqual({
      Authorization: 'Bearer [REDACTED:token]',
      'proxy-authorization': 'Basic [REDACTED:credentials]',
      'X-Gateway-Client-Secret': '[REDACTED:client-secret]',
      Cookie: '[REDACTED:cookie]',
      'set-cookie': '[REDACTED:cookie]',
      'www-authenticate': 'Bearer error="invalid_token"',
    });
  });

  it('replaces token-like JSON members and form fields by name', () => {
    const r = createRedactor();
    const json = JSON.stringify({
      access_token: 'AT-CANARY',
      refresh_token: 'RT-CANARY',
      id_token: 'ID-CANARY',
      code: 'C-CANARY',
      client_secret: 'CS-CANARY',
      response_code: '422001',
      scope: 'transfers',
    });
    const out = r.redact(json);
    expect(out).not.toMatch(/CANARY/);
    expect(JSON.parse(out)).toMatchObject({
      access_token: '[REDACTED:token]',
      code: '[REDACTED:code]',
      response_code: '422001',
      scope: 'transfers',
    });
    const form = 'grant_type=authorization_code&code=C-CANARY&client_secret=CS%2BCANARY&refresh_token=RT-CANARY';
    expect(r.redact(form)).toBe(
      'grant_type=authorization_code&code=[REDACTED:code]&client_secret=[REDACTED:client-secret]&refresh_token=[REDACTED:refresh-token]',
    );
    expect(r.redact('https://app/cb?code=C-CANARY&state=s1')).toBe('https://app/cb?code=[REDACTED:code]&state=s1');
    // JSON inside a JSON string
    expect(r.redact(JSON.stringify({ inner: json }))).not.toMatch(/CANARY/);
  });

  it('removes PEM private key blocks, plain, JSON-escaped or cut off', () => {
    const r = createRedactor();
    expect(r.redact(`key: ${PEM} end`)).toBe('key: [REDACTED:private-key]\n end');
    expect(r.redact(JSON.stringify({ key: PEM }))).toBe('{"key":"[REDACTED:private-key]\\n"}');
    expect(r.redact(PEM.slice(0, 60))).toBe('[REDACTED:private-key]');
  });

  it('replaces registered secrets in every encoding, and clear ids by a marker that says so (never their mask)', () => {
    const r = createRedactor();
    r.add('s3cr+t/with=chars CANARY', 'client-secret');
    r.add('1234567890123', 'account-id');
    r.add('784198012345678', 'emirates-id');
    const text = [
      's3cr+t/with=chars CANARY',
      encodeURIComponent('s3cr+t/with=chars CANARY'),
      new URLSearchParams({ x: 's3cr+t/with=chars CANARY' }).toString(),
      '/accounts/1234567890123/x',
      'eid=784198012345678',
    ].join(' | ');
    const out = r.redact(text);
    expect(out).not.toMatch(/CANARY|1234567890123|784198012345678/);
    expect(out).toContain('[REDACTED:client-secret]');
    // a mask would read as if the id had been sent masked: the marker says a clear id was there
    expect(out).not.toContain(mask('1234567890123'));
    expect(out).not.toContain(mask('784198012345678'));
    expect(out).toContain('/accounts/[clear account id]/x');
    expect(out).toContain('eid=[clear emirates id]');
    const named = createRedactor();
    named.add('1234567890123', 'account-id', clearIdMarker('account-id', 'customer alice'));
    expect(named.redact('{"account_id":"1234567890123"}')).toBe(
      '{"account_id":"[clear account id of customer alice]"}',
    );
  });

  it('learns Basic credentials, the secret inside them and bearer tokens from request headers', () => {
    const r = createRedactor();
    const b64 = Buffer.from('client-1:basic-CANARY-secret').toString('base64');
    learnFromHeaders(r, { Authorization: `Basic ${b64}` });
    learnFromHeaders(r, { authorization: 'Bearer bearer-CANARY-token' });
    const out = r.redact(`echo ${b64} and basic-CANARY-secret and bearer-CANARY-token`);
    expect(out).not.toMatch(/CANARY/);
    expect(out).not.toContain(b64);
  });

  it('does not learn short header values (deliberately wrong test inputs), so ordinary words survive', () => {
    const r = createRedactor();
    learnFromHeaders(r, {
      Authorization: `Basic ${Buffer.from('id:wrong').toString('base64')}`,
      'X-Gateway-Client-Secret': 'bad',
    });
    expect(r.redact('the secret was wrong, bad luck')).toBe('the secret was wrong, bad luck');
  });

  it('redacts Authorization values written in text', () => {
    const r = createRedactor();
    expect(r.redact('{"headers":{"authorization":"Bearer abc.def-CANARY"}}')).toBe(
      '{"headers":{"authorization":"Bearer [REDACTED:token]"}}',
    );
  });

  it('tests each pattern only on texts that can hold it, whatever their case or key type', () => {
    const r = createRedactor();
    // the patterns a text is first tested for: "authorization" in any case, a PEM of any key type, a field name
    expect(r.redact('PROXY-AUTHORIZATION: Basic aWQ6c2VjcmV0')).toBe(
      'PROXY-AUTHORIZATION: Basic [REDACTED:credentials]',
    );
    expect(r.redact('key: -----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----')).toBe(
      'key: [REDACTED:private-key]',
    );
    expect(r.redact('{"status":422,"id_token":"eyJ-CANARY"}')).toBe('{"status":422,"id_token":"[REDACTED:token]"}');
    // a text with none of them, and no registered secret, comes back as it was
    const plain = '{"status":422,"response_code":"E001","property":"amount.value"}';
    expect(r.redact(plain)).toBe(plain);
  });

  it('ignores secrets too short to be real (they would redact ordinary text)', () => {
    const r = createRedactor();
    r.add('ab', 'client-secret');
    expect(r.redact('about')).toBe('about');
  });

  it('keeping(TOKEN_KINDS): tokens and codes left in for a replay; client secrets, keys and clear ids still redacted', () => {
    const r = createRedactor();
    r.add('cs-SECRET-123456', 'client-secret');
    r.add('1234567890123', 'account-id', clearIdMarker('account-id', 'customer a'));
    learnFromHeaders(r, { Authorization: 'Bearer at-TOKEN-123456' });
    const k = r.keeping!(TOKEN_KINDS);
    const text =
      '{"access_token":"at-TOKEN-123456","refresh_token":"rt-TOKEN-1","client_secret":"cs-SECRET-123456","account_id":"1234567890123"}';
    expect(k.redact(text)).toBe(
      '{"access_token":"at-TOKEN-123456","refresh_token":"rt-TOKEN-1","client_secret":"[REDACTED:client-secret]","account_id":"[clear account id of customer a]"}',
    );
    expect(k.redact(`grant_type=authorization_code&code=c-CODE-1&client_secret=x\n${PEM}`)).toBe(
      'grant_type=authorization_code&code=c-CODE-1&client_secret=[REDACTED:client-secret]\n[REDACTED:private-key]\n',
    );
    const basic = `Basic ${Buffer.from('id:cs-SECRET-123456').toString('base64')}`;
    expect(k.redactHeaders({ Authorization: 'Bearer at-TOKEN-123456' })).toEqual({
      Authorization: 'Bearer at-TOKEN-123456',
    });
    expect(k.redactHeaders({ Authorization: basic })).toEqual({ Authorization: 'Basic [REDACTED:credentials]' });
    // the redactor itself still redacts them all
    expect(r.redact('at-TOKEN-123456')).toBe('[REDACTED:token]');
  });
});
