/**
 * The escaping template of the HTML report. Evidence is hostile input (a target chooses its bodies and headers),
 * so every interpolation goes through `html`, which escapes unless a value is already `Raw`.
 */
import { escapeAttr } from '../text.ts';

export class Raw {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}
export type Part = Raw | string | number | boolean | null | undefined | Part[];

function render(v: Part): string {
  if (v instanceof Raw) return v.html;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === null || v === undefined || v === false) return '';
  return escapeAttr(String(v)); // escapes & < > " ' and keeps newlines as &#10; (safe in text and attributes)
}
export function html(strings: TemplateStringsArray, ...vals: Part[]): Raw {
  let out = strings[0] ?? '';
  vals.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new Raw(out);
}
