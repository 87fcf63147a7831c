/** How a fault of the catalogue is written: its id, the ids whose checks it makes fail, where it has an effect. */
import type { Environment } from '../../profile/schema.ts';
import type { FaultDefinition } from '../types.ts';

export const U: Environment[] = ['uat'];
export const S: Environment[] = ['sandbox'];
export const ALL: Environment[] = ['sandbox', 'uat'];

export function f(
  id: string,
  requirements: string[],
  environments: Environment[],
  description: string,
): FaultDefinition {
  return { id, requirements, environments, description };
}
