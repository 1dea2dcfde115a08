#!/usr/bin/env python3
"""What each stage of .ci/run compiles on a fresh machine, read from cargo's unit graphs.

For every cargo command of a CI stage, in .ci/run's order, cargo's unit graph (the list of
compilations a build needs: package, target, profile, mode, features, dependencies) is read
without compiling anything, and each unit is keyed as cargo keys its artifacts (-C metadata:
package, target, profile settings without the profile's name, mode, features, platform, the
dependencies' keys; a path crate also by its workspace, since cargo hashes its path from the
workspace root; the target folder; clippy's wrapper for workspace crates). A stage's count
is the units no earlier stage built: what it compiles on a fresh machine, and, for the
workspace's crates, what it compiles again after a change to the sources. Deterministic,
unlike wall times on a shared machine. Build scripts' runs and doctests are not counted.

    python3 scripts/ci-compile-units.py            # the stages as .ci/ runs them now
    python3 scripts/ci-compile-units.py --before   # as at commit a7f8c17 (before CI's time work)
    python3 scripts/ci-compile-units.py -v STAGE   # also list that stage's units

Reads the graphs with `--unit-graph`, an unstable cargo option, through RUSTC_BOOTSTRAP=1
(nothing is compiled, so no artifact is affected). Keep the stage lists in step with .ci/.
"""
import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
PY = os.path.join(ROOT, "python")
BIN = ["build", "--release", "--bin", "stickdice", "--example", "first_game"]  # .ci/cli.sh


def stages(before):
    """(stage, [(cargo args, workspace folder, wrapper tag, target folder)]) in .ci/run's order."""
    bin_cmd = ["build", "--release", "--bin", "stickdice"] if before else BIN
    web_cmd = ["build", "--release", "-p", "stickdice-cli"] if before else BIN
    py_target = "python" if before else "root"
    instr = "profiling" if before else "release"
    return [
        ("cargo clippy", [(["clippy", "--workspace", "--all-targets"], ROOT, "clippy", "root")]),
        ("cargo check --no-default-features",
         [(["check", "-p", "stickdice-cli", "--no-default-features"], ROOT, "", "root")]),
        ("cargo doc", [(["doc", "--workspace", "--no-deps"], ROOT, "", "root")]),
        ("tests (cargo test --release)", [(["test", "--workspace", "--release"], ROOT, "", "root")]),
        ("packages (cargo install)",
         [(["build", "--release", "--locked", "-p", "stickdice-cli"], ROOT, "", "root")]),
        ("protocol front end", [(bin_cmd, ROOT, "", "root")]),
        ("Python package", [
            (["clippy", "--all-targets"], PY, "clippy", py_target),
            (["test", "--release"] if not before else ["test"], PY, "", py_target),
            (bin_cmd, ROOT, "", "root"),
            (["build", "--release", "--lib", "--features", "extension-module"], PY, "", py_target),
        ]),
        ("the book (examples)",
         [(["build", "--release", "--example", "first_game", "--example", "tournament"], ROOT, "", "root")]),
        ("instructions (callgrind)",
         [(["build", "--profile", instr, "--example", "playouts", "--example", "search"], ROOT, "", "root")]),
        ("web page", [(web_cmd, ROOT, "", "root")]),
        ("Slurm", [(bin_cmd, ROOT, "", "root")]),
    ]


def graph(args, cwd, tag, tdir):
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    out = subprocess.run(["cargo"] + args + ["--unit-graph", "-Z", "unstable-options"],
                         cwd=cwd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} (in {cwd}): {out.stderr}")
    units = json.loads(out.stdout)["units"]
    keys = {}

    def key(i):
        if i not in keys:
            u = units[i]
            profile = dict(u["profile"])
            profile.pop("name", None)
            path = u["pkg_id"].startswith("path+")
            parts = [u["pkg_id"], json.dumps(u["target"]["kind"]), u["target"]["name"],
                     json.dumps(profile, sort_keys=True), u["mode"],
                     json.dumps(sorted(u["features"])), str(u["platform"]),
                     cwd if path else "", tag if path else "", tdir]
            parts += sorted(key(d["index"]) for d in u["dependencies"])
            keys[i] = hashlib.sha1("|".join(parts).encode()).hexdigest()
        return keys[i]

    return {key(i): u for i, u in enumerate(units)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", action="store_true", help="the stages as at commit a7f8c17")
    ap.add_argument("-v", "--verbose", metavar="STAGE", help="list the units of this stage")
    a = ap.parse_args()
    seen = set()
    total = 0
    print(f"| stage | units compiled | of them workspace crates' | packages | workspace packages |")
    print("|---|---:|---:|---:|---|")
    for name, cmds in stages(a.before):
        new = {}
        for args, cwd, tag, tdir in cmds:
            for k, u in graph(args, cwd, tag, tdir).items():
                if k not in seen and u["mode"] not in ("run-custom-build", "doctest"):
                    new[k] = u
                seen.add(k)
        pkg = lambda u: u["pkg_id"].rsplit("#", 1)[-1].split("@")[0]
        ws = [u for u in new.values() if u["pkg_id"].startswith("path+")]
        names = sorted({pkg(u) for u in ws})
        print(f"| {name} | {len(new)} | {len(ws)} | {len({pkg(u) for u in new.values()})} "
              f"| {', '.join(names) or '—'} |")
        if a.verbose and a.verbose in name:
            for u in sorted(new.values(), key=pkg):
                print(f"    {pkg(u)} {u['target']['kind']} {u['mode']} {u['profile']['name']} {u['features']}")
        total += len(new)
    print(f"| total | {total} | | | |")


if __name__ == "__main__":
    main()
