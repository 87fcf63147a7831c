/**
 * `npm run <script>` moves to the package root before it starts the script, and says in INIT_CWD where it was called
 * from. A command whose arguments are paths the user typed goes back there first, so that
 * `npm run verify-report -- reports/results.json` means the file beside the user, wherever they are.
 * Only when npm started this very script (an outer `npm test` sets INIT_CWD too, for its own folder).
 */
import { resolve } from 'node:path';
import { ROOT } from '../root.ts';

export function enterCallersFolder(script: string): void {
  const from = process.env.INIT_CWD;
  if (process.env.npm_lifecycle_event === script && from) process.chdir(from);
}

/**
 * A path the user typed, read from the folder they typed it in (INIT_CWD when npm started this very `script`, else
 * the working directory); one of `defaults` (the package's own files, e.g. the embedded mocks' profiles) stays at
 * the package root.
 */
export function callersPath(script: string, p: string, defaults: readonly string[]): string {
  const viaNpm = process.env.npm_lifecycle_event === script && process.env.INIT_CWD;
  return defaults.includes(p) ? resolve(ROOT, p) : resolve(viaNpm ? process.env.INIT_CWD! : process.cwd(), p);
}
