//! The Issiren endgame tablebase: the exact win probability, with best play by both
//! sides, of every position with one or two pieces a side.
//!
//! # What is in it
//!
//! A position is the pieces of the side to throw (the *mover*) and of its opponent, each
//! piece a circuit position (0..71) or an *unmoved* piece on its home row (positions
//! 0..11): 84 configurations per piece, 84 for a lone piece and `84·83/2` = 3 486 for an
//! unordered pair. The board is symmetric under the half turn that swaps the seats (seat
//! 1's circuit is seat 0's turned by 180°), so a position is stored once, from the mover's
//! side, whoever the mover is: four tables for 1v1, 1v2, 2v1 and 2v2 pieces, 12 744 900
//! entries in all (combinations with two pieces on one square are stored as 0 and never
//! read). Each entry is the mover's chance of winning **at the throw node**; a decision
//! node's value is the best of its actions' values, worked out on the fly. The throw count
//! and the cap are left out: the values are those of the game without a cap.
//!
//! # How it is built
//!
//! By retrograde value iteration, layer by layer: a capture only ever removes a piece, so
//! the 1v1 table depends on nothing else, the 1v2 and 2v1 tables on each other and on 1v1,
//! and the 2v2 table on itself and those. Within a layer, every sweep recomputes each row
//! of positions (a fixed set of mover's pieces) at once against every opponent
//! configuration, so the work is streaming arithmetic over rows of 3 486 values: the
//! children after an extra throw are rows of the same table (Gauss–Seidel, in place), the
//! children after the turn passes are read from a transposed copy refreshed every sweep.
//! A throw after which no piece can move and the mover throws again leaves the position
//! unchanged; it is solved in closed form. Sweeps stop when no value changes by more than
//! [`TOLERANCE`].
//!
//! # In play: the cache and `tablebase=cache`
//!
//! Expectimax, MCTS and ISMCTS take the `tablebase` parameter
//! ([`super::TABLEBASE_PARAM`]); its default is `off`, whatever the cache holds, so a run
//! plays the same games on every machine. `tablebase=cache` uses the file in the cache
//! directory ([`cache_dir`]: `$STICKDICE_CACHE`, else `$XDG_CACHE_HOME/stickdice`, else
//! `~/.cache/stickdice`; the file [`cache_file_name`] carries the format version), and is
//! an error that says how to build it when the file is missing — nothing is built unasked.
//! [`build_cached`] (the command `stickdice tablebase --build`) builds it there once,
//! under a lock file, written to a temporary name and renamed. The agents' names and
//! tournament labels carry the value (`tablebase=off` when none was given,
//! [`super::resolve_spec`]), so a log says which was played and rebuilds the same agents.
//! A damaged file is an error, never a silent fallback.
//!
//! # Storage
//!
//! Values are stored as 32-bit fixed point (`v · (2³² − 1)`, rounded; error below 1.2e-10)
//! — 51 MB in memory and on disk. The file is a small header (magic, version, table
//! sizes), the values little-endian, and an FNV-1a checksum; [`Tablebase::load`] checks
//! all three.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use stickdice::games::issiren::{
    circuit_square, grants_extra_throw, throw_value, Action, Piece, Position, State, CIRCUIT_LEN,
};
use stickdice::{ActionList, Game, Issiren, Node, SeatValues, Throw, MAX_SEATS};

use super::ExactValues;

/// Piece configurations: 72 circuit positions of a moved piece, then 12 unmoved.
const CONFIGS: usize = 84;
/// Unordered pairs of distinct configurations.
const PAIRS: usize = CONFIGS * (CONFIGS - 1) / 2;
/// Rows or columns of a table side of `n` pieces (index by piece count 1 or 2).
const SIDE: [usize; 3] = [0, CONFIGS, PAIRS];
/// The tables, by (mover's pieces, opponent's pieces): 1v1, 1v2, 2v1, 2v2.
const LAYERS: [(usize, usize); 4] = [(1, 1), (1, 2), (2, 1), (2, 2)];
/// The largest change of any value in a layer's last sweep when building.
pub const TOLERANCE: f64 = 1e-11;

const MAGIC: &[u8; 8] = b"SDTBISS1";
const VERSION: u32 = 1;
const SCALE: f64 = u32::MAX as f64;

/// The number of values in each table and in all (1v1, 1v2, 2v1, 2v2).
pub fn table_sizes() -> [usize; 4] {
    LAYERS.map(|(a, b)| SIDE[a] * SIDE[b])
}

/// Why a tablebase file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read the tablebase: {0}")]
    Io(#[source] io::Error),
    /// The file is not a tablebase of this version, or is damaged.
    #[error("not a valid Issiren tablebase: {0}")]
    Format(String),
}

/// Why the tablebase an agent names ([`shared`]) or the cache ([`cache_dir`],
/// [`build_cached`]) cannot be used. Cloneable (the sources are shared), since [`shared`]
/// keeps its answer for the whole process.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablebaseError {
    /// None of the variables naming the cache directory is set.
    #[error("no cache directory: set {CACHE_ENV}, XDG_CACHE_HOME or HOME")]
    NoCacheDir,
    /// `tablebase=cache` and no file is in the cache.
    #[error(
        "no tablebase in the cache ({} is missing): build it once with \
         `stickdice tablebase --build`, or play with tablebase=off",
        path.display()
    )]
    NotCached {
        /// The file looked for.
        path: PathBuf,
    },
    /// The file in the cache cannot be read.
    #[error(
        "the cached tablebase {} cannot be used: {source}; rebuild it with \
         `stickdice tablebase --build`, or play with tablebase=off",
        path.display()
    )]
    CacheUnusable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: Arc<LoadError>,
    },
    /// A tablebase file named by path cannot be read.
    #[error("{file}: {source}")]
    File {
        /// The path as given.
        file: String,
        /// Why.
        source: Arc<LoadError>,
    },
    /// The cache directory or a file in it cannot be made or written.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// What was being done ("create the cache directory", "write the tablebase to"…).
        what: &'static str,
        /// The path concerned.
        path: PathBuf,
        /// Why.
        source: Arc<io::Error>,
    },
}

/// What building cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildStats {
    /// Values stored (all four tables).
    pub entries: usize,
    /// Of them, real positions (no two pieces on one square).
    pub positions: usize,
    /// Sweeps per layer group: 1v1, 1v2 with 2v1, 2v2.
    pub sweeps: [usize; 3],
    /// The largest change in the last sweep of each group.
    pub residual: [f64; 3],
    /// Wall-clock time of the whole build.
    pub time: Duration,
}

/// The tablebase: see the [module docs](self).
#[derive(Clone)]
pub struct Tablebase {
    tables: [Vec<u32>; 4],
}

impl core::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Tablebase")
            .field("entries", &self.tables.iter().map(Vec::len).sum::<usize>())
            .finish()
    }
}

/// Index tables shared by building and lookup.
struct Tables {
    /// `(c1, c2)` of each pair index, `c1 < c2`.
    pair_of: Vec<(u8, u8)>,
    /// Per side size (1, 2) and seat (0, 1): square bitmask of each side index.
    mask: [[Vec<u64>; 2]; 3],
    /// Per side size: whether the side index is a real placement (two pieces apart).
    valid: [Vec<bool>; 3],
    /// Per side size, index and throw: the legal moves as (new index, destination square).
    moves: [Vec<[MoveList; 7]>; 3],
    /// Per side size of the *opponent* and square: (opponent index with a piece there,
    /// index of the piece that remains, for two).
    capture: [Vec<Vec<(u32, u32)>>; 3],
}

#[derive(Clone, Copy, Default)]
struct MoveList {
    len: u8,
    to: [(u32, u8); 2],
}

fn pair_index(c1: usize, c2: usize) -> usize {
    let (lo, hi) = if c1 < c2 { (c1, c2) } else { (c2, c1) };
    hi * (hi - 1) / 2 + lo
}

fn config_pos(c: usize) -> u8 {
    if c < CIRCUIT_LEN as usize {
        c as u8
    } else {
        (c - CIRCUIT_LEN as usize) as u8
    }
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(Tables::new)
}

impl Tables {
    fn new() -> Tables {
        let mut pair_of = vec![(0u8, 0u8); PAIRS];
        for hi in 1..CONFIGS {
            for lo in 0..hi {
                pair_of[pair_index(lo, hi)] = (lo as u8, hi as u8);
            }
        }
        let mut square = [[0u8; CONFIGS]; 2];
        for (seat, row) in square.iter_mut().enumerate() {
            for (c, sq) in row.iter_mut().enumerate() {
                *sq = circuit_square(seat, config_pos(c))
                    .expect("positions 0..71 are on the circuit")
                    .index();
            }
        }
        let configs_of = |n: usize, i: usize| -> ([usize; 2], usize) {
            if n == 1 {
                ([i, 0], 1)
            } else {
                let (a, b) = pair_of[i];
                ([a as usize, b as usize], 2)
            }
        };
        let mut mask: [[Vec<u64>; 2]; 3] = Default::default();
        let mut valid: [Vec<bool>; 3] = Default::default();
        let mut moves: [Vec<[MoveList; 7]>; 3] = Default::default();
        for n in 1..=2 {
            for seat in 0..2 {
                mask[n][seat] = (0..SIDE[n])
                    .map(|i| {
                        let (cs, k) = configs_of(n, i);
                        cs[..k]
                            .iter()
                            .fold(0u64, |m, &c| m | 1u64 << square[seat][c])
                    })
                    .collect();
            }
            valid[n] = (0..SIDE[n])
                .map(|i| mask[n][0][i].count_ones() as usize == n)
                .collect();
            moves[n] = (0..SIDE[n])
                .map(|i| {
                    let (cs, k) = configs_of(n, i);
                    let mut out = [MoveList::default(); 7];
                    for (g, list) in out.iter_mut().enumerate() {
                        let throw = Throw::new(g as u8);
                        let v = throw_value(throw).expect("six sticks show 0..6");
                        for j in 0..k {
                            let c = cs[j];
                            let unmoved = c >= CIRCUIT_LEN as usize;
                            if unmoved && throw != stickdice::games::issiren::RELEASE_THROW {
                                continue;
                            }
                            let pos = (config_pos(c) as usize + v as usize) % CIRCUIT_LEN as usize;
                            let dest = square[0][pos];
                            let new_index = if k == 1 {
                                pos
                            } else {
                                let other = cs[1 - j];
                                if square[0][other] == dest {
                                    continue; // own piece there
                                }
                                pair_index(pos, other)
                            };
                            list.to[list.len as usize] = (new_index as u32, dest);
                            list.len += 1;
                        }
                    }
                    out
                })
                .collect();
        }
        let mut capture: [Vec<Vec<(u32, u32)>>; 3] = Default::default();
        for n in 1..=2 {
            capture[n] = vec![Vec::new(); 48];
            for (t, _) in valid[n].iter().enumerate().filter(|(_, &ok)| ok) {
                let (cs, k) = configs_of(n, t);
                for j in 0..k {
                    let rest = if k == 2 { cs[1 - j] as u32 } else { 0 };
                    capture[n][square[1][cs[j]] as usize].push((t as u32, rest));
                }
            }
        }
        Tables {
            pair_of,
            mask,
            valid,
            moves,
            capture,
        }
    }

    fn entry_valid(&self, a: usize, b: usize, m: usize, t: usize) -> bool {
        self.valid[a][m]
            && self.valid[b][t]
            && self.side_mask(a, 0, m) & self.side_mask(b, 1, t) == 0
    }
}

// `mask[n][seat]` is indexed [n][seat][i]; keep the accessor readable.
impl Tables {
    #[inline]
    fn side_mask(&self, n: usize, seat: usize, i: usize) -> u64 {
        self.mask[n][seat][i]
    }
}

fn layer_of(a: usize, b: usize) -> usize {
    (a - 1) * 2 + (b - 1)
}

struct Builder<'t> {
    t: &'t Tables,
    /// The tables being built, by layer: `v[(a, b)][m][t]`.
    v: [Vec<f64>; 4],
    /// Their transposes, kept in step row by row: `w[(a, b)][t][m] = v[(a, b)][m][t]`.
    w: [Vec<f64>; 4],
    p: [f64; 7],
    extra: [bool; 7],
}

impl Builder<'_> {
    /// One Gauss–Seidel sweep of table (a, b). Returns the largest change of a real
    /// position's value.
    ///
    /// After the turn passes, the child of row `m'` against `t` is `1 − v[(b, a)][t][m']`,
    /// read as row `m'` of `w[(b, a)]`; every new row of `v[(a, b)]` is also written into
    /// the column of `w[(a, b)]`, so those reads are as fresh as the in-place ones.
    fn sweep(&mut self, a: usize, b: usize) -> f64 {
        let t = self.t;
        let rows = SIDE[a];
        let cols = SIDE[b];
        let me = layer_of(a, b);
        let other = layer_of(b, a);
        let mut v = std::mem::take(&mut self.v[me]);
        let mut w_me = std::mem::take(&mut self.w[me]);
        let w_other = if other == me {
            None
        } else {
            Some(std::mem::take(&mut self.w[other]))
        };
        // Captures lead to (a, b-1) after an extra throw and to (b-1, a) after the turn
        // passes; with b = 1 a capture wins.
        let empty: Vec<f64> = Vec::new();
        let (lower_extra, lower_pass) = if b == 2 {
            (&self.v[layer_of(a, 1)], &self.v[layer_of(1, a)])
        } else {
            (&empty, &empty)
        };
        let mut acc = vec![0.0f64; cols];
        let mut best = vec![0.0f64; cols];
        let mut cand = vec![0.0f64; cols];
        let mut residual: f64 = 0.0;

        let child = |out: &mut [f64], v: &[f64], trans: &[f64], to: u32, dest: u8, extra: bool| {
            let to = to as usize;
            if extra {
                out.copy_from_slice(&v[to * cols..(to + 1) * cols]);
            } else {
                for (o, x) in out.iter_mut().zip(&trans[to * cols..(to + 1) * cols]) {
                    *o = 1.0 - x;
                }
            }
            for &(tt, rest) in &t.capture[b][dest as usize] {
                out[tt as usize] = if b == 1 {
                    1.0
                } else if extra {
                    lower_extra[to * CONFIGS + rest as usize]
                } else {
                    1.0 - lower_pass[rest as usize * rows + to]
                };
            }
        };

        for m in 0..rows {
            if !t.valid[a][m] {
                continue;
            }
            let trans: &[f64] = match &w_other {
                Some(w) => w,
                None => &w_me,
            };
            acc.iter_mut().for_each(|x| *x = 0.0);
            let mut stay = 0.0;
            for g in 0..7 {
                let p = self.p[g];
                let extra = self.extra[g];
                let list = t.moves[a][m][g];
                match list.len {
                    0 => {
                        if extra {
                            stay += p;
                        } else {
                            for (x, y) in acc.iter_mut().zip(&trans[m * cols..(m + 1) * cols]) {
                                *x += p * (1.0 - y);
                            }
                        }
                        continue;
                    }
                    1 => {
                        let (to, dest) = list.to[0];
                        child(&mut best, &v, trans, to, dest, extra);
                    }
                    _ => {
                        let (to, dest) = list.to[0];
                        child(&mut best, &v, trans, to, dest, extra);
                        let (to, dest) = list.to[1];
                        child(&mut cand, &v, trans, to, dest, extra);
                        for (x, y) in best.iter_mut().zip(&cand) {
                            *x = x.max(*y);
                        }
                    }
                }
                for (x, y) in acc.iter_mut().zip(&best) {
                    *x += p * y;
                }
            }
            let scale = 1.0 / (1.0 - stay);
            let row = &mut v[m * cols..(m + 1) * cols];
            let my_mask = t.side_mask(a, 0, m);
            for (tt, (old, new)) in row.iter_mut().zip(&acc).enumerate() {
                let new = new * scale;
                if t.valid[b][tt] && my_mask & t.side_mask(b, 1, tt) == 0 {
                    residual = residual.max((new - *old).abs());
                }
                *old = new;
                w_me[tt * rows + m] = new;
            }
        }
        self.v[me] = v;
        self.w[me] = w_me;
        if let Some(w) = w_other {
            self.w[other] = w;
        }
        residual
    }
}

impl Tablebase {
    /// Builds the tablebase in memory (about 200 MB while building; the book's chapter
    /// `docs/analysis.md` gives the time), calling `progress(layer group, sweep, residual)`
    /// after every sweep.
    pub fn build_with_progress(progress: impl FnMut(usize, usize, f64)) -> (Tablebase, BuildStats) {
        Self::build_partial(3, progress)
    }

    /// Builds only the first `up_to` layer groups (1: 1v1; 2: also 1v2 and 2v1; 3: all),
    /// for tests and quick experiments; positions of the groups left out are not covered.
    pub fn build_partial(
        up_to: usize,
        mut progress: impl FnMut(usize, usize, f64),
    ) -> (Tablebase, BuildStats) {
        let up_to = up_to.min(3);
        let start = Instant::now();
        let t = tables();
        let outcomes = Issiren::with_seats(2)
            .expect("issiren has two seats")
            .throw_outcomes();
        let mut p = [0.0; 7];
        let mut extra = [false; 7];
        for o in outcomes {
            p[o.throw.marked() as usize] = o.probability;
            extra[o.throw.marked() as usize] = grants_extra_throw(o.throw);
        }
        let mut builder = Builder {
            t,
            v: LAYERS.map(|(a, b)| vec![0.5; SIDE[a] * SIDE[b]]),
            w: LAYERS.map(|(a, b)| vec![0.5; SIDE[a] * SIDE[b]]),
            p,
            extra,
        };
        let mut sweeps = [0usize; 3];
        let mut residuals = [0.0f64; 3];
        let groups: [&[(usize, usize)]; 3] = [&[(1, 1)], &[(1, 2), (2, 1)], &[(2, 2)]];
        for (g, group) in groups.iter().enumerate().take(up_to) {
            loop {
                let mut r: f64 = 0.0;
                for &(a, b) in group.iter() {
                    r = r.max(builder.sweep(a, b));
                }
                sweeps[g] += 1;
                residuals[g] = r;
                progress(g, sweeps[g], r);
                if r <= TOLERANCE {
                    break;
                }
            }
        }
        builder.w = Default::default();
        let built = [up_to >= 1, up_to >= 2, up_to >= 2, up_to >= 3];

        let mut positions = 0;
        let tables = core::array::from_fn(|l| {
            if !built[l] {
                return Vec::new();
            }
            let (a, b) = LAYERS[l];
            let cols = SIDE[b];
            builder.v[l]
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    if t.entry_valid(a, b, i / cols, i % cols) {
                        positions += 1;
                        (x.clamp(0.0, 1.0) * SCALE).round() as u32
                    } else {
                        0
                    }
                })
                .collect()
        });
        let tb = Tablebase { tables };
        let stats = BuildStats {
            entries: tb.tables.iter().map(Vec::len).sum(),
            positions,
            sweeps,
            residual: residuals,
            time: start.elapsed(),
        };
        (tb, stats)
    }

    /// Builds the tablebase in memory.
    pub fn build() -> (Tablebase, BuildStats) {
        Self::build_with_progress(|_, _, _| {})
    }

    /// The size of the stored values in bytes (also the file size, less a 52-byte header
    /// and trailer).
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.len() * 4).sum()
    }

    /// Writes the tablebase to a file.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut w = io::BufWriter::new(fs::File::create(path)?);
        w.write_all(MAGIC)?;
        w.write_all(&VERSION.to_le_bytes())?;
        w.write_all(&(self.tables.len() as u32).to_le_bytes())?;
        for t in &self.tables {
            w.write_all(&(t.len() as u64).to_le_bytes())?;
        }
        let mut hash = Fnv::new();
        for t in &self.tables {
            for &x in t {
                let b = x.to_le_bytes();
                hash.update(&b);
                w.write_all(&b)?;
            }
        }
        w.write_all(&hash.0.to_le_bytes())?;
        w.flush()
    }

    /// Reads a tablebase written by [`Tablebase::save`], checking its header, sizes and
    /// checksum.
    ///
    /// # Errors
    /// [`LoadError`] naming the problem.
    /// Reads at most the size of a whole tablebase (and one byte more, to tell a longer
    /// file), so that an endless file such as `/dev/zero` is refused, not read forever.
    pub fn load(path: &Path) -> Result<Tablebase, LoadError> {
        use io::Read as _;
        let most = (8 + 4 + 4 + 8 * 4) + 4 * table_sizes().iter().sum::<usize>() + 8;
        let file = crate::files::open_regular(path).map_err(LoadError::Io)?;
        let mut bytes = Vec::new();
        file.take(most as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(LoadError::Io)?;
        if bytes.len() > most {
            return Err(LoadError::Format(format!(
                "the file is longer than a whole tablebase ({most} bytes)"
            )));
        }
        Self::from_bytes(&bytes)
    }

    fn from_bytes(bytes: &[u8]) -> Result<Tablebase, LoadError> {
        let bad = |why: &str| LoadError::Format(why.to_string());
        let header = 8 + 4 + 4 + 8 * 4;
        if bytes.len() < header + 8 || &bytes[..8] != MAGIC {
            return Err(bad(
                "the file does not start with the tablebase magic `SDTBISS1`",
            ));
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        if u32_at(8) != VERSION {
            return Err(LoadError::Format(format!(
                "format version {} (this build reads version {VERSION})",
                u32_at(8)
            )));
        }
        if u32_at(12) != 4 {
            return Err(bad("the header does not list four tables"));
        }
        let mut sizes = table_sizes();
        for (l, n) in sizes.iter_mut().enumerate() {
            let stored = u64_at(16 + 8 * l);
            if stored == 0 {
                *n = 0; // a table left out of a partial build
            } else if stored != *n as u64 {
                return Err(LoadError::Format(format!(
                    "table {l} holds {stored} values, expected {n}"
                )));
            }
        }
        let total: usize = sizes.iter().sum();
        if bytes.len() != header + 4 * total + 8 {
            return Err(LoadError::Format(format!(
                "the file is {} bytes, expected {} (truncated or padded)",
                bytes.len(),
                header + 4 * total + 8
            )));
        }
        let data = &bytes[header..header + 4 * total];
        let mut hash = Fnv::new();
        hash.update(data);
        if hash.0 != u64_at(header + 4 * total) {
            return Err(bad("the checksum does not match (the file is damaged)"));
        }
        let mut off = 0;
        let tables = sizes.map(|n| {
            let t: Vec<u32> = data[off..off + 4 * n]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect();
            off += 4 * n;
            t
        });
        Ok(Tablebase { tables })
    }

    /// Whether the position is in the tablebase: one or two pieces a side (in a table that
    /// was built), or a game over with at most two pieces left.
    pub fn covers(&self, state: &State) -> bool {
        let mover = (state.turn() & 1) as usize;
        let (a, b) = (
            state.count()[mover] as usize,
            state.count()[1 - mover] as usize,
        );
        if a > 2 || b > 2 {
            false
        } else if a == 0 || b == 0 {
            true
        } else {
            !self.tables[layer_of(a, b)].is_empty()
        }
    }

    /// The table entry of a position at a throw node: (table, index).
    fn entry(&self, state: &State) -> Option<(usize, usize)> {
        let mover = (state.turn() & 1) as usize;
        let a = state.count()[mover] as usize;
        let b = state.count()[1 - mover] as usize;
        if !(1..=2).contains(&a) || !(1..=2).contains(&b) {
            return None;
        }
        let side = |seat: usize, n: usize| -> Option<usize> {
            let cfg = |p: &Piece| -> Option<usize> {
                if p.pos >= CIRCUIT_LEN || (p.unmoved && p.pos >= 12) {
                    None
                } else if p.unmoved {
                    Some(CIRCUIT_LEN as usize + p.pos as usize)
                } else {
                    Some(p.pos as usize)
                }
            };
            let ps = state.pieces_of(seat);
            if n == 1 {
                cfg(&ps[0])
            } else {
                let (c1, c2) = (cfg(&ps[0])?, cfg(&ps[1])?);
                (c1 != c2).then(|| pair_index(c1, c2))
            }
        };
        let m = side(mover, a)?;
        let t = side(1 - mover, b)?;
        if !tables().entry_valid(a, b, m, t) {
            return None;
        }
        Some((layer_of(a, b), m * SIDE[b] + t))
    }

    /// The chance that `seat` wins from `state`, with best play by both sides, if the
    /// position is covered: at a throw node from the table, at a decision node the best
    /// action's value, at the end 1 or 0. The throw count is ignored (no cap).
    pub fn win_probability(&self, state: &State, seat: usize) -> Option<f64> {
        if seat > 1 || !self.covers(state) {
            return None;
        }
        if state.count()[0] == 0 || state.count()[1] == 0 {
            return Some(if state.count()[seat] > 0 { 1.0 } else { 0.0 });
        }
        let mover = (state.turn() & 1) as usize;
        let v = if state.pending().is_some() {
            self.decision_value(state)?
        } else {
            self.throw_node_value(state)?
        };
        Some(if seat == mover { v } else { 1.0 - v })
    }

    /// The mover's chance of winning at a throw node.
    fn throw_node_value(&self, state: &State) -> Option<f64> {
        let (l, i) = self.entry(state)?;
        self.tables[l].get(i).map(|&q| f64::from(q) / SCALE)
    }

    /// The mover's chance of winning after `action` at a decision node (the action must be
    /// legal). Allocates nothing.
    fn after_action(
        &self,
        game: &Issiren,
        state: &State,
        mover: usize,
        action: Action,
    ) -> Option<f64> {
        let mut child = *state;
        game.apply_action_unchecked(&mut child, action);
        match game.node(&child) {
            Node::End => Some(if child.count()[mover] > 0 { 1.0 } else { 0.0 }),
            Node::Throw(next) => {
                let v = self.throw_node_value(&child)?;
                Some(if next == mover { v } else { 1.0 - v })
            }
            Node::Decide(_) => None,
        }
    }

    /// The mover's chance at a decision node: the best action's. Allocates nothing.
    fn decision_value(&self, state: &State) -> Option<f64> {
        let game = uncapped();
        let Node::Decide(mover) = game.node(state) else {
            return None;
        };
        let mut actions = ActionList::new();
        game.legal_actions(state, &mut actions);
        let mut best = f64::NEG_INFINITY;
        for &a in &actions {
            best = best.max(self.after_action(game, state, mover, a)?);
        }
        Some(best)
    }

    /// The mover's chance of winning after each legal action at a decision node, in the
    /// order of the legal actions.
    pub fn action_values(&self, state: &State) -> Option<Vec<(Action, f64)>> {
        let game = uncapped();
        if !self.covers(state) {
            return None;
        }
        let Node::Decide(mover) = game.node(state) else {
            return None;
        };
        let mut actions = ActionList::new();
        game.legal_actions(state, &mut actions);
        actions
            .iter()
            .map(|&a| Some((a, self.after_action(game, state, mover, a)?)))
            .collect()
    }

    /// The best action at a decision node (the first listed among equal values).
    pub fn best_action(&self, state: &State) -> Option<Action> {
        let values = self.action_values(state)?;
        let mut best: Option<(Action, f64)> = None;
        for (a, v) in values {
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((a, v));
            }
        }
        best.map(|(a, _)| a)
    }
}

fn uncapped() -> &'static Issiren {
    static G: OnceLock<Issiren> = OnceLock::new();
    G.get_or_init(|| {
        let mut g = Issiren::with_seats(2).expect("issiren has two seats");
        g.set_option("max_throws", &u32::MAX.to_string())
            .expect("max_throws takes any positive u32");
        g
    })
}

impl ExactValues<Issiren> for Tablebase {
    fn scores(&self, _game: &Issiren, state: &State) -> Option<SeatValues> {
        let p0 = self.win_probability(state, 0)?;
        let mut out = [0.0; MAX_SEATS];
        out[0] = p0;
        out[1] = 1.0 - p0;
        Some(out)
    }
}

/// FNV-1a, 64-bit.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The tablebase named by an agent's `tablebase` parameter, loaded or built once per
/// process and shared: `build` builds it in memory, anything else is a file path.
///
/// # Errors
/// [`TablebaseError`] when the file cannot be loaded.
pub fn shared(source: &str) -> Result<Arc<Tablebase>, TablebaseError> {
    type Slot = Arc<OnceLock<Result<Arc<Tablebase>, TablebaseError>>>;
    static CACHE: OnceLock<Mutex<Vec<(String, Slot)>>> = OnceLock::new();
    let slot = {
        let mut cache = CACHE
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match cache.iter().find(|(k, _)| k == source) {
            Some((_, s)) => s.clone(),
            None => {
                let s: Slot = Arc::default();
                cache.push((source.to_string(), s.clone()));
                s
            }
        }
    };
    slot.get_or_init(|| {
        if source == "build" {
            Ok(Arc::new(Tablebase::build().0))
        } else if source == CACHE_SOURCE {
            let path = cache_path()?;
            if !path.exists() {
                return Err(TablebaseError::NotCached { path });
            }
            Tablebase::load(&path)
                .map(Arc::new)
                .map_err(|e| TablebaseError::CacheUnusable {
                    path,
                    source: Arc::new(e),
                })
        } else {
            Tablebase::load(Path::new(source))
                .map(Arc::new)
                .map_err(|e| TablebaseError::File {
                    file: source.to_string(),
                    source: Arc::new(e),
                })
        }
    })
    .clone()
}

/// The `tablebase` parameter value naming the tablebase file in the cache directory
/// ([`cache_path`]).
pub const CACHE_SOURCE: &str = "cache";

/// The environment variable naming the cache directory, before `XDG_CACHE_HOME`.
pub const CACHE_ENV: &str = "STICKDICE_CACHE";

/// The name of the tablebase file in the cache directory: it carries the format version,
/// so a build that reads another version neither reads nor overwrites it.
pub fn cache_file_name() -> String {
    format!("issiren-tablebase-v{VERSION}.sdtb")
}

/// The cache directory: `$STICKDICE_CACHE` if set (and not empty), else
/// `$XDG_CACHE_HOME/stickdice`, else `$HOME/.cache/stickdice`.
///
/// ```
/// let dir = stickdice_agents::solve::tablebase::cache_dir();
/// // Some directory whenever HOME (or one of the variables) is set.
/// if let Ok(dir) = dir {
///     assert!(dir.is_absolute() || std::env::var_os("STICKDICE_CACHE").is_some());
/// }
/// ```
///
/// # Errors
/// [`TablebaseError::NoCacheDir`] when none of the three variables is set.
pub fn cache_dir() -> Result<PathBuf, TablebaseError> {
    cache_dir_from(|k| std::env::var_os(k))
}

/// [`cache_dir`] with the environment read through `env`.
fn cache_dir_from(
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<PathBuf, TablebaseError> {
    let var = |k: &str| env(k).filter(|v| !v.is_empty());
    if let Some(d) = var(CACHE_ENV) {
        Ok(PathBuf::from(d))
    } else if let Some(d) = var("XDG_CACHE_HOME") {
        Ok(PathBuf::from(d).join("stickdice"))
    } else if let Some(d) = var("HOME") {
        Ok(PathBuf::from(d).join(".cache").join("stickdice"))
    } else {
        Err(TablebaseError::NoCacheDir)
    }
}

/// The tablebase file in the cache directory ([`cache_dir`], [`cache_file_name`]).
///
/// # Errors
/// As [`cache_dir`].
pub fn cache_path() -> Result<PathBuf, TablebaseError> {
    Ok(cache_dir()?.join(cache_file_name()))
}

/// Whether a tablebase file is in the cache (present; whether it is valid is checked
/// when it is loaded). What `stickdice tablebase` reports; no agent's default depends on it.
pub fn cached() -> bool {
    cache_path().is_ok_and(|p| p.is_file())
}

/// What [`build_cached`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum CacheBuild {
    /// A valid tablebase was already there.
    Present(PathBuf),
    /// It was built and written there, with what building cost.
    Built(PathBuf, BuildStats),
}

/// Builds the tablebase into the cache directory unless a valid one is already there:
/// the directory is created, a lock file (`…sdtb.lock`, locked exclusively) keeps two
/// processes from building at once (the second waits, then finds the first one's file),
/// and the file is written under a temporary name and renamed into place, so a reader
/// never sees half a file. A damaged file there is rebuilt (`rebuild` rebuilds in any
/// case). `progress` is called after every sweep as in [`Tablebase::build_with_progress`].
///
/// # Errors
/// [`TablebaseError`] when the directory cannot be made or written.
pub fn build_cached(
    rebuild: bool,
    progress: impl FnMut(usize, usize, f64),
) -> Result<CacheBuild, TablebaseError> {
    let dir = cache_dir()?;
    let path = dir.join(cache_file_name());
    let io = |what: &'static str, p: &Path, e: io::Error| TablebaseError::Io {
        what,
        path: p.to_path_buf(),
        source: Arc::new(e),
    };
    fs::create_dir_all(&dir).map_err(|e| io("create the cache directory", &dir, e))?;
    let lock_path = dir.join(format!("{}.lock", cache_file_name()));
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| io("open the lock file", &lock_path, e))?;
    lock.lock().map_err(|e| io("lock", &lock_path, e))?;
    remove_stale_temporaries(&dir, &cache_file_name());
    if !rebuild && path.is_file() && Tablebase::load(&path).is_ok() {
        return Ok(CacheBuild::Present(path));
    }
    let (tb, stats) = Tablebase::build_with_progress(progress);
    let tmp = dir.join(format!("{}.tmp{}", cache_file_name(), std::process::id()));
    let written = tb
        .save(&tmp)
        .and_then(|()| fs::File::open(&tmp)?.sync_all())
        .and_then(|()| fs::rename(&tmp, &path));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io("write the tablebase to", &path, e));
    }
    drop(lock);
    Ok(CacheBuild::Built(path, stats))
}

/// Removes the temporary files (`NAME.tmpPID`) that builds killed before their rename
/// left in `dir`. Called with the build lock held, so no live build is writing one.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!("{name}.tmp");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let stale = e.file_name().to_str().is_some_and(|n| {
            n.strip_prefix(&prefix)
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        });
        if stale {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The position of entry `k` counted over all four tables in order (1v1, 1v2, 2v1, 2v2, as
/// [`table_sizes`] lists them), as [`position`] gives it; `None` past the last entry or for
/// an entry that is no real position.
pub fn entry_position(k: usize, mover: usize) -> Option<State> {
    let mut k = k;
    for (table, size) in table_sizes().into_iter().enumerate() {
        if k < size {
            return position(table, k, mover);
        }
        k -= size;
    }
    None
}

/// Helpers for tests and reports: every real position of the tablebase in a table, as a
/// state (`turn` = the mover, seat 0 or 1).
pub fn position(table: usize, index: usize, mover: usize) -> Option<State> {
    let t = tables();
    let (a, b) = *LAYERS.get(table)?;
    let cols = SIDE[b];
    let (m, o) = (index / cols, index % cols);
    if m >= SIDE[a] || !t.entry_valid(a, b, m, o) {
        return None;
    }
    let pieces = |n: usize, i: usize| -> Vec<Piece> {
        let cs: Vec<usize> = if n == 1 {
            vec![i]
        } else {
            let (x, y) = t.pair_of[i];
            vec![x as usize, y as usize]
        };
        cs.into_iter()
            .map(|c| {
                if c >= CIRCUIT_LEN as usize {
                    Piece::start(config_pos(c))
                } else {
                    Piece::moved(c as u8)
                }
            })
            .collect()
    };
    let mine = pieces(a, m);
    let theirs = pieces(b, o);
    let (p1, p2) = if mover == 0 {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    let position = Position {
        pieces: [p1, p2],
        turn: mover as u8,
        ..Position::default()
    };
    // Unchecked as before: the table's configurations are positions of the rules.
    State::from_position_unvalidated(&position).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killed_builds_temporary_file_is_removed_by_the_next_build() {
        let dir = std::env::temp_dir().join(format!("stickdice-stale-tmp-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let name = cache_file_name();
        let keep = [
            name.clone(),
            format!("{name}.lock"),
            format!("{name}.tmpx"),
            "other.tmp1".into(),
        ];
        for f in keep
            .iter()
            .chain([&format!("{name}.tmp123"), &format!("{name}.tmp4")])
        {
            fs::write(dir.join(f), "x").unwrap();
        }
        remove_stale_temporaries(&dir, &name);
        let mut left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut want = keep.to_vec();
        want.sort();
        assert_eq!(left, want);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_cache_directory_follows_the_variables_in_order() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let all = env(&[
            ("STICKDICE_CACHE", "/a"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(cache_dir_from(all).unwrap(), PathBuf::from("/a"));
        let xdg = env(&[
            ("STICKDICE_CACHE", ""),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(cache_dir_from(xdg).unwrap(), PathBuf::from("/x/stickdice"));
        let home = env(&[("HOME", "/h")]);
        assert_eq!(
            cache_dir_from(home).unwrap(),
            PathBuf::from("/h/.cache/stickdice")
        );
        assert!(cache_dir_from(env(&[]))
            .unwrap_err()
            .to_string()
            .contains("STICKDICE_CACHE"));
        assert!(cache_file_name().contains(&format!("v{VERSION}")));
    }
}
