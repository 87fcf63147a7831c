/**
 * The mock's fault catalogue. Each fault breaks exactly one rule of the contract, so that the check for that
 * rule can be shown to fail (and nothing else changes). `requirements` lists the ids whose checks must then
 * fail; `environments` the modes in which the fault has an effect (where the requirement applies). The checks that
 * must catch each fault, and a fragment of their reason, are the fault matrix's (test/matrix/expected.ts): add an
 * entry there with each new fault. The set of faults a mock has switched on is fault-set.ts's.
 * The faults, one file per part of the bank they break (fault-catalogue/): the JOSE layer, the transfers API, the OAuth
 * side, the answers to documents, TLS, the quotas, races.
 */
import type { FaultDefinition } from './types.ts';
import { DOCUMENT_FAULTS } from './fault-catalogue/documents.ts';
import { JOSE_FAULTS } from './fault-catalogue/jose.ts';
import { QUOTA_FAULTS } from './fault-catalogue/quota.ts';
import { RACE_FAULTS } from './fault-catalogue/races.ts';
import { TLS_FAULTS } from './fault-catalogue/tls.ts';
import { TOKEN_FAULTS } from './fault-catalogue/tokens.ts';
import { TRANSFER_FAULTS } from './fault-catalogue/transfers.ts';

export const FAULTS: readonly FaultDefinition[] = Object.freeze([
  ...JOSE_FAULTS,
  ...TRANSFER_FAULTS,
  ...TOKEN_FAULTS,
  ...DOCUMENT_FAULTS,
  ...TLS_FAULTS,
  ...QUOTA_FAULTS,
  ...RACE_FAULTS,
]);
