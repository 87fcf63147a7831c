/**
 * What the refusal catalogue's files share: the refusal's shape, and what a naive receiver (jose with its lenient
 * defaults, any alg that fits the key, any recipient or signature that works) does with the same envelope.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { generalDecrypt, generalVerify, type GeneralJWE, type GeneralJWS } from 'jose';
import { expect } from 'vitest';
import type { OpenFailureCode, OpenResult, OpenStep } from '../../lib/jose/types.ts';
import type { World } from './helpers.ts';

export function refused(r: OpenResult, step: OpenStep, code: OpenFailureCode): void {
  expect(r).toMatchObject({ ok: false, step, code });
  if (!r.ok) expect(r.reason).toBeTypeOf('string');
}

/** whether a naive receiver opens `env` (sealed to the bank by default, verified with the client's key) */
export async function naiveAccepts(
  w: World,
  env: unknown,
  verifyKey: Parameters<typeof generalVerify>[1] = createPublicKey(w.client.pub),
): Promise<boolean> {
  try {
    const jwe = (typeof env === 'string' ? JSON.parse(env) : env) as GeneralJWE;
    const { plaintext } = await generalDecrypt(jwe, createPrivateKey(w.bank.priv));
    const jws = JSON.parse(new TextDecoder().decode(plaintext)) as GeneralJWS;
    await generalVerify(jws, verifyKey);
    return true;
  } catch {
    return false;
  }
}

export const b64 = (s: string): string => Buffer.from(s).toString('base64url');
