// The focus reporter both GNOME Shell extensions share: what it reports, when,
// and to whom. `make` writes it into each extension's extension.js, between
// that format's imports and its entry point (extension.js.in): GNOME Shell 43
// and 44 load a legacy script, 45 and later an ES module, and no one file is
// both. Gio, GLib and Shell are the extension's imports; global and log are
// the Shell's.

const BUS_NAME = 'org.orientationd.Orientation1';
const OBJECT_PATH = '/org/orientationd/Orientation1';
const INTERFACE = 'org.orientationd.Orientation1';
const NOTHING = '\n0';     // the key of ("", 0): no application in front

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

// Reports the focus from enable() to disable(), as the extension's own
// enable() and disable() are called.
class FocusReporter {
    enable() {
        this._present = false;      // orientationd has a name owner
        this._sent = null;          // the "id\npid" last sent, to skip repeats
        this._errorLogged = false;  // one log line per run of failures
        this._cancellable = new Gio.Cancellable();

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
        Shell.WindowTracker.get_default().disconnect(this._trackerId);
        Gio.bus_unwatch_name(this._watchId);
        this._cancellable.cancel();
        // Disabled (also while the screen is locked): the app we reported is
        // no longer known to be in front, so do not leave it deciding.
        if (this._present && this._sent !== null && this._sent !== NOTHING)
            this._call('', 0, null);
        this._focusId = this._trackerId = this._watchId = 0;
        this._cancellable = null;
    }

    // Sends the focused window's (app id, pid); ("", 0) when nothing has focus.
    _report() {
        if (!this._present)
            return;
        const window = global.display.focus_window;
        const id = window ? appIdOf(window) : '';
        const pid = window ? Math.max(window.get_pid(), 0) : 0;
        const key = `${id}\n${pid}`;
        if (key === this._sent)
            return;
        this._sent = key;
        this._call(id, pid, this._cancellable);
    }

    _call(id, pid, cancellable) {
        Gio.DBus.system.call(BUS_NAME, OBJECT_PATH, INTERFACE,
            'SetFocusedApplication', new GLib.Variant('(su)', [id, pid]),
            null, Gio.DBusCallFlags.NONE, -1, cancellable,
            (connection, result) => {
                try {
                    connection.call_finish(result);
                    this._errorLogged = false;
                } catch (e) {
                    if (e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        return;
                    // Not running (it is sent again when it appears), too old
                    // or refusing us: say so once, not on every focus change.
                    if (!this._errorLogged)
                        log(`orientationd-focus: SetFocusedApplication failed: ${e.message}`);
                    this._errorLogged = true;
                }
            });
    }
}
