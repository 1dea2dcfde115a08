//! The batched environment: a batch game is the single game of its seed, masks are the
//! legal actions, auto-reset, the throw cap as truncation, thread-count independence and
//! bad input.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rand::{RngExt, SeedableRng};
use stickdice::play::{play_game, Event, SeededDice};
use stickdice::{agent_fn, ActionList, Agent, AnyGame, Game, Issiren, SiryuRace};
use stickdice_rl::{game_seed, opponent_seed, Batch, Buffers, Encoded, VectorEnv, VectorError};

fn buffers<G: Encoded>(batch: &Batch<G>) -> Buffers {
    Buffers::with_sizes(
        batch.len(),
        Encoded::observation_len(batch.game()),
        G::NUM_ACTIONS,
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
fn record<G: Encoded>(batch: &mut Batch<G>, seed: u64, steps: usize) -> Vec<Option<Episode>> {
    let n = batch.len();
    let (obs_len, na, seats) = (
        Encoded::observation_len(batch.game()),
        G::NUM_ACTIONS,
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
fn replay<G: Encoded>(game: &G, specs: &[Option<&str>], episode: &Episode) -> (Vec<f32>, Vec<f32>) {
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

fn batch_games_are_single_games<G: Encoded>(game: G, specs: &[Option<&str>], steps: usize) {
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
    let na = Issiren::NUM_ACTIONS;
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
        let actions = random_actions(&buf, Issiren::NUM_ACTIONS, &mut rng);
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
    let mut buf = Buffers::new(env);
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
