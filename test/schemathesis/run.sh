#!/usr/bin/env bash
# Schemathesis (property-based API testing) against the OpenAPI document the API serves: no 5xx,
# no response that contradicts the document (schema, status code, content type).
#
#   bash test/schemathesis/run.sh          from the repository root
#
# Engine: OPENSEARCH_URL when set, else a local engine started here (and stopped after) on
# SCHEMATHESIS_ENGINE_PORT (default 9290). Data: a synthetic directory under a throw-away index
# prefix, removed at the end. Schemathesis is pip-installed, pinned, into .data/ (git-ignored).
# Bounded: the run stops after SCHEMATHESIS_SECONDS (default 240). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION=4.32.5
WORK=.data/schemathesis
VENV=$WORK/venv
NODE=node_modules/.bin/node
SECONDS_LIMIT=${SCHEMATHESIS_SECONDS:-240}
mkdir -p "$WORK"

if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  echo "installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

started_engine=""
api_pid=""
prefix="schemathesis-$$"
cleanup() {
  set +e
  [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null && wait "$api_pid" 2>/dev/null
  [ -n "${OPENSEARCH_URL:-}" ] && curl -s -o /dev/null -X DELETE "$OPENSEARCH_URL/$prefix-*?expand_wildcards=all"
  [ -n "$started_engine" ] && ENGINE_PORT="$started_engine" "$NODE" local-engine/engine.ts stop >/dev/null
}
trap cleanup EXIT

if [ -z "${OPENSEARCH_URL:-}" ]; then
  port=${SCHEMATHESIS_ENGINE_PORT:-9290}
  ENGINE_PORT=$port "$NODE" local-engine/engine.ts start
  started_engine=$port
  export OPENSEARCH_URL="http://127.0.0.1:$port"
fi

INDEX_PREFIX=$prefix "$NODE" test/schemathesis/load-data.ts

# A write token, so the write API's operations are exercised past authentication (positive cases:
# records created, replaced and deleted); the ignored_auth check sends them without it as well and
# fails if such a request is not refused.
token_output=$("$NODE" src/cli/main.ts token schemathesis)
write_token=$(printf '%s\n' "$token_output" | sed -n 's/^token (shown once): //p')
export API_TOKENS=$(printf '%s\n' "$token_output" | sed -n 's/^API_TOKENS entry: *//p')

api_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
INDEX_PREFIX=$prefix PORT=$api_port HOST=127.0.0.1 LOG_LEVEL=${SCHEMATHESIS_API_LOG_LEVEL:-warn} "$NODE" src/cli/main.ts serve >"$WORK/api.log" 2>&1 &
api_pid=$!
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$api_port/health" >/dev/null && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:$api_port/health" >/dev/null || { echo "the API did not start:"; cat "$WORK/api.log"; exit 1; }

# One run: the OpenAPI document's operations selected by the arguments, bounded in time.
run_schemathesis() {
  local limit=$1
  shift
  # Run from .data/schemathesis so schemathesis keeps its cache there, out of the work tree.
  (cd "$WORK" && timeout --signal=INT "$limit" venv/bin/schemathesis run "http://127.0.0.1:$api_port/openapi.json" \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,ignored_auth \
    --header "Authorization: Bearer $write_token" \
    --workers 1 \
    --request-timeout 30 \
    --seed 1 \
    --no-color \
    "$@")
  local code=$?
  if [ "$code" -eq 124 ] || [ "$code" -eq 130 ]; then
    echo "schemathesis did not finish within ${limit}s"
  fi
  return "$code"
}

set +e
# The reads: every phase.
# shellcheck disable=SC2086
run_schemathesis "$SECONDS_LIMIT" --exclude-method PUT --exclude-method DELETE \
  --phases examples,coverage,fuzzing --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" ${SCHEMATHESIS_ARGS:-}
status=$?
# The writes: their bodies are whole nested records, whose coverage phase alone is ~100,000 cases
# (over five minutes here); the examples and fuzzing phases send valid and invalid bodies, with
# and without the token (ignored_auth).
if [ "$status" -eq 0 ]; then
  # shellcheck disable=SC2086
  run_schemathesis "${SCHEMATHESIS_WRITE_SECONDS:-300}" --include-method PUT --include-method DELETE \
    --phases examples,fuzzing --max-examples "${SCHEMATHESIS_WRITE_EXAMPLES:-50}" ${SCHEMATHESIS_ARGS:-}
  status=$?
fi
set -e
if [ "$status" -ne 0 ]; then
  echo "API log:"; tail -50 "$WORK/api.log"
fi
exit "$status"
