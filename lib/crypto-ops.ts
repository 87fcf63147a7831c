/**
 * Counts of the RSA private-key operations a run performs (the crypto floor of `npm run bench`, docs/performance.md),
 * counted where they happen, harness and mock alike. Off unless HARNESS_COUNT_CRYPTO_OPS names a folder: then each
 * thread that counted writes its counts there as JSON when it exits (`ops-<pid>-<thread>.json`; the main thread adds
 * the process's CPU time, all threads together). A normal run pays one test of a constant per call site.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';

/** the kinds of private-key operation counted */
export type CryptoOp =
  /** an RSA signature (JWS, certificate, report) */
  | 'sign'
  /** an RSA decryption (a JWE content key unwrapped) */
  | 'decrypt'
  /** a full TLS handshake the server completed with its certificate's private key */
  | 'tlsServer'
  /** a full TLS handshake where the client proved its certificate (CertificateVerify) */
  | 'tlsClient'
  /** an RSA key pair generated (hundreds of signatures' worth each: the bench weighs them) */
  | 'keygen';

export type CryptoOpCounts = Record<CryptoOp, number>;

/** what a thread writes at exit: its counts, and from the main thread the process's CPU time in microseconds */
export type CryptoOpsFile = CryptoOpCounts & { cpuMicros?: number };

const FOLDER = process.env.HARNESS_COUNT_CRYPTO_OPS || undefined;
/** whether operations are counted in this run (a call site that must do work to count asks first) */
export const COUNTING_CRYPTO_OPS = FOLDER !== undefined;
let counts: CryptoOpCounts | undefined;

/** starts counting in this thread (its file is written at exit even when it counted nothing) */
export function watchCryptoOps(): void {
  if (FOLDER !== undefined) counts ??= start(FOLDER);
}

function start(folder: string): CryptoOpCounts {
  const mine: CryptoOpCounts = { sign: 0, decrypt: 0, tlsServer: 0, tlsClient: 0, keygen: 0 };
  process.once('exit', () => {
    const cpu = process.cpuUsage();
    const file: CryptoOpsFile = { ...mine, ...(isMainThread ? { cpuMicros: cpu.user + cpu.system } : {}) };
    try {
      writeFileSync(join(folder, `ops-${process.pid}-${threadId}.json`), JSON.stringify(file));
    } catch {
      // the bench then reports the counts as missing
    }
  });
  return mine;
}

/** counts `n` operations of `kind` (nothing at all unless HARNESS_COUNT_CRYPTO_OPS is set) */
export function countCryptoOp(kind: CryptoOp, n = 1): void {
  if (FOLDER === undefined) return;
  (counts ??= start(FOLDER))[kind] += n;
}
