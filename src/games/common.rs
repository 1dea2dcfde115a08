//! Helpers several games share, each one reading in one place: the ordinals of the
//! describers and the collecting of a validation's problems. Nothing here reads a rule of
//! one game only.

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
