/**
 * The one catalogue of forgeries, by id: the JOSE negative catalogue's cases (lib/negative: the families of
 * families.ts, the header-key and crit cases, the second spellings of HARD-07, the single mutations of the tamper
 * property) and the partner spoils (lib/partner/spoil.ts), each built by the same function the check uses.
 * `request` variants are what a client sends the bank (sealed to the bank's key, signed by the client's);
 * `answer` variants are what the bank answers a client (the spoils: signed by the bank's key, to the client's).
 * `npm run jose -- forge` and `npm run send -- --variant` build them from here.
 */
import { createPublicKey, X509Certificate } from 'node:crypto';
import type { ProxyRoute } from '../tls/tunnel.ts';
import { testPki } from '../pki/index.ts';
import { spoiledAnswer, type SpoilContext } from '../partner/spoil.ts';
import { spoilRequirement, SPOIL_TITLES } from '../partner/scenarios.ts';
import { SPOILS, type Spoil } from '../partner/types.ts';
import { critCases, headerKeyCases, headerUrlCases } from '../negative/catalogue.ts';
import type { NegativeCase } from '../negative/cases.ts';
import { attacker, type Keys } from '../negative/envelopes.ts';
import { FAMILY_CASES, type CaseEnv } from '../negative/families.ts';
import { applyMutation, classOf, demanded, mutationClasses, sealedBase, SHAPES } from '../negative/mutations.ts';
import { spellingCases } from '../negative/spellings.ts';
import { ConfigurationError } from '../errors.ts';

export type VariantSide = 'request' | 'answer';

export interface Variant {
  id: string;
  /** the requirement whose check sends (or, for an answer, serves) it */
  requirement: string;
  side: VariantSide;
  title: string;
}

/** the keys a variant is built with (PEM): the client's pair, the bank's public key, the bank's private key for answers */
export interface VariantKeys {
  clientPrivateKey: string;
  /** the client's registered certificate: an answer is encrypted to it */
  clientCertificate: string;
  bankPublicKey: string;
  bankPrivateKey?: string;
}

export interface VariantOptions {
  /** where the jku / x5u headers point (the check's canary, the partner bank's key listener); default KEY_URL */
  keyUrl?: string;
  /** the target's TLS server key (JOSE-07's E7); without it E7 cannot be built */
  tlsServerKey?: () => Promise<string | undefined>;
  /** the proxy the key is read through (send's transport), when there is one: E7 says when it re-terminates TLS */
  proxy?: ProxyRoute;
}

/** a variant that does not exist or cannot be built with these keys: said in one line */
export class VariantError extends ConfigurationError {
  readonly code = 'VARIANT_UNKNOWN' as const;
}

/** a key URL nothing listens on (the discard port on loopback), for the jku / x5u variants */
export const KEY_URL = 'http://127.0.0.1:9';

interface Buildable extends Variant {
  build(): Promise<unknown>;
}

const SPOIL_PREFIX = 'spoil:';
const MUTATION_PREFIX = 'mut:';

function fromCase(requirement: string, c: NegativeCase): Buildable {
  return {
    id: c.id,
    requirement,
    side: 'request',
    title: c.title,
    async build() {
      const body = await c.body();
      if (body === undefined)
        throw new VariantError(`variant ${c.id} cannot be built here: ${c.skipped?.() ?? 'not applicable'}`);
      return body;
    },
  };
}

/** the JOSE negative catalogue's cases, first occurrence of an id kept (A5 is also the header-key isolation case) */
function requestCases(k: Keys, doc: Record<string, unknown>, o: VariantOptions): Buildable[] {
  const env: CaseEnv = {
    tlsServerKey: o.tlsServerKey ?? (() => Promise.resolve(undefined)),
    ...(o.proxy ? { proxy: o.proxy } : {}),
  };
  const keyUrl = o.keyUrl ?? KEY_URL;
  const groups: [string, NegativeCase[]][] = [
    ...Object.entries(FAMILY_CASES).map(([req, cases]): [string, NegativeCase[]] => [req, cases(env, k, doc)]),
    ['JOSE-10', headerKeyCases(k, doc)],
    ['JOSE-10', headerUrlCases(k, doc, (path) => `${keyUrl}${path}`)],
    ['JOSE-10', critCases(k, doc)],
    ['HARD-07', spellingCases(sealedBase(k, doc, 'single'))],
  ];
  const seen = new Set<string>();
  return groups.flatMap(([req, cases]) =>
    cases.filter((c) => !seen.has(c.id) && seen.add(c.id)).map((c) => fromCase(req, c)),
  );
}

/** the tamper property's mutation classes (mutations.ts), one variant each: `mut:<shape>:<kind>:<member>` */
function mutationCases(k: Keys, doc: Record<string, unknown>): Buildable[] {
  return SHAPES.flatMap((shape) => {
    const base = sealedBase(k, doc, shape);
    return mutationClasses([base]).flatMap((t): Buildable[] => {
      const m = applyMutation(base, t.mutation);
      if (!m) return [];
      return [
        {
          id: `${MUTATION_PREFIX}${classOf(t).replace(/ /g, ':')}`,
          requirement: demanded(t.mutation),
          side: 'request',
          title: m.description,
          build: () => Promise.resolve(m.envelope),
        },
      ];
    });
  });
}

const spki = (pem: string): string =>
  (pem.includes('-----BEGIN CERTIFICATE-----') ? new X509Certificate(pem).publicKey : createPublicKey(pem)).export({
    type: 'spki',
    format: 'pem',
  }) as string;

/** the partner spoils: an answer to the client, spoiled as lib/partner/spoil.ts spoils it (`spoil:<kind>`) */
function spoilCases(keys: VariantKeys, doc: Record<string, unknown>, o: VariantOptions): Buildable[] {
  return SPOILS.map((how: Spoil) => ({
    id: `${SPOIL_PREFIX}${how}`,
    requirement: spoilRequirement(how),
    side: 'answer' as const,
    title: SPOIL_TITLES[how],
    async build() {
      if (!keys.bankPrivateKey)
        throw new VariantError(
          `variant ${SPOIL_PREFIX}${how} is an answer signed as the bank: the profile needs bank.apiPrivateKey`,
        );
      const pki = await testPki();
      const ctx: SpoilContext = {
        pki: {
          ...pki,
          bankApi: { ...pki.bankApi, privateKeyPem: keys.bankPrivateKey, publicKeyPem: spki(keys.bankPublicKey) },
        },
        partnerCertPem: keys.clientCertificate,
        listenerUrl: o.keyUrl ?? KEY_URL,
      };
      // `replayed`: the input stands for the other call's answer, sealed as it was
      return spoiledAnswer(how, doc, doc, ctx);
    },
  }));
}

async function catalogue(keys: VariantKeys, doc: Record<string, unknown>, o: VariantOptions): Promise<Buildable[]> {
  const k: Keys = {
    clientPrivateKey: keys.clientPrivateKey,
    clientCertificate: keys.clientCertificate,
    bankPublicKey: keys.bankPublicKey,
    attacker: await attacker(),
  };
  return [...requestCases(k, doc, o), ...mutationCases(k, doc), ...spoilCases(keys, doc, o)];
}

/** a document every listing is built over (the ids and titles do not depend on it) */
const SAMPLE = { beneficiary_id: 'BEN-0001', amount: { value: '10.00', currency: 'AED' }, remarks: 'sample' };

let listing: Promise<Variant[]> | undefined;

/** every variant, in the catalogue's order (built once with the run-time test PKI's keys, only to read ids and titles) */
export function listVariants(): Promise<Variant[]> {
  listing ??= (async () => {
    const pki = await testPki();
    const keys: VariantKeys = {
      clientPrivateKey: pki.clients.partner.privateKeyPem,
      clientCertificate: pki.clients.partner.certPem,
      bankPublicKey: pki.bankApi.certPem,
      bankPrivateKey: pki.bankApi.privateKeyPem,
    };
    return (await catalogue(keys, SAMPLE, {})).map(({ id, requirement, side, title }) => ({
      id,
      requirement,
      side,
      title,
    }));
  })();
  return listing;
}

/** the variant `id` over the document `doc`: an object (a JSON body) or a string (sent as it is) */
export async function buildVariant(
  id: string,
  doc: Record<string, unknown>,
  keys: VariantKeys,
  o: VariantOptions = {},
): Promise<{ variant: Variant; body: unknown }> {
  const all = await catalogue(keys, doc, o);
  const v = all.find((x) => x.id === id);
  if (!v) throw new VariantError(`unknown variant "${id}" (npm run jose -- forge --list lists them)`);
  const { build, ...variant } = v;
  return { variant, body: await build() };
}
