# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# The commands the README promises. Each installs what it needs first.
SWIFT ?= swift

# Where `make install` puts things: the usual names, overridable on the command
# line (make install PREFIX=/usr DESTDIR=/tmp/stage).
PREFIX = /usr/local
EXEC_PREFIX = $(PREFIX)
BINDIR = $(EXEC_PREFIX)/bin
# The daemon is started by systemd and the bus, never from a shell's PATH, so it
# lives beside upowerd and other bus-activated services rather than in sbin.
LIBEXECDIR = $(EXEC_PREFIX)/libexec
DATADIR = $(PREFIX)/share
# As meson does: an install under /usr keeps its configuration in /etc and its
# state in /var, any other under the prefix.
ifeq ($(PREFIX),/usr)
SYSCONFDIR = /etc
LOCALSTATEDIR = /var
else
SYSCONFDIR = $(PREFIX)/etc
LOCALSTATEDIR = $(PREFIX)/var
endif
MANDIR = $(DATADIR)/man
DOCDIR = $(DATADIR)/doc/orientationd
DBUSDIR = $(DATADIR)/dbus-1
POLKITACTIONSDIR = $(DATADIR)/polkit-1/actions
UNITDIR = $(PREFIX)/lib/systemd/system
UDEVRULESDIR = $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR = $(PREFIX)/lib/sysusers.d
BASHCOMPLETIONDIR = $(DATADIR)/bash-completion/completions
ZSHCOMPLETIONDIR = $(DATADIR)/zsh/site-functions
FISHCOMPLETIONDIR = $(DATADIR)/fish/vendor_completions.d
# The focus reporters of the desktops that run their own code: KWin's script, GNOME Shell's
# extension (one directory per extension format: 43-44, and 45 and later).
KWINSCRIPTSDIR = $(DATADIR)/kwin/scripts
GNOMESHELLEXTENSIONSDIR = $(DATADIR)/gnome-shell/extensions
KWIN_SCRIPT = orientationd-focus
GNOME_EXTENSIONS = orientationd-focus@orientationd.org orientationd-focus-45@orientationd.org
# Each extension as GNOME Shell loads it: its metadata, and its extension.js made from its own
# extension.js.in around integrations/gnome-shell/focus-reporter.js, the reporter both share.
GNOME_EXTENSION_FILES = $(foreach e,$(GNOME_EXTENSIONS),$(GENERATED)/gnome-shell/$(e)/extension.js $(GENERATED)/gnome-shell/$(e)/metadata.json)
# The session's focus reporter on wlroots desktops starts with the session from an XDG autostart
# entry; sessions read those only from /etc/xdg (XDG_CONFIG_DIRS), so an install under /usr or
# /usr/local puts it there, any other under its own sysconfdir.
AUTOSTARTDIR = $(if $(filter /usr /usr/local,$(PREFIX)),/etc/xdg/autostart,$(SYSCONFDIR)/xdg/autostart)
DESTDIR =
INSTALL = install

# orientationd-toplevels, the one Wayland client of the package (`orientationctl report-focus`
# runs it): wayland-scanner makes its protocol code from wayland/*.xml when it is built, and it is
# built beside the Swift programs of each configuration, where orientationctl finds it.
CC = cc
TOPLEVELS_PROTOCOL = wlr-foreign-toplevel-management-unstable-v1
OUTPUTS_PROTOCOL = wlr-output-management-unstable-v1
WAYLAND_GENERATED = .build/wayland
TOPLEVELS_SOURCES = wayland/toplevels.c $(WAYLAND_GENERATED)/$(TOPLEVELS_PROTOCOL)-protocol.c \
	$(WAYLAND_GENERATED)/$(TOPLEVELS_PROTOCOL)-client-protocol.h \
	$(WAYLAND_GENERATED)/$(OUTPUTS_PROTOCOL)-protocol.c $(WAYLAND_GENERATED)/$(OUTPUTS_PROTOCOL)-client-protocol.h

# The programs `make install` copies: the release build with the Swift runtime
# linked in, built first; only the two programs, since the tests' support target
# needs XCTest, which a static build has not. Name another directory of built
# programs (PROGRAMS_DIR=.build/debug) to install those as they are, without building.
# The build does not see the order file as an input: a daemon older than it is linked again.
BUILD_DAEMON = { [ ! Linker/orientationd.order -nt .build/release/orientationd ] || rm -f .build/release/orientationd; } && \
	$(SWIFT) build -c release --static-swift-stdlib --product orientationd && \
	./scripts/check-symbol-order .build/release/orientationd && ./scripts/check-lean-daemon .build/release/orientationd
BUILD_CTL = $(SWIFT) build -c release --static-swift-stdlib --product orientationctl && \
	./scripts/check-lean-daemon .build/release/orientationctl
ifeq ($(origin PROGRAMS_DIR),undefined)
PROGRAMS_DIR = .build/release
BUILD_PROGRAMS = $(BUILD_DAEMON) && $(BUILD_CTL) && \
	$(SWIFT) build -c release --static-swift-stdlib --product monitor-sensor && $(MAKE) .build/release/orientationd-toplevels
else
BUILD_PROGRAMS = $(CHECK_BUILT)
endif
# `make install` compiles nothing, so that `make` then `sudo make install` works where root has no
# Swift: without the built programs it stops here.
CHECK_BUILT = @test -x $(PROGRAMS_DIR)/orientationd -a -x $(PROGRAMS_DIR)/orientationctl -a \
	-x $(PROGRAMS_DIR)/monitor-sensor -a -x $(PROGRAMS_DIR)/orientationd-toplevels || \
	{ echo "make: nothing built in $(PROGRAMS_DIR): run make first, then make install" >&2; exit 1; }

# The daemon's built-in paths are /etc/orientationd/orientationd.conf and
# /var/lib/orientationd; an install elsewhere names its own on the command lines
# the unit and the activation file start.
CONFIG_OPTION = $(if $(filter /etc,$(SYSCONFDIR)),, --config $(SYSCONFDIR)/orientationd/orientationd.conf)
STATE_OPTION = $(if $(filter /var,$(LOCALSTATEDIR)),, --state-dir $(LOCALSTATEDIR)/lib/orientationd)
SUBSTITUTE = sed -e 's|@libexecdir@|$(LIBEXECDIR)|g' -e 's|@bindir@|$(BINDIR)|g' -e 's|@config_option@|$(CONFIG_OPTION)|g' \
	-e 's|@state_option@|$(STATE_OPTION)|g'

GENERATED = .build/dist
MANPAGES = $(GENERATED)/orientationd.8 $(GENERATED)/orientationctl.1 $(GENERATED)/orientationd.conf.5 $(GENERATED)/monitor-sensor.1
INTERFACES = org.orientationd.Orientation1.xml org.orientationd.Orientation1.Window.xml \
	org.orientationd.Orientation1.Controller.xml
BUS_POLICIES = org.orientationd.Orientation1.conf
# orientationd in place of iio-sensor-proxy (the orientationd-sensor-proxy package, `make install-sensor-proxy`):
# the drop-in that turns the compatibility interface on, read where the daemon reads drop-ins (the vendor
# directory under /usr, else beside the config file the unit names), the name's bus policy and activation
# file, the unit alias and monitor-sensor.
DROPINDIR = $(if $(filter /etc,$(SYSCONFDIR)),$(PREFIX)/lib/orientationd/orientationd.conf.d,$(SYSCONFDIR)/orientationd/orientationd.conf.d)
SENSOR_PROXY_INSTALLED = \
	$(DROPINDIR)/50-sensor-proxy.conf \
	$(DBUSDIR)/system.d/net.hadess.SensorProxy.conf \
	$(DBUSDIR)/system-services/net.hadess.SensorProxy.service \
	$(UNITDIR)/iio-sensor-proxy.service \
	$(BINDIR)/monitor-sensor \
	$(MANDIR)/man1/monitor-sensor.1
DOCS = README.md $(wildcard Docs/*.md)
CONFIG_FILE = $(SYSCONFDIR)/orientationd/orientationd.conf

# Every file `make install` writes, but the config file, which `make uninstall`
# removes only when it was not edited.
INSTALLED = \
	$(LIBEXECDIR)/orientationd \
	$(LIBEXECDIR)/orientationd-toplevels \
	$(BINDIR)/orientationctl \
	$(AUTOSTARTDIR)/orientationd-focus.desktop \
	$(addprefix $(DBUSDIR)/system.d/,$(BUS_POLICIES)) \
	$(DBUSDIR)/system-services/org.orientationd.Orientation1.service \
	$(DBUSDIR)/services/org.orientationd.FocusRelay.service \
	$(addprefix $(DBUSDIR)/interfaces/,$(INTERFACES)) \
	$(POLKITACTIONSDIR)/org.orientationd.Orientation1.policy \
	$(UNITDIR)/orientationd.service \
	$(UDEVRULESDIR)/80-orientationd.rules \
	$(SYSUSERSDIR)/orientationd.conf \
	$(MANDIR)/man8/orientationd.8 \
	$(MANDIR)/man1/orientationctl.1 \
	$(MANDIR)/man5/orientationd.conf.5 \
	$(BASHCOMPLETIONDIR)/orientationctl \
	$(ZSHCOMPLETIONDIR)/_orientationctl \
	$(FISHCOMPLETIONDIR)/orientationctl.fish \
	$(KWINSCRIPTSDIR)/$(KWIN_SCRIPT)/metadata.json \
	$(KWINSCRIPTSDIR)/$(KWIN_SCRIPT)/contents/code/main.js \
	$(foreach e,$(GNOME_EXTENSIONS),$(GNOMESHELLEXTENSIONSDIR)/$(e)/metadata.json $(GNOMESHELLEXTENSIONSDIR)/$(e)/extension.js) \
	$(addprefix $(DOCDIR)/,$(notdir $(DOCS)))

.PHONY: all deps build-deps build test test-release test-shells release run programs manpages completions gnome-extensions install uninstall \
	install-sensor-proxy uninstall-sensor-proxy clean deb

all: programs manpages completions gnome-extensions

deps:
	./scripts/install-deps

build: deps
	$(SWIFT) build

# The tests are XCTest; Swift Testing is off so the run closes on their count, not on an empty run.
# The Wayland helper is built after Swift's: SwiftPM makes .build/debug a link to its triple's
# directory, and replaces a directory standing in its place, with the helper in it.
# Nothing else is made first: `swift build && swift test` alone passes too (the tests that run the Wayland
# helper build it when it is missing, with the rule below).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

# The test targets that run the programs (the daemon on a private bus, the client, the install), run
# again against the release build the package ships: static Swift runtime, libdbus linked in, the
# linker's function order. TestSupport runs the programs in ORIENTATIOND_PROGRAMS when it is set.
PROGRAM_TESTS = ServiceTests|CLITests|IIOTests|SensorProxyTests|CompatTests|ApiFilesTests|InstallTests
test-release: deps release .build/release/orientationd-toplevels
	$(SWIFT) build --build-tests
	ORIENTATIOND_PROGRAMS=$(CURDIR)/.build/release $(SWIFT) test --skip-build --disable-swift-testing \
		--filter '^($(PROGRAM_TESTS))\.'

# The focus reporters in the real desktops, headless: GNOME Shell's extension and KWin's script
# with the relay, each moving the focus between two GTK applications with different declarations
# (Tests/Shells). Their desktops are large installs (about 500 MB), so `make test` leaves them out.
test-shells: build-deps gnome-extensions
	./scripts/install-deps shells
	$(SWIFT) build --product orientationd
	$(SWIFT) build --product orientationctl
	$(MAKE) --no-print-directory .build/debug/orientationd-toplevels
	./Tests/Shells/gnome-shell.sh
	./Tests/Shells/kwin.sh

# The linker places the functions Linker/orientationd.order lists together; a list that names
# functions the code no longer has fails the build (scripts/check-symbol-order says how to make it again),
# and so does a daemon or orientationctl that links runtime libraries it does not use (scripts/check-lean-daemon).
release: build-deps
	$(BUILD_DAEMON)
	$(BUILD_CTL)
	$(SWIFT) build -c release --static-swift-stdlib --product monitor-sensor

$(WAYLAND_GENERATED)/%-client-protocol.h: wayland/%.xml
	@mkdir -p $(@D)
	wayland-scanner client-header $< $@

$(WAYLAND_GENERATED)/%-protocol.c: wayland/%.xml
	@mkdir -p $(@D)
	wayland-scanner private-code $< $@

.build/debug/orientationd-toplevels .build/release/orientationd-toplevels: $(TOPLEVELS_SOURCES)
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Wno-unused-parameter $(CPPFLAGS) $(CFLAGS) -I$(WAYLAND_GENERATED) $(LDFLAGS) \
		-o $@ $(filter %.c,$^) $$(pkg-config --libs wayland-client)

# The main job: a private bus, the daemon with the simulated sensor, and a demo. It installs only what
# building and running need, not the tests' peers.
run:
	./scripts/install-deps run
	$(SWIFT) build --product orientationd
	$(SWIFT) build --product orientationctl
	./scripts/demo

programs: build-deps
	$(BUILD_PROGRAMS)

manpages: build-deps $(MANPAGES)

build-deps:
	./scripts/install-deps build

gnome-extensions: $(GNOME_EXTENSION_FILES)

$(GENERATED)/gnome-shell/%/extension.js: integrations/gnome-shell/%/extension.js.in integrations/gnome-shell/focus-reporter.js \
		integrations/gnome-shell/rotation-lock.js
	@mkdir -p $(dir $@)
	sed -e '/^\/\/ @FOCUS_REPORTER@$$/{r integrations/gnome-shell/focus-reporter.js' -e 'd' -e '}' \
		-e '/^\/\/ @ROTATION_LOCK@$$/{r integrations/gnome-shell/rotation-lock.js' -e 'd' -e '}' $< > $@

$(GENERATED)/gnome-shell/%/metadata.json: integrations/gnome-shell/%/metadata.json
	@mkdir -p $(dir $@)
	cp $< $@

# Written by the client from its own table of commands, so they cannot drift from its --help.
COMPLETIONS = $(GENERATED)/orientationctl.bash $(GENERATED)/_orientationctl $(GENERATED)/orientationctl.fish
completions: programs
	$(MAKE) --no-print-directory write-completions

.PHONY: write-completions check-built
write-completions:
	$(CHECK_BUILT)
	@mkdir -p $(GENERATED)
	$(PROGRAMS_DIR)/orientationctl completions bash > $(GENERATED)/orientationctl.bash
	$(PROGRAMS_DIR)/orientationctl completions zsh > $(GENERATED)/_orientationctl
	$(PROGRAMS_DIR)/orientationctl completions fish > $(GENERATED)/orientationctl.fish

$(GENERATED)/%: man/%.scd
	@mkdir -p $(@D)
	scdoc < $< > $@

check-built:
	$(CHECK_BUILT)

install: check-built
	@test -e $(GENERATED)/orientationctl.bash || $(MAKE) --no-print-directory write-completions
	$(MAKE) --no-print-directory $(MANPAGES) $(GNOME_EXTENSION_FILES)
	@mkdir -p $(GENERATED)
	$(SUBSTITUTE) data/orientationd.service.in > $(GENERATED)/orientationd.service
	$(SUBSTITUTE) dbus/org.orientationd.Orientation1.service.in > $(GENERATED)/org.orientationd.Orientation1.service
	$(SUBSTITUTE) dbus/org.orientationd.FocusRelay.service.in > $(GENERATED)/org.orientationd.FocusRelay.service
	$(INSTALL) -d $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(DBUSDIR)/system.d \
		$(DESTDIR)$(DBUSDIR)/system-services $(DESTDIR)$(DBUSDIR)/interfaces $(DESTDIR)$(POLKITACTIONSDIR) \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(SYSCONFDIR)/orientationd \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(BASHCOMPLETIONDIR) $(DESTDIR)$(ZSHCOMPLETIONDIR) $(DESTDIR)$(FISHCOMPLETIONDIR) \
		$(DESTDIR)$(DBUSDIR)/services $(DESTDIR)$(KWINSCRIPTSDIR)/$(KWIN_SCRIPT)/contents/code \
		$(addprefix $(DESTDIR)$(GNOMESHELLEXTENSIONSDIR)/,$(GNOME_EXTENSIONS)) $(DESTDIR)$(AUTOSTARTDIR)
	$(INSTALL) -m 0755 $(PROGRAMS_DIR)/orientationd $(DESTDIR)$(LIBEXECDIR)/orientationd
	$(INSTALL) -m 0755 $(PROGRAMS_DIR)/orientationd-toplevels $(DESTDIR)$(LIBEXECDIR)/orientationd-toplevels
	$(SUBSTITUTE) data/orientationd-focus.desktop.in > $(GENERATED)/orientationd-focus.desktop
	$(INSTALL) -m 0644 $(GENERATED)/orientationd-focus.desktop $(DESTDIR)$(AUTOSTARTDIR)/
	$(INSTALL) -m 0755 $(PROGRAMS_DIR)/orientationctl $(DESTDIR)$(BINDIR)/orientationctl
	$(INSTALL) -m 0644 $(addprefix dbus/,$(BUS_POLICIES)) $(DESTDIR)$(DBUSDIR)/system.d/
	$(INSTALL) -m 0644 $(GENERATED)/org.orientationd.Orientation1.service $(DESTDIR)$(DBUSDIR)/system-services/
	$(INSTALL) -m 0644 $(GENERATED)/org.orientationd.FocusRelay.service $(DESTDIR)$(DBUSDIR)/services/
	$(INSTALL) -m 0644 integrations/kwin/$(KWIN_SCRIPT)/metadata.json $(DESTDIR)$(KWINSCRIPTSDIR)/$(KWIN_SCRIPT)/
	$(INSTALL) -m 0644 integrations/kwin/$(KWIN_SCRIPT)/contents/code/main.js $(DESTDIR)$(KWINSCRIPTSDIR)/$(KWIN_SCRIPT)/contents/code/
	for e in $(GNOME_EXTENSIONS); do \
		$(INSTALL) -m 0644 $(GENERATED)/gnome-shell/$$e/metadata.json $(GENERATED)/gnome-shell/$$e/extension.js \
			$(DESTDIR)$(GNOMESHELLEXTENSIONSDIR)/$$e/ || exit 1; \
	done
	$(INSTALL) -m 0644 $(addprefix dbus/,$(INTERFACES)) $(DESTDIR)$(DBUSDIR)/interfaces/
	$(INSTALL) -m 0644 dbus/org.orientationd.Orientation1.policy $(DESTDIR)$(POLKITACTIONSDIR)/
	$(INSTALL) -m 0644 $(GENERATED)/orientationd.service $(DESTDIR)$(UNITDIR)/
	$(INSTALL) -m 0644 data/80-orientationd.rules $(DESTDIR)$(UDEVRULESDIR)/
	$(INSTALL) -m 0644 data/orientationd.sysusers $(DESTDIR)$(SYSUSERSDIR)/orientationd.conf
	$(INSTALL) -m 0644 $(GENERATED)/orientationd.8 $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 0644 $(GENERATED)/orientationctl.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 0644 $(GENERATED)/orientationd.conf.5 $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 0644 $(GENERATED)/orientationctl.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/orientationctl
	$(INSTALL) -m 0644 $(GENERATED)/_orientationctl $(DESTDIR)$(ZSHCOMPLETIONDIR)/_orientationctl
	$(INSTALL) -m 0644 $(GENERATED)/orientationctl.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/orientationctl.fish
	@# An existing config file is the administrator's: it is left as it is.
	test -e $(DESTDIR)$(CONFIG_FILE) || $(INSTALL) -m 0644 data/orientationd.conf $(DESTDIR)$(CONFIG_FILE)
	$(POST_INSTALL)

# The switch from iio-sensor-proxy, on top of `make install` (the orientationd-sensor-proxy package holds
# the same files); `make uninstall-sensor-proxy` switches back.
install-sensor-proxy: check-built
	@mkdir -p $(GENERATED)
	$(SUBSTITUTE) dbus/net.hadess.SensorProxy.service.in > $(GENERATED)/net.hadess.SensorProxy.service
	$(MAKE) --no-print-directory $(GENERATED)/monitor-sensor.1
	$(INSTALL) -d $(DESTDIR)$(DROPINDIR) $(DESTDIR)$(DBUSDIR)/system.d $(DESTDIR)$(DBUSDIR)/system-services \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0644 data/50-sensor-proxy.conf $(DESTDIR)$(DROPINDIR)/
	$(INSTALL) -m 0644 dbus/net.hadess.SensorProxy.conf $(DESTDIR)$(DBUSDIR)/system.d/
	$(INSTALL) -m 0644 $(GENERATED)/net.hadess.SensorProxy.service $(DESTDIR)$(DBUSDIR)/system-services/
	ln -sf orientationd.service $(DESTDIR)$(UNITDIR)/iio-sensor-proxy.service
	$(INSTALL) -m 0755 $(PROGRAMS_DIR)/monitor-sensor $(DESTDIR)$(BINDIR)/monitor-sensor
	$(INSTALL) -m 0644 $(GENERATED)/monitor-sensor.1 $(DESTDIR)$(MANDIR)/man1/
	$(POST_INSTALL)

uninstall-sensor-proxy:
	rm -f $(addprefix $(DESTDIR),$(SENSOR_PROXY_INSTALLED))
	rmdir -p $(DESTDIR)$(DROPINDIR) 2>/dev/null || true

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@if cmp -s data/orientationd.conf $(DESTDIR)$(CONFIG_FILE); then \
		echo rm -f $(DESTDIR)$(CONFIG_FILE); rm -f $(DESTDIR)$(CONFIG_FILE); \
	elif [ -e $(DESTDIR)$(CONFIG_FILE) ]; then \
		echo "uninstall: keeping $(DESTDIR)$(CONFIG_FILE): it was edited"; \
	fi
	rmdir $(DESTDIR)$(SYSCONFDIR)/orientationd $(DESTDIR)$(DOCDIR) 2>/dev/null || true
	rmdir -p $(DESTDIR)$(KWINSCRIPTSDIR)/$(KWIN_SCRIPT)/contents/code \
		$(addprefix $(DESTDIR)$(GNOMESHELLEXTENSIONSDIR)/,$(GNOME_EXTENSIONS)) 2>/dev/null || true

# What the package's postinst does, after an install with an empty DESTDIR into the directories systemd,
# udev and the bus read (PREFIX /usr or /usr/local): the daemon's user, then systemd, udev and the bus
# told of the new files. Run as root, where systemd runs; otherwise printed for root to run.
POST_INSTALL_COMMANDS = systemd-sysusers $(SYSUSERSDIR)/orientationd.conf; systemctl daemon-reload; \
	udevadm control --reload; dbus-send --system --type=method_call --dest=org.freedesktop.DBus \
	/org/freedesktop/DBus org.freedesktop.DBus.ReloadConfig; systemctl try-restart orientationd.service
POST_INSTALL = @if [ -n "$(DESTDIR)" ] || [ -z "$(filter /usr /usr/local,$(PREFIX))" ]; then :; \
	elif [ "$$(id -u)" -eq 0 ] && [ -d /run/systemd/system ]; then \
		echo "$(POST_INSTALL_COMMANDS)"; $(POST_INSTALL_COMMANDS); \
	else \
		echo "make: to finish the install, run as root:"; \
		echo "  $(POST_INSTALL_COMMANDS)" | sed 's/; /\n  /g'; \
	fi

# Removes what `make install` generates; the Swift build directory stays, so the
# next build or package reuses it.
clean:
	rm -rf $(GENERATED)

# The Debian package, built from this tree with the release programs, and checked by lintian.
# The .deb, .buildinfo and .changes land here, not in the parent directory.
# The version and architecture are read inside the recipe, after install-deps has made sure
# dpkg-dev is there: make expands a recipe's variables before its first line runs.
deb:
	./scripts/install-deps deb
	version=$$(dpkg-parsechangelog -S Version) && arch=$$(dpkg --print-architecture) && \
	changes=orientationd_$${version}_$${arch}.changes && \
	DEB_OUTPUT_DIR=$(CURDIR) dpkg-buildpackage -b -us -uc \
		--buildinfo-option=-u$(CURDIR) --buildinfo-file=orientationd_$${version}_$${arch}.buildinfo \
		--changes-option=-u$(CURDIR) --changes-file=$$changes && \
	lintian --fail-on error --info $$changes
