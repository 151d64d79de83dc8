#!/usr/bin/env bash
# Installs the Debian packages the tests and benchmarks use, when missing:
# chromium (e2e), python3-httpbin (integration), curl, httpie and python3-requests (export equivalence),
# bsdutils' script (a terminal for the CLI tests), PostgreSQL and MariaDB servers (throwaway
# instances for the db integration tests), the sqlite3 CLI (bench/db baseline), faketime (scripts/test-any-day.sh),
# and the toolchain that builds better-sqlite3.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v http >/dev/null 2>&1 || need+=(httpie)
/usr/bin/python3 -c "import httpbin" >/dev/null 2>&1 || need+=(python3-httpbin)
/usr/bin/python3 -c "import requests" >/dev/null 2>&1 || need+=(python3-requests)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
# `script` gives the CLI tests a real terminal (colour and previews on a TTY).
command -v script >/dev/null 2>&1 || need+=(bsdutils)
# The db tests start their own servers from these binaries (initdb/pg_ctl, mariadb-install-db/mariadbd);
# the packages' own services are not used.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v mariadbd >/dev/null 2>&1 || need+=(mariadb-server)
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
# faketime runs the date-sensitive tests on another day (scripts/test-any-day.sh).
command -v faketime >/dev/null 2>&1 || need+=(faketime)
# better-sqlite3 (the CLI's native history, an optional dependency) builds from source on npm ci:
# a compiler, make and Node's headers (npm's nodedir points at /usr here).
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
if [ ${#need[@]} -eq 0 ]; then
	echo "system dependencies present"
	exit 0
fi
echo "installing: ${need[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
