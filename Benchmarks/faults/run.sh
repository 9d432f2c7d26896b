#!/usr/bin/env bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# The fault suite (Docs/security.md, "Faults"): the release daemon on a full and on a read-only
# state directory, started on corrupt state and config files, killed with SIGKILL while a client's
# changes are acknowledged, left by clients cut off mid-message, and rotated while clients that
# never read match every signal; on a private dbus-daemon with the system bus's limits. Prints the
# figures of each part; exits 1 only when an invariant breaks (a change acknowledged and lost, a
# call unanswered, a crash, objects left behind), never on a time.
#
# Usage: Benchmarks/faults/run.sh [PART...]   (full read-only corrupt kill cut-off silent; default all)
#   DAEMON=path (default: the release build, built first)
#   LOOPS=100 CLIENTS=5000 SECONDS=30 LISTENERS=10
# Needs (Debian): dbus-daemon, python3-gi; root for the full and read-only parts (they mount tmpfs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -z "${DAEMON:-}" ]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product orientationd >&2)
    DAEMON=$root/.build/release/orientationd
fi
work=$(mktemp -d)
chmod 755 "$work"
trap 'kill $(jobs -p) 2>/dev/null; umount -l "$work"/full "$work"/ro 2>/dev/null || true; rm -rf "$work"' EXIT
# shellcheck source=../private-bus.sh
. "$here/../private-bus.sh"
start_private_bus
/usr/bin/python3 "$here/faults.py" "$bus_address" "$DAEMON" "$work" "$@"
