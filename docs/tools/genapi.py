#!/usr/bin/env python3
"""Write simpvi's API reference (docs/api/) from the PETSc-style manual pages in src/ and include/.

  genapi.py [--root DIR] [--out DIR]   write one Markdown page per manual page, and README.md as the index
  genapi.py [--root DIR] --check       generate into a temporary directory and compare with docs/api/

Manual pages are the comment blocks PETSc's doc tool reads: /*@ ... @*/ and /*@C ... @*/ (functions), /*MC ... M*/
(the TS type), /*E ... E*/ (enums), /*J ... J*/ (string types), /*S ... S*/ (structs and callback typedefs).
Besides writing, it checks (and fails, exit 1, naming the symbol):
  - every PETSC_EXTERN function of include/simpvi.h has a manual page;
  - its prototype there has parameter names, the same (types and names) as its definition in src/;
  - the Input/Output Parameters of a function's page, and the Calling Sequence of a callback typedef's page, name
    exactly the parameters of the prototype.
Python 3 standard library only.
"""
import argparse
import difflib
import filecmp
import os
import re
import sys
import tempfile

MARKERS = {"@": "@", "@C": "@", "MC": "M", "E": "E", "J": "J", "S": "S"}
KIND = {"@": "function", "@C": "function", "MC": "type", "E": "enum", "J": "string type", "S": "type"}
BLOCK = re.compile(r"/\*(@C|@|MC|E|J|S)[ \t]*\n(.*?)\n[ \t]*(@|M|E|J|S)\*/[ \t]*\n", re.S)
HEADING = re.compile(r"^(Input Parameters?|Output Parameters?|Options Database Keys?|Calling [Ss]equences?(?: of \w+)?|"
                     r"Values|Notes?|References|Developer Notes?|Example|Level|Fortran Notes?):\s*(.*)$")
COLLECTIVITY = re.compile(r"^(Not Collective|Logically Collective|Collective|Neighbor-wise Collective)\b.*$")
EXTERN_FN = re.compile(r"^PETSC_EXTERN\s+PetscErrorCode\s+(\w+)\s*\(([^;]*)\)\s*;", re.M)
TYPEDEF_FN = re.compile(r"typedef\s+PetscErrorCode\s+\(\s*\*\s*(\w+)\s*\)\s*\(([^;]*)\)\s*;")


class Page:
    def __init__(self, name, kind, summary, lines, path, code):
        self.name, self.kind, self.summary, self.lines, self.path, self.code = name, kind, summary, lines, path, code
        self.level = ""


def params(arglist):
    """[(declaration, name)] of a C parameter list; 'void' is none"""
    arglist = " ".join(arglist.split())
    if arglist in ("", "void"):
        return []
    out = []
    for decl in arglist.split(","):
        decl = decl.strip()
        words = [w for w in re.findall(r"\w+", decl) if w not in ("const", "struct", "unsigned", "signed")]
        out.append((decl, words[-1] if len(words) >= 2 else None))  # a bare type has one word: 'TS', 'IS *', 'const char[]'
    return out


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def source_files(root):
    for top in ("include", "src"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x != "private")
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(d, f)


def parse_pages(root):
    pages, errors = {}, []
    for path in source_files(root):
        text = read(path)
        rel = os.path.relpath(path, root)
        for m in BLOCK.finditer(text):
            mark, body, close = m.group(1), m.group(2), m.group(3)
            if MARKERS[mark] != close:
                errors.append(f"{rel}: a /*{mark} block closed by {close}*/")
                continue
            lines = [l.rstrip() for l in body.split("\n")]
            while lines and not lines[0].strip():
                lines.pop(0)
            head = re.match(r"^\s*(\w+)\s+-\s+(.*)$", lines[0]) if lines else None
            if not head:
                errors.append(f"{rel}: a manual page does not start with 'Name - summary'")
                continue
            name, summary = head.group(1), head.group(2).strip()
            lines = lines[1:]
            while lines and lines[0].strip() and not HEADING.match(lines[0].strip()) and not COLLECTIVITY.match(lines[0].strip()) \
                    and not lines[0].lstrip().startswith(("$", ".", "+", "-")):
                summary += " " + lines.pop(0).strip()
            # the code the page documents: what follows the block, up to a blank line or a brace
            after = text[m.end():].split("\n")
            code = []
            for l in after:
                if not l.strip() or l.startswith("{"):
                    break
                code.append(l.rstrip())
            if name in pages:
                errors.append(f"{name}: two manual pages ({pages[name].path}, {rel})")
            pages[name] = Page(name, KIND[mark], summary, lines, rel, code)
    return pages, errors


def check_api(root, pages):
    """The consistency checks of the module docstring; returns the error messages"""
    errors = []
    header = read(os.path.join(root, "include", "simpvi.h"))
    definitions = {}
    for path in source_files(root):
        if path.endswith(".c"):
            for m in re.finditer(r"^(?:PETSC_EXTERN\s+)?PetscErrorCode\s+(\w+)\s*\(([^;{]*?)\)\s*\n\{", read(path), re.M):
                definitions[m.group(1)] = (m.group(2), os.path.relpath(path, root))
    for m in EXTERN_FN.finditer(header):
        name, proto = m.group(1), params(m.group(2))
        if name not in pages:
            errors.append(f"{name}: declared PETSC_EXTERN in include/simpvi.h but has no manual page in src/ or include/")
            continue
        unnamed = [d for d, n in proto if not n]
        if unnamed:
            errors.append(f"{name}: include/simpvi.h declares parameters without names: {', '.join(unnamed)}")
        if name not in definitions:
            errors.append(f"{name}: no definition found in src/")
        else:
            defn = params(definitions[name][0])
            if [" ".join(d.split()) for d, _ in defn] != [" ".join(d.split()) for d, _ in proto]:
                errors.append(f"{name}: include/simpvi.h has ({m.group(2)}) but {definitions[name][1]} defines ({' '.join(definitions[name][0].split())})")
        documented = page_parameters(pages[name], ("Input Parameter", "Output Parameter"))
        names = [n for _, n in proto if n]
        if sorted(documented) != sorted(names):
            errors.append(f"{name}: its manual page lists parameters {documented}, the prototype has {names}")
    for m in TYPEDEF_FN.finditer(header):
        name, proto = m.group(1), params(m.group(2))
        if name not in pages:
            errors.append(f"{name}: callback typedef in include/simpvi.h without a manual page")
            continue
        unnamed = [d for d, n in proto if not n]
        if unnamed:
            errors.append(f"{name}: include/simpvi.h declares parameters without names: {', '.join(unnamed)}")
        documented = page_parameters(pages[name], ("Calling Sequence", "Calling sequence"))
        names = [n for _, n in proto if n]
        if documented != names:
            errors.append(f"{name}: its Calling Sequence lists {documented}, the typedef has {names}")
    return errors


def page_parameters(page, headings):
    """Names in the '+ . -' lists under the given headings"""
    out, on = [], False
    for l in page.lines:
        s = l.strip()
        h = HEADING.match(s)
        if h or s.startswith(".seealso") or not s:
            on = bool(h) and h.group(1).startswith(headings)
            continue
        item = re.match(r"^[+.-]\s+(\w+)\s+-\s", s)
        if on and item:
            out.append(item.group(1))
    return out


def escape(text):
    """Markdown for free text: code spans kept; outside them '<', '>', '*', brackets and '_' not inside a word escaped"""
    parts = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"([<>*\[\]]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))", r"\\\1", parts[i])
    return "".join(parts)


def link(text, pages, here):
    """Code spans naming a page become links to it"""
    def sub(m):
        name = m.group(1)
        if name in pages and name != here:
            return f"[`{m.group(0)[1:-1]}`]({name}.md)"
        return m.group(0)
    return re.sub(r"`(\w+)(?:\(\))?`", sub, text)


def render(page, pages, header_protos, header_defines):
    name = page.name
    out = [f"# {name}", "", link(escape(page.summary), pages, name), ""]
    synopsis = None
    if name in header_protos:
        synopsis = ["#include <simpvi.h>", "", header_protos[name]]
    elif page.kind == "type" and name in header_defines:
        synopsis = ["#include <simpvi.h>", "", header_defines[name]]
    elif page.code:
        synopsis = ["#include <simpvi.h>", ""] + page.code
    if synopsis:
        out += ["## Synopsis", "", "```c"] + synopsis + ["```", ""]
    lines, i, verbatim = page.lines, 0, None
    body, seealso = [], ""
    section = None
    while i < len(lines):
        raw = lines[i]
        s = raw.strip()
        i += 1
        if verbatim is not None:
            if s == ".ve":
                body += ["```", *verbatim, "```", ""]
                verbatim = None
            else:
                verbatim.append(raw[2:] if raw.startswith("  ") else raw)
            continue
        if s == ".vb":
            verbatim = []
            continue
        if s.startswith(".seealso"):
            rest = s[len(".seealso"):].lstrip(":").strip()
            while i < len(lines) and lines[i].strip():
                rest += " " + lines[i].strip()
                i += 1
            seealso = rest
            continue
        if s.startswith("$"):
            block = [s[1:].strip()]
            while i < len(lines) and lines[i].strip().startswith("$"):
                block.append(lines[i].strip()[1:].strip())
                i += 1
            body += ["```", *block, "```", ""]
            continue
        h = HEADING.match(s)
        if h:
            title, rest = h.group(1), h.group(2)
            if title == "Level":
                page.level = rest.strip()
                continue
            section = title
            body += [f"## {title}", ""]
            if rest:
                body += [link(escape(rest), pages, name), ""]
            continue
        if COLLECTIVITY.match(s) and not section:
            body += [f"*{s}*", ""]
            continue
        item = re.match(r"^([+.-])\s+(.*?)\s+-\s+(.*)$", s)
        if item:
            key, text = item.group(2), item.group(3)
            while i < len(lines) and lines[i].strip() and not re.match(r"^[+.-]\s", lines[i].strip()) \
                    and not HEADING.match(lines[i].strip()) and not lines[i].strip().startswith((".", "$")):
                text += " " + lines[i].strip()
                i += 1
            if key == "*":  # a References: entry
                body.append(f"- {link(escape(text), pages, name)}")
            else:
                key = key if key.startswith("`") else f"`{key}`"
                body.append(f"- {key} - {link(escape(text), pages, name)}")
            if item.group(1) == "-" or item.group(1) == "." and (i >= len(lines) or not re.match(r"^[+.-]\s", lines[i].strip())):
                body.append("")
            continue
        if not s:
            if body and body[-1] != "":
                body.append("")
            continue
        # a paragraph: join its lines
        text = s
        while i < len(lines) and lines[i].strip() and not HEADING.match(lines[i].strip()) \
                and not lines[i].strip().startswith((".", "$", "+ ", "- ")):
            text += " " + lines[i].strip()
            i += 1
        body += [link(escape(text), pages, name), ""]
    out += body
    if page.level:
        out += ["## Level", "", page.level, ""]
    if seealso:
        out += ["## See Also", "", link(escape(seealso), pages, name), ""]
    out += ["## Location", "", f"[{page.path}](../../{page.path})", ""]
    while out and out[-1] == "":
        out.pop()
    text = "\n".join(out) + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


def index(pages):
    levels = ["beginner", "intermediate", "advanced", "developer"]
    out = ["# simpvi API reference", "",
           "One page per public function and type of `include/simpvi.h`, generated from the manual-page comments in",
           "`src/` and `include/` by `docs/tools/genapi.py` (do not edit by hand: run `python3 docs/tools/genapi.py`;",
           "the test `docs-api` fails when these pages are out of date). The mathematics is in",
           "[../mathematics.md](../mathematics.md).", ""]
    for kinds, title in ((("type", "enum", "string type"), "Types"), (("function",), "Functions")):
        out += [f"## {title}", "", "| name | level | summary |", "|---|---|---|"]
        chosen = [p for p in pages.values() if p.kind in kinds]
        chosen.sort(key=lambda p: (levels.index(p.level) if p.level in levels else len(levels), p.name))
        for p in chosen:
            out.append(f"| [`{p.name}`]({p.name}.md) | {p.level} | {link(escape(p.summary), pages, p.name).replace('|', chr(92) + '|')} |")
        out.append("")
    return "\n".join(out)


def generate(root, outdir):
    pages, errors = parse_pages(root)
    errors += check_api(root, pages)
    header = read(os.path.join(root, "include", "simpvi.h"))
    protos = {m.group(1): " ".join(m.group(0).split()) for m in EXTERN_FN.finditer(header)}
    defines = {m.group(1): " ".join(m.group(0).split()) for m in re.finditer(r"^#define\s+(\w+)\s+.*$", header, re.M)}
    os.makedirs(outdir, exist_ok=True)
    for name, page in sorted(pages.items()):
        with open(os.path.join(outdir, name + ".md"), "w", encoding="utf-8") as f:
            f.write(render(page, pages, protos, defines))
    with open(os.path.join(outdir, "README.md"), "w", encoding="utf-8") as f:
        f.write(index(pages))
    return errors


def compare(new, old):
    """Differences between the generated directory and the committed one, as messages"""
    msgs = []
    cmp = filecmp.dircmp(new, old)
    for f in sorted(cmp.left_only):
        msgs.append(f"docs/api/{f} is missing (generated but not committed)")
    for f in sorted(cmp.right_only):
        msgs.append(f"docs/api/{f} has no manual page any more (committed but not generated)")
    for f in sorted(cmp.common_files):
        a, b = read(os.path.join(old, f)), read(os.path.join(new, f))
        if a != b:
            diff = difflib.unified_diff(a.splitlines(), b.splitlines(), f"docs/api/{f}", f"generated/{f}", lineterm="", n=1)
            msgs.append(f"docs/api/{f} is out of date:\n" + "\n".join(diff))
    return msgs


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)), help="the simpvi source tree")
    ap.add_argument("--out", help="output directory (default <root>/docs/api)")
    ap.add_argument("--check", action="store_true", help="compare a fresh generation with docs/api instead of writing it")
    args = ap.parse_args()
    committed = os.path.join(args.root, "docs", "api")
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            errors = generate(args.root, tmp)
            errors += compare(tmp, committed) if os.path.isdir(committed) else ["docs/api does not exist"]
    else:
        out = args.out or committed
        if os.path.isdir(out):  # stale pages of removed symbols go
            for f in os.listdir(out):
                if f.endswith(".md"):
                    os.remove(os.path.join(out, f))
        errors = generate(args.root, out)
    for e in errors:
        print("genapi:", e, file=sys.stderr)
    if errors:
        print("genapi: regenerate with: python3 docs/tools/genapi.py (after fixing any error above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
