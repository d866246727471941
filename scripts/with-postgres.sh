#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throw-away PostgreSQL: installed from Debian's
# packages when missing, initialised in a temporary folder, stopped and removed afterwards.
# Usage: scripts/with-postgres.sh <command> [args...]
set -euo pipefail
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN="$(pg_bin)"
PG_DIR="$(mktemp -d /tmp/isp-pg.XXXXXX)"
PG_PORT="${PG_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')}"
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$PG_DIR"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi
as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
  -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off" start >/dev/null
cleanup() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$PG_DIR"; }
trap cleanup EXIT
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres payments
export DATABASE_URL="postgresql://postgres@127.0.0.1:$PG_PORT/payments"
echo "PostgreSQL on 127.0.0.1:$PG_PORT" >&2
"$@"
