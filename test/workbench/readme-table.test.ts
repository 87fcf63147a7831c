/**
 * README "Reviewing by hand", its jwt_tool -> workbench table: every option the workbench column names is one the
 * commands' help documents (jose's or send's), and every `jose` command it names exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';
import { COMMANDS } from '../../lib/workbench/command/args.ts';
import { helpText } from '../../lib/workbench/command/help.ts';
import { SEND_HELP } from '../../lib/workbench/send-args.ts';

function tableRows(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Reviewing by hand\n')) ?? '';
  const start = section.indexOf('| jwt_tool');
  return section
    .slice(start)
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2);
}

describe('README: the jwt_tool -> workbench table', () => {
  it('has a row per move, each naming a jose or send command', () => {
    const rows = tableRows();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) expect(row.split('|')[2]).toMatch(/`(jose|send) /);
  });

  it('names only commands and options the help documents', () => {
    const workbench = tableRows()
      .map((r) => r.split('|').slice(2).join('|'))
      .join('\n');
    const help = `${helpText()}\n${SEND_HELP}`;
    const options = [...new Set(workbench.match(/--[a-z][a-z0-9-]*/g))];
    expect(options.filter((o) => !new RegExp(`${o}(?![a-z-])`).test(help))).toEqual([]);
    const commands = [...new Set([...workbench.matchAll(/`jose (\w+)/g)].map((m) => m[1]))];
    expect(commands.filter((c) => !(COMMANDS as readonly string[]).includes(c!))).toEqual([]);
  });
});
