#!/usr/bin/env bash
# The tests start Chromium (its headless shell), redis-server, nginx, prometheus and PostgreSQL as child processes (and run promtool and
# strace); the Japanese screenshots need a font with Japanese glyphs (fonts-noto-cjk). Run as root on a fresh Debian
# machine, this installs whichever is missing; run as anyone else, it stops at once with the exact command to run.
set -euo pipefail

missing=()
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]; }

# Playwright's own Chromium, where it could be downloaded, serves as well as Debian's: chromium for the smoke journey
# and the benches, chromium-headless-shell for the e2e tests (e2e/chromium-path.ts).
if ! node -e 'const{chromium}=require("@playwright/test");process.exit(require("fs").existsSync(chromium.executablePath())?0:1)' 2>/dev/null; then
  have chromium || missing+=(chromium)
  have chromium-headless-shell || missing+=(chromium-headless-shell)
fi
have redis-server || missing+=(redis-server)
have nginx || missing+=(nginx)
have openssl || missing+=(openssl)
# One package: the server for the metrics e2e, promtool for the alert-rule tests.
{ have prometheus && have promtool; } || missing+=(prometheus)
# Without it Chromium draws Japanese with Droid Sans Fallback or boxes (npm run screenshots, docs/languages.md).
[ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto/NotoSansCJK* >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
# Debian's server binaries live off PATH, in /usr/lib/postgresql/<major>/bin (scripts/lib/postgres-server.ts finds them).
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
# tests/unit/durable-pglite.test.ts watches the embedded database's fsync/fdatasync calls with it.
have strace || missing+=(strace)

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "The tests need: ${missing[*]}. Install them first (as root):" >&2
  echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing ${missing[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
