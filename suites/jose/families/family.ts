/**
 * What the family files share: the environment a family's cases may need from the target, and a family as
 * lib/workbench builds it (its requirement id and its cases).
 */
import type { CheckContext } from '../../../lib/engine/session/context.ts';
import type { Keys } from '../envelopes.ts';
import type { NegativeCase } from '../negatives.ts';
import { serverPublicKey } from '../server-key.ts';

/** what a family's builder may need from the target beyond the keys (a check takes it from its context) */
export interface CaseEnv {
  /** SPKI PEM of the target's TLS server certificate key, or undefined (JOSE-07's E7) */
  tlsServerKey(): Promise<string | undefined>;
}

/** one family of negatives: the requirement its check judges, and its cases over the keys and a document */
export interface Family {
  requirement: string;
  cases: (env: CaseEnv, k: Keys, doc: Record<string, unknown>) => NegativeCase[];
}

/** the environment of a check: the TLS server key read from a handshake with the target, as the partner */
export function caseEnvOf(ctx: CheckContext): CaseEnv {
  return { tlsServerKey: () => serverPublicKey(ctx.url('validate'), ctx.identity('partner')) };
}
