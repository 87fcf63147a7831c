/**
 * Turns a profile file into a runnable target: an embedded profile starts the mock bank in-process and takes the
 * mock's own description of itself; a full profile is used as it is. Nothing here sends a check's traffic.
 */
import { FullProfile, type AnyProfile, type EmbeddedProfile } from '../profile/schema.ts';
import { loadProfile } from '../profile/load.ts';
import { startMockBank } from '../mock/index.ts';
import { testPki } from '../pki/index.ts';
import { inspectServerCertificate } from '../tls/probe.ts';
import type { MockBank } from '../mock/types.ts';
import type { TargetFingerprint } from './results.ts';
import type { HarnessRuntime } from './runtime.ts';
import { defaultRunOptions, type RunOptions } from './runner.ts';

export interface PreparedTarget {
  runtime: HarnessRuntime;
  fingerprint: TargetFingerprint;
  /** the embedded mock, when one was started (in-process controls for selftests only) */
  mock?: MockBank;
  close(): Promise<void>;
}

export function isEmbedded(p: AnyProfile): p is EmbeddedProfile {
  return 'embedded' in p;
}

/** Starts what an embedded profile needs; validates a full profile. Throws ProfileError on a broken profile. */
export async function prepare(profile: AnyProfile, options: Partial<RunOptions> = {}, extraFaults: string[] = []): Promise<PreparedTarget> {
  if (isEmbedded(profile)) {
    const faults = [...profile.embedded.faults, ...extraFaults];
    const mock = await startMockBank({ mode: profile.environment, pki: await testPki(), faults });
    try {
      const described = mock.profile(profile.name);
      const full = FullProfile.parse({
        ...described,
        name: profile.name,
        description: profile.description ?? described.description,
        contract: profile.contract,
        knownDeviations: profile.knownDeviations,
        run: profile.run,
      });
      const runtime: HarnessRuntime = { profile: full, options: { ...defaultRunOptions, ...options, embedded: true }, faults };
      const pki = await testPki();
      return {
        runtime,
        mock,
        fingerprint: {
          baseUrl: full.target.baseUrl,
          ...(full.target.oauthBaseUrl ? { oauthBaseUrl: full.target.oauthBaseUrl } : {}),
          ...(profile.environment === 'uat' ? { serverCertificateSha256: pki.server.sha256 } : {}),
          embeddedMock: true,
          faults,
        },
        close: () => mock.close(),
      };
    } catch (e) {
      await mock.close();
      throw e;
    }
  }
  const runtime: HarnessRuntime = { profile, options: { ...defaultRunOptions, ...options, embedded: false }, faults: [] };
  const fingerprint: TargetFingerprint = {
    baseUrl: profile.target.baseUrl,
    ...(profile.target.oauthBaseUrl ? { oauthBaseUrl: profile.target.oauthBaseUrl } : {}),
    embeddedMock: false,
    faults: [],
  };
  const url = new URL(profile.target.baseUrl);
  if (url.protocol === 'https:' && profile.tls) {
    try {
      const cert = await inspectServerCertificate({
        host: url.hostname,
        port: Number(url.port || 443),
        ca: profile.tls.caCertificate,
        ...(profile.tls.serverName ? { servername: profile.tls.serverName } : {}),
      });
      fingerprint.serverCertificateSha256 = cert.sha256;
    } catch {
      // unreachable targets are reported by the checks themselves; the fingerprint just lacks the certificate
    }
  }
  return { runtime, fingerprint, close: async () => {} };
}

export async function prepareFile(path: string, options: Partial<RunOptions> = {}): Promise<PreparedTarget> {
  return prepare(await loadProfile(path), options);
}
