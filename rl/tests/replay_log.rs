//! A batch game's record is a tournament log that `stickdice replay` reads: written,
//! read back, checked against its schedule and replayed through the rules to the batch's
//! result (what `stickdice replay LOG --index 0` does before it prints).

use rand::{RngExt, SeedableRng};
use stickdice::{with_game, AnyGame, Game};
use stickdice_evaluation::log;
use stickdice_evaluation::schedule::{Format, Schedule};
use stickdice_evaluation::tournament::verify_game;
use stickdice_rl::{game_seed, log_seed, Buffers, VectorEnv, VectorError, LEARNER_LABEL};

#[test]
fn batch_game_seeds_are_the_one_game_tournaments_seeds() {
    for (seed, index, episode, seats) in [(0, 0, 0, 2), (7, 3, 2, 2), (u64::MAX, 1000, 9, 4)] {
        let schedule = Schedule::new(
            Format::RoundRobin,
            seats,
            seats,
            seats,
            log_seed(seed, index, episode),
        )
        .unwrap();
        assert_eq!(schedule.len(), seats);
        assert_eq!(schedule.slot(0).seating, (0..seats).collect::<Vec<_>>());
        assert_eq!(schedule.slot(0).game_seed, game_seed(seed, index, episode));
    }
}

/// Steps a recorded batch with random legal actions; every game that ends has its log
/// written, read, checked and compared with the batch's rewards. Returns the number of
/// logs checked.
fn ended_games_replay(game: &str, options: &[&str], seats: &[Option<&str>], steps: usize) -> usize {
    let any = AnyGame::new(game, Some(seats.len()), options).unwrap();
    let mut env = VectorEnv::new(&any, 16, seats).unwrap();
    env.set_recording(true);
    let mut buf = Buffers::new(&env);
    env.reset(5, buf.out()).unwrap();
    let (na, n) = (env.num_actions(), env.seats());
    let mut rng = stickdice::Rng::seed_from_u64(5);
    let dir =
        std::env::temp_dir().join(format!("stickdice-rl-replay-{}-{game}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for _ in 0..steps {
        let actions: Vec<i64> = buf
            .masks
            .chunks(na)
            .map(|m| {
                let legal: Vec<usize> = (0..na).filter(|&c| m[c]).collect();
                if legal.is_empty() {
                    0
                } else {
                    legal[rng.random_range(0..legal.len())] as i64
                }
            })
            .collect();
        env.step(&actions, buf.out()).unwrap();
        for i in 0..env.len() {
            if buf.players[i] >= 0 {
                assert_eq!(
                    env.record(i).unwrap_err(),
                    VectorError::NotEnded { index: i }
                );
                continue;
            }
            let path = dir.join(format!("game-{i}-{}.jsonl", env.episode(i)));
            std::fs::write(&path, env.replay_log(i).unwrap()).unwrap();
            let contents = log::read(&path).unwrap().unwrap();
            let c = &contents.config;
            assert_eq!(c.seed, log_seed(5, i, env.episode(i)));
            assert_eq!(contents.games.len(), 1);
            let record = &contents.games[0].1;
            assert_eq!(record.game_seed, env.game_seed(i));
            for (s, spec) in seats.iter().enumerate() {
                assert_eq!(c.agents[s], spec.unwrap_or(LEARNER_LABEL));
            }
            // What `stickdice replay` does with the log: the game, the schedule, the check.
            let logged = AnyGame::new(&c.game, Some(c.players), &c.options).unwrap();
            let schedule = Schedule::new(
                c.format,
                c.agents.len(),
                c.players,
                c.games_per_table,
                c.seed,
            )
            .unwrap();
            with_game!(&logged, |g| verify_game(g, &schedule, record)).unwrap();
            let rewards: Vec<f64> = buf.rewards[i * n..][..n]
                .iter()
                .map(|&r| f64::from(r))
                .collect();
            assert_eq!(record.scores, rewards, "game {i}");
            assert_eq!(
                record.throws,
                with_game!(&logged, |g| {
                    g.throws_made(&g.load_state(&env.save_state(i)).unwrap())
                })
            );
            checked += 1;
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    checked
}

#[test]
fn an_ended_batch_game_is_a_log_that_replays() {
    let issiren = ended_games_replay("issiren", &["max_throws=120"], &[None, Some("random")], 300);
    assert!(issiren >= 20, "{issiren} Issiren games checked");
    let self_play = ended_games_replay("issiren", &["max_throws=120"], &[None, None], 300);
    assert!(self_play >= 20, "{self_play} self-play games checked");
    let race = ended_games_replay(
        "siryu-race",
        &["max_throws=150"],
        &[None, Some("greedy"), None],
        400,
    );
    assert!(race >= 8, "{race} Siryu (Race) games checked");
}

#[test]
fn records_are_refused_where_there_is_none() {
    let any = AnyGame::new("issiren", Some(2), &[] as &[&str]).unwrap();
    let mut env = VectorEnv::new(&any, 4, &[None, None]).unwrap();
    let mut buf = Buffers::new(&env);
    env.reset(1, buf.out()).unwrap();
    assert_eq!(
        env.record(0).unwrap_err(),
        VectorError::NotRecorded { index: 0 }
    );
    assert_eq!(
        env.replay_log(4).unwrap_err(),
        VectorError::Index { index: 4, games: 4 }
    );
    env.set_recording(true);
    // Recording starts with the next episodes: the running ones stay unrecorded.
    assert_eq!(
        env.record(1).unwrap_err(),
        VectorError::NotRecorded { index: 1 }
    );
    env.reset(1, buf.out()).unwrap();
    assert_eq!(
        env.record(1).unwrap_err(),
        VectorError::NotEnded { index: 1 }
    );
}
