/**
 * One base for the harness's own errors, in the primitives layer (below all who throw them: transport, the mock,
 * the engine, the suites, the commands). Every error the harness throws on purpose is a HarnessError with a stable
 * `code` (each class narrows it to its own union) and, when reaching a command's top level ends the command, the
 * `exitCode` it ends with.
 *
 *   HarnessError                 code; exitCode undefined (not a way a command ends by itself)
 *   ├─ ConfigurationError        bad input to the harness (profile, command line, file, key): one line, exit 2
 *   │    ProfileError, CliError, PartnerConfigError, OutDirError, SignError, UnknownFaultError
 *   ├─ check outcomes            CheckFailed, Inconclusive (Blocked, Throttled), NotRun, NotApplicable
 *   ├─ what a target did         TransportError, TlsProbeError, OAuthError, OpenRefusal, PrerequisiteFailed
 *   │                            (RuleBroken), QuotaAnswered
 *   └─ files and readers         ResultsError (a file that does not read: 2; results written invalid: 1); the mock's
 *                                readers: JsonRefused, SecondSpelling
 *
 * `instanceof HarnessError` tells the harness's errors from anything a library or Node threw; test/architecture/
 * errors.test.ts keeps every exported error class under lib/ (and those of suites/ and scripts/) below this base.
 */

/** the exit status of a configuration error: the command stopped before any traffic */
export const EXIT_CONFIGURATION = 2;

export abstract class HarnessError extends Error {
  /** a stable code, never a sentence: each subclass narrows it to its own union */
  abstract readonly code: string;
  /** the status a command exits with when this error reaches its top level; undefined: the command decides */
  readonly exitCode: number | undefined = undefined;

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // a subclass that sets its own name (survives a bundler's renaming) overrides this default
    this.name = new.target.name;
  }
}

/** Bad input to the harness: the command names the field, file or cause in one line and exits 2. */
export abstract class ConfigurationError extends HarnessError {
  override readonly exitCode: number = EXIT_CONFIGURATION;
}
