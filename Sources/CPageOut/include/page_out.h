// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

#ifndef CPAGEOUT_PAGE_OUT_H
#define CPAGEOUT_PAGE_OUT_H

#include <stddef.h>
#include <stdint.h>

/* The program's pages handed back to the kernel at the moment the main loop goes to sleep.

   madvise(MADV_PAGEOUT) takes back each page of a file mapping that only this process maps. Made
   from the program's own code, its effect is undone at once: what runs after it (the rest of the
   caller, the main loop's next round of source checks) touches its pages again, and each touch maps
   back the 64 KB around it. So the advice is armed with the ranges to hand back, and given by
   page_out_poll, the main loop's poll function, just before it sleeps in poll(2): nothing of the
   program runs between the advice and the sleep but page_out_poll itself, whose own pages are left
   out of the advice. The heap's free pages go back with them (malloc_trim), and what the kernel
   would not page out of the program's own code (a folio reaching past its end) is unmapped. */

/* Arms a page-out of `count` ranges (start, length); the next page_out_poll that may sleep a second
   or more gives the advice. It is given again before the sleep that follows each of the next
   `wake_ups` wake-ups (-1: every wake-up), for what their work touched: the aftermath of what made
   the program idle (a client leaving the bus after its last call), or each wake-up of a program
   that wakes seldom. Returns 0, or -1 when there are more ranges than it keeps (64). */
int page_out_arm(const uintptr_t *starts, const size_t *lengths, int count, int wake_ups);

/* Forgets an armed page-out, and the wake-ups after which it would be given again. */
void page_out_disarm(void);

/* How many page-outs were given, and the bytes advised by the last one (-1: the kernel refused
   the advice, as before Linux 5.4). */
unsigned long page_out_count(void);
long page_out_last_bytes(void);

/* GLib's GPollFunc (g_main_context_set_poll_func): poll(2), after the armed advice when the loop
   may sleep a second or more (`timeout` negative or at least 1000 ms). `fds` is GPollFD[], which is
   struct pollfd on Linux. */
int page_out_poll(void *fds, unsigned int count, int timeout);

#endif
