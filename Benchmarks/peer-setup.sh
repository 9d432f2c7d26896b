# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Sourced by the benchmarks that run beside iio-sensor-proxy: checks the tools and gi, then
# sets $python and $daemon (the release build of orientationd, or $ORIENTATIOND).
# Expects $root (the package) and $name (for messages).
python=${PYTHON:-/usr/bin/python3}

for tool in /usr/sbin/iio-sensor-proxy umockdev-wrapper dbus-daemon; do
    if ! command -v "$tool" >/dev/null; then
        echo "$name: $tool is missing (apt: iio-sensor-proxy umockdev dbus-daemon)" >&2
        exit 1
    fi
done
if ! "$python" -c 'import gi; gi.require_version("UMockdev", "1.0"); from gi.repository import UMockdev, Gio' 2>/dev/null; then
    echo "$name: $python cannot import gi's UMockdev and Gio (apt: python3-gi gir1.2-umockdev-1.0 umockdev)" >&2
    exit 1
fi

if [ -n "${ORIENTATIOND:-}" ]; then
    daemon=$ORIENTATIOND
else
    scratch=(); [ -n "${SCRATCH:-}" ] && scratch=(--scratch-path "$SCRATCH")
    (cd "$root" && swift build -c release --static-swift-stdlib --product orientationd "${scratch[@]}" >&2)
    daemon="$(cd "$root" && swift build -c release --static-swift-stdlib --product orientationd "${scratch[@]}" --show-bin-path)/orientationd"
fi

# Sets $ctl: orientationctl beside the daemon, built in release the same way unless $ORIENTATIONCTL
# names one (or $ORIENTATIOND does, and it sits beside it).
find_orientationctl() {
    if [ -n "${ORIENTATIONCTL:-}" ]; then
        ctl=$ORIENTATIONCTL
        return
    fi
    if [ -z "${ORIENTATIOND:-}" ]; then
        (cd "$root" && swift build -c release --static-swift-stdlib --product orientationctl "${scratch[@]}" >&2)
    fi
    ctl="$(dirname "$daemon")/orientationctl"
}
