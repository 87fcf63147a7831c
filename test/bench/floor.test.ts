/**
 * npm run bench's crypto floor (docs/performance.md): the openssl speed parser, the floor arithmetic, the profile
 * summary
 */
import { describe, expect, it } from 'vitest';
import {
  addCounts,
  beyondRsaLine,
  callsOf,
  cryptoFloor,
  floorLine,
  parseOpensslSpeed,
  topFrames,
  type CpuProfile,
} from '../../scripts/bench/floor.ts';

const OPENSSL_3_0 = `Doing 2048 bits private rsa's for 1s: 3512 2048 bits private RSA's in 0.99s
Doing 2048 bits public rsa's for 1s: 63000 2048 bits public RSA's in 0.99s
version: 3.0.19
built on: Tue Jan 27 00:00:00 2026 UTC
CPUINFO: OPENSSL_ia32cap=0xfffa32034f8bffff:0x1a415f46f1bf2ffb
                  sign    verify    sign/s verify/s
rsa 2048 bits 0.000284s 0.000016s   3525.8  63656.5
`;
/** OpenSSL 3.2 and later: encrypt and decrypt columns before the rates */
const OPENSSL_3_2 = `                   sign    verify    encrypt   decrypt   sign/s verify/s  encr./s  decr./s
rsa  2048 bits 0.000694s 0.000020s 0.000021s 0.000690s   1441.0  50000.0  47619.0   1449.3
`;

describe('parseOpensslSpeed', () => {
  it('reads sign/s from the column named so, in the 3.0 and the 3.2 layouts', () => {
    expect(parseOpensslSpeed(OPENSSL_3_0)).toBe(3525.8);
    expect(parseOpensslSpeed(OPENSSL_3_2)).toBe(1441);
  });
  it('is undefined for output without an rsa 2048 row (openssl missing or another format)', () => {
    expect(parseOpensslSpeed('')).toBeUndefined();
    expect(
      parseOpensslSpeed('                  sign    verify    sign/s verify/s\nrsa 4096 bits 0.1s 0.1s 10.0 100.0\n'),
    ).toBeUndefined();
  });
});

describe('the crypto floor', () => {
  const main = { sign: 171, decrypt: 239, tlsServer: 0, tlsClient: 0, keygen: 10, cpuMicros: 7_500_000 };
  const mock = { sign: 759, decrypt: 506, tlsServer: 357, tlsClient: 356, keygen: 0 };

  it("adds the threads' counts and takes the CPU time from the main thread's file", () => {
    expect(addCounts([mock, main])).toEqual({
      counts: { sign: 930, decrypt: 745, tlsServer: 357, tlsClient: 356, keygen: 10 },
      cpuSeconds: 7.5,
    });
  });

  it("splits the CPU by thread when every thread wrote its own: the main thread's, the others' together", () => {
    const withThreads = addCounts([
      { ...main, threadCpuMicros: 4_000_000 },
      { ...mock, threadCpuMicros: 2_500_000 },
      { ...mock, threadCpuMicros: 500_000 },
    ]);
    expect(withThreads.threads).toEqual({ main: 4, workers: 3 });
    // a thread without its figure (not Linux): no split rather than a wrong one
    expect(addCounts([{ ...main, threadCpuMicros: 4_000_000 }, mock]).threads).toBeUndefined();
  });

  it('divides the operations, key generations weighed, by sign/s times cores, and prints the ratios', () => {
    const { counts } = addCounts([main, mock]);
    // 930 + 745 + 357 + 356 + 10 × 100 = 3388 signature-equivalents at 1000/s on 2 cores
    const f = cryptoFloor(counts, 1000, 2, 100);
    expect(f).toEqual({ ops: 3388, seconds: 1.694, signPerSecond: 1000, cores: 2 });
    expect(floorLine(f, 8.47, 15.246)).toBe(
      'crypto floor: 1.69 s (3388 private RSA ops at 1000 sign/s x 2 cores); wall/floor 5.0; cpu/floor 9.0',
    );
    // 15.246 CPU-s against 3.388 s of RSA on one core: 4.5 (= 9.0 ÷ 2 cores); 11.858 s beyond RSA over 2000 calls
    expect(beyondRsaLine(f, 15.246, 2000)).toBe(
      "  beyond RSA: cpu/rsa-cpu 4.5 (the RSA ops' own CPU 3.39 s on one core; cpu/floor = this x 2 cores, so " +
        'cpu/floor 2 is RSA and nothing else); CPU beyond RSA 11.86 s, 5.93 ms per HTTP call (2000 calls)',
    );
  });

  it("counts the run's HTTP calls from its results.json", () => {
    const results = {
      profiles: [{ traffic: { calls: { validate: 3, get: 2 } } }, { traffic: { calls: { token: 1 } } }],
    };
    expect(callsOf(JSON.stringify(results))).toBe(6);
    expect(callsOf('not json')).toBeUndefined();
    expect(callsOf('{"profiles":[]}')).toBeUndefined();
  });
});

describe('topFrames', () => {
  const frame = (id: number, functionName: string, url = '') => ({
    id,
    callFrame: { functionName, url, lineNumber: 9 },
  });
  const harness: CpuProfile = {
    nodes: [frame(1, '(root)'), frame(2, 'sign', 'node:internal/crypto/sig'), frame(3, '(idle)'), frame(4, '')],
    samples: [2, 2, 3, 4, 2],
    timeDeltas: [1000, 2000, 50_000, 500, 1000],
  };
  const mock: CpuProfile = {
    nodes: [frame(7, 'sign', 'node:internal/crypto/sig'), frame(8, 'parse', 'file:///w/node_modules/undici/x.js')],
    samples: [7, 8, 8],
    timeDeltas: [3000, 1500, 1500],
  };

  it('sums self time per function over the threads, largest first, without idle time', () => {
    expect(topFrames([harness, mock])).toEqual([
      { name: 'sign node:internal/crypto/sig:10', selfMs: 7 },
      { name: 'parse node_modules/undici/x.js:10', selfMs: 3 },
      { name: '(anonymous)', selfMs: 0.5 },
    ]);
    expect(topFrames([harness, mock], 1).map((f) => f.name)).toEqual(['sign node:internal/crypto/sig:10']);
  });
});
