#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Device turn -> sway output turned (Docs/performance.md): `orientationctl follow sway` with
# orientationd against the peer's way on wlroots desktops, monitor-sensor piped into a swaymsg loop
# (monitor-sensor-loop.sh) with iio-sensor-proxy 3.0, on one umockdev fake accelerometer and one
# headless sway, in the same run:
#   - device turn (attribute write) -> HEADLESS-1's transform changed, median and p95 (20 steps per
#     follower at random phases; sway 1.7 sends no output events, so the transform is polled every 5 ms),
#   - the daemons' own latency on the same steps (write -> their signal), for reference.
# It prints figures and never fails on a time.
#
# Usage: Benchmarks/follow/run.sh            (builds the release daemon and orientationctl first)
#   SCRATCH=/tmp/build-rel     build directory (default: the package's .build)
#   ORIENTATIOND=/path/bin ORIENTATIONCTL=/path/bin   use these binaries, skip the build
#   RUNS=1 STEPS=20 SEED=n KEEP=1 (keep the logs)
#
# Needs (Debian): sway, iio-sensor-proxy, umockdev, gir1.2-umockdev-1.0, python3-gi, dbus-daemon,
# coreutils' stdbuf; util-linux's setpriv when run as root (sway then runs as the user swaytest,
# created on first use).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name="follow benchmark"
# shellcheck source=../peer-setup.sh
. "$here/../peer-setup.sh"

for tool in sway swaymsg monitor-sensor stdbuf; do
    if ! command -v "$tool" >/dev/null; then
        echo "$name: $tool is missing (apt: sway iio-sensor-proxy coreutils)" >&2
        exit 1
    fi
done
find_orientationctl

args=(--daemon "$daemon" --ctl "$ctl" --runs "${RUNS:-1}" --steps "${STEPS:-20}")
[ -n "${SEED:-}" ] && args+=(--seed "$SEED")
[ -n "${KEEP:-}" ] && args+=(--keep)
exec "$python" "$here/bench.py" "${args[@]}" "$@"
