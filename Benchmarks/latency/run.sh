#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Rotation latency benchmark for orientationd (Docs/performance.md): orientationd and
# iio-sensor-proxy 3.0 (the peer) on one umockdev fake accelerometer, in the same run:
#   - latency of a step portrait <-> landscape (30 steps at random phases, 0.9-1.6 s apart):
#     attribute write -> change seen by a client (ours: DeviceOrientationDidChange, and DidChange;
#     peer: AccelerometerOrientation PropertiesChanged after ClaimAccelerometer), median and p95,
#   - changes during 6 s of jitter between 32 and 58 degrees (samples at 20 Hz),
#   - the daemon's own per-sample cost (its `per-sample cost:` debug line on SIGTERM; measured with --verbose only).
# Targets: <= 150 ms median, <= 200 ms p95, zero changes on the jitter, <= 50 us per sample.
# It prints figures and never fails on a time.
#
# Usage: Benchmarks/latency/run.sh           (builds the release daemon first)
#   SCRATCH=/tmp/build-rel   build directory (default: the package's .build)
#   ORIENTATIOND=/path/bin   use this binary, skip the build
#   SOURCE=auto|iio|sensor-proxy   our source (default auto: `--sensor iio` on the fake device;
#                            falls back to `--sensor sensor-proxy` chained behind the peer, with a
#                            note, if the iio source finds no accelerometer)
#   RUNS=3 STEPS=30 SEED=n KEEP=1 (keep the logs)
#
# Needs (Debian): iio-sensor-proxy, umockdev, gir1.2-umockdev-1.0, python3-gi, dbus-daemon;
# /usr/bin/python3 is used explicitly (a pyenv/venv python usually lacks gi).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name="latency benchmark"
# shellcheck source=../peer-setup.sh
. "$here/../peer-setup.sh"

args=(--daemon "$daemon" --source "${SOURCE:-auto}" --runs "${RUNS:-3}" --steps "${STEPS:-30}")
[ -n "${SEED:-}" ] && args+=(--seed "$SEED")
[ -n "${KEEP:-}" ] && args+=(--keep)
exec "$python" "$here/bench.py" "${args[@]}"
