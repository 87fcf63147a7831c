import { ConfigurationError } from '../errors.ts';

/** Command-line errors. `CLI_USAGE` is a bad command line: the caller exits 2 (its exitCode) before any traffic. */
export class CliError extends ConfigurationError {
  constructor(
    override readonly code: 'CLI_USAGE',
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
export const usage = (message: string): CliError => new CliError('CLI_USAGE', message);
