#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# The adversarial benchmark (Docs/security.md, "Adversarial runs"): the fuzz run of 100,000
# calls, 1,000 connect / fill / disconnect cycles, one uid's connections against the per-user limits,
# and the daemon at the total limits. Builds the release daemon as shipped (runtime linked
# statically) and the benchmark beside it, then runs it; prints figures, never fails on a time.
# Takes about 5 minutes after the build. Options go to the benchmark, e.g.
#   Benchmarks/adversarial/run.sh --steps 20000 --cycles 100 --skip total
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
swift build -c release --static-swift-stdlib --product orientationd >&2
swift build -c release --static-swift-stdlib --product adversarial-benchmark >&2
exec "$(swift build -c release --static-swift-stdlib --show-bin-path)/adversarial-benchmark" "$@"
