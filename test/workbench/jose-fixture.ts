/**
 * The workbench tests' world: a full UAT profile of the mock bank (its keys the run-time test PKI's, written inline,
 * the bank's API private key too), in a temporary folder, and runJose run in-process with its output captured.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki, type TestPki } from '../../lib/pki/index.ts';
import { runJose } from '../../lib/workbench/jose-cli.ts';
import type { tempDirs } from '../fixtures/tmp.ts';

export interface Ran {
  code: number;
  out: string;
  err: string;
}

export interface World {
  pki: TestPki;
  dir: string;
  profile: string;
  /** the profile without bank.apiPrivateKey */
  profileNoBankKey: string;
  clientSecrets: string[];
  /** a file in the world's folder with this text */
  file(name: string, text: string): string;
  jose(args: string[], stdin?: string): Promise<Ran>;
}

export async function makeWorld(tempDir: ReturnType<typeof tempDirs>): Promise<World> {
  const pki = await testPki();
  const mock = await startMockBank({ mode: 'uat', pki, port: 0 });
  const described = mock.profile('workbench-test');
  await mock.close();
  const dir = tempDir();
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  const profile = file(
    'profile.json',
    JSON.stringify({ ...described, bank: { ...described.bank, apiPrivateKey: pki.bankApi.privateKeyPem } }),
  );
  const profileNoBankKey = file('profile-no-bank-key.json', JSON.stringify(described));
  const clients = described.clients;
  const clientSecrets = [clients.code, clients.partner, clients.internal].flatMap((c) => (c ? [c.clientSecret] : []));
  const jose = async (args: string[], stdin = ''): Promise<Ran> => {
    let out = '';
    let err = '';
    const code = await runJose(args, {
      stdin: Readable.from([Buffer.from(stdin)]),
      out: (t) => (out += t),
      err: (t) => (err += t),
    });
    return { code, out, err };
  };
  return { pki, dir, profile, profileNoBankKey, clientSecrets, file, jose };
}

export const DOC = { beneficiary_id: 'BEN-0001', amount: { value: '150.00', currency: 'AED' }, purpose_code: 'FAM' };
