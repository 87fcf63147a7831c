/**
 * The jose suite: the negative families (families/, one file a family), then the checks of their own files.
 */
import { defineSuite } from '../../lib/engine/check.ts';
import { FAMILY_CHECKS } from './families/index.ts';
import { headerKeysUntrusted, headerKeyUrlsNotFetched } from './header-key-checks.ts';
import { ccTokenSealed, responsesSealed, signInTokenPlain } from './response-checks.ts';
import { refusalNoSideEffect } from './side-effect-check.ts';
import { secondSpellingRefused } from './spellings.ts';
import { tamperedEnvelopesProperty } from './tamper-property.ts';

export const suite = defineSuite('jose', [
  ...FAMILY_CHECKS,
  secondSpellingRefused,
  headerKeysUntrusted,
  headerKeyUrlsNotFetched,
  responsesSealed,
  ccTokenSealed,
  signInTokenPlain,
  refusalNoSideEffect,
  tamperedEnvelopesProperty,
]);
