/**
 * The scenarios of a partner certification (one run of the partner's client each), as data: which environment
 * and flow each applies to, what the bank does wrong in it, and what a client that follows the rules does.
 */
import type { Environment } from '../profile/schema.ts';
import type { Flow, ScenarioId } from './types.ts';

export interface ScenarioDef {
  id: ScenarioId;
  title: string;
  /** what a client that follows the rules does */
  expected: string;
  environments: Environment[];
  flows: Flow[];
  /** the client must complete the task (exit 0) */
  completes: boolean;
}

const BOTH: Environment[] = ['uat', 'sandbox'];
const ALL_FLOWS: Flow[] = ['code', 'client-credentials'];

export const SCENARIOS: readonly ScenarioDef[] = [
  {
    id: 'normal',
    title: 'the bank behaves',
    expected: 'the task completes: token, validate, create, get; exit 0',
    environments: BOTH,
    flows: ALL_FLOWS,
    completes: true,
  },
  {
    id: 'untrusted-server-cert',
    title: 'the server certificate is issued by a CA the client was not given',
    expected: 'no HTTP request reaches the bank; exit non-zero (TLS-08)',
    environments: ['uat'],
    flows: ALL_FLOWS,
    completes: false,
  },
  {
    id: 'legacy-tls',
    title: 'the server offers only TLS 1.1',
    expected: 'no HTTP request reaches the bank; exit non-zero (CLI-07)',
    environments: ['uat'],
    flows: ALL_FLOWS,
    completes: false,
  },
  {
    id: 'validate-bad-signature',
    title: "validate's answer is sealed, but its signature does not verify",
    expected: 'no create; exit non-zero (CLI-02)',
    environments: ['uat'],
    flows: ALL_FLOWS,
    completes: false,
  },
  {
    id: 'validate-unsigned',
    title: "validate's answer is encrypted to the client but not signed",
    expected: 'no create; exit non-zero (CLI-02)',
    environments: ['uat'],
    flows: ALL_FLOWS,
    completes: false,
  },
  {
    id: 'validate-other-key',
    title: "validate's answer is signed with a key that is not the bank's API key",
    expected: 'no create; exit non-zero (CLI-02)',
    environments: ['uat'],
    flows: ALL_FLOWS,
    completes: false,
  },
  {
    id: 'validate-plain',
    title: "validate's answer is plain JSON where sealing is mandated",
    expected: 'no create; exit non-zero (CLI-02)',
    environments: ['uat'],
    flows: ALL_FLOWS,
    completes: false,
  },
  {
    id: 'validate-429',
    title: 'the first validate is answered 429 with Retry-After: 2',
    expected: 'validate again no sooner than 2 s later, then complete; exit 0 (CLI-06)',
    environments: BOTH,
    flows: ALL_FLOWS,
    completes: true,
  },
  {
    id: 'create-answer-lost',
    title: 'the first create is stored, then its answer is lost (connection reset)',
    expected: 'create again with the same transfer_id, then complete; exit 0 (CLI-08)',
    environments: BOTH,
    flows: ALL_FLOWS,
    completes: true,
  },
  {
    id: 'token-expiry',
    title:
      'the access token expires after validate and again after create; the first refresh is answered (a rotated refresh token), the second refused',
    expected:
      'the second refresh with the newest refresh token; once refused, no refresh again: a new sign-in (or a new client-credentials token), then complete; exit 0 (CLI-05)',
    environments: BOTH,
    flows: ALL_FLOWS,
    completes: true,
  },
  {
    id: 'state-mismatch',
    title: 'the authorization callback carries another `state`',
    expected: 'the code is not exchanged; exit non-zero (CLI-04)',
    environments: BOTH,
    flows: ['code'],
    completes: false,
  },
];

export function scenariosFor(mode: Environment, flow: Flow): ScenarioDef[] {
  return SCENARIOS.filter((s) => s.environments.includes(mode) && s.flows.includes(flow));
}

export function scenario(id: ScenarioId): ScenarioDef {
  const s = SCENARIOS.find((x) => x.id === id);
  if (!s) throw new Error(`unknown scenario ${id}`);
  return s;
}

/** Retry-After of the validate-429 scenario, seconds */
export const RETRY_AFTER_SECONDS = 2;
