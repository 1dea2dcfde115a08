#!/usr/bin/env python3
"""stickdice.vector against pgx, side by side in one run (a benchmark, not a test).

    python python/benches/pgx_compare.py --pgx-python PATH/TO/pgx-venv/bin/python \\
        [--sizes 64,1024,4096] [--seconds 3] [--windows 6] [--games issiren,sig-el-oued-capture]

Run with a Python that has ``stickdice`` (and numpy); pgx runs in its own virtual
environment (``python -m venv V && V/bin/pip install pgx "jax[cpu]"``), in one long-lived
subprocess of this script (``--pgx-serve``) on the same machine, started first.

What is stepped, on both sides: a batch of N games in self-play, every step one random
legal action per game, observations and masks computed by every step, finished games
reset automatically. One step of N games counts N steps.

* stickdice: ``VectorEnv.step`` from a Python loop, the random actions drawn in numpy by
  each of two choosers, a row each (``vector.py``'s ``Stepper``): ``mask``, the
  ``argmax`` of uniform noise plus the mask (49 random numbers per game for Issiren; the
  closer match to pgx's categorical sampling over the mask), and ``codes``, the
  ``floor(u * count)``-th of the legal codes the step also writes
  (``VectorEnv(..., legal_actions=True)``, ``stickdice.vector.RandomLegal``: one random
  number per game).
* pgx: one ``jax.jit``-compiled function of ``vmap(env.step)`` with pgx's auto-reset
  wrapper and the random action choice (``jax.random.categorical`` over the mask), on
  JAX's CPU backend. Every function is compiled (its first call) when the subprocess
  starts, before any window; the compile time is printed apart and is in no rate.
  ``block_until_ready`` after every step, so a window ends when its last step is done.

How it is timed: for each batch size N, the rows (each stickdice game × chooser, each pgx
game) take turns in windows of ``--seconds / --windows`` seconds each: first one warm-up
window per row (not counted), then ``--windows`` rounds of one window per row in the same
order (stickdice mask, stickdice codes, pgx, stickdice mask, ...), so every side gets
``--seconds`` of counted stepping spread over the same minutes. A window steps until its
length has passed (it ends after the step that crosses it) and gives its steps, its wall
time (``time.perf_counter``) and the CPU time of the process that stepped
(``time.process_time()``: all threads of that process, so JAX's worker threads on the pgx
side, rayon's on ours; the other side's process is idle meanwhile). Each row shows, over
its windows, the median and the range (min–max) of steps per wall second, of steps per
CPU second, and the median CPU/wall (the cores it kept busy). The ratio of a stickdice row
to pgx's first game is taken round by round (the stickdice window against the pgx window of
the same round, a few seconds apart) and shown as the median and range of those ratios,
for wall and for CPU rates.

The pgx subprocess speaks a line protocol on its stdin/stdout (stderr is its log): once
every function is compiled it writes one JSON line ``{"ready": true, "versions": {...},
"compile_s": {"GAME/N": seconds, ...}}``; to the line ``run GAME N SECONDS`` it steps that
batch for a window and answers ``{"steps": S, "wall": W, "cpu": C}``; to a bad request
``{"error": "..."}``; ``quit`` or the end of stdin ends it.
"""

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time

#: Seconds to wait for the pgx subprocess to compile everything (slow on a loaded machine).
READY_TIMEOUT = 1800.0
#: Seconds a window may overrun its length before the subprocess is taken as stuck.
RUN_GRACE = 300.0


# ---------------------------------------------------------------------------------------
# The pgx side: runs in pgx's virtual environment (no stickdice there).


def pgx_serve(games, sizes, proto_in, proto_out):
    """Compiles every (game, N), says ready, then answers ``run`` requests (the protocol)."""
    import jax
    import jax.numpy as jnp
    import numpy
    import pgx

    def random_step(auto_step):
        # One step of the batch: a random legal action per game, drawn from the mask.
        def one(state, key):
            k1, k2, k3 = jax.random.split(key, 3)
            n = state.legal_action_mask.shape[0]
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(k1, logits, axis=1)
            keys = jax.random.split(k2, n)
            return jax.vmap(auto_step)(state, action, keys), k3

        return one

    batches = {}
    compile_s = {}
    for name in games:
        env = pgx.make(name)
        init = jax.jit(jax.vmap(env.init))
        step = jax.jit(random_step(pgx.experimental.auto_reset(env.step, env.init)))
        for n in sizes:
            key = jax.random.PRNGKey(1)
            state = init(jax.random.split(key, n))
            t0 = time.perf_counter()
            state, key = step(state, key)
            jax.block_until_ready(state)
            compile_s[f"{name}/{n}"] = time.perf_counter() - t0
            batches[(name, n)] = [step, state, key]
            print(f"pgx {name} N={n}: compiled in {compile_s[f'{name}/{n}']:.1f} s",
                  file=sys.stderr, flush=True)

    def run(game, n, seconds):
        batch = batches[(game, n)]
        step, state, rng = batch
        steps = 0
        cpu0 = time.process_time()
        start = time.perf_counter()
        while True:
            state, rng = step(state, rng)
            jax.block_until_ready(state)
            steps += n
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        cpu = time.process_time() - cpu0
        batch[1], batch[2] = state, rng
        return steps, elapsed, cpu

    versions = {"pgx": pgx.__version__, "jax": jax.__version__, "numpy": numpy.__version__,
                "python": sys.version.split()[0], "backend": jax.default_backend()}
    serve(versions, compile_s, run, proto_in, proto_out)


def serve(versions, compile_s, run, proto_in, proto_out):
    """The subprocess's end of the protocol: the ready line, then one answer per request.

    ``compile_s`` maps ``"GAME/N"`` to the compile seconds of every batch there is;
    ``run(game, n, seconds)`` steps a window of one of them: ``(steps, wall, cpu)``.
    """

    def answer(obj):
        proto_out.write(json.dumps(obj) + "\n")
        proto_out.flush()

    answer({"ready": True, "compile_s": compile_s, "versions": versions})
    for line in proto_in:
        words = line.split()
        if words == ["quit"]:
            return
        try:
            if len(words) != 4 or words[0] != "run":
                raise ValueError(f"expected 'run GAME N SECONDS' or 'quit', got {line.strip()!r}")
            game = words[1]
            try:
                n, seconds = int(words[2]), float(words[3])
            except ValueError:
                raise ValueError(f"N must be a whole number and SECONDS a number, got {line.strip()!r}") from None
            if not 0 < seconds < float("inf"):
                raise ValueError(f"a window must last a positive number of seconds, got {words[3]!r}")
            if f"{game}/{n}" not in compile_s:
                raise ValueError(f"no compiled batch for {game} N={n}")
        except ValueError as e:
            answer({"error": str(e)})
            continue
        steps, wall, cpu = run(game, n, seconds)
        answer({"steps": steps, "wall": wall, "cpu": cpu})


def pgx_serve_main(games, sizes):
    # The protocol has stdout to itself: anything else printed (by JAX, say) goes to stderr.
    proto_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    pgx_serve(games, sizes, sys.stdin, proto_out)


# ---------------------------------------------------------------------------------------
# The driver's side.


class PgxError(RuntimeError):
    """The pgx subprocess failed, ended, or broke the protocol."""


class PgxServer:
    """The driver's end of the protocol: a subprocess started with ``cmd``."""

    def __init__(self, cmd, ready_timeout=READY_TIMEOUT):
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            ready = self._answer(ready_timeout, "the ready line")
            if ready.get("ready") is not True or not isinstance(ready.get("compile_s"), dict):
                raise PgxError(f"expected the ready line, got {ready!r}")
        except BaseException:
            self.close()
            raise
        self.versions = ready.get("versions", {})
        self.compile_s = ready["compile_s"]

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _log_tail(self):
        self.stderr.seek(0)
        tail = self.stderr.read()[-2000:].strip()
        return f"; its stderr ends:\n{tail}" if tail else ""

    def _answer(self, timeout, what):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise PgxError(f"the pgx subprocess gave no answer within {timeout:.0f} s "
                           f"(waiting for {what}){self._log_tail()}") from None
        if line is None:
            code = self.proc.wait()
            raise PgxError(f"the pgx subprocess ended (exit code {code}) while the driver "
                           f"waited for {what}{self._log_tail()}")
        try:
            got = json.loads(line)
        except json.JSONDecodeError:
            got = None
        if not isinstance(got, dict):
            raise PgxError(f"the pgx subprocess wrote {line.strip()!r}, not a JSON object "
                           f"(waiting for {what})")
        if "error" in got:
            raise PgxError(f"the pgx subprocess refused a request: {got['error']}")
        return got

    def run(self, game, n, seconds):
        """One window of ``seconds`` of pgx's ``game`` at N = ``n``: (steps, wall, cpu)."""
        try:
            self.proc.stdin.write(f"run {game} {n} {seconds!r}\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise PgxError(f"the pgx subprocess is gone ({e}){self._log_tail()}") from None
        got = self._answer(seconds + RUN_GRACE, f"a window of {game} N={n}")
        try:
            steps, wall, cpu = int(got["steps"]), float(got["wall"]), float(got["cpu"])
        except (KeyError, TypeError, ValueError):
            raise PgxError(f"expected steps, wall and cpu, got {got!r}") from None
        if steps <= 0 or wall <= 0 or cpu < 0:
            raise PgxError(f"a window of {game} N={n} gave {got!r}: no steps or no time")
        return steps, wall, cpu

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def interleave(rows, windows, window_s, clock=time.monotonic):
    """Runs ``rows`` (label, run) in turns: one warm-up window each, then ``windows`` rounds.

    ``run(seconds)`` steps one window and returns ``(steps, wall, cpu)``. Returns the
    counted windows of each row, ``{label: [(steps, wall, cpu), ...]}`` in round order,
    and the timeline of the counted windows, ``[(round, label, start, end), ...]`` on
    ``clock``.
    """
    for _label, run in rows:
        run(window_s)
    got = {label: [] for label, _run in rows}
    timeline = []
    for k in range(windows):
        for label, run in rows:
            start = clock()
            got[label].append(run(window_s))
            timeline.append((k, label, start, clock()))
    return got, timeline


def spread(values):
    """(median, min, max) of a list; None if it is empty."""
    if not values:
        return None
    return statistics.median(values), min(values), max(values)


def summarize(got, base=None):
    """Per row: the wall and CPU rates and CPU/wall over its windows, and the round-by-round
    ratios to the row ``base`` (None: no ratios)."""
    out = {}
    for label, ws in got.items():
        row = {
            "wall_rate": spread([s / w for s, w, _c in ws]),
            "cpu_rate": spread([s / c for s, _w, c in ws if c > 0]),
            "cpu_per_wall": spread([c / w for _s, w, c in ws]),
            "windows": len(ws),
        }
        if base is not None and label != base:
            b = got[base]
            row["ratio_wall"] = spread([(s / w) / (bs / bw) for (s, w, _c), (bs, bw, _bc) in zip(ws, b)])
            row["ratio_cpu"] = spread([(s / c) / (bs / bc) for (s, _w, c), (bs, _bw, bc) in zip(ws, b)
                                       if c > 0 and bc > 0])
        out[label] = row
    return out


def fmt(r):
    return f"{r / 1e6:.2f} M" if r >= 1e6 else f"{r / 1e3:.1f} k"


def fmt_spread(t, f=fmt):
    if t is None:
        return "—"
    med, lo, hi = t
    return f"{f(med)} ({f(lo)}–{f(hi)})"


def ratio(r):
    return f"{r:.0f}×" if r >= 10 else f"{r:.2f}×"


def stickdice_runner(game, n, chooser, seed=1):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from vector import Stepper

    return Stepper(game, n, None, chooser, seed).run


def compare(games, choosers, pgx_games, sizes, windows, window_s, server=None, log=sys.stderr):
    """Every size in turn: the interleaved windows of every row; the summaries per size."""
    results = []
    for n in sizes:
        rows = [(f"stickdice {game} ({chooser})", stickdice_runner(game, n, chooser))
                for game in games for chooser in choosers]
        if server is not None:
            rows += [(f"pgx {name}", lambda s, name=name, n=n: server.run(name, n, s))
                     for name in pgx_games]
        got, timeline = interleave(rows, windows, window_s)
        base = f"pgx {pgx_games[0]}" if server is not None else None
        results.append((n, summarize(got, base), got, timeline))
        print(f"N={n}: done", file=log, flush=True)
    return results


def report(results, server, pgx_games, out=sys.stdout):
    print("| environment | N | steps/s, wall: median (min–max) | steps per CPU-second: median "
          "(min–max) | CPU/wall | jit compile (s) |", file=out)
    print("|---|---:|---:|---:|---:|---:|", file=out)
    for n, summary, _got, _timeline in results:
        for label, row in summary.items():
            c = "—"
            if server is not None and label.startswith("pgx "):
                c = f"{server.compile_s[f'{label[4:]}/{n}']:.1f}"
            print(f"| {label} | {n} | {fmt_spread(row['wall_rate'])} | {fmt_spread(row['cpu_rate'])} "
                  f"| {row['cpu_per_wall'][0]:.2f} | {c} |", file=out)
    if server is None:
        return
    print(f"\nratio to pgx {pgx_games[0]}, round by round (each stickdice window against the "
          "pgx window of the same round):\n", file=out)
    print("| environment | N | wall: median (min–max) | CPU: median (min–max) |", file=out)
    print("|---|---:|---:|---:|", file=out)
    for n, summary, _got, _timeline in results:
        for label, row in summary.items():
            if "ratio_wall" in row and label.startswith("stickdice "):
                print(f"| {label} | {n} | {fmt_spread(row['ratio_wall'], ratio)} "
                      f"| {fmt_spread(row['ratio_cpu'], ratio)} |", file=out)


def positive_int(s):
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {s!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {s!r}")
    return v


def positive_float(s):
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {s!r}") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {s!r}")
    return v


def size_list(s):
    return [positive_int(x) for x in s.split(",")]


def name_list(s):
    names = s.split(",")
    if any(not x.strip() for x in names):
        raise argparse.ArgumentTypeError(f"an empty name in {s!r}")
    return names


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pgx-python", help="the Python of the pgx virtual environment")
    p.add_argument("--pgx-serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--seconds", type=positive_float, default=3.0,
                   help="counted time per row and batch size, cut into --windows windows")
    p.add_argument("--windows", type=positive_int, default=6,
                   help="windows per row and batch size (each --seconds / --windows long)")
    p.add_argument("--sizes", type=size_list, default=[64, 1024, 4096])
    p.add_argument("--games", type=name_list, default=["issiren", "sig-el-oued-capture"])
    p.add_argument("--pgx-games", type=name_list, default=["backgammon"])
    p.add_argument("--choosers", type=name_list, default=["mask", "codes"],
                   help="mask and/or codes (a row each)")
    args = p.parse_args(argv)
    if args.pgx_serve:
        pgx_serve_main(args.pgx_games, args.sizes)
        return
    bad = [c for c in args.choosers if c not in ("mask", "codes")]
    if bad:
        p.error(f"unknown chooser {bad[0]!r}: mask and/or codes")
    window_s = args.seconds / args.windows

    import numpy
    import stickdice
    from stickdice.vector import VectorEnv

    for game in args.games:
        try:
            VectorEnv(game, 1)
        except ValueError as e:
            p.error(f"--games: {e}")

    print(f"cores: {os.cpu_count()}, load average before: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.windows} windows of {window_s:.3g} s per row and batch size "
          f"(one warm-up window each first, not counted)", flush=True)
    server = None
    if args.pgx_python:
        cmd = [args.pgx_python, os.path.abspath(__file__), "--pgx-serve",
               "--sizes", ",".join(map(str, args.sizes)), "--pgx-games", ",".join(args.pgx_games)]
        print("starting pgx and compiling (excluded from the rates)...", file=sys.stderr, flush=True)
        try:
            server = PgxServer(cmd)
        except (PgxError, OSError) as e:
            sys.exit(f"pgx_compare: {e}")
    try:
        results = compare(args.games, args.choosers, args.pgx_games, args.sizes, args.windows,
                          window_s, server)
    except PgxError as e:
        sys.exit(f"pgx_compare: {e}")
    finally:
        if server is not None:
            server.close()
    versions = f"stickdice {stickdice.__version__}, numpy {numpy.__version__}"
    if server is not None:
        v = server.versions
        versions += (f"; pgx side: pgx {v.get('pgx')}, jax {v.get('jax')} ({v.get('backend')} "
                     f"backend), numpy {v.get('numpy')}, Python {v.get('python')}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {versions}\n")
    report(results, server, args.pgx_games)


if __name__ == "__main__":
    main()
