import { defineSuite, type CheckSpec } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import {
  duplicateCases,
  encryptionKeyCases,
  formCases,
  jweAlgCases,
  jweEncCases,
  jwsAlgCases,
  layerCases,
  multiplicityCases,
  signatureKeyCases,
  structureCases,
  tamperBase,
  tamperCases,
  zipCases,
} from './catalogue.ts';
import { envelope, keysOf, type Keys } from './envelopes.ts';
import { serverPublicKey } from './server-key.ts';
import { headerKeysUntrusted, headerKeyUrlsNotFetched } from './header-key-checks.ts';
import { judge, partnerSender, positiveControl, sendCases, type NegativeCase } from './negatives.ts';
import { ccTokenSealed, responsesSealed, signInTokenPlain } from './response-checks.ts';
import { refusalNoSideEffect } from './side-effect-check.ts';
import { secondSpellingRefused } from './spellings.ts';
import { tamperedEnvelopesProperty } from './tamper-property.ts';

/** what a family's builder may need from the target beyond the keys (a check takes it from its context) */
export interface CaseEnv {
  /** SPKI PEM of the target's TLS server certificate key, or undefined (JOSE-07's E7) */
  tlsServerKey(): Promise<string | undefined>;
}

type Build = (env: CaseEnv, k: Keys, doc: Record<string, unknown>) => NegativeCase[];

/** one family of negatives: the check's name, its requirement, its builder, and how its positive control is sealed */
export interface Family {
  name: string;
  requirement: string;
  title: string;
  build: Build;
  control: 'builder' | 'seal';
}

const fam = (
  name: string,
  requirement: string,
  title: string,
  build: Build,
  control: 'builder' | 'seal' = 'builder',
): Family => ({ name, requirement, title, build, control });

/** the environment of a check: the TLS server key read from a handshake with the target, as the partner */
export function caseEnvOf(ctx: CheckContext): CaseEnv {
  return { tlsServerKey: () => serverPublicKey(ctx.url('validate'), ctx.identity('partner')) };
}

/**
 * One family of negatives against validate, as the partner: the positive control is the same document sealed
 * by the same builder with no deviation (or by seal(), for the tamper family, whose cases start from it).
 */
function family({ name, requirement, title, build, control }: Family): CheckSpec {
  return {
    name,
    requirements: [requirement],
    title,
    async run(ctx) {
      const s = await partnerSender(ctx);
      const k = await keysOf(ctx);
      const base = control === 'seal' ? await tamperBase(k, s.doc) : envelope(k, s.doc);
      await positiveControl(
        ctx,
        s,
        base,
        control === 'seal' ? 'sealed by lib/jose seal()' : 'sealed by the negative builder, no deviation',
      );
      judge(ctx, await sendCases(ctx, s, build(caseEnvOf(ctx), k, s.doc)), name);
    },
  };
}

/** the negative families sent as they are (the JOSE negative catalogue's families; lib/workbench builds them too) */
export const FAMILIES: readonly Family[] = [
  fam('sealed-structure', 'JOSE-01', 'a request body must be sealed: plain JSON is refused', (_c, _k, d) =>
    structureCases(d),
  ),
  fam(
    'jws-alg-rs256-only',
    'JOSE-02',
    'the request JWS must be RS256: none, HS256 key confusion, RS512, PS256, and a duplicated alg whose last value is RS512, are refused',
    (_c, k, d) => jwsAlgCases(k, d),
  ),
  fam(
    'jwe-alg-rsa-oaep-256-only',
    'JOSE-03',
    'the request JWE alg must be RSA-OAEP-256: RSA-OAEP, RSA1_5, PBES2, and a duplicated alg whose last value is RSA-OAEP, are refused',
    (_c, k, d) => jweAlgCases(k, d),
  ),
  fam(
    'jwe-enc-a256cbc-hs512-only',
    'JOSE-04',
    'the request JWE enc must be A256CBC-HS512: GCM, A128CBC-HS256, and a duplicated enc whose last value is A128GCM, are refused',
    (_c, k, d) => jweEncCases(k, d),
  ),
  fam(
    'general-serialization-only',
    'JOSE-05',
    'compact and flattened JWE/JWS serializations are refused on requests',
    (_c, k, d) => formCases(k, d),
  ),
  fam(
    'signature-key-pinned',
    'JOSE-06',
    "a request JWS must verify with the client's registered certificate key: another key, a swapped payload are refused",
    (_c, k, d) => signatureKeyCases(k, d),
  ),
  fam(
    'encryption-key-pinned',
    'JOSE-07',
    "a request JWE must be encrypted to the bank's API-domain key: an attacker key, the bank's TLS key, the client's own key are refused",
    (env, k, d) => encryptionKeyCases(() => env.tlsServerKey(), k, d),
  ),
  fam(
    'tampering-refused',
    'JOSE-08',
    'a tampered JWE protected header, iv, ciphertext or tag (or a duplicated ciphertext whose last value is junk) is refused',
    (_c, k, d) => tamperCases(k, d),
    'seal',
  ),
  fam(
    'signed-and-encrypted',
    'JOSE-09',
    'encrypted-but-unsigned and signed-but-unencrypted request bodies are refused',
    (_c, k, d) => layerCases(k, d),
  ),
  fam(
    'duplicate-members-refused',
    'HARD-01',
    'hardening: duplicated JOSE members are refused even when the last value complies (RFC parsers may take the last)',
    (_c, k, d) => duplicateCases(k, d),
  ),
  fam('zip-refused', 'HARD-02', 'hardening: a compressed (zip DEF) JWE is refused', (_c, k, d) => zipCases(k, d)),
  fam(
    'one-recipient-one-signature',
    'HARD-03',
    'hardening: an envelope with two recipients or two signatures is refused',
    (_c, k, d) => multiplicityCases(k, d),
  ),
];

export const suite = defineSuite('jose', [
  ...FAMILIES.map(family),
  secondSpellingRefused,
  headerKeysUntrusted,
  headerKeyUrlsNotFetched,
  responsesSealed,
  ccTokenSealed,
  signInTokenPlain,
  refusalNoSideEffect,
  tamperedEnvelopesProperty,
]);
