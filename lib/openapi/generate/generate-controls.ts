/**
 * The valid documents of the input generator (generate.ts), the controls, all made from the base's own members: the
 * base; the base without each optional member it has; each documented enum value; an optional member's strings at
 * their documented length bounds and numbers at their inclusive bounds. Each is checked valid by
 * the schema validator; a candidate it finds invalid is not a control and is left out. Pure.
 */
import { applySteps, memberName, type Step } from './generate-doc.ts';
import type { GeneratedInput, Walk } from './generate-types.ts';
import { typesOf } from './generate-values.ts';

/** enum values tried as controls per member, at most */
const ENUM_CONTROLS = 4;

function variantsOf(w: Walk, m: Walk['members'][number]): { label: string; steps: Step[] }[] {
  const { schema: s, path, prefix } = m;
  const member = memberName(path);
  const at = (label: string, value: unknown): { label: string; steps: Step[] } => ({
    label: `${member} ${label}`,
    steps: [...prefix, { path, value }],
  });
  const out: { label: string; steps: Step[] }[] = [];
  // only members of the base: a value the generator made up for an absent member (an identifier the bank wants
  // masked, say) may break the bank's rules without the document saying so
  if (prefix.length > 0) return out;
  if (path.length > 0 && !m.required) out.push({ label: `without ${member}`, steps: [{ path, remove: true }] });
  const cur = applySteps(w.base, prefix);
  const value = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], cur);
  const text = typeof value === 'string' ? value : 'a';
  if (Array.isArray(s.enum))
    for (const e of (s.enum as unknown[]).filter((e) => e !== value).slice(0, ENUM_CONTROLS))
      out.push(at(`${JSON.stringify(e)} (an enum value)`, e));
  // bounds only on optional members: a required one (an identifier, the amount) carries the bank's own rules
  // (a beneficiary of the customer's, funds), which a value at a documented bound may break without being malformed
  if (m.required) return out;
  if (typeof s.maxLength === 'number' && typesOf(s)?.includes('string'))
    out.push(
      at(`at its maxLength (${s.maxLength})`, text.padEnd(s.maxLength, text.at(-1) ?? 'a').slice(0, s.maxLength)),
    );
  if (typeof s.minLength === 'number' && s.minLength > 0 && typesOf(s)?.includes('string'))
    out.push(
      at(`at its minLength (${s.minLength})`, text.padEnd(s.minLength, text.at(-1) ?? 'a').slice(0, s.minLength)),
    );
  for (const k of ['minimum', 'maximum'] as const)
    if (typeof s[k] === 'number') out.push(at(`at its ${k} (${String(s[k])})`, s[k]));
  return out;
}

/** the controls: the base first, then every variant the validator finds valid, each once */
export function controlsOf(w: Walk): GeneratedInput[] {
  const out: GeneratedInput[] = [{ kind: 'valid', body: w.base, label: 'the base document', classes: [] }];
  const seen = new Set([JSON.stringify(w.base)]);
  for (const m of w.members)
    for (const { label, steps } of variantsOf(w, m)) {
      const body = applySteps(w.base, steps);
      const key = JSON.stringify(body);
      if (seen.has(key) || w.v.violations(body).length > 0) continue;
      seen.add(key);
      out.push({ kind: 'valid', body, label, classes: [] });
    }
  return out;
}
