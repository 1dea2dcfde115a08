//! The shipped descriptions, one registration line each.

crate::described_game!(
    /// Sig (Mzab): `games/sig-mzab.toml` (RULES-family.md §10).
    SigMzab, "sig-mzab.toml", "sig-mzab", "Sig (Mzab)", (2, 2), 20,
    ["columns", "track_ends", "max_throws"]
);
crate::described_game!(
    /// Sig (Tozeur): `games/sig-tozeur.toml` (RULES-family.md §11).
    SigTozeur, "sig-tozeur.toml", "sig-tozeur", "Sig (Tozeur)", (2, 2), 13,
    ["mzab_throws", "track_ends", "max_throws"]
);
crate::described_game!(
    /// Kioz: `games/kioz.toml` (RULES-family.md §12).
    Kioz, "kioz.toml", "kioz", "Kioz", (2, 2), 22,
    ["max_throws"]
);
crate::described_game!(
    /// Tab: `games/tab.toml` (RULES-family.md §13).
    Tab, "tab.toml", "tab", "Tab", (2, 2), 30,
    ["columns", "starting_tab_only_starts", "max_throws"]
);
crate::described_game!(
    /// Sijat El Taba: `games/sijat-el-taba.toml` (RULES-family.md §14).
    SijatElTaba, "sijat-el-taba.toml", "sijat-el-taba", "Sijat El Taba", (2, 2), 48,
    ["rows", "supplement_uses_all", "max_throws"]
);
crate::described_game!(
    /// Es-Sîg: `games/es-sig.toml` (RULES-family.md §15).
    EsSig, "es-sig.toml", "es-sig", "Es-Sîg", (2, 8), 2,
    ["exact_final", "extra_throws", "ghula_from_start", "max_throws"]
);
crate::described_game!(
    /// Sig (Western Sahara): `games/sig-western-sahara.toml` (RULES-family.md §16).
    SigWesternSahara, "sig-western-sahara.toml", "sig-western-sahara", "Sig (Western Sahara)", (2, 4), 125,
    ["columns", "max_throws"]
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Each newtype's constants agree with its file: name, title, seats and options.
    macro_rules! agree {
        ($($ty:ident),*) => {$(
            {
                let base = $ty::base();
                let d = base.description();
                assert_eq!(d.name, <$ty as Game>::NAME, "{}", $ty::FILE);
                assert_eq!(d.title, <$ty as Game>::TITLE, "{}", $ty::FILE);
                assert_eq!((d.seats.min, d.seats.max), <$ty as Game>::SEATS, "{}", $ty::FILE);
                let mut names: Vec<&str> = d.options.keys().map(String::as_str).collect();
                names.push("max_throws");
                assert_eq!(names, <$ty as Game>::OPTIONS, "{}", $ty::FILE);
                assert!(<$ty as Game>::MAX_ACTIONS <= super::super::Described::BUFFER);
            }
        )*};
    }

    #[test]
    fn each_registration_agrees_with_its_file() {
        agree!(
            SigMzab,
            SigTozeur,
            Kioz,
            Tab,
            SijatElTaba,
            EsSig,
            SigWesternSahara
        );
    }
}
