"""The window scheduler of python/benches/pgx_compare.py, against a fake pgx subprocess.

No pgx nor jax here: the fake is a Python script that answers the same line protocol with
the benchmark's own ``serve`` loop, stepping a busy loop instead of a compiled batch, and
logs when each of its windows ran.
"""

import importlib.util
import io
import json
import statistics
import sys
import textwrap

import pytest

from conftest import REPO

BENCHES = REPO / "python" / "benches"


def load_bench():
    spec = importlib.util.spec_from_file_location("pgx_compare", BENCHES / "pgx_compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pc = load_bench()

FAKE = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, sys.argv[1])
    import pgx_compare

    log = open(sys.argv[2], "a")

    def run(game, n, seconds):
        start = time.monotonic()
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        steps = 0
        while True:
            steps += n
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
        cpu = time.process_time() - cpu0
        log.write(f"{game} {n} {start!r} {time.monotonic()!r}\\n")
        log.flush()
        return steps, elapsed, cpu

    pgx_compare.serve({"pgx": "fake"}, {"fakegammon/8": 1.5}, run, sys.stdin, sys.stdout)
    """
)


@pytest.fixture
def fake_pgx(tmp_path):
    script = tmp_path / "fake_pgx.py"
    script.write_text(FAKE)
    log = tmp_path / "windows.log"
    return [sys.executable, str(script), str(BENCHES), str(log)], log


def test_stickdice_and_pgx_windows_alternate_in_time(fake_pgx):
    cmd, log = fake_pgx
    with pc.PgxServer(cmd) as server:
        assert server.compile_s == {"fakegammon/8": 1.5}
        assert server.versions == {"pgx": "fake"}
        [(n, summary, got, timeline)] = pc.compare(
            ["issiren"], ["mask", "codes"], ["fakegammon"], [8], 3, 0.02, server, log=io.StringIO())
    assert n == 8
    rows = ["stickdice issiren (mask)", "stickdice issiren (codes)", "pgx fakegammon"]
    # Round by round, every row once, in the same order.
    assert [(k, label) for k, label, _s, _e in timeline] == [(k, r) for k in range(3) for r in rows]
    assert all(len(got[r]) == 3 for r in rows)
    assert all(steps > 0 and wall > 0 and cpu >= 0 for r in rows for steps, wall, cpu in got[r])
    assert all(steps % 8 == 0 for r in rows for steps, _w, _c in got[r])
    # The fake ran one warm-up window and then one window per round, each between the
    # stickdice windows around it in the driver's timeline (one clock: time.monotonic).
    ran = [line.split() for line in log.read_text().splitlines()]
    assert [(g, int(m)) for g, m, _s, _e in ran] == [("fakegammon", 8)] * 4
    counted = [(float(s), float(e)) for _g, _m, s, e in ran[1:]]
    pgx_slots = [i for i, (_k, label, _s, _e) in enumerate(timeline) if label == "pgx fakegammon"]
    for (start, end), i in zip(counted, pgx_slots):
        assert timeline[i - 1][3] <= start <= end
        if i + 1 < len(timeline):
            assert end <= timeline[i + 1][2]
    # The ratios are those of the same round's windows.
    for label in rows[:2]:
        per_round = [(s / w) / (ps / pw) for (s, w, _c), (ps, pw, _pc) in zip(got[label], got[rows[2]])]
        assert summary[label]["ratio_wall"] == (statistics.median(per_round), min(per_round), max(per_round))
    assert "ratio_wall" not in summary[rows[2]]
    out = io.StringIO()
    pc.report([(n, summary, got, timeline)], server, ["fakegammon"], out=out)
    table = out.getvalue()
    assert "| pgx fakegammon | 8 |" in table and "| 1.5 |" in table
    assert "| stickdice issiren (codes) | 8 |" in table


def test_summaries_pair_the_rounds():
    got = {
        "a": [(100, 1.0, 0.5), (300, 1.0, 1.0), (200, 2.0, 1.0)],
        "p": [(10, 1.0, 2.0), (10, 1.0, 2.0), (40, 1.0, 2.0)],
    }
    s = pc.summarize(got, "p")
    assert s["a"]["wall_rate"] == (100, 100, 300)
    assert s["a"]["cpu_rate"] == (200, 200, 300)
    assert s["a"]["cpu_per_wall"] == (0.5, 0.5, 1.0)
    # Per round 10, 30 and 2.5 (not the ratio of the medians, 100 / 10).
    assert s["a"]["ratio_wall"] == (10, 2.5, 30)
    assert s["a"]["ratio_cpu"] == (40, 10, 60)
    assert "ratio_wall" not in s["p"] and s["p"]["windows"] == 3
    assert "ratio_wall" not in pc.summarize(got)["a"]


def test_interleave_runs_a_warm_up_then_rounds():
    calls = []

    def runner(label):
        def run(seconds):
            calls.append((label, seconds))
            return 1, 1.0, 1.0

        return run

    got, timeline = pc.interleave([("a", runner("a")), ("b", runner("b"))], 2, 0.25)
    assert calls == [("a", 0.25), ("b", 0.25)] * 3
    assert got == {"a": [(1, 1.0, 1.0)] * 2, "b": [(1, 1.0, 1.0)] * 2}
    assert [(k, label) for k, label, _s, _e in timeline] == [(0, "a"), (0, "b"), (1, "a"), (1, "b")]


def test_the_serve_loop_refuses_bad_requests():
    ran = []

    def run(game, n, seconds):
        ran.append((game, n, seconds))
        return 3 * n, seconds, seconds / 2

    requests = "hello\nrun fakegammon 8\nrun nope 8 1\nrun fakegammon 8 nan\nrun fakegammon 8 -1\n" \
               "run fakegammon x 1\nrun fakegammon 8 0.5\nquit\nrun fakegammon 8 1\n"
    out = io.StringIO()
    pc.serve({}, {"fakegammon/8": 0.0}, run, io.StringIO(requests), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"ready": True, "compile_s": {"fakegammon/8": 0.0}, "versions": {}}
    assert [a.get("error", "")[:20] for a in answers[1:7]] == [
        "expected 'run GAME N", "expected 'run GAME N", "no compiled batch fo",
        "a window must last a", "a window must last a", "N must be a whole nu"], answers
    assert answers[7] == {"steps": 24, "wall": 0.5, "cpu": 0.25}
    assert len(answers) == 8  # nothing after quit
    assert ran == [("fakegammon", 8, 0.5)]


def write_fake(tmp_path, body):
    script = tmp_path / "broken.py"
    script.write_text(textwrap.dedent(body))
    return [sys.executable, str(script)]


def test_a_subprocess_that_dies_is_a_clear_error(tmp_path):
    cmd = write_fake(tmp_path, """
        import sys
        print("no module named pgx", file=sys.stderr)
        sys.exit(3)
    """)
    with pytest.raises(pc.PgxError, match=r"(?s)exit code 3.*no module named pgx"):
        pc.PgxServer(cmd)


def test_a_subprocess_that_breaks_the_protocol_is_a_clear_error(tmp_path):
    cmd = write_fake(tmp_path, """
        print("hello")
    """)
    with pytest.raises(pc.PgxError, match="not a JSON object"):
        pc.PgxServer(cmd)
    cmd = write_fake(tmp_path, """
        import json, sys
        print(json.dumps({"ready": True, "compile_s": {}}), flush=True)
        for line in sys.stdin:
            print(json.dumps({"steps": 0, "wall": 1.0, "cpu": 1.0}), flush=True)
    """)
    with pc.PgxServer(cmd) as server:
        with pytest.raises(pc.PgxError, match="no steps"):
            server.run("backgammon", 8, 0.01)
    cmd = write_fake(tmp_path, """
        import json, sys
        print(json.dumps({"ready": True, "compile_s": {}}), flush=True)
        sys.stdin.readline()
    """)
    with pc.PgxServer(cmd) as server:
        with pytest.raises(pc.PgxError, match="ended"):
            server.run("backgammon", 8, 0.01)


@pytest.mark.parametrize("args", [
    ["--windows", "0"],
    ["--windows", "two"],
    ["--seconds", "nan"],
    ["--seconds", "-1"],
    ["--sizes", "64,0"],
    ["--choosers", "mask,dice"],
    ["--games", "no-such-game"],
    ["--games", "issiren,"],
])
def test_bad_arguments_are_refused(args, capsys):
    with pytest.raises(SystemExit) as e:
        pc.main(args)
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err
