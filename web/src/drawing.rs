//! What the page draws of each game: its board ([`Board`]), which every game of the list
//! has (the list demands it), so the routes are generic over [`Drawing`].

use serde_json::{json, Value};
use stickdice::board::{self, Board, BoardMove, PlacedPiece};
use stickdice::{Game, Throw};

/// A game as the page shows it.
pub(crate) trait Drawing: Game {
    /// `GET /api/geometry`'s answer: the board's geometry with `drawn: true`.
    fn geometry_json(&self) -> Value;
    /// Every piece where it stands.
    fn pieces(&self, state: &Self::State) -> Vec<PlacedPiece>;
    /// For each legal action, the squares it moves from and to.
    fn moves(&self, state: &Self::State) -> Vec<BoardMove>;
    /// In words, what `action` does from `state`.
    fn describe_action(&self, state: &Self::State, action: Self::Action) -> String;
    /// In words, what changed between two states.
    fn describe_change(&self, before: &Self::State, after: &Self::State) -> Vec<String>;
    /// A throw's count for people: `3 white sides up`.
    fn sides(&self, marked: u8) -> String;
}

/// The drawing of a game with a [`Board`].
fn drawn_geometry<G: Board>(g: &G) -> Value {
    let mut v = serde_json::to_value(g.geometry()).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("drawn".into(), json!(true));
    }
    with_names(g, v)
}

/// The game's name, title and seat count added to a geometry answer.
fn with_names<G: Game>(g: &G, mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        m.insert("game".into(), json!(G::NAME));
        m.insert("title".into(), json!(G::TITLE));
        m.insert("players".into(), json!(g.seats()));
    }
    v
}

impl<G: Board> Drawing for G {
    fn geometry_json(&self) -> Value {
        drawn_geometry(self)
    }
    fn pieces(&self, state: &Self::State) -> Vec<PlacedPiece> {
        Board::pieces(self, state)
    }
    fn moves(&self, state: &Self::State) -> Vec<BoardMove> {
        Board::moves(self, state)
    }
    fn describe_action(&self, state: &Self::State, action: Self::Action) -> String {
        Board::describe_action(self, state, action)
    }
    fn describe_change(&self, before: &Self::State, after: &Self::State) -> Vec<String> {
        Board::describe_change(self, before, after)
    }
    fn sides(&self, marked: u8) -> String {
        board::sides_up(&self.geometry().sticks, Throw::new(marked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_of_the_list_is_drawn() {
        for &kind in stickdice::GameKind::ALL {
            let any = stickdice::AnyGame::new::<&str>(kind.name(), None, &[]).unwrap();
            let v = stickdice::with_game!(&any, |g| g.geometry_json());
            assert_eq!(v["drawn"], json!(true), "{}", kind.name());
            assert_eq!(v["game"], kind.name());
            assert!(v.get("squares").is_some(), "{}", kind.name());
            assert!(v.get("note").is_none(), "{}", kind.name());
        }
    }
}
