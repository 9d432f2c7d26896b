#!/bin/bash

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# End-to-end test of the GNOME Shell focus reporter
# (integrations/gnome-shell/orientationd-focus@orientationd.org, GNOME Shell 43/44).
#
# A real gnome-shell runs headless (Wayland, virtual monitor, no GPU) as an
# unprivileged user with the extension enabled, on a private session bus and a
# private "system" bus where the real orientationd runs with the simulated
# sensor, the device held upright (portrait). Two GTK 3 windows are the
# applications: org.orientationd.Test.Landscape (its desktop file declares
# X-Orientationd-SupportedOrientations=landscape;) and org.orientationd.Test.Any
# (no declaration), then a third whose id has no desktop file, and a fourth,
# org.orientationd.Test.Mine, whose desktop file is the user's own
# (~/.local/share/applications, which the daemon never reads: the extension
# sends its declaration). Focus moves with
# mutter's own virtual keyboard (org.gnome.Mutter.RemoteDesktop): Escape leaves
# the Overview, Alt+Tab switches windows. After each move the daemon must show
# the application in front and turn the interface as its declaration says.
# Then orientationd restarts (the extension must report to the new one), and
# the extension is disabled (it reports ("", 0)) and enabled again. Then the
# daemon restarts as a tablet: the application's declaration binds only while
# its window is fullscreen, which the test toggles. Last, GNOME's rotation lock
# (its GSettings key) is set and must become orientationd's, a locked turn
# must show the extension's rotate button, and a tap on it (mutter's virtual
# pointer) must accept the suggestion with the lock kept on.
#
# Run as root (it creates the user and switches to it):
#   Tests/Shells/gnome-shell.sh
# Environment: ORIENTATIOND (default .build/debug/orientationd), ORIENTATIONCTL
# (default: beside it), TEST_USER (default orientationd-test), KEEP=1 keeps the
# scratch directory after a pass (it is always kept after a failure).
# Needs, beyond gnome-shell: dbus-daemon, dbus-bin (dbus-monitor), systemd
# (busctl), python3-gi and gir1.2-gtk-3.0.

set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/Tests/Shells/bus-config.sh"
ORIENTATIOND=${ORIENTATIOND:-$ROOT/.build/debug/orientationd}
ORIENTATIONCTL=${ORIENTATIONCTL:-$(dirname "$ORIENTATIOND")/orientationctl}
TEST_USER=${TEST_USER:-orientationd-test}
UUID=orientationd-focus@orientationd.org
# As `make gnome-extensions` builds it from integrations/gnome-shell.
EXTENSION=$ROOT/.build/dist/gnome-shell/$UUID
PYTHON=/usr/bin/python3            # Debian's, where python3-gi lives
LANDSCAPE=org.orientationd.Test.Landscape
ANY=org.orientationd.Test.Any
NOFILE=org.orientationd.Test.NoDesktopFile
MINE=org.orientationd.Test.Mine

NAME=org.orientationd.Orientation1
OBJECT=/org/orientationd/Orientation1
STARTED=$(date +%s)
PIDS=()
SCRATCH=

say() { printf '%s\n' "$*"; }
check() { printf 'ok: %s\n' "$*"; }

fail() {
    printf 'FAIL: %s\n' "$*" >&2
    if [ -n "$SCRATCH" ]; then
        for log in "$SCRATCH"/*.log; do
            [ -s "$log" ] || continue
            printf '\n--- tail of %s\n' "$log" >&2
            tail -n 25 "$log" >&2
        done
        printf '\nlogs kept in %s\n' "$SCRATCH" >&2
    fi
    exit 1
}

cleanup() {
    local status=$?
    exec 3>&- 2>/dev/null
    local i
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[i]}" 2>/dev/null; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null; done
    if [ $status -eq 0 ] && [ -n "$SCRATCH" ] && [ "${KEEP:-0}" != 1 ]; then
        rm -rf "$SCRATCH"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_until SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds;
# fails when it did not within SECONDS.
wait_until() {
    local deadline=$(($(date +%s%N) + $1 * 1000000000))
    shift
    until "$@"; do
        [ "$(date +%s%N)" -lt $deadline ] || return 1
        sleep 0.1
    done
}

# as_user COMMAND... &: runs COMMAND in the background as the test user with
# the session's environment. It execs (setpriv too), so $! is COMMAND's pid;
# never call it in the foreground.
as_user() {
    exec setpriv --reuid="$TEST_USER" --regid="$TEST_GROUP" --init-groups \
        env -i PATH=/usr/bin:/bin HOME="$SCRATCH/home" XDG_RUNTIME_DIR="$SCRATCH/run" \
        XDG_DATA_DIRS="$SCRATCH/share:/usr/share" GSETTINGS_BACKEND=keyfile \
        DBUS_SYSTEM_BUS_ADDRESS="$SYSBUS" DBUS_SESSION_BUS_ADDRESS="$SESSIONBUS" \
        WAYLAND_DISPLAY=wayland-0 GDK_BACKEND=wayland NO_AT_BRIDGE=1 "$@"
}

# --- prerequisites -----------------------------------------------------------

[ "$(id -u)" -eq 0 ] || fail "run as root: gnome-shell runs as the unprivileged user $TEST_USER"
missing=
command -v gnome-shell >/dev/null || missing="$missing gnome-shell"
command -v dbus-daemon >/dev/null || missing="$missing dbus-daemon"
command -v dbus-monitor >/dev/null || missing="$missing dbus-bin"
command -v busctl >/dev/null || missing="$missing systemd"
"$PYTHON" -c 'import gi; gi.require_version("Gtk", "3.0"); from gi.repository import Gtk' 2>/dev/null ||
    missing="$missing python3-gi gir1.2-gtk-3.0"
[ -z "$missing" ] || fail "missing packages; install them with: apt-get install -y$missing"
[ -f "$EXTENSION/extension.js" ] || fail "no extension at $EXTENSION: make gnome-extensions builds it"
say "gnome-shell: $(gnome-shell --version)"

if ! id -u "$TEST_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$TEST_USER" ||
        fail "cannot create user $TEST_USER"
    say "created user $TEST_USER"
fi
TEST_GROUP=$(id -g "$TEST_USER")

SCRATCH=$(mktemp -d /tmp/orientationd-gnome-shell.XXXXXX) || fail "mktemp failed"
chmod 755 "$SCRATCH"
say "scratch directory: $SCRATCH"

# The daemon is copied, so that a rebuild meanwhile does not disturb the run;
# wait while a build is writing it (missing, or still growing).
[ -x "$ORIENTATIOND" ] || say "waiting for $ORIENTATIOND to be built"
for _ in $(seq 60); do
    if [ -x "$ORIENTATIOND" ]; then
        size=$(stat -c %s "$ORIENTATIOND")
        sleep 1
        [ -x "$ORIENTATIOND" ] && [ "$(stat -c %s "$ORIENTATIOND")" = "$size" ] && break
    else
        sleep 1
    fi
done
TOPLEVELS=$(dirname "$ORIENTATIONCTL")/orientationd-toplevels
cp "$ORIENTATIOND" "$SCRATCH/orientationd" && cp "$ORIENTATIONCTL" "$SCRATCH/orientationctl" &&
    cp "$TOPLEVELS" "$SCRATCH/orientationd-toplevels" ||
    fail "cannot copy $ORIENTATIOND, $ORIENTATIONCTL and $TOPLEVELS (build them first: make test)"
grep -aq SetFocusedApplication "$SCRATCH/orientationd" ||
    fail "$ORIENTATIOND has no SetFocusedApplication: build a daemon with the Applications API"

# --- files -------------------------------------------------------------------

mkdir -p "$SCRATCH/home/.config/glib-2.0/settings" "$SCRATCH/home/.local/share/gnome-shell/extensions" \
    "$SCRATCH/home/.local/share/applications" \
    "$SCRATCH/run" "$SCRATCH/state" "$SCRATCH/share/applications"

# The extension, installed for the user as `gnome-extensions install` would,
# and enabled through GSettings' keyfile backend (GSETTINGS_BACKEND=keyfile):
# no dconf service needed.
cp -r "$EXTENSION" "$SCRATCH/home/.local/share/gnome-shell/extensions/"
cat > "$SCRATCH/home/.config/glib-2.0/settings/keyfile" <<EOF
[org/gnome/shell]
enabled-extensions=['$UUID']
welcome-dialog-last-shown-version='999'
EOF

# The test applications: one GTK 3 window each, as an unmodified app is.
# GTK 3 sets the xdg_toplevel app_id (mutter's WM class) to the program name,
# here "app.py", not the application id; it sends the GApplication id over
# gtk_shell1 (set_dbus_properties), and that is what GNOME Shell's
# WindowTracker matches to <id>.desktop. Each reports on stdout its pid, its
# window mapped, and each change of the window's keyboard focus; SIGUSR1 turns
# its window fullscreen and back.
cat > "$SCRATCH/app.py" <<'EOF'
import datetime, os, sys, gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk, Gio, GLib

def say(*words):
    print(datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3], *words, flush=True)

app = Gtk.Application(application_id=sys.argv[1], flags=Gio.ApplicationFlags.NON_UNIQUE)

def activate(app):
    window = Gtk.ApplicationWindow(application=app, title=sys.argv[1])
    window.set_default_size(400, 300)
    window.connect("notify::is-active", lambda w, _: say("active" if w.is_active() else "inactive"))
    window.connect("map-event", lambda *_: say("mapped"))
    window.connect("window-state-event", lambda w, e: say(
        "fullscreen" if e.new_window_state & Gdk.WindowState.FULLSCREEN else "windowed")
        if e.changed_mask & Gdk.WindowState.FULLSCREEN else None)
    def toggle():
        full = window.get_window() and window.get_window().get_state() & Gdk.WindowState.FULLSCREEN
        window.unfullscreen() if full else window.fullscreen()
        return GLib.SOURCE_CONTINUE
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 10, toggle)  # SIGUSR1
    window.show_all()

app.connect("activate", activate)
say("pid", os.getpid())
app.run([])
EOF

# Mutter's virtual keyboard and pointer: a RemoteDesktop session lives as long
# as the bus connection that created it, so one process holds it and types
# what it reads: "down KEYSYM" / "up KEYSYM", "move DX DY", "click", answering
# "done" for each line.
cat > "$SCRATCH/keys.py" <<'EOF'
import datetime, sys
from gi.repository import Gio, GLib
def say(*words):
    print(datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3], *words, flush=True)
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
def call(path, interface, method, args=None):
    return bus.call_sync("org.gnome.Mutter.RemoteDesktop", path, interface, method, args,
                         None, Gio.DBusCallFlags.NONE, 5000, None)
session = call("/org/gnome/Mutter/RemoteDesktop", "org.gnome.Mutter.RemoteDesktop", "CreateSession").unpack()[0]
call(session, "org.gnome.Mutter.RemoteDesktop.Session", "Start")
say("ready", session)
BTN_LEFT = 0x110
for line in sys.stdin:
    words = line.split()
    if words[0] == "move":      # move DX DY: the pointer, relatively (it stops at the screen's edges)
        call(session, "org.gnome.Mutter.RemoteDesktop.Session", "NotifyPointerMotionRelative",
             GLib.Variant("(dd)", (float(words[1]), float(words[2]))))
    elif words[0] == "click":   # click: the left button, pressed and released
        for pressed in (True, False):
            call(session, "org.gnome.Mutter.RemoteDesktop.Session", "NotifyPointerButton",
                 GLib.Variant("(ib)", (BTN_LEFT, pressed)))
    else:                       # down|up KEYSYM
        call(session, "org.gnome.Mutter.RemoteDesktop.Session", "NotifyKeyboardKeysym",
             GLib.Variant("(ub)", (int(words[1], 0), words[0] == "down")))
    say("done", line.strip())
EOF

for app in $LANDSCAPE $ANY; do
    cat > "$SCRATCH/share/applications/$app.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=orientationd test ${app##*.}
Exec=$PYTHON $SCRATCH/app.py $app
EOF
done
echo 'X-Orientationd-SupportedOrientations=landscape;' >> "$SCRATCH/share/applications/$LANDSCAPE.desktop"
# The user's own application: only the user's session can read this file.
cat > "$SCRATCH/home/.local/share/applications/$MINE.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=orientationd test Mine
Exec=$PYTHON $SCRATCH/app.py $MINE
X-Orientationd-SupportedOrientations=landscape-left;
EOF

# The daemon reads desktop files from SCRATCH/share/applications only, with a phone's idiom
# whatever this machine's chassis (Idiom=auto would read it): declarations bind windowed too.
printf '[Application]\nIdiom=phone\n[Applications]\nDataDirs=%s/share\n' "$SCRATCH" > "$SCRATCH/orientationd.conf"

chown -R "$TEST_USER:$TEST_GROUP" "$SCRATCH/home" "$SCRATCH/run" "$SCRATCH/state"
chmod 700 "$SCRATCH/run"

# --- buses -------------------------------------------------------------------

# start_bus NAME: a dbus-daemon that lets every user connect, own and call
# anything (the policy of Harness/PrivateBus.swift's session bus);
# sets ADDRESS.
start_bus() {
    write_bus_config "$SCRATCH/$1.conf" "$SCRATCH/$1.socket"
    dbus-daemon --config-file="$SCRATCH/$1.conf" --nofork --print-address=1 \
        > "$SCRATCH/$1.address" 2> "$SCRATCH/$1.log" &
    PIDS+=($!)
    wait_until 5 test -s "$SCRATCH/$1.address" || fail "the $1 did not start"
    ADDRESS=$(head -n 1 "$SCRATCH/$1.address")
}
start_bus system-bus
SYSBUS=$ADDRESS
start_bus session-bus
SESSIONBUS=$ADDRESS
say "system bus: $SYSBUS"
say "session bus: $SESSIONBUS"

# Every ReportFocus call on the system bus, to check what was sent.
dbus-monitor --address "$SYSBUS" \
    "type='method_call',interface='$NAME',member='ReportFocus'" > "$SCRATCH/calls.log" 2>&1 &
PIDS+=($!)

# The calls of the rotation lock and the rotate button.
dbus-monitor --address "$SYSBUS" "type='method_call',interface='$NAME',member='SetRotationLocked'" \
    "type='method_call',interface='$NAME',member='AcceptSuggestedOrientation'" > "$SCRATCH/lock-calls.log" 2>&1 &
PIDS+=($!)
accepts() { grep -c 'member=AcceptSuggestedOrientation' "$SCRATCH/lock-calls.log"; }

# calls: the (app id, pid) of every ReportFocus seen, one a line.
calls() {
    awk '/member=ReportFocus/ { getline id; getline pid
             sub(/^ *string /, "", id); sub(/^ *uint32 /, "", pid); print id, pid }' "$SCRATCH/calls.log"
}
called() { calls | grep -qxF "$1"; }
last_call_is() { [ "$(calls | tail -n 1)" = "$1" ]; }

get() {
    busctl --address="$SYSBUS" get-property $NAME $OBJECT $NAME "$1" 2>&1
}
# reads PROPERTY VALUE...: PROPERTY reads one of VALUEs ("u 1", 's "id"').
reads() {
    local value want
    value=$(get "$1")
    shift
    for want in "$@"; do [ "$value" = "$want" ] && return 0; done
    return 1
}
daemon_up() { busctl --address="$SYSBUS" status $NAME > /dev/null 2>&1; }

# --- orientationd --------------------------------------------------------------

# start_daemon [CONFIG]: as the shell's user, which makes the shell privileged
# (no polkit runs), with a client claiming the sensor and the device upright.
start_daemon() {
    as_user "$SCRATCH/orientationd" --address "$SYSBUS" --sensor simulated \
        --state-dir "$SCRATCH/state" --config "${1:-$SCRATCH/orientationd.conf}" >> "$SCRATCH/orientationd.log" 2>&1 &
    DAEMON=$!
    PIDS+=($DAEMON)
    wait_until 10 daemon_up || fail "orientationd did not appear on the bus"
    # DeviceOrientation reads 0 while nobody claims: `monitor` holds a claim.
    "$SCRATCH/orientationctl" --address "$SYSBUS" monitor >> "$SCRATCH/monitor.log" 2>&1 &
    MONITOR=$!
    PIDS+=($MONITOR)
    busctl --address="$SYSBUS" call $NAME $OBJECT $NAME SetDeviceOrientation u 1 ||
        fail "SetDeviceOrientation 1 failed"
    wait_until 5 reads DeviceOrientation "u 1" || fail "DeviceOrientation is $(get DeviceOrientation), not 1"
}
start_daemon
check "orientationd runs (pid $DAEMON), DeviceOrientation $(get DeviceOrientation) (portrait)"
case $(get FocusedApplication) in
    's ""') ;;
    *) fail "this orientationd has no FocusedApplication property: $(get FocusedApplication)" ;;
esac

# --- gnome-shell ---------------------------------------------------------------

as_user gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800 > "$SCRATCH/gnome-shell.log" 2>&1 &
SHELL_PID=$!
PIDS+=($SHELL_PID)

extension_state() {
    busctl --address="$SESSIONBUS" call org.gnome.Shell /org/gnome/Shell org.gnome.Shell.Extensions \
        GetExtensionInfo s "$UUID" 2>/dev/null | grep -o '"state" d [0-9]*'
}
extension_enabled() { [ "$(extension_state)" = '"state" d 1' ]; }
wait_until 30 extension_enabled ||
    fail "gnome-shell did not start with the extension enabled (state 1): $(extension_state)"
check "gnome-shell runs (pid $SHELL_PID), extension $UUID is enabled (state 1)"
# orientationd was already there: the extension reports (no window has focus
# in the Overview, where the shell starts).
wait_until 5 called '"" 0' || fail 'the extension did not report ("", 0) at start'
check 'the extension reported ("", 0) at start'

# --- windows and keys ------------------------------------------------------------

mkfifo "$SCRATCH/keys.fifo"
as_user "$PYTHON" "$SCRATCH/keys.py" < "$SCRATCH/keys.fifo" > "$SCRATCH/keys.log" 2>&1 &
PIDS+=($!)
exec 3> "$SCRATCH/keys.fifo"
wait_until 10 grep -q ' ready ' "$SCRATCH/keys.log" || fail "no RemoteDesktop session"
TYPED=0
typed() { [ "$(grep -c ' done ' "$SCRATCH/keys.log")" -ge $TYPED ]; }
# keys LINE...: types each "down|up KEYSYM" and waits until mutter took it.
keys() {
    printf '%s\n' "$@" >&3
    TYPED=$((TYPED + $#))
    wait_until 5 typed || fail "mutter did not take the keys $*"
}
ESCAPE=0xff1b ALT=0xffe9 TAB=0xff09

declare -A APP_PID
start_app() {
    as_user "$PYTHON" "$SCRATCH/app.py" "$1" > "$SCRATCH/$1.log" 2>&1 &
    PIDS+=($!)
    APP_PID[$1]=$!
    wait_until 10 grep -q ' mapped$' "$SCRATCH/$1.log" || fail "$1's window was not mapped"
    grep -q " pid $!$" "$SCRATCH/$1.log" || fail "$1 runs as another pid than $!"
}
# active APP: its window has the keyboard focus (as GTK sees it).
active() { [ "$(grep -oE ' (in)?active$' "$SCRATCH/$1.log" | tail -n 1)" = ' active' ]; }

# focus APP: once the focus has settled, Alt+Tab, Alt+Tab+Tab or
# Alt+Tab+Tab+Tab until GTK says APP has it. In most-recently-used order, of
# four windows, one of them reaches each.
focus() {
    local tabs press
    for tabs in 0 1 2 3 1 2 3; do
        if [ $tabs -gt 0 ]; then
            press=("down $ALT")
            for _ in $(seq $tabs); do press+=("down $TAB" "up $TAB"); done
            keys "${press[@]}" "up $ALT"
        fi
        # Mutter may give a new window the focus and take it back at once.
        sleep 0.7
        active "$1" && return 0
    done
    fail "Alt+Tab did not give $1 the focus"
}

start_app $ANY
start_app $LANDSCAPE
check "windows mapped: $ANY (pid ${APP_PID[$ANY]}), $LANDSCAPE (pid ${APP_PID[$LANDSCAPE]})"
keys "down $ESCAPE" "up $ESCAPE"
wait_until 5 eval "active $ANY || active $LANDSCAPE" || fail "no window got the focus after Escape"
check "Escape closed the Overview"

# expect PROPERTY VALUE...: waits up to 5 s for PROPERTY to read one of VALUEs.
expect() {
    local property=$1
    shift
    wait_until 5 reads "$property" "$@" || fail "$property is $(get "$property"), not one of: $*"
    check "$property = $(get "$property")"
}

# expect_focus APP ID_SENT SOURCE MASK INTERFACE...: the state once APP is in
# front (MASK: its declaration, INTERFACE: the orientations allowed).
expect_focus() {
    local app=$1 sent=$2 source=$3 mask=$4
    shift 4
    say "== $app in front"
    focus "$app"
    check "GTK: $app's window is active"
    wait_until 5 last_call_is "\"$sent\" ${APP_PID[$app]}" ||
        fail "the extension did not send (\"$sent\", ${APP_PID[$app]}); it sent: $(calls | tr '\n' ' ')"
    check "the extension sent ReportFocus(\"$sent\", ${APP_PID[$app]})"
    expect FocusedApplication "s \"$sent\""
    expect FocusedApplicationSource "s \"$source\""
    expect FocusedApplicationMask "u $mask"
    expect FocusedProcess "u ${APP_PID[$app]}"
    expect InterfaceOrientation "$@"
    expect DeviceOrientation "u 1"
}

# Masks: 1 << interface orientation; landscape = 8 + 16 = 24.
expect_focus $LANDSCAPE $LANDSCAPE desktop-file 24 "u 3" "u 4"
expect_focus $ANY $ANY none 0 "u 1"

# A window whose app id has no desktop file: the WindowTracker gives it a
# made-up app ("window:N"); the extension sends "" and the window's pid.
start_app $NOFILE
expect_focus $NOFILE "" none 0 "u 1"

# The user's own application: its declaration comes with the report.
start_app $MINE
expect_focus $MINE $MINE user-desktop-file 16 "u 4"

expect_focus $LANDSCAPE $LANDSCAPE desktop-file 24 "u 3" "u 4"

# --- orientationd restarts: the extension reports the focus to the new one ------

say "== orientationd restarts"
kill $MONITOR $DAEMON
wait $MONITOR $DAEMON 2>/dev/null
before=$(calls | wc -l)
start_daemon
check "orientationd restarted (pid $DAEMON)"
sent_more() { [ "$(calls | wc -l)" -gt "$before" ]; }
wait_until 5 sent_more || fail "the extension did not send the focus to the new orientationd"
check "the extension sent again: $(calls | tail -n 1)"
expect FocusedApplication "s \"$LANDSCAPE\""
expect FocusedApplicationSource "s \"desktop-file\""
expect FocusedProcess "u ${APP_PID[$LANDSCAPE]}"
expect InterfaceOrientation "u 3" "u 4"

# --- disabled and enabled again ---------------------------------------------------

# Disabled, the extension takes back what it reported (the app is no longer
# known to be in front); enabled again, it reports the focus again.
shell_extensions() {
    busctl --address="$SESSIONBUS" call org.gnome.Shell /org/gnome/Shell org.gnome.Shell.Extensions "$@"
}
extension_disabled() { [ "$(extension_state)" = '"state" d 2' ]; }
say "== extension disabled"
[ "$(shell_extensions DisableExtension s "$UUID")" = "b true" ] || fail "DisableExtension failed"
wait_until 5 extension_disabled || fail "the extension is not disabled: $(extension_state)"
check "the extension is disabled (state 2)"
wait_until 5 last_call_is '"" 0' || fail "the extension did not send (\"\", 0) when disabled"
check 'the extension sent ReportFocus("", 0) when disabled'
expect FocusedApplication 's ""'
expect InterfaceOrientation "u 1"
say "== extension enabled again"
[ "$(shell_extensions EnableExtension s "$UUID")" = "b true" ] || fail "EnableExtension failed"
wait_until 5 extension_enabled || fail "the extension is not enabled: $(extension_state)"
check "the extension is enabled (state 1)"
wait_until 5 last_call_is "\"$LANDSCAPE\" ${APP_PID[$LANDSCAPE]}" ||
    fail "the extension did not send the focus when enabled again"
check "the extension sent ReportFocus(\"$LANDSCAPE\", ${APP_PID[$LANDSCAPE]})"
expect FocusedApplication "s \"$LANDSCAPE\""
expect InterfaceOrientation "u 3" "u 4"

# --- a tablet: a declaration binds only fullscreen ---------------------------------

say "== orientationd restarts as a tablet"
printf '[Application]\nIdiom=tablet\n[Applications]\nDataDirs=%s/share\n' "$SCRATCH" > "$SCRATCH/tablet.conf"
kill $MONITOR $DAEMON
wait $MONITOR $DAEMON 2>/dev/null
start_daemon "$SCRATCH/tablet.conf"
expect Idiom 's "tablet"'
expect FocusedApplication "s \"$LANDSCAPE\""
expect FocusedApplicationSource 's "not-fullscreen"'
expect InterfaceOrientation "u 1"
check "windowed on a tablet, $LANDSCAPE's declaration does not bind: the device decides"
kill -USR1 "${APP_PID[$LANDSCAPE]}"
wait_until 5 grep -q ' fullscreen$' "$SCRATCH/$LANDSCAPE.log" || fail "$LANDSCAPE's window did not go fullscreen"
expect FocusedApplicationSource 's "desktop-file"'
expect InterfaceOrientation "u 3" "u 4"
check "fullscreen, its declaration binds"
kill -USR1 "${APP_PID[$LANDSCAPE]}"
wait_until 5 grep -q ' windowed$' "$SCRATCH/$LANDSCAPE.log" || fail "$LANDSCAPE's window did not leave fullscreen"
expect FocusedApplicationSource 's "not-fullscreen"'
expect InterfaceOrientation "u 1"
check "windowed again, the device decides again"

# --- the wlroots reporter stays out of GNOME's way ---------------------------------

# The XDG autostart entry starts `orientationctl report-focus` in every session,
# GNOME's too: mutter offers no foreign-toplevel protocol, so it must end at once,
# quietly, without reporting anything.
say "== report-focus under GNOME Shell"
sent_before=$(calls | wc -l)
( as_user "$SCRATCH/orientationctl" --address "$SYSBUS" report-focus > "$SCRATCH/report-focus.out" 2>&1 ) &
REPORTER=$!
wait_until 10 eval '! kill -0 $REPORTER 2>/dev/null' || fail "report-focus still runs under GNOME Shell"
wait $REPORTER
status=$?
[ $status -eq 0 ] || fail "report-focus exited with $status under GNOME Shell: $(cat "$SCRATCH/report-focus.out")"
[ ! -s "$SCRATCH/report-focus.out" ] || fail "report-focus printed under GNOME Shell: $(cat "$SCRATCH/report-focus.out")"
sleep 0.5
[ "$(calls | wc -l)" -eq "$sent_before" ] || fail "report-focus reported under GNOME Shell: $(calls | tail -n 1)"
check "report-focus exited at once with status 0, silent, having reported nothing"

# --- GNOME's rotation lock and the rotate button -----------------------------------

# GNOME's own lock (the Quick Settings toggle writes this key) becomes
# orientationd's; with it on, a turn of the device is suggested, the extension
# shows its rotate button in the bottom right corner, and a tap on it accepts
# the suggestion: the screen turns, the lock stays on.
say "== GNOME's rotation lock and the rotate button"
gnome_lock() {
    ( as_user gsettings set org.gnome.settings-daemon.peripherals.touchscreen orientation-lock "$1" ) ||
        fail "gsettings could not set orientation-lock $1"
}
expect InterfaceOrientation "u 1"
expect RotationLocked "b false"
gnome_lock true
expect RotationLocked "b true"
check "GNOME's orientation-lock true became orientationd's RotationLocked"
busctl --address="$SYSBUS" call $NAME $OBJECT $NAME SetDeviceOrientation u 3 || fail "SetDeviceOrientation 3 failed"
expect SuggestedOrientation "u 3"
expect InterfaceOrientation "u 1"
check "locked: the turn to landscape is suggested, not made"
# The button: 64 px square, 16 px from the bottom and right edges of the
# 1280x800 monitor; its centre is 48 px in from the bottom right corner.
tap_button() { keys "move 5000 5000" "move -48 -48" "click"; }
tap_button
wait_until 5 eval '[ "$(accepts)" -eq 1 ]' || fail "a tap on the rotate button did not call AcceptSuggestedOrientation"
check "the tap on the rotate button called AcceptSuggestedOrientation"
expect InterfaceOrientation "u 3"
expect SuggestedOrientation "u 0"
expect RotationLocked "b true"
check "the screen turned to the suggestion and the lock stayed on"
# No suggestion, no button: a tap there reaches nothing of ours.
tap_button
sleep 1
[ "$(accepts)" -eq 1 ] || fail "a tap where the button was called AcceptSuggestedOrientation again"
check "with no suggestion the button is gone"
gnome_lock false
expect RotationLocked "b false"
check "GNOME's orientation-lock false released orientationd's lock"

# --- what was sent ---------------------------------------------------------------

say "== calls"
calls | sed 's/^/   /'
# (The restarted daemon is sent what the old one had: that is the point.)
repeated=$(calls | head -n "$before" | uniq -d)
[ -z "$repeated" ] || fail "the same (id, pid) was sent twice in a row: $repeated"
check "no (id, pid) was sent twice in a row to one daemon"
if grep -q 'orientationd-focus:' "$SCRATCH/gnome-shell.log"; then
    fail "the extension logged: $(grep 'orientationd-focus:' "$SCRATCH/gnome-shell.log")"
fi
check "the extension logged no error"
grep -q 'JS ERROR.*orientationd' "$SCRATCH/gnome-shell.log" && fail "JavaScript errors from the extension"

say "PASS ($(($(date +%s) - STARTED)) s)"
