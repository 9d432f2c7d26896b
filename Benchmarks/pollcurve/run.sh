#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Battery against latency (Docs/sensors.md): orientationd's CPU time per minute while claimed and still
# against its rotation latency (a step, and a 400 ms turn as a hand makes it), one point per
# [Sensor] StillPollHz, with iio-sensor-proxy 3.0 (the peer, polling every 700 ms) measured beside it in
# every session, on one umockdev fake accelerometer. Prints a table per run and pooled, says which
# settings sit below and left of the peer (less CPU and less latency), writes OUT/pollcurve.json and
# OUT/pollcurve.png (gnuplot). Never fails on a time. About 2.5-3 minutes per setting and run.
#
# Usage: Benchmarks/pollcurve/run.sh        (builds the release daemon first)
#   ORIENTATIOND=/path/bin   use this binary, skip the build (it is copied into OUT first, so a
#                            rebuild meanwhile does not change what is measured)
#   STILL_HZ="1 2 3 4 6 8 15" POLL_HZ=n (also set PollHz) RUNS=2 POWER_SECONDS=30 STEPS=20 SWEEPS=20
#   SWEEP_MS=400 SEED=n KEEP=1 OUT=dir (default: a new directory in /tmp)
#
# Needs (Debian): iio-sensor-proxy, umockdev, gir1.2-umockdev-1.0, python3-gi, dbus-daemon;
# gnuplot-nox for the plot (skipped without it).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name="poll curve benchmark"
# shellcheck source=../peer-setup.sh
. "$here/../peer-setup.sh"

out=${OUT:-$(mktemp -d /tmp/orientationd-pollcurve-XXXXXX)}
mkdir -p "$out"
cp "$daemon" "$out/orientationd"
args=(--daemon "$out/orientationd" --still-hz "${STILL_HZ:-1 2 3 4 6 8 15}" --runs "${RUNS:-2}"
      --seconds "${POWER_SECONDS:-30}" --steps "${STEPS:-20}" --sweeps "${SWEEPS:-20}" --sweep-ms "${SWEEP_MS:-400}"
      --out "$out" --json "$out/pollcurve.json")
[ -n "${POLL_HZ:-}" ] && args+=(--poll-hz "$POLL_HZ")
[ -n "${SEED:-}" ] && args+=(--seed "$SEED")
[ -n "${KEEP:-}" ] && args+=(--keep)
"$python" "$here/bench.py" "${args[@]}" | tee "$out/pollcurve.txt"
echo "output: $out"
