//! Issiren's threat tables: the squares a piece can land on with each move value, the
//! move values that land on an enemy piece ([`attacks`]) and the chance that a throw gives
//! one of them ([`chance_of`]).

use stickdice::games::issiren::{circuit_square, throw_value, Piece, CIRCUIT_LEN};
use stickdice::{Sticks, Throw};

/// `DEST[seat][pos]`: the square bit of circuit position `pos mod 72` (for `pos` up to
/// 71 + 6, so a move never needs a wrap).
static DEST: [[u64; 80]; 2] = {
    let mut t = [[0u64; 80]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut pos = 0;
        while pos < 80 {
            t[seat][pos] = match circuit_square(seat, (pos % CIRCUIT_LEN as usize) as u8) {
                Some(sq) => sq.bit(),
                None => panic!("positions mod 72 are on the circuit"),
            };
            pos += 1;
        }
        seat += 1;
    }
    t
};

/// `REACH[seat][pos]`: the squares a moved piece at `pos` can land on with some throw
/// (moves of 1 to 6), so a piece that threatens nothing is passed over with one test.
static REACH: [[u64; 72]; 2] = {
    let mut t = [[0u64; 72]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut pos = 0;
        while pos < 72 {
            let mut v = 1;
            while v <= 6 {
                t[seat][pos] |= DEST[seat][pos + v];
                v += 1;
            }
            pos += 1;
        }
        seat += 1;
    }
    t
};

/// `t[seat][pos]`: `table[seat][pos mod 72 + offset]` for any `u8` position `pos`, so a
/// piece's entry is one lookup by its raw position (a division per piece costs more).
const fn at_any_pos<const N: usize>(table: &[[u64; N]; 2], offset: usize) -> [[u64; 256]; 2] {
    let mut t = [[0u64; 256]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut pos = 0;
        while pos < 256 {
            t[seat][pos] = table[seat][pos % CIRCUIT_LEN as usize + offset];
            pos += 1;
        }
        seat += 1;
    }
    t
}

/// `REACH_AT[seat][pos]`: `REACH[seat][pos mod 72]` for any `u8` position, so a piece's
/// reach is one lookup by its raw position.
pub(crate) static REACH_AT: [[u64; 256]; 2] = at_any_pos(&REACH, 0);

/// `SQUARE_AT[seat][pos]`: `DEST[seat][pos mod 72]` (the square bit of a piece at
/// `pos`) for any `u8` position.
pub(crate) static SQUARE_AT: [[u64; 256]; 2] = at_any_pos(&DEST, 0);

/// `STEP_AT[seat][pos]`: `DEST[seat][pos mod 72 + 1]` (where an unmoved piece's one
/// step lands) for any `u8` position.
pub(crate) static STEP_AT: [[u64; 256]; 2] = at_any_pos(&DEST, 1);

/// `P_VALUE[v]`: the probability that a throw moves `v` steps (1..=6).
const P_VALUE: [f64; 7] = {
    let mut p = [0.0; 7];
    let mut g = 0;
    while g <= Sticks::SIX.count() {
        let v = match throw_value(Throw::new(g)) {
            Some(v) => v,
            None => panic!("six sticks"),
        };
        p[v as usize] += Sticks::SIX.probability(g);
        g += 1;
    }
    p
};

/// `CHANCE[values]`: the chance that a throw's move value is among `values` (bit `v`
/// for a move of `v`), summed in order of `v` from -0.0 as an iterator's `sum` does.
static CHANCE: [f64; 128] = {
    let mut t = [0.0; 128];
    let mut values = 0;
    while values < 128 {
        let mut sum = -0.0;
        let mut v = 1;
        while v <= 6 {
            if values & (1 << v) != 0 {
                sum += P_VALUE[v];
            }
            v += 1;
        }
        t[values] = sum;
        values += 1;
    }
    t
};

/// `POS_MOD[pos]`: `pos mod 72`, for any `u8` position (a division per piece costs
/// more than the lookup).
static POS_MOD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut pos = 0;
    while pos < 256 {
        t[pos] = (pos % CIRCUIT_LEN as usize) as u8;
        pos += 1;
    }
    t
};

/// `MOVE_TO[seat][pos][square]`: the move value (1..=6) that takes a piece of `seat`
/// at `pos` onto `square`, for the squares in `REACH[seat][pos]` (six consecutive
/// positions are six different squares), else 0.
static MOVE_TO: [[[u8; 64]; 72]; 2] = {
    let mut t = [[[0u8; 64]; 72]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut pos = 0;
        while pos < 72 {
            let mut v = 1;
            while v <= 6 {
                let square = DEST[seat][pos + v].trailing_zeros() as usize;
                t[seat][pos][square] = v as u8;
                v += 1;
            }
            pos += 1;
        }
        seat += 1;
    }
    t
};

/// Which move values (bit `v`) let `seat` land on an enemy piece (`attacks(s, seat).0`),
/// and how many of its pieces have moved: one pass over its pieces.
#[inline(always)]
pub(crate) fn capturing_values_and_moved(
    s: &stickdice::games::issiren::State,
    seat: usize,
) -> (u8, u32) {
    let step = &STEP_AT[seat & 1];
    let reach = &REACH_AT[seat & 1];
    let move_to = &MOVE_TO[seat & 1];
    let enemy = s.occupied()[(seat & 1) ^ 1];
    let (mut values, mut moved) = (0u8, 0u32);
    for p in s.pieces_of(seat) {
        if p.unmoved {
            if step[p.pos as usize] & enemy != 0 {
                values |= 1 << 1;
            }
        } else {
            moved += 1;
            let mut hits = reach[p.pos as usize] & enemy;
            // Only a piece that hits needs its position mod 72.
            let pos = POS_MOD[p.pos as usize] as usize;
            while hits != 0 {
                let square = hits.trailing_zeros() as usize;
                values |= 1 << move_to[pos][square & 63];
                hits &= hits - 1;
            }
        }
    }
    (values, moved)
}

/// [`capturing_values_and_moved`] of `pieces` (of `seat`) against the enemy squares
/// `enemy`: the values are or-ed and the moved pieces counted, so the order of the
/// pieces does not matter.
#[inline(always)]
pub(crate) fn side_values(
    pieces: impl Iterator<Item = Piece>,
    seat: usize,
    enemy: u64,
) -> (u8, u32) {
    let (mut values, mut moved) = (0u8, 0u32);
    for p in pieces {
        moved += u32::from(!p.unmoved);
        values |= piece_values(p, seat, enemy);
    }
    (values, moved)
}

/// The move values (bit `v`) that let piece `p` of `seat` land on one of the squares
/// `enemy`: an unmoved piece's step of 1, a moved piece's hits in its reach.
#[inline(always)]
pub(crate) fn piece_values(p: Piece, seat: usize, enemy: u64) -> u8 {
    if p.unmoved {
        if STEP_AT[seat & 1][p.pos as usize] & enemy != 0 {
            1 << 1
        } else {
            0
        }
    } else {
        let mut values = 0u8;
        let mut hits = REACH_AT[seat & 1][p.pos as usize] & enemy;
        // Only a piece that hits needs its position mod 72.
        let pos = POS_MOD[p.pos as usize] as usize;
        while hits != 0 {
            let square = hits.trailing_zeros() as usize;
            values |= 1 << MOVE_TO[seat & 1][pos][square & 63];
            hits &= hits - 1;
        }
        values
    }
}

/// What `seat` attacks: the move values (bit `v`) that let it land on an enemy piece, and
/// the enemy squares some throw lets it land on (for the learned evaluation's features).
/// A moved piece's hits are the enemy squares in its reach, each giving the one move
/// value that lands there; an unmoved piece can only move 1.
#[inline]
pub(crate) fn attacks(s: &stickdice::games::issiren::State, seat: usize) -> (u8, u64) {
    let dest = &DEST[seat];
    let reach = &REACH[seat];
    let move_to = &MOVE_TO[seat];
    let enemy = s.occupied()[seat ^ 1];
    let (mut values, mut squares) = (0u8, 0u64);
    for p in s.pieces_of(seat) {
        let pos = POS_MOD[p.pos as usize] as usize;
        if p.unmoved {
            let hit = dest[pos + 1] & enemy;
            if hit != 0 {
                values |= 1 << 1;
                squares |= hit;
            }
        } else {
            let mut hits = reach[pos] & enemy;
            squares |= hits;
            while hits != 0 {
                let square = hits.trailing_zeros() as usize;
                values |= 1 << move_to[pos][square & 63];
                hits &= hits - 1;
            }
        }
    }
    (values, squares)
}

/// The chance that a throw's move value is among `values` (bit `v` for a move of `v`).
#[inline]
pub(crate) fn chance_of(values: u8) -> f64 {
    CHANCE[(values & 127) as usize]
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use stickdice::games::issiren::{Action, Position, State};
    use stickdice::{Game as _, Issiren, Node};

    /// Plays `games` random games (the throws and moves drawn from `rng`), calling
    /// `visit` at every node before it is played: at a decision with its legal actions,
    /// at a throw and at the end with none. `visit` may draw from `rng` too.
    pub(crate) fn each_node_of_random_games(
        game: &Issiren,
        games: usize,
        rng: &mut stickdice::Rng,
        mut visit: impl FnMut(&State, Option<&[Action]>, &mut stickdice::Rng),
    ) {
        use rand::RngExt as _;
        use stickdice::{ActionList, Game as _};
        let mut legal = ActionList::new();
        for _ in 0..games {
            let mut state = game.initial_state();
            loop {
                match game.node(&state) {
                    Node::Throw(_) => {
                        visit(&state, None, rng);
                        let t = game.sample_throw(rng);
                        game.apply_throw_unchecked(&mut state, t);
                    }
                    Node::Decide(_) => {
                        game.legal_actions(&state, &mut legal);
                        visit(&state, Some(&legal), rng);
                        let a = legal[rng.random_range(0..legal.len())];
                        game.apply_action_unchecked(&mut state, a);
                    }
                    Node::End => {
                        visit(&state, None, rng);
                        break;
                    }
                }
            }
        }
    }

    /// Each side's pieces placed anywhere: `min` to 12 of them, at any `u8` position
    /// (off the circuit too), a quarter of them unmoved.
    pub(crate) fn pieces_anywhere(rng: &mut stickdice::Rng, min: i32) -> [Vec<Piece>; 2] {
        use rand::RngExt as _;
        let mut sides: [Vec<Piece>; 2] = Default::default();
        for side in &mut sides {
            for _ in 0..rng.random_range(min..=12) {
                side.push(Piece {
                    pos: rng.random_range(0..=255),
                    unmoved: rng.random_range(0..4) == 0,
                });
            }
        }
        sides
    }

    /// `attacks` as it was written first: every move value of every piece looked up.
    pub(crate) fn attacks_step_by_step(
        s: &stickdice::games::issiren::State,
        seat: usize,
    ) -> (u8, u64) {
        let dest = &DEST[seat];
        let reach = &REACH[seat];
        let enemy = s.occupied()[seat ^ 1];
        let (mut values, mut squares) = (0u8, 0u64);
        for p in s.pieces_of(seat) {
            let pos = p.pos as usize % CIRCUIT_LEN as usize;
            if p.unmoved {
                if dest[pos + 1] & enemy != 0 {
                    values |= 1 << 1;
                    squares |= dest[pos + 1] & enemy;
                }
            } else if reach[pos] & enemy != 0 {
                squares |= reach[pos] & enemy;
                for v in 1..=6 {
                    if dest[pos + v] & enemy != 0 {
                        values |= 1 << v;
                    }
                }
            }
        }
        (values, squares)
    }

    /// What `capturing_values_and_moved` reads in one pass, as `evaluate` read it in two.
    fn one_pass(s: &stickdice::games::issiren::State, seat: usize) -> (u8, u32) {
        let moved = s.pieces_of(seat).iter().filter(|p| !p.unmoved).count() as u32;
        (attacks_step_by_step(s, seat).0, moved)
    }

    /// `attacks` (hits by square, positions reduced by table) gives exactly the
    /// step-by-step values and squares (and `capturing_values_and_moved` its values and
    /// the moved pieces) for both seats at every position of many random
    /// games, and at positions with pieces placed anywhere (off-circuit positions
    /// included: they are read mod 72).
    #[test]
    fn attacks_match_the_step_by_step_reading() {
        use rand::SeedableRng as _;
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(15);
        let mut checked = 0;
        let mut check = |state: &State| {
            for seat in 0..2 {
                assert_eq!(attacks(state, seat), attacks_step_by_step(state, seat));
                assert_eq!(
                    capturing_values_and_moved(state, seat),
                    one_pass(state, seat)
                );
            }
            checked += 1;
        };
        each_node_of_random_games(&game, 200, &mut rng, |state, _, _| check(state));
        for _ in 0..20_000 {
            let sides = pieces_anywhere(&mut rng, 1);
            // (Bitboards that disagree with the pieces cannot be built any more: the
            // state's fields are private and its constructors fill them in.)
            let position = Position::new(&sides[0], &sides[1]);
            check(&State::from_position_unvalidated(&position).unwrap());
        }
        assert!(checked > 50_000, "{checked}");
    }

    /// The constant tables agree with the sticks' outcomes and the plain sums.
    #[test]
    fn the_threat_tables_match_the_throws() {
        let mut p = [0.0; 7];
        for o in Sticks::SIX.outcomes() {
            p[throw_value(o.throw).expect("six sticks") as usize] += o.probability;
        }
        assert_eq!(p, P_VALUE);
        for values in 0..128u8 {
            let sum: f64 = (1..=6)
                .filter(|v| values & (1 << v) != 0)
                .map(|v| p[v])
                .sum();
            assert_eq!(
                sum.to_bits(),
                chance_of(values).to_bits(),
                "values {values:#b}"
            );
        }
        for (seat, row) in REACH.iter().enumerate() {
            for (pos, &table) in row.iter().enumerate() {
                let reach = (1..=6u8).fold(0, |m, v| {
                    let to = (pos as u8 + v) % CIRCUIT_LEN;
                    m | circuit_square(seat, to).expect("on the circuit").bit()
                });
                assert_eq!(reach, table, "seat {seat}, pos {pos}");
            }
        }
        for seat in 0..2 {
            for pos in 0..=255u8 {
                let p = pos % CIRCUIT_LEN;
                assert_eq!(REACH_AT[seat][pos as usize], REACH[seat][p as usize]);
                let step = circuit_square(seat, (p + 1) % CIRCUIT_LEN).expect("on the circuit");
                assert_eq!(
                    STEP_AT[seat][pos as usize],
                    step.bit(),
                    "seat {seat}, pos {pos}"
                );
            }
        }
    }
}
