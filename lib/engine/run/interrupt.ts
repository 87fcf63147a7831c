/**
 * SIGINT and SIGTERM during a run (npm run certify, npm run partner): the first stops the run (the caller writes
 * the reports marked INTERRUPTED with what was verified, exit 130 or 143, lib/engine/verdict.ts); a second one
 * ends the process at once, after `onSecond` (e.g. killing the processes the run started).
 */
export interface Interrupt {
  /** aborted on the first signal, its reason the signal's name ('SIGINT', 'SIGTERM') */
  signal: AbortSignal;
  /** the run has ended: a later signal no longer stops anything */
  done(): void;
}

export function onSignals(name: string, onSecond: () => void = () => undefined): Interrupt {
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals): void => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (controller.signal.aborted) {
      onSecond();
      process.exit(code);
    }
    process.stderr.write(`\n${name}: ${signal}: stopping; writing the reports with what was verified so far\n`);
    controller.abort(signal);
  };
  process.on('SIGINT', handler).on('SIGTERM', handler);
  return {
    signal: controller.signal,
    done: () => void process.off('SIGINT', handler).off('SIGTERM', handler),
  };
}
