#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""ui/ talks to the trace store through sextant-store.h's typed readers only.

No file under ui/ may include <sqlite3.h>, an OTF2 header (<otf2/...>) or
sextant-store-private.h (the statements, rows and column layout of the
engine), directly or through a header of the tree it includes. Output is TAP.
"""

import os
import re
import sys

from tap import finish, ok

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEARCH = ["ui", "trace", "patterns", "app"]   # where the tree's own headers are
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def forbidden(name):
    return name == "sqlite3.h" or name == "sqlite3ext.h" or name.startswith("otf2/") or \
        name == "sextant-store-private.h"


def find_header(name):
    for folder in SEARCH:
        path = os.path.join(SOURCE, folder, name)
        if os.path.isfile(path):
            return path
    return None


def forbidden_includes(path, seen):
    """(header, chain) for every forbidden include reachable from path."""
    found = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for _, name in INCLUDE.findall(text):
        if forbidden(name):
            found.append((name, [os.path.relpath(path, SOURCE)]))
            continue
        header = find_header(name)
        if header is None or header in seen:
            continue
        seen.add(header)
        for bad, chain in forbidden_includes(header, seen):
            found.append((bad, [os.path.relpath(path, SOURCE)] + chain))
    return found


def main():
    ui = os.path.join(SOURCE, "ui")
    files = sorted(name for name in os.listdir(ui) if name.endswith((".c", ".h")))
    ok(files, "ui/ has sources")
    for name in files:
        path = os.path.join(ui, name)
        rel = os.path.relpath(path, SOURCE)
        bad = []
        for header, chain in forbidden_includes(path, set()):
            direct = len(chain) == 1
            bad.append("%s includes %s%s" % (rel, header, "" if direct else " via " + " -> ".join(chain[1:])))
        ok(not bad, "%s: no SQLite, OTF2 or store-private header" % rel, "\n".join(bad))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
