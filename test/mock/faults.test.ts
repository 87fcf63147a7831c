/**
 * The fault catalogue: well formed, covers every server-side requirement id, and each fault really changes
 * the mock's behaviour (a probe sees the faulty behaviour with the fault on, and not with it off).
 */
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirements } from '../../lib/catalogue/index.ts';
import { publicKeyFromPem } from '../../lib/jose/index.ts';
import { FAULTS, startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { Environment } from '../../lib/profile/schema.ts';
import { advance } from './helpers.ts';
import type { Probe, X } from './probe-kit.ts';

describe('fault catalogue', () => {
  it('has unique kebab-case ids, known requirement ids and matching environments', () => {
    const ids = FAULTS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of FAULTS) {
      expect(f.id).toMatch(/^[a-z0-9]+(-[a-z0-9_]+)*$/);
      expect(f.requirements.length, f.id).toBeGreaterThan(0);
      expect(f.environments.length, f.id).toBeGreaterThan(0);
      for (const id of f.requirements) {
        const r = requirements.find((x) => x.id === id);
        expect(r, `${f.id} names ${id}`).toBeDefined();
        for (const env of f.environments) expect(r!.applies, `${f.id}: ${id} in ${env}`).toContain(env);
      }
    }
  });

  it('covers every requirement that applies to a sandbox or UAT target', () => {
    const covered = new Set(FAULTS.flatMap((f) => f.requirements));
    const uncovered = requirements
      .filter((r) => r.applies.some((a) => a !== 'client') && !covered.has(r.id))
      .map((r) => r.id);
    expect(uncovered).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// probes: every file test/mock/probes-*.ts exports PROBES (fault id -> probe, true when the faulty behaviour is seen)

const PROBE_FILES = readdirSync(import.meta.dirname)
  .filter((f) => /^probes-[a-z0-9-]+\.ts$/.test(f))
  .sort();
const PROBES: Record<string, Probe> = {};
for (const file of PROBE_FILES) {
  // the file's full path: a template with only a variable after ./ is one vite warns of (it cannot list the files)
  const mod = (await import(/* @vite-ignore */ join(import.meta.dirname, file))) as { PROBES: Record<string, Probe> };
  for (const [id, probe] of Object.entries(mod.PROBES)) {
    if (id in PROBES) throw new Error(`fault ${id} has a probe in two files (the second: ${file})`);
    PROBES[id] = probe;
  }
}

/** faults of environment "all" that are probed in UAT too (the rest of them only in sandbox, for speed) */
const ALSO_IN_UAT = new Set([
  'token-response-sealed',
  // the renamed member inside the sealed payload (OAS-03 judges the opened JSON in UAT)
  'get-member-renamed',
  'mask-echo-clear-id',
  'bola',
  'malformed-json-500',
  'error-status-number',
  'code-token-any-account',
  'token-wrong-secret-accepted',
  'empty-body-accepted',
]);

function plan(env: Environment): string[] {
  return FAULTS.filter(
    (f) => f.environments.includes(env) && (env === 'sandbox' || f.environments.length === 1 || ALSO_IN_UAT.has(f.id)),
  ).map((f) => f.id);
}

it('every fault has a probe, and every probe names a fault', () => {
  expect(FAULTS.map((f) => f.id).filter((id) => !(id in PROBES))).toEqual([]);
  expect(Object.keys(PROBES).filter((id) => !FAULTS.some((f) => f.id === id))).toEqual([]);
});

for (const env of ['sandbox', 'uat'] as const) {
  describe(`fault effects (${env})`, () => {
    const x = {} as X;
    let jwks: http.Server;
    beforeAll(async () => {
      x.pki = await testPki();
      x.mock = await startMockBank({ mode: env, pki: x.pki });
      x.p = x.mock.profile();
      const jwk = { ...(await exportJWK(publicKeyFromPem(x.pki.attacker.publicKeyPem))), alg: 'RS256', use: 'sig' };
      jwks = http.createServer((_req, res) => res.end(JSON.stringify({ keys: [jwk] })));
      await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
      x.jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    });
    afterAll(async () => {
      await x.mock.close();
      await new Promise((r) => jwks.close(r));
    });

    for (const id of plan(env)) {
      it(id, async () => {
        const probe = PROBES[id]!;
        x.mock.faults.set([]);
        await advance(x.p, 3601); // fresh quota windows
        expect(await probe(x), `${id} without the fault`).toBe(false);
        x.mock.faults.set([id]);
        try {
          await advance(x.p, 3601);
          expect(await probe(x), `${id} with the fault`).toBe(true);
        } finally {
          x.mock.faults.set([]);
        }
      });
    }
  });
}
