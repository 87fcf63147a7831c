/** Text hygiene for the writers: evidence is hostile input (a target chooses its bodies and headers). */

/** Characters XML 1.0 does not allow (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Whether a string may hold one of them: the controls, U+FFFE/U+FFFF and any surrogate (paired or not), a plain
 * character class, much faster over the megabytes of a report; only such a string goes through XML_FORBIDDEN
 */
const MAY_BE_FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function stripForbidden(s: string): string {
  return MAY_BE_FORBIDDEN.test(s) ? s.replace(XML_FORBIDDEN, '') : s;
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&#39;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
};

/** Escape for XML/HTML text content (after stripping forbidden characters). */
export function escapeText(s: string): string {
  return stripForbidden(s).replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!);
}

/** Escape for a double-quoted XML/HTML attribute; newlines and tabs kept as character references. */
export function escapeAttr(s: string): string {
  return stripForbidden(s).replace(/[&<>"'\n\r\t]/g, (c) => ATTR_ESCAPES[c]!);
}

/** Cut long text for one-line places (attributes, summaries), keeping whole code points. */
export function truncate(s: string, max: number): string {
  const cps = Array.from(s);
  return cps.length <= max ? s : cps.slice(0, max - 1).join('') + '…';
}
