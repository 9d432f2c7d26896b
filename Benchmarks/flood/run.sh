#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# A flood of one client's own changes beside a listener that matches every signal and never reads
# (Docs/security.md, "A flood of changes"): flood.py builds a window, a navigation controller and
# VIEWS views, then ROUNDS times sets the navigation's views to all, then none, and turns the
# device; a bystander calls Get every 20 ms. On a private dbus-daemon with the system bus's limits,
# one run per daemon named, in the order given, RUNS times alternating. Prints per run the longest
# answer to the flooding client and the bystander's median, 95th percentile and longest Get.
# Never fails on a time.
#
# Usage: Benchmarks/flood/run.sh [DAEMON...]   (default: the release build, built first)
#   RUNS=3 ROUNDS=160 VIEWS=4095
# Needs (Debian): dbus-daemon, python3-gi.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -eq 0 ]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product orientationd >&2)
    set -- "$root/.build/release/orientationd"
fi
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=../private-bus.sh
. "$here/../private-bus.sh"
printf '%-60s %10s %10s %10s %10s %s\n' daemon "flood max" "Get med" "Get p95" "Get max" errors
for run in $(seq "${RUNS:-3}"); do
    for daemon in "$@"; do
        start_private_bus
        rm -rf "$work/state"
        "$daemon" --address "$bus_address" --sensor simulated --state-dir "$work/state" 2>"$work/daemon.log" &
        pid=$!
        sleep 0.5
        out=$(/usr/bin/python3 "$here/flood.py" "$bus_address" "${ROUNDS:-160}" "${VIEWS:-4095}")
        kill "$pid" "$bus_pid" 2>/dev/null; wait "$pid" "$bus_pid" 2>/dev/null || true
        flood=$(sed -n 's/^flood //p' <<<"$out"); get=($(sed -n 's/^get //p' <<<"$out"))
        printf '%-60s %8s ms %7s ms %7s ms %7s ms %s\n' "$daemon" "$flood" "${get[0]}" "${get[1]}" "${get[2]}" \
            "$(sed -n 's/^errors //p' <<<"$out")"
    done
done
