//! What the page draws of each game: its board ([`Board`]), which every game of the list
//! has (the list demands it), so the routes are generic over [`Drawing`].

use serde_json::{json, Value};
use stickdice::board::{self, Board, BoardMove, PlacedPiece};
use stickdice::{Game, Present, Throw};

/// A game as the page shows it: its text ([`Present`]) and its drawing.
pub(crate) trait Drawing: Present {
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
    /// What the state holds that the pieces do not show (stored or held values), in words.
    fn tallies(&self, state: &Self::State) -> Vec<String>;
}

/// The drawing of a game: its geometry, and beside it what the board has beyond squares and
/// tracks ([`Board::features`]: `stacks`, `teams`, `holds`, `road`, `chaser`).
fn drawn_geometry<G: Board>(g: &G) -> Value {
    let mut v = serde_json::to_value(g.geometry()).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("drawn".into(), json!(true));
        if let Ok(Value::Object(features)) = serde_json::to_value(g.features()) {
            m.extend(features);
        }
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
    fn tallies(&self, state: &Self::State) -> Vec<String> {
        Board::tallies(self, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::ActionList;

    /// In seeded random games of each described game, every legal move that names a square
    /// names the square of one of the mover's pieces, and its `to` is where the rules put
    /// that piece: a square the mover then holds (the one it stays on, for a piece that
    /// stays), or no square for a piece leaving the board.
    #[test]
    fn described_moves_land_where_the_rules_put_the_piece() {
        use rand::{RngExt as _, SeedableRng};
        use stickdice::{
            EsSig, Kioz, Node, SigMzab, SigTozeur, SigWesternSahara, SijatElTaba, Tab,
        };
        fn check<G: Board>(game: &G, seed: u64, teams: bool) -> (usize, usize) {
            let mut rng = stickdice::Rng::seed_from_u64(seed);
            let mut s = game.initial_state();
            let (mut decisions, mut landed, mut forks) = (0, 0, 0);
            while decisions < 150 {
                match game.node(&s) {
                    Node::End => s = game.initial_state(),
                    Node::Throw(_) => {
                        let t = game.sample_throw(&mut rng);
                        game.apply_throw(&mut s, t).unwrap();
                    }
                    Node::Decide(seat) => {
                        // The mover's side: its team where seats play in teams.
                        let owner = Some(if teams { seat % 2 } else { seat });
                        let moves = Board::moves(game, &s);
                        let mut legal = ActionList::new();
                        game.legal_actions(&s, &mut legal);
                        assert_eq!(moves.len(), legal.len());
                        let before = Board::pieces(game, &s);
                        // A fork: one piece, two branches landing apart (two targets).
                        if moves.iter().any(|m| {
                            m.action.contains('/')
                                && moves.iter().any(|n| {
                                    n.action.contains('/') && n.from == m.from && n.to != m.to
                                })
                        }) {
                            forks += 1;
                        }
                        for m in &moves {
                            let a = game.parse_action(&m.action).unwrap();
                            let mut after = s;
                            game.apply_action(&mut after, a).unwrap();
                            let pieces = Board::pieces(game, &after);
                            let Some(from) = m.from else { continue };
                            assert!(
                                before
                                    .iter()
                                    .any(|p| p.square == Some(from) && p.seat == owner),
                                "{} names no piece of the mover",
                                m.action
                            );
                            match m.to {
                                Some(to) => {
                                    assert!(
                                        pieces
                                            .iter()
                                            .any(|p| p.square == Some(to) && p.seat == owner),
                                        "{}: no piece of the mover on {to}",
                                        m.action
                                    );
                                    landed += 1;
                                }
                                None => {
                                    let on = |ps: &[board::PlacedPiece]| {
                                        ps.iter()
                                            .filter(|p| p.seat == owner && p.square.is_some())
                                            .count()
                                    };
                                    assert!(on(&pieces) < on(&before), "{}", m.action);
                                }
                            }
                        }
                        let a = legal[rng.random_range(0..legal.len())];
                        game.apply_action(&mut s, a).unwrap();
                        decisions += 1;
                    }
                }
            }
            (landed, forks)
        }
        // Es-Sîg's throws move its pieces: its decisions (the chaser's) name no square.
        assert_eq!(check(&EsSig::with_seats(3).unwrap(), 2, false).0, 0);
        let (tab, forks) = check(&Tab::with_seats(2).unwrap(), 1, false);
        assert!(forks > 0, "no fork met in Tab");
        let landed = [
            tab,
            check(&SigWesternSahara::with_seats(4).unwrap(), 3, true).0,
            check(&SigMzab::with_seats(2).unwrap(), 4, false).0,
            check(&SigTozeur::with_seats(2).unwrap(), 5, false).0,
            check(&Kioz::with_seats(2).unwrap(), 6, false).0,
            check(&SijatElTaba::with_seats(2).unwrap(), 7, false).0,
        ];
        assert!(landed.iter().all(|&n| n > 0), "{landed:?}");
    }

    #[test]
    fn described_games_send_what_their_boards_have() {
        use stickdice::{EsSig, SigWesternSahara, Tab};
        let tab = drawn_geometry(&Tab::with_seats(2).unwrap());
        assert_eq!(tab["stacks"], true);
        assert_eq!(tab["squares"].as_array().unwrap().len(), 28);
        assert_eq!(tab["tracks"].as_array().unwrap().len(), 2);
        assert_eq!(tab["teams"], json!([]));
        assert_eq!(tab["chaser"], Value::Null);
        let es_sig = drawn_geometry(&EsSig::with_seats(2).unwrap());
        assert_eq!(es_sig["squares"].as_array().unwrap().len(), 50);
        assert_eq!(es_sig["stacks"], false);
        assert_eq!(es_sig["chaser"], "chaser");
        // The square above the grid's corner is the road, and inside the drawing.
        let road = es_sig["road"].as_array().unwrap();
        assert_eq!(road.len(), 1);
        let extra = &es_sig["squares"][road[0].as_u64().unwrap() as usize];
        assert_eq!(extra["label"], "a8");
        assert!(extra["y"].as_f64().unwrap() >= 0.0, "{extra}");
        // Five holding squares: the corner, the centre and the three final squares.
        let holds = es_sig["holds"].as_array().unwrap();
        assert_eq!(holds.len(), 5, "{holds:?}");
        assert!(holds.iter().any(|h| h["throws"] == 10 && h["value"] == 1));
        let sahara = drawn_geometry(&SigWesternSahara::with_seats(4).unwrap());
        assert_eq!(sahara["teams"], json!([0, 1, 0, 1]));
        assert_eq!(sahara["squares"].as_array().unwrap().len(), 80);
        // A game of the list with none of these: the defaults.
        let issiren = drawn_geometry(&stickdice::Issiren::with_seats(2).unwrap());
        assert_eq!(issiren["stacks"], false);
        assert_eq!(issiren["holds"], json!([]));
        assert_eq!(issiren["road"], json!([]));
        assert_eq!(issiren["chaser"], Value::Null);
    }

    #[test]
    fn every_game_of_the_list_is_drawn() {
        // The `game-file` slot draws the description it is given (none here).
        let listed = stickdice::GameKind::ALL.iter();
        for &kind in listed.filter(|k| **k != stickdice::GameKind::GameFile) {
            let any = stickdice::AnyGame::new::<&str>(kind.name(), None, &[]).unwrap();
            let v = stickdice::with_game!(&any, |g| g.geometry_json());
            assert_eq!(v["drawn"], json!(true), "{}", kind.name());
            assert_eq!(v["game"], kind.name());
            assert!(v.get("squares").is_some(), "{}", kind.name());
            assert!(v.get("note").is_none(), "{}", kind.name());
        }
    }
}
