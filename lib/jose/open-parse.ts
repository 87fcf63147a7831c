/**
 * open(), parse steps: the envelope to one JSON text, the JWE and JWS structures, their members and headers.
 * No crypto here; every refusal names its step and code (policy.ts's OpenRefusal).
 */
import { COMPACT_JWE, COMPACT_JWS, classify } from './forms.ts';
import {
  decodeProtected,
  defined,
  errText,
  isObject,
  mergeDisjoint,
  parseJson,
  sanitizeHeader,
  strictUtf8,
} from './json.ts';
import type { Json } from './json.ts';
import { refuse, type OpenPolicy } from './policy.ts';
import type { JoseForm, OpenFailure } from './types.ts';

/** what is known so far, reported with a refusal */
export type OpenState = Partial<Pick<OpenFailure, 'jweForm' | 'jwsForm' | 'jweHeader' | 'jwsHeader' | 'jws'>>;

/** reduce every input to one JSON text (objects are re-serialized: no getters, no cycles); size first */
export function envelopeText(envelope: unknown, p: OpenPolicy): string {
  let text: string;
  if (typeof envelope === 'string') text = envelope;
  else if (envelope instanceof Uint8Array) {
    if (envelope.byteLength > p.maxBytes)
      refuse('size', 'TOO_LARGE', `envelope is ${envelope.byteLength} bytes (max ${p.maxBytes})`);
    try {
      text = strictUtf8.decode(envelope);
    } catch {
      return refuse('parse', 'NOT_JSON', 'envelope is not UTF-8 text');
    }
  } else {
    let s: string | undefined;
    try {
      s = JSON.stringify(envelope);
    } catch (e) {
      return refuse('parse', 'NOT_JSON', `envelope is not a JSON value: ${errText(e)}`);
    }
    if (s === undefined) return refuse('parse', 'NOT_JSON', 'envelope is not a JSON value');
    text = s;
  }
  const size = Buffer.byteLength(text, 'utf8');
  if (size > p.maxBytes) refuse('size', 'TOO_LARGE', `envelope is ${size} bytes (max ${p.maxBytes})`);
  return text;
}

/** the top level: a JWE in JSON serialization (compact forms, plain JSON and bare JWS refused) */
export function parseJwe(text: string, p: OpenPolicy, st: OpenState): { jwe: Json; form: JoseForm } {
  const trimmed = text.trim();
  if (COMPACT_JWE.test(trimmed)) {
    st.jweForm = 'compact';
    refuse('jwe-structure', 'COMPACT_FORM', 'JWE compact serialization; the general JSON serialization is required');
  }
  if (COMPACT_JWS.test(trimmed)) {
    st.jweForm = 'not-json';
    st.jwsForm = 'compact';
    refuse('jwe-structure', 'NOT_ENCRYPTED', 'a compact JWS, not encrypted');
  }
  const parsed = parseJson(text, p.duplicates);
  if (!parsed.ok) {
    st.jweForm = parsed.code === 'NOT_JSON' ? 'not-json' : 'unknown';
    return refuse('parse', parsed.code, parsed.reason);
  }
  const top = classify(parsed.value);
  if (top.kind !== 'jwe') {
    st.jweForm = 'plain-json';
    if (top.kind === 'jws') {
      st.jwsForm = top.form;
      refuse('jwe-structure', 'NOT_ENCRYPTED', `a ${top.form} JWS, not encrypted`);
    }
    refuse('jwe-structure', 'NOT_SEALED', 'plain JSON with no JWE members');
  }
  st.jweForm = top.form;
  return { jwe: parsed.value as Json, form: top.form };
}

/** the per-recipient member sets (flattened form) of a JWE: one, or several under the response policy */
export function jweRecipients(jwe: Json, form: JoseForm, p: OpenPolicy): Json[] {
  let recipients: Json[];
  if (form === 'flattened') {
    if (!p.allowFlattened)
      refuse('jwe-structure', 'FLATTENED_FORM', 'flattened JWE JSON; the general form (recipients array) is required');
    if ('recipients' in jwe) refuse('jwe-structure', 'JWE_MALFORMED', 'both recipients and flattened members');
    recipients = [{ header: jwe.header, encrypted_key: jwe.encrypted_key }];
  } else {
    if (!Array.isArray(jwe.recipients)) return refuse('jwe-structure', 'JWE_MALFORMED', 'recipients is not an array');
    const n = jwe.recipients.length;
    if (n === 0 || (n > 1 && !p.several))
      refuse('jwe-structure', 'MULTIPLE_RECIPIENTS', `${n} recipients; exactly one is required`);
    if ('encrypted_key' in jwe || 'header' in jwe)
      refuse('jwe-structure', 'JWE_MALFORMED', 'flattened members beside recipients');
    recipients = (jwe.recipients as unknown[]).map((r) =>
      isObject(r) ? r : refuse('jwe-structure', 'JWE_MALFORMED', 'recipient is not an object'),
    );
  }
  return recipients.map((r) => jweMembers(jwe, r));
}

function jweMembers(jwe: Json, recipient: Json): Json {
  const members: Json = defined({
    protected: jwe.protected,
    unprotected: jwe.unprotected,
    header: recipient.header,
    encrypted_key: recipient.encrypted_key,
    iv: jwe.iv,
    ciphertext: jwe.ciphertext,
    tag: jwe.tag,
    aad: jwe.aad,
  });
  for (const m of ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag', 'aad'])
    if (m in members && typeof members[m] !== 'string')
      refuse('jwe-structure', 'JWE_MALFORMED', `${m} is not a string`);
  for (const m of ['iv', 'ciphertext', 'tag', 'encrypted_key'])
    if (typeof members[m] !== 'string' || members[m] === '')
      refuse('jwe-structure', 'JWE_MALFORMED', `${m} missing or empty`);
  for (const m of ['unprotected', 'header'])
    if (m in members && !isObject(members[m])) refuse('jwe-structure', 'JWE_MALFORMED', `${m} is not an object`);
  return members;
}

/** the JWE header of one recipient: protected (decoded as jose does) + unprotected + recipient header */
export function jweHeaderOf(members: Json, p: OpenPolicy, st: OpenState): Json {
  let prot: Json | undefined;
  if (members.protected !== undefined) {
    const d = decodeProtected(members.protected as string, p.duplicates);
    if (!d.ok)
      return refuse('jwe-header', d.code === 'DUPLICATE_MEMBER' ? d.code : 'JWE_HEADER_INVALID', `JWE ${d.reason}`);
    prot = d.header;
  }
  const h = mergeDisjoint([prot, members.unprotected as Json | undefined, members.header as Json | undefined]);
  if (!h)
    return refuse('jwe-header', 'HEADER_NOT_DISJOINT', 'a JWE header parameter appears in more than one header part');
  st.jweHeader = sanitizeHeader(h);
  return h;
}

/** the JWE plaintext: a JWS in JSON serialization */
export function parseJws(plaintext: Uint8Array, p: OpenPolicy, st: OpenState): { jws: Json; form: JoseForm } {
  let text: string;
  try {
    text = strictUtf8.decode(plaintext);
  } catch {
    st.jwsForm = 'not-json';
    return refuse('jws-structure', 'NOT_SIGNED', 'plaintext is not UTF-8 text, not a JWS');
  }
  if (COMPACT_JWS.test(text.trim())) {
    st.jwsForm = 'compact';
    refuse(
      'jws-structure',
      'COMPACT_FORM',
      'JWS compact serialization inside the JWE; the general JSON serialization is required',
    );
  }
  const parsed = parseJson(text, p.duplicates);
  if (!parsed.ok) {
    if (parsed.code === 'NOT_JSON') {
      st.jwsForm = 'not-json';
      refuse('jws-structure', 'NOT_SIGNED', 'plaintext is not JSON, not a JWS');
    }
    return refuse('jws-structure', parsed.code, `JWS: ${parsed.reason}`);
  }
  const inner = classify(parsed.value);
  if (inner.kind !== 'jws') {
    st.jwsForm = inner.kind === 'jwe' ? inner.form : 'plain-json';
    refuse(
      'jws-structure',
      'NOT_SIGNED',
      inner.kind === 'jwe' ? 'plaintext is another JWE, not a JWS' : 'plaintext is plain JSON, not a JWS',
    );
  }
  st.jwsForm = inner.form;
  return { jws: parsed.value as Json, form: inner.form };
}

/** the per-signature member sets (flattened form) of a JWS: one, or several under the response policy */
export function jwsSignatures(jws: Json, form: JoseForm, p: OpenPolicy): Json[] {
  let sigs: Json[];
  if (form === 'flattened') {
    if (!p.allowFlattened)
      refuse('jws-structure', 'FLATTENED_FORM', 'flattened JWS JSON; the general form (signatures array) is required');
    if ('signatures' in jws) refuse('jws-structure', 'JWS_MALFORMED', 'both signatures and flattened members');
    sigs = [{ protected: jws.protected, header: jws.header, signature: jws.signature }];
  } else {
    if (!Array.isArray(jws.signatures)) return refuse('jws-structure', 'JWS_MALFORMED', 'signatures is not an array');
    const n = jws.signatures.length;
    if (n === 0 || (n > 1 && !p.several))
      refuse('jws-structure', 'MULTIPLE_SIGNATURES', `${n} signatures; exactly one is required`);
    if ('signature' in jws || 'protected' in jws || 'header' in jws)
      refuse('jws-structure', 'JWS_MALFORMED', 'flattened members beside signatures');
    sigs = (jws.signatures as unknown[]).map((s) =>
      isObject(s) ? s : refuse('jws-structure', 'JWS_MALFORMED', 'signature entry is not an object'),
    );
  }
  return sigs.map((s) => jwsMembers(jws, s));
}

function jwsMembers(jws: Json, sig: Json): Json {
  const members: Json = defined({
    protected: sig.protected,
    header: sig.header,
    payload: jws.payload,
    signature: sig.signature,
  });
  for (const m of ['payload', 'signature'])
    if (typeof members[m] !== 'string') refuse('jws-structure', 'JWS_MALFORMED', `${m} missing or not a string`);
  if ('protected' in members && typeof members.protected !== 'string')
    refuse('jws-structure', 'JWS_MALFORMED', 'protected is not a string');
  if ('header' in members && !isObject(members.header))
    refuse('jws-structure', 'JWS_MALFORMED', 'header is not an object');
  if (!('protected' in members) && !('header' in members)) refuse('jws-structure', 'JWS_MALFORMED', 'no JWS header');
  return members;
}

/** the JWS header of one signature: protected (decoded as jose does) + unprotected */
export function jwsHeaderOf(members: Json, p: OpenPolicy, st: OpenState): Json {
  let prot: Json | undefined;
  if (members.protected !== undefined) {
    const d = decodeProtected(members.protected as string, p.duplicates);
    if (!d.ok)
      return refuse('jws-header', d.code === 'DUPLICATE_MEMBER' ? d.code : 'JWS_HEADER_INVALID', `JWS ${d.reason}`);
    prot = d.header;
  }
  const h = mergeDisjoint([prot, members.header as Json | undefined]);
  if (!h)
    return refuse(
      'jws-header',
      'HEADER_NOT_DISJOINT',
      'a JWS header parameter appears in both protected and unprotected headers',
    );
  st.jwsHeader = sanitizeHeader(h);
  return h;
}
