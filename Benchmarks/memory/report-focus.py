#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""The session side counted: `orientationctl report-focus` and its Wayland helper
(`orientationd-toplevels`), idle in a headless sway (Benchmarks/follow/sway.py) beside orientationd
(`--sensor simulated`) on a private bus; PSS, private memory and VmRSS of both processes `--settle`
seconds (10) after the reporter started, each of `--starts` (3) times, its program from a cold page
cache. The reporter hands back the pages of its program as it goes to sleep after each wake-up
(ProgramPages); the helper is a small C program.

    report-focus.py --daemon BIN [--ctl BIN] [--starts 3] [--settle 10] [--json FILE]

`--ctl` defaults to orientationctl beside the daemon, and the helper is looked for beside it. Prints
figures; never fails on a size.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'follow'))
from sidebyside import arguments, SideBySide, clean_environment, evict, memory_kb  # noqa: E402
from sway import HeadlessSway  # noqa: E402


def children(pid):
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(c) for c in f.read().split()]
    except FileNotFoundError:
        return []


def main():
    args = arguments(ctl=(str, ''), starts=(int, 3), settle=(float, 10.0))
    ctl = args.ctl or os.path.join(os.path.dirname(args.daemon), 'orientationctl')
    sbs = SideBySide(args.daemon, keep=args.keep)
    rows = []
    sway = None
    try:
        sbs.start('ours', sensor='simulated')
        sway = HeadlessSway(os.path.join(sbs.work, 'sway.log'))
        env = sway.environment(clean_environment())
        for n in range(args.starts):
            # From a cold page cache, as after a boot (sidebyside.start's `cold`).
            evict(ctl)
            log = open(os.path.join(sbs.work, 'report-focus-%d.log' % n), 'w')
            p = subprocess.Popen([ctl, '--address', sbs.address, 'report-focus'], env=env, stdout=log, stderr=log)
            time.sleep(args.settle)
            helpers = children(p.pid)
            row = {'reporter': memory_kb(p.pid), 'helper': memory_kb(helpers[0]) if helpers else None}
            row['pair_pss'] = row['reporter']['Pss'] + (row['helper']['Pss'] if row['helper'] else 0)
            rows.append(row)
            p.terminate()
            p.wait(10)
            log.close()
    finally:
        if sway:
            sway.stop()
        sbs.close()
    print('orientationctl report-focus idle in headless sway, %g s after start, %d starts (kB)' % (args.settle, args.starts))
    print('%-5s %10s %10s %10s   %10s %10s   %s' % ('start', 'ctl RSS', 'ctl PSS', 'ctl priv', 'helper PSS', 'helper priv',
                                                  'pair PSS'))
    for n, r in enumerate(rows, 1):
        h = r['helper'] or {'Pss': 0, 'private': 0}
        print('%-5d %10d %10d %10d   %10d %10d   %d' % (n, r['reporter']['VmRSS'], r['reporter']['Pss'], r['reporter']['private'],
                                                     h['Pss'], h['private'], r['pair_pss']))
    print('worst pair PSS: %d kB (target 1536 kB)' % max(r['pair_pss'] for r in rows))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=1)


if __name__ == '__main__':
    main()
