#!/usr/bin/env bash
# Runs the date-sensitive tests (the interop suite and the built-ins' specs) with the system clock
# set to a Monday and to a Sunday, in UTC and in zones east and west of it, through Debian's
# faketime: they must pass on any day, not only on the day their baseline was recorded.
# With a folder argument (.ci/run passes .ci/out) each point also writes jest's JSON report there.
set -euo pipefail
out="${1:-}"
cd "$(dirname "$0")/.."
command -v faketime >/dev/null 2>&1 || { echo "faketime is missing: apt-get install faketime"; exit 1; }
specs=(tests/unit/blocks/builtins.test.ts tests/unit/blocks/references.test.ts tests/unit/runner/prepare.test.ts)
status=0
# Local times: a Monday and a Sunday in UTC, then a Monday that is still Sunday in UTC (Kiritimati,
# UTC+14) and a Sunday that is already Monday in UTC (Los Angeles), where $localDatetime and
# $datetime fall on different days.
n=0
for at in "2026-11-30 10:00:00|UTC" "2026-11-29 23:30:00|UTC" "2026-11-30 09:30:00|Pacific/Kiritimati" "2026-11-29 17:30:00|America/Los_Angeles"; do
	day="${at%|*}"
	zone="${at#*|}"
	echo "::: $day, TZ=$zone"
	n=$((n + 1))
	report=()
	[ -z "$out" ] || report=(--json "--outputFile=$out/any-day-$n.json")
	TZ="$zone" faketime "$day" npx jest tests/interop "${specs[@]}" "${report[@]}" || status=1
done
exit $status
