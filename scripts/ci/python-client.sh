#!/usr/bin/env bash
# The Python client's own tests (clients/python, README "Client libraries") for .ci/run: the client is generated
# from the API's document and installed into a fresh virtual environment; the service starts as
# `npm start` would (embedded database, Temporal dev server, sandbox) on free loopback ports in a
# temporary DATA_DIR; the operator CLI makes a business and a test key; pytest runs the client's
# tests against it. The counts go to $CI_RESULT_FILE.
set -uo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
work="$(mktemp -d /tmp/isp-python-client.XXXXXX)"
pid=""
finish() {
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap finish EXIT
fail() {
  echo "python-client: $1"
  [ -f "$work/service.log" ] && tail -n 40 "$work/service.log"
  [ -n "${CI_RESULT_FILE:-}" ] && echo '{"passed":0,"failed":1,"skipped":0}' > "$CI_RESULT_FILE"
  exit 1
}

bash scripts/clients/python-generate.sh || fail "the client could not be generated"
python3 -m venv "$work/venv" || fail "no virtual environment"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "./clients/python[test]" || fail "the client did not install"

# Six free ports below the kernel's ephemeral range (src/process/freePort.ts says why).
read -r PORT SIM_PORT TEMPORAL_PORT TEMPORAL_UI_PORT EMBEDDED_DB_PORT MAIL_PORT < <(python3 - <<'PY'
import random, socket
ports = []
while len(ports) < 6:
    p = random.randint(20000, 32767)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
        if p not in ports:
            ports.append(p)
    except OSError:
        pass
    finally:
        s.close()
print(*ports)
PY
)
export PORT SIM_PORT TEMPORAL_PORT TEMPORAL_UI_PORT EMBEDDED_DB_PORT MAIL_PORT
export DATA_DIR="$work/data" HOST=127.0.0.1 LOG_LEVEL=warn WEBHOOK_ALLOW_INSECURE=true SETTLEMENT_AUTO_CLOSE=false TEMPORAL_METRICS_PORT=0
node dist/src/main.js > "$work/service.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  grep -q '^ready ' "$work/service.log" && break
  kill -0 "$pid" 2>/dev/null || fail "the service exited before it was ready"
  sleep 0.5
done
grep -q '^ready ' "$work/service.log" || fail "the service was not ready within 120 s"

admin=(node "$root/dist/src/cli/admin.js")
"${admin[@]}" merchant:create --external-id py-client --name "Python client" --json > /dev/null || fail "merchant:create failed"
key="$("${admin[@]}" apikey:create --merchant py-client --name python --mode test --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')" \
  || fail "apikey:create failed"

ISP_API_URL="http://127.0.0.1:$PORT" ISP_SANDBOX_URL="http://127.0.0.1:$SIM_PORT" ISP_API_KEY="$key" ISP_MERCHANT=py-client \
  ISP_ADMIN="node $root/dist/src/cli/admin.js" \
  "$work/venv/bin/pytest" -q -p no:cacheprovider clients/python/tests --junitxml "$work/junit.xml"
code=$?
if [ -n "${CI_RESULT_FILE:-}" ] && [ -s "$work/junit.xml" ]; then
  python3 - "$work/junit.xml" "$CI_RESULT_FILE" <<'PY'
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else list(root)
tests = sum(int(s.get("tests", 0)) for s in suites)
failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
skipped = sum(int(s.get("skipped", 0)) for s in suites)
json.dump({"passed": tests - failed - skipped, "failed": failed, "skipped": skipped}, open(sys.argv[2], "w"))
PY
fi
[ $code -ne 0 ] && tail -n 40 "$work/service.log"
exit $code
