#!/usr/bin/env python3
"""The rows of a game chapter's "Figures" table: `stickdice analyze` for every seat count
and every rule option of a game, one option changed at a time.

    scripts/game-figures.py --game tab [--binary target/release/stickdice] [-n 2000]

Reads the game's seat counts and option table from `stickdice games`: a yes/no option is
played at its other value, an option with a list at each other value, a whole number at
the ends of its range; the throw cap is left at its default. Each row is one
`stickdice analyze --game GAME --players N [--option KEY=VALUE] -n 2000 --seed 1
--threads 2 --agents greedy --rotations 200 --json`, printed as the chapters' tables are
(95% intervals after ±). Rows go to standard output, progress to standard error.
"""

import argparse
import json
import re
import subprocess
import sys


def game_table(binary, game):
    """(min seats, max seats, [(key, default, [other values])]) from `stickdice games`."""
    out = subprocess.run([binary, "games"], check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    for i, line in enumerate(lines):
        fields = line.split()
        if fields and fields[0] == game:
            break
    else:
        sys.exit(f"no game `{game}` in `stickdice games`")
    m = re.search(r"\((\d+)(?:-(\d+))? players?\)", lines[i])
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    options = []
    for line in lines[i + 1 :]:
        if not line.startswith(" "):
            break
        m = re.match(r"\s+(\w+)=(\S+)\s", line)
        if not m:
            continue
        key, default = m.group(1), m.group(2)
        if key == "max_throws":
            continue
        allowed = re.search(r"\(([^()]*)\)\s*$", line).group(1)
        if allowed == "true or false":
            values = ["true" if default == "false" else "false"]
        elif allowed.startswith("one of "):
            values = [v for v in allowed[len("one of ") :].split(", ") if v != default]
        else:
            r = re.match(r"a whole number from (\d+) to (\d+)", allowed)
            values = [v for v in (r.group(1), r.group(2)) if v != default]
        options.append((key, default, values))
    return lo, hi, options


def pm(x, digits):
    return f"{x['mean']:.{digits}f} ± {x['ci95']:.{digits}f}"


def num(x):
    return f"{x:g}" if float(x) != int(x) else f"{int(x)}"


def row(players, label, a):
    s = a["self_play"]
    skill = "; ".join(f"{k['agent']} {pm(k['score'], 3)}" for k in a["skill"]) or "—"
    t = s["throws"]
    d = s["decisions_per_game"]
    return (
        f"| {players} | {label} | {pm(s['first'][0], 3)} | {pm(s['score'][0], 3)} | "
        f"{pm(t['mean'], 1)} / {num(t['median'])} / {num(t['p90'])} | {pm(s['turns']['mean'], 1)} | "
        f"{d['mean']:.1f}; {s['choice_share']:.3f} real, {s['mean_choices']:.2f} actions | "
        f"{pm(s['captures'], 2)} | {pm(s['capped'], 4)} | {skill} |"
    )


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--binary", default="target/release/stickdice")
    p.add_argument("-n", type=int, default=2000)
    p.add_argument("--rotations", type=int, default=200)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    lo, hi, options = game_table(args.binary, args.game)
    for players in range(lo, hi + 1):
        runs = [("default", [])]
        for key, _, values in options:
            runs += [(f"`{key}={v}`", ["--option", f"{key}={v}"]) for v in values]
        for label, extra in runs:
            cmd = [args.binary, "analyze", "--game", args.game, "--players", str(players), *extra]
            cmd += ["-n", str(args.n), "--seed", "1", "--threads", str(args.threads)]
            cmd += ["--agents", "greedy", "--rotations", str(args.rotations), "--json"]
            print(" ".join(cmd[1:]), file=sys.stderr)
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                # A seat count the game refuses (such as an odd count for teams) is said, not hidden.
                print(f"| {players} | {label} | refused: {done.stderr.strip().splitlines()[-1]} |")
                continue
            print(row(players, label, json.loads(done.stdout)), flush=True)


if __name__ == "__main__":
    main()
