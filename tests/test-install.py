#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`meson install` of the build into a temporary DESTDIR, and what a desktop
makes of the installed files.

The installed desktop entry and AppStream metainfo pass their validators and
agree with each other and with what was installed (the binary, the icon, the
MIME types); the installed schema compiles and gives its defaults; after the
steps a package's triggers run (update-mime-database, update-desktop-database,
glib-compile-schemas, gtk-update-icon-cache, all on the DESTDIR), GIO, with
only the DESTDIR and the system's /usr/share as its data directories, calls a
real OTF2 anchor application/x-otf2-trace (by name, and by content under
another name) and a real trace store, imported by the installed `sextant`,
application/x-sextant-store, while a store under another name stays an SQLite
database; and the DESTDIR's Sextant opens both types. Nothing is written into
the real prefix (meson skips post-install scripts under a DESTDIR) and the
DESTDIR is removed at the end.

Usage: test-install.py MESON BUILD_DIR PREFIX BINDIR DATADIR. Output is TAP.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from tap import finish, ok, skip

APP_ID = "org.sextant.Sextant"
TYPES = {"application/x-otf2-trace", "application/x-sextant-store"}
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
# what `gnome.post_install` runs in a real prefix, relative to the data dir
POST_INSTALL_OUTPUTS = ["glib-2.0/schemas/gschemas.compiled", "mime/mime.cache",
                        "applications/mimeinfo.cache", "icons/hicolor/icon-theme.cache"]


def run(cmd, env=None, timeout=120):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                          encoding="utf-8", errors="replace", env=env, timeout=timeout)


def describe(proc):
    return "%s\nexit %d\n%s%s" % (" ".join(proc.args), proc.returncode, proc.stdout, proc.stderr)


def desktop_entry(path):
    """The [Desktop Entry] group of @path as a dict."""
    entry, group = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                group = line
            elif group == "[Desktop Entry]" and "=" in line and not line.startswith("#"):
                key, value = line.split("=", 1)
                entry[key.strip()] = value.strip()
    return entry


def stat_or_none(path):
    try:
        st = os.stat(path)
        return (st.st_size, st.st_mtime_ns)
    except FileNotFoundError:
        return None


def content_type(path, env):
    proc = run(["gio", "info", "-a", "standard::content-type", path], env=env)
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("standard::content-type:"):
            return line.split(": ", 1)[1].strip()
    return describe(proc)


def main():
    meson, build, prefix, bindir, datadir = sys.argv[1:6]
    traces = os.environ["SEXTANT_EXTERNAL_TRACES"]
    archive = os.path.join(traces, "casita-4_mpi_ls_barr")
    real_data = os.path.join(prefix, datadir)
    before = {p: stat_or_none(os.path.join(real_data, p)) for p in POST_INSTALL_OUTPUTS}

    tmp = tempfile.mkdtemp(prefix="sextant-test-install-")
    try:
        check_install(meson, build, prefix, bindir, datadir, archive, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ok(not os.path.exists(tmp), "the DESTDIR is removed")
    after = {p: stat_or_none(os.path.join(real_data, p)) for p in POST_INSTALL_OUTPUTS}
    ok(before == after, "nothing ran on the real prefix's %s" % real_data,
       "before %s\nafter %s" % (before, after))
    return finish()


def check_install(meson, build, prefix, bindir, datadir, archive, tmp):
    destdir = os.path.join(tmp, "dest")
    root = lambda path: destdir + os.path.join(prefix, path)  # noqa: E731
    bin_dir, data_dir = root(bindir), root(datadir)

    proc = run([meson, "install", "-C", build, "--no-rebuild", "--quiet", "--destdir", destdir],
               timeout=240)
    ok(proc.returncode == 0, "meson install --destdir", describe(proc))
    if proc.returncode != 0:
        return

    installed = {
        "binary": os.path.join(bin_dir, "sextant"),
        "desktop entry": os.path.join(data_dir, "applications", APP_ID + ".desktop"),
        "metainfo": os.path.join(data_dir, "metainfo", APP_ID + ".metainfo.xml"),
        "schema": os.path.join(data_dir, "glib-2.0", "schemas", APP_ID + ".gschema.xml"),
        "MIME types": os.path.join(data_dir, "mime", "packages", APP_ID + ".xml"),
        "icon": os.path.join(data_dir, "icons", "hicolor", "scalable", "apps", APP_ID + ".svg"),
        "symbolic icon": os.path.join(data_dir, "icons", "hicolor", "symbolic", "apps",
                                      APP_ID + "-symbolic.svg"),
    }
    for what, path in installed.items():
        ok(os.path.isfile(path), "%s installed at %s" % (what, os.path.relpath(path, destdir)))
    ok(os.access(installed["binary"], os.X_OK), "the binary is executable")
    ok(not any(os.path.exists(os.path.join(data_dir, p)) for p in POST_INSTALL_OUTPUTS),
       "no post-install step ran on the DESTDIR")

    # The desktop entry: valid, and pointing at what was installed
    desktop = installed["desktop entry"]
    proc = run(["desktop-file-validate", desktop])
    ok(proc.returncode == 0 and not proc.stdout.strip(), "desktop-file-validate on the installed entry",
       describe(proc))
    entry = desktop_entry(desktop)
    exec_words = entry.get("Exec", "").split()
    ok(exec_words[:1] == ["sextant"] and exec_words[-1:] == ["%F"],
       "Exec runs sextant with the files", entry.get("Exec", ""))
    ok(os.path.isfile(os.path.join(bin_dir, exec_words[0] if exec_words else "")),
       "Exec's program is in the installed bindir")
    ok(entry.get("Icon") == APP_ID, "Icon is the application ID", entry.get("Icon", ""))
    mime_types = set(t for t in entry.get("MimeType", "").split(";") if t)
    ok(mime_types == TYPES, "MimeType lists the trace and store types", str(mime_types))
    ok(entry.get("Terminal") == "false" and "Development" in entry.get("Categories", "").split(";"),
       "a graphical Development application", str(entry))

    # The MIME package defines those types, with comments
    package = ET.parse(installed["MIME types"]).getroot()
    defined = {t.get("type"): t for t in package.findall(MIME_NS + "mime-type")}
    ok(set(defined) == TYPES, "the MIME package defines the two types", str(set(defined)))
    ok(all(t.find(MIME_NS + "comment") is not None for t in defined.values()),
       "each type has a comment")

    # The metainfo: valid, and about what was installed
    metainfo = installed["metainfo"]
    proc = run(["appstreamcli", "validate", "--no-net", "--explain", metainfo])
    ok(proc.returncode == 0, "appstreamcli validate --no-net on the installed metainfo", describe(proc))
    proc = run(["appstreamcli", "validate-tree", "--no-net", "--explain", destdir + prefix])
    ok(proc.returncode == 0, "appstreamcli validate-tree --no-net on the installed tree", describe(proc))
    component = ET.parse(metainfo).getroot()
    ok(component.get("type") == "desktop-application" and component.findtext("id") == APP_ID,
       "the metainfo describes the desktop application " + APP_ID)
    launchable = component.find("launchable[@type='desktop-id']")
    ok(launchable is not None and launchable.text == os.path.basename(desktop),
       "its launchable is the installed desktop entry")
    binaries = [b.text for b in component.findall("provides/binary")]
    ok(binaries and all(os.path.isfile(os.path.join(bin_dir, b)) for b in binaries),
       "the binaries it provides are installed", str(binaries))
    ok(set(m.text for m in component.findall("provides/mediatype")) == mime_types,
       "its media types are the desktop entry's")
    ok(component.findtext("project_license") == "GPL-3.0-or-later", "project licence GPL-3.0-or-later")

    # The schema compiles where it was installed and gives its defaults;
    # every key has a summary and a description (gsettings reads them from
    # the XML beside the compiled schema)
    schemas = os.path.dirname(installed["schema"])
    proc = run(["glib-compile-schemas", "--strict", schemas])
    ok(proc.returncode == 0 and os.path.isfile(os.path.join(schemas, "gschemas.compiled")),
       "glib-compile-schemas --strict on the installed schema", describe(proc))
    env = dict(os.environ, GSETTINGS_BACKEND="memory")
    env.pop("GSETTINGS_SCHEMA_DIR", None)
    proc = run(["gsettings", "--schemadir", schemas, "list-recursively", APP_ID], env=env)
    values = dict(line.split(" ", 2)[1:] for line in proc.stdout.splitlines() if line.count(" ") >= 2)
    expected = {"color-scheme": "'default'", "last-folder": "''", "pattern-parameters": "@a{sd} {}",
                "show-lost-time": "true", "show-messages": "true", "source-roots": "@as []",
                "window-height": "720", "window-maximized": "false", "window-width": "1200"}
    ok(values == expected, "the installed schema's keys and defaults", describe(proc))
    described = []
    for key in expected:
        proc = run(["gsettings", "--schemadir", schemas, "describe", APP_ID, key], env=env)
        if proc.returncode == 0 and proc.stdout.strip() and proc.stdout.strip() != "(null)":
            described.append(key)
    ok(len(described) == len(expected), "every key is described",
       "described: %s" % described)
    proc = run(["gsettings", "--schemadir", schemas, "range", APP_ID, "color-scheme"], env=env)
    ok(proc.stdout.split() == ["enum", "'default'", "'light'", "'dark'"],
       "color-scheme is one of default, light, dark", describe(proc))

    # The other steps of a package's triggers
    proc = run(["update-mime-database", os.path.join(data_dir, "mime")])
    ok(proc.returncode == 0 and os.path.isfile(os.path.join(data_dir, "mime", "mime.cache")),
       "update-mime-database on the installed MIME package", describe(proc))
    proc = run(["update-desktop-database", "-q", os.path.join(data_dir, "applications")])
    ok(proc.returncode == 0, "update-desktop-database on the installed entry", describe(proc))
    icon_cache = shutil.which("gtk4-update-icon-cache") or shutil.which("gtk-update-icon-cache")
    if icon_cache:
        proc = run([icon_cache, "-q", "-t", "-f", os.path.join(data_dir, "icons", "hicolor")])
        ok(proc.returncode == 0, "gtk-update-icon-cache on the installed icons", describe(proc))
    else:
        skip("gtk-update-icon-cache on the installed icons", "no gtk-update-icon-cache")

    # Real files, as GIO sees them with the DESTDIR's data first
    files = os.path.join(tmp, "files")
    home = os.path.join(tmp, "home")
    os.makedirs(files)
    os.makedirs(home)
    anchor = os.path.join(files, "traces.otf2")
    shutil.copyfile(os.path.join(archive, "traces.otf2"), anchor)
    renamed_anchor = os.path.join(files, "run-anchor")
    shutil.copyfile(anchor, renamed_anchor)
    definitions = os.path.join(files, "traces.def")
    shutil.copyfile(os.path.join(archive, "traces.def"), definitions)
    store = os.path.join(files, "casita-4.sextant.db")
    proc = run([installed["binary"], "import", archive, "-o", store, "--quiet"], timeout=240)
    ok(proc.returncode == 0 and os.path.isfile(store), "the installed sextant imports a trace store",
       describe(proc))
    plain_db = os.path.join(files, "casita-4.db")
    if os.path.isfile(store):
        shutil.copyfile(store, plain_db)

    env = dict(os.environ, XDG_DATA_HOME=home,
               XDG_DATA_DIRS=data_dir + os.pathsep + "/usr/share",
               PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    system_env = dict(env, XDG_DATA_DIRS="/usr/share")
    ok(content_type(anchor, system_env) != "application/x-otf2-trace",
       "without the DESTDIR, the system does not know OTF2 anchors (the answers below are the DESTDIR's)",
       content_type(anchor, system_env))
    for path, expected_type, why in [
            (anchor, "application/x-otf2-trace", "an OTF2 anchor by its name"),
            (renamed_anchor, "application/x-otf2-trace", "an OTF2 anchor by its content"),
            (store, "application/x-sextant-store", "a trace store"),
            (plain_db, "application/vnd.sqlite3", "a store under another name is just an SQLite database"),
    ]:
        got = content_type(path, env)
        ok(got == expected_type, "GIO: %s (%s)" % (why, os.path.basename(path)), got)
    ok(content_type(definitions, env) != "application/x-otf2-trace",
       "GIO: the archive's .def file is not an anchor", content_type(definitions, env))

    for mime_type in sorted(TYPES):
        proc = run(["gio", "mime", mime_type], env=env)
        first = proc.stdout.splitlines()[0] if proc.stdout else ""
        ok(first.startswith("Default application for") and first.endswith(": %s.desktop" % APP_ID),
           "GIO opens %s with Sextant" % mime_type, describe(proc))


if __name__ == "__main__":
    sys.exit(main())
