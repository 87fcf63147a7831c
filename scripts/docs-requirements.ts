/**
 * `npm run docs:requirements`: writes docs/requirements.md, the requirement → checks → files table, from the
 * catalogue, the suites, the partner judges and the mock's faults (lib/catalogue/requirements-table.ts). Run it
 * after adding a check, an id or a fault, or moving a file; the catalogue lint fails while the page is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentRequirementsPage } from './docs/requirements-page.ts';
import { ROOT } from '../lib/root.ts';

const path = join(ROOT, 'docs/requirements.md');
writeFileSync(path, currentRequirementsPage(ROOT));
process.stdout.write(`wrote docs/requirements.md\n`);
