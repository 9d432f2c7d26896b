// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/* A C client of orientationd built on the code gdbus-codegen generates from the interface files in
 * dbus/ (installed in /usr/share/dbus-1/interfaces):
 *
 *   gdbus-codegen --c-namespace Orientation --interface-prefix org.orientationd.Orientation1. \
 *       --c-generate-object-manager --generate-c-code orientation-generated \
 *       dbus/org.orientationd.Orientation1.xml dbus/org.orientationd.Orientation1.Window.xml \
 *       dbus/org.orientationd.Orientation1.Controller.xml
 *   cc -o orientation-client orientation-client.c orientation-generated.c $(pkg-config --cflags --libs gio-unix-2.0)
 *
 * It watches the daemon's objects through the object manager, follows DidChange, creates a window and
 * a view controller, sets their masks through the setter methods (a refused one is a GError), turns the
 * device (a privileged call: run it as root, or allow the action in polkit), then closes the window and
 * destroys the controller, and sees both leave the object manager. Usage: orientation-client [ADDRESS]
 * (the system bus without one). It prints what it sees, one event a line, and exits 0 when all went so.
 */
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include "orientation-generated.h"

#define BUS_NAME "org.orientationd.Orientation1"
#define MANAGER_PATH "/org/orientationd/Orientation1"

/* UIKit's interface values, and masks of them (1 << value). */
enum { INTERFACE_LANDSCAPE_RIGHT = 3, INTERFACE_LANDSCAPE_LEFT = 4 };
/* UIKit's crossed names: the device turned left (3) shows the interface's landscape-right (3), the
 * device turned right (4) the interface's landscape-left (4). Compare values, never names. */
enum { DEVICE_LANDSCAPE_LEFT = 3, DEVICE_LANDSCAPE_RIGHT = 4 };
#define MASK_LANDSCAPE ((1u << INTERFACE_LANDSCAPE_RIGHT) | (1u << INTERFACE_LANDSCAPE_LEFT))

static guint last_did_change_to;
static gchar *last_removed;

static void on_did_change(OrientationManager *manager, guint from, guint to, gpointer data) {
    (void) manager; (void) data;
    printf("did-change %u %u\n", from, to);
    last_did_change_to = to;
}

static void on_object_added(GDBusObjectManager *objects, GDBusObject *object, gpointer data) {
    (void) objects; (void) data;
    printf("object-added %s\n", g_dbus_object_get_object_path(object));
}

static void on_object_removed(GDBusObjectManager *objects, GDBusObject *object, gpointer data) {
    (void) objects; (void) data;
    printf("object-removed %s\n", g_dbus_object_get_object_path(object));
    g_free(last_removed);
    last_removed = g_strdup(g_dbus_object_get_object_path(object));
}

/* Runs the default main context until `done` holds, for at most five seconds. */
static gboolean wait_for(gboolean (*done)(gconstpointer), gconstpointer data) {
    gint64 deadline = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;
    while (!done(data) && g_get_monotonic_time() < deadline) g_main_context_iteration(NULL, FALSE), g_usleep(1000);
    return done(data);
}

static gboolean turned_to(gconstpointer to) { return last_did_change_to == GPOINTER_TO_UINT(to); }
static gboolean has_landscape_mask(gconstpointer controller) {
    return orientation_controller_get_supported_mask((OrientationController *) controller) == MASK_LANDSCAPE;
}
static gboolean removed(gconstpointer path) { return last_removed != NULL && strcmp(last_removed, path) == 0; }

static int fail(const char *what, GError *error) {
    fprintf(stderr, "%s: %s\n", what, error ? error->message : "timed out");
    return 1;
}

int main(int argc, char **argv) {
    GError *error = NULL;
    GDBusConnection *bus = argc > 1
        ? g_dbus_connection_new_for_address_sync(argv[1], G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                                                 | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error)
        : g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
    if (!bus) return fail("connecting", error);

    GDBusObjectManager *objects = orientation_object_manager_client_new_sync(
        bus, G_DBUS_OBJECT_MANAGER_CLIENT_FLAGS_DO_NOT_AUTO_START, BUS_NAME, MANAGER_PATH, NULL, &error);
    if (!objects) return fail("watching the objects", error);
    g_signal_connect(objects, "object-added", G_CALLBACK(on_object_added), NULL);
    g_signal_connect(objects, "object-removed", G_CALLBACK(on_object_removed), NULL);

    OrientationManager *manager = orientation_manager_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_NONE, BUS_NAME, MANAGER_PATH,
                                                                      NULL, &error);
    if (!manager) return fail("the manager", error);
    g_signal_connect(manager, "did-change", G_CALLBACK(on_did_change), NULL);
    /* Claim device orientation notifications, so the sensor runs (UIDevice's beginGenerating…). */
    if (!orientation_manager_call_begin_generating_device_orientation_notifications_sync(manager, NULL, &error))
        return fail("claiming", error);

    gchar *window_path = NULL, *controller_path = NULL;
    if (!orientation_manager_call_register_window_sync(manager, &window_path, NULL, &error)) return fail("RegisterWindow", error);
    if (!orientation_manager_call_create_controller_sync(manager, "view", &controller_path, NULL, &error))
        return fail("CreateController", error);
    printf("window %s\ncontroller %s\n", window_path, controller_path);

    OrientationWindow *window = orientation_window_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_NONE, BUS_NAME, window_path, NULL, &error);
    OrientationController *controller = orientation_controller_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_NONE, BUS_NAME,
                                                                              controller_path, NULL, &error);
    if (!window || !controller) return fail("the window and the controller", error);

    /* A landscape-only view controller as the window's root: the setter methods report refusals. */
    if (!orientation_controller_call_set_supported_mask_sync(controller, MASK_LANDSCAPE, NULL, &error))
        return fail("SetSupportedMask", error);
    if (!orientation_window_call_set_root_controller_sync(window, controller_path, NULL, &error))
        return fail("SetRootController", error);
    if (orientation_controller_call_set_supported_mask_sync(controller, 1, NULL, &error)) {
        fprintf(stderr, "a mask of 1 (no orientation) was accepted\n");
        return 1;
    }
    gchar *remote = g_dbus_error_get_remote_error(error);
    g_dbus_error_strip_remote_error(error);
    printf("refused %s: %s\n", remote, error->message);
    g_free(remote);
    g_clear_error(&error);
    /* The proxy's cached properties follow PropertiesChanged: the mask set above, not the refused one. */
    if (!wait_for(has_landscape_mask, controller)) return fail("waiting for SupportedMask", NULL);
    printf("supported-mask %u\n", orientation_controller_get_supported_mask(controller));

    /* Turn the device to the other landscape; the interface follows within the window's landscape mask. */
    gboolean left = orientation_manager_get_interface_orientation(manager) == INTERFACE_LANDSCAPE_LEFT;
    if (!orientation_manager_call_set_device_orientation_sync(manager, left ? DEVICE_LANDSCAPE_LEFT : DEVICE_LANDSCAPE_RIGHT,
                                                              NULL, &error))
        return fail("SetDeviceOrientation", error);
    if (!wait_for(turned_to, GUINT_TO_POINTER(left ? INTERFACE_LANDSCAPE_RIGHT : INTERFACE_LANDSCAPE_LEFT)))
        return fail("waiting for DidChange", NULL);
    printf("interface-orientation %u\n", orientation_manager_get_interface_orientation(manager));

    /* The window closed, the controller destroyed: both leave the object manager. */
    if (!orientation_window_call_close_sync(window, NULL, &error)) return fail("Close", error);
    if (!wait_for(removed, window_path)) return fail("waiting for the window to go", NULL);
    GDBusObject *gone = g_dbus_object_manager_get_object(objects, window_path);
    printf("window-in-object-manager %s\n", gone ? "yes" : "no");
    if (gone) g_object_unref(gone);
    if (!orientation_controller_call_destroy_sync(controller, NULL, &error)) return fail("Destroy", error);
    if (!wait_for(removed, controller_path)) return fail("waiting for the controller to go", NULL);
    printf("done\n");

    g_free(window_path);
    g_free(controller_path);
    g_free(last_removed);
    g_object_unref(window);
    g_object_unref(controller);
    g_object_unref(manager);
    g_object_unref(objects);
    g_object_unref(bus);
    return 0;
}
