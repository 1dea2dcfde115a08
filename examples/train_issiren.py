#!/usr/bin/env python3
"""Trains a policy for Issiren (2 players) with the batched environment, numpy only.

    python examples/train_issiren.py [--seed 1] [--random-steps 1500000] [--greedy-steps 500000]
                                     [--out target/train_issiren] [--smoke]

The method is advantage actor-critic (A2C with GAE, gamma 1, lambda 0.95, Adam), trained by
policy gradient on batches of games stepped by ``stickdice.vector.VectorEnv``; the
opponents sit inside the batch (they move in Rust): first ``random``, then ``greedy``.
The default policy (``--policy features``) is linear over a few numbers per piece read off
the observation tensor with Issiren's circuit (does moving it capture, how many enemy
throws reach its square and its landing square, is it unmoved, its row), a softmax over the
legal pieces; its value head is linear in the observation. ``--policy mlp`` is the
game-agnostic alternative: a tanh MLP from the whole observation tensor to the masked
action logits and the value (it learns more slowly: about 0.70 against random after 1 M
steps, where the features reach 0.90 in 0.25 M).
Why a policy gradient rather than a learned afterstate value: the vector environment gives
observations and legal masks, not afterstates, so a policy over ``(observation, mask)`` uses
it as it is, with no game copied or stepped in Python.

Every ``--eval-every`` learner steps the greedy policy (argmax of the masked logits) plays
``--eval-games`` games against ``random`` and against ``greedy`` on held-out seeds (the
evaluation environments' seeds are not the training seed); the score (1 win, 1/2 tie) and
its 95% interval go into ``curve.csv`` and ``curve.svg`` (a hand-written SVG) in ``--out``,
with wall and CPU time. Same seed, same curve (the environment's results do not depend on
its thread count; numpy's arithmetic is the same on the same machine).

``--smoke`` runs a few hundred steps (CI checks that it runs and writes its outputs).
"""

import argparse
import csv
import math
import os
import time

import numpy as np

from stickdice.vector import VectorEnv

EVAL_SEED = 1_000_003  # held-out: training uses --seed and --seed + 1


# Issiren's circuit for seat 0 (docs/games/issiren.md): circuit position -> square index
# (row * 12 + column). Seat 1 runs the same loop, so how far apart two squares are along
# the loop does not depend on the seat. Rows 1 and 2 are crossed twice per lap, so a square
# there stands for two positions; the features take both.
_SQUARE = np.array(
    [11 - p for p in range(12)] + [12 + p - 12 for p in range(12, 24)]
    + [24 + 35 - p for p in range(24, 36)] + [36 + p - 36 for p in range(36, 48)]
    + [24 + 59 - p for p in range(48, 60)] + [12 + p - 60 for p in range(60, 72)]
)
_POSITIONS = [np.flatnonzero(_SQUARE == s) for s in range(48)]
_POS_A = np.array([ps[0] for ps in _POSITIONS])
_POS_B = np.array([ps[-1] for ps in _POSITIONS])
_VALUE = np.array([4, 5, 2, 3, 1, 5, 6])  # green sides up -> move
_P_VALUE = np.zeros(7)  # P(a throw moves v)
for _g, _v in enumerate(_VALUE):
    _P_VALUE[_v] += math.comb(6, _g) / 64
# _DEST_x[s, v]: the square v steps on from square s (v = 0: s itself)
_DEST_A = _SQUARE[(_POS_A[:, None] + np.arange(7)[None, :]) % 72]
_DEST_B = _SQUARE[(_POS_B[:, None] + np.arange(7)[None, :]) % 72]
# _REACH[a, b]: the chance that one throw moves a piece on square a onto square b
_REACH = np.zeros((48, 48), np.float32)
for _a in range(48):
    for _v in range(1, 7):
        for _d in (_DEST_A[_a, _v], _DEST_B[_a, _v]):
            _REACH[_a, _d] = max(_REACH[_a, _d], _P_VALUE[_v])
NUM_FEATURES = 9


def features(obs):
    """Per action (the piece on square s) a few numbers read off the observation tensor:
    it captures (either reading of its square), its square and its landing square are
    within an enemy throw, it is unmoved, the row it stands on; shape (N, 48, F)."""
    n = len(obs)
    own, opp, unmoved = obs[:, :48], obs[:, 48:96], obs[:, 96:144]
    g = obs[:, 144:151]
    v = np.where(g.any(axis=1), _VALUE[g.argmax(axis=1)], 0)
    da, db = _DEST_A[:, v].T, _DEST_B[:, v].T  # (N, 48)
    cap_a, cap_b = np.take_along_axis(opp, da, 1), np.take_along_axis(opp, db, 1)
    threat = opp @ _REACH  # (N, 48): enemy throws that reach each square
    f = np.empty((n, 48, NUM_FEATURES), np.float32)
    f[:, :, 0] = np.maximum(cap_a, cap_b)
    f[:, :, 1] = np.minimum(cap_a, cap_b)
    f[:, :, 2] = threat
    f[:, :, 3] = np.maximum(np.take_along_axis(threat, da, 1), np.take_along_axis(threat, db, 1))
    f[:, :, 4] = unmoved
    f[:, :, 5:9] = np.repeat(np.eye(4, dtype=np.float32), 12, axis=0)[None]
    f *= own[:, :, None]
    return f


class FeaturePolicy:
    """logit(piece on s) = w . features(obs)[s] + b[s] (masked); value = obs . wv + bv."""

    def __init__(self, obs_size, num_actions, hidden, rng):
        self.p = {"w": np.zeros(NUM_FEATURES, np.float32), "b": np.zeros(48, np.float32),
                  "wv": np.zeros(obs_size, np.float32), "bv": np.zeros(1, np.float32)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0
        self.num_actions = num_actions

    def forward(self, obs, mask):
        f = features(obs)
        logits = np.zeros(mask.shape, np.float32)
        logits[:, :48] = f @ self.p["w"] + self.p["b"]
        logits = np.where(mask, logits, -1e9)
        return f, logits, obs @ self.p["wv"] + self.p["bv"][0]

    act = None  # set below (shared with Policy)

    def grads(self, f, obs, g_logits, g_value):
        return {"w": np.einsum("nsf,ns->f", f, g_logits[:, :48]), "b": g_logits[:, :48].sum(axis=0),
                "wv": obs.T @ g_value, "bv": np.array([g_value.sum()], np.float32)}


class Policy:
    """obs -> tanh(obs W1 + b1) = h; logits = h W2 + b2 (masked); value = h wv + bv."""

    def __init__(self, obs_size, num_actions, hidden, rng):
        self.p = {
            "W1": (rng.standard_normal((obs_size, hidden)) / math.sqrt(obs_size)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": (rng.standard_normal((hidden, num_actions)) * 0.01).astype(np.float32),
            "b2": np.zeros(num_actions, np.float32),
            "wv": np.zeros(hidden, np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, obs, mask):
        p = self.p
        h = np.tanh(obs @ p["W1"] + p["b1"])
        logits = h @ p["W2"] + p["b2"]
        logits = np.where(mask, logits, -1e9)
        value = h @ p["wv"] + p["bv"][0]
        return h, logits, value

    def act(self, obs, mask, rng=None):
        _, logits, value = self.forward(obs, mask)
        if rng is None:
            a = logits.argmax(axis=1)
        else:  # Gumbel-max: a sample of the masked softmax
            g = rng.gumbel(size=logits.shape).astype(np.float32)
            a = (logits + g).argmax(axis=1)
        return a, value

    def grads(self, h, obs, g_logits, g_value):
        p = self.p
        grads = {"W2": h.T @ g_logits, "b2": g_logits.sum(axis=0), "wv": h.T @ g_value,
                 "bv": np.array([g_value.sum()], np.float32)}
        g_pre = (g_logits @ p["W2"].T + np.outer(g_value, p["wv"])) * (1.0 - h * h)
        grads["W1"] = obs.T @ g_pre
        grads["b1"] = g_pre.sum(axis=0)
        return grads

    def update(self, obs, mask, actions, adv, ret, lr, ent_coef, vf_coef):
        p = self.p
        n = len(actions)
        h, logits, value = self.forward(obs, mask)
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z) * mask
        prob = e / e.sum(axis=1, keepdims=True)
        logp = np.where(mask, z - np.log(e.sum(axis=1, keepdims=True)), 0.0)
        ent = -(prob * logp).sum(axis=1)
        onehot = np.zeros_like(prob)
        onehot[np.arange(n), actions] = 1.0
        g_logits = (-adv[:, None] * (onehot - prob) + ent_coef * prob * (logp + ent[:, None])) / n
        g_value = vf_coef * (value - ret) / n
        grads = self.grads(h, obs, g_logits, g_value)
        # Adam
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            g = g.astype(np.float32)
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1**self.t)
            vh = self.v[k] / (1 - b2**self.t)
            p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return float(ent.mean())


def evaluate(policy, opponent, games, seed):
    """The argmax policy's mean score over ``games`` games (P1) against ``opponent``, each
    game's first episode from ``reset(seed)``; returns (score, 95% half-width)."""
    env = VectorEnv("issiren", games, seed=seed, opponents=opponent)
    obs, info = env.reset()
    score = np.full(games, np.nan)
    while np.isnan(score).any():
        mask = info["legal_action_mask"]
        a, _ = policy.act(obs, mask)
        a = np.where(mask.any(axis=1), a, 0)
        obs, rewards, term, trunc, info = env.step(a)
        done = (term | trunc) & np.isnan(score)
        score[done] = rewards[done, 0]
    mean = float(score.mean())
    half = 1.96 * float(score.std(ddof=1)) / math.sqrt(games) if games > 1 else float("nan")
    return mean, half


def write_svg(path, rows, title):
    w, h, left, right, top, bottom = 640, 400, 60, 20, 40, 50
    xmax = max(r["steps"] for r in rows) or 1
    px = lambda x: left + (w - left - right) * x / xmax  # noqa: E731
    py = lambda y: top + (h - top - bottom) * (1.0 - y)  # noqa: E731
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
    ]
    for y in (0.0, 0.25, 0.5, 0.75, 0.9, 1.0):
        dash = ' stroke-dasharray="4 3"' if y == 0.9 else ""
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#ccc"{dash}/>')
        out.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:g}</text>')
    for i in range(6):
        x = xmax * i / 5
        out.append(f'<text x="{px(x):.1f}" y="{h - bottom + 16}" text-anchor="middle">{x / 1e6:.2g}M</text>')
    out.append(f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">learner steps (decisions)</text>')
    out.append(
        f'<text x="14" y="{h / 2}" text-anchor="middle" transform="rotate(-90 14 {h / 2})">score of P1 (95% interval)</text>'
    )
    switch = [r["steps"] for r in rows if r["phase"] == "greedy"]
    if switch:
        s = min(switch)
        out.append(f'<line x1="{px(s):.1f}" x2="{px(s):.1f}" y1="{top}" y2="{h - bottom}" stroke="#999"/>')
        out.append(f'<text x="{px(s) + 4:.1f}" y="{top + 12}">vs greedy from here</text>')
    for key, colour, label in (("random", "#1f77b4", "against random"), ("greedy", "#d62728", "against greedy")):
        pts = [(px(r["steps"]), py(r[f"score_{key}"]), py(r[f"score_{key}"] - r[f"half_{key}"]),
                py(r[f"score_{key}"] + r[f"half_{key}"])) for r in rows]
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                   + " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in pts) + '"/>')
        for x, _, lo, hi in pts:
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{lo:.1f}" y2="{hi:.1f}" stroke="{colour}"/>')
        ly = top + 30 + (0 if key == "random" else 16)
        out.append(f'<line x1="{w - 170}" x2="{w - 150}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{w - 145}" y="{ly}">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--rollout", type=int, default=16, help="steps per update")
    ap.add_argument("--policy", choices=["features", "mlp"], default="features")
    ap.add_argument("--hidden", type=int, default=64, help="the MLP's hidden layer")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--random-steps", type=int, default=1_500_000, help="learner steps against random")
    ap.add_argument("--greedy-steps", type=int, default=500_000, help="then against greedy")
    ap.add_argument("--eval-every", type=int, default=250_000)
    ap.add_argument("--eval-games", type=int, default=300)
    ap.add_argument("--out", default="target/train_issiren")
    ap.add_argument("--smoke", action="store_true", help="a few hundred steps (CI)")
    args = ap.parse_args()
    if args.smoke:
        args.num_envs, args.rollout = 16, 8
        args.random_steps = args.greedy_steps = 256
        args.eval_every, args.eval_games = 256, 8
    os.makedirs(args.out, exist_ok=True)

    rng = np.random.default_rng(args.seed)
    probe = VectorEnv("issiren", 1, opponents="random")
    policy = (FeaturePolicy if args.policy == "features" else Policy)(probe.observation_size, probe.num_actions, args.hidden, rng)
    n, T = args.num_envs, args.rollout
    rows = []
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()

    def checkpoint(phase):
        sr, hr = evaluate(policy, "random", args.eval_games, EVAL_SEED)
        sg, hg = evaluate(policy, "greedy", args.eval_games, EVAL_SEED + 1)
        row = {"steps": steps, "phase": phase, "wall_s": time.perf_counter() - wall0,
               "cpu_s": time.process_time() - cpu0, "score_random": sr, "half_random": hr,
               "score_greedy": sg, "half_greedy": hg}
        rows.append(row)
        print(f"{steps:>10} steps  {row['wall_s']:7.1f} s wall  {row['cpu_s']:7.1f} s cpu  "
              f"vs random {sr:.3f} ± {hr:.3f}  vs greedy {sg:.3f} ± {hg:.3f}", flush=True)

    checkpoint("random")
    next_eval = args.eval_every
    for phase, budget, train_seed in (("random", args.random_steps, args.seed),
                                      ("greedy", args.greedy_steps, args.seed + 1)):
        env = VectorEnv("issiren", n, seed=train_seed, opponents=phase)
        obs, info = env.reset()
        end = steps + budget
        obs_b = np.zeros((T, n, env.observation_size), np.float32)
        mask_b = np.zeros((T, n, env.num_actions), bool)
        act_b = np.zeros((T, n), np.int64)
        rew_b = np.zeros((T, n), np.float32)
        done_b = np.zeros((T, n), bool)
        val_b = np.zeros((T, n), np.float32)
        while steps < end:
            for t in range(T):
                mask = info["legal_action_mask"]
                a, v = policy.act(obs, mask, rng)
                obs_b[t], mask_b[t], act_b[t], val_b[t] = obs, mask, a, v
                obs, rewards, term, trunc, info = env.step(a)
                rew_b[t] = rewards[:, 0]
                done_b[t] = term | trunc
            valid = mask_b.any(axis=2)
            steps += int(valid.sum())
            _, last_v = policy.act(obs, info["legal_action_mask"])
            last_v = np.where(info["legal_action_mask"].any(axis=1), last_v, 0.0)
            adv = np.zeros((T, n), np.float32)
            gae = np.zeros(n, np.float32)
            for t in reversed(range(T)):
                nxt = last_v if t == T - 1 else val_b[t + 1]
                nonterminal = ~done_b[t]
                delta = rew_b[t] + nonterminal * nxt - val_b[t]
                gae = delta + 0.95 * nonterminal * gae
                adv[t] = gae
            ret = adv + val_b
            sel = valid.reshape(-1)
            a_flat = adv.reshape(-1)[sel]
            a_flat = (a_flat - a_flat.mean()) / (a_flat.std() + 1e-8)
            policy.update(obs_b.reshape(T * n, -1)[sel], mask_b.reshape(T * n, -1)[sel],
                          act_b.reshape(-1)[sel], a_flat, ret.reshape(-1)[sel],
                          args.lr, args.ent_coef, 0.5)
            if steps >= next_eval:
                checkpoint(phase)
                next_eval += args.eval_every
        if rows[-1]["steps"] != steps:
            checkpoint(phase)

    with open(os.path.join(args.out, "curve.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    write_svg(os.path.join(args.out, "curve.svg"), rows,
              f"Issiren: A2C (numpy MLP {args.hidden}) with stickdice.vector, seed {args.seed}")
    np.savez(os.path.join(args.out, "policy.npz"), **policy.p)
    print(f"wrote {args.out}/curve.csv, curve.svg, policy.npz; "
          f"{time.perf_counter() - wall0:.1f} s wall, {time.process_time() - cpu0:.1f} s cpu")


FeaturePolicy.act = Policy.act
FeaturePolicy.update = Policy.update

if __name__ == "__main__":
    main()
