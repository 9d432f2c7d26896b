#!/usr/bin/env bash
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
# The system bus's limits: 128 pending replies and 127 MB queued per connection (dbus-daemon's defaults).
cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/><allow user="*"/></policy>
  <limit name="max_message_size">33554432</limit>
  <limit name="max_replies_per_connection">128</limit>
  <limit name="max_incoming_bytes">133169152</limit>
  <limit name="max_outgoing_bytes">133169152</limit>
</busconfig>
CONF
printf '%-60s %10s %10s %10s %10s %s\n' daemon "flood max" "Get med" "Get p95" "Get max" errors
for run in $(seq "${RUNS:-3}"); do
    for daemon in "$@"; do
        dbus-daemon --config-file="$work/bus.conf" --nofork 2>/dev/null &
        bus=$!
        sleep 0.3
        rm -rf "$work/state"
        "$daemon" --address "unix:path=$work/bus" --sensor simulated --state-dir "$work/state" 2>"$work/daemon.log" &
        pid=$!
        sleep 0.5
        out=$(/usr/bin/python3 "$here/flood.py" "unix:path=$work/bus" "${ROUNDS:-160}" "${VIEWS:-4095}")
        kill "$pid" "$bus" 2>/dev/null; wait "$pid" "$bus" 2>/dev/null || true
        flood=$(sed -n 's/^flood //p' <<<"$out"); get=($(sed -n 's/^get //p' <<<"$out"))
        printf '%-60s %8s ms %7s ms %7s ms %7s ms %s\n' "$daemon" "$flood" "${get[0]}" "${get[1]}" "${get[2]}" \
            "$(sed -n 's/^errors //p' <<<"$out")"
    done
done
