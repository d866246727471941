#!/usr/bin/env bash
# The Python client (clients/python, README "Client libraries"): generated from the API's OpenAPI document by
# openapi-python-client (pinned; installed once into a virtual environment under .tools/) into
# clients/python/in_store_payments_client/ (git-ignored: generated, never committed). The
# hand-written part (verify_webhook, connect) is clients/python/in_store_payments/.
set -euo pipefail
cd "$(dirname "$0")/../.."

GENERATOR_VERSION=0.29.1
venv=".tools/python-client-generator"
if [ ! -x "$venv/bin/openapi-python-client" ] || ! "$venv/bin/pip" show openapi-python-client 2>/dev/null | grep -q "^Version: $GENERATOR_VERSION$"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "openapi-python-client==$GENERATOR_VERSION"
fi

document="clients/python/openapi.json"
node --require tsx/preflight --import tsx scripts/openapi/write.ts "$document"
rm -rf clients/python/in_store_payments_client
"$venv/bin/openapi-python-client" generate --path "$document" --config clients/python/generator.yml \
  --meta none --output-path clients/python/in_store_payments_client --overwrite
echo "python client: clients/python/in_store_payments_client generated from $document"
