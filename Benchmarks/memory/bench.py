#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Idle memory, mapped back to what holds it: orientationd and iio-sensor-proxy, the peer, both running
and idle (nobody claiming) on one umockdev fake accelerometer, in one run.

For each: VmRSS and private memory (Private_Clean + Private_Dirty) `--settle` seconds (1) after its bus name appears,
then per mapped file (resident.py's first table). For ours also: which sections of its own file are
present and which components and symbols those pages hold (resident.py's analysis).

Run through run.sh. Prints figures; never fails on a size. --json FILE writes them for Benchmarks/run.sh.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from sidebyside import arguments, SideBySide, memory_kb  # noqa: E402


def main():
    args = arguments(top=(int, 15), settle=(float, 1.0))

    sbs = SideBySide(args.daemon, keep=args.keep)
    report = {}
    try:
        procs = {who: sbs.start(who, cold=True)[0] for who in ('ours', 'peer')}
        time.sleep(args.settle)
        for who in ('peer', 'ours'):
            report[who] = memory_kb(procs[who].pid)
        for who in ('peer', 'ours'):
            out = os.path.join(sbs.work, 'resident-%s.json' % who)
            # The peer's own file is a few pages; its libraries are what counts.
            only = ['--files-only'] if who == 'peer' else []
            text = subprocess.run([sys.executable, os.path.join(HERE, 'resident.py'), str(procs[who].pid),
                                   '--top', str(args.top), '--json', out] + only, capture_output=True, text=True).stdout
            print('== %s' % ('iio-sensor-proxy' if who == 'peer' else 'orientationd'))
            print(text)
            with open(out) as f:
                detail = json.load(f)
            report[who]['sections'] = detail.get('sections')
            report[who]['components'] = detail.get('components')
            report[who]['files'] = detail.get('files')
    finally:
        sbs.close()
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(report, f, indent=1)


if __name__ == '__main__':
    main()
