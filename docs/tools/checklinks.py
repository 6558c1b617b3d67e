#!/usr/bin/env python3
"""Check that README.md and docs/ stand on their own: every relative Markdown link points to a file of the
repository, and no text file of the repository refers to ../shared (the developers' notes, which users do not have).

  checklinks.py [--root DIR]    exit 1, naming each broken link or reference, if any
Python 3 standard library only.
"""
import argparse
import os
import re
import sys

SKIP_DIRS = {".git", "__pycache__"}
TEXT = (".c", ".h", ".in", ".md", ".sh", ".py", ".txt", ".cmake", ".out")


def files(root):
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build"))
        for n in sorted(names):
            yield os.path.join(d, n)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
    root = ap.parse_args().root
    errors = []
    for path in files(root):
        rel = os.path.relpath(path, root)
        if not path.endswith(TEXT) and os.path.basename(path) != "CMakeLists.txt":
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if rel != os.path.join("docs", "tools", "checklinks.py"):
            for n, line in enumerate(text.split("\n"), 1):
                if "../shared" in line:
                    errors.append(f"{rel}:{n}: refers to ../shared, which is not part of the repository")
        if path.endswith(".md"):
            for m in re.finditer(r"\]\(([^)\s]+)\)", text):
                target = m.group(1).split("#")[0]
                if not target or re.match(r"^[a-z]+:", target):
                    continue
                if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), target))):
                    errors.append(f"{rel}: link to {m.group(1)}, which does not exist")
    for e in errors:
        print("checklinks:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
