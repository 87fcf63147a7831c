/**
 * `certify --list`: the requirement matrix and what a run would do per profile, without sending traffic to
 * any target (an embedded profile starts the mock in-process to learn its description, then stops it).
 */
import { requirements } from '../../catalogue/index.ts';
import { loadProfile } from '../../profile/load.ts';
import type { FullProfile } from '../../profile/schema.ts';
import type { CheckDefinition } from '../check.ts';
import { isEmbedded, prepare } from './prepare.ts';
import { defaultRunOptions, type RunOptions } from './runner.ts';
import { whyNotRunnable } from './runnable.ts';
import { selects, type Selection } from './select.ts';
import { missingNegativeCertificates } from '../session/negative-certs.ts';

export async function listRun(
  checks: readonly CheckDefinition[],
  profiles: string[],
  selection: Selection,
  opts: Partial<RunOptions>,
): Promise<string> {
  const lines: string[] = ['Requirement matrix (id, level, where it applies, checks):'];
  for (const r of requirements) {
    const named = checks.filter((c) => c.requirements.includes(r.id));
    const shown = named
      .map(
        (c) =>
          `${c.id}${c.partial?.includes(r.id) ? ' (in part)' : ''}${selects(selection, c) ? '' : ' (filtered out)'}`,
      )
      .join(', ');
    lines.push(
      `  ${r.id.padEnd(9)} ${r.level.padEnd(6)} ${r.applies.join('/').padEnd(12)} ${shown || '(no check: client-side, partner certification)'}`,
    );
  }
  for (const path of profiles) {
    const p = await loadProfile(path);
    let full: FullProfile;
    let embedded = false;
    if (isEmbedded(p)) {
      const prepared = await prepare(p, opts);
      full = prepared.runtime.profile;
      embedded = true;
      await prepared.close();
    } else full = p;
    const o: RunOptions = { ...defaultRunOptions, ...opts, embedded };
    lines.push(
      '',
      `Profile ${full.name} (${full.environment}${embedded ? ', embedded mock' : `, ${full.target.baseUrl}`}):`,
    );
    let would = 0;
    for (const c of checks.filter((x) => selects(selection, x))) {
      const pre = whyNotRunnable(c, full, o);
      if (!pre) would++;
      lines.push(
        `  ${pre ? pre.verdict.padEnd(14) : 'would run'.padEnd(14)} ${c.id} [${c.requirements.join(' ')}]${pre ? `: ${pre.reason}` : ''}`,
      );
    }
    const missing = missingNegativeCertificates(full);
    if (missing.length)
      lines.push(
        `  missing negative certificates: ${missing.map((n) => `tls.negativeCertificates.${n}`).join(', ')}: the checks that use them will be not run`,
      );
    lines.push(`  ${would} ${would === 1 ? 'check' : 'checks'} would run`);
  }
  return lines.join('\n') + '\n';
}
