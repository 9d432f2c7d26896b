#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Bus benchmark for orientationd against iio-sensor-proxy 3.0, the peer (Docs/performance.md),
# side by side in one run, on one umockdev fake accelerometer and one private
# dbus-daemon (the peer's "system" bus):
#   - idle resident memory (VmRSS 1 s after the name appears, nobody claiming),
#   - Properties.Get round trips per second, the same Python GIO client (get.py) for each
#     (ours: InterfaceOrientation; the peer: HasAccelerometer),
#   - start -> bus name owned (spawn -> NameOwnerChanged seen by the driver), STARTS starts each,
#   - context switches over IDLE_SECONDS idle, nobody claiming (voluntary + involuntary, all threads),
# then ours alone at scale (scale.py: one client process, 100 connections, 1,000 windows,
# 10,000 controllers): memory per controller, daemon CPU per forced rotation.
# Both columns and the ratio are printed; figures are medians of RUNS runs. Never fails on a time.
# Takes about 1.5 minutes after the build.
#
# Usage: Benchmarks/bus-benchmark/run.sh            (builds the release daemon first)
#   SCRATCH=/tmp/build-rel  build directory (default: the package's .build)
#   ORIENTATIOND=/path/bin  use this binary, skip the build
#   RUNS=3 GET_SECONDS=3 IDLE_SECONDS=10 STARTS=20 ROTATIONS=200 SKIP_SCALE=1 KEEP=1 (keep the logs)
#
# Needs (Debian): iio-sensor-proxy, umockdev, gir1.2-umockdev-1.0, python3-gi, dbus-daemon;
# /usr/bin/python3 is used explicitly (a pyenv/venv python usually lacks gi).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name="bus-benchmark"
# shellcheck source=../peer-setup.sh
. "$here/../peer-setup.sh"

args=(--daemon "$daemon" --runs "${RUNS:-3}" --get-seconds "${GET_SECONDS:-3}" --idle-seconds "${IDLE_SECONDS:-10}"
      --starts "${STARTS:-20}" --rotations "${ROTATIONS:-200}")
[ -n "${SKIP_SCALE:-}" ] && args+=(--skip-scale)
[ -n "${KEEP:-}" ] && args+=(--keep)
exec "$python" "$here/bench.py" "${args[@]}"
