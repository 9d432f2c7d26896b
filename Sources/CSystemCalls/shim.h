// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

#ifndef CSYSTEMCALLS_SHIM_H
#define CSYSTEMCALLS_SHIM_H

/* fstatfs(2): which file system an open file lies on (Glibc's module does not bring sys/vfs.h). */
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>

/* fstatfs made as the system call itself: the kernel's answer for the file the descriptor holds, which
   no preloaded wrapper of the C library's fstatfs can change. */
static inline int kernel_fstatfs(int fd, struct statfs *buffer) {
    return (int)syscall(SYS_fstatfs, fd, buffer);
}

/* read(2) made as the system call itself, for a descriptor of this process's own (an inotify queue)
   that a preloaded wrapper of the C library's read, made for the devices it fakes, need not see. */
static inline long kernel_read(int fd, void *buffer, unsigned long count) {
    return syscall(SYS_read, fd, buffer, count);
}

/* close_range(2) (glibc 2.34) is declared only under _GNU_SOURCE. */
int close_range(unsigned int first, unsigned int last, int flags);

#endif
