//! Golden playthroughs: one seeded game of each game, played by random agents with the
//! seeded duplicate dice, recorded event by event with the full state after each, and
//! compared in full with the transcript checked in under `tests/golden/`.
//!
//! A deliberate rules change re-records them: `STICKDICE_BLESS=1 cargo test --test integration golden::`,
//! then read the diff before committing it.

use std::fmt::Write as _;
use std::path::PathBuf;

use stickdice::play::{play_game, Event, SeededDice};
use stickdice::{Agent, AnyGame, Present};

fn transcript<G: Present>(game: &G, seed: u64) -> String {
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..game.seats())
        .map(|s| {
            Box::new(stickdice_agents::RandomAgent::new(stickdice::seed::derive(
                seed,
                &[1, s as u64],
            ))) as Box<dyn Agent<G>>
        })
        .collect();
    let mut out = String::new();
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    writeln!(
        out,
        "# {} seats={} seed={seed} {}",
        G::NAME,
        game.seats(),
        options.join(" ")
    )
    .unwrap();
    let mut state = game.initial_state();
    writeln!(out, "start {}", stickdice::save_state::<G>(&state)).unwrap();
    let mut dice = SeededDice::new(seed);
    let sticks = game.sticks();
    let ranking = play_game(
        game,
        &mut state,
        &mut agents,
        |seat, _| dice.throw(seat, sticks),
        |event, before, after| {
            match event {
                Event::Throw(seat, t) => writeln!(
                    out,
                    "P{} throws {t}: {}",
                    seat + 1,
                    game.describe_throw(before, t)
                )
                .unwrap(),
                Event::Action(seat, a) => writeln!(out, "P{} plays {a}", seat + 1).unwrap(),
            }
            writeln!(out, "  {}", stickdice::save_state::<G>(after)).unwrap();
        },
    )
    .expect("random agents do not fail");
    writeln!(
        out,
        "ranking {ranking} after {} throws",
        game.throws_made(&state)
    )
    .unwrap();
    out
}

fn check(name: &str, players: usize, options: &[&str], seed: u64) {
    let any = AnyGame::new(name, Some(players), options).unwrap();
    let got = stickdice::with_game!(&any, |g| transcript(g, seed));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}-{players}p-seed{seed}.txt"));
    if std::env::var_os("STICKDICE_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (record it with STICKDICE_BLESS=1)", path.display()));
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{} differs from the recorded playthrough at line {}:\n  recorded: {}\n  now:      {}",
            path.display(),
            line + 1,
            want.lines().nth(line).unwrap_or("<end>"),
            got.lines().nth(line).unwrap_or("<end>")
        );
    }
}

#[test]
fn sig_wa_duqqan_golden_playthrough() {
    check("sig-wa-duqqan", 3, &[], 2026);
}

#[test]
fn sig_el_oued_golden_playthrough() {
    check("sig-el-oued", 2, &[], 2026);
}

#[test]
fn issiren_golden_playthrough() {
    check("issiren", 2, &[], 2026);
}

#[test]
fn houmt_taourit_golden_playthrough() {
    check("sig-wa-duqqan-houmt-taourit", 3, &[], 2026);
}

#[test]
fn siryu_race_golden_playthrough() {
    check("siryu-race", 2, &[], 2026);
}

#[test]
fn siryu_war_golden_playthrough() {
    check("siryu-war", 2, &[], 2026);
}

#[test]
fn sig_el_oued_capture_golden_playthrough() {
    check("sig-el-oued-capture", 2, &[], 2026);
}

#[test]
fn sig_el_oued_capture_golden_playthrough_with_both_options() {
    check(
        "sig-el-oued-capture",
        2,
        &[
            "sig_of_twelve_first_turn_only=true",
            "five_polished_moves_five=true",
        ],
        2027,
    );
}

#[test]
fn sig_mzab_golden_playthrough() {
    check("sig-mzab", 2, &["columns=5"], 2026);
}

#[test]
fn sig_tozeur_golden_playthrough() {
    check("sig-tozeur", 2, &["max_throws=80"], 2026);
}

#[test]
fn kioz_golden_playthrough() {
    check("kioz", 2, &["max_throws=80"], 2026);
}

#[test]
fn tab_golden_playthrough() {
    check("tab", 2, &[], 2026);
}

#[test]
fn sijat_el_taba_golden_playthrough() {
    check("sijat-el-taba", 2, &["rows=4"], 2026);
}

#[test]
fn es_sig_golden_playthrough() {
    check("es-sig", 3, &[], 2026);
}

#[test]
fn sig_western_sahara_golden_playthrough() {
    check("sig-western-sahara", 4, &["max_throws=80"], 2026);
}
