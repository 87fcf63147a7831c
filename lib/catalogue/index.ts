/**
 * The requirement catalogue as data (lib/catalogue/requirements.json, derived from the
 * specification's rules; docs/requirements.md maps each id to its checks). Severity and applicability come from here,
 * never from a check's code.
 */
import { z } from 'zod';
import raw from './requirements.json' with { type: 'json' };

export const Level = z.enum(['MUST', 'SHOULD']);
export type Level = z.infer<typeof Level>;
/** Where a rule applies: sandbox target, UAT/production target, or the client side (partner certification). */
export const Applicability = z.enum(['sandbox', 'uat', 'client']);
export type Applicability = z.infer<typeof Applicability>;

export const Requirement = z.object({
  id: z.string().regex(/^[A-Z]+-\d{2}[a-z]?$/),
  group: z.string(),
  title: z.string().min(1),
  source: z.string().min(1),
  level: Level,
  applies: z.array(Applicability).min(1),
});
export type Requirement = z.infer<typeof Requirement>;

const Catalogue = z.object({
  version: z.string(),
  source: z.string(),
  requirements: z.array(Requirement).min(1),
});

const parsed = Catalogue.parse(raw);
export const catalogueVersion: string = parsed.version;
export const requirements: readonly Requirement[] = parsed.requirements;
const byId = new Map(requirements.map((r) => [r.id, r] as const));

export function requirement(id: string): Requirement {
  const r = byId.get(id);
  if (!r) throw new Error(`unknown requirement id ${id}`);
  return r;
}
export function isRequirementId(id: string): boolean {
  return byId.has(id);
}
/** A check's level is the strictest level of the requirements it names. */
export function levelOf(ids: readonly string[]): Level {
  return ids.some((id) => requirement(id).level === 'MUST') ? 'MUST' : 'SHOULD';
}
