# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""An unmodified application: one GTK 3 window whose Wayland app_id is argv[1] (GTK takes it from
the program name). Prints "mapped" once its window is shown; runs until killed or its compositor goes."""
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk

GLib.set_prgname(sys.argv[1])
window = Gtk.Window(title=sys.argv[1])
window.set_default_size(320, 240)
window.connect("map-event", lambda *_: print("mapped", flush=True))
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
