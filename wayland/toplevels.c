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
 *
 * With --outputs it also binds zwlr_output_manager_v1 (sway, Hyprland, river,
 * labwc, wayfire, niri, cosmic-comp, cage, phoc), to turn the built-in panel:
 *
 *   outputs NAME=ENABLED,TRANSFORM ...       every head, after each change the
 *                                            compositor completes (done); ENABLED
 *                                            0 or 1, TRANSFORM the wl_output
 *                                            transform 0-7; "outputs" alone: none
 *   turned NAME TRANSFORM                    a turn was applied
 *   turn-failed NAME TRANSFORM               the compositor refused it
 *   no-toplevels                             (after ready) the compositor has no
 *                                            foreign-toplevel manager: no focus
 *
 * and reads commands on stdin, one a line:
 *
 *   turn NAME TRANSFORM                      give the head NAME the wl_output
 *                                            transform TRANSFORM (0-3), every
 *                                            other head kept as it is; applied
 *                                            again when the compositor cancels it
 *                                            (its heads changed meanwhile). A
 *                                            disabled head is left alone.
 *
 * Exit status: 0 when stdout closes; 3 when the compositor offers none of the
 * protocols asked for (GNOME, KDE: nothing to report, nothing to turn); 4 when
 * no compositor listens at $WAYLAND_DISPLAY; 5 when the connection to the
 * compositor is lost or the compositor stops a manager.
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
#include "wlr-output-management-unstable-v1-client-protocol.h"

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

/* ---- Output management (--outputs) ---- */

/* One head: its name, and what the last done made true. */
struct head {
    struct zwlr_output_head_v1 *handle;
    char *name;
    bool enabled;
    int32_t transform;
    struct head *next;
};

static bool want_outputs;
static struct zwlr_output_manager_v1 *output_manager;
static struct head *heads;
static uint32_t output_serial;
static bool outputs_known;
static char *last_outputs;

/* The turn asked for (NULL: none), and the configuration in flight for it. */
static char *turn_name;
static int32_t turn_transform;
static struct zwlr_output_configuration_v1 *configuration;
static uint32_t configuration_serial;

static struct head *head_named(const char *name) {
    for (struct head *h = heads; h; h = h->next)
        if (h->name && strcmp(h->name, name) == 0)
            return h;
    return NULL;
}

/* Writes the heads when they differ from the last line written. */
static void report_outputs(void) {
    size_t size = 16;
    for (struct head *h = heads; h; h = h->next)
        size += (h->name ? strlen(h->name) : 1) + 24;
    char *line = checked(malloc(size));
    strcpy(line, "outputs");
    for (struct head *h = heads; h; h = h->next) {
        if (!h->name)
            continue;
        size_t used = strlen(line);
        snprintf(line + used, size - used, " %s=%d,%d", h->name, h->enabled, h->transform);
    }
    if (last_outputs && strcmp(line, last_outputs) == 0) {
        free(line);
        return;
    }
    free(last_outputs);
    last_outputs = line;
    printf("%s\n", line);
    fflush(stdout);
}

static void apply_turn(void);

static void handle_configuration_result(struct zwlr_output_configuration_v1 *config) {
    zwlr_output_configuration_v1_destroy(config);
    if (config == configuration)
        configuration = NULL;
}

static void handle_succeeded(void *data, struct zwlr_output_configuration_v1 *config) {
    handle_configuration_result(config);
    if (turn_name) {
        printf("turned %s %d\n", turn_name, turn_transform);
        fflush(stdout);
    }
    apply_turn();
}

static void handle_failed(void *data, struct zwlr_output_configuration_v1 *config) {
    handle_configuration_result(config);
    if (turn_name) {
        printf("turn-failed %s %d\n", turn_name, turn_transform);
        fflush(stdout);
        /* Not tried again until another turn is asked for. */
        free(turn_name);
        turn_name = NULL;
    }
}

static void handle_cancelled(void *data, struct zwlr_output_configuration_v1 *config) {
    uint32_t serial = configuration_serial;
    handle_configuration_result(config);
    /* The heads changed under it: again, against the state after the next done (or the one already come). */
    if (output_serial != serial)
        apply_turn();
}

static const struct zwlr_output_configuration_v1_listener configuration_listener = {
    .succeeded = handle_succeeded,
    .failed = handle_failed,
    .cancelled = handle_cancelled,
};

/* Sends a configuration for the turn asked for, when one is needed and none is in flight: the head
   named enabled with the transform, every other enabled head enabled as it is, the others disabled. */
static void apply_turn(void) {
    if (!turn_name || configuration || !outputs_known)
        return;
    struct head *target = head_named(turn_name);
    if (!target || !target->enabled || target->transform == turn_transform)
        return;
    configuration = zwlr_output_manager_v1_create_configuration(output_manager, output_serial);
    configuration_serial = output_serial;
    zwlr_output_configuration_v1_add_listener(configuration, &configuration_listener, NULL);
    for (struct head *h = heads; h; h = h->next) {
        if (!h->enabled) {
            zwlr_output_configuration_v1_disable_head(configuration, h->handle);
            continue;
        }
        struct zwlr_output_configuration_head_v1 *config_head = zwlr_output_configuration_v1_enable_head(configuration, h->handle);
        if (h == target)
            zwlr_output_configuration_head_v1_set_transform(config_head, turn_transform);
        /* The object has no destructor of its own: the configuration's ends it. */
        wl_proxy_destroy((struct wl_proxy *)config_head);
    }
    zwlr_output_configuration_v1_apply(configuration);
}

/* One command line from stdin. */
static void command(const char *line) {
    char name[128];
    int transform;
    if (sscanf(line, "turn %127s %d", name, &transform) != 2 || transform < 0 || transform > 3) {
        fprintf(stderr, "orientationd-toplevels: unknown command '%s'\n", line);
        return;
    }
    free(turn_name);
    turn_name = checked(strdup(name));
    turn_transform = transform;
    apply_turn();
}

static void handle_head_name(void *data, struct zwlr_output_head_v1 *handle, const char *name) {
    struct head *h = data;
    free(h->name);
    h->name = checked(strdup(name));
    /* One word, as the lines need it. */
    for (char *c = h->name; *c; c++)
        if (*c == ' ' || *c == '=' || *c == ',' || *c == '\n')
            *c = '_';
}

static void handle_head_string(void *data, struct zwlr_output_head_v1 *handle, const char *text) {}

static void handle_head_size(void *data, struct zwlr_output_head_v1 *handle, int32_t width, int32_t height) {}

static void handle_mode_size(void *data, struct zwlr_output_mode_v1 *mode, int32_t width, int32_t height) {}

static void handle_mode_refresh(void *data, struct zwlr_output_mode_v1 *mode, int32_t refresh) {}

static void handle_mode_preferred(void *data, struct zwlr_output_mode_v1 *mode) {}

static void handle_mode_finished(void *data, struct zwlr_output_mode_v1 *mode) {
    zwlr_output_mode_v1_destroy(mode);
}

static const struct zwlr_output_mode_v1_listener mode_listener = {
    .size = handle_mode_size,
    .refresh = handle_mode_refresh,
    .preferred = handle_mode_preferred,
    .finished = handle_mode_finished,
};

static void handle_head_mode(void *data, struct zwlr_output_head_v1 *handle, struct zwlr_output_mode_v1 *mode) {
    zwlr_output_mode_v1_add_listener(mode, &mode_listener, NULL);
}

static void handle_head_enabled(void *data, struct zwlr_output_head_v1 *handle, int32_t enabled) {
    struct head *h = data;
    h->enabled = enabled != 0;
}

static void handle_head_current_mode(void *data, struct zwlr_output_head_v1 *handle, struct zwlr_output_mode_v1 *mode) {}

static void handle_head_position(void *data, struct zwlr_output_head_v1 *handle, int32_t x, int32_t y) {}

static void handle_head_transform(void *data, struct zwlr_output_head_v1 *handle, int32_t transform) {
    struct head *h = data;
    h->transform = transform;
}

static void handle_head_scale(void *data, struct zwlr_output_head_v1 *handle, wl_fixed_t scale) {}

static void handle_head_finished(void *data, struct zwlr_output_head_v1 *handle) {
    struct head *h = data;
    for (struct head **link = &heads; *link; link = &(*link)->next) {
        if (*link == h) {
            *link = h->next;
            break;
        }
    }
    zwlr_output_head_v1_destroy(h->handle);
    free(h->name);
    free(h);
}

static const struct zwlr_output_head_v1_listener head_listener = {
    .name = handle_head_name,
    .description = handle_head_string,
    .physical_size = handle_head_size,
    .mode = handle_head_mode,
    .enabled = handle_head_enabled,
    .current_mode = handle_head_current_mode,
    .position = handle_head_position,
    .transform = handle_head_transform,
    .scale = handle_head_scale,
    .finished = handle_head_finished,
    .make = handle_head_string,
    .model = handle_head_string,
    .serial_number = handle_head_string,
};

static void handle_output_head(void *data, struct zwlr_output_manager_v1 *m, struct zwlr_output_head_v1 *handle) {
    struct head *h = checked(calloc(1, sizeof *h));
    h->handle = handle;
    /* Last, so that heads stay in the order the compositor announced them. */
    struct head **link = &heads;
    while (*link)
        link = &(*link)->next;
    *link = h;
    zwlr_output_head_v1_add_listener(handle, &head_listener, h);
}

static void handle_output_done(void *data, struct zwlr_output_manager_v1 *m, uint32_t serial) {
    output_serial = serial;
    outputs_known = true;
    report_outputs();
    apply_turn();
}

static void handle_output_finished(void *data, struct zwlr_output_manager_v1 *m) {
    finished = true;
}

static const struct zwlr_output_manager_v1_listener output_manager_listener = {
    .head = handle_output_head,
    .done = handle_output_done,
    .finished = handle_output_finished,
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                          uint32_t version) {
    if (want_outputs && !output_manager && strcmp(interface, zwlr_output_manager_v1_interface.name) == 0) {
        output_manager = wl_registry_bind(registry, name, &zwlr_output_manager_v1_interface, version < 2 ? version : 2);
        zwlr_output_manager_v1_add_listener(output_manager, &output_manager_listener, NULL);
        return;
    }
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
    want_outputs = argc == 2 && strcmp(argv[1], "--outputs") == 0;
    if (argc > 2 || (argc == 2 && !want_outputs)) {
        fputs("usage: orientationd-toplevels [--outputs] (see the comment at the top of its source)\n", stderr);
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
    if (!manager && !output_manager) {
        wl_display_disconnect(display);
        return EXIT_NO_PROTOCOL;
    }
    /* The toplevels and heads that exist now, and their first state. */
    if (wl_display_roundtrip(display) < 0)
        return EXIT_LOST;
    printf("ready\n");
    if (manager)
        report();
    else
        printf("no-toplevels\n");
    fflush(stdout);

    /* Until the compositor goes, or whoever reads us does (stdout's reader closes its end). */
    struct pollfd fds[3] = {
        { .fd = wl_display_get_fd(display), .events = POLLIN },
        { .fd = STDOUT_FILENO, .events = 0 },
        { .fd = want_outputs ? STDIN_FILENO : -1, .events = POLLIN },
    };
    char input[512];
    size_t input_used = 0;
    while (!finished) {
        while (wl_display_prepare_read(display) != 0)
            if (wl_display_dispatch_pending(display) < 0)
                return EXIT_LOST;
        if (wl_display_flush(display) < 0 && errno != EAGAIN) {
            wl_display_cancel_read(display);
            return EXIT_LOST;
        }
        if (poll(fds, 3, -1) < 0) {
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
        if (fds[2].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t count = read(STDIN_FILENO, input + input_used, sizeof input - 1 - input_used);
            if (count <= 0) {
                /* No more commands; the turns asked for stay. */
                fds[2].fd = -1;
                continue;
            }
            input_used += (size_t)count;
            input[input_used] = '\0';
            char *newline;
            while ((newline = strchr(input, '\n'))) {
                *newline = '\0';
                command(input);
                input_used -= (size_t)(newline + 1 - input);
                memmove(input, newline + 1, input_used + 1);
            }
            /* A line longer than the buffer is not a command. */
            if (input_used == sizeof input - 1)
                input_used = 0;
        }
    }
    return EXIT_LOST;
}
