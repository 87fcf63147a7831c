/**
 * `npm run <script>` moves to the package root before it starts the script, and says in INIT_CWD where it was called
 * from. A command whose arguments are paths the user typed goes back there first, so that
 * `npm run verify-report -- reports/results.json` means the file beside the user, wherever they are.
 * Only when npm started this very script (an outer `npm test` sets INIT_CWD too, for its own folder).
 */
export function enterCallersFolder(script: string): void {
  const from = process.env.INIT_CWD;
  if (process.env.npm_lifecycle_event === script && from) process.chdir(from);
}
