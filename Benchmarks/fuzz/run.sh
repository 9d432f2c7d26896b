#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# systemd's D-Bus fuzzer (dfuzzer) against orientationd: every method and property of
# org.orientationd.Orientation1 and of the compatibility interface net.hadess.SensorProxy, as root
# and as nobody, on a private dbus-daemon with the system bus's limits. Prints dfuzzer's summary of
# each run, whether the daemon is still running, and its VmRSS before and after. dfuzzer is not
# packaged in Debian 12: build it from its source outside this tree (meson setup build && ninja -C
# build; it needs libglib2.0-dev) and name the binary.
#
# Usage: Benchmarks/fuzz/run.sh DFUZZER [DAEMON]   (DAEMON: default the release build)
#   ITERATIONS=N   dfuzzer's iterations per method (default: its own, from each signature)
# Needs (Debian): dbus-daemon, util-linux (setpriv, for the runs as nobody; run as root).
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
dfuzzer=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
daemon=${2:-$root/.build/release/orientationd}
work=$(mktemp -d)
chmod 755 "$work"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=../private-bus.sh
. "$root/Benchmarks/private-bus.sh"
start_private_bus
export DBUS_SESSION_BUS_ADDRESS="$bus_address"
"$daemon" --address "$DBUS_SESSION_BUS_ADDRESS" --sensor simulated --sensor-proxy-compat --state-dir "$work/state" \
    2>"$work/daemon.log" &
pid=$!
sleep 0.5
rss() { awk '/VmRSS/ { print $2 " kB" }' "/proc/$pid/status"; }
echo "orientationd pid $pid, VmRSS $(rss) before"
iterations=(); [ -n "${ITERATIONS:-}" ] && iterations=(-I "$ITERATIONS")
for user in root nobody; do
    as=(); [ "$user" = nobody ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    for name in org.orientationd.Orientation1 net.hadess.SensorProxy; do
        start=$(date +%s)
        status=0
        "${as[@]}" env DBUS_SESSION_BUS_ADDRESS="$DBUS_SESSION_BUS_ADDRESS" "$dfuzzer" -v -s -n "$name" "${iterations[@]}" \
            > "$work/out" 2>&1 || status=$?
        echo "== $user, $name: dfuzzer exit $status in $(( $(date +%s) - start )) s"
        sed 's/\x1b\[[0-9;]*m//g' "$work/out" > "$work/plain"
        echo "   members: $(grep -c 'PASS \[' "$work/plain") passed, $(grep -c 'FAIL \[' "$work/plain") failed," \
            "$(grep -c 'SKIP \[' "$work/plain") skipped"
        grep -E 'FAIL \[|crash' "$work/plain" | head -n 5 || true
        kill -0 "$pid" 2>/dev/null && echo "   orientationd running, VmRSS $(rss)" || { echo "   orientationd DIED"; tail "$work/daemon.log"; exit 1; }
    done
done
