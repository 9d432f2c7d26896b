# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Sourced by the benchmarks that need a dbus-daemon of their own: starts one in $work (which the
# caller made) with the system bus's limits (128 replies pending and 127 MB queued per connection,
# messages up to 32 MiB) and a policy letting anyone do anything, and sets $bus_address. The caller
# ends it with its other jobs.
cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/><allow user="*"/></policy>
  <limit name="max_message_size">33554432</limit>
  <limit name="max_replies_per_connection">128</limit>
  <limit name="max_incoming_bytes">133169152</limit>
  <limit name="max_outgoing_bytes">133169152</limit>
</busconfig>
CONF
start_private_bus() {
    rm -f "$work/bus"
    dbus-daemon --config-file="$work/bus.conf" --nofork 2>/dev/null &
    bus_pid=$!
    sleep 0.3
    chmod 777 "$work/bus"
    bus_address="unix:path=$work/bus"
}
