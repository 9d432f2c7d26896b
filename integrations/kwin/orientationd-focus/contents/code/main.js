// orientationd-focus: tells orientationd which application is in front.
//
// KWin's callDBus speaks only the session bus and orientationd lives on the system bus, so
// the report goes to a relay on the session bus (`orientationctl relay-focus`, started by
// D-Bus activation), which forwards it to orientationd's SetFocusedApplication(s app_id, u pid).
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

var lastAppId = null;
var lastPid = null;

function report() {
    var window = activeWindow();
    var appId = appIdOf(window);
    var pid = pidOf(window);
    if (appId === lastAppId && pid === lastPid) {
        return; // the same pair twice in a row is sent once
    }
    lastAppId = appId;
    lastPid = pid;
    print("orientationd-focus: focused \"" + appId + "\" pid " + pid);
    // The empty callback is there for its side effect: with one, KWin logs a failed call
    // ("Received D-Bus message is error: ..."), e.g. when the relay is not installed.
    callDBus(RELAY[0], RELAY[1], RELAY[2], "SetFocusedApplication", appId, pid, function () {});
}

// KWin activates "no window" just before every switch from one window to another; reporting
// that would make orientationd rotate for nothing in between. So each activation only arms a
// zero-delay timer, and the window active when it fires is the one reported.
var timer = new QTimer();
timer.singleShot = true;
timer.interval = 0;
timer.timeout.connect(report);
activated.connect(function () { timer.start(); });

report(); // the window active now
