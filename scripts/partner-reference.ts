/**
 * npx tsx scripts/partner-reference.ts: writes docs/partner.md section 4's reference (between its markers) from
 * lib/partner/reference.ts; test/partner/reference.test.ts fails when the two differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceMarkdown } from '../lib/partner/reference.ts';
import { ROOT } from '../lib/root.ts';

const START =
  '<!-- reference:start (generated from lib/partner/reference.ts: npx tsx scripts/partner-reference.ts) -->';
const END = '<!-- reference:end -->';
const file = join(ROOT, 'docs', 'partner.md');
const doc = readFileSync(file, 'utf8');
const from = doc.indexOf(START);
const to = doc.indexOf(END);
if (from < 0 || to < from) throw new Error(`${file}: the reference markers are missing`);
writeFileSync(file, `${doc.slice(0, from + START.length)}\n\n${referenceMarkdown()}\n\n${doc.slice(to)}`);
process.stdout.write(`${file}: reference written\n`);
