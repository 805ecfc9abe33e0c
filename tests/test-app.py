#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The application as a desktop session runs it, driven from outside with
real X events (xdotool) on a real D-Bus session bus (dbus-run-session):

- the command line says what is wrong, with exit status 2;
- `sextant` alone shows the start page; one instance runs per session: a
  second `sextant FILE` (a path relative to its own directory) opens the
  file in the first instance's window and returns at once;
- the application's accelerators work wherever the focus is: Ctrl+comma
  (Preferences), Ctrl+? (Keyboard Shortcuts), F1 (the user guide, opened
  with the desktop's viewer for Markdown), Ctrl+Q (quit);
- `sextant --export FILE.svg` writes the timeline and quits.

Run by meson under `xvfb-run -a dbus-run-session --`."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(__file__))
from tap import finish, ok, skip  # noqa: E402

SEXTANT = os.environ["SEXTANT"]
EXTERNAL = os.environ["SEXTANT_EXTERNAL_TRACES"]


def run(args, timeout=120, **kw):
    return subprocess.run([SEXTANT] + args, capture_output=True, text=True, timeout=timeout, **kw)


def xdotool(*args, timeout=30):
    return subprocess.run(["xdotool"] + list(args), capture_output=True, text=True, timeout=timeout)


def windows(name):
    """The X ids of the visible windows named exactly `name`"""
    r = xdotool("search", "--onlyvisible", "--name", "^%s$" % name)
    return r.stdout.split()


def wait_for(what, predicate, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return None


def command_line_errors():
    for args, says in [
        (["--view", "5:2", "x.otf2"], "FROM must be at least 0 and less than TO"),
        (["--view", "abc", "x.otf2"], "expected FROM:TO"),
        (["--view", "1:z", "x.otf2"], "TO is not a number"),
        (["--size", "10x10", "--screenshot", "a.png", "x.otf2"], "WIDTH and HEIGHT must be"),
        (["--screenshot", "a.png", "x.otf2", "y.otf2"], "--screenshot takes one ARCHIVE or DB"),
        (["--export", "a.svg"], "--export needs exactly one ARCHIVE or DB"),
        (["--export", "a.bmp", "x.otf2"], "must end in .png, .svg or .pdf"),
        (["--page", "bogus", "x.otf2"], "expected source, tree or matrix"),
        (["--collective", "1"], "--collective and --instance need an ARCHIVE or DB"),
        (["--instance", "-3", "x.otf2"], "expected an instance id"),
        (["--bogus"], "Unknown option --bogus"),
        (["improt", "x"], "unknown command 'improt'"),
    ]:
        r = run(args, timeout=30)
        ok(r.returncode == 2 and says in r.stderr, "sextant %s: exit 2, says '%s'" % (" ".join(args), says),
           "exit %d, stderr %r" % (r.returncode, r.stderr))


def export(tmp, archive):
    svg = os.path.join(tmp, "timeline.svg")
    r = run(["--size", "1000x500", "--export", svg, archive], timeout=300)
    ok(r.returncode == 0, "sextant --export timeline.svg ARCHIVE: exit 0", r.stderr)
    try:
        root = ET.parse(svg).getroot()
        ok(root.tag.endswith("svg") and float(root.get("width").rstrip("pt")) > 300,
           "the exported SVG parses and has the timeline's width", str(root.attrib))
    except (OSError, ET.ParseError) as e:
        ok(False, "the exported SVG parses", str(e))


def desktop_session(tmp, archive):
    env = dict(os.environ)
    data = os.path.join(tmp, "data")
    config = os.path.join(tmp, "config")
    marker = os.path.join(tmp, "viewer-opened")
    os.makedirs(os.path.join(data, "applications"))
    os.makedirs(config)
    # the desktop's viewer for Markdown, which F1 opens the user guide with
    with open(os.path.join(data, "applications", "sextant-test-viewer.desktop"), "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=Test viewer\nNoDisplay=true\n"
                "MimeType=text/markdown;text/plain;\n"
                "Exec=sh -c 'echo \"$1\" > %s' viewer %%u\n" % marker)
    with open(os.path.join(config, "mimeapps.list"), "w") as f:
        f.write("[Default Applications]\ntext/markdown=sextant-test-viewer.desktop\n"
                "text/plain=sextant-test-viewer.desktop\n")
    env.update(XDG_DATA_HOME=data, XDG_CONFIG_HOME=config, GSETTINGS_BACKEND="memory")

    primary = subprocess.Popen([SEXTANT], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        owner = wait_for("the bus name", lambda: "true" in subprocess.run(
            ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
             "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", "org.sextant.Sextant"],
            capture_output=True, text=True).stdout)
        ok(owner, "sextant alone registers org.sextant.Sextant on the session bus")
        start = wait_for("the start page", lambda: windows("Sextant"))
        ok(start, "sextant alone shows a window (the start page)")

        # a second instance: a relative path, opened by the first
        t0 = time.monotonic()
        second = subprocess.run([SEXTANT, os.path.basename(archive)], cwd=os.path.dirname(archive), env=env,
                                capture_output=True, text=True, timeout=60)
        ok(second.returncode == 0 and time.monotonic() - t0 < 30,
           "a second `sextant casita` returns at once (%.1f s), exit 0" % (time.monotonic() - t0), second.stderr)
        shown = wait_for("the trace", lambda: windows("casita"), 180)
        ok(shown, "the first instance opens casita (resolved in the second's directory)")
        ok(primary.poll() is None, "the first instance still runs")
        if not shown:
            return
        main = shown[0]
        ok(not windows("Sextant"), "the start page's window was used for it (no second window)")

        def focus():
            xdotool("windowfocus", "--sync", main)
            time.sleep(0.3)

        # accelerators: the focus is wherever the window put it (the pattern list)
        def opens_and_closes(keys, title):
            """keys open a window titled title; Escape closes it"""
            focus()
            xdotool("key", "--clearmodifiers", keys)
            shown = wait_for(title, lambda: windows(title), 20)
            ok(shown, "%s opens the %s" % (keys, title))
            if shown:
                xdotool("windowfocus", "--sync", shown[0])
                xdotool("key", "Escape")
                ok(wait_for(title + " closed", lambda: not windows(title), 20), "Escape closes the %s" % title)

        opens_and_closes("ctrl+comma", "Preferences")
        opens_and_closes("ctrl+question", "Keyboard Shortcuts")

        focus()
        xdotool("key", "--clearmodifiers", "F1")
        opened = wait_for("the viewer", lambda: os.path.exists(marker) and open(marker).read().strip(), 30)
        ok(opened and opened.endswith("ui.md"), "F1 opens the user guide (docs/ui.md) with the desktop's viewer",
           repr(opened))

        focus()
        xdotool("key", "--clearmodifiers", "ctrl+q")
        try:
            status = primary.wait(timeout=30)
        except subprocess.TimeoutExpired:
            status = None
        ok(status == 0, "Ctrl+Q quits, exit 0", "status %r" % status)
    finally:
        if primary.poll() is None:
            primary.kill()
            primary.wait()


def main():
    tmp = tempfile.mkdtemp(prefix="sextant-test-app-")
    try:
        command_line_errors()
        archive = os.path.join(tmp, "casita")
        shutil.copytree(os.path.join(EXTERNAL, "casita-4_mpi_ls_barr"), archive)
        export(tmp, archive)
        if shutil.which("xdotool") and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            desktop_session(tmp, archive)
        else:
            skip("the desktop session", "needs xdotool and a session bus (dbus-run-session)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
