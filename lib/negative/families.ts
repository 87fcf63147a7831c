/**
 * The JOSE negative catalogue's families, by the requirement id whose check sends them (suites/jose/families/, one
 * file a family; lib/workbench builds them too), in the suite's order: each family's cases over the keys and a
 * document.
 */
import {
  duplicateCases,
  encryptionKeyCases,
  formCases,
  jweAlgCases,
  jweEncCases,
  jwsAlgCases,
  layerCases,
  multiplicityCases,
  signatureKeyCases,
  structureCases,
  tamperCases,
  zipCases,
} from './catalogue.ts';
import type { NegativeCase } from './cases.ts';
import type { Keys } from './envelopes.ts';
import type { ProxyRoute } from '../tls/tunnel.ts';

/** what a family's builder may need from the target beyond the keys (a check takes it from its context) */
export interface CaseEnv {
  /** SPKI PEM of the target's TLS server certificate key, or undefined (JOSE-07's E7) */
  tlsServerKey(): Promise<string | undefined>;
  /** the run's proxy route (lib/http/transport.ts), when it has one */
  proxy?: ProxyRoute;
}

export type FamilyCases = (env: CaseEnv, k: Keys, doc: Record<string, unknown>) => NegativeCase[];

export const FAMILY_CASES = {
  'JOSE-01': (_env, _k, doc) => structureCases(doc),
  'JOSE-02': (_env, k, doc) => jwsAlgCases(k, doc),
  'JOSE-03': (_env, k, doc) => jweAlgCases(k, doc),
  'JOSE-04': (_env, k, doc) => jweEncCases(k, doc),
  'JOSE-05': (_env, k, doc) => formCases(k, doc),
  'JOSE-06': (_env, k, doc) => signatureKeyCases(k, doc),
  'JOSE-07': (env, k, doc) => encryptionKeyCases(() => env.tlsServerKey(), k, doc, env.proxy),
  'JOSE-08': (_env, k, doc) => tamperCases(k, doc),
  'JOSE-09': (_env, k, doc) => layerCases(k, doc),
  'HARD-01': (_env, k, doc) => duplicateCases(k, doc),
  'HARD-02': (_env, k, doc) => zipCases(k, doc),
  'HARD-03': (_env, k, doc) => multiplicityCases(k, doc),
} satisfies Record<string, FamilyCases>;
