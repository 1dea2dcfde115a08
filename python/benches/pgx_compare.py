#!/usr/bin/env python3
"""stickdice.vector against pgx, side by side in one run (a benchmark, not a test).

    python python/benches/pgx_compare.py --pgx-python PATH/TO/pgx-venv/bin/python \
        [--sizes 64,1024,4096] [--seconds 3] [--games issiren,sig-el-oued-capture]

Run with a Python that has ``stickdice`` (and numpy); pgx runs in its own virtual
environment (``python -m venv V && V/bin/pip install pgx "jax[cpu]"``), which this script
starts as a subprocess of itself (``--pgx-only``) on the same machine, right after.

What is measured, for both: steps per second of a batch of N games in self-play, every
step one random legal action per game (uniform over the legal-action mask), observations
and masks computed by every step, finished games reset automatically.
* stickdice: ``VectorEnv.step`` from a Python loop; the random actions drawn in numpy by
  each of two choosers, a row each (the measurement of ``vector.py``): ``mask``, the
  ``argmax`` of uniform noise plus the mask (49 random numbers per game for Issiren), and
  ``codes``, the ``floor(u * count)``-th of the legal codes the step also writes
  (``VectorEnv(..., legal_actions=True)``, ``stickdice.vector.RandomLegal``: one random
  number per game). The ratio of each row to pgx's first game is printed too.
* pgx: one ``jax.jit``-compiled function of ``vmap(env.step)`` plus the random action
  choice (``jax.random.categorical`` over the mask) and pgx's auto-reset wrapper, on JAX's
  CPU backend; the compile time (the first call) is printed apart and excluded from the
  rate; ``block_until_ready`` after the timed steps.
"""

import argparse
import json
import os
import subprocess
import sys
import time


def stickdice_rate(game, n, seconds, chooser="mask", seed=1):
    # The measurement of python/benches/vector.py, self-play.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from vector import measure

    return measure(game, n, None, seconds, chooser, seed)


def pgx_rates(games, sizes, seconds):
    import jax
    import jax.numpy as jnp
    import pgx

    out = {"versions": {"pgx": pgx.__version__, "jax": jax.__version__,
                        "backend": jax.default_backend()}, "rates": {}}
    for name in games:
        env = pgx.make(name)
        init = jax.jit(jax.vmap(env.init))
        auto_step = pgx.experimental.auto_reset(env.step, env.init)

        def one(state, key):
            k1, k2, k3 = jax.random.split(key, 3)
            n = state.legal_action_mask.shape[0]
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(k1, logits, axis=1)
            keys = jax.random.split(k2, n)
            return jax.vmap(auto_step)(state, action, keys), k3

        step = jax.jit(one)
        for n in sizes:
            key = jax.random.PRNGKey(1)
            state = init(jax.random.split(key, n))
            t0 = time.perf_counter()
            state, key = step(state, key)
            jax.block_until_ready(state)
            compile_s = time.perf_counter() - t0
            steps = 0
            start = time.perf_counter()
            while True:
                for _ in range(10):
                    state, key = step(state, key)
                jax.block_until_ready(state)
                steps += 10 * n
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
            out["rates"][f"{name}/{n}"] = {"rate": steps / elapsed, "compile_s": compile_s}
            print(f"pgx {name} N={n}: {steps / elapsed:.0f} steps/s (compile {compile_s:.1f} s)",
                  file=sys.stderr, flush=True)
    return out


def fmt(r):
    return f"{r / 1e6:.2f} M" if r >= 1e6 else f"{r / 1e3:.1f} k"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pgx-python", help="the Python of the pgx virtual environment")
    p.add_argument("--pgx-only", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--sizes", default="64,1024,4096")
    p.add_argument("--games", default="issiren,sig-el-oued-capture")
    p.add_argument("--pgx-games", default="backgammon")
    p.add_argument("--choosers", default="mask,codes", help="mask and/or codes (a row each)")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.pgx_only:
        print(json.dumps(pgx_rates(args.pgx_games.split(","), sizes, args.seconds)))
        return
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()}")
    rows = []
    for game in args.games.split(","):
        for chooser in args.choosers.split(","):
            rows.append((f"stickdice {game} ({chooser})",
                         [stickdice_rate(game, n, args.seconds, chooser) for n in sizes], None))
            print(f"stickdice {game} ({chooser}): done", file=sys.stderr, flush=True)
    versions = ""
    if args.pgx_python:
        res = subprocess.run([args.pgx_python, __file__, "--pgx-only", "--seconds", str(args.seconds),
                              "--sizes", args.sizes, "--pgx-games", args.pgx_games],
                             check=True, capture_output=True, text=True)
        got = json.loads(res.stdout)
        v = got["versions"]
        versions = f"pgx {v['pgx']}, jax {v['jax']} ({v['backend']} backend)"
        for name in args.pgx_games.split(","):
            cell = [got["rates"][f"{name}/{n}"] for n in sizes]
            rows.append((f"pgx {name}", [c["rate"] for c in cell], [c["compile_s"] for c in cell]))
    print(f"load average after: {os.getloadavg()}" + (f"; {versions}" if versions else ""))
    print("| environment | " + " | ".join(f"N = {n}" for n in sizes) + " | jit compile (s) |")
    print("|---|" + "---:|" * len(sizes) + "---|")
    for label, rates, compile_s in rows:
        c = "—" if compile_s is None else ", ".join(f"{s:.1f}" for s in compile_s)
        print(f"| {label} | " + " | ".join(fmt(r) for r in rates) + f" | {c} |")
    pgx = [r for r in rows if r[2] is not None]
    if pgx:
        base_label, base = pgx[0][0], pgx[0][1]
        print(f"\nratio to {base_label} (same run):\n")
        print("| environment | " + " | ".join(f"N = {n}" for n in sizes) + " |")
        print("|---|" + "---:|" * len(sizes))
        for label, rates, compile_s in rows:
            if compile_s is None:
                print(f"| {label} | " + " | ".join(f"{r / b:.0f}×" for r, b in zip(rates, base)) + " |")


if __name__ == "__main__":
    main()
