/**
 * The negative families sent as they are, in the suite's order: one file a family, each with its check (the row,
 * its cases, the judge it calls, its requirement id) and the family as lib/workbench builds it.
 */
import { check as sealedStructure, family as sealedStructureFamily } from './sealed-structure.ts';
import { check as jwsAlgRs256Only, family as jwsAlgRs256OnlyFamily } from './jws-alg-rs256-only.ts';
import { check as jweAlgRsaOaep256Only, family as jweAlgRsaOaep256OnlyFamily } from './jwe-alg-rsa-oaep-256-only.ts';
import {
  check as jweEncA256CbcHs512Only,
  family as jweEncA256CbcHs512OnlyFamily,
} from './jwe-enc-a256cbc-hs512-only.ts';
import {
  check as generalSerializationOnly,
  family as generalSerializationOnlyFamily,
} from './general-serialization-only.ts';
import { check as signatureKeyPinned, family as signatureKeyPinnedFamily } from './signature-key-pinned.ts';
import { check as encryptionKeyPinned, family as encryptionKeyPinnedFamily } from './encryption-key-pinned.ts';
import { check as tamperingRefused, family as tamperingRefusedFamily } from './tampering-refused.ts';
import { check as signedAndEncrypted, family as signedAndEncryptedFamily } from './signed-and-encrypted.ts';
import {
  check as duplicateMembersRefused,
  family as duplicateMembersRefusedFamily,
} from './duplicate-members-refused.ts';
import { check as zipRefused, family as zipRefusedFamily } from './zip-refused.ts';
import {
  check as oneRecipientOneSignature,
  family as oneRecipientOneSignatureFamily,
} from './one-recipient-one-signature.ts';
import type { CheckSpec } from '../../../lib/engine/check.ts';
import type { Family } from './family.ts';

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

/** the JOSE negative catalogue's families (lib/workbench builds them too) */
export const FAMILIES: readonly Family[] = [
  sealedStructureFamily,
  jwsAlgRs256OnlyFamily,
  jweAlgRsaOaep256OnlyFamily,
  jweEncA256CbcHs512OnlyFamily,
  generalSerializationOnlyFamily,
  signatureKeyPinnedFamily,
  encryptionKeyPinnedFamily,
  tamperingRefusedFamily,
  signedAndEncryptedFamily,
  duplicateMembersRefusedFamily,
  zipRefusedFamily,
  oneRecipientOneSignatureFamily,
];
