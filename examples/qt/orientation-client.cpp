// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// A Qt client of orientationd on the proxies qdbusxml2cpp generates from the interface files in dbus/
// (installed in /usr/share/dbus-1/interfaces):
//
//   qdbusxml2cpp -N -i screen-bounds.h -c OrientationManager -p orientation_manager org.orientationd.Orientation1.xml
//   qdbusxml2cpp -N -i screen-bounds.h -c OrientationWindow -p orientation_window org.orientationd.Orientation1.Window.xml
//   qdbusxml2cpp -N -i screen-bounds.h -c OrientationController -p orientation_controller org.orientationd.Orientation1.Controller.xml
//   moc each generated header, then build everything with $(pkg-config --cflags --libs Qt5DBus).
//
// It watches the daemon's objects through org.freedesktop.DBus.ObjectManager, follows DidChange,
// creates a window and a view controller, sets their masks through the setter methods (a refused one
// is an error reply), turns the device (a privileged call: run it as root, or allow the action in
// polkit), then closes the window and destroys the controller, and sees both leave.
// Usage: orientation-client [ADDRESS] (the system bus without one). It prints what it sees, one event a
// line, and exits 0 when all went so.
#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QSet>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusMetaType>
#include <cstdio>
#include <functional>

#include "orientation_controller.h"
#include "orientation_manager.h"
#include "orientation_window.h"
#include "object-watcher.h"

static const QString busName = QStringLiteral("org.orientationd.Orientation1");
static const QString managerPath = QStringLiteral("/org/orientationd/Orientation1");

// UIKit's values. Interface: 3 landscape-right, 4 landscape-left; masks are 1 << value. The device's
// names are crossed: the device turned left (3) shows the interface's landscape-right (3), turned right
// (4) the interface's landscape-left (4). Compare values, never names.
enum { InterfaceLandscapeRight = 3, InterfaceLandscapeLeft = 4 };
enum { DeviceLandscapeLeft = 3, DeviceLandscapeRight = 4 };
static const uint maskLandscape = (1u << InterfaceLandscapeRight) | (1u << InterfaceLandscapeLeft);

static void print(const QString &line) {
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

// Runs the event loop until `done()` holds, for at most five seconds.
static bool waitFor(const std::function<bool()> &done) {
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < 5000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

static int fail(const QString &what, const QDBusError &error = QDBusError()) {
    std::fprintf(stderr, "%s: %s\n", qPrintable(what), error.isValid() ? qPrintable(error.message()) : "timed out");
    return 1;
}

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    qDBusRegisterMetaType<OrientationScreenBounds>();
    qDBusRegisterMetaType<OrientationApplicationMasks>();
    QDBusConnection bus = argc > 1 ? QDBusConnection::connectToBus(QString::fromLocal8Bit(argv[1]), QStringLiteral("orientationd"))
                                   : QDBusConnection::systemBus();
    if (!bus.isConnected()) return fail(QStringLiteral("connecting"), bus.lastError());

    ObjectWatcher objects(bus, busName, managerPath, print);
    if (!objects.start()) return fail(QStringLiteral("watching the objects"), objects.error());

    OrientationManager manager(busName, managerPath, bus);
    uint lastDidChangeTo = 0;
    QObject::connect(&manager, &OrientationManager::DidChange, [&](uint from, uint to) {
        print(QStringLiteral("did-change %1 %2").arg(from).arg(to));
        lastDidChangeTo = to;
    });
    // Claim device orientation notifications, so the sensor runs (UIDevice's beginGenerating…).
    QDBusPendingReply<> claimed = manager.BeginGeneratingDeviceOrientationNotifications();
    claimed.waitForFinished();
    if (claimed.isError()) return fail(QStringLiteral("claiming"), claimed.error());

    QDBusPendingReply<QDBusObjectPath> registered = manager.RegisterWindow();
    QDBusPendingReply<QDBusObjectPath> created = manager.CreateController(QStringLiteral("view"));
    registered.waitForFinished();
    created.waitForFinished();
    if (registered.isError()) return fail(QStringLiteral("RegisterWindow"), registered.error());
    if (created.isError()) return fail(QStringLiteral("CreateController"), created.error());
    const QString windowPath = registered.value().path(), controllerPath = created.value().path();
    print(QStringLiteral("window ") + windowPath);
    print(QStringLiteral("controller ") + controllerPath);
    OrientationWindow window(busName, windowPath, bus);
    OrientationController controller(busName, controllerPath, bus);

    // A landscape-only view controller as the window's root: the setter methods report refusals.
    QDBusPendingReply<> reply = controller.SetSupportedMask(maskLandscape);
    reply.waitForFinished();
    if (reply.isError()) return fail(QStringLiteral("SetSupportedMask"), reply.error());
    reply = window.SetRootController(QDBusObjectPath(controllerPath));
    reply.waitForFinished();
    if (reply.isError()) return fail(QStringLiteral("SetRootController"), reply.error());
    reply = controller.SetSupportedMask(1);
    reply.waitForFinished();
    if (!reply.isError()) return fail(QStringLiteral("a mask of 1 (no orientation) was accepted"));
    print(QStringLiteral("refused %1: %2").arg(reply.error().name(), reply.error().message()));
    print(QStringLiteral("supported-mask %1").arg(controller.supportedMask()));

    // Turn the device to the other landscape; the interface follows within the window's landscape mask.
    const bool left = manager.interfaceOrientation() == InterfaceLandscapeLeft;
    reply = manager.SetDeviceOrientation(left ? DeviceLandscapeLeft : DeviceLandscapeRight);
    reply.waitForFinished();
    if (reply.isError()) return fail(QStringLiteral("SetDeviceOrientation"), reply.error());
    const uint expected = left ? InterfaceLandscapeRight : InterfaceLandscapeLeft;
    if (!waitFor([&] { return lastDidChangeTo == expected; })) return fail(QStringLiteral("waiting for DidChange"));
    print(QStringLiteral("interface-orientation %1").arg(manager.interfaceOrientation()));

    // The window closed, the controller destroyed: both leave.
    reply = window.Close();
    reply.waitForFinished();
    if (reply.isError()) return fail(QStringLiteral("Close"), reply.error());
    if (!waitFor([&] { return !objects.contains(windowPath); })) return fail(QStringLiteral("waiting for the window to go"));
    print(QStringLiteral("window-in-object-manager %1").arg(objects.contains(windowPath) ? "yes" : "no"));
    reply = controller.Destroy();
    reply.waitForFinished();
    if (reply.isError()) return fail(QStringLiteral("Destroy"), reply.error());
    if (!waitFor([&] { return !objects.contains(controllerPath); })) return fail(QStringLiteral("waiting for the controller to go"));
    print(QStringLiteral("done"));
    return 0;
}
