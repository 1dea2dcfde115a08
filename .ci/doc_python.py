#!/usr/bin/env python3
"""Runs every ```python block of the README and the book (docs/) against the installed
`stickdice` package, each in a fresh temporary folder as a new user would, and fails if one
raises or prints nothing.

    python .ci/doc_python.py [--timeout SECONDS]

.ci/python.sh runs it with the virtual environment it tested the package in.
"""

import argparse
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def pages():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").rglob("*.md"))


def python_blocks(text):
    """(line number, code) of each ```python block; indented blocks are dedented."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if stripped.startswith("```") and stripped[3:].strip() == "python":
            start = i + 1
            body = []
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("```"):
                body.append(lines[i])
                i += 1
            yield start, textwrap.dedent("\n".join(body)) + "\n"
        i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    failures = 0
    count = 0
    for page in pages():
        for line, code in python_blocks(page.read_text()):
            count += 1
            where = f"{page.relative_to(ROOT)}:{line}"
            started = time.monotonic()
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    run = subprocess.run([sys.executable, "-c", code], cwd=tmp, capture_output=True,
                                         text=True, timeout=args.timeout)
                except subprocess.TimeoutExpired:
                    print(f"FAIL {where}: no end within {args.timeout:.0f} s")
                    failures += 1
                    continue
            took = time.monotonic() - started
            if run.returncode != 0:
                print(f"FAIL {where} (exit {run.returncode}):\n{run.stderr.strip()}")
                failures += 1
            elif not run.stdout.strip():
                print(f"FAIL {where}: printed nothing (a user would see no result)")
                failures += 1
            else:
                last = run.stdout.strip().splitlines()[-1]
                print(f"ok   {where} ({took:.1f} s): {last[:100]}")
    print(f"{count} Python blocks, {failures} failed")
    if count == 0:
        print("no Python blocks found", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
