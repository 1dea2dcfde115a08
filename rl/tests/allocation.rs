//! The batched environment's steps allocate nothing (self-play and against `random`
//! opponents between episode starts; on the calling thread, where the counting allocator
//! counts), the opt-in legal codes included.

use stickdice::AnyGame;
use stickdice_rl::{Buffers, VectorEnv};
use stickdice_testkit::counting::allocations;

fn steps_allocate_nothing(game: &str, options: &[&str], seats: &[Option<&str>]) {
    let any = AnyGame::new(game, Some(seats.len()), options).unwrap();
    let mut env = VectorEnv::new(&any, 64, seats).unwrap();
    env.set_parallel(false);
    let mut buf = Buffers::new(&env).with_legal_codes(env.max_actions());
    env.reset(1, buf.out()).unwrap();
    let na = env.num_actions();
    let mut actions = vec![0i64; env.len()];
    let before = allocations();
    let mut restarts = 0;
    for step in 0..2000usize {
        for (i, a) in actions.iter_mut().enumerate() {
            let mask = &buf.masks[i * na..][..na];
            let legal = mask.iter().filter(|&&m| m).count();
            // The (step mod legal)-th legal code: varied, chosen without allocating.
            *a = match legal {
                0 => {
                    restarts += 1;
                    0
                }
                k => mask
                    .iter()
                    .enumerate()
                    .filter(|(_, &m)| m)
                    .nth(step % k)
                    .map_or(0, |(c, _)| c as i64),
            };
        }
        env.step(&actions, buf.out()).unwrap();
    }
    assert_eq!(allocations() - before, 0, "{game}");
    assert!(restarts > 10, "{game}: {restarts} restarts");
}

#[test]
fn batched_steps_allocate_nothing() {
    steps_allocate_nothing("issiren", &["max_throws=100"], &[None, None]);
    steps_allocate_nothing("siryu-war", &["max_throws=100"], &[None, None]);
    steps_allocate_nothing("siryu-race", &[], &[None, None, None]);
    steps_allocate_nothing("sig-el-oued", &[], &[None, None]);
    steps_allocate_nothing("sig-el-oued-capture", &["max_throws=100"], &[None, None]);
}
