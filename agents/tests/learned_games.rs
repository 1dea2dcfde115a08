//! The learned evaluations of the capture games (Sig (El Oued Capture), Siryu (War)): the
//! contract (range, sum, exact at the end), no allocation in inference, and the `eval`
//! parameter (`learned`, `hand`, a file; another game's file refused).

use crate::common;

use stickdice::{Game, Node, SigElOuedCapture, SiryuWar};
use stickdice_agents::learned::games::LearnedGame;
use stickdice_agents::{build_str, Evaluate};

use stickdice_testkit::counting::allocations;

fn keeps_the_contract<G: LearnedGame>(game: &G, games: u64) {
    let eval = G::evaluator("learned").unwrap();
    let net = G::shipped().expect("the game ships weights");
    let states = common::random_game_positions(game, games);
    let mut sum = 0.0;
    for s in &states {
        let v = eval.evaluate(game, s);
        assert_eq!(v, net.evaluate(game, s));
        if game.node(s) == Node::End {
            assert_eq!(Some(v), game.scores(s), "exact at the end");
        } else {
            assert!((0.0..=1.0).contains(&v[0]), "{v:?}");
            assert!((v[0] + v[1] - 1.0).abs() < 1e-12, "{v:?}");
        }
        sum += v[0];
    }
    let before = allocations();
    for s in &states {
        sum += eval.evaluate(game, s)[1];
    }
    assert_eq!(allocations() - before, 0, "inference allocates nothing");
    assert!(sum.is_finite());
}

#[test]
fn the_learned_evaluations_keep_the_contract_and_allocate_nothing() {
    keeps_the_contract(&SigElOuedCapture::with_seats(2).unwrap(), 20);
    keeps_the_contract(&SiryuWar::with_seats(2).unwrap(), 3);
}

#[test]
fn the_eval_parameter_selects_the_capture_games_evaluations() {
    let capture = SigElOuedCapture::with_seats(2).unwrap();
    let war = SiryuWar::with_seats(2).unwrap();
    for spec in [
        "greedy:eval=learned",
        "expectimax:eval=learned,nodes=200",
        "mcts:eval=learned,iterations=50",
        "greedy:eval=hand",
    ] {
        for name in [
            build_str(spec, &capture, 1).unwrap().name(),
            build_str(spec, &war, 1).unwrap().name(),
        ] {
            // The name keeps the evaluation and rebuilds the same agent.
            let eval = spec
                .split(',')
                .find_map(|p| p.split(':').next_back().filter(|q| q.starts_with("eval=")))
                .unwrap();
            assert!(name.contains(eval), "{spec}: {name}");
            assert_eq!(build_str(&name, &capture, 2).unwrap().name(), name);
        }
    }
    // `hand` is the hand-set evaluation, exactly.
    let s = capture.initial_state();
    assert_eq!(
        SigElOuedCapture::evaluator("hand")
            .unwrap()
            .evaluate(&capture, &s),
        capture.evaluate(&s)
    );
    // A Siryu (War) weights file is refused for Sig (El Oued Capture), naming its game.
    let dir = std::env::temp_dir().join(format!("stickdice-learned-family-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("siryu-war.sdw");
    SiryuWar::shipped().unwrap().save(&path).unwrap();
    let spec = format!("greedy:eval={}", path.display());
    assert!(build_str(&spec, &war, 1).is_ok());
    let err = build_str(&spec, &capture, 1).err().unwrap().to_string();
    assert!(err.contains("weights for the game `siryu-war`"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
