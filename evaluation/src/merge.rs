//! Merging the shards of a tournament split over machines into one report.
//!
//! A tournament run with `--shard I/K` on `K` machines (or `K` tasks of a Slurm array job)
//! leaves `K` folders, each with a log of its share of the games (whole table-rotations
//! dealt round-robin: see [`Shard`]). [`merge`] reads them all and, before writing
//! anything, checks that
//!
//! * every folder holds a shard log (an empty folder or a missing log is named);
//! * every header is this tournament's configuration, written by this program version, and
//!   all shards split it the same way (`/K`), each shard number given once;
//! * every game line is valid and replays through the rules exactly as on resume
//!   ([`Tournament::verify`]: the schedule's seating and seeds, the duplicate-dice throws,
//!   legal actions, the logged ranking), belongs to its shard, and appears only once over
//!   all shards (an overlap names both shards and lines);
//! * no game is missing: otherwise the error lists exactly the missing game indices, shard
//!   by shard, so that only those shards need to be run again (they resume their logs).
//!
//! Only then are the report files written, into an output folder that must not be one of
//! the shards nor hold a log of its own. The report is built from the games alone, in index
//! order, exactly as [`Tournament::run`] builds it, so it is byte-identical to the report
//! of the same tournament played on one machine, whatever the number of shards and the
//! order in which they are given.
//!
//! **SPRT over shards.** A shard does not stop on its own (it holds only some rotations).
//! The tournament is played in fixed-size batches of rotations: every shard runs with
//! `--until-rotation R` for `R = B, 2B, 3B, …` (each run resumes the shard's log and plays
//! only its new rotations), and after each batch `merge` evaluates the test over the
//! complete prefix of rotations, rotation by rotation as one machine does. When it decides
//! (or the schedule's last rotation is reached), the report counts the games up to the
//! deciding rotation — the same report as one machine, which stops at the same rotation —
//! and the games of the batch past it stay unused. When it does not, [`MergeSummary::sprt`]
//! holds the test at the merged count and no report is written: play the next batch.
//!
//! **Luck-adjusted scores.** [`merge_with`] and [`MergeOptions::luck`] add the luck section
//! of the report (`stickdice merge --luck`, see [`crate::review`]): every counted game's luck
//! is measured from its logged events at merge time, against the same fixed reference as
//! `stickdice tournament --luck`, so the merged report equals that of the tournament played
//! on one machine with `--luck` (shards play without it: a shard writes no report). With
//! [`LuckOptions::sprt`] (`--luck-adjusted`) the SPRT over the merged batches runs on the
//! adjusted scores, as on one machine.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read as _};
use std::path::{Path, PathBuf};

use stickdice::Game;

use rayon::prelude::*;

use crate::log::{self, GameRecord, LogError, LogLine, TournamentConfig, PROGRAM_VERSION};
use crate::report::{Report, SprtReport};
use crate::review::{LuckOptions, LuckReport};
use crate::schedule::Shard;
use crate::stats::SprtDecision;
use crate::tournament::{luck_adjusted, Progress, ProgressFn, Tournament, LOG_FILE};

/// Why shards cannot be merged. Nothing is written when merging fails.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MergeError {
    /// No shard folder was given.
    NoShards,
    /// The output folder is one of the shard folders.
    OutputIsShard {
        /// The output folder.
        out: PathBuf,
        /// The shard folder.
        shard: PathBuf,
    },
    /// The output folder holds a tournament log.
    OutputHoldsLog {
        /// The output folder.
        out: PathBuf,
    },
    /// A game's luck could not be measured.
    Luck {
        /// The game's index.
        game: usize,
        /// Why.
        source: crate::review::ReviewError,
    },
    /// The worker threads could not be started.
    Threads {
        /// The number asked for.
        threads: usize,
        /// What the system said.
        message: String,
    },
    /// A shard folder or a line of its log is wrong.
    Shard {
        /// The shard's folder, or its log.
        path: PathBuf,
        /// The line of the log (1 is the header), when one line is to blame.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// Games of the tournament are in none of the shards.
    Missing {
        /// Each shard (`I/K`) missing games, with their indices, in order.
        by_shard: Vec<(Shard, Vec<usize>)>,
        /// Shard numbers of the split that were not given at all.
        absent: Vec<Shard>,
        /// Torn last lines found (each a game cut off while being written, now missing).
        notices: Vec<String>,
    },
    /// Another run (a merge or a tournament) holds the output folder's lock.
    Busy {
        /// The output folder.
        out: PathBuf,
    },
    /// A report file cannot be written.
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// Game indices as ranges: `0-3, 8, 12-15`.
pub fn ranges(indices: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            indices[i].to_string()
        } else {
            format!("{}-{}", indices[i], indices[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

impl core::fmt::Display for MergeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MergeError::NoShards => f.write_str("give at least one shard folder"),
            MergeError::OutputIsShard { out, shard } => write!(
                f,
                "the output folder {} is the shard folder {}: write the merged report elsewhere",
                out.display(),
                shard.display()
            ),
            MergeError::OutputHoldsLog { out } => write!(
                f,
                "the output folder {} holds a tournament log ({LOG_FILE}): write the merged report into a folder of its own",
                out.display()
            ),
            MergeError::Luck { game, source } => write!(f, "the luck of game {game}: {source}"),
            MergeError::Threads { threads, message } => {
                write!(f, "cannot start {threads} threads: {message}")
            }
            MergeError::Shard {
                path,
                line: Some(line),
                message,
            } => write!(f, "{} line {line}: {message}", path.display()),
            MergeError::Shard {
                path,
                line: None,
                message,
            } => write!(f, "{}: {message}", path.display()),
            MergeError::Missing {
                by_shard,
                absent,
                notices,
            } => {
                let count: usize = by_shard.iter().map(|(_, g)| g.len()).sum();
                write!(f, "{count} games are in none of the shards:")?;
                for (s, games) in by_shard {
                    write!(f, "\n  shard {s}: games {}", ranges(games))?;
                }
                if !absent.is_empty() {
                    let names: Vec<String> = absent.iter().map(|s| s.to_string()).collect();
                    write!(f, "\n  (shards not given: {})", names.join(", "))?;
                }
                for n in notices {
                    write!(f, "\n  ({n})")?;
                }
                write!(
                    f,
                    "\nrun those shards again (each resumes its log), then merge again; no file was written"
                )
            }
            MergeError::Busy { out } => write!(
                f,
                "{} is in use by another stickdice run (it holds the lock on {}); wait for it to finish, or write the merged report elsewhere",
                out.display(),
                out.join(crate::tournament::LOCK_FILE).display()
            ),
            MergeError::Io { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for MergeError {}

fn shard_error(path: &Path, line: Option<usize>, message: impl Into<String>) -> MergeError {
    MergeError::Shard {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

impl From<LogError> for MergeError {
    fn from(e: LogError) -> Self {
        match e {
            LogError::Io { path, message } => MergeError::Shard {
                path,
                line: None,
                message,
            },
            LogError::BadLine {
                path,
                line,
                message,
            } => MergeError::Shard {
                path,
                line: Some(line),
                message,
            },
        }
    }
}

/// What a merge found and did.
#[derive(Clone, Debug)]
pub struct MergeSummary {
    /// The report written (`None`: an SPRT not decided at the merged count).
    pub report: Option<Report>,
    /// With an SPRT, the test at the merged count (the deciding rotation, when it decided).
    pub sprt: Option<SprtReport>,
    /// Complete rotations (table-rotations) from the start, over all shards.
    pub complete_units: usize,
    /// Games read from the shards.
    pub games: usize,
    /// With an SPRT not decided: the games missing before the last logged one.
    pub missing: Vec<usize>,
    /// Things the user should know (torn last lines, games past the SPRT decision).
    pub notices: Vec<String>,
}

/// The log's path in a shard folder, checking that it is there.
fn log_in(dir: &Path) -> Result<PathBuf, MergeError> {
    if !dir.is_dir() {
        return Err(shard_error(dir, None, "no such folder"));
    }
    let path = dir.join(LOG_FILE);
    if !path.is_file() {
        return Err(shard_error(
            dir,
            None,
            format!("holds no tournament log ({LOG_FILE}): an empty folder, or a shard that never started"),
        ));
    }
    Ok(path)
}

/// The tournament configuration in the header of the first shard's log (to build the
/// tournament to merge into).
///
/// # Errors
/// No folders, or the first one holds no readable header.
pub fn read_config(dirs: &[PathBuf]) -> Result<TournamentConfig, MergeError> {
    let dir = dirs.first().ok_or(MergeError::NoShards)?;
    let path = log_in(dir)?;
    let file = stickdice_agents::files::open_regular(&path)
        .map_err(|e| shard_error(&path, None, e.to_string()))?;
    let mut first = String::new();
    BufReader::new(file)
        .take(crate::log::MAX_LINE_BYTES + 1)
        .read_line(&mut first)
        .map_err(|e| shard_error(&path, Some(1), e.to_string()))?;
    match serde_json::from_str::<LogLine>(first.trim_end()) {
        Ok(LogLine::Tournament { config, .. }) => Ok(config),
        Ok(LogLine::Game(_)) => Err(shard_error(
            &path,
            Some(1),
            "the tournament header must be the first line",
        )),
        Err(_) if first.is_empty() => Err(shard_error(&path, None, "the log is empty")),
        Err(e) => Err(shard_error(
            &path,
            Some(1),
            format!("not a tournament header: {e}"),
        )),
    }
}

/// Whether two paths name the same folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// What [`merge_with`] adds to a plain [`merge`].
#[derive(Default)]
pub struct MergeOptions {
    /// Luck-adjusted scores in the report (and, with [`LuckOptions::sprt`], the SPRT on
    /// them), each counted game's luck measured from its logged events.
    pub luck: Option<LuckOptions>,
    /// Worker threads for measuring luck (`None`: rayon's default, one per core). The
    /// result does not depend on it.
    pub threads: Option<usize>,
    /// Called after each game whose luck is measured (`total`: the games to measure).
    pub luck_progress: Option<ProgressFn>,
}

impl std::fmt::Debug for MergeOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MergeOptions")
            .field("luck", &self.luck)
            .field("threads", &self.threads)
            .field("luck_progress", &self.luck_progress.is_some())
            .finish()
    }
}

/// Merges the shard logs in `dirs` (any order) into the report of tournament `t`, written
/// in `out`. See the module documentation for the checks.
///
/// # Errors
/// A [`MergeError`] naming the shard and line at fault, or listing the missing games;
/// no file is written then.
pub fn merge<G: Game>(
    t: &Tournament<G>,
    out: &Path,
    dirs: &[PathBuf],
) -> Result<MergeSummary, MergeError> {
    merge_with(t, out, dirs, &MergeOptions::default())
}

/// As [`merge`], with [`MergeOptions`] (luck-adjusted scores).
///
/// # Errors
/// As [`merge`], and [`MergeError::Luck`] when a game's luck cannot be measured
/// ([`MergeError::Threads`] when the threads to measure it cannot be started).
pub fn merge_with<G: Game>(
    t: &Tournament<G>,
    out: &Path,
    dirs: &[PathBuf],
    options: &MergeOptions,
) -> Result<MergeSummary, MergeError> {
    check_output(out, dirs)?;
    let seats = t.schedule().seats();
    let total = t.schedule().len();
    let Shards {
        mut done,
        shards,
        notices,
    } = read_shards(t, dirs, options.luck.is_some())?;
    let missing_in = |done: &BTreeMap<usize, GameRecord>, below: usize| -> Vec<usize> {
        (0..below.min(total))
            .filter(|i| !done.contains_key(i))
            .collect()
    };
    let mut summary = MergeSummary {
        report: None,
        sprt: None,
        complete_units: 0,
        games: done.len(),
        missing: Vec::new(),
        notices,
    };
    // Each game's luck, once measured (the SPRT on adjusted scores needs it first).
    let mut measured: Option<BTreeMap<usize, Vec<f64>>> = None;
    let (counted, sprt) = match t.config().sprt {
        None => {
            let missing = missing_in(&done, total);
            if !missing.is_empty() {
                return Err(missing_games(t, &missing, &shards, summary.notices));
            }
            summary.complete_units = total / seats;
            (total, None)
        }
        Some(test) => {
            if let Some(l) = options.luck.as_ref().filter(|l| l.sprt) {
                measured = Some(measure_luck(l, options, &done)?);
            }
            let (prefix, status) = match &measured {
                Some(lucks) => {
                    let adjust = |records: &[&GameRecord]| {
                        Ok(records
                            .iter()
                            .map(|g| luck_adjusted(g, &lucks[&g.index]))
                            .collect())
                    };
                    t.sprt_status_with::<MergeError>(test, &done, Some(&adjust))?
                }
                None => t.sprt_status(test, &done),
            };
            summary.complete_units = prefix;
            let units = total / seats;
            if status.decision == SprtDecision::Continue && status.rotations < units {
                let last = done.keys().next_back().map_or(0, |&i| i + 1);
                summary.missing = missing_in(&done, last.div_ceil(seats) * seats);
                summary.sprt = Some(status);
                return Ok(summary);
            }
            (status.rotations * seats, Some(status))
        }
    };
    if done.len() > counted {
        summary.notices.push(format!(
            "{} games played past the SPRT decision are in the shards but not counted",
            done.len() - counted
        ));
    }
    let mut report = Report::build(
        t.config(),
        t.labels(),
        t.schedule(),
        &(0..counted).map(|i| &done[&i]).collect::<Vec<_>>(),
        sprt.clone(),
    );
    if let Some(l) = &options.luck {
        done.retain(|&i, _| i < counted);
        let lucks = match measured {
            Some(m) => m,
            None => measure_luck(l, options, &done)?,
        };
        let records: Vec<&GameRecord> = done.values().collect();
        let lucks: Vec<Vec<f64>> = done.keys().map(|i| lucks[i].clone()).collect();
        report.add_luck(LuckReport::build(l, t.labels(), seats, &records, &lucks));
    }
    write_merged(t, out, &report)?;
    summary.report = Some(report);
    summary.sprt = sprt;
    Ok(summary)
}

/// Refuses an output folder the merge must not write into: no shard folders given, the
/// output folder one of them, or a folder that holds a tournament log.
fn check_output(out: &Path, dirs: &[PathBuf]) -> Result<(), MergeError> {
    if dirs.is_empty() {
        return Err(MergeError::NoShards);
    }
    for d in dirs {
        if same_folder(d, out) {
            return Err(MergeError::OutputIsShard {
                out: out.to_path_buf(),
                shard: d.clone(),
            });
        }
    }
    refuse_a_log_in(out)
}

/// Refuses an output folder that holds a tournament log.
fn refuse_a_log_in(out: &Path) -> Result<(), MergeError> {
    if out.join(LOG_FILE).exists() {
        return Err(MergeError::OutputHoldsLog {
            out: out.to_path_buf(),
        });
    }
    Ok(())
}

/// What the shard folders hold, checked.
struct Shards {
    /// Every game logged, by index (without its events unless luck is measured).
    done: BTreeMap<usize, GameRecord>,
    /// Each shard read, with its log's path, in the order of the folders.
    shards: Vec<(Shard, PathBuf)>,
    /// Torn last lines.
    notices: Vec<String>,
}

/// Reads the log of every shard folder and checks it against `t` and the others: the same
/// tournament and program version, the same split, no shard twice, every game verified,
/// in its shard and logged once. The games' events are kept only with `keep_events`.
fn read_shards<G: Game>(
    t: &Tournament<G>,
    dirs: &[PathBuf],
    keep_events: bool,
) -> Result<Shards, MergeError> {
    let seats = t.schedule().seats();
    let tables = t.schedule().tables().len();
    let mut done: BTreeMap<usize, GameRecord> = BTreeMap::new();
    // Where each game was found: (shard folder's position in `dirs`, line).
    let mut found: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    let mut shards: Vec<(Shard, PathBuf)> = Vec::new();
    let mut notices = Vec::new();
    for (k, dir) in dirs.iter().enumerate() {
        let path = log_in(dir)?;
        let contents =
            log::read(&path)?.ok_or_else(|| shard_error(&path, None, "the log is empty"))?;
        let shard = check_header(t, &path, &contents, &shards)?;
        for (line, g) in contents.games {
            let bad = |message: String| shard_error(&path, Some(line), message);
            t.verify(&g).map_err(|e| bad(e.to_string()))?;
            if !shard.holds(g.index, seats, tables) {
                return Err(bad(format!(
                    "game {} does not belong to shard {shard}",
                    g.index
                )));
            }
            if let Some(&(other, other_line)) = found.get(&g.index) {
                return Err(bad(if other == k {
                    format!("game {} is logged twice (also line {other_line})", g.index)
                } else {
                    format!(
                        "game {} is also in {} line {other_line} (overlapping shards)",
                        g.index,
                        dirs[other].join(LOG_FILE).display()
                    )
                }));
            }
            found.insert(g.index, (k, line));
            // Luck is measured from the events; without it they are not needed any more
            // (but for the first action, as a tournament keeps it).
            let mut g = g;
            if !keep_events {
                crate::tournament::slim(&mut g);
            }
            done.insert(g.index, g);
        }
        if let Some((line, _)) = contents.torn_tail {
            notices.push(format!(
                "{} line {line} was cut off (the shard was stopped while writing it): its game is missing until the shard resumes",
                path.display()
            ));
        }
        shards.push((shard, path));
    }
    Ok(Shards {
        done,
        shards,
        notices,
    })
}

/// The shard a log's header names, checked against `t` (the same tournament, the same
/// program version) and the shards read before it (the same split, not the same shard).
fn check_header<G: Game>(
    t: &Tournament<G>,
    path: &Path,
    contents: &log::LogContents,
    shards: &[(Shard, PathBuf)],
) -> Result<Shard, MergeError> {
    let header = |message: String| shard_error(path, Some(1), message);
    let differences = t.config().differences(&contents.config);
    if !differences.is_empty() {
        return Err(header(format!(
            "the log of another tournament ({}: merged vs this shard)",
            differences.join("; ")
        )));
    }
    if contents.program.as_deref() != Some(PROGRAM_VERSION) {
        return Err(header(format!(
            "written by program version {}; this is version {PROGRAM_VERSION}: merge with the version that played the shards",
            contents.program.as_deref().unwrap_or("unknown (older)")
        )));
    }
    let shard = contents.shard.unwrap_or(Shard::WHOLE);
    if let Some((first, first_path)) = shards.first() {
        if first.count != shard.count {
            return Err(header(format!(
                "shard {shard}, but {} is shard {first}: all shards must split the tournament the same way",
                first_path.display()
            )));
        }
    }
    if let Some((_, other)) = shards.iter().find(|(s, _)| *s == shard) {
        return Err(header(format!(
            "shard {shard} again: {} is shard {shard} too (overlapping shards)",
            other.display()
        )));
    }
    Ok(shard)
}

/// The error of a merge without an SPRT that lacks games: the `missing` games by the shard
/// that plays them, and the shards no folder holds.
fn missing_games<G: Game>(
    t: &Tournament<G>,
    missing: &[usize],
    shards: &[(Shard, PathBuf)],
    notices: Vec<String>,
) -> MergeError {
    let seats = t.schedule().seats();
    let tables = t.schedule().tables().len();
    let count = shards[0].0.count;
    let mut by_shard: Vec<(Shard, Vec<usize>)> = Vec::new();
    for i in 0..count {
        let s = Shard { index: i, count };
        let games: Vec<usize> = missing
            .iter()
            .copied()
            .filter(|&g| s.holds(g, seats, tables))
            .collect();
        if !games.is_empty() {
            by_shard.push((s, games));
        }
    }
    let absent = (0..count)
        .map(|i| Shard { index: i, count })
        .filter(|s| !shards.iter().any(|(x, _)| x == s))
        .collect();
    MergeError::Missing {
        by_shard,
        absent,
        notices,
    }
}

/// Writes the merged report into `out` (created if need be), under the folder's lock, so
/// that two merges into one folder cannot leave a mix of both sets of files.
fn write_merged<G: Game>(t: &Tournament<G>, out: &Path, report: &Report) -> Result<(), MergeError> {
    std::fs::create_dir_all(out).map_err(|e| MergeError::Io {
        path: out.to_path_buf(),
        message: e.to_string(),
    })?;
    // Held while the report files are written: two merges into one folder cannot leave a
    // mix of both sets (the second waits for none: it is refused).
    let _lock = crate::tournament::lock_folder(out).map_err(|e| match e {
        crate::TournamentError::Busy { out } => MergeError::Busy { out },
        crate::TournamentError::Io { path, message } => MergeError::Io { path, message },
        // (Locking fails only as Busy or Io; anything else is the folder's failure too.)
        other => MergeError::Io {
            path: out.to_path_buf(),
            message: other.to_string(),
        },
    })?;
    refuse_a_log_in(out)?;
    t.write_report(out, report).map_err(|e| match e {
        crate::TournamentError::Io { path, message } => MergeError::Io { path, message },
        other => MergeError::Io {
            path: out.to_path_buf(),
            message: other.to_string(),
        },
    })
}

/// Each game's luck per seat (in parallel; each game's is independent of the others and of
/// the thread count).
fn measure_luck(
    luck: &LuckOptions,
    options: &MergeOptions,
    games: &BTreeMap<usize, GameRecord>,
) -> Result<BTreeMap<usize, Vec<f64>>, MergeError> {
    let games: Vec<&GameRecord> = games.values().collect();
    let measured = std::sync::atomic::AtomicUsize::new(0);
    let measure = || {
        games
            .par_iter()
            .map(|g| {
                let l = (luck.luck)(g)
                    .map(|l| (g.index, l))
                    .map_err(|source| MergeError::Luck {
                        game: g.index,
                        source,
                    });
                if let Some(p) = &options.luck_progress {
                    let done = measured.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    p(Progress {
                        done,
                        total: games.len(),
                    });
                }
                l
            })
            .collect::<Result<BTreeMap<_, _>, _>>()
    };
    match options.threads {
        None => measure(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| MergeError::Threads {
                threads: n,
                message: e.to_string(),
            })?
            .install(measure),
    }
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn ranges_are_compact_and_exact() {
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(ranges(&[0, 1, 2, 3, 8, 12, 13]), "0-3, 8, 12-13");
    }
}
