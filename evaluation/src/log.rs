//! The tournament log: an append-only JSON-lines file, `games.jsonl`.
//!
//! The first line describes the tournament ([`TournamentConfig`]); every further line is
//! one finished game ([`GameRecord`]), written and flushed as the game finishes, in the
//! order games finish (not their index order). Each game line holds everything needed to
//! check it, replay it and resume the tournament: its index, table, rotation and seating,
//! the game and agent seeds, every throw (a number: marked sides up) and action (a string:
//! the game's notation), the ranking, the number of throws, the time each seat's agent
//! used, and the failure that ended it, if any.
//!
//! The header also names the program version that wrote the log, and, for one shard of a
//! tournament split over machines (`--shard I/K`), the shard; a shard's log holds only its
//! games (see [`crate::schedule::Shard`]).
//!
//! ```text
//! {"type":"tournament","version":1,"config":{"game":"issiren","players":2,...},"program":"0.1.0","shard":{"index":1,"count":4}}
//! {"type":"game","index":1,"table":0,"rotation":0,"shift":1,"game_seed":…,"seating":[1,0],
//!  "agent_seeds":[…],"events":[3,"a1",5,"pass",…],"places":[1,0],"scores":[0.0,1.0],
//!  "throws":211,"time_s":[0.0001,0.0002],"failure":null}
//! ```

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use stickdice::described::file::Loaded;
use stickdice::described::{Base, DescriptionError};
use stickdice::{AnyGame, ConfigError, Game};

use crate::arena::Failure;
use crate::schedule::{Format, Shard};
use crate::stats::Sprt;

/// The longest line read (a game line of the longest game is well under a megabyte): a
/// longer one, such as the endless line of `/dev/zero`, is refused, not read forever.
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// The log format's version, written in the header.
pub const LOG_VERSION: u32 = 1;

/// The version of the program writing logs, written in the header: shards merge only with
/// shards of the same version.
pub const PROGRAM_VERSION: &str = env!("CARGO_PKG_VERSION");

/// What identifies a tournament: two runs with equal configurations play the same games.
/// (The thread count is not part of it: it does not change the results.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The game's command-line name.
    pub game: String,
    /// The number of seats.
    pub players: usize,
    /// Every rule option, `key=value`, as the game reports them.
    pub options: Vec<String>,
    /// The agents, as spec strings (or names, for agents not built from specs).
    pub agents: Vec<String>,
    /// Round-robin or gauntlet.
    pub format: Format,
    /// Games per table (whole rotations).
    pub games_per_table: usize,
    /// The tournament seed.
    pub seed: u64,
    /// The SPRT, for a two-agent match that stops when it decides.
    pub sprt: Option<Sprt>,
    /// For a game loaded from a description file (`--game-file`): the description, so
    /// that the log is self-contained. Absent for the games of the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<LoggedDescription>,
}

/// A description loaded from a file, as a log records it: its name, its digest
/// ([`Base::digest`](stickdice::described::Base::digest)) and its whole text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedDescription {
    /// The description's name.
    pub name: String,
    /// The digest of its content.
    pub digest: String,
    /// Its text.
    pub text: String,
}

impl LoggedDescription {
    /// The record of a loaded description.
    pub fn of(loaded: &Loaded) -> LoggedDescription {
        LoggedDescription {
            name: loaded.name().to_string(),
            digest: loaded.digest().to_string(),
            text: loaded.base().text().to_string(),
        }
    }

    /// The record of the description a game plays, if it plays one loaded at run time.
    pub fn of_game<G: Game>(game: &G) -> Option<LoggedDescription> {
        game.loaded_description().map(LoggedDescription::of)
    }
}

/// The game a log's games were played in could not be set up again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoggedGameError {
    /// The logged configuration is refused (an unknown game, a bad option).
    Config(ConfigError),
    /// The description the log records does not read.
    Description(DescriptionError),
    /// The description given (`--game-file`) is not the one the log was played with.
    DifferentDescription {
        /// The logged description's name and digest.
        logged: (String, String),
        /// The given description's name and digest.
        given: (String, String),
    },
    /// A description was given (`--game-file`) for a log of a game of the list.
    NotADescription {
        /// The logged game.
        game: String,
    },
}

impl core::fmt::Display for LoggedGameError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LoggedGameError::Config(e) => e.fmt(f),
            LoggedGameError::Description(e) => write!(f, "the log's description: {e}"),
            LoggedGameError::DifferentDescription { logged, given } => write!(
                f,
                "the log was played with the description {} (digest {}), not the one given, \
                 {} (digest {}): give the file it was played with, or no --game-file to use \
                 the text the log records",
                logged.0, logged.1, given.0, given.1
            ),
            LoggedGameError::NotADescription { game } => write!(
                f,
                "the log was played in the game {game} of the list, not with a description \
                 file: leave out --game-file"
            ),
        }
    }
}

impl std::error::Error for LoggedGameError {}

impl From<ConfigError> for LoggedGameError {
    fn from(e: ConfigError) -> Self {
        LoggedGameError::Config(e)
    }
}

impl TournamentConfig {
    /// The game the log's games were played in: a game of the list by its name, or the
    /// logged description, which `given` (a description loaded with `--game-file`) must be
    /// (same digest); without `given`, the text the log records.
    ///
    /// # Errors
    /// [`LoggedGameError`]: a refused configuration, a description that differs from the
    /// logged one, or one given for a game of the list.
    pub fn game(&self, given: Option<&Arc<Base>>) -> Result<AnyGame, LoggedGameError> {
        let Some(logged) = &self.description else {
            if given.is_some() {
                return Err(LoggedGameError::NotADescription {
                    game: self.game.clone(),
                });
            }
            return Ok(AnyGame::new(&self.game, Some(self.players), &self.options)?);
        };
        let base = match given {
            Some(base) => {
                let digest = base.digest();
                if digest != logged.digest {
                    return Err(LoggedGameError::DifferentDescription {
                        logged: (logged.name.clone(), logged.digest.clone()),
                        given: (base.description().name.clone(), digest),
                    });
                }
                base.clone()
            }
            None => stickdice::described::file::parse("<the log's description>", &logged.text)
                .map_err(LoggedGameError::Description)?,
        };
        Ok(stickdice::described::file::any_game(
            base,
            Some(self.players),
            &self.options,
        )?)
    }
}

impl TournamentConfig {
    /// The fields in which `other` differs from `self`, each as `name: ours vs theirs`.
    pub fn differences(&self, other: &TournamentConfig) -> Vec<String> {
        let mut d = Vec::new();
        let mut check = |name: &str, a: String, b: String| {
            if a != b {
                d.push(format!("{name}: {a} vs {b}"));
            }
        };
        check("game", self.game.clone(), other.game.clone());
        check(
            "players",
            self.players.to_string(),
            other.players.to_string(),
        );
        check("options", self.options.join(" "), other.options.join(" "));
        check("agents", self.agents.join(", "), other.agents.join(", "));
        check("format", self.format.to_string(), other.format.to_string());
        check(
            "games per table",
            self.games_per_table.to_string(),
            other.games_per_table.to_string(),
        );
        check("seed", self.seed.to_string(), other.seed.to_string());
        check("SPRT", sprt_words(&self.sprt), sprt_words(&other.sprt));
        let digest = |c: &TournamentConfig| {
            c.description.as_ref().map_or("none".to_string(), |l| {
                format!("{} (digest {})", l.name, l.digest)
            })
        };
        check("description", digest(self), digest(other));
        d
    }
}

/// An SPRT's settings as the command line gives them, or `none`.
fn sprt_words(sprt: &Option<Sprt>) -> String {
    match sprt {
        None => "none".to_string(),
        Some(s) => format!(
            "--elo0 {} --elo1 {} --alpha {} --beta {}",
            s.elo0, s.elo1, s.alpha, s.beta
        ),
    }
}

/// One throw or action in a logged game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LoggedEvent {
    /// A throw: the number of marked sides up.
    Throw(u8),
    /// An action, in the game's notation.
    Action(String),
}

/// One finished game, as logged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index in the tournament.
    pub index: usize,
    /// Its table.
    pub table: usize,
    /// Its rotation at the table.
    pub rotation: usize,
    /// The seating's shift within the rotation.
    pub shift: usize,
    /// The game seed (the throws).
    pub game_seed: u64,
    /// The agent in each seat (indices into the tournament's agents).
    pub seating: Vec<usize>,
    /// Each seat's agent seed.
    pub agent_seeds: Vec<u64>,
    /// Every throw and action.
    pub events: Vec<LoggedEvent>,
    /// Each seat's place (0 is first; ties share a place).
    pub places: Vec<u8>,
    /// Each seat's score.
    pub scores: Vec<f64>,
    /// The number of throws.
    pub throws: u32,
    /// The time each seat's agent used, in seconds.
    pub time_s: Vec<f64>,
    /// The failure that ended the game, if any.
    pub failure: Option<Failure>,
}

/// A line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum LogLine {
    /// The header.
    Tournament {
        /// The log format's version.
        version: u32,
        /// The tournament.
        config: TournamentConfig,
        /// The version of the program that wrote the log (missing in older logs).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        program: Option<String>,
        /// The shard this log holds, when the tournament is split over machines.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shard: Option<Shard>,
    },
    /// A finished game.
    Game(GameRecord),
}

/// A log that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LogError {
    /// Reading or writing failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A line is not a valid log line, or contradicts the tournament.
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line number (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl core::fmt::Display for LogError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LogError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            LogError::BadLine {
                path,
                line,
                message,
            } => write!(f, "{} line {line}: {message}", path.display()),
        }
    }
}

impl std::error::Error for LogError {}

fn io_error(path: &Path, e: std::io::Error) -> LogError {
    LogError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// A log read back.
#[derive(Clone, Debug, PartialEq)]
pub struct LogContents {
    /// The tournament in the header.
    pub config: TournamentConfig,
    /// The program version in the header (`None` in logs older than the field).
    pub program: Option<String>,
    /// The shard in the header (`None`: the whole tournament).
    pub shard: Option<Shard>,
    /// The games, each with its line number, in file order.
    pub games: Vec<(usize, GameRecord)>,
    /// A last line cut off without its newline (the run was killed while writing it): its
    /// line number and the byte offset where it starts. Not part of `games`.
    pub torn_tail: Option<(usize, u64)>,
}

/// Reads a log. `Ok(None)` when the file is empty.
///
/// # Errors
/// [`LogError::Io`] if the file cannot be read; [`LogError::BadLine`] naming the first line
/// that is not a valid log line: a missing or repeated header, malformed JSON, or fields of
/// the wrong shape. A last line without its newline that does not parse is not an error: it
/// is returned as [`LogContents::torn_tail`].
pub fn read(path: &Path) -> Result<Option<LogContents>, LogError> {
    // Only a regular file: a named pipe or a device would block the reader (a web server's
    // worker, say) or never end.
    let file = stickdice_agents::files::open_regular(path).map_err(|e| io_error(path, e))?;
    let mut reader = BufReader::new(file);
    let mut config = None;
    let mut program = None;
    let mut shard = None;
    let mut games = Vec::new();
    let mut torn_tail = None;
    let mut offset = 0u64;
    let mut buf = Vec::new();
    let mut line_no = 0;
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| io_error(path, e))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        if n as u64 > MAX_LINE_BYTES {
            return Err(LogError::BadLine {
                path: path.to_path_buf(),
                line: line_no,
                message: format!(
                    "longer than {} MiB: not a tournament log line",
                    MAX_LINE_BYTES >> 20
                ),
            });
        }
        let complete = buf.last() == Some(&b'\n');
        let bad = |message: String| LogError::BadLine {
            path: path.to_path_buf(),
            line: line_no,
            message,
        };
        let parsed = std::str::from_utf8(&buf)
            .map_err(|_| "not UTF-8 text".to_string())
            .and_then(|text| {
                serde_json::from_str::<LogLine>(text.trim_end())
                    .map_err(|e| format!("not a tournament log line: {e}"))
            });
        match parsed {
            Err(_) if !complete => {
                torn_tail = Some((line_no, offset));
                break;
            }
            Err(e) => return Err(bad(e)),
            Ok(LogLine::Tournament {
                version,
                config: c,
                program: p,
                shard: sh,
            }) => {
                if config.is_some() {
                    return Err(bad("a second tournament header".into()));
                }
                if line_no != 1 {
                    return Err(bad("the tournament header must be the first line".into()));
                }
                if version != LOG_VERSION {
                    return Err(bad(format!(
                        "log format version {version}; this program reads version {LOG_VERSION}"
                    )));
                }
                if let Some(sh) = sh {
                    Shard::new(sh.index, sh.count).map_err(|e| bad(e.to_string()))?;
                }
                config = Some(c);
                program = p;
                shard = sh;
            }
            Ok(LogLine::Game(g)) => {
                if config.is_none() {
                    return Err(bad("a game before the tournament header".into()));
                }
                // A whole last line whose newline was lost is kept; the writer puts the
                // newline back before appending.
                games.push((line_no, g));
            }
        }
        offset += n as u64;
    }
    match config {
        Some(config) => Ok(Some(LogContents {
            config,
            program,
            shard,
            games,
            torn_tail,
        })),
        None if line_no == 0 => Ok(None),
        None => Err(LogError::BadLine {
            path: path.to_path_buf(),
            line: 1,
            message: "the tournament header is missing or cut off".into(),
        }),
    }
}

/// Appends lines to a log, flushing each.
///
/// A write that fails (a full disk, an I/O error) leaves the file as it was before that
/// write: the writer cuts it back to the end of its last whole line, so the log stays
/// resumable, and refuses every later write (the run must stop; once the fault is fixed the
/// same command resumes it).
#[derive(Debug)]
pub struct LogWriter {
    path: PathBuf,
    file: File,
    /// The length of the file up to its last whole line written.
    whole: u64,
    /// Simulated capacity of the disk, in bytes of file (tests of the failure path).
    capacity: Option<u64>,
    /// Set by the first failed write.
    failed: bool,
}

impl LogWriter {
    /// Creates a new log (replacing any file there) and writes its header.
    ///
    /// # Errors
    /// [`LogError::Io`].
    pub fn create(path: &Path, config: &TournamentConfig) -> Result<LogWriter, LogError> {
        LogWriter::create_shard(path, config, None)
    }

    /// Creates a new log for one shard of the tournament (or the whole, with `None`),
    /// replacing any file there, and writes its header.
    ///
    /// # Errors
    /// [`LogError::Io`].
    pub fn create_shard(
        path: &Path,
        config: &TournamentConfig,
        shard: Option<Shard>,
    ) -> Result<LogWriter, LogError> {
        let file = File::create(path).map_err(|e| io_error(path, e))?;
        let mut w = LogWriter {
            path: path.to_path_buf(),
            file,
            whole: 0,
            capacity: None,
            failed: false,
        };
        w.write_line(&LogLine::Tournament {
            version: LOG_VERSION,
            config: config.clone(),
            program: Some(PROGRAM_VERSION.to_string()),
            shard,
        })?;
        Ok(w)
    }

    /// Opens an existing log to append to, first cutting the file at `truncate_at` (the
    /// start of a torn last line) if given, and making sure it ends with a newline.
    ///
    /// # Errors
    /// [`LogError::Io`].
    pub fn append(path: &Path, truncate_at: Option<u64>) -> Result<LogWriter, LogError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        if let Some(at) = truncate_at {
            file.set_len(at).map_err(|e| io_error(path, e))?;
        }
        let mut len = file.seek(SeekFrom::End(0)).map_err(|e| io_error(path, e))?;
        if len > 0 {
            file.seek(SeekFrom::Start(len - 1))
                .map_err(|e| io_error(path, e))?;
            let mut last = [0u8];
            file.read_exact(&mut last).map_err(|e| io_error(path, e))?;
            file.seek(SeekFrom::End(0)).map_err(|e| io_error(path, e))?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(|e| io_error(path, e))?;
                len += 1;
            }
        }
        Ok(LogWriter {
            path: path.to_path_buf(),
            file,
            whole: len,
            capacity: None,
            failed: false,
        })
    }

    /// Makes every write that would take the file past `bytes` fail as a full disk does,
    /// after writing the part that fits (to test the failure path without filling a disk).
    pub fn simulate_capacity(&mut self, bytes: Option<u64>) {
        self.capacity = bytes;
    }

    /// Writes one line and flushes it to the operating system.
    ///
    /// # Errors
    /// [`LogError::Io`].
    pub fn write_line(&mut self, line: &LogLine) -> Result<(), LogError> {
        let text = encode(line);
        self.write_encoded(&text)
    }

    /// Writes lines made by [`encode`] (so that encoding can happen outside a lock) and
    /// flushes them to the operating system, in one write.
    ///
    /// # Errors
    /// [`LogError::Io`].
    /// [`LogError::Io`]. After a failed write the file is cut back to its last whole line
    /// (the error says whether that worked) and every later write fails.
    pub fn write_encoded(&mut self, text: &str) -> Result<(), LogError> {
        debug_assert!(text.ends_with('\n'));
        if self.failed {
            return Err(LogError::Io {
                path: self.path.clone(),
                message: "an earlier write failed; nothing more is written".into(),
            });
        }
        // One write of the whole line: a kill leaves at most one torn last line.
        let written = self.write_all(text.as_bytes());
        match written {
            Ok(()) => {
                self.whole += text.len() as u64;
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                // Cut the torn fragment off, so later lines never follow it and the log
                // resumes as it was before this write.
                let cut = self
                    .file
                    .set_len(self.whole)
                    .and_then(|()| self.file.seek(SeekFrom::Start(self.whole)).map(|_| ()));
                let message = match cut {
                    Ok(()) => format!(
                        "writing the log failed: {e}; the log was cut back to its last whole line, so the same command resumes it once the fault is fixed"
                    ),
                    Err(cut) => format!(
                        "writing the log failed: {e}; cutting the log back to its last whole line (byte {}) failed too: {cut}; the next run drops the cut-off last line",
                        self.whole
                    ),
                };
                Err(LogError::Io {
                    path: self.path.clone(),
                    message,
                })
            }
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if let Some(cap) = self.capacity {
            let room = cap.saturating_sub(self.whole);
            if bytes.len() as u64 > room {
                self.file.write_all(&bytes[..room as usize])?;
                self.file.flush()?;
                return Err(std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "No space left on device (simulated)",
                ));
            }
        }
        self.file.write_all(bytes)?;
        self.file.flush()
    }
}

/// A log line as text, with its newline.
pub fn encode(line: &LogLine) -> String {
    let mut text = serde_json::to_string(line).expect("log lines serialize");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> TournamentConfig {
        TournamentConfig {
            game: "race".into(),
            players: 2,
            options: vec!["target=12".into()],
            agents: vec!["run".into(), "walk".into()],
            format: Format::RoundRobin,
            games_per_table: 2,
            seed: 1,
            sprt: None,
            description: None,
        }
    }

    fn read_text(name: &str, text: &str) -> Result<Option<LogContents>, LogError> {
        let path =
            std::env::temp_dir().join(format!("stickdice-log-{name}-{}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let r = read(&path);
        let _ = std::fs::remove_file(&path);
        r
    }

    fn line_of(r: Result<Option<LogContents>, LogError>) -> (usize, String) {
        match r {
            Err(LogError::BadLine { line, message, .. }) => (line, message),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn headers_are_checked() {
        let header = encode(&LogLine::Tournament {
            version: LOG_VERSION,
            config: config(),
            program: None,
            shard: None,
        });
        assert_eq!(read_text("empty", "").unwrap(), None);
        let c = read_text("ok", &header).unwrap().unwrap();
        assert_eq!((c.config, c.games.len(), c.torn_tail), (config(), 0, None));
        let (line, m) = line_of(read_text("twice", &format!("{header}{header}")));
        assert_eq!(line, 2);
        assert!(m.contains("second tournament header"), "{m}");
        let old = header.replace("\"version\":1", "\"version\":9");
        let (line, m) = line_of(read_text("version", &old));
        assert_eq!(line, 1);
        assert!(m.contains("version 9"), "{m}");
        let (line, m) = line_of(read_text("torn", &header[..20]));
        assert_eq!(line, 1);
        assert!(m.contains("missing or cut off"), "{m}");
        let (line, m) = line_of(read_text("foreign", "{\"hello\":1}\n"));
        assert_eq!(line, 1);
        assert!(m.contains("not a tournament log line"), "{m}");
        // The program version and the shard are read back; an impossible shard is refused.
        let sharded = encode(&LogLine::Tournament {
            version: LOG_VERSION,
            config: config(),
            program: Some(PROGRAM_VERSION.into()),
            shard: Some(Shard { index: 1, count: 4 }),
        });
        let c = read_text("shard", &sharded).unwrap().unwrap();
        assert_eq!(c.shard, Some(Shard { index: 1, count: 4 }));
        assert_eq!(c.program.as_deref(), Some(PROGRAM_VERSION));
        let (line, m) = line_of(read_text(
            "bad-shard",
            &sharded.replace("\"index\":1", "\"index\":7"),
        ));
        assert_eq!(line, 1);
        assert!(m.contains("shard 7/4"), "{m}");
        // A torn last line after the header is not an error: it is reported back.
        let c = read_text("tail", &format!("{header}{{\"type\":\"ga"))
            .unwrap()
            .unwrap();
        assert_eq!(c.torn_tail, Some((2, header.len() as u64)));
    }

    #[test]
    fn an_endless_file_is_refused_not_read_forever() {
        let path = Path::new("/dev/zero");
        if !path.exists() {
            return; // not a Unix system
        }
        // A device is no log (issue 39: a named pipe or `/dev/ptmx` blocked the reader).
        match read(path) {
            Err(LogError::Io { message, .. }) => {
                assert!(message.contains("not a regular file"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        // A regular file with an endless-looking line: refused at the line limit.
        let dir = std::env::temp_dir().join(format!("stickdice-log-long-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let long = dir.join("games.jsonl");
        let f = std::fs::File::create(&long).unwrap();
        f.set_len(MAX_LINE_BYTES + 2).unwrap();
        let (line, m) = line_of(read(&long));
        assert_eq!(line, 1);
        assert!(m.contains("longer than 64 MiB"), "{m}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn differences_name_the_fields() {
        let mut other = config();
        other.seed = 2;
        other.agents.push("random".into());
        let d = config().differences(&other);
        assert_eq!(
            d,
            ["agents: run, walk vs run, walk, random", "seed: 1 vs 2"]
        );
        assert!(config().differences(&config()).is_empty());
        // The SPRT in the command line's words, not Rust's.
        other = config();
        other.sprt = Some(Sprt {
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.05,
        });
        assert_eq!(
            other.differences(&config()),
            ["SPRT: --elo0 0 --elo1 30 --alpha 0.05 --beta 0.05 vs none"]
        );
    }

    #[test]
    fn events_are_numbers_for_throws_and_strings_for_actions() {
        let e = vec![LoggedEvent::Throw(3), LoggedEvent::Action("run".into())];
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"[3,"run"]"#);
        let back: Vec<LoggedEvent> = serde_json::from_str(r#"[0,"pass",6]"#).unwrap();
        assert_eq!(
            back,
            [
                LoggedEvent::Throw(0),
                LoggedEvent::Action("pass".into()),
                LoggedEvent::Throw(6)
            ]
        );
    }
}
