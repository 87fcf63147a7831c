/**
 * Everything about a run that can be checked without sending a byte, checked before the PKI is generated or any
 * mock started: each profile loads and validates (its issues printed once), its keys and certificates read, and a
 * manual consent has a person at a terminal to give it. A finding here is a configuration error (exit 2).
 */
import { loadProfile } from '../../profile/load.ts';
import { ProfileError } from '../../profile/errors.ts';
import { keyIssues } from '../../profile/keys.ts';
import type { AnyProfile } from '../../profile/schema.ts';

export interface LoadedProfile {
  path: string;
  profile: AnyProfile;
}

export interface LoadOptions {
  /** a person can read a prompt and open a URL (stdin and stderr are terminals) */
  interactive: boolean;
}

export interface RunnableProfiles {
  loaded: LoadedProfile[];
  /** one entry per broken profile: the file, then one indented line per issue */
  errors: string[];
}

function describeError(path: string, e: ProfileError): string {
  return `${path}: ${e.code === 'PROFILE_NOT_FOUND' ? 'cannot be loaded' : 'is not a valid profile'}\n  ${e.issues.join('\n  ')}`;
}

function runIssues(profile: AnyProfile, opts: LoadOptions): string[] {
  const issues = keyIssues(profile);
  if ('target' in profile && profile.target.consent.mode === 'manual' && !opts.interactive)
    issues.push(
      'target.consent.mode: "manual" needs a person at a terminal, and this run has none (stdin or stderr is not a terminal): use "script" consent in CI',
    );
  return issues;
}

/** the profiles loaded and validated, each one ready to run or named with its issues (preflight: no traffic yet) */
export async function loadRunnableProfiles(paths: readonly string[], opts: LoadOptions): Promise<RunnableProfiles> {
  const loaded: LoadedProfile[] = [];
  const errors: string[] = [];
  for (const path of paths) {
    let profile: AnyProfile;
    try {
      profile = await loadProfile(path);
    } catch (e) {
      if (e instanceof ProfileError) {
        errors.push(describeError(path, e));
        continue;
      }
      throw e;
    }
    const issues = runIssues(profile, opts);
    if (issues.length) errors.push(`${path}: cannot be run\n  ${issues.join('\n  ')}`);
    else loaded.push({ path, profile });
  }
  return { loaded, errors };
}
