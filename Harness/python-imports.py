# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Exits 0 when this Python can import every module named, else 1 with why on stderr.

Usage: python-imports.py MODULE...   (a GObject binding as gi.repository.NAME@VERSION, e.g.
gi.repository.UMockdev@1.0, is asked for in that version first)
"""
import importlib
import sys

for name in sys.argv[1:]:
    module, _, version = name.partition('@')
    try:
        if version:
            import gi
            gi.require_version(module.rsplit('.', 1)[1], version)
        importlib.import_module(module)
    except (ImportError, ValueError) as error:
        sys.exit('cannot import %s: %s' % (name, error))
