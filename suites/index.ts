/** Every suite, as data: the fault matrix and the catalogue lint read them without Vitest. */
import type { SuiteDefinition } from '../lib/engine/check.ts';
import { suite as jose } from './jose/checks.ts';
import { suite as tokens } from './tokens/checks.ts';
import { suite as transfers } from './transfers/checks.ts';
import { suite as errors } from './errors/checks.ts';
import { suite as tls } from './tls/checks.ts';
import { suite as quota } from './quota/checks.ts';
import { suite as conventions } from './conventions/checks.ts';
import { suite as masking } from './masking/checks.ts';
import { suite as race } from './race/checks.ts';
import { suite as openapi } from './openapi/checks.ts';

export const suites: readonly SuiteDefinition[] = [
  jose,
  tokens,
  transfers,
  errors,
  tls,
  quota,
  conventions,
  masking,
  race,
  openapi,
];
export const allChecks = suites.flatMap((s) => s.checks);
