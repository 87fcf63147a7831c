/**
 * The negative families sent as they are, in the suite's order: one file a family, each with its check (the row,
 * its cases, its positive control, the judge it calls, its requirement id).
 */
import { check as sealedStructure } from './sealed-structure.ts';
import { check as jwsAlgRs256Only } from './jws-alg-rs256-only.ts';
import { check as jweAlgRsaOaep256Only } from './jwe-alg-rsa-oaep-256-only.ts';
import { check as jweEncA256CbcHs512Only } from './jwe-enc-a256cbc-hs512-only.ts';
import { check as generalSerializationOnly } from './general-serialization-only.ts';
import { check as signatureKeyPinned } from './signature-key-pinned.ts';
import { check as encryptionKeyPinned } from './encryption-key-pinned.ts';
import { check as tamperingRefused } from './tampering-refused.ts';
import { check as signedAndEncrypted } from './signed-and-encrypted.ts';
import { check as duplicateMembersRefused } from './duplicate-members-refused.ts';
import { check as zipRefused } from './zip-refused.ts';
import { check as oneRecipientOneSignature } from './one-recipient-one-signature.ts';
import type { CheckSpec } from '../../../lib/engine/check.ts';

export const FAMILY_CHECKS: readonly CheckSpec[] = [
  sealedStructure,
  jwsAlgRs256Only,
  jweAlgRsaOaep256Only,
  jweEncA256CbcHs512Only,
  generalSerializationOnly,
  signatureKeyPinned,
  encryptionKeyPinned,
  tamperingRefused,
  signedAndEncrypted,
  duplicateMembersRefused,
  zipRefused,
  oneRecipientOneSignature,
];
