// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// The focus reporter both GNOME Shell extensions share: what it reports, when,
// and to whom. `make` writes it into each extension's extension.js, between
// that format's imports and its entry point (extension.js.in): GNOME Shell 43
// and 44 load a legacy script, 45 and later an ES module, and no one file is
// both. Gio, GLib and Shell are the extension's imports; global and log are
// the Shell's.

const BUS_NAME = 'org.orientationd.Orientation1';
const OBJECT_PATH = '/org/orientationd/Orientation1';
const INTERFACE = 'org.orientationd.Orientation1';
const NOTHING = '\n0\n';   // the key of ("", 0): no application in front
// The keys of the user's own desktop file that declare orientations: sent with
// the focus, since orientationd (a system service) reads no home directory.
const ORIENTATION_KEYS = ['X-Orientationd-SupportedOrientations',
    'X-Ubuntu-Supported-Orientations'];

// The application id orientationd expects: the desktop-file id without
// ".desktop" ("org.gnome.Maps"). Windows that match no desktop file get a
// made-up id such as "window:3" from the WindowTracker; they have no id.
function appIdOf(window) {
    const app = Shell.WindowTracker.get_default().get_window_app(window);
    const id = app ? app.get_id() : null;
    if (!id || !id.endsWith('.desktop'))
        return '';
    return id.slice(0, -'.desktop'.length);
}

// Whether the window fills the screen: fullscreen or maximized both ways. On
// a tablet orientationd lets an application's declaration bind only then.
function fillsScreen(window) {
    return window.is_fullscreen() ||
        (window.maximized_horizontally && window.maximized_vertically);
}

// The orientation keys of the window's desktop file when it is the user's own
// (~/.local/share/applications, the user's Flatpak exports): {key: value}.
function userDesktopFileKeys(window) {
    const keys = {};
    const app = Shell.WindowTracker.get_default().get_window_app(window);
    const info = app ? app.get_app_info() : null;
    const file = info && info.get_filename ? info.get_filename() : null;
    if (!file || !file.startsWith(GLib.get_user_data_dir() + '/'))
        return keys;
    for (const key of ORIENTATION_KEYS) {
        const value = info.has_key(key) ? info.get_string(key) : null;
        if (value !== null)
            keys[key] = value;
    }
    return keys;
}

// Reports the focus from enable() to disable(), as the extension's own
// enable() and disable() are called.
class FocusReporter {
    enable() {
        this._present = false;      // orientationd has a name owner
        this._sent = null;          // the "id\npid" last sent, to skip repeats
        this._failures = {logged: false};  // one log line per run of failures
        this._cancellable = new Gio.Cancellable();

        this._window = null;        // the focused window, watched for fullscreen
        this._windowIds = [];
        this._focusId = global.display.connect('notify::focus-window',
            () => this._report());
        // A window's app can be found only after it got focus (an X11 window
        // setting its WM_CLASS late): report again when the mapping changes.
        this._trackerId = Shell.WindowTracker.get_default().connect(
            'tracked-windows-changed', () => this._report());

        // Report only while orientationd runs: a call would start it by bus
        // activation on every machine where it is merely installed. "Appeared"
        // comes at once when it already runs and again each time it
        // (re)starts: a new daemon knows nothing, so send the focus again.
        this._watchId = Gio.bus_watch_name_on_connection(Gio.DBus.system,
            BUS_NAME, Gio.BusNameWatcherFlags.NONE,
            () => {
                this._present = true;
                this._sent = null;
                this._report();
            },
            () => {
                this._present = false;
                this._sent = null;
            });
    }

    disable() {
        global.display.disconnect(this._focusId);
        this._watchWindow(null);
        Shell.WindowTracker.get_default().disconnect(this._trackerId);
        Gio.bus_unwatch_name(this._watchId);
        this._cancellable.cancel();
        // Disabled (also while the screen is locked): the app we reported is
        // no longer known to be in front, so do not leave it deciding.
        if (this._present && this._sent !== null && this._sent !== NOTHING)
            this._call('', 0, {}, null);
        this._focusId = this._trackerId = this._watchId = 0;
        this._cancellable = null;
    }

    // Follows the focused window's fullscreen and maximized state.
    _watchWindow(window) {
        if (window === this._window)
            return;
        for (const id of this._windowIds)
            this._window.disconnect(id);
        this._windowIds = [];
        this._window = window;
        if (!window)
            return;
        for (const property of ['fullscreen', 'maximized-horizontally', 'maximized-vertically'])
            this._windowIds.push(window.connect(`notify::${property}`, () => this._report()));
        this._windowIds.push(window.connect('unmanaged', () => this._watchWindow(null)));
    }

    // Sends the focused window's (app id, pid, details); ("", 0) when nothing
    // has focus.
    _report() {
        const window = global.display.focus_window;
        this._watchWindow(window);
        if (!this._present)
            return;
        const id = window ? appIdOf(window) : '';
        const pid = window ? Math.max(window.get_pid(), 0) : 0;
        const details = {};
        if (window) {
            details['fullscreen'] = new GLib.Variant('b', fillsScreen(window));
            const keys = id ? userDesktopFileKeys(window) : {};
            if (Object.keys(keys).length > 0)
                details['user-desktop-file'] = new GLib.Variant('a{ss}', keys);
        }
        const key = `${id}\n${pid}\n${window ? fillsScreen(window) : ''}`;
        if (key === this._sent)
            return;
        this._sent = key;
        this._call(id, pid, details, this._cancellable);
    }

    _call(id, pid, details, cancellable) {
        callManager('ReportFocus', new GLib.Variant('(sua{sv})', [id, pid, details]), cancellable, this._failures);
    }
}

// Calls METHOD of orientationd's manager with PARAMETERS. A failure is logged
// once per run of failures (FAILURES.logged), not on every call: orientationd
// not running (what was sent is sent again when it appears), too old, or
// refusing us.
function callManager(method, parameters, cancellable, failures) {
    Gio.DBus.system.call(BUS_NAME, OBJECT_PATH, INTERFACE, method, parameters,
        null, Gio.DBusCallFlags.NONE, -1, cancellable,
        (connection, result) => {
            try {
                connection.call_finish(result);
                failures.logged = false;
            } catch (e) {
                if (e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                    return;
                if (!failures.logged)
                    log(`orientationd-focus: ${method} failed: ${e.message}`);
                failures.logged = true;
            }
        });
}
