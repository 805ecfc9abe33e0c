# tests/sextant_sqlite.py: lets Python's sqlite3 module read a trace store.
#
# The big tables of a store (visit, message, collective_member, lod) are
# virtual tables of Sextant's SQLite extension. Debian's Python is built
# without load_extension(), so this registers the extension as an SQLite
# auto-extension instead, through the libsqlite3 that Python's sqlite3 module
# itself uses: every connection opened afterwards has the module.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import ctypes
import os
import sys

_done = False


def enable():
    global _done
    if _done:
        return
    path = os.environ.get("SEXTANT_SQLITE_EXTENSION")
    if not path or not os.path.exists(path):
        sys.exit("SEXTANT_SQLITE_EXTENSION does not name the built sextant-sqlite.so")
    lib = ctypes.CDLL("libsqlite3.so.0")
    ext = ctypes.CDLL(path)
    init = ctypes.cast(ext.sqlite3_sextantsqlite_init, ctypes.c_void_p)
    if lib.sqlite3_auto_extension(init) != 0:
        sys.exit("cannot register the sextant-sqlite extension")
    _done = True


enable()
