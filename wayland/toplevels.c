// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/*
 * orientationd-toplevels: reports which toplevel a Wayland compositor has
 * activated, for `orientationctl report-focus` (the daemon links no Wayland
 * library, and neither does orientationctl: this small program is the one
 * Wayland client of the package).
 *
 * It binds zwlr_foreign_toplevel_manager_v1 (sway, phoc, labwc, river,
 * wayfire, Hyprland) and writes one line to stdout each time what is in front
 * changes, once the compositor's done event has made a toplevel's state whole:
 *
 *   activated FULLSCREEN MAXIMIZED APP_ID    a toplevel has the focus
 *                                            (FULLSCREEN, MAXIMIZED: 0 or 1)
 *   none                                     no toplevel has it
 *
 * It writes "ready" first, once the toplevels that already exist are known.
 * Exit status: 0 when stdout closes; 3 when the compositor does not offer
 * the protocol (GNOME, KDE: nothing to report); 4 when no compositor listens
 * at $WAYLAND_DISPLAY; 5 when the connection to the compositor is lost or the
 * compositor stops the manager.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"

/* The exit codes orientationctl tells apart, by the same names (ToplevelFocus.HelperExit): no
   foreign-toplevel protocol, no compositor at $WAYLAND_DISPLAY, the compositor went away. */
enum { EXIT_NO_PROTOCOL = 3, EXIT_NO_COMPOSITOR = 4, EXIT_LOST = 5 };

/* One toplevel: what the compositor sent, and what its last done made true. */
struct toplevel {
    struct zwlr_foreign_toplevel_handle_v1 *handle;
    char *pending_app_id;
    char *app_id;
    bool pending_activated, pending_fullscreen, pending_maximized;
    bool activated, fullscreen, maximized;
    uint64_t activated_at;   /* the done that activated it, to find the newest */
    struct toplevel *next;
};

static struct zwlr_foreign_toplevel_manager_v1 *manager;
static struct toplevel *toplevels;
static uint64_t dones;
static bool finished;
static char *last_line;

static void *checked(void *pointer) {
    if (!pointer) {
        fputs("orientationd-toplevels: out of memory\n", stderr);
        exit(1);
    }
    return pointer;
}

/* Writes the line for what is in front now, when it differs from the last. */
static void report(void) {
    struct toplevel *front = NULL;
    for (struct toplevel *t = toplevels; t; t = t->next)
        if (t->activated && (!front || t->activated_at > front->activated_at))
            front = t;
    char *line;
    if (front) {
        const char *id = front->app_id ? front->app_id : "";
        size_t size = strlen(id) + 32;
        line = checked(malloc(size));
        snprintf(line, size, "activated %d %d %s", front->fullscreen, front->maximized, id);
        /* An id is one line: a newline in it (no compositor sends one) ends it. */
        line[strcspn(line, "\n")] = '\0';
    } else {
        line = checked(strdup("none"));
    }
    if (last_line && strcmp(line, last_line) == 0) {
        free(line);
        return;
    }
    free(last_line);
    last_line = line;
    printf("%s\n", line);
    fflush(stdout);
}

static void handle_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *title) {}

static void handle_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *app_id) {
    struct toplevel *t = data;
    free(t->pending_app_id);
    t->pending_app_id = checked(strdup(app_id));
}

static void handle_output(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_output *output) {}

static void handle_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_array *state) {
    struct toplevel *t = data;
    t->pending_activated = t->pending_fullscreen = t->pending_maximized = false;
    uint32_t *value;
    wl_array_for_each(value, state) {
        switch (*value) {
        case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED: t->pending_activated = true; break;
        case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN: t->pending_fullscreen = true; break;
        case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED: t->pending_maximized = true; break;
        default: break;
        }
    }
}

static void handle_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    struct toplevel *t = data;
    if (t->pending_app_id && (!t->app_id || strcmp(t->app_id, t->pending_app_id) != 0)) {
        free(t->app_id);
        t->app_id = checked(strdup(t->pending_app_id));
    }
    dones++;
    if (t->pending_activated && !t->activated)
        t->activated_at = dones;
    t->activated = t->pending_activated;
    t->fullscreen = t->pending_fullscreen;
    t->maximized = t->pending_maximized;
    report();
}

static void handle_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    struct toplevel *t = data;
    for (struct toplevel **link = &toplevels; *link; link = &(*link)->next) {
        if (*link == t) {
            *link = t->next;
            break;
        }
    }
    zwlr_foreign_toplevel_handle_v1_destroy(t->handle);
    free(t->pending_app_id);
    free(t->app_id);
    free(t);
    report();
}

static void handle_parent(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle,
                          struct zwlr_foreign_toplevel_handle_v1 *parent) {}

static const struct zwlr_foreign_toplevel_handle_v1_listener toplevel_listener = {
    .title = handle_title,
    .app_id = handle_app_id,
    .output_enter = handle_output,
    .output_leave = handle_output,
    .state = handle_state,
    .done = handle_done,
    .closed = handle_closed,
    .parent = handle_parent,
};

static void handle_toplevel(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager,
                            struct zwlr_foreign_toplevel_handle_v1 *handle) {
    struct toplevel *t = checked(calloc(1, sizeof *t));
    t->handle = handle;
    t->next = toplevels;
    toplevels = t;
    zwlr_foreign_toplevel_handle_v1_add_listener(handle, &toplevel_listener, t);
}

static void handle_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *m) {
    finished = true;
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener = {
    .toplevel = handle_toplevel,
    .finished = handle_finished,
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                          uint32_t version) {
    if (manager || strcmp(interface, zwlr_foreign_toplevel_manager_v1_interface.name) != 0)
        return;
    uint32_t bound = version < 3 ? version : 3;
    manager = wl_registry_bind(registry, name, &zwlr_foreign_toplevel_manager_v1_interface, bound);
    zwlr_foreign_toplevel_manager_v1_add_listener(manager, &manager_listener, NULL);
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {}

static const struct wl_registry_listener registry_listener = {
    .global = handle_global,
    .global_remove = handle_global_remove,
};

int main(int argc, char **argv) {
    if (argc > 1) {
        fputs("usage: orientationd-toplevels (no arguments; see the comment at the top of its source)\n", stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_DFL);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "orientationd-toplevels: no Wayland compositor at %s: %s\n",
                getenv("WAYLAND_DISPLAY") ? getenv("WAYLAND_DISPLAY") : "wayland-0", strerror(errno));
        return EXIT_NO_COMPOSITOR;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    if (wl_display_roundtrip(display) < 0)
        return EXIT_LOST;
    if (!manager) {
        wl_display_disconnect(display);
        return EXIT_NO_PROTOCOL;
    }
    /* The toplevels that exist now, and their first state. */
    if (wl_display_roundtrip(display) < 0)
        return EXIT_LOST;
    printf("ready\n");
    report();

    /* Until the compositor goes, or whoever reads us does (stdout's reader closes its end). */
    struct pollfd fds[2] = {
        { .fd = wl_display_get_fd(display), .events = POLLIN },
        { .fd = STDOUT_FILENO, .events = 0 },
    };
    while (!finished) {
        while (wl_display_prepare_read(display) != 0)
            if (wl_display_dispatch_pending(display) < 0)
                return EXIT_LOST;
        if (wl_display_flush(display) < 0 && errno != EAGAIN) {
            wl_display_cancel_read(display);
            return EXIT_LOST;
        }
        if (poll(fds, 2, -1) < 0) {
            wl_display_cancel_read(display);
            if (errno == EINTR)
                continue;
            return EXIT_LOST;
        }
        if (fds[1].revents & (POLLERR | POLLHUP)) {
            wl_display_cancel_read(display);
            return 0;
        }
        if (fds[0].revents & (POLLERR | POLLHUP)) {
            wl_display_cancel_read(display);
            return EXIT_LOST;
        }
        if (wl_display_read_events(display) < 0 || wl_display_dispatch_pending(display) < 0)
            return EXIT_LOST;
    }
    return EXIT_LOST;
}
