/**
 * Turns a profile file into a runnable target: an embedded profile starts the mock bank in-process and takes the
 * mock's own description of itself; a full profile is used as it is. Nothing here sends a check's traffic.
 */
import { FullProfile, type AnyProfile, type EmbeddedProfile, type FullProfileInput } from '../../profile/schema.ts';
import { loadProfile } from '../../profile/load.ts';
import { readFile } from 'node:fs/promises';
import { openApiFile, openApiOf } from '../../profile/openapi.ts';
import { loadOpenApi } from '../../openapi/load.ts';
import { publishedDocument } from '../../mock/openapi-document.ts';
import type { OpenApiModel } from '../../openapi/types.ts';
import type { MockThread } from '../../mock/server/thread.ts';
import { testPki } from '../../pki/index.ts';
import type { MockBank } from '../../mock/types.ts';
import type { TargetFingerprint } from '../results.ts';
import type { HarnessRuntime } from './runtime.ts';
import { defaultRunOptions, type RunOptions } from './runner.ts';
import type { Waits } from '../../waits.ts';

export interface PreparedTarget {
  runtime: HarnessRuntime;
  fingerprint: TargetFingerprint;
  /** the embedded mock, when one was started in-process (in-process controls for selftests only) */
  mock?: MockBank;
  /** what went wrong with the target's machinery during the run (e.g. the mock's thread stopped) */
  problems(): string[];
  close(): Promise<void>;
}

export function isEmbedded(p: AnyProfile): p is EmbeddedProfile {
  return 'embedded' in p;
}

export interface PrepareOptions {
  /** mock faults switched on besides the profile's own */
  extraFaults?: string[];
  /**
   * start the embedded mock on this worker thread (certify: the bank's work runs on the second core); the
   * prepared target then has no in-process `mock` controls
   */
  mockThread?: MockThread;
  /** a test's clock of the run's deliberate waits (RunOptions.waits), the in-process mock's gateway's too */
  waits?: Waits;
}

/** Starts what an embedded profile needs; validates a full profile. Throws ProfileError on a broken profile. */
export async function prepare(
  profile: AnyProfile,
  options: Partial<RunOptions> = {},
  how: PrepareOptions = {},
): Promise<PreparedTarget> {
  if (how.waits) options = { ...options, waits: how.waits };
  // the document loaded with the profile (lib/profile/openapi.ts caches it): loaded here too for a profile made in code
  const openapi = await openApiOf(profile, profile.name);
  if (isEmbedded(profile)) return prepareEmbedded(profile, options, how, openapi);
  const runtime: HarnessRuntime = {
    profile,
    options: { ...defaultRunOptions, ...options, embedded: false },
    faults: [],
    ...(openapi ? { openapi } : {}),
  };
  const fingerprint: TargetFingerprint = {
    baseUrl: profile.target.baseUrl,
    ...(profile.target.oauthBaseUrl ? { oauthBaseUrl: profile.target.oauthBaseUrl } : {}),
    embeddedMock: false,
    faults: [],
  };
  // the server certificate's fingerprint comes from the tls-handshake prerequisite (lib/engine/session/prerequisites.ts)
  return { runtime, fingerprint, problems: () => [], close: async () => {} };
}

/** starts the mock an embedded profile names (on the worker thread, or in-process) and takes its own description */
async function prepareEmbedded(
  profile: EmbeddedProfile,
  options: Partial<RunOptions>,
  how: PrepareOptions,
  openapi: OpenApiModel | undefined,
): Promise<PreparedTarget> {
  const faults = [...profile.embedded.faults, ...(how.extraFaults ?? [])];
  const pki = await testPki();
  const mockOptions = {
    mode: profile.environment,
    pki,
    faults,
    ...(profile.embedded.lenient === true ? { lenient: true } : {}),
    ...(profile.embedded.latencyMs ? { latencyMs: profile.embedded.latencyMs } : {}),
    ...(profile.embedded.clockLatencyMs ? { clockLatencyMs: profile.embedded.clockLatencyMs } : {}),
    ...(profile.embedded.oauth ? { oauth: profile.embedded.oauth } : {}),
    ...(profile.embedded.backlog !== undefined ? { backlog: profile.embedded.backlog } : {}),
    ...(profile.embedded.maxConnections !== undefined ? { maxConnections: profile.embedded.maxConnections } : {}),
    ...(profile.embedded.connectionClose === true ? { connectionClose: true } : {}),
    ...(profile.embedded.connectRoundTrip === true ? { connectRoundTrip: true } : {}),
    ...(profile.embedded.abortiveClose === true ? { abortiveClose: true } : {}),
    ...(profile.embedded.quotaCounts ? { quotaCounts: profile.embedded.quotaCounts } : {}),
    ...(profile.embedded.oneClient === true ? { oneClient: true } : {}),
    ...(profile.embedded.quotaWindow ? { quotaWindow: profile.embedded.quotaWindow } : {}),
    ...(profile.embedded.throttle ? { throttle: profile.embedded.throttle } : {}),
    // the run's data seed (--seed): the mock's customers are the same every run of it
    ...(profile.run.dataSeed !== undefined ? { seed: profile.run.dataSeed } : {}),
  };
  let mock: MockBank | undefined;
  let described: FullProfileInput;
  let close: () => Promise<void>;
  let problems = (): string[] => [];
  if (how.mockThread) {
    const thread = how.mockThread;
    const remote = await thread.start(mockOptions, profile.name);
    described = remote.profile;
    close = () => remote.close();
    problems = () => [...thread.problems];
  } else {
    // loaded here, not at the top: a run whose mocks live on their own thread never loads the mock on this one
    const { startMockBank } = await import('../../mock/index.ts');
    // the run's clock of deliberate waits, when a test hands one in: the mock's gateway and spike arrest read it too
    const inProcess = await startMockBank({ ...mockOptions, ...(options.waits ? { waits: options.waits } : {}) });
    mock = inProcess;
    described = inProcess.profile(profile.name);
    close = () => inProcess.close();
  }
  try {
    const full = FullProfile.parse({
      ...described,
      // the mock's document (embedded.openapi): the checks of the openapi suite apply as to a full profile's
      ...(profile.embedded.openapi ? { target: { ...described.target, openapi: profile.embedded.openapi } } : {}),
      name: profile.name,
      description: profile.description ?? described.description,
      // the mock's own limits (e.g. its body size limit) unless the embedded profile states its own
      contract: { ...described.contract, ...profile.contract },
      knownDeviations: profile.knownDeviations,
      ...(profile.waivers ? { waivers: profile.waivers } : {}),
      run: profile.run,
    });
    const document = openapi ? await publishedModel(profile, openapi, faults) : undefined;
    const runtime: HarnessRuntime = {
      profile: full,
      options: { ...defaultRunOptions, ...options, embedded: true },
      faults,
      ...(document ? { openapi: document } : {}),
    };
    return {
      runtime,
      ...(mock ? { mock } : {}),
      fingerprint: {
        baseUrl: full.target.baseUrl,
        ...(full.target.oauthBaseUrl ? { oauthBaseUrl: full.target.oauthBaseUrl } : {}),
        ...(profile.environment === 'uat' ? { serverCertificateSha256: pki.server.sha256 } : {}),
        embeddedMock: true,
        faults,
      },
      problems,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

export async function prepareFile(path: string, options: Partial<RunOptions> = {}): Promise<PreparedTarget> {
  return prepare(await loadProfile(path), options);
}

/** the mock's document as the mock publishes it under its faults (lib/mock/openapi-document.ts): the model of that text */
async function publishedModel(
  profile: EmbeddedProfile,
  model: OpenApiModel,
  faults: readonly string[],
): Promise<OpenApiModel> {
  const file = openApiFile(profile);
  const text = file ? publishedDocument(await readFile(file, 'utf8'), faults) : undefined;
  if (text === undefined) return model;
  return loadOpenApi(model.source, process.cwd(), { text, requireOperations: profile.embedded.oauth?.noApi !== true });
}
