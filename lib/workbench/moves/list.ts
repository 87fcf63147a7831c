/** `npm run jose -- forge --list`: every variant of the catalogue, one line each (id, side, requirement, what). */
import { listVariants } from '../variants.ts';

export async function listText(): Promise<string> {
  const vs = await listVariants();
  const w = Math.max(...vs.map((v) => v.id.length));
  return `${vs.map((v) => `${v.id.padEnd(w)}  ${v.side.padEnd(7)}  ${v.requirement.padEnd(7)}  ${v.title}`).join('\n')}\n`;
}
