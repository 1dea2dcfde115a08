//! Every agent of the registry that plays by an evaluation or a search — random, greedy,
//! expectimax, MCTS and ISMCTS — plays every game of the list (`stickdice::for_each_game!`):
//! a short round-robin tournament per game, through the tournament builder, with no failed
//! game (panic, illegal action, error). Budgets are small and the race games capped, so
//! this is quick in release.

use stickdice_evaluation::tournament;

/// The agents, with small budgets: each of the five families at least once.
const AGENTS: [&str; 5] = [
    "random",
    "greedy",
    "expectimax:depth=1",
    "mcts:iterations=40",
    "ismcts:iterations=40",
];

/// A round robin of [`AGENTS`] on `game` (capped at `cap` throws so long races stay short):
/// every table's games are played and counted, no agent fails a game, and every agent
/// plays and scores.
fn round_robin<G: stickdice_agents::Evaluate>(cap: u32) {
    // The list's `game-file` slot plays the selected description: Sig (Tozeur)'s text here.
    stickdice::described::file::select(
        stickdice::described::file::parse(
            "sig-tozeur.toml",
            stickdice::described::games::SigTozeur::TEXT,
        )
        .unwrap(),
    );
    assert!(G::HAS_EVALUATION, "{} has no evaluation", G::NAME);
    let mut game = G::with_seats(2).unwrap();
    game.set_option("max_throws", &cap.to_string()).unwrap();
    let summary = tournament(&game)
        .agents(AGENTS)
        .games(2)
        .seed(27)
        .threads(1)
        .run()
        .unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
    // Ten tables of two games (seats swapped).
    assert_eq!(summary.played, 20, "{}", G::NAME);
    let report = summary.report.expect("a report");
    assert!(
        report.failures.is_empty(),
        "{}: {:?}",
        G::NAME,
        report.failures
    );
    assert_eq!(report.standings.len(), AGENTS.len());
    for s in &report.standings {
        assert_eq!((s.games, s.failures), (8, 0), "{}: {}", G::NAME, s.agent);
        assert!(
            (0.0..=1.0).contains(&s.score.value),
            "{}: {}",
            G::NAME,
            s.agent
        );
    }
}

/// One test per game of the list, named after its variant.
macro_rules! every_agent_tests {
    ([] $($variant:ident : $ty:path,)*) => {
        $(
            #[test]
            #[allow(non_snake_case)]
            fn $variant() {
                round_robin::<$ty>(400);
            }
        )*
    };
}
stickdice::for_each_game!(every_agent_tests);
