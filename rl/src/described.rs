//! The action codes and observation tensors of the described games (`src/described/`),
//! derived from the description alone: one layout type, [`DescribedCodes`], built once
//! per game from every game its description gives (each allowed seat count with its
//! options' values, [`Described::variants`]), and one [`Encoded`] impl for every game of
//! the list that the description engine plays ([`DescribedGame`]).
//!
//! * **Squares:** the squares any variant's board has, ascending by row then column
//!   (the index of `a1` is 0); on a full rectangle of C columns the index of a square is
//!   `row * C + col`, with C the largest column count the options allow.
//! * **Action codes**, in sections present only where the description can produce the
//!   action: `SQUARE` (a move) square index; `SQUARE/branch` square index × branches +
//!   branch; `SQUARE/v` (a held value spent) square index × values + value's rank;
//!   `SQUARE+j` (a move lengthened by j stored values) square index × J + j − 1, J the
//!   longest lengthening a track allows; `unlock SQUARE` the start square's rank; then
//!   `store`, `back`, `forward`, `enter`, and `pass` last.
//! * **Observation:** per side, planes over the squares (the side's pieces — a count for
//!   stacks and shared squares —, unmoved pieces, each named flag, the hold count) and
//!   scalars (pieces off the board, pieces gone, captures, stored values); per seat, got
//!   out and whose turn; the chaser; the throw awaiting its move; held values; the
//!   opening; throws made.
//!
//! [`DescribedCodes::codes_doc`] and [`DescribedCodes::observation_doc`] say the layout of
//! one game in words; the book's chapter `docs/python-described-codes.md` is generated from them
//! (a test checks the committed text).

use std::fmt::Write as _;

use stickdice::described::format::Occupancy;
use stickdice::described::{Action, Described, Kind, State};
use stickdice::{Game, Node};

use crate::Encoded;

const NO: u16 = u16::MAX;

/// Held values are counted up to this many in the observation.
const HELD_SCALE: f32 = 8.0;

/// A game of the list played by the description engine: its newtype gives the engine
/// and the layout derived from its description (built once).
pub trait DescribedGame:
    Game<State = stickdice::described::State, Action = stickdice::described::Action>
{
    /// The engine playing this game.
    fn engine(&self) -> &Described;
    /// The layout of the game's description (every option value and seat count).
    fn codes() -> &'static DescribedCodes;
    /// The game played by an engine built from this game's description (a
    /// [`Described::variants`] entry).
    fn from_engine(engine: Described) -> Self;
}

/// The action codes and observation layout of one description.
#[derive(Clone, Debug)]
pub struct DescribedCodes {
    title: String,
    /// Square codes, ascending.
    squares: Vec<u8>,
    /// Square code → index, or [`NO`].
    index: [u16; 256],
    /// Columns of the full rectangle, if the squares are one from `a1`.
    columns: Option<usize>,
    move_at: Option<u32>,
    branches: Vec<[u8; 8]>,
    branch_at: u32,
    held_values: Vec<u8>,
    held_rank: [u8; 16],
    held_at: u32,
    plus_max: u32,
    plus_at: u32,
    unlock_squares: Vec<u8>,
    unlock_rank: [u16; 256],
    unlock_at: u32,
    store_at: Option<u32>,
    back_at: Option<u32>,
    enter_at: Option<u32>,
    pass_at: u32,
    num: usize,
    decode: Vec<Action>,
    // Observation.
    unmoved_plane: bool,
    flag_names: Vec<String>,
    hold_plane: bool,
    off_scalar: bool,
    captures_scalar: bool,
    stock_scalar: bool,
    chaser: bool,
    max_sticks: usize,
    held_obs: bool,
    opening: bool,
    observation_doc: String,
    codes_doc: String,
}

fn show(sq: u8) -> String {
    format!("{}{}", (b'a' + (sq & 31)) as char, (sq >> 5) + 1)
}

/// What the games of one description have between them (every option value and seat
/// count): the squares, branches, held values and start squares of any of them, in order,
/// and which kinds of action and parts of the state any of them has.
struct Union {
    squares: Vec<u8>,
    branches: Vec<String>,
    held_values: Vec<u8>,
    unlock_squares: Vec<u8>,
    flag_names: Vec<String>,
    moves: bool,
    holds: bool,
    store: bool,
    unlock: bool,
    chaser: bool,
    enter: bool,
    unmoved: bool,
    hold_plane: bool,
    captures: bool,
    opening: bool,
    track: usize,
    sticks: usize,
}

impl Union {
    fn of(variants: &[Described]) -> Union {
        let mut squares: Vec<u8> = Vec::new();
        let mut branches: Vec<String> = Vec::new();
        let mut held_values: Vec<u8> = Vec::new();
        let mut unlock_squares: Vec<u8> = Vec::new();
        let mut flag_names: Vec<String> = Vec::new();
        let (mut moves, mut holds, mut store, mut unlock, mut chaser, mut enter) =
            (false, false, false, false, false, false);
        let (mut unmoved, mut hold_plane, mut captures, mut opening) = (false, false, false, false);
        let (mut track, mut sticks) = (0usize, 0usize);
        for v in variants {
            for sq in v.board_squares() {
                if !squares.contains(&sq) {
                    squares.push(sq);
                }
            }
            for b in v.branch_names() {
                if !branches.contains(&b) {
                    branches.push(b);
                }
            }
            for f in v.flag_names() {
                if !flag_names.contains(f) {
                    flag_names.push(f.clone());
                }
            }
            if v.holds_values() {
                holds = true;
                for &x in v.throw_values() {
                    if !held_values.contains(&x) {
                        held_values.push(x);
                    }
                }
            } else {
                moves = true;
            }
            store |= v.store_value().is_some();
            if v.unlocks() {
                unlock = true;
                for sq in v.start_squares() {
                    if !unlock_squares.contains(&sq) {
                        unlock_squares.push(sq);
                    }
                }
            }
            chaser |= v.has_chaser();
            enter |= v.enters();
            unmoved |= v.starts_unmoved();
            hold_plane |= v.has_holds();
            captures |= v.captures_by_landing();
            opening |= v.has_opening();
            track = track.max(v.track_len());
            sticks = sticks.max(usize::from(v.stick_count()));
        }
        squares.sort_unstable();
        held_values.sort_unstable();
        unlock_squares.sort_unstable();
        Union {
            squares,
            branches,
            held_values,
            unlock_squares,
            flag_names,
            moves,
            holds,
            store,
            unlock,
            chaser,
            enter,
            unmoved,
            hold_plane,
            captures,
            opening,
            track,
            sticks,
        }
    }
}

/// Plane `p` of a side's part of the observation (`n` squares a plane).
#[inline(always)]
fn plane(side: &mut [f32], n: usize, p: usize) -> &mut [f32] {
    &mut side[p * n..(p + 1) * n]
}

/// Calls `f(k, i, cell)` for each piece `k` of the set `pieces` (bit `k`) whose square
/// (`squares[k]`) has an index `i` in the layout (`index`), with `plane[i]`: `plane` is
/// one plane of the observation, as long as the layout has squares.
#[inline(always)]
fn each_placed(
    squares: &[u8],
    index: &[u16; 256],
    plane: &mut [f32],
    mut pieces: u64,
    mut f: impl FnMut(usize, usize, &mut f32),
) {
    while pieces != 0 {
        let k = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        // A square off the layout (`NO`) is past every plane (at most 256 squares).
        let i = squares.get(k).map_or(NO, |&sq| index[sq as usize]);
        if let Some(cell) = plane.get_mut(usize::from(i)) {
            f(k, usize::from(i), cell);
        }
    }
}

impl DescribedCodes {
    /// The layout of every game a description gives (its [`Described::variants`]).
    ///
    /// # Panics
    /// If the description gives no game at all (a shipped description always gives one).
    pub fn of(game: &Described) -> DescribedCodes {
        let base = std::sync::Arc::new(game.base().clone());
        let mut variants = Described::variants(&base);
        if variants.is_empty() {
            variants.push(game.clone());
        }
        let u = Union::of(&variants);
        let mut index = [NO; 256];
        for (i, &sq) in u.squares.iter().enumerate() {
            index[sq as usize] = i as u16;
        }
        let cols = u
            .squares
            .iter()
            .map(|&s| usize::from(s & 31) + 1)
            .max()
            .unwrap_or(0);
        let rows = u
            .squares
            .iter()
            .map(|&s| usize::from(s >> 5) + 1)
            .max()
            .unwrap_or(0);
        let columns = (u.squares.len() == rows * cols).then_some(cols);
        let mut unlock_rank = [NO; 256];
        for (i, &sq) in u.unlock_squares.iter().enumerate() {
            unlock_rank[sq as usize] = i as u16;
        }
        let mut held_rank = [u8::MAX; 16];
        for (i, &v) in u.held_values.iter().enumerate() {
            held_rank[(v as usize).min(15)] = i as u8;
        }
        let branch_bytes: Vec<[u8; 8]> = u
            .branches
            .iter()
            .map(|b| {
                let mut n = [0u8; 8];
                let len = b.len().min(8);
                n[..len].copy_from_slice(&b.as_bytes()[..len]);
                n
            })
            .collect();
        let n = u.squares.len() as u32;
        let plus_max = if u.store {
            u.track.saturating_sub(2) as u32
        } else {
            0
        };
        let mut at = 0u32;
        let mut section = |present: bool, size: u32| {
            let start = at;
            if present {
                at += size;
            }
            present.then_some(start)
        };
        let move_at = section(u.moves, n);
        let branch_at = section(!u.branches.is_empty(), n * u.branches.len() as u32).unwrap_or(0);
        let held_at = section(u.holds, n * u.held_values.len() as u32).unwrap_or(0);
        let plus_at = section(u.store, n * plus_max).unwrap_or(0);
        let unlock_at = section(u.unlock, u.unlock_squares.len() as u32).unwrap_or(0);
        let store_at = section(u.store, 1);
        let back_at = section(u.chaser, 2);
        let enter_at = section(u.enter, 1);
        let pass_at = section(true, 1).unwrap_or(0);
        let num = at as usize;
        let mut codes = DescribedCodes {
            title: game.title().to_string(),
            squares: u.squares,
            index,
            columns,
            move_at,
            branches: branch_bytes,
            branch_at,
            held_values: u.held_values,
            held_rank,
            held_at,
            plus_max,
            plus_at,
            unlock_squares: u.unlock_squares,
            unlock_rank,
            unlock_at,
            store_at,
            back_at,
            enter_at,
            pass_at,
            num,
            decode: Vec::new(),
            unmoved_plane: u.unmoved,
            flag_names: u.flag_names,
            hold_plane: u.hold_plane,
            off_scalar: u.enter,
            captures_scalar: u.captures,
            stock_scalar: u.store,
            chaser: u.chaser,
            max_sticks: u.sticks,
            held_obs: u.holds,
            opening: u.opening,
            observation_doc: String::new(),
            codes_doc: String::new(),
        };
        codes.decode = (0..num as u32)
            .map(|c| {
                codes
                    .notation(c)
                    .parse::<Action>()
                    .expect("every code's notation reads back")
            })
            .collect();
        codes.codes_doc = codes.write_codes_doc();
        codes.observation_doc = codes.write_observation_doc();
        codes
    }

    /// The number of action codes.
    pub fn num_actions(&self) -> usize {
        self.num
    }

    /// The action of each code, in notation (`0..num_actions`).
    fn notation(&self, code: u32) -> String {
        let n = self.squares.len() as u32;
        let mut c = code;
        if self.move_at.is_some() {
            if c < n {
                return show(self.squares[c as usize]);
            }
            c -= n;
        }
        let nb = self.branches.len() as u32;
        if nb > 0 {
            if c < n * nb {
                let b = &self.branches[(c % nb) as usize];
                let len = b.iter().position(|&x| x == 0).unwrap_or(8);
                return format!(
                    "{}/{}",
                    show(self.squares[(c / nb) as usize]),
                    String::from_utf8_lossy(&b[..len])
                );
            }
            c -= n * nb;
        }
        let nv = if self.held_obs {
            self.held_values.len() as u32
        } else {
            0
        };
        if nv > 0 {
            if c < n * nv {
                return format!(
                    "{}/{}",
                    show(self.squares[(c / nv) as usize]),
                    self.held_values[(c % nv) as usize]
                );
            }
            c -= n * nv;
        }
        if self.store_at.is_some() {
            let j = self.plus_max;
            if c < n * j {
                return format!("{}+{}", show(self.squares[(c / j) as usize]), c % j + 1);
            }
            c -= n * j;
        }
        let nu = self.unlock_squares.len() as u32;
        if c < nu {
            return format!("unlock {}", show(self.unlock_squares[c as usize]));
        }
        c -= nu;
        for (present, names) in [
            (self.store_at.is_some(), &["store"][..]),
            (self.back_at.is_some(), &["back", "forward"][..]),
            (self.enter_at.is_some(), &["enter"][..]),
        ] {
            if present {
                if (c as usize) < names.len() {
                    return names[c as usize].to_string();
                }
                c -= names.len() as u32;
            }
        }
        "pass".to_string()
    }

    /// The code of an action; a code past the last ([`u32::MAX`]) for an action no game of
    /// the description can list (a square off every board).
    #[inline]
    pub fn encode(&self, a: Action) -> u32 {
        const NONE: u32 = u32::MAX;
        let sq = |a: &Action| {
            a.square_code()
                .map_or(NO, |sq| self.index[sq as usize])
                .into()
        };
        match a.kind() {
            Kind::Move => match (self.move_at, sq(&a)) {
                (Some(at), i) if i != u32::from(NO) => at + i,
                _ => NONE,
            },
            Kind::Branch => {
                let i: u32 = sq(&a);
                let name = a.branch_bytes().unwrap_or_default();
                match self.branches.iter().position(|b| *b == name) {
                    Some(b) if i != u32::from(NO) => {
                        self.branch_at + i * self.branches.len() as u32 + b as u32
                    }
                    _ => NONE,
                }
            }
            Kind::Held => {
                let i: u32 = sq(&a);
                let r = self.held_rank[(a.arg() as usize).min(15)];
                if !self.held_obs || i == u32::from(NO) || r == u8::MAX {
                    NONE
                } else {
                    self.held_at + i * self.held_values.len() as u32 + u32::from(r)
                }
            }
            Kind::Plus => {
                let i: u32 = sq(&a);
                let j = u32::from(a.arg());
                if self.store_at.is_none() || i == u32::from(NO) || j == 0 || j > self.plus_max {
                    NONE
                } else {
                    self.plus_at + i * self.plus_max + j - 1
                }
            }
            Kind::Unlock => {
                let r = a
                    .square_code()
                    .map_or(NO, |sq| self.unlock_rank[sq as usize]);
                if r == NO {
                    NONE
                } else {
                    self.unlock_at + u32::from(r)
                }
            }
            Kind::Store => self.store_at.unwrap_or(NONE),
            Kind::Back => self.back_at.unwrap_or(NONE),
            Kind::Forward => self.back_at.map_or(NONE, |b| b + 1),
            Kind::Enter => self.enter_at.unwrap_or(NONE),
            Kind::Pass => self.pass_at,
            // A self-steering chaser's move is never a decision.
            Kind::Drive => NONE,
        }
    }

    /// The action of a code, if it is one.
    #[inline]
    pub fn decode(&self, code: u32) -> Option<Action> {
        self.decode.get(code as usize).copied()
    }

    /// The length of the observation for a game of this description.
    pub fn observation_len(&self, game: &Described) -> usize {
        let (sides, seats) = (game.sides(), game.seats());
        sides * self.side_len() + 2 * seats + self.global_len()
    }

    fn planes(&self) -> usize {
        1 + usize::from(self.unmoved_plane) + self.flag_names.len() + usize::from(self.hold_plane)
    }

    fn side_scalars(&self) -> usize {
        1 + usize::from(self.off_scalar)
            + usize::from(self.captures_scalar)
            + usize::from(self.stock_scalar)
    }

    fn side_len(&self) -> usize {
        self.planes() * self.squares.len() + self.side_scalars()
    }

    fn global_len(&self) -> usize {
        let chaser = if self.chaser { self.squares.len() } else { 0 };
        let held = if self.held_obs {
            self.held_values.len() + 1
        } else {
            0
        };
        chaser + self.max_sticks + 1 + held + usize::from(self.opening) + 1
    }

    /// Writes the observation of `s` into `out` (zeroed, [`Self::observation_len`] long).
    pub fn observe(&self, game: &Described, s: &State, out: &mut [f32]) {
        let n = self.squares.len();
        let sides = game.sides();
        let pps = game.pieces_per_side().max(1);
        let single = game.occupancy() == Occupancy::Single;
        let count_scale = if single { 1.0 } else { 1.0 / pps as f32 };
        let side_len = self.side_len();
        let planes = self.planes();
        // The plane (past the unmoved one) of each of the game's flag bits, if the layout
        // has it.
        let mut flag_plane = [NO; 8];
        let mut flag_bits = 0u8;
        if !self.flag_names.is_empty() {
            for (bit, name) in game.flag_names().iter().enumerate().take(8) {
                if let Some(f) = self.flag_names.iter().position(|x| x == name) {
                    flag_plane[bit] = f as u16;
                    flag_bits |= 1 << bit;
                }
            }
        }
        let flags_at = 1 + usize::from(self.unmoved_plane);
        let hold_at = flags_at + self.flag_names.len();
        let (on_board, in_game, unmoved) =
            (s.pieces_on_board(), s.pieces_in_game(), s.pieces_unmoved());
        let squares = s.piece_squares();
        let side_pieces = u64::MAX >> (64 - pps.min(64));
        for side in 0..sides {
            let base = side * side_len;
            let mine = u32::try_from(side * pps)
                .ok()
                .and_then(|shift| side_pieces.checked_shl(shift))
                .unwrap_or(0);
            let pieces = on_board & mine;
            let index = &self.index;
            let side_out = &mut out[base..base + side_len];
            let (counts, rest) = side_out.split_at_mut(n);
            // Empty without the plane (no piece is unmoved then).
            let unmoved_cells: &mut [f32] = if self.unmoved_plane {
                &mut rest[..n]
            } else {
                &mut []
            };
            let mut mark_unmoved = |k: usize, i: usize| {
                if unmoved >> k & 1 == 1 {
                    if let Some(u) = unmoved_cells.get_mut(i) {
                        *u = 1.0;
                    }
                }
            };
            if single {
                // min(cell + 1, 1) is 1 for a cell of 0 or 1.
                each_placed(squares, index, counts, pieces, |k, i, cell| {
                    *cell = 1.0;
                    mark_unmoved(k, i);
                });
            } else {
                each_placed(squares, index, counts, pieces, |k, i, cell| {
                    *cell = (*cell + count_scale).min(1.0);
                    mark_unmoved(k, i);
                });
            }
            let mut bits = flag_bits;
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                let p = flags_at + usize::from(flag_plane[bit as usize]);
                each_placed(
                    squares,
                    index,
                    plane(side_out, n, p),
                    pieces,
                    |k, _, cell| {
                        if s.piece_flags(k) >> bit & 1 == 1 {
                            *cell = 1.0;
                        }
                    },
                );
            }
            if self.hold_plane {
                each_placed(
                    squares,
                    index,
                    plane(side_out, n, hold_at),
                    pieces,
                    |k, _, cell| {
                        let need = s.piece_position(k).map_or(0, |p| game.hold_throws(p));
                        if need > 0 {
                            let v = f32::from(s.piece_hold_count(k)) / f32::from(need);
                            *cell = cell.max(v.min(1.0));
                        }
                    },
                );
            }
            let off = (in_game & !on_board & mine).count_ones();
            let gone = pps as u32 - (in_game & mine).count_ones();
            let mut at = base + planes * n;
            out[at] = gone as f32 / pps as f32;
            at += 1;
            if self.off_scalar {
                out[at] = off as f32 / pps as f32;
                at += 1;
            }
            if self.captures_scalar {
                out[at] = (s.captures(side) as f32 / pps as f32).min(1.0);
                at += 1;
            }
            if self.stock_scalar {
                out[at] = (s.stock(side) as f32 / self.plus_max.max(1) as f32).min(1.0);
            }
        }
        self.observe_shared(game, s, out, sides * side_len);
    }

    /// Writes what follows the sides, from `at`: per seat, then what the whole game shares.
    fn observe_shared(&self, game: &Described, s: &State, out: &mut [f32], mut at: usize) {
        let n = self.squares.len();
        let seats = game.seats();
        for seat in 0..seats {
            if s.out_place(seat) != 0 {
                out[at + seat] = 1.0;
            }
        }
        at += seats;
        if game.node(s) != Node::End {
            out[at + s.turn().min(seats - 1)] = 1.0;
        }
        at += seats;
        if self.chaser {
            if let Some(sq) = game.chaser_square(s) {
                let i = self.index[sq as usize];
                if i != NO {
                    out[at + i as usize] = 1.0;
                }
            }
            at += n;
        }
        if let Some(m) = s.pending_marked() {
            out[at + (m as usize).min(self.max_sticks)] = 1.0;
        }
        at += self.max_sticks + 1;
        if self.held_obs {
            for (r, &v) in self.held_values.iter().enumerate() {
                out[at + r] = (f32::from(s.held_count(v)) / HELD_SCALE).min(1.0);
            }
            at += self.held_values.len();
            out[at] = f32::from(u8::from(s.is_spending()));
            at += 1;
        }
        if self.opening {
            out[at] = f32::from(u8::from(s.in_opening()));
            at += 1;
        }
        out[at] = (f64::from(s.throws()) / f64::from(game.max_throws().max(1))) as f32;
    }

    /// The action codes in words.
    pub fn codes_doc(&self) -> &str {
        &self.codes_doc
    }

    /// The observation's layout in words (`n` seats, `s` sides).
    pub fn observation_doc(&self) -> &str {
        &self.observation_doc
    }

    fn squares_doc(&self) -> String {
        let n = self.squares.len();
        match self.columns {
            Some(c) => format!(
                "{n} squares, index `row * {c} + col` (`a1` = 0, `{}` = {}, `{}` = {})",
                show(self.squares[c.min(n) - 1]),
                c.min(n) - 1,
                show(self.squares[n - 1]),
                n - 1
            ),
            None => format!(
                "{n} squares, indexed in this order: {}",
                self.squares
                    .iter()
                    .map(|&q| show(q))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    fn write_codes_doc(&self) -> String {
        let n = self.squares.len() as u32;
        let mut t = format!("{} action codes over {}:", self.num, self.squares_doc());
        let mut parts: Vec<String> = Vec::new();
        let range = |a: u32, len: u32| format!("[{a}, {})", a + len);
        if let Some(at) = self.move_at {
            parts.push(format!("{} `SQUARE`: {at} + square index", range(at, n)));
        }
        if !self.branches.is_empty() {
            let nb = self.branches.len() as u32;
            let names: Vec<String> = self
                .branches
                .iter()
                .map(|b| {
                    let len = b.iter().position(|&x| x == 0).unwrap_or(8);
                    format!("`{}`", String::from_utf8_lossy(&b[..len]))
                })
                .collect();
            parts.push(format!(
                "{} `SQUARE/branch`: {} + square index × {nb} + branch ({})",
                range(self.branch_at, n * nb),
                self.branch_at,
                names
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("{s} = {i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if self.held_obs {
            let nv = self.held_values.len() as u32;
            parts.push(format!(
                "{} `SQUARE/v` (a held value spent): {} + square index × {nv} + the value's rank \
                 among {:?}",
                range(self.held_at, n * nv),
                self.held_at,
                self.held_values
            ));
        }
        if self.store_at.is_some() {
            let j = self.plus_max;
            parts.push(format!(
                "{} `SQUARE+j` (j stored values added, 1 ≤ j ≤ {j}): {} + square index × {j} + j − 1",
                range(self.plus_at, n * j),
                self.plus_at
            ));
        }
        if !self.unlock_squares.is_empty() {
            parts.push(format!(
                "{} `unlock SQUARE`: {} + the rank of the square among the start squares {}",
                range(self.unlock_at, self.unlock_squares.len() as u32),
                self.unlock_at,
                self.unlock_squares
                    .iter()
                    .map(|&q| show(q))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(at) = self.store_at {
            parts.push(format!("`store` = {at}"));
        }
        if let Some(at) = self.back_at {
            parts.push(format!("`back` = {at}, `forward` = {}", at + 1));
        }
        if let Some(at) = self.enter_at {
            parts.push(format!("`enter` = {at}"));
        }
        parts.push(format!("`pass` = {}", self.pass_at));
        t.push(' ');
        t.push_str(&parts.join("; "));
        t
    }

    fn write_observation_doc(&self) -> String {
        let n = self.squares.len();
        let side = self.side_len();
        let mut planes = vec!["the side's pieces on the square (1, or the count / pieces a side for stacks and shared squares)".to_string()];
        if self.unmoved_plane {
            planes.push("1 where a piece of the side is unmoved (locked)".into());
        }
        for f in &self.flag_names {
            planes.push(format!("1 where a piece of the side has the flag `{f}`"));
        }
        if self.hold_plane {
            planes.push(
                "on a holding square, the piece's special throws counted / the throws it needs"
                    .into(),
            );
        }
        let mut scalars = vec!["pieces gone (captured or out) / pieces a side".to_string()];
        if self.off_scalar {
            scalars.push("pieces off the board / pieces a side".into());
        }
        if self.captures_scalar {
            scalars.push("captures / pieces a side".into());
        }
        if self.stock_scalar {
            scalars.push(format!(
                "stored values / {} (at most 1)",
                self.plus_max.max(1)
            ));
        }
        let mut t = format!(
            "{side}s + 2n + {} floats for s sides (teams, or seats) and n seats, over {}. Per \
             side (side-major, {side} floats each): {} plane{} of {n} squares — ",
            self.global_len(),
            self.squares_doc(),
            planes.len(),
            if planes.len() == 1 { "" } else { "s" }
        );
        let _ = write!(
            t,
            "{}; then {}. After the sides: [n] 1 for each seat that got out; [n] one-hot seat \
             to throw or move (all 0 at the end)",
            planes
                .iter()
                .enumerate()
                .map(|(i, p)| format!("({}) {p}", i + 1))
                .collect::<Vec<_>>()
                .join(", "),
            scalars.join(", ")
        );
        if self.chaser {
            let _ = write!(t, "; [{n}] one-hot the chaser's square");
        }
        let _ = write!(
            t,
            "; [{}] one-hot marked sides up of the throw awaiting its move (all 0 when none)",
            self.max_sticks + 1
        );
        if self.held_obs {
            let _ = write!(
                t,
                "; [{}] each held value's count / {HELD_SCALE} (at most 1), values {:?}; [1] 1 \
                 while spending held values",
                self.held_values.len(),
                self.held_values
            );
        }
        if self.opening {
            t.push_str("; [1] 1 during the opening");
        }
        t.push_str("; [1] throws made / max_throws");
        t
    }

    /// The game's title.
    pub fn title(&self) -> &str {
        &self.title
    }
}

impl<G: DescribedGame> Encoded for G {
    fn num_actions() -> usize {
        G::codes().num_actions()
    }

    fn observation_doc() -> &'static str {
        G::codes().observation_doc()
    }

    #[inline]
    fn encode(action: Action) -> u32 {
        G::codes().encode(action)
    }

    #[inline]
    fn decode(code: u32) -> Option<Action> {
        G::codes().decode(code)
    }

    fn observation_len(&self) -> usize {
        G::codes().observation_len(self.engine())
    }

    #[inline]
    fn observe(&self, state: &State, out: &mut [f32]) {
        G::codes().observe(self.engine(), state, out);
    }

    #[inline]
    fn for_each_legal_code(&self, state: &State, mut f: impl FnMut(u32)) {
        let codes = G::codes();
        self.engine().for_each_legal(state, |a| f(codes.encode(a)));
    }
}

/// Implements [`DescribedGame`] for every game of the list whose type is a newtype of
/// the description engine (`stickdice::described::games::…`).
macro_rules! described_games {
    ([]) => {};
    // A description loaded at run time has no layout fixed for its type (the codes are
    // per type): it has no encoding (the table `for_each_encoding!`).
    ([] GameFile : $ty:path, $($rest:tt)*) => {
        described_games!([] $($rest)*);
    };
    ([] $variant:ident : $k:tt :: described :: games :: $ty:ident, $($rest:tt)*) => {
        impl DescribedGame for $k::described::games::$ty {
            fn engine(&self) -> &Described {
                &self.0
            }
            fn from_engine(engine: Described) -> Self {
                $k::described::games::$ty(engine)
            }
            fn codes() -> &'static DescribedCodes {
                static CODES: std::sync::OnceLock<DescribedCodes> = std::sync::OnceLock::new();
                CODES.get_or_init(|| {
                    DescribedCodes::of(&$k::described::games::$ty::with_seats(
                        <$k::described::games::$ty as Game>::SEATS.0,
                    )
                    .map(|g| g.0)
                    .expect("a shipped description builds for its fewest seats"))
                })
            }
        }
        described_games!([] $($rest)*);
    };
    ([] $variant:ident : $ty:path, $($rest:tt)*) => {
        described_games!([] $($rest)*);
    };
}
stickdice::for_each_game!(described_games);

/// Each described game of the list with its layout: `(name, title, codes)`.
pub fn described_layouts() -> Vec<(&'static str, &'static str, &'static DescribedCodes)> {
    macro_rules! layouts {
        ([] $($variant:ident : $ty:path,)*) => {{
            let mut out: Vec<(&'static str, &'static str, &'static DescribedCodes)> = Vec::new();
            $(
                layouts!(@one out, $ty);
            )*
            out
        }};
        (@one $out:ident, $ty:path) => {
            if let Some(codes) = <$ty as MaybeDescribed>::layout() {
                $out.push((<$ty as Game>::NAME, <$ty as Game>::TITLE, codes));
            }
        };
    }
    stickdice::for_each_game!(layouts)
}

/// Whether a game of the list is a described one (its layout), for listing them all.
trait MaybeDescribed {
    fn layout() -> Option<&'static DescribedCodes> {
        None
    }
}

macro_rules! maybe_described {
    ([]) => {};
    ([] GameFile : $ty:path, $($rest:tt)*) => {
        impl MaybeDescribed for $ty {}
        maybe_described!([] $($rest)*);
    };
    ([] $variant:ident : $k:tt :: described :: games :: $ty:ident, $($rest:tt)*) => {
        impl MaybeDescribed for $k::described::games::$ty {
            fn layout() -> Option<&'static DescribedCodes> {
                Some(<$k::described::games::$ty as DescribedGame>::codes())
            }
        }
        maybe_described!([] $($rest)*);
    };
    ([] $variant:ident : $ty:path, $($rest:tt)*) => {
        impl MaybeDescribed for $ty {}
        maybe_described!([] $($rest)*);
    };
}
stickdice::for_each_game!(maybe_described);

/// The book's chapter on the described games' codes and tensors (`docs/python-described-codes.md`),
/// generated from their descriptions.
pub fn book_chapter() -> String {
    let mut t = String::from(
        "# Codes and tensors of the described games\n\n\
         <!-- Generated from the descriptions by `stickdice_rl::described::book_chapter`; the \
         test `rl/src/described.rs::the_book_chapter_is_the_generated_one` checks it \
         (STICKDICE_WRITE_CODES=1 rewrites it). -->\n\n\
         The games written in the description format get their action codes and observation \
         tensors from the description alone, the same way for every one: the squares of \
         every board the options allow are indexed row by row from `a1`; the codes come in \
         sections, one per kind of action the description can produce (`SQUARE`, \
         `SQUARE/branch`, `SQUARE/v`, `SQUARE+j`, `unlock SQUARE`, `store`, `back` and \
         `forward`, `enter`), with `pass` last; the number of codes is the bound over every \
         option value (Sig (Mzab) with 5 columns uses the codes of its 20-column board). \
         The observation has planes per side over the squares, per-side scalars, per-seat \
         flags, then what the whole game shares. The same codes and tensors serve Python \
         (`State.legal_action_codes`, `observation_tensor`), OpenSpiel, PettingZoo and the \
         batched environment.\n",
    );
    for (name, title, codes) in described_layouts() {
        let _ = write!(
            t,
            "\n## {title} (`{name}`)\n\n**Action codes.** {}.\n\n**Observation.** {}.\n",
            codes.codes_doc(),
            codes.observation_doc()
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use stickdice::ActionList;

    /// Plays one random game of `game` (every legal action's code is below the count and
    /// decodes to it; the observation is as long as its layout says and within [0, 1]).
    fn check_game<G: Encoded>(game: &G, seed: u64, doc_len: usize) -> usize {
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let mut state = game.initial_state();
        let mut legal = ActionList::new();
        let mut obs = vec![0.0; game.observation_len()];
        assert_eq!(obs.len(), doc_len, "{}: the documented length", G::NAME);
        let mut decisions = 0;
        for _ in 0..400 {
            obs.iter_mut().for_each(|x| *x = 0.0);
            game.observe(&state, &mut obs);
            assert!(
                obs.iter().all(|x| (0.0..=1.0).contains(x)),
                "{}: {obs:?}",
                G::NAME
            );
            match game.node(&state) {
                Node::End => break,
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut state, t);
                }
                Node::Decide(_) => {
                    decisions += 1;
                    game.legal_actions(&state, &mut legal);
                    for &a in &legal {
                        let code = G::encode(a);
                        assert!((code as usize) < G::num_actions(), "{}: {a}", G::NAME);
                        assert_eq!(G::decode(code), Some(a), "{}: {a}", G::NAME);
                    }
                    let a = legal[rand::RngExt::random_range(&mut rng, 0..legal.len())];
                    game.apply_action_unchecked(&mut state, a);
                }
            }
        }
        decisions
    }

    /// The length the observation's layout states: `As + 2n + B floats`.
    fn documented_len(doc: &str, sides: usize, seats: usize) -> usize {
        let (a, rest) = doc
            .split_once("s + 2n + ")
            .expect("the doc starts with its length");
        let b = rest.split(' ').next().unwrap();
        a.parse::<usize>().unwrap() * sides + 2 * seats + b.parse::<usize>().unwrap()
    }

    #[test]
    fn every_described_game_of_the_list_encodes_every_variant() {
        macro_rules! each {
            ([$games:ident]) => {};
            ([$games:ident] GameFile : $ty:path, $($rest:tt)*) => {
                each!([$games] $($rest)*);
            };
            ([$games:ident] $variant:ident : $k:tt :: described :: games :: $ty:ident, $($rest:tt)*) => {
                check::<$k::described::games::$ty>();
                $games += 1;
                each!([$games] $($rest)*);
            };
            ([$games:ident] $variant:ident : $ty:path, $($rest:tt)*) => {
                each!([$games] $($rest)*);
            };
        }
        fn check<G: DescribedGame + Encoded>() {
            let first = G::with_seats(G::SEATS.0).unwrap();
            let base = std::sync::Arc::new(first.engine().base().clone());
            let variants = Described::variants(&base);
            assert!(!variants.is_empty());
            let mut decisions = 0;
            for (i, v) in variants.into_iter().enumerate() {
                let (sides, seats) = (v.sides(), v.seats());
                let game = G::from_engine(v);
                let len = documented_len(G::observation_doc(), sides, seats);
                decisions += check_game(&game, 11 + i as u64, len);
            }
            assert!(decisions > 0, "{} has decisions", G::NAME);
            assert_eq!(G::decode(G::num_actions() as u32), None);
            assert_eq!(
                G::encode(G::decode(G::num_actions() as u32 - 1).unwrap()),
                G::num_actions() as u32 - 1
            );
        }
        let mut games = 0;
        stickdice::for_each_game!(each, games);
        assert!(games >= 7, "{games} described games");
    }

    /// The observation as first written (each side piece by piece through the public
    /// accessors; what follows the sides is the shared writer, unchanged):
    /// the oracle of [`DescribedCodes::observe`].
    fn reference_observe(codes: &DescribedCodes, game: &Described, s: &State, out: &mut [f32]) {
        let n = codes.squares.len();
        let sides = game.sides();
        let pps = game.pieces_per_side().max(1);
        let single = game.occupancy() == Occupancy::Single;
        let count_scale = if single { 1.0 } else { 1.0 / pps as f32 };
        let side_len = codes.side_len();
        let planes = codes.planes();
        let names = game.flag_names();
        for side in 0..sides {
            let base = side * side_len;
            let (mut off, mut gone) = (0u32, 0u32);
            for k in side * pps..(side + 1) * pps {
                if let Some(sq) = s.piece_square(k) {
                    let i = codes.index[sq as usize];
                    if i == NO {
                        continue;
                    }
                    let i = i as usize;
                    let cell = &mut out[base + i];
                    *cell = (*cell + count_scale).min(1.0);
                    let mut plane = 1;
                    if codes.unmoved_plane {
                        if s.piece_unmoved(k) {
                            out[base + n + i] = 1.0;
                        }
                        plane += 1;
                    }
                    let flags = s.piece_flags(k);
                    if flags != 0 {
                        for (bit, name) in names.iter().enumerate() {
                            if flags >> bit & 1 == 1 {
                                if let Some(f) = codes.flag_names.iter().position(|x| x == name) {
                                    out[base + (plane + f) * n + i] = 1.0;
                                }
                            }
                        }
                    }
                    plane += codes.flag_names.len();
                    if codes.hold_plane {
                        let need = s.piece_position(k).map_or(0, |p| game.hold_throws(p));
                        if need > 0 {
                            let v = f32::from(s.piece_hold_count(k)) / f32::from(need);
                            let cell = &mut out[base + plane * n + i];
                            *cell = cell.max(v.min(1.0));
                        }
                    }
                } else if s.piece_off(k) {
                    off += 1;
                } else {
                    gone += 1;
                }
            }
            let mut at = base + planes * n;
            out[at] = gone as f32 / pps as f32;
            at += 1;
            if codes.off_scalar {
                out[at] = off as f32 / pps as f32;
                at += 1;
            }
            if codes.captures_scalar {
                out[at] = (s.captures(side) as f32 / pps as f32).min(1.0);
                at += 1;
            }
            if codes.stock_scalar {
                out[at] = (s.stock(side) as f32 / codes.plus_max.max(1) as f32).min(1.0);
            }
        }
        codes.observe_shared(game, s, out, sides * side_len);
    }

    /// Every described game, every variant: the observation of each state of random play
    /// is the reference's, float for float.
    #[test]
    fn observe_is_the_reference_observation() {
        macro_rules! each {
            ([$n:ident]) => {};
            ([$n:ident] GameFile : $ty:path, $($rest:tt)*) => {
                each!([$n] $($rest)*);
            };
            ([$n:ident] $variant:ident : $k:tt :: described :: games :: $ty:ident, $($rest:tt)*) => {
                $n += check::<$k::described::games::$ty>();
                each!([$n] $($rest)*);
            };
            ([$n:ident] $variant:ident : $ty:path, $($rest:tt)*) => {
                each!([$n] $($rest)*);
            };
        }
        fn check<G: DescribedGame>() -> usize {
            let codes = G::codes();
            let first = G::with_seats(G::SEATS.0).unwrap();
            let base = std::sync::Arc::new(first.engine().base().clone());
            let mut states = 0;
            for (i, game) in Described::variants(&base).iter().enumerate() {
                let mut rng = stickdice::Rng::seed_from_u64(40 + i as u64);
                let len = codes.observation_len(game);
                let (mut want, mut got) = (vec![0.0f32; len], vec![0.0f32; len]);
                let mut state = game.initial_state();
                for _ in 0..300 {
                    want.fill(0.0);
                    reference_observe(codes, game, &state, &mut want);
                    got.fill(0.0);
                    codes.observe(game, &state, &mut got);
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(
                        bits(&got),
                        bits(&want),
                        "{} {:?}: {state:?}",
                        G::NAME,
                        game.option_values()
                    );
                    states += 1;
                    match game.node(&state) {
                        Node::End => break,
                        Node::Throw(_) => {
                            let t = game.sticks().throw_from_bits(rand::Rng::next_u64(&mut rng));
                            game.apply_throw_unchecked(&mut state, t);
                        }
                        Node::Decide(_) => {
                            let a = game.random_action(&state, |n| {
                                rand::RngExt::random_range(&mut rng, 0..n)
                            });
                            game.apply_action_unchecked(&mut state, a);
                        }
                    }
                }
            }
            states
        }
        let mut states = 0;
        stickdice::for_each_game!(each, states);
        assert!(states >= 10_000, "{states} states compared");
    }

    #[test]
    fn the_book_chapter_is_the_generated_one() {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../docs/python-described-codes.md");
        let text = book_chapter();
        if std::env::var_os("STICKDICE_WRITE_CODES").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "docs/python-described-codes.md differs from the generated chapter: run \
             STICKDICE_WRITE_CODES=1 cargo test -p stickdice-rl --release --lib described"
        );
    }
}
