//! The generic conformance suite on every game of the list (`stickdice::for_each_game!`),
//! under every rule option and allowed seat count (`stickdice::testing`): a game added to
//! the list is tested here with no further line.

use stickdice::testing;

fn all<G: stickdice::Playouts>(games_per_configuration: usize) {
    // The list's `game-file` slot plays the selected description: Sig (Tozeur)'s text here.
    stickdice::described::file::select(
        stickdice::described::file::parse(
            "sig-tozeur.toml",
            stickdice::described::games::SigTozeur::TEXT,
        )
        .unwrap(),
    );
    let configurations = testing::configurations::<G>();
    assert!(!configurations.is_empty());
    for (i, game) in configurations.iter().enumerate() {
        testing::conformance(game, games_per_configuration, 1000 + i as u64);
    }
}

/// One test per game of the list, named after its variant.
macro_rules! conformance_tests {
    ([] $($variant:ident : $ty:path,)*) => {
        $(
            #[test]
            #[allow(non_snake_case)]
            fn $variant() {
                all::<$ty>(20);
            }
        )*
    };
}
stickdice::for_each_game!(conformance_tests);
