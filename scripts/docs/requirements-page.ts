/** docs/requirements.md as it should read now: the script writes it, the catalogue lint compares it. */
import { requirements } from '../../lib/catalogue/index.ts';
import { requirementsTable } from '../../lib/catalogue/requirements-table.ts';
import { FAULTS } from '../../lib/mock/faults.ts';
import { allChecks } from '../../suites/index.ts';
import { checkSources, judgeSources } from './requirement-sources.ts';

export function currentRequirementsPage(root: string): string {
  const clientIds = requirements.filter((r) => r.applies.includes('client')).map((r) => r.id);
  const partnerIds = [...clientIds, ...requirements.filter((r) => !r.applies.includes('client')).map((r) => r.id)];
  return requirementsTable({
    requirements,
    checks: checkSources(root, allChecks),
    judges: judgeSources(root, partnerIds),
    faults: FAULTS,
  });
}
