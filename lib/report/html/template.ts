/**
 * The escaping template of the HTML report. Evidence is hostile input (a target chooses its bodies and headers),
 * so every interpolation goes through `html`, which escapes unless a value is already `Raw`.
 *
 * A `Raw` keeps its template's pieces and values, not their text: the page (megabytes) is written into one list of
 * chunks and joined once (`writeTo`, `html`), where text built at every level of nesting was copied once a level.
 */
import { escapeAttr } from '../text.ts';

export class Raw {
  #text: string | undefined;
  readonly #strings: readonly string[];
  readonly #vals: readonly Part[];
  constructor(html: string);
  constructor(strings: readonly string[], vals: readonly Part[]);
  constructor(strings: string | readonly string[], vals: readonly Part[] = []) {
    if (typeof strings === 'string') {
      this.#text = strings;
      this.#strings = [strings];
    } else this.#strings = strings;
    this.#vals = vals;
  }
  /** its text (joined once, then kept) */
  get html(): string {
    if (this.#text === undefined) {
      const out: string[] = [];
      this.writeTo(out);
      this.#text = out.join('');
    }
    return this.#text;
  }
  /** appends its text to `out` in chunks, escaping the values that are not `Raw` */
  writeTo(out: string[]): void {
    if (this.#text !== undefined) {
      out.push(this.#text);
      return;
    }
    const strings = this.#strings;
    out.push(strings[0] ?? '');
    for (let i = 0; i < this.#vals.length; i++) {
      writePart(this.#vals[i], out);
      out.push(strings[i + 1] ?? '');
    }
  }
  toString(): string {
    return this.html;
  }
}
export type Part = Raw | string | number | boolean | null | undefined | Part[];

function writePart(v: Part, out: string[]): void {
  if (v instanceof Raw) v.writeTo(out);
  else if (Array.isArray(v)) for (const x of v) writePart(x, out);
  else if (v !== null && v !== undefined && v !== false) out.push(escapeAttr(String(v))); // escapes & < > " ' and keeps newlines as &#10; (safe in text and attributes)
}
export function html(strings: TemplateStringsArray, ...vals: Part[]): Raw {
  return new Raw(strings, vals);
}
