/**
 * A case of the JOSE negative catalogue: what is sent, and what a refusal of it may look like (suites/jose judges it).
 */
export interface NegativeCase {
  /** catalogue id (catalogue.ts families: S structure, A signature, E encryption, H header, T tamper, Z size) */
  id: string;
  title: string;
  /** the request body, sent exactly as built (object = JSON); undefined skips the case (reason in `skipped`) */
  body: () => Promise<string | object | undefined> | string | object | undefined;
  /** why body() gave nothing */
  skipped?: () => string;
  /** statuses that also count as a refusal (Z1: 413) */
  alsoRefused?: readonly number[];
  /** what no answer at all means: a closed connection refuses an oversized body (Z1); a timeout after a
   *  PBES2 header may be the key derivation running (E11) */
  noAnswer?: 'refused' | 'failed' | 'inconclusive';
}
