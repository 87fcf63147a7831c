#!/usr/bin/env node
// `npm run send`: runs scripts/send.ts from certify's bundle (scripts/bin/bundle.mjs), or from the sources through
// tsx when no bundle can be built. A start of a few tenths of a second: the reviewer runs dozens of them.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { ROOT, bundled } = await import('./bundle.mjs');
const dir = await bundled('send');
if (dir) {
  await import(pathToFileURL(join(dir, 'send.mjs')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(ROOT, 'scripts', 'send.ts')).href);
}
