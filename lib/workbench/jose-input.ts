/**
 * The workbench's inputs: a file or stdin (bounded), read as an envelope or as a JSON document. Bad input is a
 * BadInput: one line naming what is wrong, exit 2 (a configuration error), no stack trace.
 */
import { readFile } from 'node:fs/promises';
import { classify } from '../jose/index.ts';
import { BadInput } from './command/args.ts';

export { BadInput };

/** the largest input read (an envelope the bank accepts is at most 1 MiB by default: room for a larger one) */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

export interface Input {
  /** what the input is called in a message: the file's path, or "stdin" */
  name: string;
  text: string;
}

/** reads stdin to its end, at most MAX_INPUT_BYTES */
async function readStream(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > MAX_INPUT_BYTES) throw new BadInput(`stdin: more than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** FILE, or stdin for "-" or no FILE */
export async function readInput(file: string | undefined, stdin: AsyncIterable<Buffer | string>): Promise<Input> {
  if (file === undefined || file === '-') return { name: 'stdin', text: await readStream(stdin) };
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new BadInput(`${file}: cannot be read (${typeof code === 'string' ? code : String(e)})`);
  }
  if (buf.length > MAX_INPUT_BYTES) throw new BadInput(`${file}: more than ${MAX_INPUT_BYTES} bytes`);
  return { name: file, text: buf.toString('utf8') };
}

function parse(input: Input): unknown {
  if (input.text.trim() === '') throw new BadInput(`${input.name}: empty, expected JSON`);
  try {
    return JSON.parse(input.text) as unknown;
  } catch (e) {
    throw new BadInput(`${input.name}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** a JSON document (seal's and forge's payload): an object */
export function jsonDocument(input: Input): Record<string, unknown> {
  const v = parse(input);
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new BadInput(`${input.name}: the payload must be a JSON object`);
  return v as Record<string, unknown>;
}

const COMPACT_JWE = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){4}$/;
const COMPACT_JWS = /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){2}$/;

/** an envelope: a JWE in a JSON serialization, or a compact JWE (as a proxy shows a body); the text as read */
export function envelopeInput(input: Input): { text: string; value: unknown } {
  const t = input.text.trim();
  if (COMPACT_JWE.test(t)) return { text: t, value: t };
  if (COMPACT_JWS.test(t)) throw new BadInput(`${input.name}: not an envelope: a compact JWS, not encrypted`);
  const value = parse(input);
  const { kind, form } = classify(value);
  if (kind === 'jwe') return { text: input.text, value };
  const what =
    kind === 'jws'
      ? `a JWS (${form} serialization), not encrypted`
      : kind === 'json'
        ? 'plain JSON, not a JWE (no protected/recipients/iv/ciphertext/tag members)'
        : 'not a JWE';
  throw new BadInput(`${input.name}: not an envelope: ${what}`);
}
