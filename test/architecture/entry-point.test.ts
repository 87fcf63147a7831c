/**
 * certify's entry point reads as its four steps (scripts/certify.ts `main`: parse, load, certify, report), each a
 * function of lib/cli, and ends the process in one place: read from the source text, so that a step that grows back
 * into the script (its output, its checks, an early exit) fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../lib/root.ts';

const source = readFileSync(join(ROOT, 'scripts', 'certify.ts'), 'utf8');

it("scripts/certify.ts is short, calls lib/cli's four steps in order and exits in one place", () => {
  expect(source.split('\n').length).toBeLessThanOrEqual(80);
  const steps = ['parseCommandLine(', 'loadForRun(', 'certifyProfiles(', 'reportRun('].map((s) =>
    source.indexOf(s, source.indexOf('async function main')),
  );
  expect(steps.every((at) => at > 0)).toBe(true);
  expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  expect(source.match(/process\.exit\(/g)).toHaveLength(1);
  // the modules a step needs are loaded by the step (lib/cli) or the start-up (scripts/startup.ts), not here
  expect(source).not.toMatch(/await import\(/);
});
