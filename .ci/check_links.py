#!/usr/bin/env python3
"""Checks the links of the README and the book, and that nothing links outside the
repository.

    python3 .ci/check_links.py [BUILT_BOOK_DIR]

* Every relative link of a Markdown file (README.md, docs/**) names a file of the
  repository, and its #anchor a heading of that file (ids made as mdBook makes them).
* A page of the book links only inside docs/ (the built book holds nothing else).
* No file tracked by git points outside the repository (a relative path up out of the checkout, to the folders beside it), nor
  names the rules' original files (RULES.md, RULES-family.md) outside docs/games/.
* With BUILT_BOOK_DIR (mdbook's output), every relative href and src of every page resolves
  to a built file, and every #anchor to an id on that page.

Standard library only. Exit status 1 with the list of problems.
"""

import html.parser
import pathlib
import re
import subprocess
import sys
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
problems = []
# Pages generated into the built book by another tool (pdoc's Python API reference, built
# by .ci/python.sh into target/python-api and copied into the book by .ci/book.sh): the
# book's sources must not link them (they are missing until CI has run); their own links
# are checked in the built book.
GENERATED = ("python-api/",)


def normalize_id(text):
    """mdBook's id for a heading's text (0.4: utils::normalize_id after tags are removed)."""
    out = []
    for ch in text:
        if ch.isalnum() or ch in "_-":
            out.append(ch.lower())
        elif ch.isspace():
            out.append("-")
    return "".join(out)


def heading_text(markdown):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", markdown)  # links: their text
    text = re.sub(r"<[^>]*>", "", text)  # HTML tags
    return text.replace("`", "").replace("*", "")


def anchors(path, cache={}):
    if path not in cache:
        ids, seen, fence = set(), {}, False
        for line in path.read_text().split("\n"):
            if line.lstrip().startswith("```"):
                fence = not fence
            m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if m and not fence:
                base = normalize_id(heading_text(m.group(2)).strip())
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else f"{base}-{n}")
            for explicit in re.findall(r'id="([^"]+)"', line):
                ids.add(explicit)
        cache[path] = ids
    return cache[path]


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def links(text):
    """(line number, target) of the Markdown links outside code blocks and code spans."""
    fence = False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for m in LINK.finditer(line):
            yield n, m.group(1)


def check_markdown(page):
    where = page.relative_to(ROOT)
    for n, target in links(page.read_text()):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        if path_part.startswith(GENERATED):
            # Such a page exists only in a book built by CI: a reader of the sources (on
            # GitHub, in a checkout, in `mdbook serve`) would find nothing there.
            problems.append(f"{where}:{n}: {target}: a page that exists only after CI builds it; name the command that makes it instead of linking it")
            continue
        dest = (page.parent / urllib.parse.unquote(path_part)).resolve() if path_part else page
        if ROOT not in dest.parents and dest != ROOT:
            problems.append(f"{where}:{n}: {target} points outside the repository")
            continue
        if not dest.exists():
            problems.append(f"{where}:{n}: {target}: no such file")
            continue
        if DOCS in page.parents and DOCS not in dest.parents and dest != DOCS:
            problems.append(f"{where}:{n}: {target}: a book page links outside docs/")
        if anchor:
            if dest.suffix != ".md":
                problems.append(f"{where}:{n}: {target}: an anchor into a file that is not Markdown")
            elif anchor not in anchors(dest):
                problems.append(f"{where}:{n}: {target}: no heading with the id '{anchor}' in {dest.relative_to(ROOT)}")


def check_tracked_files():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = re.compile(r"\.\./shared/|/work/shared")
    # A relative path up three folders or more, resolved from the file's own folder (as
    # include_bytes! and include_str! resolve it): outside only if it leaves the checkout.
    up = re.compile(r"(?:\.\./){3,}[^\s\"'`)]*")
    # The rules' first two files are not in the repository; their text is the book's
    # chapters (docs/games/, whose own text names them as the sections' origin).
    rules_files = re.compile(r"RULES(-family)?\.md")
    for name in files:
        path = ROOT / name
        if name.startswith(".ci/check_links.py") or not path.is_file():
            continue
        cite_rules = not name.startswith("docs/games/")
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.split("\n"), 1):
            escapes = [m for m in up.findall(line) if ROOT not in (path.parent / m).resolve().parents]
            if outside.search(line) or escapes:
                problems.append(f"{name}:{n}: points outside the repository: {line.strip()[:100]}")
            elif cite_rules and rules_files.search(line):
                problems.append(f"{name}:{n}: names a rules file that is not in the repository "
                                f"(cite the book's chapter, docs/games/…): {line.strip()[:100]}")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.refs = set(), []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("id", "name") and value:
                self.ids.add(value)
            if key in ("href", "src") and value:
                self.refs.append(value)


def check_built(book):
    pages = {}
    for path in book.rglob("*.html"):
        if path.name == "404.html":  # mdBook's own page, written for the site's root ("/")
            continue
        parser = Page()
        parser.feed(path.read_text())
        pages[path.resolve()] = parser
    if not pages:
        problems.append(f"{book}: no built pages")
    for path, parser in pages.items():
        where = path.relative_to(book.resolve())
        for ref in parser.refs:
            if re.match(r"^[a-z][a-z0-9+.-]*:", ref) or ref.startswith("//"):
                continue
            path_part, _, anchor = ref.partition("#")
            path_part = path_part.split("?")[0]
            dest = (path.parent / urllib.parse.unquote(path_part)).resolve() if path_part else path
            if dest.is_dir():
                dest = dest / "index.html"
            if not dest.exists():
                problems.append(f"built {where}: {ref}: no such file")
            elif anchor and dest in pages and anchor not in pages[dest].ids:
                # pdoc links an inherited member (PettingZoo's AECEnv.last) to an id it
                # does not write: the generated pages' own anchors are pdoc's business.
                if str(where).startswith(GENERATED) and dest.parent == path.parent:
                    continue
                problems.append(f"built {where}: {ref}: no id '{anchor}'")
    return len(pages)


def main():
    md = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    for page in md:
        check_markdown(page)
    check_tracked_files()
    built = check_built(pathlib.Path(sys.argv[1])) if len(sys.argv) > 1 else 0
    for p in problems:
        print(p)
    print(f"links: {len(md)} Markdown files" + (f", {built} built pages" if built else "") + f"; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
