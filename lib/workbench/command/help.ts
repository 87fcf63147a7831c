/**
 * `npm run jose`'s help texts: plain text, no import (`--help` answers without loading the harness). The variants
 * are listed by `forge --list` (lib/workbench/moves/list.ts builds the catalogue to read them).
 */
const ROLE = '[--role code|partner|internal]';

const USAGE = `usage:
  npm run jose -- open   --profile p.jsonc --as client|bank ${ROLE} [FILE|-]
  npm run jose -- open   --profile p.jsonc --as client|bank ${ROLE} --har run.har --entry N|--check ID
  npm run jose -- seal   --profile p.jsonc --as client|bank ${ROLE} [CHANGES] [--inner-jws] [FILE|-]
  npm run jose -- tamper --profile p.jsonc --as client|bank ${ROLE} [CHANGES] [FILE|-]
  npm run jose -- forge  --profile p.jsonc --variant ID ${ROLE} [--key-url URL] [FILE|-]
  npm run jose -- forge --list
  npm run jose -- keys --out DIR
  npm run jose -- [COMMAND] --help
FILE or - (the default): stdin. Exit 0 done, 1 open: a step failed (the report printed), 2 bad input (one line).
The profile is a full profile with keys (\`npm run mock -- --mode uat\` writes one); --role (the client) defaults to
partner; --as says which side seals or opens: the client (a request) or the bank (an answer).`;

const CHANGES = `CHANGES (seal and tamper; none: seal makes the profile's envelope, tamper re-encrypts the JWS unchanged):
  --set jwe.NAME=VALUE    set a member of the JWE protected header (kid, jku, x5u, jwk, x5c, crit, typ, cty, zip...)
  --set jws.NAME=VALUE    set a member of the JWS protected header (the signature covers it)
  --set payload.a.b=VALUE set a member of the payload (dotted: nested). VALUE is JSON when it parses as JSON
                          (1, true, null, {"k":1}, '"1.00"' for the string 1.00), else the text itself
  --unset LAYER.NAME      remove a member (jwe.enc, jws.alg, payload.remarks ...); repeat --set / --unset at will
  --alg ALG               the JWS alg: RS256, RS512, PS256, HS256, or none in any spelling (None, nOnE: no signature)
  --kid KID               the JWS protected header's kid
  --sign-key FILE|attacker  sign with this private key (PEM or JWK file), or the harness's attacker key
  --secret TEXT | --secret-file FILE | --hmac-public-key bank|client
                          HS256 with this secret (a file's bytes; a public key's SPKI PEM: key confusion)
  --embed jwk|x5c         the signing key in the JWS header: its public JWK, or (attacker) its certificate
  --signature empty|truncated   the JWS signature emptied, or cut to its first half (signed, then cut)
  --unsigned              no JWS: the payload itself encrypted
  --enc ENC               A256CBC-HS512 (the profile's), A128CBC-HS256, A128GCM, A256GCM
  --jwe-alg ALG           the key wrapping: RSA-OAEP-256 (the profile's), RSA-OAEP, RSA1_5
  --also-to attacker|FILE the content key also wrapped for this public key or certificate (a second recipient)
  --jws-form / --jwe-form general|flattened|compact   the serializations (general: the profile's)
  --flip protected|iv|ciphertext|tag|encrypted_key     one bit of that JWE member flipped, after sealing
A header given by --set is written as given, after --alg, --kid and --embed (a header that lies about its alg).`;

const HELP: Record<string, string> = {
  open: `npm run jose -- open --profile p.jsonc --as client|bank ${ROLE} [FILE|-]
npm run jose -- open --profile p.jsonc --as client|bank ${ROLE} --har run.har --entry N|--check ID
Opens an envelope (JWE general or flattened JSON, or compact, as read from a proxy) with the harness's opener:
  --as client  an answer the bank sealed to the client: decrypt with clients.<role>.privateKey, verify with
               bank.apiPublicKey (the response policy: what JOSE-11 demands);
  --as bank    a request a client sealed to the bank: decrypt with bank.apiPrivateKey, verify with
               clients.<role>.certificate (the bank's strict request policy).
  --har FILE   a HAR 1.2 file: the envelope of entry --entry N (log.entries[N], from 0), or of the one entry
               --check ID sent (its comment "sent by …: ID"); --as bank reads the request's
               postData.text, --as client the answer's content.text
Prints the layers, every protected (decoded) and unprotected header, each step (size, parse, jwe-structure,
jwe-header, decrypt, jws-structure, jws-header, verify, payload) with the key (field and JWK thumbprint) and the
algorithm it used, then the payload. An envelope that fails a step: the step, why, and what could be read (exit 1).
Not JSON, not an envelope, a key that cannot unwrap its content key, a missing profile field: one line, exit 2.`,
  seal: `npm run jose -- seal --profile p.jsonc --as client|bank ${ROLE} [CHANGES] [--inner-jws] [FILE|-]
Seals a JSON document (JWS RS256 in JWE RSA-OAEP-256 + A256CBC-HS512, general JSON, by the builders the checks'
forgeries use) and prints the envelope (one line):
  --as client  signed with clients.<role>.privateKey, encrypted to bank.apiPublicKey (a request);
  --as bank    signed with bank.apiPrivateKey, encrypted to clients.<role>.certificate (an answer).
  --inner-jws  the input is a JWS (compact or JSON): encrypted as it is, never signed again.

${CHANGES}`,
  tamper: `npm run jose -- tamper --profile p.jsonc --as client|bank ${ROLE} [CHANGES] [FILE|-]
Reads an envelope (a captured request with --as client: decrypted with bank.apiPrivateKey; an answer with --as
bank: decrypted with clients.<role>.privateKey), or its inner JWS, applies CHANGES and prints the envelope sealed
again to the same recipient. The JWS is signed again (as --as says, or as CHANGES say) only when a JWS option or a
payload member changes; else the inner JWS is kept byte for byte and only encrypted again (its JWE header, alg and
enc as read, with the jwe.* changes). The JWE protected header read is kept, with the changes.

${CHANGES}`,
  forge: `npm run jose -- forge --profile p.jsonc --variant ID ${ROLE} [--key-url URL] [FILE|-]
npm run jose -- forge --list
Builds one forgery of the checks' catalogue over the JSON payload read, by the same code the checks use, and
prints it (JSON, or the text sent as it is: a compact serialization, a duplicated member). request variants are
sealed as clients.<role> to the bank; answer variants (spoil:*) as the bank to clients.<role> (they need
bank.apiPrivateKey). --key-url: where jku and x5u point (default http://127.0.0.1:9, where nothing listens). E7
reads the target's TLS server key (target.baseUrl). --list: every variant, one line each (id, side, requirement,
what).`,
  keys: `npm run jose -- keys --out DIR
Writes the harness's attacker key (the one --sign-key attacker and the H*, A5, S9, S10 forgeries use; made on this
machine at run time, registered nowhere) into DIR, for a reviewer to serve for jku / x5u: attacker-private.pem
(mode 0600), attacker-private.jwk.json (0600), attacker-public.pem, attacker-cert.pem (self-signed: what x5u
points at), jwks.json (the public JWK, kid "attacker": what jku points at). Prints the files and the key's RFC 7638
thumbprint.`,
};

export function helpText(command?: string): string {
  if (command !== undefined && HELP[command] !== undefined) return `${HELP[command]}\n`;
  return `${USAGE}\n\n${['open', 'seal', 'tamper', 'forge', 'keys'].map((c) => HELP[c]).join('\n\n')}\n`;
}
