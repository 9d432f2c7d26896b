// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/* The least a poller of a polled accelerometer can do per wake-up (Benchmarks/wakeup/floor.py): the
   three raw attributes held open and read with one pread each, every PERIOD_MS, and nothing else.
   With "plain", the loop is poll(2) with a timeout; with "glib", a GLib main loop and one timeout
   source, as a daemon on GLib wakes.

       poller DEVICE_DIR PERIOD_MS plain|glib */
#include <fcntl.h>
#include <glib.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fds[3];
static volatile long sum;

static void read_axes(void) {
    char text[32];
    for (int i = 0; i < 3; i++) {
        ssize_t n = pread(fds[i], text, sizeof text - 1, 0);
        if (n > 0) {
            text[n] = 0;
            sum += strtol(text, NULL, 10);
        }
    }
}

static gboolean tick(gpointer data) {
    (void)data;
    read_axes();
    return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: poller DEVICE_DIR PERIOD_MS plain|glib\n");
        return 2;
    }
    const char *axes[3] = {"in_accel_x_raw", "in_accel_y_raw", "in_accel_z_raw"};
    for (int i = 0; i < 3; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", argv[1], axes[i]);
        fds[i] = open(path, O_RDONLY | O_CLOEXEC);
        if (fds[i] < 0) {
            perror(path);
            return 1;
        }
    }
    int period = atoi(argv[2]);
    if (strcmp(argv[3], "glib") == 0) {
        GMainLoop *loop = g_main_loop_new(NULL, FALSE);
        g_timeout_add(period, tick, NULL);
        g_main_loop_run(loop);
    } else {
        for (;;) {
            poll(NULL, 0, period);
            read_axes();
        }
    }
    return 0;
}
