#!/usr/bin/env python3
"""Builds the side-by-side tables of docs/compare-ludii.md from the raw outputs in docs/data/ludii/:
Ludii's (<game>.tsv, written by scripts/ludii-metrics.sh) and ours (stickdice-random-2p.csv,
written by `stickdice compare ... --out`). Prints Markdown; standard library only.

    python3 scripts/ludii/side_by_side.py [docs/data/ludii]
"""
import csv
import os
import sys

# Our metric name -> (Ludii's concept name, Ludii's file under Evaluation/src/metrics/).
METRICS = [
    ("AdvantageP1", "AdvantageP1", "single/outcome/AdvantageP1.java"),
    ("Balance", "Balance", "single/outcome/Balance.java"),
    ("Completion", "Completion", "single/outcome/Completion.java"),
    ("Drawishness", "Drawishness", "single/outcome/Drawishness.java"),
    ("Timeouts", "Timeouts", "single/outcome/Timeouts.java"),
    ("OutcomeUniformity", "OutcomeUniformity", "single/outcome/OutcomeUniformity.java"),
    ("DurationActions", "DurationActions", "single/duration/DurationActions.java"),
    ("DurationMoves", "DurationMoves", "single/duration/DurationMoves.java"),
    ("DurationTurns", "DurationTurns", "single/duration/DurationTurns.java"),
    ("DurationTurnsStdDev", "DurationTurnsStdDev", "single/duration/DurationTurnsStdDev.java"),
    ("DurationTurnsNotTimeouts", "DurationTurnsNotTimeouts", "single/duration/DurationTurnsNotTimeouts.java"),
    ("BranchingFactor", "BranchingFactorAverage", "multiple/metrics/BranchingFactor.java"),
    ("DecisionFactor", "DecisionFactorAverage", "multiple/metrics/DecisionFactor.java"),
    ("DecisionMoves", "DecisionMoves", "single/complexity/DecisionMoves.java"),
    ("GameTreeComplexity", "GameTreeComplexity", "single/complexity/GameTreeComplexity.java"),
    ("StateSpaceComplexity", "StateTreeComplexity", "single/complexity/StateSpaceComplexity.java"),
    ("Drama", "DramaAverage", "multiple/metrics/Drama.java"),
    ("LeadChange", "LeadChange", "single/stateEvaluation/LeadChange.java"),
    ("Stability", "Stability", "single/stateEvaluation/Stability.java"),
    ("ClarityNarrowness", "Narrowness", "single/stateEvaluation/clarity/ClarityNarrowness.java"),
    ("ClarityVariance", "Variance", "single/stateEvaluation/clarity/ClarityVariance.java"),
    ("DecisivenessMoves", "DecisivenessMoves", "single/stateEvaluation/decisiveness/DecisivenessMoves.java"),
    ("DecisivenessThreshold", "DecisivenessThreshold", "single/stateEvaluation/decisiveness/DecisivenessThreshold.java"),
    ("MoveDistance", "MoveDistanceAverage", "multiple/metrics/MoveDistance.java"),
    ("PieceNumber", "PieceNumberAverage", "multiple/metrics/PieceNumber.java"),
    ("ScoreDifference", "ScoreDifferenceAverage", "multiple/metrics/ScoreDifference.java"),
    ("BoardCoverage", "BoardCoverageDefault", "single/boardCoverage/BoardCoverageDefault.java"),
]


def ludii(path):
    values, head = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                parts = line[2:].split("\t")
                head[parts[0]] = parts[1:]
            elif "\t" in line and not line.startswith("metric\t"):
                name, concept, applied, incremental, trials = line.split("\t")
                v = incremental if incremental != "-" else applied
                values[concept] = (v, int(trials))
    return head, values


def ours(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows[(r["game"], r["metric"])] = r
    return rows


def fmt(x):
    try:
        v = float(x)
    except ValueError:
        return x
    if v != v:
        return "NaN"
    if abs(v) < 5e-13:
        v = 0.0
    a = abs(v)
    if a >= 100:
        return f"{v:.1f}"
    if a >= 10:
        return f"{v:.2f}"
    return f"{v:.3f}"


def our_cell(r):
    if r is None or r["value"] == "":
        return "—"
    if r["exact"] == "true":
        return f"{fmt(r['value'])} exact"
    return f"{fmt(r['value'])} ± {fmt(r['ci95'])}"


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "docs/data/ludii"
    us = ours(os.path.join(d, "stickdice-random-2p.csv"))
    for game in ["sig-wa-duqqan", "sig-el-oued", "sig-wa-duqqan-houmt-taourit", "siryu-race",
                 "sig-el-oued-capture", "siryu-war", "issiren"]:
        p = os.path.join(d, game + ".tsv")
        if not os.path.exists(p):
            continue
        head, lv = ludii(p)
        played = head.get("played", ["?"])[0]
        limit = head.get("trials at the turn or move limit", ["?"])[0]
        print(f"### {game}\n")
        print(f"Ludii: {played}; at the turn or move limit: {limit}.\n")
        print("| metric | ours | Ludii | Ludii's file |")
        print("|---|---|---|---|")
        for our_name, concept, path in METRICS:
            lval = lv.get(concept)
            lcell = "—" if lval is None else f"{fmt(lval[0])}" + (f" ({lval[1]})" if concept in EVAL else "")
            print(f"| {our_name} | {our_cell(us.get((game, our_name)))} | {lcell} | `{path}` |")
        r = us.get((game, "DurationThrows"))
        print(f"| DurationThrows (ours only) | {our_cell(r)} | — | — |")
        print()


EVAL = {"DramaAverage", "LeadChange", "Stability", "Narrowness", "Variance", "DecisivenessMoves",
        "DecisivenessThreshold"}

if __name__ == "__main__":
    main()
