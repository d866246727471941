#!/usr/bin/env bash
# Runs a command with TEMPORAL_ADDRESS pointing at a real Temporal server (`npm run temporal-server`:
# PostgreSQL persistence and visibility, 4 history shards) on a free loopback port, stopped
# afterwards. The server's databases go to TEMPORAL_SERVER_DATABASE_URL, else to DATABASE_URL's
# PostgreSQL server, so the usual way is under scripts/with-postgres.sh:
#   scripts/with-postgres.sh scripts/with-temporal-server.sh npm test
# The server's log goes to a temporary folder, kept when the command fails.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="$(mktemp -d /tmp/isp-temporal-server.XXXXXX)"

# A session of its own, so the stop reaches the server binary under the Node wrapper too.
TEMPORAL_SERVER_PORT="${TEMPORAL_SERVER_PORT:-0}" setsid node "$ROOT/node_modules/tsx/dist/cli.mjs" "$ROOT/scripts/temporal-server/main.ts" \
  >"$DIR/stdout" 2>"$DIR/server.log" &
PID=$!

stop_server() {
  local rc=$?
  if kill -0 "$PID" 2>/dev/null; then
    kill -TERM -- "-$PID" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$PID" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$PID" 2>/dev/null || true
  fi
  wait "$PID" 2>/dev/null || true
  if [ "$rc" = 0 ]; then rm -rf "$DIR"; else echo "with-temporal-server: the server's log is kept in $DIR/server.log" >&2; fi
  exit "$rc"
}
trap stop_server EXIT

# The first start may include the build (minutes; `npm run temporal-server -- --build-only` does it ahead).
deadline=$((SECONDS + ${TEMPORAL_SERVER_READY_SECONDS:-1800}))
until grep -q '^temporal-server ready address=' "$DIR/stdout"; do
  if ! kill -0 "$PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
    tail -n 60 "$DIR/server.log" | cut -c1-400 >&2
    echo "with-temporal-server: the Temporal server did not become ready" >&2
    exit 1
  fi
  sleep 1
done
TEMPORAL_ADDRESS="$(sed -n 's/^temporal-server ready address=//p' "$DIR/stdout")"
export TEMPORAL_ADDRESS
echo "Temporal server on $TEMPORAL_ADDRESS" >&2
"$@"
