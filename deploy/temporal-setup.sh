#!/bin/sh
# The Temporal server's set-up, one script for `npm run temporal-server` (scripts/temporal-server/)
# and docker-compose.yml (run there in the temporalio/admin-tools image of the server's version).
# Safe to run again on every start: that is also how a server upgrade gets its schema changes.
#
#   temporal-setup.sh schema     creates the server's two PostgreSQL databases where missing and
#                                brings their schemas up to this temporal-sql-tool's version
#   temporal-setup.sh namespace  waits for the server, creates the namespace where missing and
#                                registers the payment search attributes
#
# schema:    SQL_HOST, SQL_PORT, SQL_USER, SQL_PASSWORD (temporal-sql-tool's own settings), and
#            DBNAME, VISIBILITY_DBNAME (deploy/temporal-server.env, which the server reads too)
# namespace: TEMPORAL_ADDRESS (host:port), TEMPORAL_NAMESPACE, NAMESPACE_RETENTION (e.g. 72h),
#            SEARCH_ATTRIBUTES ("Name=Keyword Name2=Keyword ...")
set -eu

schema() {
  export SQL_PLUGIN=postgres12
  for pair in "${DBNAME:-temporal}:temporal" "${VISIBILITY_DBNAME:-temporal_visibility}:visibility"; do
    db=${pair%%:*}
    kind=${pair##*:}
    # Both fail, harmlessly, where the database or its versioning table is there already.
    temporal-sql-tool --db "$db" create-database >/dev/null 2>&1 || true
    temporal-sql-tool --db "$db" setup-schema -v 0.0 >/dev/null 2>&1 || true
    # This one must work: it applies every versioned change the database has not had yet.
    if ! out=$(temporal-sql-tool --db "$db" update-schema --schema-name "postgresql/v12/$kind" 2>&1); then
      echo "$out" >&2
      echo "temporal-setup: the schema of database $db on ${SQL_HOST:-?}:${SQL_PORT:-?} could not be brought up to date" >&2
      exit 1
    fi
  done
  echo "temporal-setup: schemas of ${DBNAME:-temporal} and ${VISIBILITY_DBNAME:-temporal_visibility} up to date" >&2
}

namespace() {
  out=""
  addr=${TEMPORAL_ADDRESS:?set TEMPORAL_ADDRESS}
  ns=${TEMPORAL_NAMESPACE:-default}
  tries=0
  until temporal operator cluster health --address "$addr" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -ge 180 ]; then
      echo "temporal-setup: no healthy Temporal server at $addr after 3 minutes" >&2
      exit 1
    fi
    sleep 1
  done
  if ! temporal operator namespace describe --address "$addr" --namespace "$ns" >/dev/null 2>&1; then
    temporal operator namespace create --address "$addr" --namespace "$ns" --retention "${NAMESPACE_RETENTION:-72h}" >&2
  fi
  # Registers what the namespace lacks until it has every attribute. One call per attribute: given
  # several names at once, this server version kept only the first on SQL visibility; two updates
  # of the namespace close together can conflict; a namespace just created reaches every part of
  # the server at its next cache refresh. An attribute already there with the same type is no error.
  tries=0
  while :; do
    listed=$(temporal operator search-attribute list --address "$addr" --namespace "$ns" 2>&1 || true)
    missing=""
    for attr in ${SEARCH_ATTRIBUTES:-}; do
      echo "$listed" | grep -qw "${attr%%=*}" || missing="$missing $attr"
    done
    [ -z "$missing" ] && break
    tries=$((tries + 1))
    if [ "$tries" -ge 60 ]; then
      echo "$out" >&2
      echo "temporal-setup: could not register the search attributes$missing on namespace $ns" >&2
      exit 1
    fi
    for attr in $missing; do
      out=$(temporal operator search-attribute create --address "$addr" --namespace "$ns" --name "${attr%%=*}" --type "${attr##*=}" 2>&1) || sleep 1
    done
  done
  echo "temporal-setup: namespace $ns with search attributes: ${SEARCH_ATTRIBUTES:-none}" >&2
}

case "${1:-}" in
  schema) schema ;;
  namespace) namespace ;;
  *)
    echo "usage: temporal-setup.sh schema|namespace" >&2
    exit 2
    ;;
esac
