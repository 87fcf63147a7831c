/**
 * What `npm run send` sends: the harness's valid body, the reviewer's JSON (--body, sealed by send in UAT), their own
 * envelope as it is (--sealed, opened as the bank when the profile holds its key) or a forged variant (--variant).
 * Built before the token is asked for: a bad body sends nothing.
 */
import { readFileSync } from 'node:fs';
import type { CheckContext, ClientRole } from '../engine/session/context.ts';
import { open } from '../jose/index.ts';
import { SendUsage, type SendArgs } from './send-args.ts';
import type { SentBody } from './send-print.ts';
import { forgeVariant } from './send-variants.ts';

/** the --body file: its text, and the document when it is JSON (every body must be) */
function readBodyFile(file: string): { text: string; doc: unknown } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SendUsage(`--body: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return { text, doc: JSON.parse(text) as unknown };
  } catch (e) {
    throw new SendUsage(`--body: ${file} is not JSON (${(e as Error).message.split('\n')[0]})`);
  }
}

/**
 * the payload inside a reviewer's envelope, opened as the bank when the profile holds its key (bank.apiPrivateKey)
 * with the bank's request policy and the `as` client's certificate; what failed when it does not open
 */
async function insideOf(
  ctx: CheckContext,
  as: ClientRole,
  envelope: unknown,
): Promise<Pick<SentBody, 'payload' | 'inside' | 'innerHeaders'>> {
  const bankKey = ctx.profile.bank.apiPrivateKey;
  if (!bankKey) return {};
  const verificationKey = ctx.jose.clientKey(as).certificate;
  const r = await open(envelope, { decryptionKey: bankKey, verificationKey, policy: 'request' });
  const innerHeaders = r.jwsHeader ? { innerHeaders: [r.jwsHeader] } : {};
  if (r.ok)
    return {
      payload: r.payload,
      inside: `opened as the bank, signature verified with the ${as} client's certificate`,
      ...innerHeaders,
    };
  return { inside: `did not open as the bank: ${r.step}: ${r.code}: ${r.reason}`, ...innerHeaders };
}

/** the body to send, built before the token is asked for (a bad variant sends nothing) */
export async function bodyOf(
  ctx: CheckContext,
  args: SendArgs,
  valid: Record<string, unknown>,
): Promise<SentBody | undefined> {
  if (args.op === 'get') return undefined;
  const uat = ctx.env === 'uat';
  if (!uat && (args.sealed || args.variant))
    throw new SendUsage(`--${args.sealed ? 'sealed' : 'variant'}: the profile is sandbox, whose bodies are not sealed`);
  const file = args.bodyFile ? readBodyFile(args.bodyFile) : undefined;
  if (args.sealed) {
    const what = `the envelope of ${args.bodyFile}, sent as it is`;
    return { wire: file!.text, sealed: true, what, ...(await insideOf(ctx, args.role, file!.doc)) };
  }
  const doc = file ? file.doc : valid;
  const what = file ? `${args.bodyFile}, sealed by send` : "the harness's valid transfer body";
  if (args.variant !== undefined) {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      throw new SendUsage(`--variant: the document to forge (${args.bodyFile}) is not a JSON object`);
    const v = await forgeVariant(ctx, args.role, args.variant, doc as Record<string, unknown>);
    const what = `variant ${v.id}: ${v.title}`;
    return { wire: v.body, sealed: true, payload: doc, what, ...(v.alsoRefused ? { alsoRefused: v.alsoRefused } : {}) };
  }
  if (!uat) return { wire: doc as object, sealed: false, what };
  return {
    wire: await ctx.jose.seal(doc, args.role),
    sealed: true,
    payload: doc,
    what: `${what} (RS256 in RSA-OAEP-256/A256CBC-HS512)`,
  };
}
