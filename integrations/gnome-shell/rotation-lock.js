// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// The rotation lock and the rotate button both GNOME Shell extensions share,
// written by `make` into each extension.js after the focus reporter. Gio,
// GLib, St and Main are the extension's imports; BUS_NAME, OBJECT_PATH,
// INTERFACE and callManager() are the focus reporter's.
//
// GNOME's own rotation lock (the Quick Settings "Auto Rotate" toggle, the
// GSettings key org.gnome.settings-daemon.peripherals.touchscreen
// orientation-lock) is the user's lock: it is mirrored into orientationd's
// RotationLocked whenever it changes and whenever orientationd appears. While
// the lock is on and orientationd suggests a rotation (SuggestedOrientation
// not 0), a rotate button shows in the bottom right corner of the primary
// monitor; a tap accepts the suggestion (AcceptSuggestedOrientation), which
// turns the screen and keeps the lock on. The button goes when the suggestion
// ends (accepted, the device back, the lock released, or after orientationd's
// [Lock] SuggestionSeconds).

const TOUCHSCREEN_SCHEMA = 'org.gnome.settings-daemon.peripherals.touchscreen';
const LOCK_KEY = 'orientation-lock';
// The button: BUTTON_SIZE pixels square, BUTTON_MARGIN from the monitor's
// bottom and right edges.
const BUTTON_SIZE = 64;
const BUTTON_MARGIN = 16;

class RotationLock {
    enable() {
        this._present = false;
        this._failures = {logged: false};
        this._cancellable = new Gio.Cancellable();
        // Without gnome-settings-daemon's schemas there is no GNOME lock to mirror.
        const source = Gio.SettingsSchemaSource.get_default();
        this._settings = source && source.lookup(TOUCHSCREEN_SCHEMA, true)
            ? new Gio.Settings({schema_id: TOUCHSCREEN_SCHEMA}) : null;
        this._lockId = this._settings
            ? this._settings.connect(`changed::${LOCK_KEY}`, () => this._mirror()) : 0;

        this._button = new St.Button({
            reactive: true, can_focus: true, track_hover: true,
            accessible_name: 'Rotate the screen',
            style: `width: ${BUTTON_SIZE}px; height: ${BUTTON_SIZE}px; border-radius: ${BUTTON_SIZE / 2}px; ` +
                'background-color: rgba(32, 32, 32, 0.8); color: white;',
            child: new St.Icon({icon_name: 'object-rotate-right-symbolic', icon_size: 32}),
        });
        this._button.connect('clicked', () => this._accept());
        this._button.hide();
        Main.layoutManager.addTopChrome(this._button);
        this._monitorsId = Main.layoutManager.connect('monitors-changed', () => this._place());
        this._place();

        this._signalId = Gio.DBus.system.signal_subscribe(BUS_NAME, 'org.freedesktop.DBus.Properties',
            'PropertiesChanged', OBJECT_PATH, INTERFACE, Gio.DBusSignalFlags.NONE,
            (connection, sender, path, iface, signal, parameters) => {
                const changed = parameters.deepUnpack()[1];
                if ('SuggestedOrientation' in changed)
                    this._show(changed['SuggestedOrientation'].deepUnpack());
            });
        this._watchId = Gio.bus_watch_name_on_connection(Gio.DBus.system,
            BUS_NAME, Gio.BusNameWatcherFlags.NONE,
            () => {
                this._present = true;
                this._mirror();
                this._readSuggestion();
            },
            () => {
                this._present = false;
                this._show(0);
            });
    }

    disable() {
        if (this._lockId)
            this._settings.disconnect(this._lockId);
        Main.layoutManager.disconnect(this._monitorsId);
        Gio.DBus.system.signal_unsubscribe(this._signalId);
        Gio.bus_unwatch_name(this._watchId);
        this._cancellable.cancel();
        this._button.destroy();
        this._button = this._settings = this._cancellable = null;
        this._lockId = this._monitorsId = this._signalId = this._watchId = 0;
    }

    _place() {
        const monitor = Main.layoutManager.primaryMonitor;
        if (!monitor)
            return;
        this._button.set_position(monitor.x + monitor.width - BUTTON_SIZE - BUTTON_MARGIN,
            monitor.y + monitor.height - BUTTON_SIZE - BUTTON_MARGIN);
    }

    _show(suggested) {
        if (suggested)
            this._button.show();
        else
            this._button.hide();
    }

    // GNOME's lock into orientationd's.
    _mirror() {
        if (!this._present || !this._settings)
            return;
        this._send('SetRotationLocked', new GLib.Variant('(b)', [this._settings.get_boolean(LOCK_KEY)]));
    }

    _readSuggestion() {
        Gio.DBus.system.call(BUS_NAME, OBJECT_PATH, 'org.freedesktop.DBus.Properties', 'Get',
            new GLib.Variant('(ss)', [INTERFACE, 'SuggestedOrientation']), null, Gio.DBusCallFlags.NONE, -1,
            this._cancellable, (connection, result) => {
                try {
                    this._show(connection.call_finish(result).deepUnpack()[0].deepUnpack());
                } catch (e) {
                    // An orientationd without suggestions: no button.
                }
            });
    }

    _accept() {
        this._button.hide();
        this._send('AcceptSuggestedOrientation', null);
    }

    _send(method, parameters) {
        callManager(method, parameters, this._cancellable, this._failures);
    }
}
