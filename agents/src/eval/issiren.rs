//! The hand-set evaluation of Issiren.

use stickdice::games::issiren::{
    grants_extra_throw, throw_value, Action, Piece, PlannedMove, PIECES,
};
use stickdice::{Issiren, Node, Seat, SeatValues, Throw};

use super::{
    effective, from_share, material_against_threats, share, Evaluate, Evaluator, EvaluatorError,
    Greedy,
};
use crate::best::BestRated;
use crate::threats::issiren::{
    capturing_values_and_moved, chance_of, piece_values, side_values, REACH_AT, SQUARE_AT, STEP_AT,
};

/// Issiren: material first, then threats, then mobility.
///
/// Each side's *effective material* is its pieces left, plus 0.03 per moved piece
/// (unmoved pieces wait for a throw of four green sides), minus the chance that the
/// enemy captures one of them with its next throw: the side to throw (or to decide, with
/// the pending throw) counts that chance in full, the side after it at 40%, since the
/// side to move may flee or strike first. With `r` the share of seat 0's effective
/// material in both sides', seat 0's estimate is `r² / (r² + (1 − r)²)` — even at equal
/// material, sharper as the ratio grows (3 pieces to 1 is 0.9) — and seat 1's is one
/// minus it.
pub(crate) fn evaluate(game: &Issiren, s: &stickdice::games::issiren::State) -> SeatValues {
    use stickdice::Game as _;
    // The node first: `scores` (the ranking) is `Some` exactly at the end.
    let mover = match game.node(s) {
        Node::Throw(seat) | Node::Decide(seat) => seat,
        Node::End => return game.scores(s).expect("an ended game has scores"),
    };
    let sides = [
        capturing_values_and_moved(s, 0),
        capturing_values_and_moved(s, 1),
    ];
    let pieces = [s.pieces_of(0).len() as u32, s.pieces_of(1).len() as u32];
    estimate(mover, s.pending(), sides, pieces)
}

/// The estimate from each side's capturing values and moved pieces (`sides`), its
/// pieces left, the mover and the pending throw: [`evaluate`]'s arithmetic, in one place.
#[inline(always)]
fn estimate(
    mover: Seat,
    pending: Option<Throw>,
    sides: [(u8, u32); 2],
    pieces: [u32; 2],
) -> SeatValues {
    let mut threat = [0.0f64; 2]; // threat[s]: chance that s captures with its next throw
    for (seat, t) in threat.iter_mut().enumerate() {
        let values = sides[seat].0;
        *t = match (seat == mover, pending) {
            (true, Some(g)) => {
                let v = throw_value(g).unwrap_or(0);
                if values & (1 << v) != 0 {
                    1.0
                } else {
                    0.0
                }
            }
            _ => chance_of(values),
        };
    }
    let material = [
        material(pieces[0], sides[0].1),
        material(pieces[1], sides[1].1),
    ];
    material_against_threats(mover, material, threat, 1.0)
}

/// A side's material: its pieces and 0.03 per moved piece ([`estimate`]). Counts as
/// `u32` (at most 12): the same values, a cheaper conversion.
#[inline(always)]
fn material(pieces: u32, moved: u32) -> f64 {
    f64::from(pieces) + 0.03 * f64::from(moved)
}

/// What the moves of one decision share when their values are read without making
/// them ([`action_values`], [`play_greedy`]): the mover's capturing values, each
/// piece's and the ones two pieces share (a move changes only the moving piece's), each
/// side's pieces left and material, and the squares the enemy's pieces reach.
struct Decision<'a, const M: usize> {
    own: &'a [Piece],
    enemy: &'a [Piece],
    occupied_m: u64,
    occupied_e: u64,
    /// Each of the mover's pieces' capturing values.
    own_values: [u8; PIECES],
    /// The mover's capturing values, or-ed.
    values: u8,
    /// The values two or more of the mover's pieces have (so a move of one keeps them).
    shared_values: u8,
    pieces: [u32; 2],
    /// The mover's material after a move of a moved piece (`[0]`) or an unmoved one.
    material_m: [f64; 2],
    /// The enemy's material (a move that captures nothing leaves it).
    material_e: f64,
    /// The squares some enemy piece lands on with some throw: a move that leaves the
    /// mover on none of them gives the enemy no capturing value.
    enemy_reach: u64,
    /// Whether the mover's pieces stand on as many squares as it has pieces (so each
    /// piece is the one its square's move moves).
    distinct: bool,
    /// Whether the pending throw grants the mover another throw.
    extra: bool,
}

impl<'a, const M: usize> Decision<'a, M> {
    /// `None` unless the game goes on after any move (the next node is a throw): both
    /// sides have pieces, the throw cap is not reached, a throw is pending and the turn
    /// is `M` (seat 0 or 1), with a throw of six sticks.
    #[inline(always)]
    fn new(game: &Issiren, s: &'a stickdice::games::issiren::State) -> Option<Self> {
        let counts = 1..=PIECES as u8;
        let going = counts.contains(&s.count()[0])
            && counts.contains(&s.count()[1])
            && s.throws() < game.max_throws()
            && s.pending().is_some_and(|t| t.marked() <= 6)
            && s.turn() as usize == M;
        if !going {
            return None;
        }
        let (m, e) = (M & 1, (M & 1) ^ 1);
        let (own, enemy) = (s.pieces_of(m), s.pieces_of(e));
        let occupied_e = s.occupied()[e];
        let n = own.len();
        let mut own_values = [0u8; PIECES];
        let (mut values, mut shared_values) = (0u8, 0u8);
        let mut moved_m = 0u32;
        let (mut squares, mut shared) = (0u64, 0u64);
        for (j, &p) in own.iter().enumerate() {
            let v = piece_values(p, m, occupied_e);
            own_values[j] = v;
            shared_values |= values & v;
            values |= v;
            moved_m += u32::from(!p.unmoved);
            let square = SQUARE_AT[m][p.pos as usize];
            shared |= squares & square;
            squares |= square;
        }
        let (mut moved_e, mut enemy_reach) = (0u32, 0u64);
        for q in enemy {
            moved_e += u32::from(!q.unmoved);
            enemy_reach |= if q.unmoved {
                STEP_AT[e][q.pos as usize]
            } else {
                REACH_AT[e][q.pos as usize]
            };
        }
        let mut pieces = [0; 2];
        pieces[m] = n as u32;
        pieces[e] = enemy.len() as u32;
        Some(Decision {
            own,
            enemy,
            occupied_m: s.occupied()[m],
            occupied_e,
            own_values,
            values,
            shared_values,
            pieces,
            material_m: [
                material(pieces[m], moved_m),
                material(pieces[m], moved_m + 1),
            ],
            material_e: material(pieces[e], moved_e),
            enemy_reach,
            distinct: shared == 0,
            extra: s.pending().is_some_and(grants_extra_throw),
        })
    }

    /// Seat 0's estimate of the position after the move `p` ([`share`]; the values are
    /// [`from_share`] of it), read without making it; `None` for a move it does not read
    /// (the capture of the enemy's last piece, which ends the game).
    #[inline(always)]
    fn share(&self, p: &PlannedMove) -> Option<f64> {
        let (m, e) = (M & 1, (M & 1) ^ 1);
        let (own, enemy) = (self.own, self.enemy);
        let mover = if p.extra { m } else { e };
        match p.captured {
            None if p.piece < own.len() => {
                // The mover's pieces but the moving one, and that one at its new place;
                // the enemy's pieces against the mover's new squares.
                let i = p.piece;
                // The values of the other pieces: all but those only the moving one has.
                let others = self.values & !(self.own_values[i] & !self.shared_values);
                let mover_values =
                    others | piece_values(Piece::moved(p.to_pos), m, self.occupied_e);
                let own_occupied = (self.occupied_m & !p.from_bit) | p.to_bit;
                let mut enemy_values = 0u8;
                if own_occupied & self.enemy_reach != 0 {
                    for &q in enemy {
                        enemy_values |= piece_values(q, e, own_occupied);
                    }
                }
                // `estimate`'s arithmetic with no throw pending, the materials as the
                // decision has them; the next to act is the mover again on an extra
                // throw (every move of the decision has the same throw), else the enemy.
                let (weight_m, weight_e) = if self.extra { (0.4, 1.0) } else { (1.0, 0.4) };
                let material_m = self.material_m[usize::from(own[i].unmoved)];
                let eff_m = effective(material_m, weight_m, chance_of(enemy_values));
                let eff_e = effective(self.material_e, weight_e, chance_of(mover_values));
                let v0 = if m == 0 {
                    share(eff_m, eff_e)
                } else {
                    share(eff_e, eff_m)
                };
                Some(v0)
            }
            Some(skip) if enemy.len() > 1 => {
                let moved = own.iter().enumerate().map(|(k, &q)| {
                    if k == p.piece {
                        Piece::moved(p.to_pos)
                    } else {
                        q
                    }
                });
                let mover_side = side_values(moved, m, self.occupied_e & !p.to_bit);
                let own_occupied = (self.occupied_m & !p.from_bit) | p.to_bit;
                let left = enemy
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != skip)
                    .map(|(_, &q)| q);
                let enemy_side = side_values(left, e, own_occupied);
                let mut sides = [(0, 0); 2];
                sides[m] = mover_side;
                sides[e] = enemy_side;
                let mut left_pieces = self.pieces;
                left_pieces[e] -= 1;
                Some(estimate(mover, None, sides, left_pieces)[0])
            }
            _ => None,
        }
    }

    /// The mover's value of the position after the move `p` of `s` (the decision's
    /// position), and its seat 0 estimate where [`Decision::share`] read it without the
    /// move made (else the move is made on a copy and evaluated).
    #[inline(always)]
    fn value(
        &self,
        game: &Issiren,
        s: &stickdice::games::issiren::State,
        p: &PlannedMove,
    ) -> (f64, Option<f64>) {
        match self.share(p) {
            Some(v0) => (from_share(v0)[M], Some(v0)),
            None => {
                let mut next = *s;
                game.apply_move_of_piece(&mut next, p.piece);
                (evaluate(game, &next)[M], None)
            }
        }
    }
}

/// `seat`'s value of the position after `a`: the move made on a copy and evaluated.
#[inline]
fn value_after(game: &Issiren, s: &stickdice::games::issiren::State, seat: Seat, a: Action) -> f64 {
    use stickdice::Game as _;
    let mut next = *s;
    game.apply_action_unchecked(&mut next, a);
    evaluate(game, &next)[seat]
}

/// One decision of an ε-greedy playout, as `mcts::playouts::playout` makes it with
/// the hand-set evaluation (the same draws, values and move), by piece index: the
/// pieces that can move are a bitmask ([`stickdice::games::issiren::State::movable_pieces`],
/// the order of the legal moves), their values are read without making the moves
/// ([`Decision`]), and the chosen piece is moved by its index. A lone move (or the pass)
/// is made without a draw; otherwise a draw below `epsilon` picks a uniformly random
/// move, else the best-valued one is taken, ties broken uniformly in list order
/// (reservoir sampling), and the values of the position it leaves are returned with it
/// in `values` ([`Greedy::Rated`]: exactly [`evaluate`] of that position). Declines, with nothing
/// drawn or changed, where the decision is not one it reads: a move could end the game,
/// or the position is one [`stickdice::Game::validate`] rejects (two of the mover's
/// pieces on one square).
pub(crate) fn play_greedy(
    game: &Issiren,
    s: &mut stickdice::games::issiren::State,
    seat: Seat,
    rng: &mut stickdice::Rng,
    epsilon: f64,
    values: &mut SeatValues,
) -> Greedy {
    match s.turn() {
        0 => play_greedy_as::<0>(game, s, seat, rng, epsilon, values),
        1 => play_greedy_as::<1>(game, s, seat, rng, epsilon, values),
        _ => Greedy::Declined,
    }
}

/// [`play_greedy`] with seat `M` to move (each seat's tables at fixed places).
#[inline(always)]
fn play_greedy_as<const M: usize>(
    game: &Issiren,
    s: &mut stickdice::games::issiren::State,
    seat: Seat,
    rng: &mut stickdice::Rng,
    epsilon: f64,
    values: &mut SeatValues,
) -> Greedy {
    use rand::RngExt as _;
    use stickdice::Game as _;
    if seat != M {
        return Greedy::Declined; // not the decision's own seat: not a playout's decision
    }
    let mut rated = false;
    let piece = {
        let Some(d) = Decision::<M>::new(game, s) else {
            return Greedy::Declined;
        };
        if !d.distinct {
            return Greedy::Declined;
        }
        let mut moves = s.planned_moves();
        if moves.at_most_one() {
            moves.next().map(|p| p.piece)
        } else if rng.random::<f64>() < epsilon {
            let k = stickdice::play::uniform_index(rng, moves.remaining());
            moves.nth(k).map(|p| p.piece)
        } else if let Some(first) = moves.next() {
            // The best move (the first stands until one is taken, as the legal list's
            // first does in the listing path), ties broken uniformly in list order,
            // with its seat 0 estimate where it was read without the move made.
            let mut best = BestRated::new((first.piece, None));
            let (v, share) = d.value(game, s, &first);
            best.offer((first.piece, share), v, rng);
            for p in moves {
                let (v, share) = d.value(game, s, &p);
                best.offer((p.piece, share), v, rng);
            }
            let (piece, best_share) = best.item();
            if let Some(v0) = best_share {
                *values = from_share(v0);
                rated = true;
            }
            Some(piece)
        } else {
            None
        }
    };
    match piece {
        Some(i) => game.apply_move_of_piece(s, i),
        None => game.apply_action_unchecked(s, Action::Pass),
    }
    if rated {
        Greedy::Rated
    } else {
        Greedy::Made
    }
}

/// `out[k]`: [`evaluate`] of the position after `actions[k]`, for `seat`, the same
/// values with no move made. Every move's plan is read from `s`
/// ([`stickdice::games::issiren::State::planned_move`]) and each side's capturing values
/// gathered once: the mover's piece by piece (a move changes one piece's), and the
/// enemy's against the mover's new squares. A move that captures is read piece by
/// piece on the new squares; anything else (a pass, a move that ends the game, the
/// throw cap, a position whose pieces and bitboards disagree) is made on a copy and
/// evaluated. Capturing values are or-ed and moved pieces counted, so the order of
/// the pieces does not matter, and [`estimate`] does the same arithmetic as [`evaluate`].
pub(crate) fn action_values(
    game: &Issiren,
    s: &stickdice::games::issiren::State,
    seat: Seat,
    actions: &[Action],
    out: &mut [f64],
) {
    match s.turn() {
        0 => action_values_as::<0>(game, s, seat, actions, out),
        _ => action_values_as::<1>(game, s, seat, actions, out),
    }
}

/// [`action_values`] with seat `M` to move, or made move by move if another is.
#[inline(always)]
fn action_values_as<const M: usize>(
    game: &Issiren,
    s: &stickdice::games::issiren::State,
    seat: Seat,
    actions: &[Action],
    out: &mut [f64],
) {
    let Some(d) = Decision::<M>::new(game, s).filter(|_| actions.len() <= PIECES) else {
        for (v, &a) in out.iter_mut().zip(actions) {
            *v = value_after(game, s, seat, a);
        }
        return;
    };
    for (v, &a) in out.iter_mut().zip(actions) {
        let plan = match a {
            Action::Move(from) => s.planned_move(from),
            Action::Pass => None,
        };
        *v = match plan.and_then(|p| d.share(&p)) {
            Some(v0) => from_share(v0)[seat],
            None => value_after(game, s, seat, a),
        };
    }
}

impl Evaluate for stickdice::Issiren {
    const RANDOM_PLAYOUTS_BY_DEFAULT: bool = true;

    /// The learned evaluation with the shipped weights ([`crate::learned::shipped`]).
    #[inline]
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        crate::learned::shipped().evaluate(self, state)
    }

    /// `learned` (the shipped weights), `hand` (the hand-set evaluation: material, threats
    /// and mobility) or the path of a weights file (loaded once per process).
    fn evaluator(name: &str) -> Result<Evaluator<Self>, EvaluatorError> {
        match name {
            "learned" => Ok(Evaluator::issiren_learned(crate::learned::shipped())),
            "hand" => Ok(Evaluator::issiren_hand()),
            path => crate::learned::shared(path)
                .map(Evaluator::issiren_learned)
                .map_err(EvaluatorError::Weights),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threats::issiren::tests::{
        attacks_step_by_step, each_node_of_random_games, pieces_anywhere,
    };
    use stickdice::games::issiren::{circuit_square, Position, State, CIRCUIT_LEN};
    use stickdice::Game as _;
    use stickdice::MAX_SEATS;

    /// Every action's value from `action_values`, bit for bit, is `evaluate` of the
    /// position after the action is made (`apply_action_unchecked` on a copy), for both
    /// seats: at every decision of 300 random games (the legal actions, a pass and moves
    /// from random squares), and at decisions with pieces placed anywhere, bitboards
    /// damaged, any turn, any throw and throw counts at the cap.
    #[test]
    fn action_values_match_making_each_move() {
        use rand::{RngExt as _, SeedableRng as _};
        use stickdice::Game as _;
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(1515);
        let square = |rng: &mut stickdice::Rng| {
            Action::Move(circuit_square(0, rng.random_range(0..CIRCUIT_LEN)).unwrap())
        };
        let check = |s: &State, actions: &[Action], checked: &mut u32| {
            for seat in 0..2 {
                let mut out = vec![0.0; actions.len()];
                action_values(&game, s, seat, actions, &mut out);
                for (&a, v) in actions.iter().zip(&out) {
                    let mut next = *s;
                    game.apply_action_unchecked(&mut next, a);
                    let plain = evaluate(&game, &next)[seat];
                    assert_eq!(v.to_bits(), plain.to_bits(), "{s:?} {a:?} seat {seat}");
                    *checked += 1;
                }
            }
        };
        let mut checked = 0;
        each_node_of_random_games(&game, 300, &mut rng, |state, legal, rng| {
            if let Some(legal) = legal {
                let mut actions: Vec<Action> = legal.to_vec();
                actions.push(Action::Pass);
                actions.push(square(rng));
                check(state, &actions, &mut checked);
            }
        });
        for _ in 0..20_000 {
            let sides = pieces_anywhere(&mut rng, 0);
            let state = State::from_position_unvalidated(&Position {
                turn: rng.random_range(0..3),
                pending: Some(Throw::new(rng.random_range(0..=6))),
                throws: game.max_throws() - rng.random_range(0..3),
                ..Position::new(&sides[0], &sides[1])
            })
            .unwrap();
            let actions: Vec<Action> = (0..rng.random_range(1..=12))
                .map(|_| match rng.random_range(0..8) {
                    0 => Action::Pass,
                    _ => square(&mut rng),
                })
                .collect();
            check(&state, &actions, &mut checked);
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// `evaluate` as it was written first: the scores asked for first, the pieces
    /// read in separate passes for the threats and the moved pieces.
    fn evaluate_as_first_written(
        game: &Issiren,
        s: &stickdice::games::issiren::State,
    ) -> SeatValues {
        use stickdice::Game as _;
        if let Some(scores) = game.scores(s) {
            return scores;
        }
        let mover = match game.node(s) {
            Node::Throw(seat) | Node::Decide(seat) => seat,
            Node::End => unreachable!("ended games have scores"),
        };
        let mut threat = [0.0f64; 2];
        for (seat, t) in threat.iter_mut().enumerate() {
            let values = attacks_step_by_step(s, seat).0;
            *t = match (seat == mover, s.pending()) {
                (true, Some(g)) => {
                    let v = throw_value(g).unwrap_or(0);
                    if values & (1 << v) != 0 {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => chance_of(values),
            };
        }
        let mut eff = [0.0f64; 2];
        for (seat, e) in eff.iter_mut().enumerate() {
            let pieces = s.pieces_of(seat);
            let moved = pieces.iter().filter(|p| !p.unmoved).count();
            let enemy = seat ^ 1;
            let weight = if enemy == mover { 1.0 } else { 0.4 };
            *e = (pieces.len() as f64 + 0.03 * moved as f64 - weight * threat[enemy]).max(0.05);
        }
        let r = eff[0] / (eff[0] + eff[1]);
        let (a, b) = (r * r, (1.0 - r) * (1.0 - r));
        let v0 = (a / (a + b)).clamp(0.0, 1.0);
        let mut out = [0.0; MAX_SEATS];
        out[0] = v0;
        out[1] = 1.0 - v0;
        out
    }

    /// `evaluate` gives bit for bit what it gave as first written, at every throw,
    /// decision and end node of many random games.
    #[test]
    fn evaluate_is_bit_identical_to_its_first_reading() {
        use rand::SeedableRng as _;
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(16);
        let mut checked = 0;
        each_node_of_random_games(&game, 200, &mut rng, |state, _, _| {
            let (a, b) = (
                evaluate(&game, state),
                evaluate_as_first_written(&game, state),
            );
            assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{state:?}");
            checked += 1;
        });
        assert!(checked > 50_000, "{checked}");
    }
}
