//! Reinforcement learning on stickdice games.
//!
//! * [`encoding`]: the action codes and observation tensors of every game with the
//!   `encode` capability ([`Encoded`]); the Python package, OpenSpiel and PettingZoo use
//!   the same ones.
//! * [`described`]: the same for every game the description engine plays, derived from
//!   its description.
//! * [`vector`]: a batched environment ([`VectorEnv`], generic [`Batch`]) that steps N
//!   games of one configuration in one call, resolves the throws inside from per-game
//!   seeded dice, plays opponent agents in Rust, resets finished games and writes
//!   observations, legal-action masks, players, rewards, terminations and truncations
//!   into buffers the caller owns, allocating nothing per step.
//!
//! ```
//! use stickdice::AnyGame;
//! use stickdice_rl::{Buffers, VectorEnv};
//!
//! let game = AnyGame::new("issiren", None, &[] as &[&str]).unwrap();
//! // 8 games; the learner plays seat P1, `greedy` plays P2 (in Rust).
//! let mut env = VectorEnv::new(&game, 8, &[None, Some("greedy")]).unwrap();
//! let mut buf = Buffers::new(&env);
//! env.reset(7, buf.out()).unwrap();
//! let mut actions = vec![0i64; env.len()];
//! for _ in 0..100 {
//!     // The first legal action of every game (a real learner samples its policy).
//!     for (i, a) in actions.iter_mut().enumerate() {
//!         let mask = &buf.masks[i * env.num_actions()..][..env.num_actions()];
//!         *a = mask.iter().position(|&legal| legal).unwrap_or(0) as i64;
//!     }
//!     env.step(&actions, buf.out()).unwrap();
//! }
//! assert!(buf.players.iter().all(|&p| p == 0 || p == -1));
//! ```

#![deny(missing_docs)]

pub mod described;
pub mod encoding;
pub mod vector;

pub use encoding::{encodings, Encoded};
pub use vector::{
    game_seed, log_seed, log_text, opponent_seed, Batch, Buffers, Out, VectorEnv, VectorError,
    Vectorize, LEARNER_LABEL,
};

/// What a game of the list offers beyond its rules and their drawing, asked of each crate
/// that provides a part: `board` (every game of the list), `evaluate`
/// ([`stickdice_agents::evaluations`]), `exact` ([`stickdice_agents::solvers`]),
/// `measure` ([`stickdice_evaluation::measures`]), `review`
/// ([`stickdice_evaluation::references`]), `encode` ([`encodings`]) and `tablebase`
/// ([`stickdice_agents::tablebases`]), in that order.
pub fn offers(kind: stickdice::GameKind) -> Vec<&'static str> {
    type Games = fn() -> Vec<stickdice::GameKind>;
    let parts: [(&'static str, Games); 6] = [
        ("evaluate", stickdice_agents::evaluations),
        ("exact", stickdice_agents::solvers),
        ("measure", stickdice_evaluation::measures),
        ("review", stickdice_evaluation::references),
        ("encode", encodings),
        ("tablebase", stickdice_agents::tablebases),
    ];
    let mut out = vec!["board"];
    out.extend(
        parts
            .iter()
            .filter(|(_, games)| games().contains(&kind))
            .map(|(part, _)| *part),
    );
    out
}

#[cfg(test)]
mod tests {
    use stickdice::GameKind;

    /// Each crate's table gives every game of the list the parts it has always offered
    /// (the family tree's features and Python's `capabilities` depend on them). A shipped
    /// description without a line here (one added since) must offer what every description
    /// offers; any other game of the list without a line fails, asking for one.
    #[test]
    fn every_game_offers_what_its_crates_register() {
        let all = "board evaluate exact measure review encode";
        let expected = [
            ("sig-wa-duqqan", all),
            ("sig-el-oued", all),
            (
                "issiren",
                "board evaluate exact measure review encode tablebase",
            ),
            (
                "sig-el-oued-capture",
                "board evaluate measure review encode",
            ),
            ("siryu-race", "board evaluate measure review encode"),
            ("sig-wa-duqqan-houmt-taourit", all),
            ("siryu-war", "board evaluate measure review encode"),
            ("sig-mzab", "board evaluate measure review encode"),
            ("sig-tozeur", "board evaluate measure review encode"),
            ("kioz", "board evaluate measure review encode"),
            ("tab", "board evaluate measure review encode"),
            ("sijat-el-taba", "board evaluate measure review encode"),
            ("es-sig", all),
            ("sig-western-sahara", "board evaluate measure review encode"),
            // A description loaded at run time: what the described games offer, but no
            // encoding (its codes would be per type); exactly where it is a race.
            ("game-file", "board evaluate exact measure review"),
        ];
        let listed: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        let pinned: Vec<&str> = expected.iter().map(|e| e.0).collect();
        let kept: Vec<&str> = listed
            .iter()
            .copied()
            .filter(|n| pinned.contains(n))
            .collect();
        assert_eq!(kept, pinned, "the lines here, in the list's order");
        for &kind in GameKind::ALL {
            let name = kind.name();
            let offered = super::offers(kind).join(" ");
            match expected.iter().find(|e| e.0 == name) {
                Some((_, parts)) => assert_eq!(offered, *parts, "{name}"),
                // Every description has the generic parts; the solver where it is a race.
                None if stickdice::described::games::shipped(name).is_some() => assert!(
                    [all, "board evaluate measure review encode"].contains(&offered.as_str()),
                    "{name} is a shipped description but offers only `{offered}`"
                ),
                None => panic!(
                    "{name} offers `{offered}`: add its line to `expected` in \
                     every_game_offers_what_its_crates_register (rl/src/lib.rs)"
                ),
            }
        }
    }
}
