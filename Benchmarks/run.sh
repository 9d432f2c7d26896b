#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Every side-by-side figure of Docs/performance.md in one run: orientationd against iio-sensor-proxy 3.0
# (the peer) on one umockdev fake accelerometer, one benchmark after the other (never two at once:
# a second process mapping the same binary would make its pages shared, not private). Prints one
# table of every figure beside the peer, writes the figures as JSON and a plot of both daemons'
# rotation latency distributions (gnuplot) into OUT. Never fails on a time.
#
#   bus-benchmark   idle VmRSS and private memory, Properties.Get/s, start -> name owned (median
#                   of STARTS), idle context switches, and ours at scale: the CPU of a rotation
#   memory          what holds the idle memory: per mapped file, per section of our binary, per component;
#                   and VmRSS, PSS and private memory over MEMORY_STARTS=5 alternating starts (memory/starts.py),
#                   10 s after start and 10 s after a claim, with the page-out's cost on a claim (memory/idle.py);
#                   orientationctl report-focus and its helper idle in headless sway (memory/report-focus.py)
#   startup         instructions from exec to name owned (callgrind)
#   latency         rotation latency, jitter, per-sample cost
#   power           CPU time per minute and wake-ups per second while claimed: still, turning every 2 s
#   power-motion, latency-motion, pollcurve-motion
#                   power, latency and the default's point of the poll curve again on an accelerometer whose
#                   driver offers a motion event (--motion-events: sidebyside.SideBySide, Docs/sensors.md)
#   wakeup          what one wake-up costs while claimed and still: system calls (strace -c) and CPU; the same
#                   on a tmpfs stand-in for sysfs without umockdev (wakeup/tmpfs.py, as root)
#   buffered        a buffered accelerometer that reports only on change (a HID sensor hub's), claimed: CPU
#                   per minute and wake-ups per second while still after one report, then turns announced
#                   with one report per turn
#   churn           wake-ups from 1,000 non-IIO devices plugged and unplugged
#   light           the ambient light sensor claimed: change -> LightLevel latency, CPU and wake-ups while still
#   pollcurve       CPU per minute claimed and still against step and 400 ms-turn latency, per [Sensor]
#                   StillPollHz (by default only the shipped default's point; STILL_HZ="1 2 3 4 6 8 15" draws
#                   the curve, about 2.5 minutes per setting and run), with the peer's point
#   scenes          false and missed screen changes on the scenes of traces/scenes/ (a phone picked up, walked
#                   with, shaken, held overhead in bed, turned by hand; a convertible folded, in a bag, on a train)
#   follow          device turn -> headless sway output turned: `orientationctl follow sway` beside a
#                   monitor-sensor | swaymsg shell loop (skipped without sway)
#
# Usage: Benchmarks/run.sh            (builds the release daemon first; about 45 minutes after that)
#   OUT=dir                 where the JSON files, latency.png and pollcurve.png go (default: a new directory in /tmp)
#   SCRATCH / ORIENTATIOND  as for the other benchmarks (peer-setup.sh)
#   RUNS=3 STEPS=30 POWER_SECONDS=60 WAKEUP_SECONDS=10 DEVICES=1000 STARTS=20 FOLLOW_STEPS=20 LIGHT_STEPS=20
#   LIGHT_SECONDS=30 STILL_HZ=default POLLCURVE_RUNS=2 POLLCURVE_SECONDS=30 POLLCURVE_STEPS=40 POLLCURVE_SWEEPS=20
#   BUFFERED_SECONDS=60 BUFFERED_TURNS=20 SCENE_RUNS=1
#   SKIP=name,name (skip some benchmarks)
#
# Needs (Debian): iio-sensor-proxy, umockdev, gir1.2-umockdev-1.0, python3-gi, dbus-daemon, valgrind,
# gnuplot-nox (the plot is skipped without it), strace (for wakeup), sway (for follow), iproute2 and util-linux (the kernel churn, as root).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
name="benchmarks"
# shellcheck source=peer-setup.sh
. "$here/peer-setup.sh"

out=${OUT:-$(mktemp -d /tmp/orientationd-benchmarks-XXXXXX)}
mkdir -p "$out"
runs=${RUNS:-3}
skip=",${SKIP:-},"
step() {
    local bench=$1
    shift
    if [[ $skip == *",$bench,"* ]]; then return; fi
    echo "== $bench" >&2
    "$python" "$here/$bench/bench.py" --daemon "$daemon" --json "$out/$bench.json" "$@" | tee "$out/$bench.txt" >&2
}
# variant NAME BENCH ARGS: BENCH again with ARGS, its figures as NAME (skipped by SKIP=NAME).
variant() {
    local name=$1 bench=$2
    shift 2
    if [[ $skip == *",$name,"* ]]; then return; fi
    echo "== $name" >&2
    "$python" "$here/$bench/bench.py" --daemon "$daemon" --json "$out/$name.json" "$@" | tee "$out/$name.txt" >&2
}

step bus-benchmark --runs "$runs" --starts "${STARTS:-20}"
step memory
# Idle memory over alternating starts, ours and the peer's (VmRSS, PSS, private), beside memory's one start.
if [[ $skip != *",memory,"* ]]; then
    echo "== memory starts" >&2
    "$python" "$here/memory/starts.py" --daemon "$daemon" --starts "${MEMORY_STARTS:-5}" --json "$out/memory-starts.json" \
        | tee "$out/memory-starts.txt" >&2
    echo "== memory idle" >&2
    "$python" "$here/memory/idle.py" --daemon "$daemon" --starts "${MEMORY_STARTS:-5}" --json "$out/memory-idle.json" \
        | tee "$out/memory-idle.txt" >&2
    if command -v sway >/dev/null; then
        echo "== memory report-focus" >&2
        find_orientationctl
        # Its Wayland helper, built beside it (the Makefile's rule; swift build does not make it).
        make -C "$root" --no-print-directory .build/release/orientationd-toplevels >&2
        "$python" "$here/memory/report-focus.py" --daemon "$daemon" --ctl "$ctl" --json "$out/report-focus.json" \
            | tee "$out/report-focus.txt" >&2
    fi
fi
step startup --runs "$runs"
step latency --runs "$runs" --steps "${STEPS:-30}"
step power --runs "$runs" --seconds "${POWER_SECONDS:-60}"
variant power-motion power --runs "$runs" --seconds "${POWER_SECONDS:-60}" --motion-events
variant latency-motion latency --runs "$runs" --steps "${STEPS:-30}" --motion-events
step wakeup --seconds "${WAKEUP_SECONDS:-10}"
# The same wake-up outside umockdev: a tmpfs over /sys in a mount namespace of its own (root only).
if [[ $skip != *",wakeup,"* ]] && [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && command -v strace >/dev/null; then
    echo "== wakeup tmpfs" >&2
    "$python" "$here/wakeup/tmpfs.py" --daemon "$daemon" --seconds "${WAKEUP_SECONDS:-10}" --json "$out/wakeup-tmpfs.json" \
        | tee "$out/wakeup-tmpfs.txt" >&2
fi
if [[ $skip != *",wakeup,"* ]] && command -v cc >/dev/null; then
    echo "== wakeup floor" >&2
    "$python" "$here/wakeup/floor.py" --daemon "$daemon" --seconds "${FLOOR_SECONDS:-40}" --rates "${FLOOR_RATES:-1.43 3 4}" \
        --json "$out/wakeup-floor.json" | tee "$out/wakeup-floor.txt" >&2
fi
step buffered --seconds "${BUFFERED_SECONDS:-60}" --turns "${BUFFERED_TURNS:-20}"
step churn --devices "${DEVICES:-1000}"
step light --steps "${LIGHT_STEPS:-20}" --seconds "${LIGHT_SECONDS:-30}"
step pollcurve --still-hz "${STILL_HZ:-default}" --runs "${POLLCURVE_RUNS:-2}" --seconds "${POLLCURVE_SECONDS:-30}" \
    --steps "${POLLCURVE_STEPS:-40}" --sweeps "${POLLCURVE_SWEEPS:-20}"
mkdir -p "$out/pollcurve-motion"
variant pollcurve-motion pollcurve --out "$out/pollcurve-motion" --still-hz default --runs "${POLLCURVE_RUNS:-2}" --seconds "${POLLCURVE_SECONDS:-30}" \
    --steps "${POLLCURVE_STEPS:-40}" --sweeps "${POLLCURVE_SWEEPS:-20}" --motion-events
step scenes --runs "${SCENE_RUNS:-1}"
if command -v sway >/dev/null; then
    find_orientationctl
    step follow --ctl "$ctl" --steps "${FOLLOW_STEPS:-20}"
else
    echo "== follow: skipped, sway is not installed" >&2
fi
exec "$python" "$here/report.py" "$out"
