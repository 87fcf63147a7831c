/**
 * docs/partner.md section 4 against the mock bank: the section is the generated reference
 * (lib/partner/reference.ts), and every documented request, built from the documented fields and headers only, is
 * answered by the mock bank with the documented status, fields and JSON types, in both modes; without a required
 * field it is refused, without an optional one it is not. A change to the bank or to the guide alone fails here.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompactEncrypt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, publicKeyFromPem, seal } from '../../lib/jose/index.ts';
import { mask } from '../../lib/mask/index.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { routeOf } from '../../lib/partner/bank.ts';
import {
  reference,
  referenceMarkdown,
  type FieldDoc,
  type MessageDoc,
  type MessageId,
} from '../../lib/partner/reference.ts';
import { testPki } from '../../lib/pki/index.ts';
import { ROOT } from '../../lib/root.ts';
import { call, tlsOf, type Profile, type Res } from '../mock/helpers.ts';

const START =
  '<!-- reference:start (generated from lib/partner/reference.ts: npx tsx scripts/partner-reference.ts) -->';
const END = '<!-- reference:end -->';

describe('docs/partner.md section 4', () => {
  it('is the generated reference (regenerate with npx tsx scripts/partner-reference.ts)', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'partner.md'), 'utf8');
    const from = doc.indexOf(START);
    const to = doc.indexOf(END);
    expect(from).toBeGreaterThan(0);
    expect(doc.slice(from + START.length, to).trim()).toBe(referenceMarkdown().trim());
  });
});

type Fields = Record<string, unknown>;

/** one mode's bank and the live values that replace the documented placeholders */
class Bench {
  constructor(
    readonly mock: MockBank,
    readonly p: Profile,
  ) {}
  get uat(): boolean {
    return this.p.environment === 'uat';
  }
  doc(id: MessageId): MessageDoc {
    return reference(this.uat ? 'uat' : 'sandbox').find((m) => m.id === id)!;
  }
  client(id: MessageId) {
    return id === 'authorize' || id === 'code-token' || id === 'refresh' ? this.p.clients.code : this.p.clients.partner;
  }

  /** the documented fields, their examples, the live values where the example is a placeholder */
  async fields(m: MessageDoc, live: Record<string, string>): Promise<Fields> {
    const alice = this.p.customers[0]!;
    const out: Fields = {};
    for (const f of m.fields) out[f.name] = await this.value(m, f, live, alice);
    return out;
  }

  private async value(m: MessageDoc, f: FieldDoc, live: Record<string, string>, alice: Profile['customers'][0]) {
    if (m.id === 'authorize' && f.name === 'account_id')
      return new CompactEncrypt(new TextEncoder().encode(alice.accountId))
        .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' })
        .encrypt(publicKeyFromPem(this.p.bank!.apiPublicKey!));
    if (f.name === 'account_id') return mask(alice.accountId);
    if (f.name === 'beneficiary_id') return alice.beneficiaryId;
    const fill = (v: string) => v.replace(/<([A-Za-z_]+)>/g, (_, k: string) => live[k] ?? `<${k}>`);
    if (typeof f.example === 'string') return fill(f.example);
    if (typeof f.example === 'object')
      return Object.fromEntries(Object.entries(f.example).map(([k, v]) => [k, fill(v)]));
    return f.example;
  }

  live(id: MessageId, extra: Record<string, string> = {}): Record<string, string> {
    const c = this.client(id);
    return {
      BANK_CLIENT_ID: c.clientId,
      BANK_CLIENT_SECRET: c.clientSecret,
      BANK_REDIRECT_URI: this.p.clients.code.redirectUri!,
      BANK_CUSTOMER_UUID: this.p.customers[0]!.uuid,
      BANK_ACCOUNT_ID: this.p.customers[0]!.accountId,
      ...extra,
    };
  }

  /** sends message `id` with `fields` (prerequisites fetched fresh), returns the answer opened */
  async send(id: MessageId, drop?: string): Promise<{ res: Res; body: unknown }> {
    const m = this.doc(id);
    const live = this.live(id, await this.prerequisites(id));
    const fields = await this.fields(m, live);
    if (drop) delete fields[drop];
    const c = this.client(id);
    const headers: Record<string, string> = {};
    for (const h of m.headers) {
      headers[h.name] = h.value.startsWith('Basic ')
        ? `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString('base64')}`
        : h.name === 'MsgId'
          ? randomUUID()
          : h.value.replace(/<([A-Za-z_]+)>/g, (_, k: string) => live[k] ?? `<${k}>`);
    }
    let url = m.path
      .replace('{oauth}', this.p.target.baseUrl)
      .replace('{base}', `${this.p.target.baseUrl}/v1`)
      .replace('{transfer_id}', live.transfer_id ?? randomUUID());
    let body: string | undefined;
    const str = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
    const params = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, str(v)]));
    if (m.carrier === 'query') url += `?${params}`;
    if (m.carrier === 'form') body = params.toString();
    if (m.carrier === 'json')
      body = JSON.stringify(
        m.sealed
          ? await seal(fields, { signingKey: c.privateKey!, encryptionKey: this.p.bank!.apiPublicKey! })
          : fields,
      );
    const res = await call(url, {
      method: m.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      tls: tlsOf(this.p, c),
    });
    if (!m.answer.sealed || res.status >= 500) return { res, body: res.json };
    const o = await open(res.text, { decryptionKey: c.privateKey!, verificationKey: this.p.bank!.apiPublicKey! });
    if (!o.ok) throw new Error(`${id}: the answer (${res.status}) does not open: ${o.code}`);
    return { res, body: o.payload };
  }

  /** what a message needs first: a code, a refresh token, an access token, a created transfer */
  private async prerequisites(id: MessageId): Promise<Record<string, string>> {
    if (id === 'authorize' || id === 'cc-token') return {};
    if (id === 'code-token') {
      const a = await this.send('authorize');
      return { code: new URL(a.res.headers.location!).searchParams.get('code')! };
    }
    if (id === 'refresh') {
      const t = (await this.send('code-token')).body as { refresh_token: string };
      return { refresh_token: t.refresh_token };
    }
    const t = (await this.send('cc-token')).body as { access_token: string };
    if (id !== 'get') return { access_token: t.access_token, transfer_id: randomUUID() };
    const transferId = randomUUID();
    const created = await this.sendCreate(t.access_token, transferId);
    if (created !== 201) throw new Error(`setup: creating the transfer to read answered HTTP ${created}`);
    return { access_token: t.access_token, transfer_id: transferId };
  }

  private async sendCreate(accessToken: string, transferId: string): Promise<number> {
    const m = this.doc('create');
    const c = this.p.clients.partner;
    const fields = await this.fields(m, this.live('create'));
    const body = this.uat
      ? JSON.stringify(await seal(fields, { signingKey: c.privateKey!, encryptionKey: this.p.bank!.apiPublicKey! }))
      : JSON.stringify(fields);
    const res = await call(`${this.p.target.baseUrl}/v1/transfers/${transferId}`, {
      method: 'PUT',
      headers: {
        Authorization: `Bearer ${accessToken}`,
        'X-Gateway-Client-Id': c.clientId,
        'Content-Type': 'application/json',
      },
      body,
      tls: tlsOf(this.p, c),
    });
    return res.status;
  }
}

const typeOf = (v: unknown): string =>
  Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : v === null ? 'null' : typeof v;

/** the answer's members against the documented fields: the same names, the documented JSON types */
function shapeOf(v: unknown, fields: FieldDoc[]): Record<string, unknown> {
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => {
        const f = fields.find((x) => x.name === k);
        return [k, f?.members ? shapeOf(o[k], f.members) : typeOf(o[k])];
      }),
  );
}
const documentedShape = (fields: FieldDoc[]): Record<string, unknown> =>
  Object.fromEntries(
    [...fields]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((f) => [f.name, f.members ? documentedShape(f.members) : f.type]),
  );

/** refused: an error status, or (authorize) a redirect that carries an error instead of a code */
const refused = (res: Res): boolean =>
  res.status >= 400 || (res.status === 302 && new URL(res.headers.location!).searchParams.has('error'));

for (const mode of ['uat', 'sandbox'] as const) {
  describe(`the documented requests and answers, ${mode}`, () => {
    let bench: Bench;
    beforeAll(async () => {
      const mock = await startMockBank({ mode, pki: await testPki() });
      bench = new Bench(mock, mock.profile(`mock-${mode}`));
    }, 60_000);
    afterAll(() => bench?.mock.close());

    for (const m of reference(mode)) {
      it(`${m.id}: the documented request is answered as documented; each required field is required`, async () => {
        const path = m.path.replace('{oauth}', '').replace('{base}', '/v1').replace('{transfer_id}', 't-1');
        expect(routeOf(m.method, path)).not.toBe('other');
        const { res, body } = await bench.send(m.id);
        expect(res.status).toBe(m.answer.status);
        const headers = m.answer.headers.filter((h) => h.name !== 'Location');
        expect(headers.map((h) => res.headers[h.name.toLowerCase()])).toEqual(headers.map((h) => h.value));
        const documented = m.answer.fields.length > 0;
        expect(documented ? shapeOf(body, m.answer.fields) : null).toEqual(
          documented ? documentedShape(m.answer.fields) : null,
        );
        for (const f of m.fields) {
          const without = await bench.send(m.id, f.name);
          const endpointRequires = f.required && f.enforcedBy === undefined;
          expect({ field: f.name, refused: refused(without.res) }).toEqual({
            field: f.name,
            refused: endpointRequires,
          });
        }
      }, 60_000);
    }
  });
}
