/**
 * `npm run jose -- open`: an envelope opened with lib/jose's open() (the harness's opener: the bank's request
 * policy for `--as bank`, the response policy for `--as client`), reported layer by layer and step by step. The
 * report says which key (field and thumbprint, never the key) and which algorithm each step used, and for an
 * envelope that fails a step, which step and why, and what could still be read.
 */
import { constants, privateDecrypt } from 'node:crypto';
import { open, privateKeyFromPem, type OpenResult, type OpenStep } from '../jose/index.ts';
import { BadInput } from './jose-input.ts';
import { describeKey, type Direction, type NamedKey, type Side } from './jose-keys.ts';
import { encryptedKeys, jweLines, jwsLines } from './jose-layers.ts';

const STEPS: readonly OpenStep[] = [
  'size',
  'parse',
  'jwe-structure',
  'jwe-header',
  'decrypt',
  'jws-structure',
  'jws-header',
  'verify',
  'payload',
];

export interface OpenReport {
  lines: string[];
  /** every step passed */
  verified: boolean;
}

/** can `key` unwrap one of the envelope's content keys (RSA-OAEP-256)? A diagnosis only: the opening is open()'s */
function unwraps(value: unknown, key: NamedKey): boolean {
  const k = privateKeyFromPem(key.pem);
  return encryptedKeys(value).some((b64) => {
    try {
      privateDecrypt(
        { key: k, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(b64, 'base64url'),
      );
      return true;
    } catch {
      return false;
    }
  });
}

/** what each step did when it passed */
function passed(step: OpenStep, r: OpenResult, text: string, keys: { decrypt: string; verify: string }): string {
  const h = r.jweHeader ?? {};
  switch (step) {
    case 'size':
      return `${Buffer.byteLength(text, 'utf8')} bytes`;
    case 'parse':
      return 'JSON text';
    case 'jwe-structure':
      return `JWE, ${r.jweForm ?? '?'} serialization`;
    case 'jwe-header':
      return `alg ${String(h.alg)}, enc ${String(h.enc)} (the only ones allowed)`;
    case 'decrypt':
      return `content key unwrapped (${String(h.alg)}) with ${keys.decrypt}; ${String(h.enc)} tag verified, plaintext decrypted`;
    case 'jws-structure':
      return `JWS, ${r.jwsForm ?? '?'} serialization`;
    case 'jws-header':
      return `alg ${String(r.jwsHeader?.alg)} (the only one allowed)`;
    case 'verify':
      return `${String(r.jwsHeader?.alg)} signature verified with ${keys.verify}`;
    case 'payload':
      return 'UTF-8 JSON';
  }
}

function stepLines(r: OpenResult, text: string, keys: { decrypt: string; verify: string }): string[] {
  const failedAt = r.ok ? STEPS.length : STEPS.indexOf(r.step);
  return STEPS.map((step, i) => {
    const name = step.padEnd(13);
    if (i < failedAt) return `  ok      ${name} ${passed(step, r, text, keys)}`;
    if (i === failedAt && !r.ok) return `  FAILED  ${name} ${r.code}: ${r.reason}`;
    return `  -       ${name} not reached`;
  });
}

/** the inner JWS's payload when the envelope failed after decryption: readable, but nothing vouches for it */
function unverifiedPayload(jws: Record<string, unknown> | undefined): string[] {
  if (typeof jws?.payload !== 'string') return [];
  const text = Buffer.from(jws.payload, 'base64url').toString('utf8');
  let shown: string;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    shown = `(${Buffer.byteLength(text)} bytes, not JSON)`;
  }
  return ['payload, NOT verified (decoded from the JWS as it is; the opening failed):', shown];
}

export async function openReport(
  envelope: { text: string; value: unknown },
  d: Direction,
  as: Side,
): Promise<OpenReport> {
  const policy = as === 'bank' ? 'request' : 'response';
  const r = await open(envelope.text, {
    decryptionKey: d.decrypt.pem,
    verificationKey: d.verifyWith.pem,
    policy,
    keepInner: true,
  });
  if (!r.ok && r.code === 'KEY_INVALID')
    throw new BadInput(
      `profile: ${r.step === 'decrypt' ? d.decrypt.field : d.verifyWith.field} is not a usable key (${r.reason})`,
    );
  const keys = { decrypt: await describeKey(d.decrypt), verify: await describeKey(d.verifyWith) };
  if (!r.ok && r.code === 'DECRYPT_FAILED' && !unwraps(envelope.value, d.decrypt))
    throw new BadInput(
      `no content key of the envelope unwraps with ${keys.decrypt}: it is encrypted to another key (see --as, --role and the profile), or its encrypted_key was altered`,
    );
  const lines = [
    ...jweLines(envelope.value),
    ...jwsLines(r.jws, r.jwsForm),
    `keys (--as ${as}): decrypt with ${keys.decrypt}; verify with ${keys.verify}`,
    `policy: ${policy === 'request' ? "the bank's request policy (strict)" : 'the response policy (what JOSE-11 demands)'}`,
    'steps:',
    ...stepLines(r, envelope.text, keys),
  ];
  if (r.ok) {
    if (r.ignoredHeaderKeys.length)
      lines.push(
        `key-bearing headers present and ignored (the pinned key was used): ${r.ignoredHeaderKeys.join(', ')}`,
      );
    lines.push('payload:', JSON.stringify(r.payload, null, 2), 'result: verified');
  } else {
    lines.push(...unverifiedPayload(r.jws));
    lines.push(`result: FAILED at step ${r.step} (${r.code}): ${r.reason}`);
  }
  return { lines, verified: r.ok };
}
