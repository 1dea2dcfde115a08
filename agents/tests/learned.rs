//! The learned Issiren evaluation: the weights file (round trip, damaged, truncated and
//! foreign files), reproducible training (twice the same, and stopped + resumed the same),
//! the evaluation's contract (range, sum, exact at the end, no allocation), the `eval`
//! parameter, and a decisive strength test against the hand-set evaluation.

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng;
use stickdice::{Agent, Game, Issiren, Node, SigWaDuqqan};
use stickdice_agents::learned::train::{train, TrainConfig};
use stickdice_agents::learned::{self, Network, TrainSettings, WeightsError};
use stickdice_agents::{build_str, Evaluate, Evaluator};

use stickdice_testkit::counting::allocations;

fn settings() -> TrainSettings {
    TrainSettings {
        seed: 5,
        games: 0,
        lambda: 0.7,
        alpha: 0.1,
        tablebase_steps: 0,
        tablebase: false,
    }
}

fn format_error(bytes: &[u8]) -> String {
    match Network::from_bytes(bytes) {
        Err(WeightsError::Format(why)) => why,
        other => panic!("expected a format error, got {other:?}"),
    }
}

/// Recomputes the trailing FNV-1a checksum after an edit of the header.
fn reseal(bytes: &mut [u8]) {
    let n = bytes.len() - 8;
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in &bytes[..n] {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    bytes[n..].copy_from_slice(&h.to_le_bytes());
}

#[test]
fn weights_round_trip_and_damaged_files_are_refused() {
    let net = Network::random(6, 3, settings());
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    // Through a file, written atomically.
    let dir = std::env::temp_dir().join(format!("stickdice-learned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.sdw");
    net.save(&path).unwrap();
    assert_eq!(Network::load(&path).unwrap(), net);
    assert!(!dir.join("w.sdw.tmp").exists());
    // Every truncation is refused.
    for n in [0, 5, 8, 20, 60, bytes.len() / 2, bytes.len() - 1] {
        assert!(Network::from_bytes(&bytes[..n]).is_err(), "cut at {n}");
    }
    // A flipped bit in the weights: the checksum.
    let mut b = bytes.clone();
    b[bytes.len() - 20] ^= 0x10;
    assert!(format_error(&b).contains("checksum"));
    // Trailing bytes.
    let mut b = bytes.clone();
    b.push(0);
    assert!(format_error(&b).contains("after the checksum"));
    // Not a weights file at all.
    assert!(format_error(b"SDTBISS1 a tablebase...").contains("magic"));
    // Another format version (header resealed so only the version is wrong).
    let mut b = bytes.clone();
    b[8] = 9;
    reseal(&mut b);
    assert!(format_error(&b).contains("version 9"));
    // A foreign game: same length name, resealed.
    let mut b = bytes.clone();
    b[13..20].copy_from_slice(b"sigwadu");
    reseal(&mut b);
    assert!(format_error(&b).contains("sigwadu"), "{}", format_error(&b));
    // A wrong shape (hidden units past the maximum).
    let mut b = bytes.clone();
    let hidden_at = 8 + 4 + 1 + 7 + 4 + 4;
    b[hidden_at..hidden_at + 4].copy_from_slice(&1000u32.to_le_bytes());
    reseal(&mut b);
    assert!(format_error(&b).contains("shape"));
    // A missing file, and a damaged one through the `eval` parameter.
    assert!(matches!(
        Network::load(&dir.join("none.sdw")),
        Err(WeightsError::Io(_))
    ));
    let damaged = dir.join("damaged.sdw");
    let mut b = bytes.clone();
    b[40] ^= 1;
    std::fs::write(&damaged, &b).unwrap();
    let game = Issiren::with_seats(2).unwrap();
    let spec = format!("greedy:eval={}", damaged.display());
    let err = build_str(&spec, &game, 1)
        .err()
        .expect("a damaged file is refused");
    assert!(err.to_string().contains("checksum"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    // The shipped weights parse and are the default.
    let shipped = learned::shipped();
    assert_eq!(shipped.hidden(), shipped.hidden());
    assert!(shipped.settings().games > 0);
    let eg = shipped
        .endgame()
        .expect("the shipped weights have an endgame network");
    assert!(eg.quantized() && eg.settings().done > 0);
    assert!(include_bytes!("../weights/issiren.sdw").len() < 1_000_000);
    // Its main network is the search-distilled one, made with the default settings.
    let d = shipped
        .distilled()
        .expect("the shipped main network is distilled");
    assert_eq!(
        *d,
        learned::Distilled {
            config: learned::distill::DistillConfig::default(),
            rounds_done: 10
        }
    );
}

fn tiny(games: u64) -> TrainConfig {
    TrainConfig {
        games,
        seed: 11,
        lambda: 0.7,
        alpha: 0.1,
        hidden: 4,
        tablebase_steps: 0,
        checkpoint_every: 4,
    }
}

#[test]
fn training_is_reproducible_across_runs_and_resumes() {
    let never = AtomicBool::new(false);
    let a = train(
        &tiny(12),
        None,
        None,
        &never,
        |_| {},
        |_| Ok::<(), String>(()),
    )
    .unwrap();
    let b = train(
        &tiny(12),
        None,
        None,
        &never,
        |_| {},
        |_| Ok::<(), String>(()),
    )
    .unwrap();
    assert_eq!(a.to_bytes(), b.to_bytes());
    assert_eq!(a.settings().games, 12);
    // Another seed trains other weights.
    let other = TrainConfig {
        seed: 12,
        ..tiny(12)
    };
    let c = train(&other, None, None, &never, |_| {}, |_| Ok::<(), String>(())).unwrap();
    assert_ne!(a.to_bytes(), c.to_bytes());
    // Stopped after game 6 (as Ctrl-C does): a checkpoint at once, then the run ends.
    let stop = AtomicBool::new(false);
    let mut checkpoints = Vec::new();
    let half = train(
        &tiny(12),
        None,
        None,
        &stop,
        |done| {
            if done == 6 {
                stop.store(true, Ordering::SeqCst);
            }
        },
        |net| {
            checkpoints.push(net.to_bytes());
            Ok::<(), String>(())
        },
    )
    .unwrap();
    assert_eq!(half.settings().games, 6);
    assert_eq!(checkpoints.len(), 2, "at 4 games and when stopped at 6");
    // Resumed from the last checkpoint's bytes: the same weights as the run never stopped.
    let resumed = Network::from_bytes(checkpoints.last().unwrap()).unwrap();
    let whole = train(
        &tiny(12),
        None,
        Some(resumed),
        &never,
        |_| {},
        |_| Ok::<(), String>(()),
    )
    .unwrap();
    assert_eq!(whole.to_bytes(), a.to_bytes());
    // A checkpoint of other settings is refused.
    let resumed = Network::from_bytes(&checkpoints[0]).unwrap();
    let err = train(
        &other,
        None,
        Some(resumed),
        &never,
        |_| {},
        |_| Ok::<(), String>(()),
    )
    .unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
}

#[test]
fn the_learned_evaluation_keeps_the_contract_and_allocates_nothing() {
    let game = Issiren::with_seats(2).unwrap();
    let eval = Issiren::evaluator("learned").unwrap();
    let net = learned::shipped();
    let states = common::random_game_positions(&game, 20);
    for s in states.iter().filter(|s| game.node(s) == Node::End) {
        let v = game.evaluate(s);
        assert_eq!(Some(v), game.scores(s), "exact at the end");
        assert_eq!(eval.evaluate(&game, s), v);
    }
    let mut sum = 0.0;
    for s in &states {
        let v = game.evaluate(s);
        assert!(
            (0.0..=1.0).contains(&v[0]) && (0.0..=1.0).contains(&v[1]),
            "{v:?}"
        );
        assert!((v[0] + v[1] - 1.0).abs() < 1e-12, "{v:?}");
        assert_eq!(
            eval.evaluate(&game, s),
            v,
            "the default is the learned evaluation"
        );
        sum += v[0];
    }
    // The seat-swap symmetry: the same position from the other seat reads the same.
    for s in states.iter().filter(|s| s.pending().is_none()).take(200) {
        use stickdice::games::issiren::Position;
        let t = stickdice::games::issiren::State::try_from(Position {
            turn: s.turn() ^ 1,
            pending: s.pending(),
            throws: s.throws(),
            ..Position::new(s.pieces_of(1), s.pieces_of(0))
        })
        .unwrap();
        if game.node(&t) != Node::End {
            let (a, b) = (game.evaluate(s), game.evaluate(&t));
            assert!((a[0] - b[1]).abs() < 1e-6, "{a:?} {b:?}");
        }
    }
    let before = allocations();
    for s in &states {
        sum += game.evaluate(s)[1];
        sum += f64::from(net.win_probability(s, 0));
    }
    assert_eq!(allocations() - before, 0, "inference allocates nothing");
    assert!(sum.is_finite());
}

#[test]
fn the_eval_parameter_selects_and_names_the_evaluation() {
    let game = Issiren::with_seats(2).unwrap();
    for spec in [
        "greedy",
        "greedy:eval=hand",
        "greedy:eval=learned",
        "expectimax:depth=2,eval=hand",
        "mcts:iterations=50,eval=hand",
    ] {
        let agent = build_str(spec, &game, 1).unwrap();
        let name = agent.name();
        // The name rebuilds the same agent.
        let again = build_str(&name, &game, 1).unwrap();
        assert_eq!(again.name(), name, "{spec}");
        assert_eq!(
            spec.contains("eval="),
            name.contains("eval="),
            "{spec}: {name}"
        );
    }
    // The race games keep their hand-set evaluation: `learned` is a clear error there.
    let duqqan = SigWaDuqqan::with_seats(2).unwrap();
    let err = build_str("greedy:eval=learned", &duqqan, 1).err().unwrap();
    assert!(
        err.to_string().contains("only the hand-set evaluation"),
        "{err}"
    );
    assert!(build_str("mcts:eval=hand,iterations=10", &duqqan, 1).is_ok());
    // eval=hand is today's evaluation, exactly.
    let hand = Issiren::evaluator("hand").unwrap();
    let s = game.initial_state();
    assert_eq!(
        hand.evaluate(&game, &s),
        Evaluator::issiren_hand().evaluate(&game, &s)
    );
    assert!(build_str("greedy:eval=/no/such/file.sdw", &game, 1).is_err());
}

/// Learned greedy against hand-set greedy, 2000 games: game `g` has the learned agent in
/// seat `g % 2` and dice from seed `g / 2` (both orders of a pair on the same dice). The
/// former main network (self-play TD(λ) only, before the search distillation) won 1212 of
/// these games (0.606). Under the null hypothesis that the shipped network is no stronger
/// than that, a game is an outright win for it with probability at most 0.62, so its wins
/// are at most Binomial(2000, 0.62): P(X ≥ 1320) = 1.1·10⁻⁴. Measured with the shipped
/// weights (distilled main network, endgame network): 1409 wins (about 4.4 standard
/// deviations of the win count above the threshold).
#[test]
#[cfg_attr(debug_assertions, ignore = "statistical: release builds only")]
fn learned_greedy_beats_hand_greedy() {
    const GAMES: u64 = 2000;
    const REQUIRED: u64 = 1320;
    let game = Issiren::with_seats(2).unwrap();
    let mut wins = 0;
    for g in 0..GAMES {
        let seat = (g % 2) as usize;
        let mut agents: Vec<Box<dyn Agent<Issiren>>> = vec![
            build_str("greedy:eval=hand", &game, stickdice::seed::derive(g, &[1])).unwrap(),
            build_str("greedy:eval=hand", &game, stickdice::seed::derive(g, &[2])).unwrap(),
        ];
        agents[seat] = build_str("greedy", &game, stickdice::seed::derive(g, &[3])).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(g / 2, &[0]));
        let mut state = game.initial_state();
        let ranking = stickdice::play::play_game(
            &game,
            &mut state,
            &mut agents,
            stickdice::play::rng_throws(game.sticks(), &mut rng),
            |_, _, _| {},
        )
        .unwrap();
        wins += u64::from(ranking.is_sole_winner(seat));
    }
    eprintln!("learned greedy won {wins} of {GAMES} against hand-set greedy");
    assert!(
        wins >= REQUIRED,
        "learned greedy won {wins} of {GAMES}, fewer than {REQUIRED}"
    );
}

mod endgame {
    use super::*;
    use stickdice_agents::learned::endgame::{train_endgame, EndgameConfig, EndgameNet};
    use stickdice_agents::solve::tablebase::Tablebase;

    fn small(limit: u64) -> EndgameConfig {
        EndgameConfig {
            seed: 4,
            epochs: 1,
            alpha: 0.15,
            hidden: 4,
            checkpoint_every: 40_000,
            limit,
        }
    }

    fn one_v_one() -> &'static Tablebase {
        static TB: std::sync::OnceLock<Tablebase> = std::sync::OnceLock::new();
        TB.get_or_init(|| Tablebase::build_partial(1, |_, _, _| {}).0)
    }

    /// A run of `config` on the 1v1 table from `resume` (or fresh), never stopped, with
    /// no progress and no checkpoint.
    fn run(
        config: &EndgameConfig,
        resume: Option<EndgameNet>,
    ) -> Result<EndgameNet, stickdice_agents::learned::TrainError> {
        let never = AtomicBool::new(false);
        train_endgame(
            config,
            one_v_one(),
            resume,
            &never,
            |_, _| {},
            |_| Ok::<(), String>(()),
        )
    }

    fn trained(limit: u64) -> EndgameNet {
        run(&small(limit), None).unwrap()
    }

    #[test]
    fn endgame_training_is_reproducible_and_resumes() {
        let a = trained(100_000);
        assert_eq!(a, trained(100_000));
        assert_eq!(a.settings().done, 100_000);
        let other = EndgameConfig {
            seed: 5,
            ..small(100_000)
        };
        let c = run(&other, None).unwrap();
        assert_ne!(a, c, "another seed, another order and other weights");
        // Stopped at the first progress report (a checkpoint at once), then resumed from
        // the checkpoint's bytes: the same weights as the run never stopped.
        let stop = AtomicBool::new(false);
        let mut saved = Vec::new();
        let main = Network::random(3, 1, settings());
        let half = train_endgame(
            &small(100_000),
            one_v_one(),
            None,
            &stop,
            |done, _| {
                if done == 40_000 {
                    stop.store(true, Ordering::SeqCst);
                }
            },
            |eg| {
                saved.push(main.clone().with_endgame(Some(eg.clone())).to_bytes());
                Ok::<(), String>(())
            },
        )
        .unwrap();
        assert!(half.settings().done < 100_000);
        let back = Network::from_bytes(saved.last().unwrap()).unwrap();
        let eg = back
            .endgame()
            .cloned()
            .expect("the checkpoint has the endgame network");
        let whole = run(&small(100_000), Some(eg)).unwrap();
        assert_eq!(whole, a);
        // Other settings, and a finished (16-bit) network, are refused as checkpoints.
        let err = run(&other, Some(half.clone())).unwrap_err();
        assert!(err.to_string().contains("other settings"), "{err}");
        let mut q = half;
        q.quantize();
        let err = run(&small(100_000), Some(q)).unwrap_err();
        assert!(err.to_string().contains("16 bits"), "{err}");
    }

    #[test]
    fn endgame_sections_round_trip_and_damage_is_named() {
        let mut eg = trained(50_000);
        let net = Network::random(3, 1, settings()).with_endgame(Some(eg.clone()));
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        // Rounded to 16 bits: the file is about half the size and loads exactly.
        eg.quantize();
        let q = Network::random(3, 1, settings()).with_endgame(Some(eg.clone()));
        let qb = q.to_bytes();
        assert!(qb.len() < bytes.len() * 6 / 10);
        let back = Network::from_bytes(&qb).unwrap();
        assert_eq!(back, q);
        assert!(back.endgame().unwrap().quantized());
        for n in [bytes.len() - 9, bytes.len() - 100, bytes.len() / 2] {
            assert!(Network::from_bytes(&bytes[..n]).is_err(), "cut at {n}");
        }
        // The endgame section starts after the main network: a wrong feature set there.
        // (after it: the endgame section's u32, the distillation byte, the checksum)
        let main_len = Network::random(3, 1, settings()).to_bytes().len() - 8 - 1 - 4;
        let mut b = bytes.clone();
        b[main_len + 4..main_len + 8].copy_from_slice(&7u32.to_le_bytes());
        reseal(&mut b);
        assert!(
            format_error(&b).contains("endgame feature set 7"),
            "{}",
            format_error(&b)
        );
        let mut b = bytes.clone();
        b[main_len..main_len + 4].copy_from_slice(&900u32.to_le_bytes());
        reseal(&mut b);
        assert!(
            format_error(&b).contains("900 hidden units"),
            "{}",
            format_error(&b)
        );
        // A version 1 file (no endgame section, no distillation record) still loads.
        let plain = Network::random(3, 1, settings());
        let mut v1 = plain.to_bytes();
        let cut = v1.len() - 8 - 1 - 4;
        v1.drain(cut..cut + 5);
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        reseal(&mut v1);
        assert_eq!(Network::from_bytes(&v1).unwrap(), plain);
        // A version 2 file (an endgame section, no distillation record) still loads.
        let mut v2 = bytes.clone();
        let cut = v2.len() - 8 - 1;
        v2.remove(cut);
        v2[8..12].copy_from_slice(&2u32.to_le_bytes());
        reseal(&mut v2);
        assert_eq!(Network::from_bytes(&v2).unwrap(), net);
    }

    #[test]
    fn the_endgame_network_evaluates_covered_positions_and_allocates_nothing() {
        let game = Issiren::with_seats(2).unwrap();
        let eg = trained(50_000);
        let net = Network::random(3, 1, settings()).with_endgame(Some(eg.clone()));
        let mut states = Vec::new();
        let sizes = stickdice_agents::solve::tablebase::table_sizes();
        for k in 0..400 {
            for (table, size) in sizes.iter().enumerate() {
                let index = k * 7919 % size;
                if let Some(s) = stickdice_agents::solve::tablebase::position(table, index, k % 2) {
                    states.push(s);
                    let mut d = s;
                    game.apply_throw_unchecked(&mut d, stickdice::Throw::new((k % 7) as u8));
                    states.push(d);
                }
            }
        }
        assert!(states.len() > 1000);
        let before = allocations();
        let mut sum = 0.0;
        for s in &states {
            let mover = s.turn() as usize;
            let p = net.win_probability(s, mover);
            assert!((0.0..=1.0).contains(&p));
            // At a throw node: the expectation over the throws of the decision values.
            if s.pending().is_none() {
                let mut e = 0.0f32;
                for o in game.throw_outcomes() {
                    let mut d = *s;
                    game.apply_throw_unchecked(&mut d, o.throw);
                    e += o.probability as f32 * eg.decision_value(&d, mover);
                }
                assert!((e - p).abs() < 1e-6);
            } else {
                assert_eq!(p, eg.decision_value(s, mover));
            }
            sum += net.evaluate(&game, s)[0];
        }
        assert_eq!(allocations() - before, 0, "inference allocates nothing");
        assert!(sum.is_finite());
        // Without the endgame network the same positions read otherwise.
        let plain = Network::random(3, 1, settings());
        assert!(states
            .iter()
            .any(|s| plain.win_probability(s, 0) != net.win_probability(s, 0)));
    }
}

mod distill {
    use super::*;
    use stickdice_agents::learned::distill::{distill, DistillConfig, DistillProgress};

    fn small(rounds: u32) -> DistillConfig {
        DistillConfig {
            rounds,
            games: 3,
            depth: 1,
            epochs: 2,
            alpha: 0.05,
            explore: 0.2,
            seed: 8,
        }
    }

    fn start() -> Network {
        Network::random(4, 2, settings())
    }

    /// Runs `config` from `net`, returning the network, the checkpoints' bytes and each
    /// round's cross-entropy before and after its fit.
    fn run(
        config: &DistillConfig,
        net: Network,
        stop_after_round: Option<u32>,
    ) -> (Network, Vec<Vec<u8>>, Vec<(f64, f64)>) {
        let stop = AtomicBool::new(false);
        let mut checkpoints = Vec::new();
        let mut losses = Vec::new();
        let net = distill(
            config,
            net,
            None,
            &stop,
            |p| {
                if let DistillProgress::Round {
                    round,
                    loss_before,
                    loss_after,
                    positions,
                } = p
                {
                    assert!(positions > 100, "{positions} positions");
                    losses.push((loss_before, loss_after));
                    if Some(round) == stop_after_round {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            },
            |net| {
                checkpoints.push(net.to_bytes());
                Ok::<(), String>(())
            },
        )
        .unwrap();
        (net, checkpoints, losses)
    }

    #[test]
    fn distillation_is_reproducible_resumes_and_fits_its_targets() {
        let (a, checkpoints, losses) = run(&small(3), start(), None);
        let (b, _, _) = run(&small(3), start(), None);
        assert_eq!(a.to_bytes(), b.to_bytes());
        assert_eq!(checkpoints.len(), 3);
        assert_eq!(checkpoints.last().unwrap(), &a.to_bytes());
        let record = a.distilled().unwrap();
        assert_eq!((record.rounds_done, record.config), (3, small(3)));
        // Each round's fit brings the network closer to its targets.
        for (before, after) in &losses {
            assert!(after < before, "cross-entropy {before} -> {after}");
        }
        // The weights moved; the shape, the TD record and the endgame slot did not.
        assert_ne!(a.to_bytes(), start().to_bytes());
        assert_eq!(a.hidden(), 4);
        assert_eq!(a.settings(), start().settings());
        // Another seed distils other weights.
        let other = DistillConfig {
            seed: 9,
            ..small(3)
        };
        let (c, _, _) = run(&other, start(), None);
        assert_ne!(c.to_bytes(), a.to_bytes());
        // Stopped after round 1 (as Ctrl-C does): the run ends with that round's network.
        let (half, checkpoints, _) = run(&small(3), start(), Some(0));
        assert_eq!(half.distilled().unwrap().rounds_done, 1);
        assert_eq!(checkpoints.len(), 1);
        // Resumed from the checkpoint's bytes: the same weights as the run never stopped.
        let resumed = Network::from_bytes(&checkpoints[0]).unwrap();
        let (whole, _, _) = run(&small(3), resumed, None);
        assert_eq!(whole.to_bytes(), a.to_bytes());
        // A run of two rounds continued to three: the same bytes again.
        let (two, _, _) = run(&small(2), start(), None);
        let (three, _, _) = run(&small(3), two, None);
        assert_eq!(three.to_bytes(), a.to_bytes());
        // A checkpoint of other settings is refused, as are settings out of range.
        let resumed = Network::from_bytes(&checkpoints[0]).unwrap();
        let never = AtomicBool::new(false);
        let err = distill(
            &other,
            resumed,
            None,
            &never,
            |_| {},
            |_| Ok::<(), String>(()),
        )
        .unwrap_err();
        assert!(err.to_string().contains("other settings"), "{err}");
        for bad in [
            DistillConfig {
                depth: 0,
                ..small(1)
            },
            DistillConfig {
                depth: 4,
                ..small(1)
            },
            DistillConfig {
                games: 0,
                ..small(1)
            },
            DistillConfig {
                explore: 1.0,
                ..small(1)
            },
            DistillConfig {
                alpha: 0.0,
                ..small(1)
            },
        ] {
            assert!(distill(
                &bad,
                start(),
                None,
                &never,
                |_| {},
                |_| Ok::<(), String>(())
            )
            .is_err());
        }
    }

    #[test]
    fn the_distillation_record_round_trips_and_damage_is_named() {
        let (net, _, _) = run(&small(1), start(), None);
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.distilled(), net.distilled());
        // The record sits just before the checksum: 1 + 4 + 8 + 4 + 4 + 4 + 4 + 8 + 4 bytes.
        let at = bytes.len() - 8 - 41;
        assert_eq!(bytes[at], 1);
        let mut b = bytes.clone();
        b[at] = 7;
        reseal(&mut b);
        assert!(
            format_error(&b).contains("distillation record"),
            "{}",
            format_error(&b)
        );
        // A depth out of range (rounds u32, games u64, then the depth).
        let mut b = bytes.clone();
        b[at + 13..at + 17].copy_from_slice(&9u32.to_le_bytes());
        reseal(&mut b);
        assert!(format_error(&b).contains("depth"), "{}", format_error(&b));
        // More rounds done than planned.
        let mut b = bytes.clone();
        let n = b.len();
        b[n - 12..n - 8].copy_from_slice(&5u32.to_le_bytes());
        reseal(&mut b);
        assert!(
            format_error(&b).contains("rounds done"),
            "{}",
            format_error(&b)
        );
        // The record is dropped on request (to start a new run from a distilled network).
        assert!(net.clone().without_distilled().distilled().is_none());
    }
}
