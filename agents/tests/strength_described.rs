//! Strength on the described games (issue 38): over games with seats swapped and fixed
//! seeds, `greedy` on the generic evaluation derived from the description
//! (`stickdice_agents::described_eval`) beats `random` by a margin luck cannot explain.
//! Each test plays 200 games (100 starts, seats swapped) and asks for at least 150 wins;
//! equally strong agents would do that with probability below 1e-12 (checked in each).

use crate::common;

use common::{duel, tail};
use stickdice::{Kioz, SigTozeur, SijatElTaba, Tab};

/// The seed of the first pair's sticks (pair `p` throws with seed `DICE + p`).
const DICE: u64 = 3_800_000;

/// Greedy against random over 100 pairs of games: at least 150 wins of 200.
fn greedy_beats_random<G: stickdice_agents::Evaluate>() {
    let g = G::with_seats(2).unwrap();
    let (w, l, d) = duel(&g, "greedy", "random", 100, DICE);
    assert!(
        w >= 150,
        "{}: greedy {w} wins, {l} losses, {d} draws",
        G::NAME
    );
    assert!(tail(w + l, 150) < 1e-12);
}

/// Kioz. Measured: 200 of 200.
#[test]
fn greedy_beats_random_at_kioz() {
    greedy_beats_random::<Kioz>();
}

/// Sig (Tozeur). Measured: 191 of 200.
#[test]
fn greedy_beats_random_at_sig_tozeur() {
    greedy_beats_random::<SigTozeur>();
}

/// Sijat El Taba (ranked by captures; stored 1s). Measured: 188 of 200, 5 draws.
#[test]
fn greedy_beats_random_at_sijat_el_taba() {
    greedy_beats_random::<SijatElTaba>();
}

/// Tab (stacks, the gated fork). Measured: 180 of 200.
#[test]
fn greedy_beats_random_at_tab() {
    greedy_beats_random::<Tab>();
}
