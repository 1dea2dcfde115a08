//! Analysis of a game under its rule options: exact figures from the solver where the game
//! is solvable, and simulation with 95% intervals everywhere (the `stickdice analyze`
//! command).
//!
//! * [`Measure`]: what the analysis needs to know of each game beyond [`Game`]: where a
//!   turn starts, and what a throw or action captures or buries.
//! * [`measure_game`]: one played game ([`crate::arena::GameResult`]) replayed and measured.
//! * [`SelfPlay`], [`Skill`], [`ExactSummary`], [`Agreement`]: the figures, each built from
//!   plain data so it can be checked by hand.
//! * [`length_histogram_svg`]: the histogram of game lengths, as a hand-written SVG.
//!
//! # What the figures mean
//!
//! * **Seat advantage**: each seat's chance of ranking first and its mean score (1 = beat
//!   every other seat, ties half; see [`stickdice::Ranking::score`]). Exact (solved play,
//!   throw cap lifted) where the solver handles the game, and estimated from self-play
//!   with a 95% interval always.
//! * **Length**: throws per game (every throw counts, bonus and extra throws included) and
//!   turns per game (a turn is one seat's throws until the turn passes); mean, median and
//!   90th percentile (nearest rank).
//! * **Decisions**: the share of decision nodes with more than one legal action, and the
//!   mean number of legal actions at those nodes.
//! * **Captures and burials per game**: pieces sent back to the start or removed by an
//!   opponent (Sig (El Oued), Issiren, Sig (El Oued Capture), Siryu (War)) or sent back by
//!   passing (Siryu (Race)), and pieces buried by the Ghoula (Sig wa Duqqan, both versions).
//! * **Cap rate**: the share of games that ended at the throw cap rather than by the rules.
//! * **Skill gap**: an agent's mean score when it plays one seat and every other seat plays
//!   `random`, over games with the agent rotated through every seat on the same throws
//!   (duplicate dice). Random play scores 0.5 on average, so the gap is `score − 0.5`.

use std::fmt::Write as _;

use serde::Serialize;
use stickdice::games::{
    houmt_taourit, issiren, sig_el_oued, sig_el_oued_capture, sig_wa_duqqan, siryu_race, siryu_war,
};
use stickdice::games::{HoumtTaourit, SiryuRace};
use stickdice::play::Event;
use stickdice::{
    ActionList, Game, Issiren, Node, Seat, SigElOued, SigElOuedCapture, SigWaDuqqan, SiryuWar,
    Throw,
};
use stickdice_agents::solve::{Exact, Solution};

use crate::arena::GameResult;
use crate::chart;
use crate::stats::{Distribution, Estimate};

/// What the analysis needs to know of a game beyond [`Game`].
pub trait Measure: Game {
    /// Whether the throw due in `before` starts a new turn, given the game's previous throw
    /// and the seat that made it (`None` for the first).
    fn starts_turn(&self, before: &Self::State, previous: Option<(Seat, Throw)>) -> bool;

    /// The opponent pieces sent back to the start or removed between `before` and `after`
    /// (one throw or one action).
    fn captures(&self, before: &Self::State, after: &Self::State) -> u32;

    /// The pieces buried between `before` and `after`.
    fn burials(&self, _before: &Self::State, _after: &Self::State) -> u32 {
        0
    }

    /// Whether the game, with its rule options, captures at all ([`Measure::captures`] can
    /// be other than 0): a report leaves the figure out where it is 0 by the rules.
    fn counts_captures(&self) -> bool {
        true
    }

    /// Whether the game buries pieces at all ([`Measure::burials`] can be other than 0).
    const BURIALS: bool = false;

    /// Whether the game has measures of its own (the `measure` part of what a game
    /// offers); false for the fallback the games without them get.
    const MEASURED: bool = true;
}

impl Measure for SigWaDuqqan {
    const BURIALS: bool = true;

    fn counts_captures(&self) -> bool {
        false
    }

    /// A 6, a sig or a 4 (0, 1 or 4 white sides up) keeps the turn.
    fn starts_turn(&self, _before: &Self::State, previous: Option<(Seat, Throw)>) -> bool {
        !matches!(previous.map(|(_, t)| t.marked()), Some(0 | 1 | 4))
    }

    fn captures(&self, _before: &Self::State, _after: &Self::State) -> u32 {
        0
    }

    fn burials(&self, before: &Self::State, after: &Self::State) -> u32 {
        let buried = |s: &sig_wa_duqqan::State| {
            s.pieces()[..self.seats()]
                .iter()
                .filter(|p| matches!(p, sig_wa_duqqan::Piece::Buried(_)))
                .count() as u32
        };
        buried(after).saturating_sub(buried(before))
    }
}

impl Measure for SigElOued {
    /// A turn starts where its first throw is due (bonus throws belong to it).
    fn starts_turn(&self, before: &Self::State, _previous: Option<(Seat, Throw)>) -> bool {
        before.pending() == sig_el_oued::Pending::FirstThrow
    }

    /// Pieces of seats other than the mover that went back to the start.
    fn captures(&self, before: &Self::State, after: &Self::State) -> u32 {
        let mover = before.turn() as usize;
        let on_start = |s: &sig_el_oued::State, seat: usize| {
            s.pieces()[seat]
                .iter()
                .filter(|&&p| p == sig_el_oued::START)
                .count() as u32
        };
        (0..self.seats())
            .filter(|&s| s != mover)
            .map(|s| on_start(after, s).saturating_sub(on_start(before, s)))
            .sum()
    }
}

impl Measure for Issiren {
    /// A throw of 0, 1, 4 or 6 green sides up keeps the turn.
    fn starts_turn(&self, _before: &Self::State, previous: Option<(Seat, Throw)>) -> bool {
        previous.is_none_or(|(_, t)| !issiren::grants_extra_throw(t))
    }

    fn captures(&self, before: &Self::State, after: &Self::State) -> u32 {
        let total = |s: &issiren::State| u32::from(s.count()[0]) + u32::from(s.count()[1]);
        total(before).saturating_sub(total(after))
    }
}

impl Measure for SiryuWar {
    /// A sir (1 or 5 white sides up) keeps the turn.
    fn starts_turn(&self, _before: &Self::State, previous: Option<(Seat, Throw)>) -> bool {
        previous.is_none_or(|(_, t)| !siryu_war::grants_extra_throw(t))
    }

    fn captures(&self, before: &Self::State, after: &Self::State) -> u32 {
        let total = |s: &siryu_war::State| (s.count(0) + s.count(1)) as u32;
        total(before).saturating_sub(total(after))
    }
}

impl Measure for SigElOuedCapture {
    /// A turn starts where a lead throw is due that no regular sig of the same turn granted
    /// (bonus throws belong to their lead throw's turn).
    fn starts_turn(&self, before: &Self::State, _previous: Option<(Seat, Throw)>) -> bool {
        before.pending() == sig_el_oued_capture::Pending::Lead && !before.turn_goes_on()
    }

    /// Pieces removed from the board (`free_all` can capture several at once).
    fn captures(&self, before: &Self::State, after: &Self::State) -> u32 {
        let total = |s: &sig_el_oued_capture::State| u32::from(s.count(0)) + u32::from(s.count(1));
        total(before).saturating_sub(total(after))
    }
}

impl Measure for SiryuRace {
    /// A turn lasts while the seat owes throws (six black owes three more, a sir or six
    /// white one), so a throw starts a turn where the seat to throw is not the seat that
    /// threw last: a seat never follows itself, as the game ends when one seat is left.
    fn starts_turn(&self, before: &Self::State, previous: Option<(Seat, Throw)>) -> bool {
        previous.is_none_or(|(seat, _)| seat != before.turn())
    }

    /// Opponent pieces sent back to their starts (passed, or under `capture_on_landing`
    /// landed on): the pieces of the seats other than the mover that moved. Only sending
    /// back moves another seat's piece; a piece passed while on its own start stays there
    /// and is not counted.
    fn captures(&self, before: &Self::State, after: &Self::State) -> u32 {
        let mover = before.turn();
        (0..self.seats())
            .filter(|&s| s != mover)
            .map(|s| {
                let (b, a) = (before.pieces_of(s), after.pieces_of(s));
                (0..siryu_race::PIECES).filter(|&k| b[k] != a[k]).count() as u32
            })
            .sum()
    }
}

impl Measure for HoumtTaourit {
    const BURIALS: bool = true;

    fn counts_captures(&self) -> bool {
        false
    }

    /// A 6, a sig or a 4 (0, 1 or 4 white sides up) keeps the turn, on the centre too.
    fn starts_turn(&self, _before: &Self::State, previous: Option<(Seat, Throw)>) -> bool {
        previous.is_none_or(|(_, t)| !houmt_taourit::grants_extra_throw(t))
    }

    /// Nothing is captured: the Ghoula carries pieces back, and burying is counted by
    /// [`Measure::burials`].
    fn captures(&self, _before: &Self::State, _after: &Self::State) -> u32 {
        0
    }

    /// Pieces the Ghoula carried from idx 1 onto the start (several at once when they
    /// shared its square).
    fn burials(&self, before: &Self::State, after: &Self::State) -> u32 {
        let buried = |s: &houmt_taourit::State| {
            s.pieces()
                .iter()
                .filter(|p| matches!(p, houmt_taourit::Piece::Buried(_)))
                .count() as u32
        };
        buried(after).saturating_sub(buried(before))
    }
}

/// One game, measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameMeasures {
    /// Throws made.
    pub throws: u32,
    /// Turns played (see [`Measure::starts_turn`]).
    pub turns: u32,
    /// Decision nodes met.
    pub decisions: u32,
    /// Decision nodes with more than one legal action.
    pub real_choices: u32,
    /// The legal actions summed over those nodes.
    pub options: u32,
    /// Pieces captured.
    pub captures: u32,
    /// Pieces buried.
    pub burials: u32,
    /// Whether the game ended at the throw cap.
    pub capped: bool,
    /// Each seat's place (0 = first).
    pub places: Vec<u8>,
    /// Each seat's score.
    pub scores: Vec<f64>,
    /// Whether an agent failed (the game then counts as lost by it).
    pub failed: bool,
}

/// Replays a played game from the initial state and measures it.
///
/// ```
/// use stickdice::{Agent, Game, SigWaDuqqan};
/// use stickdice_agents::RandomAgent;
/// use stickdice_evaluation::analysis::{measure_game, SelfPlay};
/// use stickdice_evaluation::{arena, factory};
///
/// let game = SigWaDuqqan::with_seats(2).unwrap();
/// let random = factory(|_: &SigWaDuqqan, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<SigWaDuqqan>>);
/// let games: Vec<_> = (0..50)
///     .map(|seed| measure_game(&game, &arena::play(&game, &[&random, &random], seed)))
///     .collect();
/// let figures = SelfPlay::of("random", 2, &games);
/// println!("P1 first {}, throws {}", figures.first[0].show(3), figures.throws.mean.show(1));
/// assert_eq!(figures.games, 50);
/// assert_eq!(figures.decisions_per_game.mean, 0.0); // a pure chance process
/// ```
pub fn measure_game<G: Measure>(game: &G, result: &GameResult<G>) -> GameMeasures {
    let mut state = game.initial_state();
    let mut m = GameMeasures {
        throws: 0,
        turns: 0,
        decisions: 0,
        real_choices: 0,
        options: 0,
        captures: 0,
        burials: 0,
        capped: false,
        places: result.ranking.places().to_vec(),
        scores: (0..game.seats()).map(|s| result.ranking.score(s)).collect(),
        failed: result.failure.is_some(),
    };
    let mut previous = None;
    let mut legal = ActionList::new();
    for event in &result.events {
        let before = state;
        match *event {
            Event::Throw(seat, t) => {
                m.throws += 1;
                if game.starts_turn(&state, previous) {
                    m.turns += 1;
                }
                previous = Some((seat, t));
                game.apply_throw_unchecked(&mut state, t);
            }
            Event::Action(_, a) => {
                game.legal_actions(&state, &mut legal);
                m.decisions += 1;
                if legal.len() > 1 {
                    m.real_choices += 1;
                    m.options += legal.len() as u32;
                }
                game.apply_action_unchecked(&mut state, a);
            }
        }
        m.captures += game.captures(&before, &state);
        m.burials += game.burials(&before, &state);
    }
    if result.failure.is_none() {
        let mut uncapped = game.clone();
        uncapped
            .set_option("max_throws", &u32::MAX.to_string())
            .expect("every game takes max_throws");
        m.capped = uncapped.node(&state) != Node::End;
    }
    m
}

/// A share or mean with its 95% interval, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figure {
    /// The estimate.
    pub mean: f64,
    /// The half-width of its 95% interval (`None` with fewer than two observations).
    pub ci95: Option<f64>,
}

impl From<Estimate> for Figure {
    fn from(e: Estimate) -> Figure {
        Figure {
            mean: e.mean,
            ci95: e.half_width,
        }
    }
}

impl Figure {
    fn of(xs: &[f64]) -> Figure {
        Estimate::of(xs).into()
    }

    /// `0.512 ± 0.010`, or the value alone.
    pub fn show(&self, decimals: usize) -> String {
        match self.ci95 {
            Some(h) => format!("{:.*} ± {:.*}", decimals, self.mean, decimals, h),
            None => format!("{:.*}", decimals, self.mean),
        }
    }
}

/// A summary of a distribution of whole numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Lengths {
    /// The mean, with its 95% interval.
    pub mean: Figure,
    /// The median.
    pub median: f64,
    /// The 90th percentile (nearest rank).
    pub p90: u32,
    /// The smallest.
    pub min: u32,
    /// The largest.
    pub max: u32,
}

impl Lengths {
    fn of(values: &[u32]) -> Option<Lengths> {
        let d = Distribution::of(values)?;
        let xs: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        Some(Lengths {
            mean: Figure::of(&xs),
            median: d.median,
            p90: d.p90,
            min: d.min,
            max: d.max,
        })
    }
}

/// The figures of self-play: every seat played by the same agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SelfPlay {
    /// The agent in every seat.
    pub agent: String,
    /// Games played.
    pub games: usize,
    /// Games an agent failed (excluded from nothing: they count as played).
    pub failures: usize,
    /// Each seat's chance of ranking first.
    pub first: Vec<Figure>,
    /// Each seat's mean score.
    pub score: Vec<Figure>,
    /// Throws per game.
    pub throws: Lengths,
    /// Turns per game.
    pub turns: Lengths,
    /// Decision nodes per game.
    pub decisions_per_game: Figure,
    /// The share of decision nodes with more than one legal action (`None` without
    /// decisions).
    pub choice_share: Option<f64>,
    /// The mean number of legal actions at those nodes.
    pub mean_choices: Option<f64>,
    /// Captures per game.
    pub captures: Figure,
    /// Burials per game.
    pub burials: Figure,
    /// The share of games that ended at the throw cap.
    pub capped: Figure,
}

impl SelfPlay {
    /// The figures of `games` (at least one) played by `agent` in every seat.
    ///
    /// # Panics
    /// If `games` is empty.
    pub fn of(agent: &str, seats: usize, games: &[GameMeasures]) -> SelfPlay {
        assert!(!games.is_empty(), "at least one game");
        let col = |f: &dyn Fn(&GameMeasures) -> f64| -> Vec<f64> { games.iter().map(f).collect() };
        let decisions: u64 = games.iter().map(|g| u64::from(g.decisions)).sum();
        let real: u64 = games.iter().map(|g| u64::from(g.real_choices)).sum();
        let options: u64 = games.iter().map(|g| u64::from(g.options)).sum();
        SelfPlay {
            agent: agent.to_string(),
            games: games.len(),
            failures: games.iter().filter(|g| g.failed).count(),
            first: (0..seats)
                .map(|s| Figure::of(&col(&|g| f64::from(u8::from(g.places[s] == 0)))))
                .collect(),
            score: (0..seats)
                .map(|s| Figure::of(&col(&|g| g.scores[s])))
                .collect(),
            throws: Lengths::of(&games.iter().map(|g| g.throws).collect::<Vec<_>>())
                .expect("at least one game"),
            turns: Lengths::of(&games.iter().map(|g| g.turns).collect::<Vec<_>>())
                .expect("at least one game"),
            decisions_per_game: Figure::of(&col(&|g| f64::from(g.decisions))),
            choice_share: (decisions > 0).then(|| real as f64 / decisions as f64),
            mean_choices: (real > 0).then(|| options as f64 / real as f64),
            captures: Figure::of(&col(&|g| f64::from(g.captures))),
            burials: Figure::of(&col(&|g| f64::from(g.burials))),
            capped: Figure::of(&col(&|g| f64::from(u8::from(g.capped)))),
        }
    }
}

/// One agent's score against random play.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skill {
    /// The agent.
    pub agent: String,
    /// Games played (rotations × seats).
    pub games: usize,
    /// Its mean score, with a 95% interval over rotations.
    pub score: Figure,
    /// `score − 0.5`: what it gains over random play.
    pub gap: f64,
}

impl Skill {
    /// The figures from the agent's score in each rotation (the mean over the seats it
    /// took, on the same throws).
    pub fn of(agent: &str, seats: usize, rotation_scores: &[f64]) -> Skill {
        let score = Figure::of(rotation_scores);
        Skill {
            agent: agent.to_string(),
            games: rotation_scores.len() * seats,
            score,
            gap: score.mean - 0.5,
        }
    }
}

/// The exact figures of a solved game (throw cap lifted), from its initial state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactSummary {
    /// Reachable non-terminal states.
    pub states: usize,
    /// Decision nodes among them.
    pub decision_nodes: usize,
    /// Seconds to enumerate and solve.
    pub seconds: f64,
    /// The largest change of a value in the last sweep.
    pub residual: f64,
    /// The largest `1 − Σ P(outcome)` over the states: a bound on the error of every
    /// probability in a game without decisions.
    pub missing_mass: f64,
    /// A bound on the error of every probability (see the solver's error bounds).
    pub error_bound: f64,
    /// A bound on the error of the expected throws, in throws.
    pub throws_error_bound: f64,
    /// Each outcome class (ranking, and success where the game tells) with its probability.
    pub outcomes: Vec<(String, f64)>,
    /// Each seat's chance of ranking first.
    pub first: Vec<f64>,
    /// Each seat's expected score.
    pub score: Vec<f64>,
    /// Each seat's chance of success (Sig wa Duqqan: reaching the Ka'aba).
    pub success: Option<Vec<f64>>,
    /// The expected number of throws.
    pub expected_throws: f64,
}

impl ExactSummary {
    /// The figures of `solution` from the game's initial state.
    pub fn of<G: Exact>(solution: &Solution<G>) -> ExactSummary {
        let game = solution.game();
        let s0 = game.initial_state();
        let seats = game.seats();
        let dist = solution
            .distribution(&s0)
            .expect("the initial state is solved");
        let stats = solution.stats();
        let scores = solution.expected_scores(&s0).expect("solved");
        let success: Option<Vec<f64>> = (0..seats)
            .map(|s| solution.success_probability(&s0, s))
            .collect();
        ExactSummary {
            states: stats.states,
            decision_nodes: stats.decision_nodes,
            seconds: (stats.enumerate_time + stats.iterate_time).as_secs_f64(),
            residual: stats.residual,
            missing_mass: stats.missing_mass,
            error_bound: stats.error_bound,
            throws_error_bound: stats.throws_error_bound,
            outcomes: solution
                .classes()
                .iter()
                .zip(&dist)
                .map(|(c, &p)| (c.to_string(), p))
                .collect(),
            first: (0..seats)
                .map(|s| solution.first_probability(&s0, s).expect("solved"))
                .collect(),
            score: scores[..seats].to_vec(),
            success,
            expected_throws: solution.expected_throws(&s0).expect("solved"),
        }
    }
}

/// How often an agent's choice agrees with the tablebase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreement {
    /// The agent.
    pub agent: String,
    /// Positions tried.
    pub positions: usize,
    /// The share of positions where its action is one of the best (within 1e-9).
    pub agree: Figure,
    /// The win probability it gives up, on average (0 when it always agrees).
    pub loss: Figure,
}

impl Agreement {
    /// The figures from each position's (chosen value, best value).
    pub fn of(agent: &str, outcomes: &[(f64, f64)]) -> Agreement {
        let agree: Vec<f64> = outcomes
            .iter()
            .map(|&(v, best)| f64::from(u8::from(v >= best - 1e-9)))
            .collect();
        let loss: Vec<f64> = outcomes
            .iter()
            .map(|&(v, best)| (best - v).max(0.0))
            .collect();
        Agreement {
            agent: agent.to_string(),
            positions: outcomes.len(),
            agree: Figure::of(&agree),
            loss: Figure::of(&loss),
        }
    }
}

/// A histogram of game lengths (in throws) as a self-contained SVG: bars of equal width
/// up to the 99th percentile (the rest in a last "longer" bar), axes with ticks, and lines
/// at the mean and the median.
pub fn length_histogram_svg(title: &str, lengths: &[u32]) -> String {
    let (w, h) = (720.0f64, 400.0f64);
    let (left, right, top, bottom) = (60.0, 20.0, 40.0, 50.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let mut o = String::new();
    chart::begin(&mut o, w, h);
    let _ = writeln!(
        o,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        w / 2.0,
        chart::escape(title)
    );
    let Some(dist) = Distribution::of(lengths) else {
        chart::end(&mut o);
        return o;
    };
    let mut sorted = lengths.to_vec();
    sorted.sort_unstable();
    let p99 = sorted[((99 * sorted.len()).div_ceil(100)).max(1) - 1];
    let lo = dist.min;
    let span = (p99 - lo + 1).max(1);
    let bins = span.min(50);
    let width = span.div_ceil(bins).max(1);
    let bins = span.div_ceil(width) as usize;
    let overflow = sorted.iter().filter(|&&x| x > p99).count();
    let mut counts = vec![0usize; bins + usize::from(overflow > 0)];
    for &x in lengths {
        let i = if x > p99 {
            bins
        } else {
            ((x - lo) / width) as usize
        };
        counts[i] += 1;
    }
    let top_count = *counts.iter().max().unwrap_or(&1) as f64;
    // Headroom above the tallest bar for the mean and median labels.
    let y_max = top_count * 1.12;
    let bar = pw / counts.len() as f64;
    let x_of = |v: f64| left + (v - f64::from(lo)) / f64::from(width) * bar;
    for (i, &c) in counts.iter().enumerate() {
        let bh = c as f64 / y_max * ph;
        let (from, to) = if i < bins {
            let a = lo + i as u32 * width;
            (a, a + width - 1)
        } else {
            (p99 + 1, dist.max)
        };
        let fill = if i < bins { "#4a7ab5" } else { "#b5874a" };
        let _ = writeln!(
            o,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{fill}"><title>{from}–{to} throws: {c} games</title></rect>"#,
            left + i as f64 * bar + 0.5,
            top + ph - bh,
            (bar - 1.0).max(0.5),
            bh
        );
    }
    // Axes.
    let _ = writeln!(
        o,
        r#"<line x1="{left}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
        top + ph,
        left + pw,
        top + ph
    );
    let _ = writeln!(
        o,
        r#"<line x1="{left}" y1="{top}" x2="{left}" y2="{}" stroke="black"/>"#,
        top + ph
    );
    let y_step = chart::nice_step((y_max / 5.0).max(1.0));
    let mut v = 0.0;
    while v <= y_max + 1e-9 {
        let y = top + ph - v / y_max * ph;
        let _ = writeln!(
            o,
            r#"<line x1="{}" y1="{y:.1}" x2="{left}" y2="{y:.1}" stroke="black"/><text x="{}" y="{:.1}" text-anchor="end">{v:.0}</text>"#,
            left - 4.0,
            left - 6.0,
            y + 4.0,
        );
        v += y_step;
    }
    let x_end = f64::from(lo) + f64::from(bins as u32 * width);
    let x_step = chart::nice_step(((x_end - f64::from(lo)) / 7.0).max(1.0));
    let mut v = (f64::from(lo) / x_step).ceil() * x_step;
    while v <= x_end + 1e-9 {
        let x = x_of(v);
        let _ = writeln!(
            o,
            r#"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{}" stroke="black"/><text x="{x:.1}" y="{}" text-anchor="middle">{v:.0}</text>"#,
            top + ph,
            top + ph + 4.0,
            top + ph + 18.0,
        );
        v += x_step;
    }
    if overflow > 0 {
        let _ = writeln!(
            o,
            r#"<text x="{:.1}" y="{}" text-anchor="end">longer: &gt;{p99}</text>"#,
            left + pw,
            top + ph + 32.0
        );
    }
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" text-anchor="middle">throws per game ({} games)</text>"#,
        left + pw / 2.0,
        h - 8.0,
        lengths.len()
    );
    let _ = writeln!(
        o,
        r#"<text x="14" y="{}" text-anchor="middle" transform="rotate(-90 14 {})">games</text>"#,
        top + ph / 2.0,
        top + ph / 2.0
    );
    // The smaller of mean and median is labelled on the left of its line, the other on
    // the right, so the labels never overlap.
    let mean_right = dist.mean >= dist.median;
    for (label, v, colour, right) in [
        ("mean", dist.mean, "#c0392b", mean_right),
        ("median", dist.median, "#27ae60", !mean_right),
    ] {
        if v <= f64::from(p99) {
            let x = x_of(v + 0.5);
            let (tx, anchor) = if right {
                (x + 4.0, "start")
            } else {
                (x - 4.0, "end")
            };
            let _ = writeln!(
                o,
                r#"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{}" stroke="{colour}" stroke-dasharray="4 3"/><text x="{tx:.1}" y="{}" fill="{colour}" text-anchor="{anchor}">{label} {v:.1}</text>"#,
                top + ph,
                top + 12.0
            );
        }
    }
    chart::end(&mut o);
    o
}

/// [`Measure`] for every described game ([`stickdice::described`]), from the state alone:
/// a throw starts a turn when another seat made the one before it, and a step captures the
/// pieces its side's capture count grew by. A description without capture by landing
/// (Es-Sîg, whose Ghula carries pieces back along the track) captures nothing.
macro_rules! described_measures {
    ([] $($variant:ident : $ty:path,)*) => {$(
        impl Measure for $ty {
            fn counts_captures(&self) -> bool {
                self.0.captures_by_landing()
            }

            fn starts_turn(&self, before: &Self::State, previous: Option<(Seat, Throw)>) -> bool {
                previous.is_none_or(|(seat, _)| seat != before.turn())
            }

            fn captures(&self, before: &Self::State, after: &Self::State) -> u32 {
                let total = |s: &stickdice::described::State| {
                    (0..stickdice::MAX_SEATS).map(|side| s.captures(side)).sum::<u32>()
                };
                total(after).saturating_sub(total(before))
            }
        }
    )*};
}
stickdice::for_each_described_game!(described_measures);
described_measures!([] GameFile: stickdice::described::games::FileGame,);

/// [`Measure`] for the games without measures of their own: a throw starts a turn when it is the first of the game
/// or follows another seat's throw is not known here, so every throw counts as one; no
/// captures and no burials are counted.
macro_rules! no_measures {
    ($($ty:ty),* $(,)?) => {
        $(
            impl Measure for $ty {
                const MEASURED: bool = false;

                fn starts_turn(&self, _before: &Self::State, _previous: Option<(Seat, Throw)>) -> bool {
                    true
                }

                fn captures(&self, _before: &Self::State, _after: &Self::State) -> u32 {
                    0
                }
            }
        )*
    };
}

// The table of measures: each game of the list has its own above or is named here. A
// game in neither does not compile.
no_measures!();

/// The games of the list with measures of their own (the `measure` part of what a game
/// offers), in the list's order.
pub fn measures() -> Vec<stickdice::GameKind> {
    macro_rules! each {
        ([] $($variant:ident : $ty:path,)*) => {
            vec![$((stickdice::GameKind::$variant, <$ty as Measure>::MEASURED)),*]
        };
    }
    stickdice::for_each_game!(each)
        .into_iter()
        .filter_map(|(kind, has)| has.then_some(kind))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_figures_are_the_plain_averages() {
        let g = |throws, turns, places: [u8; 2], decisions, real, options, captures| GameMeasures {
            throws,
            turns,
            decisions,
            real_choices: real,
            options,
            captures,
            burials: 0,
            capped: false,
            places: places.to_vec(),
            scores: places
                .iter()
                .map(|&p| if p == 0 { 1.0 } else { 0.0 })
                .collect(),
            failed: false,
        };
        let games = [
            g(10, 4, [0, 1], 5, 2, 6, 1),
            g(20, 8, [1, 0], 5, 3, 7, 0),
            g(30, 9, [0, 1], 10, 0, 0, 2),
        ];
        let s = SelfPlay::of("random", 2, &games);
        assert_eq!(s.first[0].mean, 2.0 / 3.0);
        assert_eq!(s.throws.median, 20.0);
        assert_eq!(s.throws.mean.mean, 20.0);
        assert_eq!(s.throws.p90, 30);
        assert_eq!(s.turns.median, 8.0);
        // 5 of 20 decision nodes had a choice, with 13 actions among them.
        assert_eq!(s.choice_share, Some(5.0 / 20.0));
        assert_eq!(s.mean_choices, Some(13.0 / 5.0));
        assert_eq!(s.captures.mean, 1.0);
        assert_eq!(s.capped.mean, 0.0);
    }

    /// In a two-player Sig wa Duqqan game without a burial, the turn passes between the
    /// seats at every turn's end, so the turns are one more than the changes of the
    /// throwing seat; burials are counted from the final position.
    #[test]
    fn turns_and_burials_of_played_games() {
        let game = SigWaDuqqan::with_seats(2).unwrap();
        let random = crate::factory(|_: &SigWaDuqqan, seed| {
            Box::new(stickdice_agents::RandomAgent::new(seed))
                as Box<dyn stickdice::Agent<SigWaDuqqan>>
        });
        let mut without_burial = 0;
        for seed in 0..40 {
            let r = crate::arena::play(&game, &[&random, &random], seed);
            let m = measure_game(&game, &r);
            assert_eq!(m.throws, r.throws);
            let buried = r.last_state.pieces()[..2]
                .iter()
                .filter(|p| matches!(p, sig_wa_duqqan::Piece::Buried(_)))
                .count() as u32;
            assert_eq!(m.burials, buried);
            if buried == 0 {
                let seats: Vec<usize> = r
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        Event::Throw(s, _) => Some(*s),
                        Event::Action(..) => None,
                    })
                    .collect();
                let changes = seats.windows(2).filter(|w| w[0] != w[1]).count() as u32;
                assert_eq!(m.turns, changes + 1, "seed {seed}");
                without_burial += 1;
            }
            assert_eq!((m.decisions, m.captures, m.capped), (0, 0, false));
        }
        assert!(without_burial > 10);
    }

    /// Siryu (War): a decision after every throw; a turn ends when the throwing seat
    /// changes (a sir keeps it); the captures are the pieces missing at the end.
    #[test]
    fn siryu_war_turns_decisions_and_captures_of_played_games() {
        let game = SiryuWar::with_seats(2).unwrap();
        let random = crate::factory(|_: &SiryuWar, seed| {
            Box::new(stickdice_agents::RandomAgent::new(seed))
                as Box<dyn stickdice::Agent<SiryuWar>>
        });
        for seed in 0..20 {
            let r = crate::arena::play(&game, &[&random, &random], seed);
            let m = measure_game(&game, &r);
            assert_eq!((m.throws, m.decisions), (r.throws, r.throws), "seed {seed}");
            let seats: Vec<usize> = r
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::Throw(s, _) => Some(*s),
                    Event::Action(..) => None,
                })
                .collect();
            let changes = seats.windows(2).filter(|w| w[0] != w[1]).count() as u32;
            assert_eq!(m.turns, changes + 1, "seed {seed}");
            let left = (r.last_state.count(0) + r.last_state.count(1)) as u32;
            assert_eq!(m.captures, 24 - left, "seed {seed}");
            assert!(m.captures >= 12 && !m.capped);
        }
    }

    /// The seats that threw, in order, from a played game's events.
    fn throwing_seats(events: &[Event<impl Copy>]) -> Vec<usize> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Throw(s, _) => Some(*s),
                Event::Action(..) => None,
            })
            .collect()
    }

    /// Siryu (Race), its chapter's worked examples 1 and 2: passing an opponent's piece on its own
    /// start sends nothing back; passing one elsewhere sends it back, once; under
    /// `capture_on_landing` the piece landed on goes back too.
    #[test]
    fn siryu_race_sendings_back_follow_the_worked_examples() {
        use stickdice::games::siryu_race::{Action, Position, State};
        let sir = Throw::new(5);
        let game = SiryuRace::with_seats(2).unwrap();
        let play = |game: &SiryuRace, p: Position, action: Action| {
            let mut s = State::from_position(p).unwrap();
            let at_throw = s;
            game.apply_throw(&mut s, sir).unwrap();
            assert_eq!(
                game.captures(&at_throw, &s),
                0,
                "a throw sends nothing back"
            );
            let before = s;
            game.apply_action(&mut s, action).unwrap();
            game.captures(&before, &s)
        };
        // Example 1: the angel 1 → 3 passes P2's mother on her own start.
        assert_eq!(play(&game, Position::start(2), Action::Angel), 0);
        // Example 2: the angel 3 → 5 passes P2's father on idx 4.
        let p = Position {
            pieces: vec![[0, 3, 2], [4, 1, 2]],
            ..Position::start(2)
        };
        assert_eq!(play(&game, p.clone(), Action::Angel), 1);
        // The father 0 → 1 lands on P2's angel (its own start): nothing either way.
        assert_eq!(play(&game, p.clone(), Action::Father), 0);
        let mut landing = game.clone();
        landing.set_option("capture_on_landing", "true").unwrap();
        // Landing: the angel 3 → 5 passes the father on 4 and lands on P2's mother on 5.
        let q = Position {
            pieces: vec![[0, 3, 2], [4, 1, 5]],
            ..Position::start(2)
        };
        assert_eq!(play(&landing, q.clone(), Action::Angel), 2);
        assert_eq!(play(&game, q, Action::Angel), 1);
    }

    /// Siryu (Race): a decision after every throw; a turn ends when the throwing seat
    /// changes (owed throws keep it, six black's three included), with 2 and 3 seats; the
    /// sendings back are counted by an independent replay (opponent pieces found on their
    /// starts after an action, not there before it).
    #[test]
    fn siryu_race_turns_decisions_and_sendings_back_of_played_games() {
        use stickdice::games::siryu_race::STARTS;
        for seats in [2, 3] {
            let game = SiryuRace::with_seats(seats).unwrap();
            let random = crate::factory(|_: &SiryuRace, seed| {
                Box::new(stickdice_agents::RandomAgent::new(seed))
                    as Box<dyn stickdice::Agent<SiryuRace>>
            });
            let agents = vec![&random; seats];
            let mut sent_back = 0;
            for seed in 0..6 {
                let r = crate::arena::play(&game, &agents, seed);
                let m = measure_game(&game, &r);
                assert_eq!((m.throws, m.decisions), (r.throws, r.throws), "seed {seed}");
                let throwers = throwing_seats(&r.events);
                let changes = throwers.windows(2).filter(|w| w[0] != w[1]).count() as u32;
                assert_eq!(m.turns, changes + 1, "seed {seed}");
                let mut state = game.initial_state();
                let mut count = 0;
                for e in &r.events {
                    match *e {
                        Event::Throw(_, t) => game.apply_throw(&mut state, t).unwrap(),
                        Event::Action(seat, a) => {
                            let before = state;
                            game.apply_action(&mut state, a).unwrap();
                            for s in (0..seats).filter(|&s| s != seat) {
                                let (b, n) = (before.pieces_of(s), state.pieces_of(s));
                                count += (0..3)
                                    .filter(|&k| n[k] == STARTS[k] && b[k] != STARTS[k])
                                    .count() as u32;
                            }
                        }
                    }
                }
                assert_eq!(m.captures, count, "seed {seed}");
                assert!(!m.capped && m.turns < m.throws);
                sent_back += count;
            }
            assert!(
                sent_back > 0,
                "{seats} seats: random play sends pieces back"
            );
        }
    }

    /// Sig wa Duqqan (Houmt Taourit), its chapter's worked examples 3 and 5: the Ghoula's burials,
    /// none by the first move's lifting; no captures.
    #[test]
    fn houmt_taourit_burials_follow_the_worked_examples() {
        use stickdice::games::houmt_taourit::{Piece, Position, State};
        let (three, zero) = (Throw::new(3), Throw::new(2));
        let game = HoumtTaourit::with_seats(2).unwrap();
        // Example 3: the first move lifts P2 and sets it down on idx 3; a 0 for P2, and
        // P1's next 3 drags it back to the start: buried.
        let mut s = State::from_position(Position {
            pieces: vec![Piece::Racing(81), Piece::Racing(0)],
            ..Position::start(2)
        })
        .unwrap();
        let mut burials = 0;
        for t in [three, zero, three] {
            let before = s;
            game.apply_throw(&mut s, t).unwrap();
            assert_eq!(game.captures(&before, &s), 0);
            burials += game.burials(&before, &s);
            if t == three && burials == 0 {
                assert_eq!(s.piece(1), Piece::Racing(3));
            }
        }
        assert_eq!((burials, s.piece(1)), (1, Piece::Buried(1)));
        // Example 5: the Ghoula and P2 on idx 2, P1 on the centre throws a 3: buried.
        let before = State::from_position(Position {
            pieces: vec![Piece::Centre(1), Piece::Racing(2)],
            ghoula: 2,
            ghoula_moved: true,
            ..Position::start(2)
        })
        .unwrap();
        let mut after = before;
        game.apply_throw(&mut after, three).unwrap();
        assert_eq!(game.burials(&before, &after), 1);
    }

    /// Sig wa Duqqan (Houmt Taourit): a 6, a sig and a 4 keep the turn, so without a
    /// burial the turns are one more than the changes of the throwing seat; burials are
    /// the buried pieces at the end.
    #[test]
    fn houmt_taourit_turns_and_burials_of_played_games() {
        let game = HoumtTaourit::with_seats(2).unwrap();
        let random = crate::factory(|_: &HoumtTaourit, seed| {
            Box::new(stickdice_agents::RandomAgent::new(seed))
                as Box<dyn stickdice::Agent<HoumtTaourit>>
        });
        let mut without_burial = 0;
        for seed in 0..40 {
            let r = crate::arena::play(&game, &[&random, &random], seed);
            let m = measure_game(&game, &r);
            assert_eq!(m.throws, r.throws);
            let buried = r
                .last_state
                .pieces()
                .iter()
                .filter(|p| matches!(p, houmt_taourit::Piece::Buried(_)))
                .count() as u32;
            assert_eq!(m.burials, buried);
            if buried == 0 {
                let throwers = throwing_seats(&r.events);
                let changes = throwers.windows(2).filter(|w| w[0] != w[1]).count() as u32;
                assert_eq!(m.turns, changes + 1, "seed {seed}");
                without_burial += 1;
            }
            assert_eq!((m.decisions, m.captures, m.capped), (0, 0, false));
        }
        assert!(without_burial > 10);
    }

    #[test]
    fn agreement_counts_ties_as_agreeing() {
        let a = Agreement::of("x", &[(0.5, 0.5), (0.4, 0.5), (0.7, 0.7 + 1e-12)]);
        assert!((a.agree.mean - 2.0 / 3.0).abs() < 1e-12);
        assert!((a.loss.mean - 0.1 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn the_histogram_is_well_formed_svg() {
        let lengths: Vec<u32> = (0..500).map(|i| 20 + (i * 37 % 101)).chain([900]).collect();
        let svg = length_histogram_svg("A <title>", &lengths);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("A &lt;title&gt;"));
        assert_eq!(
            svg.matches("<rect").count() - 1,
            svg.matches("games</title>").count()
        );
        assert!(svg.contains("&gt;"), "an overflow bar for the long tail");
        // Every game is in a bar.
        let total: usize = svg
            .split(" throws: ")
            .skip(1)
            .map(|rest| rest.split(' ').next().unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(total, lengths.len());
    }
}
