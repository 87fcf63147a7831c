/**
 * `npm run jose -- open --har FILE --entry N | --check ID`: an envelope read from a HAR 1.2 file (the standard
 * fields: a request's `postData.text`, an answer's `content.text`, base64 when `content.encoding` says so). An
 * entry is chosen by its index in `log.entries` or by the check that sent it (its comment's line "sent by …: ID",
 * as the harness writes it); a check that sent several is refused, their indexes named (never a guess).
 */
import { BadInput } from '../command/args.ts';
import type { Input } from '../jose-input.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function entriesOf(input: Input): unknown[] {
  let v: unknown;
  try {
    v = JSON.parse(input.text);
  } catch (e) {
    throw new BadInput(`${input.name}: not JSON, not a HAR (${e instanceof Error ? e.message : String(e)})`);
  }
  const entries = isObject(v) && isObject(v.log) ? v.log.entries : undefined;
  if (!Array.isArray(entries)) throw new BadInput(`${input.name}: not a HAR (no log.entries)`);
  return entries;
}

const sentBy = (e: unknown, check: string): boolean => {
  const comment = isObject(e) && typeof e.comment === 'string' ? e.comment : '';
  return comment
    .split('\n')
    .some((l) => l === `sent by ${check}` || (l.endsWith(`: ${check}`) && l.startsWith('sent by ')));
};

/** the envelope of one entry: the request's body (`side` request) or the answer's */
export function harEnvelope(
  input: Input,
  pick: { entry?: number; check?: string },
  side: 'request' | 'response',
): Input {
  const entries = entriesOf(input);
  let index: number;
  if (pick.check !== undefined) {
    const hits = entries.flatMap((e, i) => (sentBy(e, pick.check!) ? [i] : []));
    if (hits.length === 0) throw new BadInput(`${input.name}: no entry was sent by check "${pick.check}"`);
    if (hits.length > 1)
      throw new BadInput(
        `${input.name}: check "${pick.check}" sent ${hits.length} entries (${hits.join(', ')}): choose one with --entry N`,
      );
    index = hits[0]!;
  } else {
    index = pick.entry!;
    if (index >= entries.length)
      throw new BadInput(`${input.name}: no entry ${index} (log.entries has ${entries.length}, from 0)`);
  }
  const e = entries[index];
  const part = isObject(e) ? e[side] : undefined;
  const where = side === 'request' ? 'request.postData.text' : 'response.content.text';
  const holder = isObject(part) ? (side === 'request' ? part.postData : part.content) : undefined;
  const text = isObject(holder) ? holder.text : undefined;
  if (typeof text !== 'string' || text === '')
    throw new BadInput(`${input.name}: entry ${index} has no ${where} (a body-less ${side}?)`);
  const body =
    side === 'response' && isObject(holder) && holder.encoding === 'base64'
      ? Buffer.from(text, 'base64').toString('utf8')
      : text;
  return { name: `${input.name} entry ${index} ${where}`, text: body };
}
