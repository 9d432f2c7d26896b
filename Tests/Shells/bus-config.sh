# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Sourced by the shell-focus tests: writes the config of a private bus that lets every user of the
# test talk to every name (the tests' buses stand in for the system and session buses): the one
# configuration of Harness/private-bus.conf.
#   write_bus_config FILE SOCKET_PATH [EXTRA_XML]
write_bus_config() {
    local text
    text=$(<"$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/Harness/private-bus.conf")
    text=${text//@SOCKET@/$2}
    text=${text//@EXTRA@/${3:-}}
    printf '%s\n' "$text" > "$1"
}
