//! Helpers several games share, each one reading in one place: the ordinals of the
//! describers, the collecting of a validation's problems and the string forms of the
//! notations. Nothing here reads a rule of one game only.

use core::fmt;

use crate::game::{InvalidState, Problem, Problems};

/// An ordinal for people: 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st.
pub(crate) fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The problems as an [`InvalidState`] (`Ok` when there are none).
pub(crate) fn invalid<P: Into<Problem>>(
    problems: impl IntoIterator<Item = P>,
) -> Result<(), InvalidState> {
    let mut out = Problems::new();
    for p in problems {
        out.push(p);
    }
    out.finish()
}

/// Writes the square on `row` and `col` of a board of rows and columns as column letter +
/// row number, as P1 sees the board (`a1`: row 0, column 0).
pub(crate) fn write_grid_square(f: &mut fmt::Formatter<'_>, row: u8, col: u8) -> fmt::Result {
    write!(f, "{}{}", (b'a' + col) as char, row + 1)
}

/// The row and column of a square written column letter + row number (`c2`, letter in
/// either case, white space around it allowed) on a board of `rows` rows and `cols`
/// columns, or `None` for anything else.
pub(crate) fn parse_grid_square(s: &str, rows: u8, cols: u8) -> Option<(u8, u8)> {
    match s.trim().as_bytes() {
        &[c, r] => {
            let c = c.to_ascii_lowercase();
            if !(b'a'..b'a' + cols).contains(&c) || !(b'1'..b'1' + rows).contains(&r) {
                return None;
            }
            Some((r - b'1', c - b'a'))
        }
        _ => None,
    }
}

/// `From<T> for String` and `TryFrom<String> for T` for each type `T` named, through its
/// `Display` and `FromStr` (its notation, whose error is a [`NotationError`]): what
/// `#[serde(into = "String", try_from = "String")]` needs for `T` to travel in JSON as its
/// notation (`"c1"`, `"pass"`).
///
/// [`NotationError`]: crate::game::NotationError
macro_rules! notation_as_string {
    ($($t:ty),+ $(,)?) => {$(
        impl From<$t> for String {
            fn from(x: $t) -> String {
                x.to_string()
            }
        }

        impl TryFrom<String> for $t {
            type Error = $crate::game::NotationError;
            fn try_from(s: String) -> Result<Self, Self::Error> {
                s.parse()
            }
        }
    )+};
}
pub(crate) use notation_as_string;

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn ordinals_read_as_people_write_them() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
    }
}
