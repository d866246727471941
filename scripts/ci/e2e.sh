#!/usr/bin/env bash
# The dashboard's browser tests (e2e/, docs/dashboard.md) for .ci/run: Debian's Chromium,
# installed from Debian's packages when missing (the browser build Playwright would download
# cannot be fetched here), then Playwright; the counts go to $CI_RESULT_FILE.
set -uo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "$1"; [ -n "${CI_RESULT_FILE:-}" ] && echo '{"passed":0,"failed":1,"skipped":0}' > "$CI_RESULT_FILE"; exit 1; }

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  echo "e2e: installing Debian's chromium"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium \
    || fail "e2e: could not install chromium"
fi

report="$(mktemp /tmp/isp-e2e-report.XXXXXX.json)"
E2E_JSON_REPORT="$report" CHROMIUM_PATH="$CHROMIUM" npx playwright test -c e2e/playwright.config.ts
code=$?
if [ -n "${CI_RESULT_FILE:-}" ] && [ -s "$report" ]; then
  node -e '
    const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).stats ?? {};
    const failed = (s.unexpected ?? 0) + ((s.expected ?? 0) + (s.unexpected ?? 0) + (s.flaky ?? 0) === 0 ? 1 : 0);
    require("fs").writeFileSync(process.env.CI_RESULT_FILE, JSON.stringify({ passed: (s.expected ?? 0) + (s.flaky ?? 0), failed, skipped: s.skipped ?? 0 }));
  ' "$report"
fi
rm -f "$report"
exit $code
