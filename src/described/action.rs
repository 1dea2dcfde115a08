//! Actions of described games, in the rules' notation.

use core::fmt;
use core::str::FromStr;

use crate::game::NotationError;

/// What an action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Kind {
    /// `SQUARE`: the piece (or stack) on the square moves the throw's value.
    Move,
    /// `SQUARE/branch`: the same, taking the named branch of a fork.
    Branch,
    /// `SQUARE/v`: the piece on the square spends the held value v.
    Held,
    /// `SQUARE+j`: the piece moves the value plus j stored values, capturing.
    Plus,
    /// `unlock SQUARE`: the locked piece on the square is freed; it does not move.
    Unlock,
    /// `store`: the value is stored.
    Store,
    /// `back`: the chaser moves towards the track's start.
    Back,
    /// `forward`: the chaser moves towards the track's end.
    Forward,
    /// `enter`: a piece off the board comes onto the track.
    Enter,
    /// `pass`: nothing can move.
    Pass,
    /// `drive`: the throw moves a self-steering chaser, which chooses its own direction.
    Drive,
}

/// An action of a described game: plain `Copy` data, written as the rules write it.
///
/// Squares are written column letter + row number as P1 sees the board (`a1` is row 0,
/// column 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub struct Action {
    pub(crate) kind: Kind,
    /// The square code (row × 32 + column).
    pub(crate) sq: u8,
    /// The held value, or the stored values added.
    pub(crate) arg: u8,
    /// The branch's name, 0-padded.
    pub(crate) name: [u8; 8],
}

impl Action {
    pub(crate) const PASS: Action = Action::simple(Kind::Pass);

    pub(crate) const fn simple(kind: Kind) -> Action {
        Action {
            kind,
            sq: 0,
            arg: 0,
            name: [0; 8],
        }
    }

    pub(crate) const fn at(kind: Kind, sq: u8, arg: u8) -> Action {
        Action {
            kind,
            sq,
            arg,
            name: [0; 8],
        }
    }

    /// What the action does.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The square the action names, as (row, column), if it names one.
    pub fn square(&self) -> Option<(u8, u8)> {
        match self.kind {
            Kind::Move | Kind::Branch | Kind::Held | Kind::Plus | Kind::Unlock => {
                Some((self.sq >> 5, self.sq & 31))
            }
            _ => None,
        }
    }
}

pub(crate) fn write_square(f: &mut fmt::Formatter<'_>, sq: u8) -> fmt::Result {
    write!(f, "{}{}", (b'a' + (sq & 31)) as char, (sq >> 5) + 1)
}

/// Reads a square `a1` … `z8` into its code.
pub(crate) fn parse_square(s: &str) -> Option<u8> {
    match s.trim().as_bytes() {
        &[c, r] => {
            let c = c.to_ascii_lowercase();
            if !c.is_ascii_lowercase() || !(b'1'..=b'8').contains(&r) {
                return None;
            }
            Some(((r - b'1') << 5) | (c - b'a'))
        }
        _ => None,
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Move => write_square(f, self.sq),
            Kind::Branch => {
                write_square(f, self.sq)?;
                let len = self.name.iter().position(|&b| b == 0).unwrap_or(8);
                write!(
                    f,
                    "/{}",
                    core::str::from_utf8(&self.name[..len]).unwrap_or("?")
                )
            }
            Kind::Held => {
                write_square(f, self.sq)?;
                write!(f, "/{}", self.arg)
            }
            Kind::Plus => {
                write_square(f, self.sq)?;
                write!(f, "+{}", self.arg)
            }
            Kind::Unlock => {
                f.write_str("unlock ")?;
                write_square(f, self.sq)
            }
            Kind::Store => f.write_str("store"),
            Kind::Back => f.write_str("back"),
            Kind::Forward => f.write_str("forward"),
            Kind::Enter => f.write_str("enter"),
            Kind::Pass => f.write_str("pass"),
            Kind::Drive => f.write_str("drive"),
        }
    }
}

const EXPECTED: &str = "a square (column letter and row number as P1 sees the board, `a1` is \
     the bottom-left), optionally with `/branch`, `/value` or `+count`; or `unlock SQUARE`, \
     `store`, `back`, `forward`, `enter`, `drive` or `pass`";

impl FromStr for Action {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || NotationError {
            text: text.to_string(),
            expected: EXPECTED,
        };
        let s = text.trim().to_ascii_lowercase();
        let simple = match s.as_str() {
            "pass" => Some(Kind::Pass),
            "store" => Some(Kind::Store),
            "back" => Some(Kind::Back),
            "forward" => Some(Kind::Forward),
            "enter" => Some(Kind::Enter),
            "drive" => Some(Kind::Drive),
            _ => None,
        };
        if let Some(kind) = simple {
            return Ok(Action::simple(kind));
        }
        if let Some(rest) = s.strip_prefix("unlock ") {
            return parse_square(rest)
                .map(|sq| Action::at(Kind::Unlock, sq, 0))
                .ok_or_else(bad);
        }
        if let Some((sq, n)) = s.split_once('+') {
            let sq = parse_square(sq).ok_or_else(bad)?;
            let n: u8 = n.trim().parse().map_err(|_| bad())?;
            if n == 0 {
                return Err(bad());
            }
            return Ok(Action::at(Kind::Plus, sq, n));
        }
        if let Some((sq, tail)) = s.split_once('/') {
            let sq = parse_square(sq).ok_or_else(bad)?;
            let tail = tail.trim();
            if let Ok(v) = tail.parse::<u8>() {
                return Ok(Action::at(Kind::Held, sq, v));
            }
            if tail.is_empty() || tail.len() > 8 || !tail.bytes().all(|b| b.is_ascii_lowercase()) {
                return Err(bad());
            }
            let mut name = [0u8; 8];
            name[..tail.len()].copy_from_slice(tail.as_bytes());
            return Ok(Action {
                kind: Kind::Branch,
                sq,
                arg: 0,
                name,
            });
        }
        parse_square(&s)
            .map(|sq| Action::at(Kind::Move, sq, 0))
            .ok_or_else(bad)
    }
}

impl From<Action> for String {
    fn from(a: Action) -> String {
        a.to_string()
    }
}

impl TryFrom<String> for Action {
    type Error = NotationError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_action_reads_back() {
        for text in [
            "a1",
            "t4",
            "c3/round",
            "c3/in",
            "a1/6",
            "h2+2",
            "unlock c1",
            "store",
            "back",
            "forward",
            "enter",
            "drive",
            "pass",
            "a8",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        for bad in [
            "",
            "a9",
            "a0",
            "1a",
            "a1+0",
            "a1/",
            "a1/toolongname",
            "unlock",
            "x",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }
}
