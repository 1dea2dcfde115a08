//! The generic conformance suite on every game, under every rule option and allowed seat
//! count (`stickdice::testing`).

use stickdice::{testing, Game, Issiren, SigElOued, SigWaDuqqan};

fn all<G: Game>(games_per_configuration: usize) {
    let configurations = testing::configurations::<G>();
    assert!(!configurations.is_empty());
    for (i, game) in configurations.iter().enumerate() {
        testing::conformance(game, games_per_configuration, 1000 + i as u64);
    }
}

#[test]
fn sig_wa_duqqan_conforms() {
    all::<SigWaDuqqan>(20);
}

#[test]
fn sig_el_oued_conforms() {
    all::<SigElOued>(20);
}

#[test]
fn issiren_conforms() {
    all::<Issiren>(20);
}
