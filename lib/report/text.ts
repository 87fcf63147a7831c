/** Text hygiene for the writers: evidence is hostile input (a target chooses its bodies and headers). */

/** Characters XML 1.0 does not allow (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Whether a string holds one of them: the controls and U+FFFE/U+FFFF by a plain character class, a lone surrogate by
 * `isWellFormed` (native); only such a string goes through XML_FORBIDDEN. A paired surrogate (an emoji in evidence, in
 * nearly every run) is allowed, and no longer sends the megabytes of a report through the Unicode replace.
 */
const CONTROL_OR_NONCHARACTER = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;

declare global {
  interface String {
    /** ES2024 (Node 20): false when the string holds a lone surrogate */
    isWellFormed(): boolean;
  }
}

export function stripForbidden(s: string): string {
  return CONTROL_OR_NONCHARACTER.test(s) || !s.isWellFormed() ? s.replace(XML_FORBIDDEN, '') : s;
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
