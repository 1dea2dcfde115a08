#!/usr/bin/env python3
"""Play Issiren against a stickdice agent in the terminal, through `stickdice serve`.

An example front end for the stickdice protocol (docs/protocol.md), using only the
Python standard library. It starts `stickdice serve` as a subprocess and speaks JSON lines
to it.

    python3 examples/issiren_play.py                      # you are P1, against an agent
    python3 examples/issiren_play.py --seat 2 --agent random --seed 7
    python3 examples/issiren_play.py --real-sticks        # type in the throws of real sticks
    python3 examples/issiren_play.py --auto               # agent against agent, no input

On your throw, press Enter for the engine to throw the sticks (or type the number of green
sides up if you threw real ones). On your move, type the square of the piece to move
(such as c1) or `pass`; `hint` asks the agent what it would play, `undo` takes back your
last move, `quit` stops.

--auto plays agent against agent without any input and exits 0 when the game completed
(CI runs it). Exit status 1: the server answered with an error; 2: bad arguments or no
server binary.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys


class ProtocolError(Exception):
    """An error response from the server."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Engine:
    """A `stickdice serve` subprocess: one request line out, one response line back."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.next_id = 0

    def request(self, cmd, **fields):
        """Sends a command; returns its result, or raises ProtocolError."""
        self.next_id += 1
        request = {"id": self.next_id, "cmd": cmd, **fields}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ProtocolError("closed", "the server closed its output")
        response = json.loads(line)
        if response.get("id") != self.next_id:
            raise ProtocolError("protocol", f"response to the wrong request: {line.strip()}")
        if not response["ok"]:
            raise ProtocolError(response["error"]["code"], response["error"]["message"])
        return response["result"]

    def close(self):
        try:
            self.request("quit")
        except (ProtocolError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def find_binary(given):
    """The stickdice binary: the one given, else a cargo build here, else one on PATH."""
    if given:
        return given
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # Cargo builds into $CARGO_TARGET_DIR when it is set (relative to the working folder).
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(root, "target")
    for profile in ("release", "debug"):
        path = os.path.join(target, profile, "stickdice")
        if os.access(path, os.X_OK):
            return path
    return shutil.which("stickdice")


def best_agent(hello):
    """The strongest agent the server offers (by a fixed preference), for the default."""
    names = [a["name"] for a in hello["agents"]]
    for name in ("mcts", "expectimax", "greedy", "random"):
        if name in names:
            return name
    return names[0]


def piece_counts(view):
    """Each seat's pieces left on the board."""
    return [len(pieces) for pieces in view["state"]["pieces"]]


def announce_captures(before, after):
    """Says which pieces a move captured, if any."""
    for seat, (was, now) in enumerate(zip(piece_counts(before), piece_counts(after))):
        if now < was:
            taken = was - now
            print(f"  captured {taken} of {seat_name(seat)}'s pieces ({now} left)")


def seat_name(seat):
    return f"P{seat + 1}"


def show_end(view):
    ranking = view["ranking"]
    print(f"Game over after {view['throws_made']} throws: {ranking['text']}")
    for seat, score in enumerate(ranking["scores"]):
        print(f"  {seat_name(seat)}: score {score:g}")


def play_auto(engine, args, hello):
    """Agent against agent; returns the exit status."""
    agents = [args.agent or "random", args.opponent or args.agent or "random"]
    options = {"max_throws": args.max_throws} if args.max_throws else {}
    view = engine.request("new_game", game="issiren", seed=args.seed, options=options)
    print(f"Issiren, seed {args.seed}: P1 = {agents[0]}, P2 = {agents[1]}")
    moves = 0
    while view["node"]["kind"] != "end":
        seat = view["node"]["seat"]
        if view["node"]["kind"] == "throw":
            view = engine.request("throw")
            thrown = view["thrown"]
            if not 0 <= thrown["marked"] <= 6:
                print(f"impossible throw reported: {thrown}", file=sys.stderr)
                return 1
            if args.verbose:
                print(f"{seat_name(seat)} throws: {thrown['description']}")
        else:
            legal = view["legal_actions"]
            view = engine.request("agent_move", agent=agents[seat], apply=True, analysis=True)
            action = view["move"]["action"]
            if action not in legal:
                print(f"{seat_name(seat)}'s agent played {action}, not among {legal}", file=sys.stderr)
                return 1
            moves += 1
            if args.verbose:
                print(f"{seat_name(seat)} plays {action}")
    if args.verbose:
        print(view["board"])
    print(f"{moves} decisions made.")
    show_end(view)
    if sum(view["ranking"]["scores"]) != 1:
        print(f"two players' scores should sum to 1: {view['ranking']}", file=sys.stderr)
        return 1
    return 0


def ask(prompt):
    try:
        return input(prompt).strip()
    except EOFError:
        return "quit"


def play_interactive(engine, args, hello):
    """A person against an agent; returns the exit status."""
    me = args.seat - 1
    agent = args.agent or best_agent(hello)
    options = {"max_throws": args.max_throws} if args.max_throws else {}
    view = engine.request("new_game", game="issiren", seed=args.seed, options=options)
    print(f"Issiren: you are {seat_name(me)}, against {agent} (seed {args.seed}).")
    print("P1's pieces start on row 1, P2's on row 4; capture all twelve enemy pieces to win.")
    print(view["board"])
    my_decisions = []  # the undo_steps count at each of my decisions, for `undo`
    while view["node"]["kind"] != "end":
        seat = view["node"]["seat"]
        if view["node"]["kind"] == "throw":
            marked = None
            if seat == me or args.real_sticks:
                who = "your" if seat == me else f"{seat_name(seat)}'s"
                while True:
                    text = ask(f"{who} throw - Enter to throw, or the green sides up (0-6) of real sticks: ")
                    if text == "quit":
                        return 0
                    if text == "" or (text.isdigit() and 0 <= int(text) <= 6):
                        marked = int(text) if text else None
                        break
                    print("  type a number from 0 to 6, or just press Enter")
            fields = {} if marked is None else {"marked": marked}
            view = engine.request("throw", **fields)
            print(f"{seat_name(seat)} throws: {view['thrown']['description']}")
        elif seat == me:
            legal = view["legal_actions"]
            if len(legal) == 1:
                only = "No piece can move: you pass." if legal == ["pass"] else f"Your only move: {legal[0]}."
                print(only)
                view = engine.request("act", action=legal[0])
                continue
            if not my_decisions or my_decisions[-1] != view["undo_steps"]:
                my_decisions.append(view["undo_steps"])
                print(view["board"])
            text = ask(f"your move ({', '.join(legal)}; hint, undo, quit): ").lower()
            if text == "":
                continue
            if text == "quit":
                return 0
            if text == "hint":
                hint = engine.request("agent_move", agent=agent, analysis=True)["move"]
                print(f"  {agent} would play {hint['action']}")
                for line in hint["analysis"] or []:
                    visits = "" if line["visits"] is None else f", {line['visits']} visits"
                    print(f"    {line['action']}: value {line['value']:.3f}{visits}")
            elif text == "undo":
                earlier = [p for p in my_decisions if p < view["undo_steps"]]
                if not earlier:
                    print("  nothing of yours to undo")
                    continue
                # Back to my previous decision; its throw stays (the dice are restored too).
                view = engine.request("undo", steps=view["undo_steps"] - earlier[-1])
                my_decisions = earlier[:-1]
                print(f"  taken back: your move again after {seat_name(me)}'s same throw")
            else:
                try:
                    before = view
                    view = engine.request("act", action=text)
                    announce_captures(before, view)
                    print(view["board"])
                except ProtocolError as e:
                    print(f"  {e.message}")
        else:
            before = view
            view = engine.request("agent_move", agent=agent, apply=True)
            print(f"{seat_name(seat)} ({agent}) plays {view['move']['action']}")
            announce_captures(before, view)
    print()
    print(view["board"])
    show_end(view)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="the stickdice binary (default: target/release or target/debug, else PATH)")
    parser.add_argument("--agent", help="the agent spec you play against (default: the strongest offered; with --auto, P1's agent, default random)")
    parser.add_argument("--opponent", help="with --auto: P2's agent spec (default: the same as --agent)")
    parser.add_argument("--seat", type=int, choices=(1, 2), default=1, help="your seat: 1 throws first (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the engine's throws and the agents (default 1)")
    parser.add_argument("--max-throws", type=int, help="the throw cap (rule option max_throws)")
    parser.add_argument("--real-sticks", action="store_true", help="ask for every throw, the agent's too")
    parser.add_argument("--auto", action="store_true", help="agent against agent, no input; exit 0 on a completed game")
    parser.add_argument("--verbose", action="store_true", help="with --auto: print every throw and move")
    args = parser.parse_args()

    binary = find_binary(args.binary)
    if not binary:
        print("no stickdice binary: build it with `cargo build --release --bin stickdice` or pass --binary", file=sys.stderr)
        return 2
    engine = Engine(binary)
    try:
        hello = engine.request("hello")
        if hello["protocol"] != "stickdice-serve" or hello["version"] != 1:
            print(f"unexpected protocol {hello['protocol']} {hello['version']}", file=sys.stderr)
            return 1
        if args.auto:
            return play_auto(engine, args, hello)
        return play_interactive(engine, args, hello)
    except ProtocolError as e:
        print(f"error from stickdice serve: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print()
        return 0
    finally:
        engine.close()


if __name__ == "__main__":
    sys.exit(main())
