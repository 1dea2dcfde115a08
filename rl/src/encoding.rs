//! The integer encodings every learner sees (the batched environment, Python, OpenSpiel,
//! PettingZoo): actions as ints in
//! `0..num_actions()`, chance outcomes as ints, and the observation tensor of each game.
//! This is the one place they are defined; the Python modules only pass the ints through.
//!
//! * **Chance outcomes:** the number of marked sides up (`0..=sticks`), i.e. the core's
//!   [`stickdice::Throw`]; its probability is the exact `C(n, k) / 2^n` of the sticks.
//! * **Actions:** per game, from the core's action type:
//!   * Issiren: `Move(square)` is the square's index `row * 12 + col` (0..=47: `a1` = 0,
//!     `l1` = 11, `a2` = 12, …, `l4` = 47), `Pass` is 48; 49 distinct actions.
//!   * Sig (El Oued): `use` = 0, `decline` = 1; 2 distinct actions.
//!   * Sig wa Duqqan: no decisions at all; 0 distinct actions.
//!   * Sig wa Duqqan (Houmt Taourit): no decisions at all; 0 distinct actions.
//!   * Siryu (Race): `father` = 0, `angel` = 1, `mother` = 2, `pass` = 3; 4 distinct actions.
//!   * Siryu (War): as Issiren, `Move(square)` is the square's index `row * 12 + col`
//!     (0..=47: `a1` = 0, `l1` = 11, `a2` = 12, …, `l4` = 47), `Pass` is 48; 49 distinct
//!     actions.
//!   * Sig (El Oued Capture): `Move(square)` is the square's index `row * 6 + col` (0..=17:
//!     `a1` = 0, `f1` = 5, `a2` = 6, …, `f3` = 17); `SQUARE/1` is 18 + index, `SQUARE/5`
//!     36 + index (under `five_polished_moves_five`); `free_all` is 54, `pass` 55; 56
//!     distinct actions.
//!   * The described games (`src/described/games/*.toml`: Sig (Mzab), Kioz, Tab, …):
//!     derived from the description alone, the same way for every one ([`crate::described`]:
//!     squares by index, a section of codes per kind of action the description can
//!     produce, `pass` last); each game's layout is listed in the book's chapter
//!     `docs/python-described-codes.md`, generated from [`crate::described::DescribedCodes`].
//! * **Observation tensors:** flat `float32` vectors, the same for every player (the games
//!   have perfect information); see [`Encoded::observation_doc`] for each layout.
//!
//! The games of the list with an encoding implement [`Encoded`] (the hand-written ones
//! below, the described ones from their description); the table
//! [`for_each_encoding!`](crate::for_each_encoding) names them and the games without one,
//! and [`encodings`] lists them. The Python package answers for the others with its
//! `MissingCapability`.

use stickdice::games::{
    houmt_taourit, issiren, sig_el_oued, sig_el_oued_capture, sig_wa_duqqan, siryu_race, siryu_war,
    HoumtTaourit, SiryuRace,
};
use stickdice::{Game, Issiren, SigElOued, SigElOuedCapture, SigWaDuqqan, SiryuWar};

/// **The table of encodings**: calls `callback!` with every game of the list, as
/// `encoded: [types], missing: [types],` — the games with an [`Encoded`] (the `encode` part
/// of what a game offers) and those without. Every shipped description has one (from
/// [`stickdice::for_each_described_game!`], so it names none of them); the description
/// loaded at run time has none. A game in neither does not compile where code is generated
/// per game of the list (the batched environment, the Python package).
#[macro_export]
macro_rules! for_each_encoding {
    ($callback:ident) => {
        ::stickdice::for_each_described_game! { [$crate::__encoding_table], $callback }
    };
}

/// The table of encodings with the shipped descriptions (see
/// [`for_each_encoding!`](crate::for_each_encoding)).
#[doc(hidden)]
#[macro_export]
macro_rules! __encoding_table {
    ([$callback:ident] $($variant:ident : $described:path,)*) => {
        $callback! {
            encoded: [
                ::stickdice::SigWaDuqqan,
                ::stickdice::SigElOued,
                ::stickdice::Issiren,
                ::stickdice::SigElOuedCapture,
                ::stickdice::games::SiryuRace,
                ::stickdice::games::HoumtTaourit,
                ::stickdice::SiryuWar,
                $($described,)*
            ],
            missing: [
                ::stickdice::described::games::FileGame,
            ],
        }
    };
}

/// The games of the list with action codes and observation tensors (the `encode` part of
/// what a game offers), in the list's order.
pub fn encodings() -> Vec<stickdice::GameKind> {
    use crate::vector::Vectorize;
    macro_rules! each {
        ([] $($variant:ident : $ty:path,)*) => {
            vec![$((stickdice::GameKind::$variant, <$ty as Vectorize>::ENCODED)),*]
        };
    }
    stickdice::for_each_game!(each)
        .into_iter()
        .filter_map(|(kind, has)| has.then_some(kind))
        .collect()
}

/// A game with its action codes and observation tensors (the `encode` part of what a game
/// offers).
///
/// Encoding needs the rules only ([`Game`]); the batched environment, whose opponents
/// may be agents that evaluate (`greedy`), asks for [`stickdice_agents::Evaluate`] too.
pub trait Encoded: Game {
    /// The number of distinct action codes (`0..num_actions()`).
    fn num_actions() -> usize;
    /// The observation tensor's layout, for people.
    fn observation_doc() -> &'static str;

    /// The code of an action.
    fn encode(action: Self::Action) -> u32;
    /// The action with this code, if any.
    fn decode(code: u32) -> Option<Self::Action>;
    /// The length of the observation tensor for this game's seat count.
    fn observation_len(&self) -> usize;
    /// Writes the observation of `state` into `out` (`observation_len` long, zeroed).
    fn observe(&self, state: &Self::State, out: &mut [f32]);

    /// Calls `f` with the code of each legal action of `state`, in the order of
    /// [`Game::legal_actions`].
    #[inline]
    fn for_each_legal_code(&self, state: &Self::State, mut f: impl FnMut(u32))
    where
        Self: Sized,
    {
        let mut legal = stickdice::ActionList::new();
        self.legal_actions(state, &mut legal);
        for &a in &legal {
            f(Self::encode(a));
        }
    }

    /// The most decisions a game can hold (OpenSpiel's `max_game_length`): by default one
    /// per throw up to the cap.
    fn max_decisions(&self) -> usize {
        self.max_throws() as usize
    }
}

fn throw_fraction(throws: u32, max: u32) -> f32 {
    (f64::from(throws) / f64::from(max.max(1))) as f32
}

const ISSIREN_SQUARES: usize = 48;

impl Encoded for Issiren {
    fn num_actions() -> usize {
        ISSIREN_SQUARES + 1
    }
    fn observation_doc() -> &'static str {
        "154 floats: [0, 48) 1 where P1 has a piece on square \
        index row*12+col (a1 = 0, l4 = 47); [48, 96) the same for P2; [96, 144) 1 where the \
        piece on the square is unmoved; [144, 151) one-hot green sides up of the throw awaiting \
        its move (all 0 when a throw is due or the game is over); [151, 153) one-hot seat to \
        throw or move; [153] throws made / max_throws"
    }

    fn encode(action: issiren::Action) -> u32 {
        match action {
            issiren::Action::Move(sq) => u32::from(sq.index()),
            issiren::Action::Pass => ISSIREN_SQUARES as u32,
        }
    }

    fn decode(code: u32) -> Option<issiren::Action> {
        if code == ISSIREN_SQUARES as u32 {
            Some(issiren::Action::Pass)
        } else {
            u8::try_from(code)
                .ok()
                .and_then(issiren::Square::from_index)
                .map(issiren::Action::Move)
        }
    }

    fn observation_len(&self) -> usize {
        3 * ISSIREN_SQUARES + 7 + 2 + 1
    }

    fn observe(&self, s: &issiren::State, out: &mut [f32]) {
        for seat in 0..2 {
            for p in s.pieces_of(seat) {
                if let Some(sq) = issiren::circuit_square(seat, p.pos) {
                    let i = sq.index() as usize;
                    out[seat * ISSIREN_SQUARES + i] = 1.0;
                    if p.unmoved {
                        out[2 * ISSIREN_SQUARES + i] = 1.0;
                    }
                }
            }
        }
        let base = 3 * ISSIREN_SQUARES;
        if let Some(t) = s.pending() {
            out[base + (t.marked() as usize).min(6)] = 1.0;
        }
        if !self.is_over(s) {
            out[base + 7 + (s.turn() as usize).min(1)] = 1.0;
        }
        out[base + 9] = throw_fraction(s.throws(), self.max_throws());
    }
}

impl Encoded for SigElOued {
    /// Two leftover choices per seat at most.
    fn max_decisions(&self) -> usize {
        2 * self.seats()
    }

    fn num_actions() -> usize {
        2
    }
    fn observation_doc() -> &'static str {
        "5n + 9 floats for n seats: [0, 3n) each seat's \
        father, djinn and mother square idx / 30 (seat-major; 0 the start, 1 Mecca); \
        [3n, 4n) 1 for each seat that has finished; [4n, 5n) one-hot seat to play (all 0 at \
        the end); [5n, 5n+5) one-hot what is pending (first throw, sig bonus, six bonus, \
        twelve bonus, leftover choice); [5n+5] twelve-bonus throws still due / 3; [5n+6] \
        their sum so far / 18; [5n+7] the leftover at Mecca in half-points / 60 (a sig of twelve with three sixes: 30 points); [5n+8] \
        throws made / max_throws"
    }

    fn encode(action: sig_el_oued::Action) -> u32 {
        match action {
            sig_el_oued::Action::Use => 0,
            sig_el_oued::Action::Decline => 1,
        }
    }

    fn decode(code: u32) -> Option<sig_el_oued::Action> {
        match code {
            0 => Some(sig_el_oued::Action::Use),
            1 => Some(sig_el_oued::Action::Decline),
            _ => None,
        }
    }

    fn observation_len(&self) -> usize {
        5 * self.seats() + 9
    }

    fn observe(&self, s: &sig_el_oued::State, out: &mut [f32]) {
        use sig_el_oued::Pending;
        let n = self.seats();
        for seat in 0..n {
            for p in 0..sig_el_oued::PIECES {
                out[seat * 3 + p] = f32::from(s.pieces()[seat][p]) / f32::from(sig_el_oued::MECCA);
            }
            if s.finish_place()[seat] > 0 {
                out[3 * n + seat] = 1.0;
            }
        }
        if !self.is_over(s) {
            out[4 * n + (s.turn() as usize).min(n - 1)] = 1.0;
        }
        let base = 5 * n;
        let kind = match s.pending() {
            Pending::FirstThrow => 0,
            Pending::SigBonus => 1,
            Pending::SixBonus => 2,
            Pending::TwelveBonus { left, sum } => {
                out[base + 5] = f32::from(left) / 3.0;
                out[base + 6] = f32::from(sum) / 18.0;
                3
            }
            Pending::Leftover { rest } => {
                out[base + 7] = (f32::from(rest) / 60.0).min(1.0);
                4
            }
        };
        out[base + kind] = 1.0;
        out[base + 8] = throw_fraction(s.throws(), self.max_throws());
    }
}

const SWD_CELLS: usize = sig_wa_duqqan::TRACK_LEN as usize + 1;

impl Encoded for SigWaDuqqan {
    /// No decisions at all.
    fn max_decisions(&self) -> usize {
        0
    }

    fn num_actions() -> usize {
        0
    }
    fn observation_doc() -> &'static str {
        "23n + 17 floats for n seats: [0, 21n) per seat \
        (seat-major) a one-hot of 21 cells: the piece's track idx 0..=19 (19 the Ka'aba), or \
        cell 20 when buried; [21n, 22n) each seat's sig count on the waiting square / 7; \
        [22n, 22n+16) one-hot Ghoula: cell 0 off the board, cell 1+i on idx i (0..=14); \
        [22n+16, 23n+16) one-hot seat to throw (all 0 at the end); [23n+16] throws made / \
        max_throws"
    }

    fn encode(action: sig_wa_duqqan::Action) -> u32 {
        match action {}
    }

    fn decode(_code: u32) -> Option<sig_wa_duqqan::Action> {
        None
    }

    fn observation_len(&self) -> usize {
        23 * self.seats() + 17
    }

    fn observe(&self, s: &sig_wa_duqqan::State, out: &mut [f32]) {
        let n = self.seats();
        for seat in 0..n {
            let cell = match s.pieces()[seat].square() {
                Some(i) => (i as usize).min(SWD_CELLS - 2),
                None => SWD_CELLS - 1,
            };
            out[seat * SWD_CELLS + cell] = 1.0;
            out[SWD_CELLS * n + seat] =
                f32::from(s.sigs()[seat]) / f32::from(sig_wa_duqqan::SIGS_TO_LEAVE);
        }
        let base = 22 * n;
        let ghoula = s.ghoula().map_or(0, |g| (g as usize + 1).min(15));
        out[base + ghoula] = 1.0;
        if !self.is_over(s) {
            out[base + 16 + (s.turn() as usize).min(n - 1)] = 1.0;
        }
        out[base + 16 + n] = throw_fraction(s.throws(), self.max_throws());
    }
}

/// Houmt Taourit's cells per seat: the track idx 0..=85, then buried.
const HT_CELLS: usize = houmt_taourit::TRACK_LEN as usize + 1;
/// Houmt Taourit's Ghoula cells: idx 0..=80.
const HT_GHOULA: usize = houmt_taourit::WAITING_SQUARE as usize + 1;

impl Encoded for HoumtTaourit {
    /// No decisions at all.
    fn max_decisions(&self) -> usize {
        0
    }

    fn num_actions() -> usize {
        0
    }
    fn observation_doc() -> &'static str {
        "89n + 83 floats for n seats: [0, 87n) per seat \
        (seat-major) a one-hot of 87 cells: the piece's track idx 0..=85 (85 the centre), or \
        cell 86 when buried; [87n, 88n) each seat's sig count on the waiting square / 7; \
        [88n, 88n+81) one-hot Ghoula idx 0..=80; [88n+81] 1 once the Ghoula has made its \
        first move; [88n+82, 89n+82) one-hot seat to throw (all 0 at the end); [89n+82] \
        throws made / max_throws"
    }

    fn encode(action: houmt_taourit::Action) -> u32 {
        match action {}
    }

    fn decode(_code: u32) -> Option<houmt_taourit::Action> {
        None
    }

    fn observation_len(&self) -> usize {
        89 * self.seats() + 83
    }

    fn observe(&self, s: &houmt_taourit::State, out: &mut [f32]) {
        let n = self.seats();
        for seat in 0..n {
            let cell = match s.piece(seat).square() {
                Some(i) => (i as usize).min(HT_CELLS - 2),
                None => HT_CELLS - 1,
            };
            out[seat * HT_CELLS + cell] = 1.0;
            out[HT_CELLS * n + seat] =
                f32::from(s.sigs(seat)) / f32::from(houmt_taourit::SIGS_TO_LEAVE);
        }
        let base = 88 * n;
        out[base + (s.ghoula() as usize).min(HT_GHOULA - 1)] = 1.0;
        if s.ghoula_has_moved() {
            out[base + HT_GHOULA] = 1.0;
        }
        if !self.is_over(s) {
            out[base + HT_GHOULA + 1 + s.turn().min(n - 1)] = 1.0;
        }
        out[base + HT_GHOULA + 1 + n] = throw_fraction(s.throws(), self.max_throws());
    }
}

/// Siryu (Race)'s cells per piece: the track idx 0..=30.
const SR_CELLS: usize = siryu_race::TRACK_LEN;
/// Siryu (Race)'s floats per seat: three one-hot pieces, three sir counts, finished.
const SR_SEAT: usize = 3 * SR_CELLS + 3 + 1;

impl Encoded for SiryuRace {
    fn num_actions() -> usize {
        4
    }
    fn observation_doc() -> &'static str {
        "98n + 9 floats for n seats: [0, 97n) per seat \
        (seat-major) 97 floats: the father's, the angel's and the mother's track idx 0..=30 \
        one-hot (31 cells each, in that order), their sir counts / 3, and 1 once the seat has \
        finished; [97n, 98n) one-hot seat to throw or decide (all 0 at the end); [98n, 98n+7) \
        one-hot white sides up of the throw awaiting its use (all 0 when a throw is due or the \
        game is over); [98n+7] throws still owed (at most 8) / 8; [98n+8] throws made / \
        max_throws"
    }

    fn encode(action: siryu_race::Action) -> u32 {
        match action.piece() {
            Some(k) => k as u32,
            None => 3,
        }
    }

    fn decode(code: u32) -> Option<siryu_race::Action> {
        match code {
            0..=2 => siryu_race::Action::of_piece(code as usize),
            3 => Some(siryu_race::Action::Pass),
            _ => None,
        }
    }

    fn observation_len(&self) -> usize {
        98 * self.seats() + 9
    }

    fn observe(&self, s: &siryu_race::State, out: &mut [f32]) {
        let n = self.seats();
        for seat in 0..n {
            let base = seat * SR_SEAT;
            let pieces = s.pieces_of(seat);
            let sirs = s.sirs_of(seat);
            for k in 0..3 {
                out[base + k * SR_CELLS + (pieces[k] as usize).min(SR_CELLS - 1)] = 1.0;
                out[base + 3 * SR_CELLS + k] =
                    f32::from(sirs[k]) / f32::from(siryu_race::SIRS_PER_STEP);
            }
            if s.place(seat) > 0 {
                out[base + 3 * SR_CELLS + 3] = 1.0;
            }
        }
        let base = SR_SEAT * n;
        if !self.is_over(s) {
            out[base + s.turn().min(n - 1)] = 1.0;
        }
        if let Some(t) = s.pending() {
            out[base + n + (t.marked() as usize).min(6)] = 1.0;
        }
        out[base + n + 7] = s.owed().min(8) as f32 / 8.0;
        out[base + n + 8] = throw_fraction(s.throws(), self.max_throws());
    }
}

const SIRYU_WAR_SQUARES: usize = 48;

impl Encoded for SiryuWar {
    fn num_actions() -> usize {
        SIRYU_WAR_SQUARES + 1
    }
    fn observation_doc() -> &'static str {
        "154 floats: [0, 48) 1 where P1 (white) has a piece \
        on square index row*12+col (a1 = 0, l4 = 47); [48, 96) the same for P2 (black); \
        [96, 144) 1 where the piece on the square is locked; [144, 151) one-hot white sides \
        up of the throw awaiting its move (all 0 when a throw is due or the game is over); \
        [151, 153) one-hot seat to throw or move; [153] throws made / max_throws"
    }

    fn encode(action: siryu_war::Action) -> u32 {
        match action {
            siryu_war::Action::Move(sq) => u32::from(sq.index()),
            siryu_war::Action::Pass => SIRYU_WAR_SQUARES as u32,
        }
    }

    fn decode(code: u32) -> Option<siryu_war::Action> {
        if code == SIRYU_WAR_SQUARES as u32 {
            Some(siryu_war::Action::Pass)
        } else {
            u8::try_from(code)
                .ok()
                .and_then(siryu_war::Square::from_index)
                .map(siryu_war::Action::Move)
        }
    }

    fn observation_len(&self) -> usize {
        3 * SIRYU_WAR_SQUARES + 7 + 2 + 1
    }

    fn observe(&self, s: &siryu_war::State, out: &mut [f32]) {
        for seat in 0..2 {
            for p in s.pieces(seat) {
                let i = p.square.index() as usize;
                out[seat * SIRYU_WAR_SQUARES + i] = 1.0;
                if p.locked {
                    out[2 * SIRYU_WAR_SQUARES + i] = 1.0;
                }
            }
        }
        let base = 3 * SIRYU_WAR_SQUARES;
        if let Some(t) = s.pending() {
            out[base + (t.marked() as usize).min(6)] = 1.0;
        }
        if !self.is_over(s) {
            out[base + 7 + s.turn().min(1)] = 1.0;
        }
        out[base + 9] = throw_fraction(s.throws(), self.max_throws());
    }
}

const CAPTURE_SQUARES: usize = 18;

impl Encoded for SigElOuedCapture {
    fn num_actions() -> usize {
        3 * CAPTURE_SQUARES + 2
    }
    fn observation_doc() -> &'static str {
        "88 floats: [0, 18) 1 where P1 has a piece on square \
        index row*6+col (a1 = 0, f3 = 17); [18, 36) the same for P2; [36, 54) 1 where the \
        piece on the square is unmoved; [54, 72) 1 where the piece on the square crosses the \
        central row the second time in its lap (circuit positions 18-23); [72, 77) one-hot \
        what is pending (lead throw, sig of six's bonus throw, sig of twelve's bonus throws, \
        a regular sig's decision, another move value's decision); [77] the move value awaiting \
        its action / 30 (1 for a regular sig); [78] 1 if it is a sig value; [79] 1 if it is \
        five polished sides (usable as a plain 5 under five_polished_moves_five); [80] sig of \
        twelve's bonus throws still due / 3; [81] their sum so far / 18; [82, 84) one-hot seat \
        to throw or move (all 0 at the end); [84, 86) each seat's first turn is over; [86] the \
        turn goes on from a regular sig; [87] throws made / max_throws"
    }

    fn encode(action: sig_el_oued_capture::Action) -> u32 {
        use sig_el_oued_capture::Action;
        let n = CAPTURE_SQUARES as u32;
        match action {
            Action::Move(sq) => u32::from(sq.index()),
            Action::MoveSteps(sq, 5) => 2 * n + u32::from(sq.index()),
            Action::MoveSteps(sq, _) => n + u32::from(sq.index()),
            Action::FreeAll => 3 * n,
            Action::Pass => 3 * n + 1,
        }
    }

    fn decode(code: u32) -> Option<sig_el_oued_capture::Action> {
        use sig_el_oued_capture::{Action, Square};
        let n = CAPTURE_SQUARES as u32;
        let square = |i: u32| u8::try_from(i).ok().and_then(Square::from_index);
        match code / n {
            0 => square(code).map(Action::Move),
            1 => square(code - n).map(|sq| Action::MoveSteps(sq, 1)),
            2 => square(code - 2 * n).map(|sq| Action::MoveSteps(sq, 5)),
            _ if code == 3 * n => Some(Action::FreeAll),
            _ if code == 3 * n + 1 => Some(Action::Pass),
            _ => None,
        }
    }

    fn observation_len(&self) -> usize {
        88
    }

    fn observe(&self, s: &sig_el_oued_capture::State, out: &mut [f32]) {
        use sig_el_oued_capture::{circuit_square, Pending};
        for seat in 0..2 {
            for p in s.pieces_of(seat) {
                if let Some(sq) = circuit_square(seat, p.pos) {
                    let i = sq.index() as usize;
                    out[seat * CAPTURE_SQUARES + i] = 1.0;
                    if p.unmoved {
                        out[2 * CAPTURE_SQUARES + i] = 1.0;
                    }
                    if p.pos >= 18 {
                        out[3 * CAPTURE_SQUARES + i] = 1.0;
                    }
                }
            }
        }
        let base = 4 * CAPTURE_SQUARES;
        let kind = match s.pending() {
            Pending::Lead => 0,
            Pending::SixBonus => 1,
            Pending::TwelveBonus { left, sum } => {
                out[base + 8] = f32::from(left) / 3.0;
                out[base + 9] = f32::from(sum) / 18.0;
                2
            }
            Pending::Sig { polished } => {
                out[base + 5] = 1.0 / 30.0;
                out[base + 6] = 1.0;
                out[base + 7] = f32::from(u8::from(polished == 5));
                3
            }
            Pending::Value { steps, sig } => {
                out[base + 5] = (f32::from(steps) / 30.0).min(1.0);
                out[base + 6] = f32::from(u8::from(sig));
                4
            }
        };
        out[base + kind] = 1.0;
        if !self.is_over(s) {
            out[base + 10 + s.turn().min(1)] = 1.0;
        }
        for seat in 0..2 {
            out[base + 12 + seat] = f32::from(u8::from(s.first_turn_over(seat)));
        }
        out[base + 14] = f32::from(u8::from(s.turn_goes_on()));
        out[base + 15] = throw_fraction(s.throws(), self.max_throws());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::ActionList;

    fn round_trip<G: Encoded>(game: &G) {
        let mut state = game.initial_state();
        let mut legal = ActionList::new();
        let mut rng = <stickdice::Rng as rand::SeedableRng>::seed_from_u64(3);
        let mut obs = vec![0.0; game.observation_len()];
        for _ in 0..2000 {
            obs.iter_mut().for_each(|x| *x = 0.0);
            game.observe(&state, &mut obs);
            assert!(obs.iter().all(|x| (0.0..=1.0).contains(x)));
            match game.node(&state) {
                stickdice::Node::End => break,
                stickdice::Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut state, t);
                }
                stickdice::Node::Decide(_) => {
                    game.legal_actions(&state, &mut legal);
                    for &a in &legal {
                        let code = G::encode(a);
                        assert!((code as usize) < G::num_actions());
                        assert_eq!(G::decode(code), Some(a));
                    }
                    let a = legal[rand::RngExt::random_range(&mut rng, 0..legal.len())];
                    game.apply_action_unchecked(&mut state, a);
                }
            }
        }
        assert_eq!(G::decode(G::num_actions() as u32), None);
    }

    #[test]
    fn codes_round_trip_and_observations_stay_in_range() {
        round_trip(&Issiren::with_seats(2).unwrap());
        round_trip(&SigElOued::with_seats(3).unwrap());
        round_trip(&SigWaDuqqan::with_seats(4).unwrap());
        round_trip(&HoumtTaourit::with_seats(3).unwrap());
        round_trip(&SiryuRace::with_seats(3).unwrap());
        round_trip(&SiryuWar::with_seats(2).unwrap());
        round_trip(&SigElOuedCapture::with_seats(2).unwrap());
    }
}
