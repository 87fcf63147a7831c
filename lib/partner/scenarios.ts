/**
 * The scenarios of a partner certification (one run of the partner's client each), as data: which environment
 * and flow each applies to, what the bank does wrong in it, and what a client that follows the rules does.
 */
import type { Environment } from '../profile/schema.ts';
import { FORM_SPOILS, SPOILS, type Flow, type ScenarioId, type Spoil, type SpoiledAnswer } from './types.ts';

export interface ScenarioDef {
  id: ScenarioId;
  title: string;
  /** what a client that follows the rules does */
  expected: string;
  environments: Environment[];
  flows: Flow[];
  /** the client must complete the task (exit 0) */
  completes: boolean;
  /**
   * a variant of the client-side negative catalogue: the answer the bank spoils, how, and the id it is judged
   * under (CLI-02, MUST; JOSE-05, SHOULD, for a genuine answer in a serialization other than the general one;
   * CLI-09, SHOULD, for a genuine answer of another call)
   */
  spoil?: { answer: SpoiledAnswer; how: Spoil; requirement: SpoilRequirement };
}

export type SpoilRequirement = 'CLI-02' | 'JOSE-05' | 'CLI-09';
/** a genuine answer in another serialization is not a forgery: JOSE-05 (SHOULD), read for the side that receives */
const formOrForgery = (how: Spoil): SpoilRequirement =>
  (FORM_SPOILS as readonly Spoil[]).includes(how) ? 'JOSE-05' : 'CLI-02';
/** a genuine, correctly sealed answer of another call is no forgery either: answer binding, CLI-09 (SHOULD) */
export const spoilRequirement = (how: Spoil): SpoilRequirement => (how === 'replayed' ? 'CLI-09' : formOrForgery(how));

const BOTH: Environment[] = ['uat', 'sandbox'];
const ALL_FLOWS: Flow[] = ['code', 'client-credentials'];

/** what each spoil does to the answer (the bank's own keys unless said) */
export const SPOIL_TITLES: Record<Spoil, string> = {
  'bad-signature': 'sealed, but its signature does not verify',
  unsigned: 'encrypted to the client but not signed',
  'other-key': "signed with a key that is not the bank's API key",
  plain: 'plain JSON where sealing is mandated',
  jwk: "signed with an attacker's key that the JWS header offers as `jwk` (the embedded-key forgery)",
  x5c: "signed with an attacker's key whose self-signed certificate the JWS header offers as `x5c`",
  'x5c-chain':
    "signed with an attacker's key whose certificate, chained to a CA the client was not given, the JWS header offers as `x5c`",
  jku: "signed with an attacker's key; the JWS header's `jku` points at the harness's own listener (any fetch fails)",
  x5u: "signed with an attacker's key; the JWS header's `x5u` points at the harness's own listener (any fetch fails)",
  kid: "signed with an attacker's key whose `kid` names another key of the bank",
  'alg-none': 'a JWS with `alg: none` and no signature',
  hs256: "HS256 keyed with the bank's public key (key confusion)",
  rs512: "signed by the bank's key with RS512 where RS256 is mandated",
  ps256: "signed by the bank's key with PS256 where RS256 is mandated",
  crit: "signed by the bank's key, with an unknown extension marked `crit`",
  'tampered-ciphertext': 'a genuine sealed answer whose JWE ciphertext was altered',
  'tampered-tag': 'a genuine sealed answer whose JWE authentication tag was altered',
  'tampered-iv': 'a genuine sealed answer whose JWE IV was altered',
  'tampered-protected': 'a genuine sealed answer whose JWE protected header was altered',
  'other-recipient': "a genuine signed answer, encrypted to another client's key",
  replayed: "a genuine, correctly signed answer of another call, sealed to the client, served as this call's",
  'compact-jwe': 'a genuine, correctly signed answer, its JWE in the compact serialization (general JSON mandated)',
  'compact-jws': 'a genuine answer in a general JWE, its JWS in the compact serialization (general JSON mandated)',
  'flattened-jwe': 'a genuine, correctly signed answer, its JWE in the flattened JSON form (general JSON mandated)',
  'flattened-jws': 'a genuine answer in a general JWE, its JWS in the flattened JSON form (general JSON mandated)',
};

const ANSWER_TITLES: Record<SpoiledAnswer, string> = {
  validate: "validate's answer",
  create: "create's answer",
  'cc-token': 'the client-credentials token answer',
};

/**
 * which spoils each answer gets: validate every one (the serializations too); create and the token answer the forgeries of key and algorithm
 * and a tampered tag (the rest are the same verification code on another answer), create a replay too
 */
const SPOILED: Record<SpoiledAnswer, readonly Spoil[]> = {
  validate: SPOILS,
  create: ['other-key', 'jwk', 'x5c', 'kid', 'alg-none', 'hs256', 'rs512', 'crit', 'tampered-tag', 'replayed'],
  'cc-token': ['unsigned', 'other-key', 'jwk', 'x5c', 'kid', 'alg-none', 'hs256', 'rs512', 'crit', 'tampered-tag'],
};

const REFUSES: Record<SpoiledAnswer, string> = {
  validate: 'no create',
  create: 'the create is not taken as done',
  'cc-token': 'the token is never used',
};

function spoilScenarios(): ScenarioDef[] {
  return (Object.keys(SPOILED) as SpoiledAnswer[]).flatMap((answer) =>
    SPOILED[answer].map((how) => {
      const requirement = spoilRequirement(how);
      return {
        id: `${answer}-${how}` as ScenarioId,
        title: `${ANSWER_TITLES[answer]}: ${SPOIL_TITLES[how]}`,
        expected:
          `${REFUSES[answer]}; exit non-zero${how === 'jku' || how === 'x5u' ? '; no fetch of the URL' : ''} ` +
          (requirement === 'CLI-02'
            ? '(CLI-02)'
            : `(${requirement}, a SHOULD: a client that acts on it gets a warning)`),
        environments: ['uat'] as Environment[],
        flows: answer === 'cc-token' ? (['client-credentials'] as Flow[]) : ALL_FLOWS,
        completes: false,
        spoil: { answer, how, requirement },
      };
    }),
  );
}

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
  ...spoilScenarios(),
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
