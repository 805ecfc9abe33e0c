# SPDX-License-Identifier: GPL-3.0-or-later
"""The external archives the python tests read (as
tests/test-external-traces.py reads them): those of the external README
that have event tables, and each one's anchor file."""

import os
import re


def external_archives(traces):
    """The names of the archives under @traces whose README section has
    event tables, in README order."""
    names = []
    with open(os.path.join(traces, "README.md")) as f:
        name = None
        for line in f:
            m = re.match(r"^## (\S+)\s*$", line)
            if m:
                name = m.group(1)
            elif name and line.startswith("| event type | count |") and name not in names:
                names.append(name)
    return names


def anchor(path):
    """The first .otf2 file under @path (an archive's anchor), or @path"""
    for root, _, files in os.walk(path):
        for f in sorted(files):
            if f.endswith(".otf2"):
                return os.path.join(root, f)
    return path
