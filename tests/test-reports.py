#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sextant report` in every format against `sextant analyze --json`.

The HTML is one self-contained, well-formed file (balanced tags, SVG figures
that parse as XML, no scripts, no external resources) that shows every pattern
with instances; JSON, CSV and Markdown carry the same figures as `analyze
--json`; the top instances carry their comment, call path, source line and a
timeline. Output is TAP.
"""

import csv
import html.parser
import io
import json
import os
import re
import subprocess
import sys
import tempfile

from tap import finish, ok
import xml.etree.ElementTree as ET

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
ARCHIVES = ["casita-4_mpi_ls_barr", "sstmacro-otf2_test_traces"]
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}



class Checker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k != "xmlns" and (k in ("src", "href") or (v and re.match(r"\s*(https?:|//)", v))):
                self.errors.append("external reference %s=%s" % (k, v))
        if tag in ("script", "link", "iframe", "img"):
            self.errors.append("<%s> in a self-contained report" % tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unbalanced </%s> (open: %s)" % (tag, self.stack[-3:]))
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def fmt_seconds(s):
    if s >= 1.0:
        return "%.3f s" % s
    if s >= 1e-3:
        return "%.3f ms" % (s * 1e3)
    return "%.2f µs" % (s * 1e6)


def stamp(db):
    """When and how the store's file was last written"""
    st = os.stat(db)
    return (st.st_mtime_ns, st.st_size)


def check(archive, work):
    db = os.path.join(work, archive + ".db")
    run = subprocess.run([SEXTANT, "import", "--quiet", "-o", db, os.path.join(TRACES, archive)],
                         capture_output=True, text=True)
    ok(run.returncode == 0, "%s: import" % archive, run.stderr)
    outs = {}
    for fmt in ("html", "md", "csv", "json"):
        out = os.path.join(work, "%s.%s" % (archive, fmt))
        run = subprocess.run([SEXTANT, "report", "-f", fmt, "-o", out, db], capture_output=True, text=True)
        ok(run.returncode == 0 and os.path.getsize(out) > 0, "%s: report -f %s" % (archive, fmt), run.stderr)
        with open(out, encoding="utf-8") as f:
            outs[fmt] = f.read()
        if fmt == "html":
            written = stamp(db)
    # the first report analysed the store; the others read its instances
    # as they are (same catalogue, default parameters): the file untouched
    ok(stamp(db) == written, "%s: the later reports reuse the first one's analysis" % archive)
    # analysed with another parameter, a report analyses again (with the
    # defaults: the figures below equal analyze's)
    run = subprocess.run([SEXTANT, "analyze", "--param", "eps=1e-3", db], capture_output=True, text=True)
    before = stamp(db)
    run = subprocess.run([SEXTANT, "report", "-f", "json", "-o", os.path.join(work, "again.json"), db],
                         capture_output=True, text=True)
    ok(run.returncode == 0 and stamp(db) != before, "%s: a report after another analysis analyses again" % archive,
       run.stderr)
    run = subprocess.run([SEXTANT, "analyze", "--json", db], capture_output=True, text=True)
    analyze = json.loads(run.stdout)
    want = {p["id"]: p for p in analyze["patterns"]}

    # JSON: the same patterns and figures as analyze --json
    model = json.loads(outs["json"])
    got = {p["id"]: p for p in model["patterns"]}
    same = set(got) == set(want) and all(
        got[k]["severity_seconds"] == want[k]["severity_seconds"] and got[k]["instances"] == want[k]["instances"]
        and got[k]["by_location"] == want[k]["by_location"] and got[k]["top_sites"] == want[k]["top_sites"]
        for k in want)
    ok(same, "%s: JSON report patterns equal analyze --json" % archive)
    ok(model["summary"]["total_time_seconds"] == analyze["total_time_seconds"],
       "%s: JSON report total time equals analyze's" % archive)
    # the metric tree: the same in both, Time first with the total time, a
    # pattern's inclusive time its own and its children's
    ok(model["tree"] == analyze["tree"], "%s: JSON report tree equals analyze's" % archive)
    tree = analyze["tree"]
    ok(tree[0]["id"] == "time" and tree[0]["inclusive_seconds"] == analyze["total_time_seconds"],
       "%s: the tree's root is Time, the total time" % archive, str(tree[0]))
    bad = []
    for n in tree:
        kids = [c for c in tree if c["parent"] == n["id"] and c["inclusive_seconds"] is not None]
        if n["inclusive_seconds"] is not None:
            if n["inclusive_seconds"] < sum(c["inclusive_seconds"] for c in kids) * (1 - 1e-12) or n["share"] > 1:
                bad.append(n["id"])
            if n["kind"] == "pattern" and abs(n["inclusive_seconds"] - want[n["id"]]["severity_seconds"]
                                              - sum(c["inclusive_seconds"] for c in kids)) > 1e-9:
                bad.append(n["id"])
    ok(not bad, "%s: every node's time covers its children's, no share past 100 %%" % archive, str(bad))
    ok(all(p["parent"] is not None and "inclusive_seconds" in p for p in analyze["patterns"]),
       "%s: every pattern has a parent and an inclusive time" % archive)
    for key in ("summary", "profile", "instances", "matrix", "message_sizes"):
        ok(key in model, "%s: JSON report has %s" % (archive, key))
    insts = model["instances"]
    ok(len(insts) == min(10, sum(p["instances"] for p in analyze["patterns"])),
       "%s: top instances listed" % archive, str(len(insts)))
    ok(all(i["comment"] and (i["timeline"] is None or i["timeline"]["rows"]) for i in insts),
       "%s: instances have a comment and, those with an interval, a timeline" % archive)
    ok(all((i["timeline"] is None) == (i["begin_seconds"] == i["end_seconds"] == 0) for i in insts),
       "%s: instances summed over the run have no timeline" % archive)
    ok(insts == sorted(insts, key=lambda i: -i["severity_seconds"]), "%s: instances by severity" % archive)
    # wait states: direct or propagated and the root cause, as analyze --json says
    listed = {i["id"]: i for i in analyze["instances"]}
    keys = ("cause", "cause_instance", "root_cause_location", "root_cause_label", "comment")
    ok(all(i["id"] in listed and all(i[k] == listed[i["id"]][k] for k in keys) for i in insts),
       "%s: top instances carry the cause and root cause of analyze --json" % archive)
    for i in insts:
        if i["cause"] is not None:
            line = "%s wait state: the root cause is %s." % (i["cause"].capitalize(), i["root_cause_label"])
            ok(line in outs["md"] and line in outs["html"], "%s: Markdown and HTML say %r" % (archive, line))
    sent = sum(c["messages"] for c in model["matrix"]["cells"])
    ok(sent == model["summary"]["messages_matched"], "%s: matrix counts every matched message" % archive)
    ok(sum(b["messages"] for b in model["message_sizes"]) ==
       model["summary"]["messages_matched"] + model["summary"]["messages_unmatched"],
       "%s: histogram counts every message" % archive)

    # CSV: the whole model, value by value
    rows = list(csv.DictReader(io.StringIO(outs["csv"])))
    csv_sev = {}
    ids = {}
    for r in rows:
        if r["section"] == "patterns" and r["field"] == "id":
            ids[r["index"]] = r["value"]
    for r in rows:
        if r["section"] == "patterns" and r["field"] == "severity_seconds":
            csv_sev[ids[r["index"]]] = float(r["value"])
    ok(csv_sev == {k: v["severity_seconds"] for k, v in want.items()}, "%s: CSV severities equal analyze's" % archive)
    ok(len([r for r in rows if r["section"] == "instances" and r["field"] == "comment"]) == len(insts),
       "%s: CSV carries every instance" % archive)

    # Markdown: every pattern with its own and its inclusive time, indented by its depth in the tree
    depth = {n["id"]: n["depth"] for n in tree}
    missing = [k for k, p in want.items()
               if "| %s%s | `%s` | %.9g | %.9g |" % ("&emsp;" * depth[k], p["title"], k, p["severity_seconds"],
                                                   p["inclusive_seconds"]) not in outs["md"]]
    ok(not missing, "%s: Markdown lists every pattern in the tree with its times" % archive, str(missing))
    ok("| **Time** | `time` |  | %.9g | 100.0000 %% |" % analyze["total_time_seconds"] in outs["md"],
       "%s: Markdown's tree starts at Time" % archive)

    # HTML: well-formed, self-contained, every pattern with instances shown with its time
    checker = Checker()
    checker.feed(outs["html"])
    checker.close()
    ok(not checker.errors and not checker.stack, "%s: HTML well-formed and self-contained" % archive,
       "\n".join(checker.errors[:5] + ["open: %s" % checker.stack]))
    svgs = re.findall(r"<svg.*?</svg>(?=</div>)", outs["html"], re.S)   # a figure holds nested <svg>s
    bad = []
    for s in svgs:
        try:
            ET.fromstring(s)
        except ET.ParseError as e:
            bad.append(str(e))
    ok(svgs and not bad, "%s: %d SVG figures parse as XML" % (archive, len(svgs)), "\n".join(bad[:3]))
    text = " ".join(checker.text)
    shown = [k for k, p in want.items() if p["instances"] > 0
             and (p["title"] not in text or fmt_seconds(p["severity_seconds"]) not in text)]
    ok(not shown, "%s: HTML shows every pattern with its time" % archive, str(shown))
    groups = [n["title"] for n in tree if n["kind"] == "group" and n["instances_below"] > 0]
    ok(groups and all(g in text for g in groups), "%s: HTML shows the tree's groups" % archive, str(groups))


def main():
    with tempfile.TemporaryDirectory() as work:
        for archive in ARCHIVES:
            check(archive, work)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
