import { defineSuite, type CheckSpec } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/context.ts';
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
import { headerKeysUntrusted, headerKeyUrlsNotFetched } from './header-key-checks.ts';
import { judge, partnerSender, positiveControl, sendCases, type NegativeCase } from './negatives.ts';
import { ccTokenSealed, responsesSealed, signInTokenPlain } from './response-checks.ts';
import { refusalNoSideEffect } from './side-effect-check.ts';
import { secondSpellingRefused } from './spellings.ts';
import { tamperedEnvelopesProperty } from './tamper-property.ts';

type Build = (ctx: CheckContext, k: Keys, doc: Record<string, unknown>) => NegativeCase[];

/**
 * One family of negatives against validate, as the partner: the positive control is the same document sealed
 * by the same builder with no deviation (or by seal(), for the tamper family, whose cases start from it).
 */
function family(
  name: string,
  requirement: string,
  title: string,
  build: Build,
  control: 'builder' | 'seal' = 'builder',
): CheckSpec {
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
      judge(ctx, await sendCases(ctx, s, build(ctx, k, s.doc)), name);
    },
  };
}

export const suite = defineSuite('jose', [
  family('sealed-structure', 'JOSE-01', 'a request body must be sealed: plain JSON is refused', (_c, _k, d) =>
    structureCases(d),
  ),
  family(
    'jws-alg-rs256-only',
    'JOSE-02',
    'the request JWS must be RS256: none, HS256 key confusion, RS512, PS256, and a duplicated alg whose last value is RS512, are refused',
    (_c, k, d) => jwsAlgCases(k, d),
  ),
  family(
    'jwe-alg-rsa-oaep-256-only',
    'JOSE-03',
    'the request JWE alg must be RSA-OAEP-256: RSA-OAEP, RSA1_5, PBES2, and a duplicated alg whose last value is RSA-OAEP, are refused',
    (_c, k, d) => jweAlgCases(k, d),
  ),
  family(
    'jwe-enc-a256cbc-hs512-only',
    'JOSE-04',
    'the request JWE enc must be A256CBC-HS512: GCM, A128CBC-HS256, and a duplicated enc whose last value is A128GCM, are refused',
    (_c, k, d) => jweEncCases(k, d),
  ),
  family(
    'general-serialization-only',
    'JOSE-05',
    'compact and flattened JWE/JWS serializations are refused on requests',
    (_c, k, d) => formCases(k, d),
  ),
  family(
    'signature-key-pinned',
    'JOSE-06',
    "a request JWS must verify with the client's registered certificate key: another key, a swapped payload are refused",
    (_c, k, d) => signatureKeyCases(k, d),
  ),
  family(
    'encryption-key-pinned',
    'JOSE-07',
    "a request JWE must be encrypted to the bank's API-domain key: an attacker key, the bank's TLS key, the client's own key are refused",
    encryptionKeyCases,
  ),
  family(
    'tampering-refused',
    'JOSE-08',
    'a tampered JWE protected header, iv, ciphertext or tag (or a duplicated ciphertext whose last value is junk) is refused',
    (_c, k, d) => tamperCases(k, d),
    'seal',
  ),
  family(
    'signed-and-encrypted',
    'JOSE-09',
    'encrypted-but-unsigned and signed-but-unencrypted request bodies are refused',
    (_c, k, d) => layerCases(k, d),
  ),
  family(
    'duplicate-members-refused',
    'HARD-01',
    'hardening: duplicated JOSE members are refused even when the last value complies (RFC parsers may take the last)',
    (_c, k, d) => duplicateCases(k, d),
  ),
  family('zip-refused', 'HARD-02', 'hardening: a compressed (zip DEF) JWE is refused', (_c, k, d) => zipCases(k, d)),
  family(
    'one-recipient-one-signature',
    'HARD-03',
    'hardening: an envelope with two recipients or two signatures is refused',
    (_c, k, d) => multiplicityCases(k, d),
  ),
  secondSpellingRefused,
  headerKeysUntrusted,
  headerKeyUrlsNotFetched,
  responsesSealed,
  ccTokenSealed,
  signInTokenPlain,
  refusalNoSideEffect,
  tamperedEnvelopesProperty,
]);
