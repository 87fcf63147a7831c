#!/usr/bin/env node
// `certify` (package.json "bin" and `npm run certify`): runs scripts/certify.ts from its bundle (scripts/bin/bundle.mjs),
// or from the sources through tsx when no bundle can be built.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// V8 optimizes a function only once it is 8 times as warm as by default (its interrupt budget, 66 KB of bytecode by
// default): a run of a few seconds calls most code too few times to repay TurboFan's compiling (docs/performance.md
// "Start-up"). Process-wide, so the mocks' worker thread too; set before any of the run's modules is loaded.
setFlagsFromString('--interrupt-budget=540672');

const { ROOT, bundled } = await import('./bundle.mjs');
const dir = await bundled();
if (dir) {
  await import(pathToFileURL(join(dir, 'certify.mjs')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(ROOT, 'scripts', 'certify.ts')).href);
}
