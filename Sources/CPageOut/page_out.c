// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

#include "page_out.h"

#include <malloc.h>
#include <poll.h>
#include <sys/mman.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

/* Compiled with -fno-plt (Package.swift): madvise and poll are called through the GOT, which is
   relocated data, not through the program's PLT, which lies in its code and would be paged out. */

enum { RANGES = 64, PAGE = 4096 };

static uintptr_t range_start[RANGES];
static size_t range_length[RANGES];
static int ranges;
static int pending;
static int again; /* wake-ups after which the advice is given again; -1: every one */
static unsigned long given;
static long last_bytes;

int page_out_arm(const uintptr_t *starts, const size_t *lengths, int count, int wake_ups) {
    if (count < 0 || count > RANGES) return -1;
    for (int i = 0; i < count; i++) {
        range_start[i] = starts[i];
        range_length[i] = lengths[i];
    }
    ranges = count;
    pending = 1;
    again = wake_ups;
    return 0;
}

void page_out_disarm(void) {
    pending = 0;
    again = 0;
}

unsigned long page_out_count(void) { return given; }

long page_out_last_bytes(void) { return last_bytes; }

int page_out_poll(void *fds, unsigned int count, int timeout) {
    if (pending && (timeout < 0 || timeout >= 1000)) {
        /* The pages this function runs from stay: madvise returns into them. Two pages, in case
           the function crosses a page boundary. */
        uintptr_t keep = (uintptr_t)&page_out_poll & ~(uintptr_t)(PAGE - 1);
        uintptr_t keep_end = keep + 2 * PAGE;
        long bytes = 0;
        int refused = 0;
        /* The heap's free pages too: measured, 70 to 160 KB of orientationctl report-focus's. */
        malloc_trim(0);
        for (int i = 0; i < ranges; i++) {
            uintptr_t start = range_start[i], end = start + range_length[i];
            uintptr_t parts[2][2] = {{start, end}, {end, end}};
            /* The program's own code: the mapping that holds this function. */
            int own_code = keep >= start && keep < end;
            if (keep < end && keep_end > start) {
                parts[0][1] = keep > start ? keep : start;
                parts[1][0] = keep_end < end ? keep_end : end;
            }
            for (int p = 0; p < 2; p++) {
                if (parts[p][1] <= parts[p][0]) continue;
                if (madvise((void *)parts[p][0], parts[p][1] - parts[p][0], MADV_PAGEOUT) == 0)
                    bytes += (long)(parts[p][1] - parts[p][0]);
                else
                    refused = 1;
                /* The page cache holds a file in folios as large as the read-ahead window (128 KB
                   here), and the kernel pages out only a folio this range maps whole: the one that
                   reaches past the end of the code, into the padding or data after it, stays mapped,
                   and with it up to 124 KB of code (measured: 0, 36 or 100 KB by start), the PLT
                   among it. The program's code is never written, so what stays is unmapped: it
                   remains in the page cache as file pages nothing maps, among the first the kernel
                   reclaims, and the next touch maps it again from there. */
                if (own_code) madvise((void *)parts[p][0], parts[p][1] - parts[p][0], MADV_DONTNEED);
            }
        }
        pending = 0;
        given++;
        last_bytes = refused && bytes == 0 ? -1 : bytes;
    }
    int ready = poll((struct pollfd *)fds, (nfds_t)count, timeout);
    /* Woken: what the wake-up runs touches the program again. */
    if (again != 0 && ranges > 0 && !pending) {
        pending = 1;
        if (again > 0) again--;
    }
    return ready;
}
