//! One played game, measured for the comparison: its outcome, lengths, branching, board
//! figures and — where the game has a state evaluation — the figures built on it.

use std::collections::HashSet;

use stickdice::play::Event;
use stickdice::{ActionList, Board, SeatValues};
use stickdice_agents::solve::Exact;
use stickdice_agents::solve::SharedSolution;

use crate::analysis::{measure_game, Measure};
use crate::arena::GameResult;

/// Where the state evaluation comes from.
pub(crate) enum Values<G: Exact> {
    /// The solved values (expected score under solved play, throw cap lifted).
    Exact(SharedSolution<G>),
    /// The game's own evaluation ([`stickdice_agents::Evaluate::evaluate`]).
    Heuristic,
    /// No evaluation: the figures that need one are not given.
    None,
}

impl<G: Exact + stickdice_agents::Evaluate> Values<G> {
    /// Every seat's value of `state`: the final scores once the game is over.
    pub(crate) fn of(&self, game: &G, state: &G::State) -> Option<SeatValues> {
        if let Some(s) = game.scores(state) {
            return Some(s);
        }
        match self {
            Values::Exact(sol) => sol.expected_scores(state),
            Values::Heuristic => Some(game.evaluate(state)),
            Values::None => None,
        }
    }

    pub(crate) fn available(&self) -> bool {
        !matches!(self, Values::None)
    }

    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Values::Exact(_) => "exact solved values",
            Values::Heuristic => "the game's evaluation",
            Values::None => "none",
        }
    }
}

/// One game's figures (one trial, in Ludii's words).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Trial {
    /// Each seat's score: Ludii's partial win `w` (1 = beat every other seat, ties half).
    pub scores: Vec<f64>,
    /// The seats ranked first (several on a tie).
    pub winners: Vec<usize>,
    /// Ended at the throw cap.
    pub capped: bool,
    /// An agent failed.
    pub failed: bool,
    pub throws: u32,
    pub decisions: u32,
    pub turns: u32,
    /// Mean legal actions over the decision nodes (`None` without decisions).
    pub branching: Option<f64>,
    /// Mean legal actions over the decision nodes with more than one (0 without any).
    pub decision_factor: Option<f64>,
    /// The share of decision nodes with more than one legal action (0 without decisions).
    pub decision_moves: f64,
    /// Ludii's game-tree complexity: `M · log10(mean branching)` over the decisions.
    pub tree_log10: f64,
    /// Ours: Σ log10 of the branching at every node met, throw outcomes at chance nodes.
    pub tree_chance_log10: f64,
    /// The board and evaluation figures (the first games only).
    pub detail: Option<Detail>,
}

impl Trial {
    /// The seat that ranks first alone, if one does and the game ended by the rules.
    pub fn sole_winner(&self) -> Option<usize> {
        (self.winners.len() == 1 && !self.capped && !self.failed).then(|| self.winners[0])
    }
}

/// The figures that need the board or a state evaluation (measured on the first games).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Detail {
    pub pieces: f64,
    pub coverage: f64,
    pub move_distance: Option<f64>,
    pub drama: Option<f64>,
    pub lead_change: Option<f64>,
    pub stability: Option<f64>,
    pub decisiveness_moves: Option<f64>,
    pub decisiveness_threshold: Option<f64>,
    pub clarity_narrowness: Option<f64>,
    pub clarity_variance: Option<f64>,
    /// The state keys met (for the lower bound of the state space).
    pub keys: Vec<u64>,
}

/// Measures one played game; `values` adds the board and evaluation figures.
pub(crate) fn trial<G>(game: &G, result: &GameResult<G>, values: Option<&Values<G>>) -> Trial
where
    G: Measure + Board + Exact + stickdice_agents::Evaluate,
{
    let m = measure_game(game, result);
    let seats = game.seats();
    let winners: Vec<usize> = (0..seats)
        .filter(|&s| result.ranking.place(s) == 0)
        .collect();
    let mut t = Trial {
        scores: m.scores.clone(),
        winners,
        capped: m.capped,
        failed: m.failed,
        throws: m.throws,
        decisions: m.decisions,
        turns: m.turns,
        ..Trial::default()
    };
    let outcomes = game
        .throw_outcomes()
        .iter()
        .filter(|o| o.probability > 0.0)
        .count()
        .max(1) as f64;
    let mut state = game.initial_state();
    let mut legal = ActionList::new();
    let (mut decisions, mut options, mut multi, mut multi_options) = (0u64, 0u64, 0u64, 0u64);
    let mut tree = 0.0;
    for event in &result.events {
        match *event {
            Event::Throw(_, th) => {
                tree += outcomes.log10();
                game.apply_throw_unchecked(&mut state, th);
            }
            Event::Action(_, a) => {
                game.legal_actions(&state, &mut legal);
                let n = legal.len() as u64;
                decisions += 1;
                options += n;
                if n > 1 {
                    multi += 1;
                    multi_options += n;
                }
                tree += (n.max(1) as f64).log10();
                game.apply_action_unchecked(&mut state, a);
            }
        }
    }
    if decisions > 0 {
        let mean = options as f64 / decisions as f64;
        t.branching = Some(mean);
        t.decision_moves = multi as f64 / decisions as f64;
        t.decision_factor = Some(if multi > 0 {
            multi_options as f64 / multi as f64
        } else {
            0.0
        });
        t.tree_log10 = decisions as f64 * mean.log10();
    }
    t.tree_chance_log10 = tree;
    if let Some(values) = values {
        t.detail = Some(detail(game, result, values, &t.winners));
    }
    t
}

/// Ludii's evaluation scale: `e = 2·V − 1` in `[−1, 1]` from a seat's value `V` in `[0, 1]`.
fn ludii_scale(v: &SeatValues, seats: usize) -> Vec<f64> {
    v[..seats].iter().map(|x| 2.0 * x - 1.0).collect()
}

fn detail<G>(game: &G, result: &GameResult<G>, values: &Values<G>, winners: &[usize]) -> Detail
where
    G: Measure + Board + Exact + stickdice_agents::Evaluate,
{
    let seats = game.seats();
    let geometry = game.geometry();
    let squares = geometry.squares.len().max(1);
    let steps = adjacency_distances(&geometry);
    let mut covered = HashSet::new();
    let mut state = game.initial_state();
    let mut piece_counts = Vec::new();
    let mut distances = Vec::new();
    let mut keys = vec![game.state_key(&state)];
    // e at each decision node (the state before the action), Ludii's scale.
    let mut evals: Vec<Vec<f64>> = Vec::new();
    let mut narrow = Vec::new();
    let mut variance = Vec::new();
    let mut legal = ActionList::new();
    let occupied = |s: &G::State| -> Vec<(Option<usize>, usize)> {
        game.pieces(s)
            .into_iter()
            .filter_map(|p| p.square.map(|q| (p.seat, q)))
            .collect()
    };
    let mut before = occupied(&state);
    for &(_, q) in &before {
        covered.insert(q);
    }
    piece_counts.push(before.len() as f64);
    let mut complete = values.available();
    for event in &result.events {
        let mover = match *event {
            Event::Throw(s, th) => {
                game.apply_throw_unchecked(&mut state, th);
                s
            }
            Event::Action(s, a) => {
                if complete {
                    match values.of(game, &state) {
                        Some(v) => evals.push(ludii_scale(&v, seats)),
                        None => complete = false,
                    }
                    game.legal_actions(&state, &mut legal);
                    let vs: Vec<f64> = legal
                        .iter()
                        .filter_map(|&b| {
                            let mut child = state;
                            game.apply_action_unchecked(&mut child, b);
                            values.of(game, &child).map(|v| 2.0 * v[s] - 1.0)
                        })
                        .collect();
                    if vs.len() == legal.len() {
                        narrow.push(clarity_narrowness(&vs));
                        variance.push(sample_variance(&vs));
                    } else {
                        complete = false;
                    }
                }
                game.apply_action_unchecked(&mut state, a);
                s
            }
        };
        let after = occupied(&state);
        for &(_, q) in &after {
            covered.insert(q);
        }
        if let Some(d) = board_distance(&steps, &before, &after, mover) {
            distances.push(d);
        }
        piece_counts.push(after.len() as f64);
        keys.push(game.state_key(&state));
        before = after;
    }
    let mean = |xs: &[f64]| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
    keys.sort_unstable();
    keys.dedup();
    let mut d = Detail {
        pieces: mean(&piece_counts).unwrap_or(0.0),
        coverage: covered.len() as f64 / squares as f64,
        move_distance: mean(&distances),
        keys,
        ..Detail::default()
    };
    if complete && !evals.is_empty() {
        d.clarity_narrowness = mean(&narrow);
        d.clarity_variance = mean(&variance);
        d.stability = Some(stability(&evals));
        d.lead_change = Some(lead_change(&evals));
        d.drama = Some(drama(&evals, winners));
        let (threshold, share) = decisiveness(&evals, winners);
        d.decisiveness_threshold = Some(threshold);
        d.decisiveness_moves = Some(share);
    }
    d
}

/// Ludii's MoveDistance (`Evaluation/src/metrics/multiple/metrics/MoveDistance.java`) for
/// one move: the distance over the board's adjacency between the square the mover's piece
/// left and the one it reached, when exactly one of its pieces moved from one board square
/// to another (Ludii: a move whose `from` and `to` are distinct sites of the board); `None`
/// otherwise (entering from off the board, several pieces moved) or when no path joins the
/// two squares.
pub(crate) fn board_distance(
    steps: &[Vec<Option<u32>>],
    before: &[(Option<usize>, usize)],
    after: &[(Option<usize>, usize)],
    mover: usize,
) -> Option<f64> {
    let mine = |v: &[(Option<usize>, usize)]| -> Vec<usize> {
        let mut s: Vec<usize> = v
            .iter()
            .filter(|(o, _)| *o == Some(mover))
            .map(|&(_, q)| q)
            .collect();
        s.sort_unstable();
        s
    };
    let (b, a) = (mine(before), mine(after));
    let left = multiset_minus(&b, &a);
    let reached = multiset_minus(&a, &b);
    if left.len() != 1 || reached.len() != 1 {
        return None;
    }
    steps
        .get(left[0])?
        .get(reached[0])
        .copied()
        .flatten()
        .map(f64::from)
}

/// The fewest steps between every two squares of the board, a step joining two squares
/// whose cells share an edge: Ludii's distances over `RelationType.Adjacent` for cells
/// (`Topology.preGenerateDistanceToEachElementToEachOther(SiteType.Cell,
/// RelationType.Adjacent)`, which MoveDistance reads), here on the game's own drawing of its
/// board ([`stickdice::BoardGeometry`]). `None` where no path joins two squares.
pub(crate) fn adjacency_distances(geometry: &stickdice::BoardGeometry) -> Vec<Vec<Option<u32>>> {
    let sq = &geometry.squares;
    let n = sq.len();
    let touching = |i: usize, j: usize| {
        let (dx, dy) = ((sq[i].x - sq[j].x).abs(), (sq[i].y - sq[j].y).abs());
        (dx < 1e-6 && (dy - 1.0).abs() < 1e-6) || (dy < 1e-6 && (dx - 1.0).abs() < 1e-6)
    };
    let neighbours: Vec<Vec<usize>> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i && touching(i, j)).collect())
        .collect();
    (0..n)
        .map(|from| {
            let mut dist = vec![None; n];
            dist[from] = Some(0u32);
            let mut queue = std::collections::VecDeque::from([from]);
            while let Some(i) = queue.pop_front() {
                let d = dist[i].unwrap_or(0) + 1;
                for &j in &neighbours[i] {
                    if dist[j].is_none() {
                        dist[j] = Some(d);
                        queue.push_back(j);
                    }
                }
            }
            dist
        })
        .collect()
}

fn multiset_minus(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j < b.len() && b[j] == x {
            j += 1;
        } else {
            out.push(x);
        }
    }
    out
}

/// Ludii's ClarityNarrowness at one state: the share of legal moves whose value exceeds
/// `mean + 0.75·(max − mean)`.
pub(crate) fn clarity_narrowness(vs: &[f64]) -> f64 {
    let n = vs.len() as f64;
    let mean = vs.iter().sum::<f64>() / n;
    let max = vs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let threshold = mean + 0.75 * (max - mean);
    vs.iter().filter(|&&v| v > threshold + 1e-12).count() as f64 / n
}

/// The population variance (divided by n): Ludii's Stability and DurationTurnsStdDev.
pub(crate) fn population_variance(vs: &[f64]) -> f64 {
    let n = vs.len() as f64;
    let mean = vs.iter().sum::<f64>() / n;
    vs.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n
}

/// The sample variance (divided by n − 1; 0 for fewer than two values), as Ludii's
/// `Stats.varn()` (`Common/src/main/math/statistics/Stats.java`), which OutcomeUniformity and
/// ClarityVariance use.
pub(crate) fn sample_variance(vs: &[f64]) -> f64 {
    let n = vs.len();
    if n < 2 {
        return 0.0;
    }
    let mean = vs.iter().sum::<f64>() / n as f64;
    vs.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64
}

/// Ludii's Stability for one game (`Stability.java`): each seat's population variance of
/// its evaluation over the decision nodes, **summed** over the seats.
pub(crate) fn stability(evals: &[Vec<f64>]) -> f64 {
    let seats = evals[0].len();
    (0..seats)
        .map(|s| population_variance(&evals.iter().map(|v| v[s]).collect::<Vec<_>>()))
        .sum()
}

/// The seats with the highest evaluation (within 1e-9).
fn leaders(v: &[f64]) -> Vec<usize> {
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (0..v.len()).filter(|&s| v[s] >= max - 1e-9).collect()
}

/// Ludii's LeadChange for one game (`LeadChange.java`): the decision nodes whose set of
/// leaders differs from the one before (the first always counts, as in Ludii), over the
/// decision nodes.
pub(crate) fn lead_change(evals: &[Vec<f64>]) -> f64 {
    let mut previous: Vec<usize> = Vec::new();
    let mut changes = 0;
    for v in evals {
        let l = leaders(v);
        if l != previous {
            changes += 1;
        }
        previous = l;
    }
    changes as f64 / evals.len() as f64
}

/// Ludii's Drama, Average aggregate, for one game (`Drama.java`, the intended definition
/// with the winners of the game's final ranking): the mean over the decision nodes of how
/// far the winners' evaluations lie below the highest one.
pub(crate) fn drama(evals: &[Vec<f64>], winners: &[usize]) -> f64 {
    let total: f64 = evals
        .iter()
        .map(|v| {
            let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            winners.iter().map(|&w| max - v[w]).sum::<f64>() / winners.len() as f64
        })
        .sum();
    total / evals.len() as f64
}

/// Ludii's DecisivenessThreshold (the highest evaluation any seat but the winners reached
/// at a decision node, from −1) and DecisivenessMoves (the index of the first decision
/// node at which a winner's evaluation exceeds it, over the decision nodes; 1 if never),
/// the intended definitions (`DecisivenessThreshold.java`, `DecisivenessMoves.java`).
pub(crate) fn decisiveness(evals: &[Vec<f64>], winners: &[usize]) -> (f64, f64) {
    let threshold = evals
        .iter()
        .flat_map(|v| {
            (0..v.len())
                .filter(|s| !winners.contains(s))
                .map(move |s| v[s])
        })
        .fold(-1.0f64, f64::max);
    let first = evals
        .iter()
        .position(|v| winners.iter().any(|&w| v[w] > threshold))
        .unwrap_or(evals.len());
    (threshold, first as f64 / evals.len() as f64)
}
