// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

#if STATIC_LIBDBUS
// The release daemon and orientationctl link libdbus statically (Package.swift), without libsystemd and the six
// libraries that come with it. libdbus refers to two of libsystemd's functions, only from the
// code that lets dbus-daemon take sockets from systemd (`_dbus_listen_systemd_sockets`), which a
// client never runs. These say what libsystemd says outside socket activation: no sockets.

/// `sd_listen_fds(3)`: no file descriptors were passed.
@_cdecl("sd_listen_fds")
public func systemdListenFds(_ unsetEnvironment: Int32) -> Int32 { 0 }

/// `sd_is_socket(3)`: not a socket of the asked kind.
@_cdecl("sd_is_socket")
public func systemdIsSocket(_ fd: Int32, _ family: Int32, _ type: Int32, _ listening: Int32) -> Int32 { 0 }
#endif
