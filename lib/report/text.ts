/** Text hygiene for the writers: evidence is hostile input (a target chooses its bodies and headers). */

/** Characters XML 1.0 does not allow (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripForbidden(s: string): string {
  return s.replace(XML_FORBIDDEN, '');
}

/** Escape for XML/HTML text content (after stripping forbidden characters). */
export function escapeText(s: string): string {
  return stripForbidden(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escape for a double-quoted XML/HTML attribute; newlines and tabs kept as character references. */
export function escapeAttr(s: string): string {
  return escapeText(s)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** Cut long text for one-line places (attributes, summaries), keeping whole code points. */
export function truncate(s: string, max: number): string {
  const cps = Array.from(s);
  return cps.length <= max ? s : cps.slice(0, max - 1).join('') + '…';
}
