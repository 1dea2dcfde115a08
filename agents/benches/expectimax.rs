//! Expectimax on Issiren: nodes per second from the opening, the middle game and the
//! endgame, and the nodes Star1 and Star2 visit against plain expectimax at depths 1–5.
//!
//! `cargo bench -p stickdice-agents --bench expectimax`. The node counts are printed first
//! (they do not depend on the machine); criterion then times the searches and reports
//! nodes per second as its throughput ("elem/s"). Targets (issue 3): at least 5 million
//! nodes per second on one core; Star2 visiting at most half of plain expectimax's nodes
//! at depth 5.

use criterion::{Criterion, Throughput};
use rand::{RngExt as _, SeedableRng};
use stickdice::{ActionList, Game, Issiren, Node};
use stickdice_agents::{Expectimax, ExpectimaxConfig, Pruning};

/// A decision reached by seeded random play that satisfies `want`.
fn position(
    g: &Issiren,
    seed: u64,
    want: impl Fn(&<Issiren as Game>::State, usize) -> bool,
) -> <Issiren as Game>::State {
    for attempt in 0.. {
        let mut rng = stickdice::Rng::seed_from_u64(seed * 1000 + attempt);
        let mut s = g.initial_state();
        let mut legal = ActionList::new();
        loop {
            match g.node(&s) {
                Node::End => break,
                Node::Throw(_) => {
                    let t = g.sample_throw(&mut rng);
                    g.apply_throw_unchecked(&mut s, t);
                }
                Node::Decide(_) => {
                    g.legal_actions(&s, &mut legal);
                    if want(&s, legal.len()) {
                        return s;
                    }
                    let a = legal[rng.random_range(0..legal.len())];
                    g.apply_action_unchecked(&mut s, a);
                }
            }
        }
    }
    unreachable!()
}

type Pos = <Issiren as Game>::State;

fn phases(g: &Issiren, seed: u64) -> [(&'static str, Pos); 3] {
    let pieces = |s: &Pos| s.count()[0] as usize + s.count()[1] as usize;
    [
        (
            "opening",
            position(g, seed, |s, n| s.throws() >= 8 && n >= 2),
        ),
        (
            "middle",
            position(g, seed, |s, n| {
                s.throws() >= 80 && n >= 4 && pieces(s) >= 16
            }),
        ),
        (
            "endgame",
            position(g, seed, |s, n| n >= 2 && pieces(s) <= 8),
        ),
    ]
}

fn config(pruning: Pruning, tt: bool) -> ExpectimaxConfig {
    ExpectimaxConfig {
        pruning,
        tt,
        ..ExpectimaxConfig::default()
    }
}

/// Prints the nodes each pruning visits, summed over opening, middle and endgame positions
/// from several seeds, and checks that every pruning returns plain expectimax's value.
fn node_counts(g: &Issiren) {
    let positions: Vec<Pos> = (1..=4)
        .flat_map(|seed| phases(g, seed).map(|p| p.1))
        .collect();
    println!(
        "Issiren, {} positions (opening, middle, endgame x 4 seeds): nodes visited",
        positions.len()
    );
    for tt in [false, true] {
        println!("transposition table: {tt}");
        println!("depth       plain       star1       star2   star1/plain star2/plain");
        for depth in 1..=5 {
            let mut totals = [0u64; 3];
            for s in &positions {
                let mut value = None;
                for (k, pruning) in [Pruning::None, Pruning::Star1, Pruning::Star2]
                    .into_iter()
                    .enumerate()
                {
                    let r = Expectimax::<Issiren>::new(config(pruning, tt), 0)
                        .search(g, s, depth)
                        .expect("a decision");
                    totals[k] += r.nodes;
                    match value {
                        None => value = Some(r.value),
                        Some(v) => assert_eq!(v, r.value, "{pruning:?} changed the value"),
                    }
                }
            }
            println!(
                "{depth:5} {:11} {:11} {:11}   {:11.3} {:11.3}",
                totals[0],
                totals[1],
                totals[2],
                totals[1] as f64 / totals[0] as f64,
                totals[2] as f64 / totals[0] as f64
            );
        }
    }
}

fn speed(c: &mut Criterion, g: &Issiren) {
    for (phase, s) in phases(g, 1) {
        let mut group = c.benchmark_group(format!("expectimax-issiren/{phase}"));
        for (label, cfg, depth) in [
            ("plain-d3", config(Pruning::None, false), 3),
            ("star2-d4", config(Pruning::Star2, false), 4),
            ("star2-tt-d4", config(Pruning::Star2, true), 4),
        ] {
            let nodes = Expectimax::<Issiren>::new(cfg, 0)
                .search(g, &s, depth)
                .expect("a decision")
                .nodes;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{label} ({nodes} nodes)"), |b| {
                b.iter(|| {
                    // A fresh search each time: the table starts empty, as counted.
                    let mut x = Expectimax::<Issiren>::new(cfg, 0);
                    let r = x.search(g, &s, depth).expect("a decision");
                    assert_eq!(r.nodes, nodes);
                    r.value
                })
            });
        }
        group.finish();
    }
}

fn main() {
    let g = Issiren::with_seats(2).expect("two seats");
    node_counts(&g);
    let mut c = Criterion::default().sample_size(10).configure_from_args();
    speed(&mut c, &g);
    c.final_summary();
}
