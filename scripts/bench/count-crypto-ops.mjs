// npm run bench's operation counter (its crypto floor: docs/performance.md, scripts/bench/floor.ts), installed by the
// bench in the certify process it runs (node --import, through NODE_OPTIONS; worker threads run it too), never
// imported by the harness. Off unless HARNESS_COUNT_CRYPTO_OPS names a folder (and, when HARNESS_COUNT_CRYPTO_OPS_IN
// is set, only in the process whose script path ends with it: not in npm's own). It counts the RSA private-key
// operations where node:crypto, WebCrypto (jose) and the TLS server perform them, and each thread writes its counts
// to the folder at exit (`ops-<pid>-<thread>.json`; the main thread adds the process's CPU time, all threads).
import crypto from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import tls from 'node:tls';
import { isMainThread, threadId } from 'node:worker_threads';

const FOLDER = process.env.HARNESS_COUNT_CRYPTO_OPS || undefined;
const ONLY_IN = process.env.HARNESS_COUNT_CRYPTO_OPS_IN || undefined;
const ACTIVE = '__HARNESS_COUNTING_CRYPTO_OPS';
const here = isMainThread
  ? !ONLY_IN || (process.argv[1] ?? '').replace(/\\/g, '/').endsWith(ONLY_IN)
  : process.env[ACTIVE] === '1';

if (FOLDER && here) {
  // the worker threads this process starts take a copy of its environment: they count too
  process.env[ACTIVE] = '1';
  install(FOLDER);
}

function install(folder) {
  const counts = { sign: 0, decrypt: 0, tlsServer: 0, tlsClient: 0, keygen: 0 };
  process.once('exit', () => {
    const cpu = process.cpuUsage();
    const own = threadCpuMicros();
    const file = {
      ...counts,
      ...(isMainThread ? { cpuMicros: cpu.user + cpu.system } : {}),
      ...(own !== undefined ? { threadCpuMicros: own } : {}),
    };
    try {
      writeFileSync(join(folder, `ops-${process.pid}-${threadId}.json`), JSON.stringify(file));
    } catch {
      // the bench then reports the counts as missing
    }
  });
  const wrap = (owner, name, count) => {
    const original = owner[name];
    owner[name] = function (...args) {
      count(args);
      return original.apply(this, args);
    };
  };
  // node:crypto: one-shot RSA signatures, PKCS#1 signatures made by hand (the PKI's certificates), RSA decryptions
  // of content keys, RSA key pairs
  wrap(crypto, 'sign', (a) => rsaPrivate(a[2]) && counts.sign++);
  wrap(crypto.Sign.prototype, 'sign', (a) => rsaPrivate(a[0]) && counts.sign++);
  wrap(crypto, 'privateEncrypt', () => counts.sign++);
  wrap(crypto, 'privateDecrypt', () => counts.decrypt++);
  wrap(crypto, 'generateKeyPair', (a) => /^rsa/.test(String(a[0])) && counts.keygen++);
  wrap(crypto, 'generateKeyPairSync', (a) => /^rsa/.test(String(a[0])) && counts.keygen++);
  syncBuiltinESMExports();
  // WebCrypto (jose, and the fast paths' RSA-OAEP): RSA signatures and RSA-OAEP unwraps only (not HMAC, not AES)
  const subtle = Object.getPrototypeOf(crypto.webcrypto.subtle);
  const rsa = (key, names) => names.includes(key?.algorithm?.name);
  wrap(subtle, 'sign', (a) => rsa(a[1], ['RSASSA-PKCS1-v1_5', 'RSA-PSS']) && counts.sign++);
  wrap(subtle, 'decrypt', (a) => rsa(a[1], ['RSA-OAEP']) && counts.decrypt++);
  wrap(subtle, 'unwrapKey', (a) => rsa(a[2], ['RSA-OAEP']) && counts.decrypt++);
  wrap(subtle, 'generateKey', (a) => /^RSA/.test(String(a[0]?.name ?? a[0])) && counts.keygen++);
  // TLS servers (the mock's API listener): a full handshake costs the server one private-key operation, and the
  // client one more when it proves a certificate; a resumed one costs none
  wrap(tls.Server.prototype, 'emit', (a) => {
    if (a[0] !== 'secureConnection' || a[1].isSessionReused()) return;
    counts.tlsServer++;
    if (a[1].getPeerX509Certificate()) counts.tlsClient++;
  });
}

/** whether a signing key is an RSA private key (a KeyObject, a PEM, or { key } around one) */
const kinds = new Map();
function rsaPrivate(key) {
  if (key instanceof crypto.KeyObject) return /^rsa/.test(key.asymmetricKeyType ?? '');
  const pem = typeof key === 'string' ? key : typeof key?.key === 'string' ? key.key : undefined;
  if (pem === undefined) return false;
  if (!kinds.has(pem)) {
    let rsa;
    try {
      rsa = /^rsa/.test(crypto.createPrivateKey(key).asymmetricKeyType ?? '');
    } catch {
      rsa = false;
    }
    kinds.set(pem, rsa);
  }
  return kinds.get(pem);
}

/**
 * this thread's own CPU time (user + system), from Linux's /proc/thread-self/stat (its clock ticks, USER_HZ, 100 a
 * second: 10 ms steps); undefined elsewhere. The bench tells the harness's main thread from the mocks' thread with it.
 */
function threadCpuMicros() {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10_000 : undefined;
  } catch {
    return undefined;
  }
}
