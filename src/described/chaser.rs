//! The chaser: a neutral piece on a shared track. Compiling its table (both kinds), and the
//! rules of the self-steering kind: where it starts, how far it reaches, which pieces it
//! carries and buries, who drives it, and its first move.

use super::compile::{Compiled, Table, NONE};
use super::format::{ChaserKind, ChaserStart, Decide, Description, Rank};
use super::state::{State, GONE};
use super::DescriptionError;
use crate::dice::Sticks;

/// A self-steering chaser, compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Steering {
    /// Its position at the start, or [`GONE`]: off the board before position 0.
    pub start: u8,
    /// The last position it may stand on.
    pub reach: u8,
    /// The first position it carries pieces from; carried back from it, they are buried.
    pub carries_from: u8,
    /// Per position: whether a piece held there drives it with `driving_values`.
    pub driven_from: Vec<bool>,
    /// At its first move, the pieces on its start position are lifted and set down where
    /// the move ends.
    pub lifts: bool,
}

/// The compiled chaser: its table, where a steered one appears, the values that drive a
/// self-steering one from holding positions (bit v), and the self-steering rules.
pub(crate) struct ChaserParts {
    pub table: Option<Table>,
    pub appears: u8,
    pub driving_values: u16,
    pub steering: Option<Steering>,
}

fn err(field: &str, message: impl Into<String>) -> DescriptionError {
    DescriptionError::invalid(field, message)
}

/// What the compiler already knows that the chaser's checks read.
pub(crate) struct Context<'a> {
    pub len: usize,
    pub sticks: Sticks,
    pub shared: bool,
    pub teams: bool,
    /// The seats' own table.
    pub table: &'a Table,
    /// Per position: (throws needed, value counted), throws 0 = no hold.
    pub hold: &'a [(u8, u8)],
    pub pieces_per_side: usize,
    pub index: fn(&str, i64, usize) -> Result<usize, DescriptionError>,
    pub compile_table:
        fn(&str, &super::format::ThrowTable, Sticks) -> Result<Table, DescriptionError>,
}

/// Compiles the description's chaser (none: an empty [`ChaserParts`]).
pub(crate) fn compile(d: &Description, cx: &Context<'_>) -> Result<ChaserParts, DescriptionError> {
    let Some(c) = &d.chaser else {
        return Ok(ChaserParts {
            table: None,
            appears: 0,
            driving_values: 0,
            steering: None,
        });
    };
    if !cx.shared {
        return Err(err("chaser", "a chaser runs a shared track"));
    }
    let n = cx.sticks.count();
    let mut t = c.throws.clone();
    if t.sticks.is_none() {
        t.sticks = Some(n);
    }
    if t.sticks != Some(n) {
        return Err(err(
            "chaser.throws.sticks",
            "the chaser's throws use the same sticks",
        ));
    }
    let table = (cx.compile_table)("chaser.throws", &t, cx.sticks)?;
    let steered_only = "a self-steering chaser's field: a steered chaser appears at \
                        `appears_at` and its drivers choose its direction";
    if c.kind == ChaserKind::Steered {
        for (name, given) in [
            ("start", c.start.is_some()),
            ("reach", c.reach.is_some()),
            ("carries_from", c.carries_from.is_some()),
            ("driven_from", !c.driven_from.is_empty()),
            ("driving_values", !c.driving_values.is_empty()),
            ("lifts_at_first_move", c.lifts_at_first_move),
        ] {
            if given {
                return Err(err(&format!("chaser.{name}"), steered_only));
            }
        }
        let at = c.appears_at.ok_or_else(|| {
            err(
                "chaser.appears_at",
                "missing: a steered chaser appears at this position when the first seat \
                 gets out",
            )
        })?;
        return Ok(ChaserParts {
            table: Some(table),
            appears: (cx.index)("chaser.appears_at", at, cx.len)? as u8,
            driving_values: 0,
            steering: None,
        });
    }
    // Self-steering.
    if c.appears_at.is_some() {
        return Err(err(
            "chaser.appears_at",
            "a self-steering chaser stands on the board from the start: give `start`, not \
             `appears_at`",
        ));
    }
    let start = match &c.start {
        None => {
            return Err(err(
                "chaser.start",
                "missing: a self-steering chaser starts on a position or `\"off\"`",
            ))
        }
        Some(ChaserStart::Off(word)) if word == "off" => GONE,
        Some(ChaserStart::Off(word)) => {
            return Err(err(
                "chaser.start",
                format!("`{word}`: expected a position or `\"off\"`"),
            ))
        }
        Some(ChaserStart::At(p)) => (cx.index)("chaser.start", *p, cx.len)? as u8,
    };
    let reach = match c.reach {
        Some(r) => (cx.index)("chaser.reach", r, cx.len)? as u8,
        None => {
            return Err(err(
                "chaser.reach",
                "missing: the last position a self-steering chaser may stand on",
            ))
        }
    };
    let carries_from = (cx.index)("chaser.carries_from", c.carries_from.unwrap_or(1), cx.len)?;
    if carries_from == 0 {
        return Err(err(
            "chaser.carries_from",
            "0: pieces carried back from it are buried on the position before it, so it \
             is 1 or more",
        ));
    }
    let carries_from = carries_from as u8;
    if carries_from > reach {
        return Err(err(
            "chaser.carries_from",
            format!("position {carries_from} is past the chaser's reach ({reach})"),
        ));
    }
    if start != GONE && start > reach {
        return Err(err(
            "chaser.start",
            format!("position {start} is past the chaser's reach ({reach})"),
        ));
    }
    if c.lifts_at_first_move && start == GONE {
        return Err(err(
            "chaser.lifts_at_first_move",
            "the chaser starts off the board: there are no pieces on its start to lift",
        ));
    }
    if c.driven_from.is_empty() != c.driving_values.is_empty() {
        // Named at the field that is there, so that the error has a line to point to.
        return Err(err(
            if c.driven_from.is_empty() {
                "chaser.driving_values"
            } else {
                "chaser.driven_from"
            },
            "give both `driven_from` and `driving_values`, or neither",
        ));
    }
    let mut driven_from = vec![false; cx.len];
    for &p in &c.driven_from {
        let p = (cx.index)("chaser.driven_from", p, cx.len)?;
        if cx.hold[p].0 == 0 {
            return Err(err(
                "chaser.driven_from",
                format!("position {p} is not a hold: only a piece held there drives the chaser"),
            ));
        }
        if p <= reach as usize {
            return Err(err(
                "chaser.driven_from",
                format!(
                    "position {p} is within the chaser's reach ({reach}): a driver could \
                     carry itself"
                ),
            ));
        }
        driven_from[p] = true;
    }
    let k = cx.sticks.count() as usize;
    let mut driving_values = 0u16;
    for &v in &c.driving_values {
        if v <= 0 || !cx.table.value[..=k].iter().any(|&w| i64::from(w) == v) {
            return Err(err(
                "chaser.driving_values",
                format!(
                    "{v} is not a value above 0 of the seats' throws (the values are {:?})",
                    &cx.table.value[..=k]
                ),
            ));
        }
        driving_values |= 1 << v;
    }
    for &p in &c.driven_from {
        let p = (cx.index)("chaser.driven_from", p, cx.len)?;
        if driving_values >> cx.hold[p].1 & 1 == 1 {
            return Err(err(
                "chaser.driving_values",
                format!(
                    "the value {} also moves the piece held on position {p}: a throw cannot \
                     do both",
                    cx.hold[p].1
                ),
            ));
        }
    }
    if cx.teams || cx.pieces_per_side != 1 {
        return Err(err(
            "chaser.kind",
            "a self-steering chaser buries seats: every seat plays its own single piece (no \
             teams)",
        ));
    }
    if d.moves.decide != Decide::Choices {
        return Err(err(
            "moves.decide",
            "a self-steering chaser moves by itself: set `decide = \"choices\"`, so that its \
             drivers' throws are not decisions",
        ));
    }
    if !d.end.all_out || !matches!(d.end.rank, Rank::Arrival | Rank::Out) {
        return Err(err(
            "end",
            "a self-steering chaser buries seats: the game ends with `all_out` (every seat \
             out or buried) and ranks by `arrival` or `out`",
        ));
    }
    Ok(ChaserParts {
        table: Some(table),
        appears: 0,
        driving_values,
        steering: Some(Steering {
            start,
            reach,
            carries_from,
            driven_from,
            lifts: c.lifts_at_first_move,
        }),
    })
}

impl Compiled {
    /// Whether the piece held on `pos` drives the self-steering chaser with the value `v`.
    #[inline]
    pub(crate) fn drives_from(&self, pos: u8, v: u8) -> bool {
        self.driving_values >> v & 1 == 1
            && self
                .steering
                .as_ref()
                .is_some_and(|st| st.driven_from.get(pos as usize) == Some(&true))
    }

    /// Moves the self-steering chaser `steps` steps: before each step, back one position
    /// carrying every piece on its position (from `carries_from` on, burying them), or
    /// forward alone (from off the board onto position 0); a forward step from its reach is
    /// lost with the rest of the move. At its first move the pieces on its start are
    /// lifted, and set down where it stops.
    pub(crate) fn steer(&self, s: &mut State, steps: u8) {
        let Some(st) = &self.steering else {
            return;
        };
        let all = self.sides * self.pieces_per_side;
        let mut lifted = 0u64;
        if !s.chaser_moved {
            s.chaser_moved = true;
            if st.lifts {
                for k in 0..all {
                    if s.pos[k] == st.start {
                        lifted |= 1 << k;
                    }
                }
            }
        }
        let mut g = s.chaser;
        for _ in 0..steps {
            if g == GONE {
                g = 0;
                continue;
            }
            let carried = |s: &State, k: usize| s.pos[k] == g && lifted >> k & 1 == 0;
            if g >= st.carries_from && (0..all).any(|k| carried(s, k)) {
                let burial = if g == st.carries_from {
                    s.burials
                        .iter()
                        .copied()
                        .max()
                        .unwrap_or(0)
                        .saturating_add(1)
                } else {
                    0
                };
                for k in 0..all {
                    if !carried(s, k) {
                        continue;
                    }
                    s.count[k] = 0;
                    if burial > 0 {
                        s.pos[k] = GONE;
                        s.sq[k] = GONE;
                        s.flags[k] = 0;
                        s.sync(k);
                        let seat = k / self.pieces_per_side;
                        s.burials[seat] = burial;
                        s.buried += 1;
                    } else {
                        s.pos[k] = g - 1;
                        s.sq[k] = self.square_of[0][(g - 1) as usize];
                    }
                }
                g -= 1;
            } else if g >= st.reach {
                break;
            } else {
                g += 1;
            }
        }
        s.chaser = g;
        if lifted != 0 {
            let (pos, sq) = if g == GONE {
                (st.start, self.square_of[0][st.start as usize])
            } else {
                (g, self.square_of[0][g as usize])
            };
            for k in 0..all {
                if lifted >> k & 1 == 1 {
                    s.pos[k] = pos;
                    s.sq[k] = sq;
                    s.sync(k);
                }
            }
        }
    }

    /// What is wrong with a state's burials and self-steering chaser.
    pub(crate) fn steering_problems(&self, s: &State, out: &mut Vec<String>) {
        let buried: Vec<usize> = (0..crate::game::MAX_SEATS)
            .filter(|&seat| s.burials[seat] != 0)
            .collect();
        if usize::from(s.buried) != buried.len() {
            out.push(format!(
                "{} seats counted buried, but {} have a burial step",
                s.buried,
                buried.len()
            ));
        }
        let Some(st) = &self.steering else {
            if !buried.is_empty() || s.chaser_moved {
                out.push(format!(
                    "{} has no self-steering chaser: nothing is buried and no such chaser moves",
                    self.name
                ));
            }
            return;
        };
        let highest = buried
            .iter()
            .map(|&seat| s.burials[seat])
            .max()
            .unwrap_or(0);
        for b in 1..highest {
            if !buried.iter().any(|&seat| s.burials[seat] == b) {
                out.push(format!(
                    "no seat was buried at burial step {b}, yet a later step ({highest}) is \
                     recorded"
                ));
            }
        }
        for &seat in &buried {
            if seat >= self.seats {
                out.push(format!(
                    "seat {seat} is buried, but there are {} seats",
                    self.seats
                ));
                continue;
            }
            if s.out_place[seat] != 0 {
                out.push(format!("P{} is both out and buried", seat + 1));
            }
            if self.pieces(self.side_of(seat)).any(|k| s.pos[k] != GONE) {
                out.push(format!("P{} is buried with pieces on the track", seat + 1));
            }
        }
        if !buried.is_empty() && !s.chaser_moved {
            out.push("a seat is buried but the chaser has never moved".into());
        }
        if s.burials.get(s.turn as usize).is_some_and(|&b| b != 0) {
            out.push(format!(
                "the turn is P{}'s, but P{} is buried",
                s.turn + 1,
                s.turn + 1
            ));
        }
        match s.chaser {
            GONE if st.start != GONE || s.chaser_moved => {
                out.push("the chaser is off the board, which it never leaves".into())
            }
            GONE => {}
            g if g > st.reach => out.push(format!(
                "the chaser is on position {g}, past its reach ({})",
                st.reach
            )),
            g if !s.chaser_moved && g != st.start => out.push(format!(
                "the chaser has not moved, yet it is on position {g}, not on its start"
            )),
            _ => {}
        }
    }
}

/// The position `NONE` stands for no position in the compiled tables; a self-steering
/// chaser's start uses [`GONE`] for off the board, which is the same byte.
const _: () = assert!(NONE == GONE);
