//! Playing whole games: random playouts (allocation-free) and a driver for agents.

use rand::RngExt as _;

use crate::agent::{Agent, AgentError};
use core::fmt;

use crate::game::{ActionList, Game, IllegalMove, Node, Playouts, Ranking};
use crate::Throw;

/// Plays `state` to the end with uniformly random actions and random throws, and returns
/// the ranking. Allocates nothing. The throws and the actions' indices are drawn by one
/// [`RandomBits`], several to a 64-bit draw of `rng`, in [`Playouts::play_random_to_end`]
/// (by default the throws up to each decision made by [`Playouts::play_throws`], the
/// decisions by [`Playouts::play_random_action`]).
///
/// ```
/// use stickdice::{Game, Issiren, SeedableRng};
/// let game = Issiren::with_seats(2).unwrap();
/// let mut rng = stickdice::Rng::seed_from_u64(3);
/// let mut state = game.initial_state();
/// let ranking = stickdice::play::random_playout(&game, &mut state, &mut rng);
/// assert!(game.is_over(&state));
/// assert_eq!(Some(ranking), game.ranking(&state));
/// ```
pub fn random_playout<G: Playouts, R: rand::Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    rng: &mut R,
) -> Ranking {
    game.play_random_to_end(state, &mut RandomBits::new(), rng);
    game.ranking(state).expect("an ended game has a ranking")
}

/// [`Playouts::play_random_to_end`]'s default: [`Playouts::play_throws`] up to each decision,
/// [`Playouts::play_random_action`] for it, until the end.
#[inline]
pub(crate) fn random_to_end_step_by_step<G: Playouts, R: rand::Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    bits: &mut RandomBits,
    rng: &mut R,
) {
    let mut actions = ActionList::new();
    let sticks = game.sticks();
    let mut index_bits = *bits;
    loop {
        // The throws draw from a copy of the bits that nothing else borrows, so that it
        // can stay in registers through `play_throws`'s loop.
        let mut throw_bits = index_bits;
        let node = game.play_throws(state, || throw_bits.throw(rng, sticks));
        index_bits = throw_bits;
        match node {
            // `play_throws` stops at a decision or the end; a throw would only be thrown.
            Node::Throw(_) => {}
            Node::Decide(_) => {
                game.play_random_action(state, &mut actions, |len| index_bits.index(rng, len));
            }
            Node::End => break,
        }
    }
    *bits = index_bits;
}

/// Random bits drawn 64 at a time from a generator and spent a few at a time: a throw of
/// `n` sticks takes `n` bits (so one 64-bit draw makes 16 throws of four sticks or 10 of
/// six), a uniform index below a small length 16 bits. This is how [`random_playout`] and
/// the searches' playouts throw the sticks and choose random actions; a draw is never
/// split across two uses, and bits left over when a `RandomBits` is dropped are discarded.
///
/// Every result is exact: a throw has exactly the distribution of [`Sticks::outcomes`]
/// and an index is exactly uniform (Lemire's multiply-shift with rejection).
///
/// ```
/// use stickdice::play::RandomBits;
/// use stickdice::{SeedableRng, Sticks};
/// let mut rng = stickdice::Rng::seed_from_u64(1);
/// let mut bits = RandomBits::new();
/// let throws: Vec<u8> = (0..16).map(|_| bits.throw(&mut rng, Sticks::FOUR).marked()).collect();
/// assert!(throws.iter().all(|&t| t <= 4));
/// assert!(bits.index(&mut rng, 12) < 12);
/// ```
///
/// [`Sticks::outcomes`]: crate::Sticks::outcomes
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomBits {
    bits: u64,
    left: u32,
}

impl RandomBits {
    /// No bits yet: the first use draws.
    #[inline]
    pub const fn new() -> Self {
        RandomBits { bits: 0, left: 0 }
    }

    /// The next `n` (1 to 32) random bits, drawing 64 more when fewer than `n` are left
    /// (the rest of the old draw is dropped).
    #[inline(always)]
    pub(crate) fn take<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, n: u32) -> u64 {
        if self.left < n {
            self.bits = rng.next_u64();
            self.left = 64;
        }
        let out = self.bits & ((1u64 << n) - 1);
        self.bits >>= n;
        self.left -= n;
        out
    }

    /// [`RandomBits::take`] with the generator's draw out of line (the same bits): for a
    /// loop whose values fill the registers, where the draw inlined would keep the
    /// generator's state and constants in registers through the whole loop for a step it
    /// takes once in several uses.
    #[inline(always)]
    pub(crate) fn take_drawn_apart<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, n: u32) -> u64 {
        if self.left < n {
            self.bits = draw_apart(rng);
            self.left = 64;
        }
        let out = self.bits & ((1u64 << n) - 1);
        self.bits >>= n;
        self.left -= n;
        out
    }

    /// [`RandomBits::short_index`] with the generator's draw out of line, as
    /// [`RandomBits::take_drawn_apart`] (the same bits).
    #[inline(always)]
    pub(crate) fn short_index_drawn_apart<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        len: u32,
    ) -> usize {
        debug_assert!(len > 0 && len as usize <= MAX_INDEX_LEN);
        loop {
            if let Some(i) = index_from_16_bits(self.take_drawn_apart(rng, 16) as u32, len) {
                return i;
            }
        }
    }

    /// A throw of `sticks`: one bit per stick, a set bit a marked side up.
    #[inline(always)]
    pub fn throw<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, sticks: crate::Sticks) -> Throw {
        let n = u32::from(sticks.count());
        sticks.throw_from_bits(self.take(rng, n))
    }

    /// A uniformly random index below `len`: Lemire's multiply-shift of 16 random bits,
    /// with the rare biased low products (fewer than `65536 mod len` of 65536) drawn
    /// again, so the index is exactly uniform. Lengths above 2^16 take
    /// [`uniform_index`]'s 32-bit draw.
    ///
    /// # Panics
    /// If `len` is 0.
    #[inline(always)]
    pub fn index<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, len: usize) -> usize {
        if len > MAX_INDEX_LEN {
            return uniform_index(rng, len);
        }
        assert!(len > 0, "no index below 0");
        self.short_index(rng, len as u32)
    }

    /// [`RandomBits::index`] for a length known to be 1 to 2^16 (the bits taken are the
    /// same), without the test for longer lengths.
    #[inline(always)]
    pub(crate) fn short_index<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, len: u32) -> usize {
        debug_assert!(len > 0 && len as usize <= MAX_INDEX_LEN);
        loop {
            if let Some(i) = index_from_16_bits(self.take(rng, 16) as u32, len) {
                return i;
            }
        }
    }
}

/// The generator's next 64 bits, out of line ([`RandomBits::take_drawn_apart`]).
#[cold]
#[inline(never)]
fn draw_apart<R: rand::Rng + ?Sized>(rng: &mut R) -> u64 {
    rng.next_u64()
}

/// The longest length [`RandomBits::index`] draws 16 bits for.
const MAX_INDEX_LEN: usize = 1 << 16;

/// Lemire's multiply-shift: the index below `len` (1 to 2^16) given by the 16 random bits
/// `x`, or `None` for the `2^16 mod len` values whose low product would bias the result.
#[inline(always)]
fn index_from_16_bits(x: u32, len: u32) -> Option<usize> {
    let m = x * len;
    let low = m & 0xffff;
    // `low < len` first: the remainder is computed only in that rare case.
    if low < len && low < (1u32 << 16) % len {
        None
    } else {
        Some((m >> 16) as usize)
    }
}

/// A uniformly random index below `len`: exactly the value `rng.random_range(0..len)`
/// gives (rand 0.10's single-sample method: one 32-bit draw widened by multiplication, a
/// second draw only in the rare case its low half is in the biased zone), drawn the same
/// way so the random stream is unchanged, but inlined into the caller's loop.
///
/// # Panics
/// If `len` is 0, as `random_range` does.
#[inline(always)]
pub fn uniform_index<R: rand::Rng + ?Sized>(rng: &mut R, len: usize) -> usize {
    if len > u32::MAX as usize {
        return rng.random_range(0..len);
    }
    assert!(len > 0, "no index below 0");
    let range = len as u32;
    let wide = u64::from(rng.next_u32()) * u64::from(range);
    let (mut hi, lo) = ((wide >> 32) as u32, wide as u32);
    if lo > range.wrapping_neg() {
        let new_hi = ((u64::from(rng.next_u32()) * u64::from(range)) >> 32) as u32;
        hi += u32::from(lo.checked_add(new_hi).is_none());
    }
    hi as usize
}

/// One event of a played game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<A> {
    /// A seat threw the sticks.
    Throw(crate::Seat, Throw),
    /// A seat chose an action.
    Action(crate::Seat, A),
}

/// Why [`play_game`] stopped before the end.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// A seat's agent gave no action.
    Agent {
        /// The seat.
        seat: crate::Seat,
        /// What the agent said.
        error: AgentError,
    },
    /// A seat's agent answered with an action the rules do not allow.
    IllegalAction {
        /// The seat.
        seat: crate::Seat,
        /// What the rules said.
        error: IllegalMove,
    },
    /// The throw source gave a throw the sticks cannot show.
    IllegalThrow {
        /// The seat that threw.
        seat: crate::Seat,
        /// What the rules said.
        error: IllegalMove,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Agent { seat, error } => write!(f, "P{}'s agent failed: {error}", seat + 1),
            PlayError::IllegalAction { seat, error } => {
                write!(f, "P{}'s agent chose an illegal action: {error}", seat + 1)
            }
            PlayError::IllegalThrow { seat, error } => {
                write!(f, "P{}'s throw was refused: {error}", seat + 1)
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// Plays a game from `state` between `agents` (one per seat), throwing the sticks with
/// `throws(seat, state)`, and calls `on_event(event, before, after)` after every event
/// with the states before and after it.
///
/// # Errors
/// The first failure, with the seat it came from: an agent error, an illegal action or an
/// impossible throw. `state` is then the position where it happened.
///
/// ```
/// use stickdice::play::{play_game, Event, SeededDice};
/// use stickdice::{agent_for, ActionList, Agent, Game, Issiren};
///
/// let game = Issiren::with_seats(2).unwrap();
/// let first = |g: &Issiren, s: &_| {
///     let mut legal = ActionList::new();
///     g.legal_actions(s, &mut legal);
///     legal[0]
/// };
/// let mut agents: Vec<Box<dyn Agent<Issiren>>> = vec![
///     stickdice_agents::build_str("greedy", &game, 1).unwrap(),
///     Box::new(agent_for(&game, "first", first)),
/// ];
/// let mut dice = SeededDice::new(4);
/// let mut state = game.initial_state();
/// let mut actions = 0;
/// let ranking = play_game(
///     &game,
///     &mut state,
///     &mut agents,
///     |seat, _| dice.throw(seat, game.sticks()),
///     |event, _before, _after| actions += matches!(event, Event::Action(..)) as usize,
/// )
/// .unwrap();
/// assert!(actions > 0);
/// println!("{ranking} after {} throws", game.throws_made(&state));
/// ```
pub fn play_game<G: Game>(
    game: &G,
    state: &mut G::State,
    agents: &mut [Box<dyn Agent<G>>],
    mut throws: impl FnMut(crate::Seat, &G::State) -> Throw,
    mut on_event: impl FnMut(Event<G::Action>, &G::State, &G::State),
) -> Result<Ranking, PlayError> {
    for (seat, agent) in agents.iter_mut().enumerate() {
        agent.new_game(game, seat);
    }
    loop {
        match game.node(state) {
            Node::Throw(seat) => {
                let t = throws(seat, state);
                let before = *state;
                game.apply_throw(state, t)
                    .map_err(|error| PlayError::IllegalThrow { seat, error })?;
                for agent in agents.iter_mut() {
                    agent.observe_throw(game, &before, t);
                }
                on_event(Event::Throw(seat, t), &before, state);
            }
            Node::Decide(seat) => {
                let a = agents[seat]
                    .choose(game, state)
                    .map_err(|error| PlayError::Agent { seat, error })?;
                let before = *state;
                game.apply_action(state, a)
                    .map_err(|error| PlayError::IllegalAction { seat, error })?;
                for agent in agents.iter_mut() {
                    agent.observe_action(game, &before, a);
                }
                on_event(Event::Action(seat, a), &before, state);
            }
            Node::End => return Ok(game.ranking(state).expect("an ended game has a ranking")),
        }
    }
}

/// Duplicate dice: the throw for seat `s` at its `t`-th throw of a game depends only on
/// `(seed, s, t)`, so when the same seed is replayed with the seats rotated, each seat
/// position meets exactly the same throws whatever the agents do ("duplicate" play, as in
/// duplicate bridge). This is how the arena and `stickdice play` throw the sticks.
///
/// ```
/// use stickdice::play::SeededDice;
/// use stickdice::Sticks;
/// let (mut a, mut b) = (SeededDice::new(9), SeededDice::new(9));
/// // Seat 1's throws do not depend on how many throws seat 0 made.
/// a.throw(0, Sticks::SIX);
/// assert_eq!(a.throw(1, Sticks::SIX), b.throw(1, Sticks::SIX));
/// assert_eq!((a.thrown(0), b.thrown(0)), (1, 0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeededDice {
    seed: u64,
    thrown: [u32; crate::MAX_SEATS],
}

impl SeededDice {
    /// Dice for the game seeded `seed`.
    pub fn new(seed: u64) -> Self {
        SeededDice {
            seed,
            thrown: [0; crate::MAX_SEATS],
        }
    }

    /// The throw of `sticks` for `seat`'s next throw.
    pub fn throw(&mut self, seat: crate::Seat, sticks: crate::Sticks) -> Throw {
        let t = self.thrown[seat];
        self.thrown[seat] += 1;
        sticks.throw_from_bits(crate::seed::derive(
            self.seed,
            &[SEAT_THROWS, seat as u64, t as u64],
        ))
    }

    /// How many throws `seat` has made.
    pub fn thrown(&self, seat: crate::Seat) -> u32 {
        self.thrown[seat]
    }
}

/// The path tag of seeded throws in [`crate::seed::derive`].
const SEAT_THROWS: u64 = 0x7468_726f_7773; // "throws"

/// Throws for [`play_game`] from a seeded generator.
pub fn rng_throws<S>(
    sticks: crate::Sticks,
    rng: &mut crate::Rng,
) -> impl FnMut(crate::Seat, &S) -> Throw + '_ {
    move |_, _| sticks.throw_from_bits(rand::Rng::next_u64(rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng as _;

    /// A generator that returns the words given, in order.
    struct Words(std::vec::IntoIter<u64>);

    impl rand::TryRng for Words {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.next().expect("enough words"))
        }
        fn try_fill_bytes(&mut self, _dst: &mut [u8]) -> Result<(), Self::Error> {
            unreachable!("not used")
        }
    }

    #[test]
    fn random_bits_spend_a_draw_stick_by_stick() {
        // Four sticks: 16 throws from one word, low bits first; the 17th draws again.
        let word = 0xfedc_ba98_7654_3210u64;
        let mut rng = Words(vec![word, 0b0111].into_iter());
        let mut bits = RandomBits::new();
        let got: Vec<u8> = (0..17)
            .map(|_| bits.throw(&mut rng, crate::Sticks::FOUR).marked())
            .collect();
        let want: Vec<u8> = (0..16)
            .map(|i| ((word >> (4 * i)) & 15).count_ones() as u8)
            .chain([3])
            .collect();
        assert_eq!(got, want);
        // Six sticks: 10 throws from one word; the last 4 bits are dropped.
        let mut rng = Words(vec![u64::MAX, 0].into_iter());
        let mut bits = RandomBits::new();
        let got: Vec<u8> = (0..11)
            .map(|_| bits.throw(&mut rng, crate::Sticks::SIX).marked())
            .collect();
        assert_eq!(got, [6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0]);
    }

    #[test]
    fn random_bits_give_exactly_uniform_indices() {
        // Every 16-bit value once: the accepted ones give each index below `len` equally
        // often, and exactly 2^16 mod len of them are rejected.
        for len in (1..=64).chain([1000, MAX_INDEX_LEN - 1, MAX_INDEX_LEN]) {
            let mut counts = vec![0u32; len];
            let mut rejected = 0;
            for x in 0..1u32 << 16 {
                match index_from_16_bits(x, len as u32) {
                    Some(i) => counts[i] += 1,
                    None => rejected += 1,
                }
            }
            assert_eq!(rejected, (1 << 16) % len as u32, "len {len}");
            assert!(
                counts.iter().all(|&c| c == (1 << 16) / len as u32),
                "len {len}"
            );
        }
        // A rejected draw is drawn again from the next 16 bits: for len 3, x = 0 is
        // rejected (2^16 mod 3 = 1).
        let mut rng = Words(vec![0xffff_0000].into_iter());
        let mut bits = RandomBits::new();
        assert_eq!(bits.index(&mut rng, 3), 2);
        assert_eq!(bits.left, 32);
    }

    #[test]
    fn uniform_index_draws_exactly_what_random_range_draws() {
        // Lengths of action lists, and ranges whose biased zone is large (near 2^32), so
        // the second draw is taken often.
        let mut lens: Vec<usize> = (1..=64).collect();
        lens.extend([
            1000,
            1 << 31,
            (1 << 31) + 1,
            u32::MAX as usize - 1,
            u32::MAX as usize,
        ]);
        for (i, &len) in lens.iter().enumerate() {
            let mut a = crate::Rng::seed_from_u64(i as u64);
            let mut b = a.clone();
            for _ in 0..20_000 {
                assert_eq!(
                    uniform_index(&mut a, len),
                    b.random_range(0..len),
                    "len {len}"
                );
            }
            assert_eq!(a, b, "the same number of draws for len {len}");
        }
    }
}
