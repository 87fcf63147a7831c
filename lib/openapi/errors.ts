import { ConfigurationError } from '../errors.ts';

/** A document the harness cannot use: names the file and where in it (a JSON pointer, a line), never a stack. */
export class OpenApiError extends ConfigurationError {
  readonly code = 'OPENAPI_DOCUMENT' as const;

  constructor(
    /** the file as the profile names it */
    readonly file: string,
    /** `line 12, column 3`, `/paths/~1transfers/post`, or '' when the whole file is at fault */
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${file}${where ? ` ${where}` : ''}: ${problem}`);
    this.name = 'OpenApiError';
  }
}

/** RFC 6901: one reference token */
export function escapeToken(t: string | number): string {
  return String(t).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(path: readonly (string | number)[]): string {
  return path.map((t) => `/${escapeToken(t)}`).join('');
}
