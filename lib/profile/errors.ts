/** Profile loading errors: one class, a stable code, and every issue as `<field.path>: <message>`. */
import { ConfigurationError } from '../errors.ts';
export type ProfileErrorCode =
  'PROFILE_NOT_FOUND' | 'PROFILE_SYNTAX' | 'PROFILE_REFERENCE' | 'PROFILE_INVALID' | 'PROFILE_OPENAPI';

export class ProfileError extends ConfigurationError {
  constructor(
    public override readonly code: ProfileErrorCode,
    /** where the profile came from (a path, or a label for in-memory text) */
    public readonly source: string,
    /** one line each; never holds a resolved secret */
    public readonly issues: string[],
  ) {
    super(
      `${code} ${source}: ${issues.length === 1 ? issues[0] : `${issues.length} issues\n  ${issues.join('\n  ')}`}`,
    );
    this.name = 'ProfileError';
  }
}

/** `clients.code.clientSecret`, `customers[0].accountId`; the root is `(root)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += (out ? '.' : '') + String(p);
  }
  return out || '(root)';
}
