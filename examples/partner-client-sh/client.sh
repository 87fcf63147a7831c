#!/usr/bin/env bash
# A partner client in plain shell (bash + curl + openssl), written from docs/partner.md only: it shows that a client
# in another language than the harness's can be certified. The client-credentials flow bound to the account:
#   token (POST /oauth/partner_auth/token) -> validate -> create (PUT, its own transfer_id) -> get.
# UAT: mutual TLS (TLS 1.2+, the bank CA only), bodies sealed (JWS JSON RS256 inside JWE JSON RSA-OAEP-256 +
# A256CBC-HS512, built with openssl), answers opened and verified against the bank's API key before use.
# Sandbox: plain HTTP and JSON, HTTP Basic + form for the token.
# One token for the task; 401 -> one new token; 429 -> wait Retry-After; a create without an answer -> the same PUT.
# Exit 0 when done, non-zero when it refuses to go on.
set -euo pipefail

die() {
  echo "refused to go on: $*" >&2
  exit 3
}
for v in BANK_BASE_URL BANK_OAUTH_BASE_URL BANK_CLIENT_ID BANK_CLIENT_SECRET BANK_ACCOUNT_ID BANK_BENEFICIARY_ID; do
  [ -n "${!v:-}" ] || die "$v is not set"
done
uat=true
[ "${BANK_ENVIRONMENT:-uat}" = sandbox ] && uat=false
if $uat; then
  for v in BANK_CA_FILE BANK_API_PUBLIC_KEY_FILE BANK_CLIENT_KEY_FILE BANK_CLIENT_CERT_FILE; do
    [ -n "${!v:-}" ] || die "$v is not set"
  done
fi
[ "${BANK_FLOW:-}" = client-credentials ] || die "this client uses the client-credentials flow only"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the masked form of an id: the first 4 and the last 3 characters kept, x in between
mask() {
  local id=$1 n=${#1}
  local middle
  middle=$(printf '%*s' $((n - 7)) '' | tr ' ' x)
  printf '%s%s%s' "${id:0:4}" "$middle" "${id:n-3:3}"
}

# json_string <name> <file>: the value of a top-level string member (enough for the bank's flat answers)
json_string() {
  sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\\([^\"]*\\)\".*/\\1/p" "$2" | head -n 1
}

# ---- JOSE with openssl (UAT) ---------------------------------------------------------------------------------
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
unb64url() {
  local s
  s=$(tr -- '-_' '+/')
  while [ $((${#s} % 4)) -ne 0 ]; do s="$s="; done
  printf '%s' "$s" | openssl base64 -d -A
}
hex() { od -An -v -tx1 | tr -d ' \n'; }
unhex() { printf '%b' "$(sed 's/../\\x&/g')"; }
# AL of RFC 7518 5.2.2.1: the AAD length in bits, 64-bit big-endian
al() { printf '%016x' $(($1 * 8)) | unhex; }

# seal <json-file> <out-file>: JWS JSON (general) RS256 with the client key, inside JWE JSON (general) to the bank
seal() {
  local prot payload sig jws eprot cek iv ek ct tag
  prot=$(printf '{"alg":"RS256"}' | b64url)
  payload=$(b64url <"$1")
  sig=$(printf '%s.%s' "$prot" "$payload" | openssl dgst -sha256 -sign "$BANK_CLIENT_KEY_FILE" | b64url)
  jws="{\"payload\":\"$payload\",\"signatures\":[{\"protected\":\"$prot\",\"signature\":\"$sig\"}]}"
  eprot=$(printf '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}' | b64url)
  openssl rand 64 >"$work/cek"
  cek=$(hex <"$work/cek")
  iv=$(openssl rand -hex 16)
  ek=$(openssl pkeyutl -encrypt -pubin -inkey "$BANK_API_PUBLIC_KEY_FILE" -in "$work/cek" \
    -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256 -pkeyopt rsa_mgf1_md:sha256 | b64url)
  printf '%s' "$jws" | openssl enc -aes-256-cbc -K "${cek:64:64}" -iv "$iv" >"$work/ct"
  { printf '%s' "$eprot"; printf '%s' "$iv" | unhex; cat "$work/ct"; al ${#eprot}; } >"$work/mac-input"
  tag=$(openssl dgst -sha512 -mac HMAC -macopt "hexkey:${cek:0:64}" -binary <"$work/mac-input" | head -c 32 | b64url)
  ct=$(b64url <"$work/ct")
  printf '{"protected":"%s","recipients":[{"encrypted_key":"%s"}],"iv":"%s","ciphertext":"%s","tag":"%s"}' \
    "$eprot" "$ek" "$(printf '%s' "$iv" | unhex | b64url)" "$ct" "$tag" >"$2"
}

# open_sealed <in-file> <out-file>: decrypts with the client key, checks the tag, verifies RS256 with the bank's key
open_sealed() {
  local eprot ek iv ct tag cek want jws prot payload sig
  eprot=$(json_string protected "$1")
  ek=$(json_string encrypted_key "$1")
  iv=$(json_string iv "$1")
  ct=$(json_string ciphertext "$1")
  tag=$(json_string tag "$1")
  [ -n "$eprot" ] && [ -n "$ek" ] && [ -n "$iv" ] && [ -n "$ct" ] && [ -n "$tag" ] || die "the answer is not sealed"
  # the general JSON serialization only (a recipients array), not the flattened form nor the compact one
  grep -q '"recipients"[[:space:]]*:[[:space:]]*\[' "$1" || die "the answer's JWE is not in the general JSON serialization"
  [ "$(printf '%s' "$eprot" | unb64url)" = '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}' ] ||
    die "the answer's JWE header is not RSA-OAEP-256 + A256CBC-HS512"
  printf '%s' "$ek" | unb64url >"$work/ek"
  cek=$(openssl pkeyutl -decrypt -inkey "$BANK_CLIENT_KEY_FILE" -in "$work/ek" -pkeyopt rsa_padding_mode:oaep \
    -pkeyopt rsa_oaep_md:sha256 -pkeyopt rsa_mgf1_md:sha256 | hex) || die "the answer's key does not decrypt"
  [ ${#cek} -eq 128 ] || die "the answer's content key has the wrong length"
  printf '%s' "$ct" | unb64url >"$work/ct"
  { printf '%s' "$eprot"; printf '%s' "$iv" | unb64url; cat "$work/ct"; al ${#eprot}; } >"$work/mac-input"
  want=$(openssl dgst -sha512 -mac HMAC -macopt "hexkey:${cek:0:64}" -binary <"$work/mac-input" | head -c 32 | b64url)
  [ "$want" = "$tag" ] || die "the answer's authentication tag does not verify"
  jws=$(openssl enc -d -aes-256-cbc -K "${cek:64:64}" -iv "$(printf '%s' "$iv" | unb64url | hex)" <"$work/ct") ||
    die "the answer does not decrypt"
  printf '%s' "$jws" >"$work/jws"
  prot=$(json_string protected "$work/jws")
  payload=$(json_string payload "$work/jws")
  sig=$(json_string signature "$work/jws")
  [ -n "$prot" ] && [ -n "$payload" ] && [ -n "$sig" ] || die "the answer is not signed"
  grep -q '"signatures"[[:space:]]*:[[:space:]]*\[' "$work/jws" || die "the answer's JWS is not in the general JSON serialization"
  [ "$(printf '%s' "$prot" | unb64url)" = '{"alg":"RS256"}' ] || die "the answer's signature is not RS256"
  printf '%s' "$sig" | unb64url >"$work/sig"
  printf '%s.%s' "$prot" "$payload" | openssl dgst -sha256 -verify "$BANK_API_PUBLIC_KEY_FILE" \
    -signature "$work/sig" >/dev/null 2>&1 || die "the answer's signature does not verify with the bank's key"
  printf '%s' "$payload" | unb64url >"$2"
}

# curl options of every call: mutual TLS, TLS 1.2+, only the bank CA (UAT)
tls=()
$uat && tls=(--tlsv1.2 --cacert "$BANK_CA_FILE" --cert "$BANK_CLIENT_CERT_FILE" --key "$BANK_CLIENT_KEY_FILE")

token=
new_token() {
  local status
  if $uat; then
    printf '{"grant_type":"client_credentials","scope":"transfers","oauth_metadata":{"account_id":"%s"}}' \
      "$BANK_ACCOUNT_ID" >"$work/token-request.json"
    seal "$work/token-request.json" "$work/token-request.jwe"
    status=$(curl -sS "${tls[@]}" -o "$work/token.sealed" -w '%{http_code}' \
      -H 'Content-Type: application/json' -H "X-Gateway-Client-Id: $BANK_CLIENT_ID" \
      -H "X-Gateway-Client-Secret: $BANK_CLIENT_SECRET" -H "MsgId: $(openssl rand -hex 16)" \
      --data-binary "@$work/token-request.jwe" "$BANK_OAUTH_BASE_URL/oauth/partner_auth/token") ||
      die "token endpoint unreachable"
    open_sealed "$work/token.sealed" "$work/token.json"
  else
    status=$(curl -sS -o "$work/token.json" -w '%{http_code}' \
      -u "$BANK_CLIENT_ID:$BANK_CLIENT_SECRET" \
      --data-urlencode grant_type=client_credentials \
      --data-urlencode scope=transfers \
      --data-urlencode "oauth_metadata={\"account_id\":\"$BANK_ACCOUNT_ID\"}" \
      "$BANK_OAUTH_BASE_URL/oauth/partner_auth/token") || die "token endpoint unreachable"
  fi
  [ "$status" = 200 ] || die "token endpoint answered $status"
  token=$(json_string access_token "$work/token.json")
  [ -n "$token" ] || die "no access_token in the token answer"
}

# api <method> <path> [body-file]: sets $status and leaves the answer in $work/answer.json; returns curl's code
api() {
  local method=$1 path=$2 body=${3:-} attempt rc wait
  for attempt in 1 2 3; do
    local args=(-sS "${tls[@]}" -X "$method" -o "$work/answer.raw" -D "$work/headers.txt" -w '%{http_code}'
      -H "Authorization: Bearer $token" -H "X-Gateway-Client-Id: $BANK_CLIENT_ID")
    if [ -n "$body" ]; then
      if $uat; then
        seal "$body" "$work/body.jwe"
        args+=(-H 'Content-Type: application/json' --data-binary "@$work/body.jwe")
      else
        args+=(-H 'Content-Type: application/json' --data-binary "@$body")
      fi
    fi
    rc=0
    status=$(curl "${args[@]}" "$BANK_BASE_URL$path") || rc=$?
    [ "$rc" = 0 ] || return "$rc"
    if [ "$status" = 401 ] && [ "$attempt" = 1 ]; then
      new_token
      continue
    fi
    if [ "$status" = 429 ] && [ "$attempt" -lt 3 ]; then
      wait=$(sed -n 's/^[Rr]etry-[Aa]fter:[[:space:]]*\([0-9]*\).*/\1/p' "$work/headers.txt" | head -n 1)
      sleep "${wait:-1}"
      continue
    fi
    # every answer is used only once it is opened and verified (UAT)
    if $uat; then open_sealed "$work/answer.raw" "$work/answer.json"; else cp "$work/answer.raw" "$work/answer.json"; fi
    return 0
  done
}

new_token
cat >"$work/transfer.json" <<EOF
{"beneficiary_id":"$BANK_BENEFICIARY_ID","account_id":"$(mask "$BANK_ACCOUNT_ID")","amount":{"value":"150.00","currency":"AED"},"purpose_code":"FAM","remarks":"certification"}
EOF

api POST /transfers/validate "$work/transfer.json" || die "validate: no answer"
[ "$status" = 200 ] || die "validate answered $status"
# a signed answer is this call's only if it answers this call (not another call's answer replayed: CLI-09)
grep -q '"total_credit_amount":{"value":"150.00"' "$work/answer.json" ||
  die "validate's answer does not answer this transfer (total_credit_amount)"
echo "validated"

transfer_id=$(openssl rand -hex 16)
for attempt in 1 2 3; do
  if api PUT "/transfers/$transfer_id" "$work/transfer.json"; then break; fi
  [ "$attempt" -lt 3 ] || die "create: no answer after 3 tries"
  echo "create: no answer; the same PUT again"
done
[ "$status" = 201 ] || [ "$status" = 200 ] || die "create answered $status"
[ "$(json_string transfer_id "$work/answer.json")" = "$transfer_id" ] || die "create's answer names another transfer_id"
echo "created: $transfer_id"

api GET "/transfers/$transfer_id" || die "get: no answer"
[ "$status" = 200 ] || die "get answered $status"
echo "read back: $(json_string status "$work/answer.json")"
