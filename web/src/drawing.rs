//! What the page draws of each game: its board ([`Board`]) where the game has the `board`
//! capability, and otherwise its text board ([`Game::render`]) with a note saying the game
//! has no drawing. One implementation per game of the list ([`stickdice::for_each_game!`]),
//! chosen by its capabilities, so the routes are generic over [`Drawing`].

// The text fallbacks below are used by the games of the list without the `board`
// capability: none today, so outside the tests (which take every fallback on real games)
// they may go unused.
#![cfg_attr(not(test), allow(dead_code))]

use serde_json::{json, Value};
use stickdice::board::{self, Board, BoardMove, PlacedPiece, StickFaces};
use stickdice::{ActionList, Game, Throw};

/// A game as the page shows it.
pub(crate) trait Drawing: Game {
    /// `GET /api/geometry`'s answer: the board's geometry with `drawn: true`, or for a game
    /// without a board `drawn: false`, a `note` saying so and the sticks.
    fn geometry_json(&self) -> Value;
    /// Every piece where it stands (none without a board).
    fn pieces(&self, state: &Self::State) -> Vec<PlacedPiece>;
    /// For each legal action, the squares it moves from and to (without a board, each
    /// legal action with neither: the page shows them as buttons).
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

/// The drawing of a game with a [`Board`]: its geometry, and beside it what the board has
/// beyond squares and tracks ([`Board::features`]: `stacks`, `teams`, `holds`, `road`,
/// `chaser`).
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

/// The sticks of a game without a board: their count, sides named `marked` and
/// `unmarked`.
fn plain_sticks<G: Game>(g: &G) -> StickFaces {
    StickFaces {
        count: g.sticks().count(),
        marked: "marked",
        unmarked: "unmarked",
    }
}

/// The note the page shows for a game without a board.
pub(crate) fn undrawn_note<G: Game>() -> String {
    format!(
        "{} has no board drawing (the game does not provide the `board` capability): the \
         board is shown as text, and actions are chosen by their notation",
        G::TITLE
    )
}

/// `GET /api/geometry`'s answer for a game without a board.
pub(crate) fn undrawn_geometry<G: Game>(g: &G) -> Value {
    with_names(
        g,
        json!({
            "drawn": false,
            "note": undrawn_note::<G>(),
            "sticks": plain_sticks(g),
            "legend": "",
        }),
    )
}

/// Each legal action, moving no drawn square.
pub(crate) fn undrawn_moves<G: Game>(g: &G, state: &G::State) -> Vec<BoardMove> {
    let mut legal = ActionList::new();
    g.legal_actions(state, &mut legal);
    legal
        .iter()
        .map(|a| BoardMove {
            action: a.to_string(),
            from: None,
            to: None,
        })
        .collect()
}

/// An action in words without a board: the seat that plays it and its notation.
pub(crate) fn undrawn_action<G: Game>(g: &G, state: &G::State, action: G::Action) -> String {
    match g.node(state).seat() {
        Some(seat) => format!("P{} plays {action}", seat + 1),
        None => format!("{action}"),
    }
}

/// The sides up of a game without a board: `3 marked sides up`.
pub(crate) fn undrawn_sides<G: Game>(g: &G, marked: u8) -> String {
    board::sides_up(&plain_sticks(g), Throw::new(marked))
}

/// [`Drawing`] for each game of the list: by its [`Board`] where it has the `board`
/// capability, by the text fallbacks above where it has not.
macro_rules! drawings {
    ([] $($variant:ident : $ty:path [$($cap:ident)*],)*) => {
        $(
            stickdice::__if_has!(board, [$($cap)*], {
                impl Drawing for $ty {
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
            }, {
                impl Drawing for $ty {
                    fn geometry_json(&self) -> Value {
                        undrawn_geometry(self)
                    }
                    fn pieces(&self, _: &Self::State) -> Vec<PlacedPiece> {
                        Vec::new()
                    }
                    fn moves(&self, state: &Self::State) -> Vec<BoardMove> {
                        undrawn_moves(self, state)
                    }
                    fn describe_action(&self, state: &Self::State, action: Self::Action) -> String {
                        undrawn_action(self, state, action)
                    }
                    fn describe_change(&self, _: &Self::State, _: &Self::State) -> Vec<String> {
                        Vec::new()
                    }
                    fn sides(&self, marked: u8) -> String {
                        undrawn_sides(self, marked)
                    }
                    fn tallies(&self, _: &Self::State) -> Vec<String> {
                        Vec::new()
                    }
                }
            });
        )*
    };
}
stickdice::for_each_game!(drawings);

#[cfg(test)]
mod tests {
    //! The fallback of a game without a board, on real games (the functions are generic
    //! over [`Game`], so any game can take the path a game without `board` takes).
    use super::*;
    use stickdice::{Issiren, SigElOued};

    #[test]
    fn a_game_without_a_board_gets_a_note_its_sticks_and_no_squares() {
        let g = SigElOued::with_seats(3).unwrap();
        let v = undrawn_geometry(&g);
        assert_eq!(v["drawn"], false);
        assert_eq!(v["game"], "sig-el-oued");
        assert_eq!(v["players"], 3);
        assert_eq!(v["sticks"]["count"], json!(g.sticks().count()));
        assert!(v.get("squares").is_none());
        let note = v["note"].as_str().unwrap();
        assert!(
            note.starts_with("Sig (El Oued) has no board drawing"),
            "{note}"
        );
        assert!(note.contains("`board`"), "{note}");
        assert_eq!(undrawn_sides(&g, 2), "2 marked sides up");
        assert_eq!(undrawn_sides(&g, 0), "no marked side up");
    }

    #[test]
    fn a_game_without_a_board_lists_every_legal_action_by_notation() {
        let g = Issiren::with_seats(2).unwrap();
        let mut s = g.initial_state();
        g.apply_throw(&mut s, Throw::new(1)).unwrap();
        let mut legal = ActionList::new();
        g.legal_actions(&s, &mut legal);
        assert!(!legal.is_empty());
        let moves = undrawn_moves(&g, &s);
        assert_eq!(
            moves.iter().map(|m| m.action.clone()).collect::<Vec<_>>(),
            legal.iter().map(ToString::to_string).collect::<Vec<_>>()
        );
        assert!(moves.iter().all(|m| m.from.is_none() && m.to.is_none()));
        assert_eq!(
            undrawn_action(&g, &s, legal[0]),
            format!("P1 plays {}", legal[0])
        );
    }

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
    fn the_games_of_the_list_draw_as_their_capabilities_say() {
        for &kind in stickdice::GameKind::ALL {
            let any = stickdice::AnyGame::new::<&str>(kind.name(), None, &[]).unwrap();
            let v = stickdice::with_game!(&any, |g| g.geometry_json());
            assert_eq!(v["drawn"], json!(kind.has("board")), "{}", kind.name());
            assert_eq!(v["game"], kind.name());
            assert_eq!(v.get("squares").is_some(), kind.has("board"));
            assert_eq!(v.get("note").is_some(), !kind.has("board"));
        }
    }
}
