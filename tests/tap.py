# SPDX-License-Identifier: GPL-3.0-or-later
"""The TAP bookkeeping the python tests share: collect results with ok() and
skip(), print them with finish(), whose return value is the exit status."""

results = []


def ok(cond, name, detail=""):
    """Records one check; detail is printed only when it fails."""
    results.append((bool(cond), name, detail or ""))


def skip(name, why):
    results.append((True, name + " # SKIP " + why, ""))


def todo(cond, name, why, detail=""):
    """A check of what is known not to hold yet: printed "not ok ... # TODO"
    when it fails, which does not fail the test."""
    results.append((bool(cond), name + ("" if cond else " # TODO " + why), detail or "", True))


def finish():
    print("1..%d" % len(results))
    failed = 0
    for i, (passed, name, detail, *known) in enumerate(results, start=1):
        print("%s %d - %s" % ("ok" if passed else "not ok", i, name))
        if not passed:
            failed += 0 if known else 1
            for line in detail.splitlines()[:20]:
                print("# " + line[:1000])
    return 1 if failed else 0
