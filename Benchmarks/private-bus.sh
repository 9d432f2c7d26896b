# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Sourced by the benchmarks that need a dbus-daemon of their own: starts one in $work (which the
# caller made) with the one private-bus configuration (Harness/private-bus.conf: the system bus's
# limits, 128 replies pending and 127 MB queued per connection, messages up to 32 MiB, and a policy
# letting anyone do anything), and sets $bus_address. The caller ends it with its other jobs.
bus_conf=$(<"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/Harness/private-bus.conf")
bus_conf=${bus_conf//@SOCKET@/$work/bus}
printf '%s\n' "${bus_conf//@EXTRA@/}" > "$work/bus.conf"
start_private_bus() {
    rm -f "$work/bus"
    dbus-daemon --config-file="$work/bus.conf" --nofork 2>/dev/null &
    bus_pid=$!
    sleep 0.3
    chmod 777 "$work/bus"
    bus_address="unix:path=$work/bus"
}
