#!/usr/bin/env bash
# A partner client in plain shell (bash + curl + openssl), written from docs/partner.md only: it shows that a client
# in another language than the harness's can be certified. It speaks the sandbox (plain HTTP, plain JSON bodies)
# with the client-credentials flow bound to the account:
#   token (POST /oauth/partner_auth/token, Basic + form) -> validate -> create (PUT, its own transfer_id) -> get.
# One token for the task; 401 -> one new token; 429 -> wait Retry-After; a create without an answer -> the same PUT.
# Exit 0 when done, non-zero when it refuses to go on. UAT (sealed bodies, mutual TLS) is not implemented here.
set -euo pipefail

die() {
  echo "refused to go on: $*" >&2
  exit 3
}
for v in BANK_BASE_URL BANK_OAUTH_BASE_URL BANK_CLIENT_ID BANK_CLIENT_SECRET BANK_ACCOUNT_ID BANK_BENEFICIARY_ID; do
  [ -n "${!v:-}" ] || die "$v is not set"
done
[ "${BANK_ENVIRONMENT:-uat}" = sandbox ] || die "this client speaks the sandbox only"
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

token=
new_token() {
  local status
  status=$(curl -sS -o "$work/token.json" -w '%{http_code}' \
    -u "$BANK_CLIENT_ID:$BANK_CLIENT_SECRET" \
    --data-urlencode grant_type=client_credentials \
    --data-urlencode scope=transfers \
    --data-urlencode "oauth_metadata={\"account_id\":\"$BANK_ACCOUNT_ID\"}" \
    "$BANK_OAUTH_BASE_URL/oauth/partner_auth/token") || die "token endpoint unreachable"
  [ "$status" = 200 ] || die "token endpoint answered $status"
  token=$(json_string access_token "$work/token.json")
  [ -n "$token" ] || die "no access_token in the token answer"
}

# api <method> <path> [body-file]: sets $status and leaves the answer in $work/answer.json; returns curl's code
api() {
  local method=$1 path=$2 body=${3:-} attempt rc wait
  for attempt in 1 2 3; do
    local args=(-sS -X "$method" -o "$work/answer.json" -D "$work/headers.txt" -w '%{http_code}'
      -H "Authorization: Bearer $token" -H "X-Gateway-Client-Id: $BANK_CLIENT_ID")
    [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data-binary "@$body")
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
    return 0
  done
}

new_token
cat >"$work/transfer.json" <<EOF
{"beneficiary_id":"$BANK_BENEFICIARY_ID","account_id":"$(mask "$BANK_ACCOUNT_ID")","amount":{"value":"150.00","currency":"AED"},"purpose_code":"FAM","remarks":"certification"}
EOF

api POST /transfers/validate "$work/transfer.json" || die "validate: no answer"
[ "$status" = 200 ] || die "validate answered $status"
echo "validated"

transfer_id=$(openssl rand -hex 16)
for attempt in 1 2 3; do
  if api PUT "/transfers/$transfer_id" "$work/transfer.json"; then break; fi
  [ "$attempt" -lt 3 ] || die "create: no answer after 3 tries"
  echo "create: no answer; the same PUT again"
done
[ "$status" = 201 ] || [ "$status" = 200 ] || die "create answered $status"
echo "created: $transfer_id"

api GET "/transfers/$transfer_id" || die "get: no answer"
[ "$status" = 200 ] || die "get answered $status"
echo "read back: $(json_string status "$work/answer.json")"
