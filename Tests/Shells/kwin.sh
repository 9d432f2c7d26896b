#!/bin/bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# End-to-end test of the KWin focus reporter (integrations/kwin/orientationd-focus), run as root:
# a private "system" bus with orientationd on it, a private session bus, a headless KWin
# (kwin_wayland --virtual) running the reporter script, the relay (`orientationctl relay-focus`,
# started by D-Bus activation on the session bus) and two GTK 3 windows. Activating each window
# in turn must make orientationd's FocusedApplication, its source and the interface orientation
# follow. Then orientationd restarts as a tablet: the landscape-only application's declaration
# must bind only while its window is fullscreen. Everything but root's own busctl calls runs as
# an unprivileged user.
#
# Variables: ORIENTATIOND, ORIENTATIONCTL (the programs under test, default .build/debug's),
# KWIN (default /usr/bin/kwin_wayland), TEST_USER (default orientationd-test),
# KEEP_SCRATCH=1 to keep the scratch directory after a passing run (a failing run always keeps it).
set -euo pipefail

START_NS=$(date +%s%N)
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$REPO/Tests/Shells/bus-config.sh"
ORIENTATIOND=${ORIENTATIOND:-$REPO/.build/debug/orientationd}
ORIENTATIONCTL=${ORIENTATIONCTL:-$REPO/.build/debug/orientationctl}
KWIN=${KWIN:-/usr/bin/kwin_wayland}
TEST_USER=${TEST_USER:-orientationd-test}
MAIN_JS=$REPO/integrations/kwin/orientationd-focus/contents/code/main.js
PACKAGE=$REPO/integrations/kwin/orientationd-focus
LANDSCAPE=org.orientationd.Test.Landscape
ANY=org.orientationd.Test.Any

SCRATCH=
PIDS=()         # buses, daemon, monitor (runuser wrappers), stopped last, in reverse order
SESSION_PIDS=() # KWin and the apps, stopped first
SESSIONBUS=
SYSBUS=
OK=0

say() { printf 'kwin.sh: %s\n' "$*"; }

show_logs() {
    [ -n "$SCRATCH" ] || return 0
    for log in "$SCRATCH"/log/*.log; do
        [ -s "$log" ] || continue
        printf '\n----- %s (last 25 lines) -----\n' "$log" >&2
        tail -n 25 "$log" >&2
    done
    # KWin's log is mostly its start-up chatter: the script's own lines, all of them.
    if [ -f "$SCRATCH/log/kwin.log" ]; then
        printf '\n----- scripting lines of %s -----\n' "$SCRATCH/log/kwin.log" >&2
        grep -E '^js:|kwin_scripting|D-Bus' "$SCRATCH/log/kwin.log" >&2 || true
    fi
}

fail() {
    printf 'kwin.sh: FAIL: %s\n' "$*" >&2
    show_logs
    exit 1
}

# Stops a process started through runuser: its child (runuser then exits with it), then runuser
# itself only if it lingers (told to stop, runuser waits 2 s before it kills the child).
stop() {
    local pid=$1 child
    kill -0 "$pid" 2>/dev/null || return 0
    for child in $(pgrep -P "$pid" || true); do kill -TERM "$child" 2>/dev/null || true; done
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        for child in $(pgrep -P "$pid" || true); do kill -KILL "$child" 2>/dev/null || true; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$?
    set +e
    local i
    # KWin and the apps first, or KWin would activate the relay again on its last report.
    for ((i = ${#SESSION_PIDS[@]} - 1; i >= 0; i--)); do stop "${SESSION_PIDS[i]}"; done
    # The relay was started by the session bus, not by us: find it by its name before the bus goes.
    if [ -n "$SESSIONBUS" ]; then
        local relay
        relay=$(busctl --address="$SESSIONBUS" call org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus GetConnectionUnixProcessID s org.orientationd.FocusRelay 2>/dev/null | awk '{print $2}')
        if [ -n "$relay" ]; then
            kill -TERM "$relay" 2>/dev/null
            for _ in $(seq 50); do kill -0 "$relay" 2>/dev/null || break; sleep 0.1; done
            kill -KILL "$relay" 2>/dev/null
        fi
    fi
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do stop "${PIDS[i]}"; done
    if [ -n "$SCRATCH" ]; then
        if [ "$OK" = 1 ] && [ "${KEEP_SCRATCH:-0}" != 1 ]; then
            rm -rf "$SCRATCH"
        else
            printf 'kwin.sh: scratch and logs kept in %s\n' "$SCRATCH" >&2
        fi
    fi
    return "$status"
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM

# Runs a command as the test user with a clean environment of our own.
user_env() {
    USER_ENV=(runuser -u "$TEST_USER" -- env -i HOME="$SCRATCH/home" PATH=/usr/bin:/bin LANG=C.UTF-8
        XDG_RUNTIME_DIR="$SCRATCH/run" XDG_DATA_DIRS="$SCRATCH/share:/usr/local/share:/usr/share")
}
as_user() {
    user_env
    "${USER_ENV[@]}" "$@"
}
# The same in the background; BG is its pid: runuser's, whose child is the command.
as_user_bg() {
    user_env
    "${USER_ENV[@]}" "$@" &
    BG=$!
}

# Polls a command until it succeeds: wait_for SECONDS WHAT COMMAND...
wait_for() {
    local seconds=$1 what=$2
    shift 2
    local deadline=$(( $(date +%s) + seconds ))
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "timed out after ${seconds}s waiting for $what"
        sleep 0.1
    done
}

# Starts a private dbus-daemon as the test user and sets the named variable to its address.
start_bus() {
    local var=$1 name=$2 addr
    shift 2
    as_user_bg "$@" dbus-daemon --config-file="$SCRATCH/$name.conf" --nofork --print-address=1 \
        >"$SCRATCH/$name.address" 2>"$SCRATCH/log/$name.log"
    PIDS+=("$BG")
    wait_for 10 "the $name bus to print its address" test -s "$SCRATCH/$name.address"
    addr=$(head -n1 "$SCRATCH/$name.address")
    printf -v "$var" '%s' "$addr"
}

prop() {
    busctl --address="$SYSBUS" get-property org.orientationd.Orientation1 /org/orientationd/Orientation1 \
        org.orientationd.Orientation1 "$1" | sed -E 's/^[a-z] //; s/^"(.*)"$/\1/'
}
prop_is() { [ "$(prop "$1")" = "$2" ]; }

scripting() { busctl --address="$SESSIONBUS" call org.kde.KWin /Scripting org.kde.kwin.Scripting "$@"; }
script_loaded() { [ "$(scripting isScriptLoaded s "$1")" = "b $2" ]; }

# The last error KWin got back from the relay, if any, for a failure message.
relay_errors() {
    local error
    error=$(grep 'Received D-Bus message is error' "$SCRATCH/log/kwin.log" | tail -n 1 | sed 's/.*error: //')
    [ -z "$error" ] || printf '; the relay answers the script: %s' "$error"
}

# Checks what orientationd says once FocusedApplication has become $1.
expect_focus() {
    local app=$1 source=$2 iface deadline=$(( $(date +%s) + 10 ))
    until prop_is FocusedApplication "$app" && prop_is FocusedApplicationSource "$source"; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "after 10s FocusedApplication is '$(prop FocusedApplication)'" \
            "with source '$(prop FocusedApplicationSource)', not '$app' with source '$source'$(relay_errors)"
        sleep 0.1
    done
    iface=$(prop InterfaceOrientation)
    if [ "$source" = desktop-file ] || [ "$source" = user-desktop-file ]; then
        [ "$iface" = 3 ] || [ "$iface" = 4 ] || fail "$app is landscape-only but InterfaceOrientation is $iface"
    else
        [ "$iface" = 1 ] || fail "$app declares nothing and the device is upright, but InterfaceOrientation is $iface"
    fi
    [ "$(prop DeviceOrientation)" = 1 ] || fail "DeviceOrientation changed to $(prop DeviceOrientation)"
    say "ok: $app in front: FocusedApplication=$app source=$source InterfaceOrientation=$iface DeviceOrientation=1"
}

# Activates the window titled $1 as a click would: through KWin itself, with a one-off script.
ACTIVATIONS=0
activate() {
    ACTIVATIONS=$((ACTIVATIONS + 1))
    local file="$SCRATCH/activate-$ACTIVATIONS.js" name="orientationd-test-activate-$ACTIVATIONS"
    cat >"$file" <<EOF
var clients = workspace.clientList();
var found = false;
for (var i = 0; i < clients.length; i++) {
    if (clients[i].caption === "$1") {
        workspace.activeClient = clients[i];
        found = true;
    }
}
print("$name: " + (found ? "activated" : "no window titled") + " $1");
EOF
    run_script "$file" "$name" "$1"
}

# Sets the fullScreen of the window titled $1 to $2 (true or false), with a one-off script.
set_fullscreen() {
    ACTIVATIONS=$((ACTIVATIONS + 1))
    local file="$SCRATCH/fullscreen-$ACTIVATIONS.js" name="orientationd-test-fullscreen-$ACTIVATIONS"
    cat >"$file" <<EOF
var clients = workspace.clientList();
var found = false;
for (var i = 0; i < clients.length; i++) {
    if (clients[i].caption === "$1") {
        clients[i].fullScreen = $2;
        found = true;
    }
}
print("$name: " + (found ? "activated" : "no window titled") + " $1");
EOF
    run_script "$file" "$name" "$1"
}

# Runs the one-off script $1 named $2, which must have found the window titled $3.
run_script() {
    local file=$1 name=$2
    chmod 644 "$file"
    scripting loadScript ss "$file" "$name" >/dev/null || fail "loadScript $file"
    scripting start >/dev/null
    wait_for 10 "KWin to run $file" grep -q "$name: " "$SCRATCH/log/kwin.log"
    grep -q "$name: activated" "$SCRATCH/log/kwin.log" || fail "KWin has no window titled $3"
    scripting unloadScript s "$name" >/dev/null
}

# ---- Requirements -------------------------------------------------------------------------

[ "$(id -u)" = 0 ] || fail "run as root (it starts things as $TEST_USER)"
missing=()
command -v dbus-daemon >/dev/null || missing+=(dbus-daemon)
command -v busctl >/dev/null || missing+=(systemd)
command -v pgrep >/dev/null || missing+=(procps)
[ -x "$KWIN" ] || missing+=(kwin-wayland)
/usr/bin/python3 -c 'import gi; gi.require_version("Gtk", "3.0"); from gi.repository import Gtk' 2>/dev/null \
    || missing+=(python3-gi gir1.2-gtk-3.0)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null \
        || fail "apt-get install ${missing[*]} failed"
fi
[ -x "$ORIENTATIOND" ] || fail "no daemon at $ORIENTATIOND (swift build, or set ORIENTATIOND)"
[ -x "$ORIENTATIONCTL" ] || fail "no orientationctl at $ORIENTATIONCTL (swift build, or set ORIENTATIONCTL)"
# The help is read whole before it is searched: with pipefail, grep -q leaving early would
# end the writer by SIGPIPE and fail the check at random.
ctl_help=$("$ORIENTATIONCTL" --help 2>&1) || true
grep -q relay-focus <<<"$ctl_help" \
    || fail "$ORIENTATIONCTL has no relay-focus command (the session-to-system relay the script calls)"
[ -r "$MAIN_JS" ] || fail "no $MAIN_JS"
id -u "$TEST_USER" >/dev/null 2>&1 || useradd -m "$TEST_USER" || fail "cannot create user $TEST_USER"

# ---- Scratch: programs, config, desktop files, the reporter package, the apps ---------------

SCRATCH=$(mktemp -d /tmp/orientationd-kwin.XXXXXX)
chmod 755 "$SCRATCH"
mkdir -p "$SCRATCH"/{bin,bus,log,home,run,state,services,share/applications,share/kwin/scripts}
# Copies: the build may be replaced while we run, and the installed kwin_wayland carries a file
# capability (cap_sys_resource) that these machines refuse to exec; a plain copy runs.
cp "$ORIENTATIOND" "$SCRATCH/bin/orientationd"
cp "$ORIENTATIONCTL" "$SCRATCH/bin/orientationctl"
cp "$KWIN" "$SCRATCH/bin/kwin_wayland"
cp -r "$PACKAGE" "$SCRATCH/share/kwin/scripts/"
chmod 755 "$SCRATCH"/bin/*
mkdir -p "$SCRATCH/home/.config"
chown -R "$TEST_USER": "$SCRATCH"/{bus,home,log,run,state}
chmod 700 "$SCRATCH/run"
as_user test -r "$MAIN_JS" || fail "$TEST_USER cannot read $MAIN_JS"

# A phone's idiom whatever this machine's chassis (Idiom=auto would read it): declarations bind windowed too.
printf '[Application]\nIdiom=phone\n[Applications]\nDataDirs=%s/share\n' "$SCRATCH" >"$SCRATCH/orientationd.conf"
cat >"$SCRATCH/share/applications/$LANDSCAPE.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=Landscape-only test app
Exec=true
X-Orientationd-SupportedOrientations=landscape;
EOF
cat >"$SCRATCH/share/applications/$ANY.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=Test app without a declaration
Exec=true
EOF

# The relay, activated by the session bus as the shipped org.orientationd.FocusRelay.service does
# (with a shell around it only to keep its output: the bus sends an activated service's to /dev/null).
cat >"$SCRATCH/services/org.orientationd.FocusRelay.service" <<EOF
[D-BUS Service]
Name=org.orientationd.FocusRelay
Exec=/bin/sh -c 'exec $SCRATCH/bin/orientationctl relay-focus >>$SCRATCH/log/relay.log 2>&1'
EOF

# A GTK 3 window titled with its application id. It sets its program name to that id, as GTK
# would otherwise send its executable's name (here "app.py") as the Wayland app id, which KWin
# reports as desktopFileName.
cat >"$SCRATCH/app.py" <<'EOF'
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk

app_id = sys.argv[1]
GLib.set_prgname(app_id)
app = Gtk.Application(application_id=app_id)

def activate(application):
    window = Gtk.ApplicationWindow(application=application, title=app_id)
    window.set_default_size(320, 240)
    window.show_all()

app.connect("activate", activate)
sys.exit(app.run([sys.argv[0]]))
EOF

for name in system session; do
    services=
    [ "$name" = session ] && services="<servicedir>$SCRATCH/services</servicedir>"
    write_bus_config "$SCRATCH/$name.conf" "$SCRATCH/bus/$name" "$services"
done
chmod -R a+rX "$SCRATCH/share" "$SCRATCH/services" "$SCRATCH"/*.conf "$SCRATCH/app.py"

# ---- The system side: bus and daemon --------------------------------------------------------

start_bus SYSBUS system
say "system bus: $SYSBUS"
as_user_bg "$SCRATCH/bin/orientationd" --address "$SYSBUS" --sensor simulated --state-dir "$SCRATCH/state" \
    --config "$SCRATCH/orientationd.conf" >"$SCRATCH/log/orientationd.log" 2>&1
PIDS+=("$BG")
DAEMON=$BG
wait_for 10 "orientationd on the system bus" prop DeviceOrientation
# DeviceOrientation reads 0 unless a client claims orientation notifications: monitor holds a claim.
as_user_bg "$SCRATCH/bin/orientationctl" --address "$SYSBUS" monitor >"$SCRATCH/log/monitor.log" 2>&1
PIDS+=("$BG")
busctl --address="$SYSBUS" call org.orientationd.Orientation1 /org/orientationd/Orientation1 \
    org.orientationd.Orientation1 SetDeviceOrientation u 1 || fail "SetDeviceOrientation failed"
wait_for 5 "DeviceOrientation 1" prop_is DeviceOrientation 1

# ---- The session side: bus (it activates the relay with DBUS_SYSTEM_BUS_ADDRESS) and KWin ----

start_bus SESSIONBUS session DBUS_SYSTEM_BUS_ADDRESS="$SYSBUS"
say "session bus: $SESSIONBUS"
as_user_bg DBUS_SESSION_BUS_ADDRESS="$SESSIONBUS" "$SCRATCH/bin/kwin_wayland" --virtual --no-lockscreen \
    --no-global-shortcuts --no-kactivities --width 1280 --height 800 >"$SCRATCH/log/kwin.log" 2>&1
SESSION_PIDS+=("$BG")
wait_for 20 "KWin's Wayland socket" test -S "$SCRATCH/run/wayland-0"
wait_for 20 "KWin's /Scripting on the session bus" scripting isScriptLoaded s none

# The installed package: KWin finds it in kwin/scripts/ of its data dirs through metadata.json and
# runs it since it is enabled by default; kwinrc's [Plugins] orientationd-focusEnabled=false and a
# reconfigure turn it off.
wait_for 10 "KWin to load the orientationd-focus package from $SCRATCH/share/kwin/scripts" \
    script_loaded orientationd-focus true
say "ok: KWin loads the package (metadata.json) by default"
printf '\n[Plugins]\norientationd-focusEnabled=false\n' >>"$SCRATCH/home/.config/kwinrc"
busctl --address="$SESSIONBUS" call org.kde.KWin /KWin org.kde.KWin reconfigure
wait_for 10 "orientationd-focusEnabled=false to unload the package" script_loaded orientationd-focus false
say "ok: orientationd-focusEnabled=false unloads it"

# The script under test, straight from the repository. Under another name than the package's:
# Scripting.start re-reads kwinrc and would unload a script named orientationd-focus again.
before=$(grep -c "orientationd-focus: focused" "$SCRATCH/log/kwin.log" || true)
scripting loadScript ss "$MAIN_JS" orientationd-focus-test >/dev/null || fail "loadScript $MAIN_JS failed"
scripting start >/dev/null
reported() { [ "$(grep -c "orientationd-focus: focused" "$SCRATCH/log/kwin.log")" -gt "$before" ]; }
wait_for 10 "the reporter to start (its first report in KWin's log)" reported
script_loaded orientationd-focus-test true || fail "KWin does not list orientationd-focus-test as loaded"
wait_for 10 "the relay to be activated on the session bus (see relay.log, session.log)" \
    busctl --address="$SESSIONBUS" status org.orientationd.FocusRelay
say "ok: $MAIN_JS loaded and running, relay activated"

# ---- The applications -----------------------------------------------------------------------

start_app() {
    as_user_bg DBUS_SESSION_BUS_ADDRESS="$SESSIONBUS" WAYLAND_DISPLAY=wayland-0 GDK_BACKEND=wayland \
        NO_AT_BRIDGE=1 /usr/bin/python3 "$SCRATCH/app.py" "$1" >"$SCRATCH/log/app-$1.log" 2>&1
    SESSION_PIDS+=("$BG")
}

# A new window gets focus.
start_app "$LANDSCAPE"
expect_focus "$LANDSCAPE" desktop-file
start_app "$ANY"
expect_focus "$ANY" none

# Switching between them.
activate "$LANDSCAPE"
expect_focus "$LANDSCAPE" desktop-file
activate "$ANY"
expect_focus "$ANY" none
activate "$LANDSCAPE"
expect_focus "$LANDSCAPE" desktop-file

# What the script sent, in order: one report per focus change, no "no window" in between (KWin
# activates no window for an instant before each switch), never the same pair twice in a row.
sent=$(grep -o 'orientationd-focus: focused "[^"]*"' "$SCRATCH/log/kwin.log" | tail -n +$((before + 1)) | uniq \
    | sed 's/.*focused "\(.*\)"/\1/' | paste -sd ' ')
expected=" $LANDSCAPE $ANY $LANDSCAPE $ANY $LANDSCAPE"
[ "$sent" = "$expected" ] || fail "the script reported '$sent', expected '$expected' (the first is no window)"
say "ok: reports in order: \"\"${expected// / → }"

# ---- A tablet: a declaration binds only while its window fills the screen -------------------

printf '[Application]\nIdiom=tablet\n[Applications]\nDataDirs=%s/share\n' "$SCRATCH" >"$SCRATCH/tablet.conf"
chmod a+r "$SCRATCH/tablet.conf"
kill -TERM "$DAEMON"
wait "$DAEMON" 2>/dev/null || true
as_user_bg "$SCRATCH/bin/orientationd" --address "$SYSBUS" --sensor simulated --state-dir "$SCRATCH/state" \
    --config "$SCRATCH/tablet.conf" >>"$SCRATCH/log/orientationd.log" 2>&1
PIDS+=("$BG")
wait_for 10 "orientationd as a tablet" prop_is Idiom tablet
as_user_bg "$SCRATCH/bin/orientationctl" --address "$SYSBUS" monitor >>"$SCRATCH/log/monitor.log" 2>&1
PIDS+=("$BG")
busctl --address="$SYSBUS" call org.orientationd.Orientation1 /org/orientationd/Orientation1 \
    org.orientationd.Orientation1 SetDeviceOrientation u 1 || fail "SetDeviceOrientation failed"
expect_focus "$LANDSCAPE" not-fullscreen
say "ok: the relay reported to the new daemon; windowed, the declaration does not bind"
set_fullscreen "$LANDSCAPE" true
expect_focus "$LANDSCAPE" desktop-file
say "ok: fullscreen, it binds"
set_fullscreen "$LANDSCAPE" false
expect_focus "$LANDSCAPE" not-fullscreen
say "ok: windowed again, the device decides"

OK=1
elapsed_ms=$(( ($(date +%s%N) - START_NS) / 1000000 ))
say "PASS ($((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000)))s)"
