// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

#ifndef CGLIB_SHIM_H
#define CGLIB_SHIM_H

#include <glib.h>
#include <glib-unix.h>
/* glibc's malloc_trim: the main loop's owner gives the heap's free pages back after a burst of removals. */
#include <malloc.h>
#include <unistd.h>

/* close_range(2) (glibc 2.34) is declared only under _GNU_SOURCE. */
int close_range(unsigned int first, unsigned int last, int flags);

/* GLib's boolean and priority macros do not import into Swift. */

static const gboolean CGLIB_SOURCE_CONTINUE = G_SOURCE_CONTINUE;
static const gboolean CGLIB_SOURCE_REMOVE = G_SOURCE_REMOVE;
static const int CGLIB_PRIORITY_HIGH = G_PRIORITY_HIGH;
static const int CGLIB_PRIORITY_DEFAULT = G_PRIORITY_DEFAULT;
static const int CGLIB_PRIORITY_HIGH_IDLE = G_PRIORITY_HIGH_IDLE;
static const int CGLIB_PRIORITY_DEFAULT_IDLE = G_PRIORITY_DEFAULT_IDLE;
static const unsigned int CGLIB_IO_IN = G_IO_IN;
static const unsigned int CGLIB_IO_OUT = G_IO_OUT;
static const unsigned int CGLIB_IO_PRI = G_IO_PRI;
static const unsigned int CGLIB_IO_ERR = G_IO_ERR;
static const unsigned int CGLIB_IO_HUP = G_IO_HUP;
static const unsigned int CGLIB_IO_NVAL = G_IO_NVAL;

#endif
