/** Command-line errors. `CLI_USAGE` is a bad command line: the caller exits 2 before any traffic. */
export class CliError extends Error {
  constructor(
    readonly code: 'CLI_USAGE',
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
export const usage = (message: string): CliError => new CliError('CLI_USAGE', message);
