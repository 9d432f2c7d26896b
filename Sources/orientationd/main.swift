// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

// Logs reach the journal or a pipe line by line, not when a buffer fills.
setvbuf(stderr, nil, _IOLBF, 0)
exit(runDaemon())
