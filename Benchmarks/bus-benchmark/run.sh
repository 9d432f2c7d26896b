#!/usr/bin/env bash
# Bus benchmark for orientationd (spec/quality.md, "Performance"):
#   - idle resident memory (VmRSS after 1 s idle),
#   - Properties.Get round trips per second, one Python GIO client, ~3 s,
#   - voluntary (and involuntary) context switches over 5 s idle (nobody claims: target 0).
# It prints plain "figure: value" lines and never fails on a time.
#
# Usage: Benchmarks/bus-benchmark/run.sh            (builds the release daemon first)
#   SCRATCH=/tmp/build-rel  build directory (default: the package's .build)
#   ORIENTATIOND=/path/bin  use this binary, skip the build
#   GET_SECONDS=3 IDLE_SECONDS=5 RUNS=3   (figures are medians of RUNS runs)
#
# Needs: dbus-daemon (package dbus), /usr/bin/python3 with python3-gi and
# gir1.2-glib-2.0 (GIO). A pyenv/venv python usually lacks gi, so the
# system python is used explicitly.
#
# Peer comparison: quality.md measures against iio-sensor-proxy in the same
# run. It is not installed here, and measuring it needs a fake accelerometer
# (umockdev); the side-by-side run comes with the sensors work. When
# iio-sensor-proxy exists this script only notes it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
get_seconds=${GET_SECONDS:-3}
idle_seconds=${IDLE_SECONDS:-5}
runs=${RUNS:-3}

if ! "$python" -c 'import gi; gi.require_version("Gio", "2.0"); from gi.repository import Gio' 2>/dev/null; then
    echo "bus-benchmark: $python has no GIO bindings; install python3-gi" >&2
    exit 1
fi

if [ -n "${ORIENTATIOND:-}" ]; then
    daemon=$ORIENTATIOND
else
    scratch=(); [ -n "${SCRATCH:-}" ] && scratch=(--scratch-path "$SCRATCH")
    (cd "$root" && swift build -c release --static-swift-stdlib --product orientationd "${scratch[@]}" >&2)
    daemon="$(cd "$root" && swift build -c release --static-swift-stdlib --product orientationd "${scratch[@]}" --show-bin-path)/orientationd"
fi

work=$(mktemp -d /tmp/bus-benchmark.XXXXXX)
bus_pid="" daemon_pid=""
cleanup() {
    [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null || true
    [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null && wait "$bus_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
    <allow user="*"/>
  </policy>
</busconfig>
CONF

status_field() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# One client: Properties.Get on the manager in a loop for GET_SECONDS; prints calls per second.
cat > "$work/get.py" <<'PY'
import sys, time
import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib
address, seconds = sys.argv[1], float(sys.argv[2])
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
conn = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
args = GLib.Variant("(ss)", ("org.orientationd.Orientation1", "InterfaceOrientation"))
def get():
    return conn.call_sync("org.orientationd.Orientation1", "/org/orientationd/Orientation1",
                          "org.freedesktop.DBus.Properties", "Get", args, None,
                          Gio.DBusCallFlags.NONE, -1, None)
for _ in range(200):  # warm up
    get()
n, start = 0, time.monotonic()
deadline = start + seconds
while time.monotonic() < deadline:
    for _ in range(100):
        get()
    n += 100
print(f"{n / (time.monotonic() - start):.0f}")
PY

rss=() gets=() switches=() involuntary=()
for run in $(seq "$runs"); do
    rm -f "$work/bus"; mkdir -p "$work/state"; rm -f "$work/state"/*
    dbus-daemon --config-file="$work/bus.conf" --nofork 2>/dev/null &
    bus_pid=$!
    for _ in $(seq 200); do [ -S "$work/bus" ] && break; sleep 0.01; done
    address="unix:path=$work/bus"
    "$daemon" --address "$address" --sensor simulated --state-dir "$work/state" 2>"$work/daemon.log" &
    daemon_pid=$!
    for _ in $(seq 500); do
        busctl --address="$address" --timeout=1 status org.orientationd.Orientation1 >/dev/null 2>&1 && break
        if ! kill -0 "$daemon_pid" 2>/dev/null; then
            echo "bus-benchmark: orientationd exited: $(cat "$work/daemon.log")" >&2
            exit 1
        fi
        sleep 0.01
    done

    sleep 1
    rss+=("$(status_field "$daemon_pid" VmRSS)")
    before=$(status_field "$daemon_pid" voluntary_ctxt_switches)
    before_inv=$(status_field "$daemon_pid" nonvoluntary_ctxt_switches)
    sleep "$idle_seconds"
    switches+=("$(( $(status_field "$daemon_pid" voluntary_ctxt_switches) - before ))")
    involuntary+=("$(( $(status_field "$daemon_pid" nonvoluntary_ctxt_switches) - before_inv ))")
    gets+=("$("$python" "$work/get.py" "$address" "$get_seconds")")

    kill "$daemon_pid"; wait "$daemon_pid" 2>/dev/null || true; daemon_pid=""
    kill "$bus_pid"; wait "$bus_pid" 2>/dev/null || true; bus_pid=""
done

echo "orientationd: $daemon"
echo "runs: $runs (medians)"
echo "idle resident memory (VmRSS after 1 s idle): $(printf '%s\n' "${rss[@]}" | median) kB"
echo "Properties.Get round trips per second (Python GIO, ${get_seconds} s): $(printf '%s\n' "${gets[@]}" | median)"
echo "voluntary context switches over ${idle_seconds} s idle: $(printf '%s\n' "${switches[@]}" | median)"
echo "involuntary context switches over ${idle_seconds} s idle: $(printf '%s\n' "${involuntary[@]}" | median)"
if command -v iio-sensor-proxy >/dev/null 2>&1 || [ -x /usr/libexec/iio-sensor-proxy ]; then
    echo "peer: iio-sensor-proxy is installed; the side-by-side run comes with the sensors work (needs umockdev)"
else
    echo "peer: iio-sensor-proxy not installed; no side-by-side figures"
fi
