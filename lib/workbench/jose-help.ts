/** `npm run jose`'s help texts and its listing of the variants. */
import { KEY_URL, listVariants } from './variants.ts';

const USAGE = `usage:
  npm run jose -- open  --profile p.jsonc --as client|bank [--role code|partner|internal] [FILE|-]
  npm run jose -- seal  --profile p.jsonc --as client|bank [--role code|partner|internal] [FILE|-]
  npm run jose -- forge --profile p.jsonc --variant ID [--role code|partner|internal] [--key-url URL] [FILE|-]
  npm run jose -- forge --list
  npm run jose -- [open|seal|forge] --help
FILE or - (the default): stdin. Exit 0 done, 1 open: a step failed (the report printed), 2 bad input.
The profile is a full profile with keys (\`npm run mock -- --mode uat\` writes one); --role defaults to partner.`;

const HELP: Record<string, string> = {
  open: `npm run jose -- open --profile p.jsonc --as client|bank [--role code|partner|internal] [FILE|-]
Opens an envelope (JWE general or flattened JSON, or compact, as read from a proxy) with the harness's opener:
  --as client  an answer the bank sealed to the client: decrypt with clients.<role>.privateKey, verify with
               bank.apiPublicKey (the response policy: what JOSE-11 demands);
  --as bank    a request a client sealed to the bank: decrypt with bank.apiPrivateKey, verify with
               clients.<role>.certificate (the bank's strict request policy).
Prints the layers, every protected (decoded) and unprotected header, each step (size, parse, jwe-structure,
jwe-header, decrypt, jws-structure, jws-header, verify, payload) with the key (field and JWK thumbprint) and the
algorithm it used, then the payload. An envelope that fails a step: the step, why, and what could be read (exit 1).
Not JSON, not an envelope, a key that cannot unwrap its content key, a missing profile field: one line, exit 2.`,
  seal: `npm run jose -- seal --profile p.jsonc --as client|bank [--role code|partner|internal] [FILE|-]
Seals a JSON document (lib/jose seal(): JWS RS256 in JWE RSA-OAEP-256 + A256CBC-HS512, general JSON) and prints
the envelope (one line of JSON):
  --as client  signed with clients.<role>.privateKey, encrypted to bank.apiPublicKey (a request);
  --as bank    signed with bank.apiPrivateKey, encrypted to clients.<role>.certificate (an answer).`,
  forge: `npm run jose -- forge --profile p.jsonc --variant ID [--role code|partner|internal] [--key-url URL] [FILE|-]
npm run jose -- forge --list
Builds one forgery over the JSON payload read, by the same code the checks use, and prints it (JSON, or the text
sent as it is: a compact serialization, a duplicated member). request variants are sealed as clients.<role> to the
bank; answer variants (spoil:*) as the bank to clients.<role> (they need bank.apiPrivateKey). --key-url: where jku
and x5u point (default ${KEY_URL}, where nothing listens). E7 reads the target's TLS server key (target.baseUrl).`,
};

/** one line per variant: id, side, requirement, what it is */
export async function listText(): Promise<string> {
  const vs = await listVariants();
  const w = Math.max(...vs.map((v) => v.id.length));
  return `${vs.map((v) => `${v.id.padEnd(w)}  ${v.side.padEnd(7)}  ${v.requirement.padEnd(7)}  ${v.title}`).join('\n')}\n`;
}

export async function helpText(command?: string): Promise<string> {
  if (command === 'open' || command === 'seal') return `${HELP[command]}\n`;
  const head = command === 'forge' ? HELP.forge! : `${USAGE}\n\n${HELP.open}\n\n${HELP.seal}\n\n${HELP.forge}`;
  return `${head}\n\nvariants (id, side, requirement, what):\n${await listText()}`;
}
