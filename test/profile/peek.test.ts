/**
 * certify's first look at its profiles (lib/profile/peek.ts), which starts the mocks' worker thread before the
 * profiles are validated: only a guess, never an error, and never reading what the loader must read whole.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { namesEmbeddedMock } from '../../lib/profile/peek.ts';
import { tempDirs } from '../fixtures/tmp.ts';

const tmp = tempDirs('peek-');

it('names the embedded mock when one file is an object with `embedded` (JSONC), and guesses nothing else', () => {
  const dir = tmp();
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const embedded = file('e.jsonc', '// a comment\n{ "name": "e", "environment": "uat", "embedded": {}, }\n');
  const full = file('f.json', JSON.stringify({ name: 'f', target: { baseUrl: 'https://bank.test' } }));
  const nested = file('n.json', JSON.stringify({ name: 'n', run: { embedded: true } }));
  const broken = file('b.json', '[ "embedded"');
  expect(namesEmbeddedMock([embedded])).toBe(true);
  expect(namesEmbeddedMock([full, embedded])).toBe(true);
  expect(namesEmbeddedMock([full, nested, broken, join(dir, 'missing.json'), dir])).toBe(false);
});

it('leaves a pipe unread (a profile on /dev/stdin is the loader’s whole)', () => {
  const fifo = join(tmp(), 'fifo');
  execFileSync('mkfifo', [fifo]);
  // reading it would block forever: nobody writes to it
  expect(namesEmbeddedMock([fifo])).toBe(false);
});
