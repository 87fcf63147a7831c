/**
 * The judges that read request bodies as the bank opens them: CLI-01 (bodies sealed as §5.4 says) and MASK-05 (no
 * identifier revealed beyond its mask, sealed bodies opened with the bank's key, the way a bank would).
 */
import { open } from '../../jose/index.ts';
import { ccFormMetadata } from '../../mock/oauth/cc-form.ts';
import { describeFinding, maskFindings } from './judge-mask.ts';
import { all, describeReq, j, type Ev, type JudgeInput, type Judgement } from './judge-base.ts';
import type { SeenRequest } from '../types.ts';

/** sealed bodies, opened once (CLI-01 and MASK-05 both read them) */
type Opened = Map<SeenRequest, { ok: true; payload: unknown } | { ok: false; reason: string }>;
export async function openBodies(input: JudgeInput): Promise<Opened> {
  const out: Opened = new Map();
  if (input.setup.mode !== 'uat') return out;
  for (const e of all(input.runs)) {
    const q = e.request;
    if (!['validate', 'create', 'cc-token'].includes(q.route) || q.body === '') continue;
    const r = await open(q.body, { decryptionKey: input.bankApiPrivateKeyPem, verificationKey: input.setup.certPem });
    out.set(q, r.ok ? { ok: true, payload: r.payload } : { ok: false, reason: `${r.step}: ${r.code}` });
  }
  return out;
}

export function cli01(input: JudgeInput, opened: Opened): Judgement {
  if (input.setup.mode !== 'uat') return j('CLI-01', 'not-applicable', 'bodies travel sealed in UAT only');
  const sealedOnes = all(input.runs).filter((e) => opened.has(e.request));
  if (sealedOnes.length === 0) return j('CLI-01', 'inconclusive', 'the client sent no request body to judge');
  const bad = sealedOnes.filter((e) => !opened.get(e.request)!.ok);
  if (bad.length === 0)
    return j(
      'CLI-01',
      'pass',
      `${sealedOnes.length} request bodies opened with the bank's key and the client's certificate`,
      sealedOnes.slice(0, 3),
    );
  const why = bad.map((e) => `${describeReq(e)}: ${(opened.get(e.request) as { reason: string }).reason}`);
  return j('CLI-01', 'broken', `request bodies not sealed as §5.4 says: ${why.slice(0, 5).join('; ')}`, bad);
}

/**
 * what a request reveals of the customers' identifiers, place by place (judge-mask.ts); the token request's
 * oauth_metadata, where the specification puts the clear identifier (§2, §4.4), excepted, read as the bank reads it
 */
function maskPlaces(q: SeenRequest, opened: Opened, ids: string[]): string[] {
  const places: [string, string][] = [
    ['URL', `${q.target} ${safeDecode(q.target)}`],
    ['headers', Object.values(q.headers).join(' ')],
  ];
  if (q.route === 'cc-token' && !opened.has(q)) {
    // the sandbox form: the fields that carry oauth_metadata hold the clear id
    const f = new URLSearchParams(q.body);
    for (const field of ccFormMetadata(f).fields) f.delete(field);
    places.push(['body', `${f.toString()} ${safeDecode(f.toString())}`]);
  } else places.push(['body', q.body]);
  const o = opened.get(q);
  if (o?.ok) {
    const p = { ...(o.payload as Record<string, unknown>) };
    if (q.route === 'cc-token') delete p.oauth_metadata;
    places.push(['sealed body', JSON.stringify(p)]);
  }
  return places.flatMap(([where, text]) => maskFindings(text, ids).map((f) => `${describeFinding(f)} in the ${where}`));
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

export function mask05(input: JudgeInput, opened: Opened): Judgement {
  const reqs = all(input.runs);
  if (reqs.length === 0) return j('MASK-05', 'inconclusive', 'the client sent no request');
  const bad: Ev = [];
  const problems: string[] = [];
  for (const e of reqs) {
    const places = maskPlaces(e.request, opened, input.clearIds);
    if (places.length) {
      problems.push(`${describeReq(e)}: ${[...new Set(places)].join(', ')}`);
      bad.push(e);
    }
  }
  if (problems.length) return j('MASK-05', 'broken', problems.slice(0, 5).join('; '), bad);
  return j(
    'MASK-05',
    'pass',
    `every account or emirates id in ${reqs.length} requests (URL, headers, bodies, sealed bodies opened) is its exact mask or absent`,
  );
}
