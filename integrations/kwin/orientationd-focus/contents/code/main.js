// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// orientationd-focus: tells orientationd which application is in front.
//
// KWin's callDBus speaks only the session bus and orientationd lives on the system bus, so
// the report goes to a relay on the session bus (`orientationctl relay-focus`, started by
// D-Bus activation), which forwards it to orientationd's ReportFocus(s app_id, u pid, a{sv}),
// with whether the window fills the screen and what the user's own desktop file declares.
// Works with KWin 5.27 (workspace.clientActivated / activeClient) and 6.x
// (workspace.windowActivated / activeWindow).

var RELAY = ["org.orientationd.FocusRelay", "/org/orientationd/FocusRelay",
             "org.orientationd.FocusRelay1"];

// KWin 6 renamed the signal and the property; use whichever this KWin has.
var activated = workspace.windowActivated || workspace.clientActivated;
function activeWindow() {
    return workspace.windowActivated ? workspace.activeWindow : workspace.activeClient;
}

// The application id orientationd expects: the desktop-file id without ".desktop".
// KWin reports desktopFileName with or without the suffix, or empty when it does not know it.
function appIdOf(window) {
    var name = (window && window.desktopFileName) ? String(window.desktopFileName) : "";
    if (name.length > 8 && name.slice(-8) === ".desktop") {
        name = name.slice(0, -8);
    }
    return name;
}

// The process id, 0 when KWin does not know it (it reports -1 or 0 then). callDBus sends a
// JS number as int32 (D-Bus "i"), so the relay's method is "si" on the wire.
function pidOf(window) {
    var pid = window ? Number(window.pid) : 0;
    return (isFinite(pid) && pid > 0) ? Math.floor(pid) : 0;
}

// Whether the window fills the screen: fullscreen, or as large as the area a maximized window
// gets (KWin 5 and 6 name the maximized state differently; the geometry is the same in both).
// On a tablet orientationd lets an application's declaration bind only then.
function fillsScreen(window) {
    if (!window) {
        return false;
    }
    if (window.fullScreen) {
        return true;
    }
    var area = workspace.clientArea(KWin.MaximizeArea, window);
    var frame = window.frameGeometry;
    return !!(area && frame && frame.width >= area.width && frame.height >= area.height);
}

var lastAppId = null;
var lastPid = null;
var lastFills = null;
var watched = null;

// Reports again when the window in front goes fullscreen, is maximized, or leaves either.
function watch(window) {
    if (window === watched) {
        return;
    }
    if (watched) {
        watched.fullScreenChanged.disconnect(arm);
        watched.frameGeometryChanged.disconnect(arm);
    }
    watched = window;
    if (window) {
        window.fullScreenChanged.connect(arm);
        window.frameGeometryChanged.connect(arm);
    }
}

function report() {
    var window = activeWindow();
    watch(window);
    var appId = appIdOf(window);
    var pid = pidOf(window);
    var fills = fillsScreen(window);
    if (appId === lastAppId && pid === lastPid && fills === lastFills) {
        return; // the same report twice in a row is sent once
    }
    lastAppId = appId;
    lastPid = pid;
    lastFills = fills;
    print("orientationd-focus: focused \"" + appId + "\" pid " + pid + (fills ? " fullscreen" : " windowed"));
    // The empty callback is there for its side effect: with one, KWin logs a failed call
    // ("Received D-Bus message is error: ..."), e.g. when the relay is not installed.
    callDBus(RELAY[0], RELAY[1], RELAY[2], "ReportFocus", appId, pid, fills, function () {});
}

// KWin activates "no window" just before every switch from one window to another; reporting
// that would make orientationd rotate for nothing in between. So each activation only arms a
// zero-delay timer, and the window active when it fires is the one reported.
var timer = new QTimer();
timer.singleShot = true;
timer.interval = 0;
timer.timeout.connect(report);
function arm() { timer.start(); }
activated.connect(arm);

report(); // the window active now
