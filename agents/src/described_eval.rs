//! The generic evaluation of the described games ([`stickdice::described`]), derived from
//! the description alone: one implementation of [`Evaluate`] for every game registered from
//! a description file ([`AsDescribed`]), with no code per game.
//!
//! Like the hand-set evaluations ([`crate::eval`]) it is on the scale of the final scores,
//! in `[0, 1]`, and exactly the scores once the game is over. Elsewhere:
//!
//! * **Capture games** (ranked by the side left standing, by pieces left or by captures):
//!   each side's *material* — its pieces on the board or waiting to enter, each worth 1,
//!   less a part for a piece still locked (unmoved) and plus a little for its progress
//!   along its track, plus its stored throws — less the number of its pieces the enemy is
//!   expected to capture with its next throw. That expectation is exact for the throw table:
//!   for each row of the table (its probability from the sticks) the enemy's best capture
//!   with that value is found by walking each of its pieces by the rules (blocking, gates,
//!   forks, safe regions, the release of locked pieces, supplements from stored throws), and
//!   a stack counts as its pieces. The threat of the side to move weighs fully (where its
//!   throw is already made, the capture it allows is certain); the other side's, which the
//!   mover may still flee or forestall, weighs 0.4. Seat values come from the two sides'
//!   shares of material, `r² / (r² + (1 − r)²)`.
//! * **Race games** (ranked by arrival): each seat's expected throws to get all its pieces
//!   out — the throws to release a piece, the distance to the track's limit over the mean
//!   value of a throw, the holding positions ahead (the throws still needed, over the chance
//!   of the value they count; those before the limit weighted by the chance of landing on
//!   them), and the chaser's threat to carry a piece back (the chance that its next move
//!   reaches the piece, times half the progress it would lose). Two racing seats compare by
//!   a logistic of the difference in expected throws, on a scale growing with the square
//!   root of the throws left; seats already out rank by their order.

use stickdice::described::format::Rank;
use stickdice::described::query::{Place, ThrowRow};
use stickdice::described::{Action, Described, State};
use stickdice::{Node, SeatValues, MAX_SEATS};

use crate::eval::{Evaluate, SeatStanding};

/// A game registered from a description: access to its engine, for the generic evaluation.
pub trait AsDescribed:
    stickdice::Playouts<State = State, Action = Action> + stickdice::Listed
{
    /// The described game underneath.
    fn described(&self) -> &Described;
}

/// [`AsDescribed`] for every shipped description's type
/// ([`stickdice::for_each_described_game!`]) and for the description loaded at run time.
macro_rules! as_described {
    ([] $($variant:ident : $ty:path,)*) => {$(
        impl AsDescribed for $ty {
            #[inline]
            fn described(&self) -> &Described {
                &self.0
            }
        }
    )*};
}
stickdice::for_each_described_game!(as_described);
as_described!([] GameFile: stickdice::described::games::FileGame,);

impl<G: AsDescribed> Evaluate for G {
    /// One evaluation walks every piece with every value of the table, for both sides:
    /// too costly to call for every move of a playout in games of 14 to 20 pieces a side.
    const RANDOM_PLAYOUTS_BY_DEFAULT: bool = true;

    /// `hand` (the default) or a weights file written by `stickdice train --game NAME`
    /// ([`crate::learned::games::described`]); no weights ship.
    fn evaluator(name: &str) -> Result<crate::eval::Evaluator<Self>, crate::eval::EvaluatorError> {
        crate::eval::Evaluator::learned_named(name, crate::eval::Evaluator::default())
    }

    fn evaluate(&self, state: &State) -> SeatValues {
        if let Some(scores) = self.scores(state) {
            return scores;
        }
        let seat_to_move = match self.node(state) {
            Node::Throw(s) | Node::Decide(s) => s,
            Node::End => 0,
        };
        evaluate(self.described(), state, seat_to_move)
    }
}

/// The generic evaluation of a position that has not ended (see the [module docs](self)).
/// `mover` is the seat to throw or decide next.
pub fn evaluate(d: &Described, s: &State, mover: usize) -> SeatValues {
    match d.rank() {
        Rank::Arrival | Rank::Out => race(d, s, mover),
        _ => capture(d, s, mover),
    }
}

/// The weight of the threat of the side that does not move next.
const WAITING_THREAT: f64 = 0.4;
/// What a locked (unmoved) piece is worth less than a free one.
const LOCKED: f64 = 0.15;
/// What a piece's full progress along its track adds to its worth.
const PROGRESS: f64 = 0.1;
/// What a stored throw adds to its side's material (at most three count).
const STORED: f64 = 0.1;

/// What the capture evaluation reads off a position of two sides or more: each side's
/// material and, where it counts, the pieces each of two sides is expected to lose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Parts {
    /// Each side's material (see the [module docs](self)).
    pub material: [f64; MAX_SEATS],
    /// The pieces each of two sides is expected to lose to the other's next throw (the
    /// mover's threat weighed fully, the waiting side's by [`WAITING_THREAT`]); zeros with
    /// other than two sides or without capture by landing.
    pub loss: [f64; 2],
}

/// The [`Parts`] of `s`, `mover` the seat to throw or decide next.
pub(crate) fn parts(d: &Described, s: &State, mover: usize) -> Parts {
    let sides = d.sides();
    let n = d.pieces_per_side();
    let len = d.track_len().max(2) as f64;
    let mut material = [0.0f64; MAX_SEATS];
    // Pieces per square, per side (stacks count whole).
    let mut on_square = [[0u8; 256]; 2];
    for side in 0..sides {
        for k in side * n..(side + 1) * n {
            match d.place(s, k) {
                Place::Gone => continue,
                Place::Off => material[side] += 1.0 - LOCKED,
                Place::On { pos, square } => {
                    let mut w = 1.0 + PROGRESS * f64::from(pos) / (len - 1.0);
                    if d.is_unmoved(s, k) {
                        w -= LOCKED;
                    }
                    material[side] += w;
                    if side < 2 {
                        on_square[side][square as usize] += 1;
                    }
                }
            }
        }
        let stock = s.stock(side).min(3);
        material[side] += STORED * f64::from(stock);
    }
    let mut loss = [0.0f64; 2];
    if sides == 2 && d.captures_by_landing() {
        let mover_side = d.side_of(mover);
        for (side, l) in loss.iter_mut().enumerate() {
            let enemy = 1 - side;
            *l = if enemy == mover_side {
                match d.pending_value(s) {
                    Some(v) => f64::from(best_capture(d, s, enemy, v, &on_square[side])),
                    None => expected_capture(d, s, enemy, &on_square[side]),
                }
            } else {
                WAITING_THREAT * expected_capture(d, s, enemy, &on_square[side])
            };
        }
    }
    Parts { material, loss }
}

/// The capture games' evaluation.
fn capture(d: &Described, s: &State, mover: usize) -> SeatValues {
    capture_of(d, &parts(d, s, mover))
}

/// The capture games' evaluation from a position's [`Parts`].
pub(crate) fn capture_of(d: &Described, p: &Parts) -> SeatValues {
    let sides = d.sides();
    let material = p.material;
    let mut values = [0.0; MAX_SEATS];
    if sides != 2 {
        // Capture needs two sides; anything else is compared by material alone.
        let total: f64 = material[..sides].iter().sum::<f64>().max(1e-9);
        let mut standings = [SeatStanding::Racing(0.5); MAX_SEATS];
        for (seat, st) in standings.iter_mut().enumerate().take(d.seats()) {
            *st = SeatStanding::Racing(material[d.side_of(seat)] / total);
        }
        return crate::eval::pairwise_scores(&standings[..d.seats()]);
    }
    let mut eff = [0.0f64; 2];
    for side in 0..2 {
        eff[side] = (material[side] - p.loss[side]).max(0.05);
    }
    let r = eff[0] / (eff[0] + eff[1]);
    let (a, b) = (r * r, (1.0 - r) * (1.0 - r));
    let v0 = (a / (a + b)).clamp(0.0, 1.0);
    for (seat, v) in values.iter_mut().enumerate().take(d.seats()) {
        *v = if d.side_of(seat) == 0 { v0 } else { 1.0 - v0 };
    }
    values
}

/// The pieces `side` is expected to capture with its next throw: over the rows of the throw
/// table, the probability times the best capture that value allows.
fn expected_capture(d: &Described, s: &State, side: usize, targets: &[u8; 256]) -> f64 {
    let mut best = [None::<u8>; 16];
    let mut total = 0.0;
    for ThrowRow {
        probability, value, ..
    } in d.throw_rows()
    {
        if value == 0 {
            continue;
        }
        let b = *best[value as usize & 15]
            .get_or_insert_with(|| best_capture(d, s, side, value, targets));
        total += probability * f64::from(b);
    }
    total
}

/// The most enemy pieces one move of `side` with `value` captures (0 if none).
fn best_capture(d: &Described, s: &State, side: usize, value: u8, targets: &[u8; 256]) -> u8 {
    let n = d.pieces_per_side();
    let stock = s.stock(side).min(255) as u8;
    let mut best = 0u8;
    let mut look = |sq: u8| best = best.max(targets[sq as usize]);
    for k in side * n..(side + 1) * n {
        let Place::On { pos, .. } = d.place(s, k) else {
            continue;
        };
        if d.hold_at(pos).is_some() {
            continue;
        }
        if d.is_unmoved(s, k) {
            if d.releases(value) && d.release_steps() > 0 {
                d.landings(s, side, k, d.release_steps(), &mut look);
            }
            continue;
        }
        d.landings(s, side, k, value, &mut look);
        for j in d.supplements(stock) {
            d.landings(s, side, k, value.saturating_add(j), &mut look);
        }
    }
    best
}

/// The race games' evaluation.
pub(crate) fn race(d: &Described, s: &State, mover: usize) -> SeatValues {
    let seats = d.seats();
    let t = Tables::new(d);
    let n = d.pieces_per_side();
    let mut standings = [SeatStanding::Racing(0.5); MAX_SEATS];
    let mut left = [0.0f64; MAX_SEATS];
    let chaser_moves = (0..seats).any(|seat| d.drives_chaser(s, seat));
    for seat in 0..seats {
        let place = d.out_place(s, seat);
        if place != 0 {
            standings[seat] = SeatStanding::Finished(u32::from(place));
            continue;
        }
        let side = d.side_of(seat);
        let mut e = 0.0;
        for k in side * n..(side + 1) * n {
            e += t.piece_throws(d, s, k, chaser_moves);
        }
        if seat == mover {
            e = (e - 0.5).max(0.0);
        }
        left[seat] = e;
    }
    let mut out = [0.0; MAX_SEATS];
    if seats == 1 {
        out[0] = 1.0;
        return out;
    }
    for i in 0..seats {
        for j in (i + 1)..seats {
            let p = match (standings[i], standings[j]) {
                (a @ SeatStanding::Finished(_), b) | (a, b @ SeatStanding::Finished(_)) => {
                    a.beats(b)
                }
                _ => {
                    let scale = 0.8 * (left[i] + left[j] + 1.0).sqrt();
                    1.0 / (1.0 + ((left[i] - left[j]) / scale).exp())
                }
            };
            out[i] += p;
            out[j] += 1.0 - p;
        }
    }
    let scale = 1.0 / (seats - 1) as f64;
    for v in out.iter_mut().take(seats) {
        *v = (*v * scale).clamp(0.0, 1.0);
    }
    out
}

/// What the race evaluation reads from the throw tables.
struct Tables {
    /// The mean value of a throw.
    mean: f64,
    /// The chance of a throw that releases a piece.
    release: f64,
    /// The chance of each value (0 to 15).
    value_chance: [f64; 16],
    /// The chance of each value of the chaser's table.
    chaser_chance: [f64; 16],
    /// The last position a move may reach (the limit, or the track's last).
    reach: u8,
}

impl Tables {
    fn new(d: &Described) -> Tables {
        let mut value_chance = [0.0; 16];
        let mut mean = 0.0;
        let mut release = 0.0;
        for r in d.throw_rows() {
            value_chance[r.value as usize & 15] += r.probability;
            mean += r.probability * f64::from(r.value);
            if d.releases(r.value) {
                release += r.probability;
            }
        }
        let mut chaser_chance = [0.0; 16];
        if let Some(rows) = d.chaser_rows() {
            for r in rows {
                chaser_chance[r.value as usize & 15] += r.probability;
            }
        }
        let last = (d.track_len() - 1) as u8;
        Tables {
            mean: mean.max(1e-3),
            release,
            value_chance,
            chaser_chance,
            reach: d.limit().map_or(last, |l| l.min(last)),
        }
    }

    /// The expected throws to get piece `k` out (0 once it is out).
    fn piece_throws(&self, d: &Described, s: &State, k: usize, chaser_moves: bool) -> f64 {
        let (pos, counted) = match d.place(s, k) {
            Place::Gone => return 0.0,
            Place::Off => (None, 0),
            Place::On { pos, .. } => (Some(pos), d.hold_count(s, k)),
        };
        let mut e = 0.0;
        let unmoved = pos.is_none() || d.is_unmoved(s, k);
        let from = if unmoved {
            if self.release > 0.0 {
                e += 1.0 / self.release;
            }
            match (pos, d.release_steps()) {
                (Some(p), steps) => p.saturating_add(steps),
                (None, 0) => 0,
                (None, steps) => steps - 1,
            }
        } else {
            pos.unwrap_or(0)
        };
        let from_start = self.from(d, 0, 0);
        let here = self.from(d, from, if unmoved { 0 } else { counted });
        e += here;
        if chaser_moves {
            if let (Some(p), Some(g)) = (pos, s.chaser()) {
                let risk = if p == g {
                    1.0
                } else {
                    let gap = p.abs_diff(g) as usize;
                    if gap < 16 {
                        self.chaser_chance[gap]
                    } else {
                        0.0
                    }
                };
                e += risk * 0.5 * (from_start - here).max(0.0);
            }
        }
        e
    }

    /// The expected throws from position `p` (with `counted` throws already counted on a
    /// holding position there) to get out.
    fn from(&self, d: &Described, p: u8, counted: u8) -> f64 {
        let mut e = f64::from(self.reach.saturating_sub(p)) / self.mean;
        let landing = (1.0 / self.mean).min(1.0);
        for q in p..d.track_len() as u8 {
            let Some((need, value)) = d.hold_at(q) else {
                continue;
            };
            let chance = self.value_chance[value as usize & 15].max(1e-3);
            let (still, weight) = if q == p {
                (need.saturating_sub(counted), 1.0)
            } else if q >= self.reach {
                (need, 1.0)
            } else {
                (need, landing)
            };
            e += weight * f64::from(still) / chance;
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::SeedableRng;

    /// Over random games of every described game: the evaluation is the same when asked
    /// twice, within `[0, 1]`, sums to half the seats, and equals the scores at the end.
    fn in_range<G: AsDescribed>(seats: usize, seed: u64) {
        let game = G::with_seats(seats).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let mut actions = stickdice::ActionList::new();
        for _ in 0..3 {
            let mut s = game.initial_state();
            let mut steps = 0;
            loop {
                let v = game.evaluate(&s);
                assert_eq!(v, game.evaluate(&s), "{}", G::NAME);
                let sum: f64 = v[..seats].iter().sum();
                assert!(
                    (sum - seats as f64 / 2.0).abs() < 1e-9,
                    "{}: {v:?}",
                    G::NAME
                );
                for x in &v[..seats] {
                    assert!((0.0..=1.0).contains(x), "{}: {v:?}", G::NAME);
                }
                match game.node(&s) {
                    Node::End => {
                        assert_eq!(Some(v), game.scores(&s), "{}", G::NAME);
                        break;
                    }
                    Node::Throw(_) => {
                        let t = game.sample_throw(&mut rng);
                        game.apply_throw_unchecked(&mut s, t);
                    }
                    Node::Decide(_) => {
                        use rand::RngExt as _;
                        game.play_random_action(&mut s, &mut actions, |n| rng.random_range(0..n));
                    }
                }
                steps += 1;
                if steps > 3000 {
                    break;
                }
            }
        }
    }

    #[test]
    fn deterministic_in_range_and_exact_at_the_end() {
        in_range::<stickdice::EsSig>(3, 7);
        // Every shipped description, with its fewest and most seats.
        macro_rules! each {
            ([] $($variant:ident : $ty:path,)*) => {$(
                let (fewest, most) = <$ty as stickdice::Game>::SEATS;
                in_range::<$ty>(fewest, 1);
                in_range::<$ty>(most, 2);
            )*};
        }
        stickdice::for_each_described_game!(each);
    }
}
