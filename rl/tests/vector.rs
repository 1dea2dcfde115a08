//! The batched environment: a batch game is the single game of its seed, masks are the
//! legal actions, auto-reset, the throw cap as truncation, thread-count independence and
//! bad input.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rand::{RngExt, SeedableRng};
use stickdice::play::{play_game, Event, SeededDice};
use stickdice::{agent_fn, ActionList, Agent, AnyGame, Game, Issiren, SiryuRace};
use stickdice_rl::{game_seed, opponent_seed, Batch, Buffers, Encoded, VectorEnv, VectorError};

fn buffers<G: Encoded + stickdice_agents::Evaluate>(batch: &Batch<G>) -> Buffers {
    Buffers::with_sizes(
        batch.len(),
        Encoded::observation_len(batch.game()),
        G::num_actions(),
        batch.game().seats(),
    )
}

/// A uniformly random legal code per game (0 where the game has ended).
fn random_actions(buf: &Buffers, num_actions: usize, rng: &mut stickdice::Rng) -> Vec<i64> {
    buf.masks
        .chunks(num_actions)
        .map(|mask| {
            let legal: Vec<usize> = (0..num_actions).filter(|&c| mask[c]).collect();
            if legal.is_empty() {
                0
            } else {
                legal[rng.random_range(0..legal.len())] as i64
            }
        })
        .collect()
}

/// One finished episode of a batch game: its seed, the learner's actions, the rewards and
/// the final observation.
#[derive(Debug)]
struct Episode {
    seed: u64,
    actions: Vec<i64>,
    rewards: Vec<f32>,
    observation: Vec<f32>,
}

/// Steps a batch with random legal actions and records the first episode of every game.
fn record<G: Encoded + stickdice_agents::Evaluate>(
    batch: &mut Batch<G>,
    seed: u64,
    steps: usize,
) -> Vec<Option<Episode>> {
    let n = batch.len();
    let (obs_len, na, seats) = (
        Encoded::observation_len(batch.game()),
        G::num_actions(),
        batch.game().seats(),
    );
    let mut buf = buffers(batch);
    batch.reset(seed, buf.out()).unwrap();
    let mut actions: Vec<Vec<i64>> = vec![Vec::new(); n];
    let mut done: Vec<Option<Episode>> = (0..n).map(|_| None).collect();
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    for _ in 0..steps {
        let step = random_actions(&buf, na, &mut rng);
        let seeds: Vec<u64> = (0..n).map(|i| batch.game_seed(i)).collect();
        for i in 0..n {
            if buf.players[i] >= 0 {
                actions[i].push(step[i]);
            }
        }
        batch.step(&step, buf.out()).unwrap();
        for i in 0..n {
            if (buf.terminated[i] || buf.truncated[i]) && done[i].is_none() {
                assert_eq!(buf.players[i], -1);
                assert!(buf.masks[i * na..][..na].iter().all(|&m| !m));
                done[i] = Some(Episode {
                    seed: seeds[i],
                    actions: std::mem::take(&mut actions[i]),
                    rewards: buf.rewards[i * seats..][..seats].to_vec(),
                    observation: buf.observations[i * obs_len..][..obs_len].to_vec(),
                });
            }
        }
    }
    done
}

/// Replays an episode as the arena plays it from its game seed: the learner's seats by
/// the recorded actions, the others by their specs seeded as the arena seeds them.
fn replay<G: Encoded + stickdice_agents::Evaluate>(
    game: &G,
    specs: &[Option<&str>],
    episode: &Episode,
) -> (Vec<f32>, Vec<f32>) {
    let queue = Arc::new(Mutex::new(
        episode.actions.iter().copied().collect::<VecDeque<i64>>(),
    ));
    let mut agents: Vec<Box<dyn Agent<G>>> = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| match spec {
            Some(spec) => {
                stickdice_agents::build_str(spec, game, opponent_seed(episode.seed, seat)).unwrap()
            }
            None => {
                let queue = Arc::clone(&queue);
                Box::new(agent_fn("learner", move |_: &G, _: &G::State| {
                    let code = queue.lock().unwrap().pop_front().expect("an action left");
                    G::decode(code as u32).unwrap()
                })) as Box<dyn Agent<G>>
            }
        })
        .collect();
    let mut dice = SeededDice::new(episode.seed);
    let sticks = game.sticks();
    let mut state = game.initial_state();
    let mut throws = 0;
    let ranking = play_game(
        game,
        &mut state,
        &mut agents,
        |seat, _| dice.throw(seat, sticks),
        |e, _, _| throws += matches!(e, Event::Throw(..)) as u32,
    )
    .unwrap();
    assert!(
        queue.lock().unwrap().is_empty(),
        "every learner action used"
    );
    assert_eq!(throws, game.throws_made(&state));
    let mut obs = vec![0.0; Encoded::observation_len(game)];
    game.observe(&state, &mut obs);
    let rewards = (0..game.seats()).map(|s| ranking.score(s) as f32).collect();
    (rewards, obs)
}

fn batch_games_are_single_games<G: Encoded + stickdice_agents::Evaluate>(
    game: G,
    specs: &[Option<&str>],
    steps: usize,
) {
    let mut batch = Batch::new(game.clone(), 12, specs).unwrap();
    let episodes = record(&mut batch, 41, steps);
    let mut checked = 0;
    for (i, episode) in episodes.iter().enumerate() {
        let Some(episode) = episode else { continue };
        assert_eq!(episode.seed, game_seed(41, i, 0));
        let (rewards, obs) = replay(&game, specs, episode);
        assert_eq!(rewards, episode.rewards, "game {i}");
        assert_eq!(obs, episode.observation, "game {i}");
        checked += 1;
    }
    assert!(checked >= 6, "{}: only {checked} games finished", G::NAME);
}

#[test]
fn a_batch_game_is_the_single_game_of_its_seed() {
    let short =
        Issiren::with_seats(2).and_then(|mut g| g.set_option("max_throws", "120").map(|()| g));
    let issiren = short.unwrap();
    batch_games_are_single_games(issiren.clone(), &[None, None], 400);
    batch_games_are_single_games(issiren.clone(), &[None, Some("greedy")], 300);
    batch_games_are_single_games(issiren, &[Some("random"), None], 300);
    let mut race = SiryuRace::with_seats(3).unwrap();
    race.set_option("max_throws", "150").unwrap();
    batch_games_are_single_games(race, &[None, Some("random"), None], 600);
}

#[test]
fn masks_are_the_legal_actions_and_players_the_seats_to_decide() {
    let game = Issiren::with_seats(2).unwrap();
    let mut batch = Batch::new(game.clone(), 20, &[None, Some("greedy")]).unwrap();
    let mut buf = buffers(&batch);
    batch.reset(3, buf.out()).unwrap();
    let mut rng = stickdice::Rng::seed_from_u64(3);
    let na = Issiren::num_actions();
    let mut legal = ActionList::new();
    for _ in 0..300 {
        for i in 0..batch.len() {
            let state = batch.state(i);
            match game.node(state) {
                stickdice::Node::Decide(seat) => {
                    assert_eq!(buf.players[i], seat as i32);
                    assert_eq!(seat, 0, "the learner's seat only");
                    game.legal_actions(state, &mut legal);
                    let mut want = vec![false; na];
                    for &a in &legal {
                        want[Issiren::encode(a) as usize] = true;
                    }
                    assert_eq!(&buf.masks[i * na..][..na], &want[..]);
                    let mut obs = vec![0.0; game.observation_len()];
                    game.observe(state, &mut obs);
                    let ol = obs.len();
                    assert_eq!(&buf.observations[i * ol..][..ol], &obs[..]);
                }
                _ => assert_eq!(buf.players[i], -1),
            }
        }
        let actions = random_actions(&buf, na, &mut rng);
        batch.step(&actions, buf.out()).unwrap();
    }
}

#[test]
fn finished_games_restart_at_the_next_step_and_the_cap_truncates() {
    let mut game = Issiren::with_seats(2).unwrap();
    game.set_option("max_throws", "30").unwrap();
    let mut batch = Batch::new(game, 8, &[None, None]).unwrap();
    let mut buf = buffers(&batch);
    batch.reset(5, buf.out()).unwrap();
    let mut rng = stickdice::Rng::seed_from_u64(5);
    let mut ended = vec![0u64; 8];
    for _ in 0..200 {
        let was_over: Vec<bool> = (0..8).map(|i| buf.players[i] == -1).collect();
        let actions = random_actions(&buf, Issiren::num_actions(), &mut rng);
        batch.step(&actions, buf.out()).unwrap();
        for i in 0..8 {
            if was_over[i] {
                // Restarted: a new episode with the next seed, awaiting a decision.
                ended[i] += 1;
                assert_eq!(batch.episode(i), ended[i]);
                assert_eq!(batch.game_seed(i), game_seed(5, i, ended[i]));
                assert!(buf.players[i] >= 0);
                assert!(!buf.terminated[i] && !buf.truncated[i]);
                assert_eq!(&buf.rewards[2 * i..][..2], &[0.0, 0.0]);
            }
            if buf.players[i] == -1 {
                // No capture ends a game in 30 throws: the cap does, a draw.
                assert!(buf.truncated[i] && !buf.terminated[i]);
                assert_eq!(&buf.rewards[2 * i..][..2], &[0.5, 0.5]);
            }
        }
    }
    assert!(ended.iter().all(|&e| e >= 3), "{ended:?}");
}

fn run_steps(env: &mut VectorEnv, steps: usize) -> Vec<Buffers> {
    let mut buf = Buffers::new(env).with_legal_codes(env.max_actions());
    env.reset(17, buf.out()).unwrap();
    let mut rng = stickdice::Rng::seed_from_u64(17);
    let mut all = Vec::new();
    for _ in 0..steps {
        let actions = random_actions(&buf, env.num_actions(), &mut rng);
        env.step(&actions, buf.out()).unwrap();
        all.push(buf.clone());
    }
    all
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let game = AnyGame::new("issiren", None, &["max_throws=200"]).unwrap();
    let make = || VectorEnv::new(&game, 400, &[Some("greedy"), None]).unwrap();
    let mut sequential = make();
    sequential.set_parallel(false);
    let want = run_steps(&mut sequential, 60);
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let got = pool.install(|| run_steps(&mut make(), 60));
        assert!(got == want, "{threads} threads");
    }
}

#[test]
fn bad_input_is_refused_and_leaves_the_batch_unchanged() {
    let game = AnyGame::new("issiren", None, &[] as &[&str]).unwrap();
    let mut env = VectorEnv::new(&game, 10, &[None, Some("greedy")]).unwrap();
    let mut twin = VectorEnv::new(&game, 10, &[None, Some("greedy")]).unwrap();
    let mut buf = Buffers::new(&env);
    let mut twin_buf = Buffers::new(&twin);
    env.reset(9, buf.out()).unwrap();
    twin.reset(9, twin_buf.out()).unwrap();
    let mut rng = stickdice::Rng::seed_from_u64(9);
    let good = random_actions(&buf, env.num_actions(), &mut rng);
    let states: Vec<String> = (0..10).map(|i| env.save_state(i)).collect();

    // An illegal code in game 6 (a square with no piece of P1 at the start: l4 = 47).
    let mut bad = good.clone();
    bad[6] = 47;
    let before = buf.clone();
    match env.step(&bad, buf.out()) {
        Err(VectorError::IllegalAction {
            index: 6,
            seat: 0,
            action: 47,
            legal,
        }) => {
            assert!(!legal.is_empty());
            let e = env.step(&bad, buf.out()).unwrap_err().to_string();
            assert!(e.starts_with("game 6: action 47 is not legal"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    for code in [-1, 49, 1 << 40] {
        let mut bad = good.clone();
        bad[0] = code;
        assert!(matches!(
            env.step(&bad, buf.out()),
            Err(VectorError::IllegalAction { index: 0, .. })
        ));
    }
    // Wrong lengths.
    assert!(matches!(
        env.step(&good[..9], buf.out()),
        Err(VectorError::Shape {
            buffer: "actions",
            got: 9,
            want: 10,
            ..
        })
    ));
    let mut short = Buffers::with_sizes(10, 154, 48, 2);
    assert!(matches!(
        env.step(&good, short.out()),
        Err(VectorError::Shape {
            buffer: "masks",
            got: 480,
            want: 490,
            ..
        })
    ));
    assert_eq!(buf, before);
    assert_eq!(
        states,
        (0..10).map(|i| env.save_state(i)).collect::<Vec<_>>()
    );
    // And the batch steps on exactly as its twin that saw no bad input.
    env.step(&good, buf.out()).unwrap();
    twin.step(&good, twin_buf.out()).unwrap();
    assert_eq!(buf, twin_buf);
}

#[test]
fn configurations_that_cannot_be_batched_are_refused() {
    let issiren = AnyGame::new("issiren", None, &[] as &[&str]).unwrap();
    let e = |game: &AnyGame, n, seats: &[Option<&str>]| VectorEnv::new(game, n, seats).unwrap_err();
    assert_eq!(e(&issiren, 0, &[None, None]), VectorError::Empty);
    assert_eq!(
        e(&issiren, 4, &[None]),
        VectorError::Seats { given: 1, seats: 2 }
    );
    assert_eq!(
        e(&issiren, 4, &[Some("random"), Some("greedy")]),
        VectorError::NoLearner
    );
    assert!(matches!(
        e(&issiren, 4, &[None, Some("nonsense")]),
        VectorError::Agent { seat: 1, .. }
    ));
    let swd = AnyGame::new("sig-wa-duqqan", Some(2), &[] as &[&str]).unwrap();
    let msg = e(&swd, 4, &[None, None]).to_string();
    assert!(msg.contains("has no decisions"), "{msg}");
}

/// Checks game `i`'s row of the opt-in legal codes and its count against its mask: the
/// mask's set bits in ascending order, then −1; all −1 and 0 where the mask is empty.
fn check_codes(buf: &Buffers, i: usize, num_actions: usize, width: usize) {
    let mask = &buf.masks[i * num_actions..][..num_actions];
    let codes = &buf.legal_codes.as_ref().unwrap()[i * width..][..width];
    let count = buf.legal_counts.as_ref().unwrap()[i];
    let want: Vec<i64> = (0..num_actions as i64)
        .filter(|&c| mask[c as usize])
        .collect();
    assert_eq!(count as usize, want.len(), "game {i}");
    assert_eq!(&codes[..want.len()], &want[..], "game {i}");
    assert!(
        codes[want.len()..].iter().all(|&c| c == -1),
        "game {i}: {codes:?}"
    );
    assert_eq!(count == 0, buf.players[i] == -1, "game {i}");
}

/// A uniformly random legal code per game drawn from the legal codes (−1 where ended).
fn actions_from_codes(buf: &Buffers, width: usize, rng: &mut stickdice::Rng) -> Vec<i64> {
    let codes = buf.legal_codes.as_ref().unwrap();
    buf.legal_counts
        .as_ref()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, &count)| {
            let k = if count > 0 {
                rng.random_range(0..count as usize)
            } else {
                0
            };
            codes[i * width + k]
        })
        .collect()
}

#[test]
fn legal_codes_are_the_masks_set_bits_and_the_legal_actions_in_order() {
    let mut game = Issiren::with_seats(2).unwrap();
    game.set_option("max_throws", "60").unwrap();
    let mut batch = Batch::new(game.clone(), 20, &[None, Some("greedy")]).unwrap();
    let width = Batch::<Issiren>::max_actions();
    assert_eq!(width, 12, "one legal action per piece at most");
    let mut buf = buffers(&batch).with_legal_codes(width);
    batch.reset(3, buf.out()).unwrap();
    let mut rng = stickdice::Rng::seed_from_u64(3);
    let na = Issiren::num_actions();
    let mut legal = ActionList::new();
    let (mut ended, mut most) = (0, 0);
    for _ in 0..300 {
        for i in 0..batch.len() {
            check_codes(&buf, i, na, width);
            let count = buf.legal_counts.as_ref().unwrap()[i] as usize;
            most = most.max(count);
            match game.node(batch.state(i)) {
                stickdice::Node::Decide(_) => {
                    game.legal_actions(batch.state(i), &mut legal);
                    let mut want: Vec<i64> = legal
                        .iter()
                        .map(|&a| i64::from(Issiren::encode(a)))
                        .collect();
                    want.sort_unstable();
                    assert_eq!(
                        &buf.legal_codes.as_ref().unwrap()[i * width..][..count],
                        &want[..]
                    );
                }
                _ => ended += 1,
            }
        }
        let actions = actions_from_codes(&buf, width, &mut rng);
        batch.step(&actions, buf.out()).unwrap();
    }
    assert!(ended >= 20, "{ended} ended games seen");
    assert!(most >= 6, "at most {most} legal actions seen");
}

#[test]
fn legal_codes_fit_their_rows_in_every_game_that_has_decisions() {
    let mut checked = 0;
    for kind in stickdice_rl::encodings() {
        let (_, most_seats) = kind.seat_range();
        let mut configs = vec![vec!["max_throws=80".to_string()]];
        if kind.option_names().contains(&"five_polished_moves_five") {
            configs.push(vec![
                "max_throws=80".into(),
                "five_polished_moves_five=true".into(),
            ]);
        }
        for options in configs {
            let game = AnyGame::new(kind.name(), Some(most_seats.min(4)), &options).unwrap();
            let seats = vec![None; game.seats()];
            let mut env = match VectorEnv::new(&game, 48, &seats) {
                Err(VectorError::NoDecisions { .. }) => continue,
                env => env.unwrap(),
            };
            let (na, width) = (env.num_actions(), env.max_actions());
            assert!(width <= na, "{}", kind.name());
            let mut buf = Buffers::new(&env).with_legal_codes(width);
            env.reset(8, buf.out()).unwrap();
            let mut rng = stickdice::Rng::seed_from_u64(8);
            for _ in 0..200 {
                for i in 0..env.len() {
                    check_codes(&buf, i, na, width);
                }
                let actions = actions_from_codes(&buf, width, &mut rng);
                env.step(&actions, buf.out()).unwrap();
            }
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked} configurations");
}

#[test]
fn legal_codes_change_nothing_else_and_are_refused_in_the_wrong_shape() {
    let game = AnyGame::new("issiren", None, &["max_throws=100"]).unwrap();
    let mut with = VectorEnv::new(&game, 300, &[None, Some("random")]).unwrap();
    let mut without = VectorEnv::new(&game, 300, &[None, Some("random")]).unwrap();
    let width = with.max_actions();
    let mut a = Buffers::new(&with).with_legal_codes(width);
    let mut b = Buffers::new(&without);
    with.reset(21, a.out()).unwrap();
    without.reset(21, b.out()).unwrap();
    let mut rng = stickdice::Rng::seed_from_u64(21);
    for _ in 0..80 {
        let actions = actions_from_codes(&a, width, &mut rng);
        with.step(&actions, a.out()).unwrap();
        without.step(&actions, b.out()).unwrap();
        let mut a_rest = a.clone();
        a_rest.legal_codes = None;
        a_rest.legal_counts = None;
        assert_eq!(a_rest, b);
    }
    // Counts alone are allowed; codes or counts of the wrong length are refused, with
    // nothing changed.
    let actions = actions_from_codes(&a, width, &mut rng);
    let states: Vec<String> = (0..300).map(|i| with.save_state(i)).collect();
    let before = a.clone();
    for (codes, counts, buffer) in [
        (300 * width - 1, 300, "legal_codes"),
        (300 * width, 301, "legal_counts"),
    ] {
        let mut codes = vec![7i64; codes];
        let mut counts = vec![7i32; counts];
        let mut out = a.out();
        out.legal_codes = Some(&mut codes);
        out.legal_counts = Some(&mut counts);
        match with.step(&actions, out) {
            Err(VectorError::Shape { buffer: got, .. }) => assert_eq!(got, buffer),
            other => panic!("{other:?}"),
        }
        assert!(codes.iter().all(|&c| c == 7) && counts.iter().all(|&c| c == 7));
    }
    assert_eq!(a, before);
    assert_eq!(
        states,
        (0..300).map(|i| with.save_state(i)).collect::<Vec<_>>()
    );
    let mut counts = vec![0i32; 300];
    let mut out = a.out();
    out.legal_codes = None;
    out.legal_counts = Some(&mut counts);
    with.step(&actions, out).unwrap();
    for (i, &count) in counts.iter().enumerate() {
        let mask = &a.masks[i * 49..][..49];
        assert_eq!(count as usize, mask.iter().filter(|&&m| m).count());
    }
}
