//! Which agents play which game, in which seats, with which seed.
//!
//! A **table** is a set of agents, one per seat. Round-robin plays every set of `N`
//! different agents (every pair in a two-player game); a gauntlet plays the first agent
//! (the challenger) against every set of `N − 1` of the others.
//!
//! A **rotation** is `N` games at one table with the same game seed, the seating rotated
//! one place each game: in game `j` of a rotation, seat `s` holds the table's agent
//! `(s + j) mod N`. So every agent plays every seat exactly once per rotation, and with
//! duplicate dice each seat meets the same throws in all `N` games whoever sits there.
//!
//! Games are numbered rotation by rotation across the tables — index
//! `((rotation · tables) + table) · N + j` — so a tournament stopped early (an SPRT
//! decision) has played the tables evenly. Seeds: the game seed is
//! `derive(tournament seed, [GAME, table, rotation])`, the agent seeds
//! `derive(game seed, [AGENT, seat])` (see [`crate::arena::agent_seed`]). Agent seeds
//! depend on the seat, not on who sits there, so two copies of one agent play mirrored
//! games across a rotation and score exactly ½ — a sanity check of the arena.
//!
//! **Shards.** A tournament split over `K` machines deals its table-rotations (units of
//! `N` games: rotation `r` of table `t`) so that shard `I/K` plays the units with
//! `(t + r) mod K = I` (see [`Shard`]). Each table's rotations go to the shards in turn,
//! so every shard plays every table about equally often, whatever the number of tables
//! (dealing the units `r · tables + t` round-robin instead gave each shard one table when
//! the shard count divides the table count: an expensive table made one shard the slow
//! one). Within a rotation the tables go to consecutive shards, so every prefix of whole
//! rotations is spread over the shards within one unit per shard per rotation (what an
//! SPRT played in batches needs). The split depends only on the indices, never on
//! timing, and the `N` games of a rotation, which share their throws, stay together.

use serde::{Deserialize, Serialize};

/// How tables are formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Format {
    /// Every set of `N` different agents.
    RoundRobin,
    /// The first agent against every set of `N − 1` of the others.
    Gauntlet,
}

impl core::fmt::Display for Format {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

/// A tournament format that is not one of [`Format`]'s (`Format::from_str`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown tournament format `{name}`: use round-robin or gauntlet")]
pub struct FormatError {
    /// The name given (trimmed).
    pub name: String,
}

impl core::str::FromStr for Format {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            other => Err(FormatError {
                name: other.to_string(),
            }),
        }
    }
}

/// One of `count` parts of a tournament: the games of rotation `r` at table `t` with
/// `(t + r) mod count = index` (see the module docs). Written `I/K` (0-based: `0/4` …
/// `3/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, `0 … count−1`.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

/// A shard that does not exist ([`Shard::new`]): its number is not below the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "shard {index}/{count}: the shard number must be below the count (0/{count} … {}/{count})",
    count.max(&1) - 1
)]
pub struct ShardError {
    /// The shard number given.
    pub index: usize,
    /// The shard count given.
    pub count: usize,
}

/// A tournament that cannot be scheduled ([`Schedule::new`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleError {
    /// Tables of no seats.
    #[error("a game needs at least one seat")]
    NoSeats,
    /// No games per table.
    #[error("the tournament needs at least one game per table (--games)")]
    NoGames,
    /// More games per table than the limit.
    #[error("{games_per_table} games per table (--games) is more than the limit of {limit}")]
    TooManyGamesPerTable {
        /// The games per table asked for.
        games_per_table: usize,
        /// The limit.
        limit: usize,
    },
    /// More tables than the limit of games.
    #[error("{agents} agents at {seats}-player tables make more than {limit} tables, more than the limit of {limit} games")]
    TooManyTables {
        /// The agents.
        agents: usize,
        /// The seats per table.
        seats: usize,
        /// The limit.
        limit: usize,
    },
    /// Too few agents for a round-robin's tables.
    #[error(
        "a round-robin at {seats}-player tables needs at least {needed} agents, got {agents}; \
             list an agent more than once to seat it twice (e.g. --agents random,random,greedy)"
    )]
    RoundRobinTooFew {
        /// The seats per table.
        seats: usize,
        /// The agents needed.
        needed: usize,
        /// The agents given.
        agents: usize,
    },
    /// Too few agents for a gauntlet's tables.
    #[error("a gauntlet at {seats}-player tables needs the challenger and at least {others} other agents, got {agents} agents in all")]
    GauntletTooFew {
        /// The seats per table.
        seats: usize,
        /// The other agents needed.
        others: usize,
        /// The agents given.
        agents: usize,
    },
    /// More games than the limit.
    #[error("{tables} tables of {per_table} games make {total} games, more than the limit of {limit}; use fewer agents or --games")]
    TooManyGames {
        /// The tables.
        tables: usize,
        /// The games at each.
        per_table: usize,
        /// The games in all.
        total: usize,
        /// The limit.
        limit: usize,
    },
}

impl Shard {
    /// The whole tournament as one shard, `0/1`.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// [`ShardError`]: `count` is 0 or `index` is not below it.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 || index >= count {
            return Err(ShardError { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Whether game `index` of a tournament of `tables` tables at `seats`-seat tables
    /// belongs to this shard.
    pub fn holds(&self, index: usize, seats: usize, tables: usize) -> bool {
        let unit = index / seats.max(1);
        let tables = tables.max(1);
        let (rotation, table) = (unit / tables, unit % tables);
        (table % self.count + rotation % self.count) % self.count == self.index
    }
}

impl core::fmt::Display for Shard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A shard that cannot be read (`Shard::from_str`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseShardError {
    /// Not written `I/K` with two whole numbers.
    #[error("bad shard `{text}`: write I/K, e.g. 0/4 for the first of four")]
    Syntax {
        /// The text given.
        text: String,
    },
    /// Well written, but no such shard.
    #[error(transparent)]
    Range(#[from] ShardError),
}

impl core::str::FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseShardError::Syntax {
            text: s.to_string(),
        };
        let (i, k) = s.trim().split_once('/').ok_or_else(bad)?;
        let i: usize = i.trim().parse().map_err(|_| bad())?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        Ok(Shard::new(i, k)?)
    }
}
/// The most games per table a schedule holds.
pub const MAX_GAMES_PER_TABLE: usize = 1_000_000;
/// The most games a schedule holds in all (each finished game is kept in memory for the
/// report, a few hundred bytes).
pub const MAX_GAMES: usize = 10_000_000;

/// The path tag of game seeds in [`stickdice::seed::derive`].
const GAME_SEED: u64 = 0x6761_6d65; // "game"

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The game's index in the tournament.
    pub index: usize,
    /// The table.
    pub table: usize,
    /// The rotation at that table.
    pub rotation: usize,
    /// The seating's shift within the rotation (0 … N−1).
    pub shift: usize,
    /// The agent in each seat (indices into the tournament's agent list).
    pub seating: Vec<usize>,
    /// The game seed, shared by the games of the rotation.
    pub game_seed: u64,
}

/// The games of a tournament.
///
/// ```
/// use stickdice_evaluation::{Format, Schedule};
/// // Three agents at two-seat tables: three tables, 4 games each (two rotations).
/// let s = Schedule::new(Format::RoundRobin, 3, 2, 3, 1).unwrap();
/// assert_eq!((s.tables().len(), s.games_per_table(), s.len()), (3, 4, 12));
/// let g = Schedule::new(Format::Gauntlet, 3, 2, 4, 1).unwrap();
/// assert_eq!(g.tables().len(), 2); // the first agent against each other
/// let slot = s.slot(0);
/// assert_eq!(slot, s.slot(0)); // seatings and seeds depend on the index alone
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    seats: usize,
    tables: Vec<Vec<usize>>,
    rotations: usize,
    seed: u64,
}

/// `n` choose `k`, or `None` when it is more than `limit`.
fn binomial_at_most(n: usize, k: usize, limit: usize) -> Option<usize> {
    if k > n {
        return Some(0);
    }
    let mut c: u128 = 1;
    for i in 0..k.min(n - k) as u128 {
        // c · (n − i) / (i + 1) is the binomial (n choose i + 1), a whole number.
        c = c * (n as u128 - i) / (i + 1);
        if c > limit as u128 {
            return None;
        }
    }
    Some(c as usize)
}

fn combinations(pool: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(size);
    fn go(
        pool: &[usize],
        size: usize,
        from: usize,
        pick: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if pick.len() == size {
            out.push(pick.clone());
            return;
        }
        for i in from..pool.len() {
            if pool.len() - i < size - pick.len() {
                break;
            }
            pick.push(pool[i]);
            go(pool, size, i + 1, pick, out);
            pick.pop();
        }
    }
    go(pool, size, 0, &mut pick, &mut out);
    out
}

impl Schedule {
    /// The schedule of `agents` agents at `seats`-seat tables, with at least
    /// `games_per_table` games at each table (rounded up to whole rotations).
    ///
    /// # Errors
    /// [`ScheduleError`]: too few agents for the tables, or no games, or too many.
    pub fn new(
        format: Format,
        agents: usize,
        seats: usize,
        games_per_table: usize,
        seed: u64,
    ) -> Result<Schedule, ScheduleError> {
        if seats == 0 {
            return Err(ScheduleError::NoSeats);
        }
        if games_per_table == 0 {
            return Err(ScheduleError::NoGames);
        }
        if games_per_table > MAX_GAMES_PER_TABLE {
            return Err(ScheduleError::TooManyGamesPerTable {
                games_per_table,
                limit: MAX_GAMES_PER_TABLE,
            });
        }
        // Count the tables before listing them: too many agents would list billions.
        let (pool, pick) = match format {
            Format::RoundRobin => (agents, seats),
            Format::Gauntlet => (agents.saturating_sub(1), seats - 1),
        };
        if binomial_at_most(pool, pick, MAX_GAMES).is_none() {
            return Err(ScheduleError::TooManyTables {
                agents,
                seats,
                limit: MAX_GAMES,
            });
        }
        let tables = match format {
            Format::RoundRobin => {
                if agents < seats.max(2) {
                    return Err(ScheduleError::RoundRobinTooFew {
                        seats,
                        needed: seats.max(2),
                        agents,
                    });
                }
                combinations(&(0..agents).collect::<Vec<_>>(), seats)
            }
            Format::Gauntlet => {
                if agents < 2 || agents - 1 < seats - 1 {
                    return Err(ScheduleError::GauntletTooFew {
                        seats,
                        others: (seats - 1).max(1),
                        agents,
                    });
                }
                combinations(&(1..agents).collect::<Vec<_>>(), seats - 1)
                    .into_iter()
                    .map(|rest| [vec![0], rest].concat())
                    .collect()
            }
        };
        let rotations = games_per_table.div_ceil(seats);
        let total = tables.len().saturating_mul(rotations.saturating_mul(seats));
        if total > MAX_GAMES {
            return Err(ScheduleError::TooManyGames {
                tables: tables.len(),
                per_table: rotations * seats,
                total,
                limit: MAX_GAMES,
            });
        }
        Ok(Schedule {
            seats,
            tables,
            rotations,
            seed,
        })
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The tables: each the agents seated at it, in table order.
    pub fn tables(&self) -> &[Vec<usize>] {
        &self.tables
    }

    /// Rotations per table.
    pub fn rotations(&self) -> usize {
        self.rotations
    }

    /// Games per table (whole rotations).
    pub fn games_per_table(&self) -> usize {
        self.rotations * self.seats
    }

    /// The number of games in all.
    pub fn len(&self) -> usize {
        self.tables.len() * self.rotations * self.seats
    }

    /// Whether there are no games (never, for a schedule that was built).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game seed of a table's rotation.
    pub fn game_seed(&self, table: usize, rotation: usize) -> u64 {
        stickdice::seed::derive(self.seed, &[GAME_SEED, table as u64, rotation as u64])
    }

    /// The game with this index.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn slot(&self, index: usize) -> Slot {
        assert!(index < self.len(), "game {index} is not scheduled");
        let shift = index % self.seats;
        let unit = index / self.seats;
        let table = unit % self.tables.len();
        let rotation = unit / self.tables.len();
        let agents = &self.tables[table];
        Slot {
            index,
            table,
            rotation,
            shift,
            seating: (0..self.seats)
                .map(|s| agents[(s + shift) % self.seats])
                .collect(),
            game_seed: self.game_seed(table, rotation),
        }
    }

    /// The number of games in the first `units` table-rotations (a unit is `N` games).
    pub fn games_in_units(&self, units: usize) -> usize {
        units * self.seats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_past_the_limits_are_refused_before_anything_is_listed() {
        let e = Schedule::new(Format::RoundRobin, 4, 2, usize::MAX, 1).unwrap_err();
        assert!(
            e.to_string().contains("more than the limit of 1000000"),
            "{e}"
        );
        let e = Schedule::new(Format::RoundRobin, 4, 2, 1_000_000_000_000, 1).unwrap_err();
        assert!(e.to_string().contains("limit"), "{e}");
        // 6 tables of 1 000 000 games fit; 16 agents make 120 tables, too many.
        assert_eq!(
            Schedule::new(Format::RoundRobin, 4, 2, MAX_GAMES_PER_TABLE, 1)
                .unwrap()
                .len(),
            6_000_000
        );
        let e = Schedule::new(Format::RoundRobin, 16, 2, MAX_GAMES_PER_TABLE, 1).unwrap_err();
        assert!(e.to_string().contains("120 tables of 1000000 games"), "{e}");
        // Thousands of agents at 6-player tables: refused without listing the tables.
        let e = Schedule::new(Format::RoundRobin, 5000, 6, 1, 1).unwrap_err();
        assert!(e.to_string().contains("more than 10000000 tables"), "{e}");
        assert_eq!(binomial_at_most(10, 3, 1000), Some(120));
        assert_eq!(binomial_at_most(10, 3, 119), None);
        assert_eq!(binomial_at_most(2, 3, 5), Some(0));
    }

    #[test]
    fn round_robin_pairs_every_two_agents_and_rotates_seats() {
        let s = Schedule::new(Format::RoundRobin, 3, 2, 3, 9).unwrap();
        assert_eq!(s.tables(), &[vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(s.rotations(), 2); // 3 games rounded up to 2 rotations of 2
        assert_eq!(s.len(), 12);
        // Index order: rotation 0 of tables 0, 1, 2, then rotation 1.
        let seatings: Vec<Vec<usize>> = (0..6).map(|i| s.slot(i).seating).collect();
        assert_eq!(
            seatings,
            [
                vec![0, 1],
                vec![1, 0],
                vec![0, 2],
                vec![2, 0],
                vec![1, 2],
                vec![2, 1]
            ]
        );
        assert_eq!(s.slot(0).game_seed, s.slot(1).game_seed);
        assert_ne!(s.slot(0).game_seed, s.slot(2).game_seed);
        assert_ne!(s.slot(0).game_seed, s.slot(6).game_seed);
        assert_eq!(
            (s.slot(7).table, s.slot(7).rotation, s.slot(7).shift),
            (0, 1, 1)
        );
    }

    #[test]
    fn every_agent_plays_every_seat_equally_often() {
        for (format, agents, seats) in [
            (Format::RoundRobin, 5, 3),
            (Format::Gauntlet, 4, 3),
            (Format::RoundRobin, 4, 4),
            (Format::Gauntlet, 3, 2),
        ] {
            let s = Schedule::new(format, agents, seats, 7, 1).unwrap();
            let mut count = vec![vec![0usize; seats]; agents];
            for i in 0..s.len() {
                for (seat, &a) in s.slot(i).seating.iter().enumerate() {
                    count[a][seat] += 1;
                }
            }
            for row in &count {
                assert!(row.iter().all(|&c| c == row[0]), "{format} {count:?}");
            }
        }
    }

    #[test]
    fn gauntlet_tables_hold_the_challenger() {
        let s = Schedule::new(Format::Gauntlet, 4, 3, 3, 1).unwrap();
        assert_eq!(s.tables(), &[vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3]]);
        let s = Schedule::new(Format::Gauntlet, 3, 2, 2, 1).unwrap();
        assert_eq!(s.tables(), &[vec![0, 1], vec![0, 2]]);
    }

    #[test]
    fn shards_deal_whole_rotations_round_robin() {
        let s = Schedule::new(Format::RoundRobin, 3, 2, 6, 1).unwrap();
        let shards: Vec<Shard> = (0..4).map(|i| Shard::new(i, 4).unwrap()).collect();
        for i in 0..s.len() {
            let owners: Vec<usize> = (0..4).filter(|&k| shards[k].holds(i, 2, 3)).collect();
            // Exactly one owner: (table + rotation) modulo 4; both games of a rotation go
            // to the same shard.
            let (rotation, table) = (i / 2 / 3, i / 2 % 3);
            assert_eq!(owners, [(table + rotation) % 4], "game {i}");
        }
        assert!(Shard::WHOLE.holds(17, 3, 5));
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard::new(2, 4).unwrap().to_string(), "2/4");
        for bad in ["4/4", "1/0", "x/2", "3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        // Typed: a number out of range keeps the shard's own error.
        assert_eq!(
            "4/4".parse::<Shard>(),
            Err(ParseShardError::Range(ShardError { index: 4, count: 4 }))
        );
        assert!(matches!(
            "x/2".parse::<Shard>(),
            Err(ParseShardError::Syntax { text }) if text == "x/2"
        ));
    }

    /// With 3 tables and 3 shards, dealing units round-robin would give each shard one table
    /// (an expensive table would make one shard the slow one). Every shard must play every
    /// table, each table's games spread evenly, for any table and shard count.
    #[test]
    fn shards_split_every_table_evenly() {
        for (agents, format) in [
            (3, Format::RoundRobin),
            (4, Format::RoundRobin),
            (5, Format::Gauntlet),
            (2, Format::RoundRobin),
        ] {
            let s = Schedule::new(format, agents, 2, 24, 1).unwrap();
            let tables = s.tables().len();
            for k in 1..=6 {
                // games[shard][table]
                let mut games = vec![vec![0usize; tables]; k];
                for i in 0..s.len() {
                    let owners: Vec<usize> = (0..k)
                        .filter(|&j| Shard::new(j, k).unwrap().holds(i, 2, tables))
                        .collect();
                    assert_eq!(owners.len(), 1, "game {i}, {k} shards");
                    games[owners[0]][(i / 2) % tables] += 1;
                }
                for t in 0..tables {
                    let per: Vec<usize> = games.iter().map(|g| g[t]).collect();
                    let (lo, hi) = (per.iter().min().unwrap(), per.iter().max().unwrap());
                    // 24 games per table = 12 rotations of 2 games.
                    assert!(
                        hi - lo <= 2,
                        "{tables} tables, {k} shards, table {t}: {per:?}"
                    );
                }
                // And every prefix of whole rotations is spread within one unit per shard
                // per rotation... at most `tables` units apart.
                for r in 1..=12 {
                    let mut units = vec![0usize; k];
                    for u in 0..r * tables {
                        let owner = (0..k)
                            .find(|&j| Shard::new(j, k).unwrap().holds(u * 2, 2, tables))
                            .unwrap();
                        units[owner] += 1;
                    }
                    let (lo, hi) = (units.iter().min().unwrap(), units.iter().max().unwrap());
                    assert!(
                        hi - lo <= tables.min(k),
                        "{tables} tables, {k} shards, {r} rotations: {units:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn impossible_schedules_are_explained() {
        let e = Schedule::new(Format::RoundRobin, 2, 4, 10, 1).unwrap_err();
        assert!(e.to_string().contains("at least 4 agents"), "{e}");
        let e = Schedule::new(Format::RoundRobin, 1, 2, 10, 1).unwrap_err();
        assert!(e.to_string().contains("at least 2 agents"), "{e}");
        assert!(Schedule::new(Format::Gauntlet, 2, 3, 10, 1).is_err());
        assert!(Schedule::new(Format::RoundRobin, 3, 2, 0, 1).is_err());
        assert_eq!("gauntlet".parse::<Format>(), Ok(Format::Gauntlet));
        let e = "swiss".parse::<Format>().unwrap_err();
        assert_eq!(e.name, "swiss");
        assert_eq!(
            e.to_string(),
            "unknown tournament format `swiss`: use round-robin or gauntlet"
        );
    }
}
