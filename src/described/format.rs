//! The description format, version 1: the types a description file deserializes into.
//!
//! Every table refuses unknown fields; every field that may be left out has the default
//! given in its documentation. The book's reference chapter (`docs/described/format.md`)
//! lists them with examples.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::ConfigError;

/// A whole description: one game of the family, as plain data.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Description {
    /// The format's version: 1.
    pub format: u32,
    /// The game's name in commands (lower case, words joined by `-`).
    pub name: String,
    /// The game's title, as people write it.
    pub title: String,
    /// Where the rules come from (a citation; shown by `stickdice games`).
    #[serde(default)]
    pub source: String,
    /// Seat counts and teams.
    #[serde(default)]
    pub seats: Seats,
    /// The board's grid.
    pub board: BoardSpec,
    /// The sticks and what each count of marked sides is worth.
    pub throws: ThrowTable,
    /// Each seat's track: runs over the grid.
    pub track: TrackSpec,
    /// Named sets of squares, as seat 0 sees the board (another side's region is turned
    /// with its track).
    #[serde(default)]
    pub regions: BTreeMap<String, RegionSpec>,
    /// The pieces and where they start.
    pub pieces: PiecesSpec,
    /// How pieces move and meet.
    #[serde(default)]
    pub moves: MovesSpec,
    /// Values that release an unmoved piece.
    #[serde(default)]
    pub release: Option<ReleaseSpec>,
    /// A value that may be stored instead of moved.
    #[serde(default)]
    pub store: Option<StoreSpec>,
    /// Positions that hold a piece until it throws a value a number of times.
    #[serde(default)]
    pub holds: Vec<HoldSpec>,
    /// How a turn runs.
    #[serde(default)]
    pub turn: TurnSpec,
    /// Seats throw in turn until one throws a value, which begins the game.
    #[serde(default)]
    pub opening: Option<OpeningSpec>,
    /// A neutral piece driven by the seats that have got out.
    #[serde(default)]
    pub chaser: Option<ChaserSpec>,
    /// When the game ends, and how seats rank.
    pub end: EndSpec,
    /// Rule options: named patches of this description.
    #[serde(default)]
    pub options: BTreeMap<String, OptionSpec>,
}

/// A reading: a shipped description changed by a patch, under its own name.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    /// The format's version: 1.
    pub format: u32,
    /// The shipped description this reading changes (its name, such as `tab`).
    pub extends: String,
    /// The reading's name in commands.
    pub name: String,
    /// The reading's title.
    pub title: String,
    /// Where the reading comes from.
    #[serde(default)]
    pub source: Option<String>,
    /// The change: merged into the shipped description (tables merge key by key, anything
    /// else replaces).
    #[schemars(schema_with = "patch_schema")]
    pub patch: toml::Table,
}

/// Seat counts and teams.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    /// The fewest seats. Default 2.
    #[serde(default = "two")]
    pub min: usize,
    /// The most seats. Default 2.
    #[serde(default = "two")]
    pub max: usize,
    /// Seat counts allowed between `min` and `max` (all when empty).
    #[serde(default)]
    pub allowed: Vec<usize>,
    /// The seat count played when none is given (one of those allowed). Default `min`.
    #[serde(default)]
    pub default: Option<usize>,
    /// `true`: two teams, seats alternating (seats 0, 2, … against 1, 3, …), sharing their
    /// team's pieces and ranking together. Default `false`: every seat plays its own side.
    #[serde(default)]
    pub teams: bool,
}

fn two() -> usize {
    2
}

impl Seats {
    /// Every seat count allowed, fewest first.
    pub fn counts(&self) -> Vec<usize> {
        (self.min..=self.max)
            .filter(|n| self.allowed.is_empty() || self.allowed.contains(n))
            .collect()
    }

    /// The seat count played when none is given (`default`, else `min`).
    pub fn default_count(&self) -> usize {
        self.default.unwrap_or(self.min)
    }

    /// Checks that `game` (these seats') is played by `players` seats.
    ///
    /// # Errors
    /// [`ConfigError::Players`] out of `min..=max`; [`ConfigError::SeatsNotAllowed`], with
    /// the counts allowed, for any other count where `allowed` lists them.
    pub fn check(&self, game: &'static str, players: usize) -> Result<(), ConfigError> {
        let counts = self.counts();
        if counts.contains(&players) {
            Ok(())
        } else if self.allowed.is_empty() {
            Err(ConfigError::Players {
                game,
                players,
                min: self.min,
                max: self.max,
            })
        } else {
            Err(ConfigError::SeatsNotAllowed {
                game,
                players,
                allowed: counts,
            })
        }
    }
}

impl Default for Seats {
    fn default() -> Self {
        Seats {
            min: 2,
            max: 2,
            allowed: Vec::new(),
            default: None,
            teams: false,
        }
    }
}

/// The board: a grid of `rows` × `columns` squares, plus extra squares outside it.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Rows, numbered 0 (seat 0's side, at the bottom) upwards.
    pub rows: i64,
    /// Columns, numbered 0 (the left as seat 0 sees it) rightwards.
    pub columns: i64,
    /// Squares outside the grid, as `[row, column]` (such as a square above a corner).
    #[serde(default)]
    pub extra: Vec<[i64; 2]>,
}

/// What each count of marked sides is worth.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThrowTable {
    /// The number of sticks: 3, 4, 6 or 8. Each count k of marked sides up has
    /// probability C(n, k)/2^n.
    #[serde(default)]
    pub sticks: Option<u8>,
    /// The value of each count of marked sides, 0 to n (n + 1 entries).
    pub values: Vec<i64>,
    /// Values that give another throw.
    #[serde(default)]
    pub again: Vec<i64>,
    /// Every value but these gives another throw (instead of `again`).
    #[serde(default)]
    pub again_except: Vec<i64>,
    /// The counts of marked sides that give another throw (instead of `again` or
    /// `again_except`), where two counts of one value differ.
    #[serde(default)]
    pub again_counts: Vec<i64>,
    /// Names of counts, by count (`""` for none): shown with the throw.
    #[serde(default)]
    pub names: Vec<String>,
}

/// Each seat's track.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrackSpec {
    /// How the other sides' tracks follow from side 0's: `"turned"` (default: side 1's
    /// square for a position is side 0's turned half a turn; two sides only) or
    /// `"shared"` (every side runs the same squares; pieces of different sides may share
    /// a square).
    #[serde(default)]
    pub others: OtherTracks,
    /// Side 0's runs, in order. Positions are numbered along the runs from 0.
    pub runs: Vec<RunSpec>,
}

/// How the other sides' tracks follow from side 0's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OtherTracks {
    /// Side 1's square is side 0's turned half a turn.
    #[default]
    Turned,
    /// Every side runs side 0's squares.
    Shared,
}

/// A run of squares: part of a row or a column walked in one direction, or listed squares.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// The row walked (negative counts from the top: -1 is the last row).
    #[serde(default)]
    pub row: Option<i64>,
    /// The column walked (negative counts from the right).
    #[serde(default)]
    pub column: Option<i64>,
    /// Squares listed one by one, as `[row, column]` (instead of `row` or `column`).
    #[serde(default)]
    pub squares: Vec<[i64; 2]>,
    /// A boustrophedon over whole lines (instead of `row` or `column`): `rows` or
    /// `columns`, from line `from` to line `to` (default all, first to last), the first
    /// line walked in `dir` and each next one the other way.
    #[serde(default)]
    pub zigzag: Option<Lines>,
    /// The direction: `right`, `left` (along a row), `up`, `down` (along a column).
    #[serde(default)]
    pub dir: Option<Dir>,
    /// The first column (row) of the run, counted as `row` is; default the whole line.
    #[serde(default)]
    pub from: Option<i64>,
    /// The last column (row) of the run, inclusive; default the whole line.
    #[serde(default)]
    pub to: Option<i64>,
    /// What follows the run's last square: default the next run (the track's end after
    /// the last run).
    #[serde(default)]
    pub then: Option<LinkSpec>,
    /// A fork after the run's last square: two or more named branches, each a link. An
    /// action names the branch when more than one is open.
    #[serde(default)]
    pub branches: Vec<BranchSpec>,
}

/// Rows or columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Lines {
    /// Whole rows.
    Rows,
    /// Whole columns.
    Columns,
}

/// A direction along a line of the grid, as seat 0 sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Dir {
    /// Along a row, column 0 first.
    Right,
    /// Along a row, the last column first.
    Left,
    /// Along a column, row 0 first.
    Up,
    /// Along a column, the last row first.
    Down,
}

/// A step from the end of a run to the start of another.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The run the step goes to (0 is the first run), or `"end"`: the track ends.
    pub run: RunRef,
    /// Conditions, all tested when the move begins, for the step to be allowed.
    #[serde(default)]
    pub gate: Vec<Condition>,
    /// A flag set on the pieces that take this step, for the rest of the game.
    #[serde(default)]
    pub set_flag: Option<String>,
}

/// The run a link goes to.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RunRef {
    /// A run, by its index.
    Run(i64),
    /// `"end"`: the track ends here.
    End(String),
}

/// One branch of a fork.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BranchSpec {
    /// The branch's name in actions (`SQUARE/name`): 1 to 8 lower-case letters.
    pub name: String,
    /// The run the branch goes to.
    pub run: i64,
    /// Conditions, all tested when the move begins.
    #[serde(default)]
    pub gate: Vec<Condition>,
    /// A flag set on the pieces that take this branch.
    #[serde(default)]
    pub set_flag: Option<String>,
}

/// A condition of a gate.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum Condition {
    /// Some enemy piece stands in the region (as the mover's side sees it).
    EnemyIn(String),
    /// The mover's pieces in the region are all on one square, or there are none.
    OwnOnOneSquareIn(String),
    /// No moving piece carries the flag.
    WithoutFlag(String),
}

/// A named set of squares: the union of the rows, columns and squares listed.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegionSpec {
    /// Whole rows (negative counts from the top).
    #[serde(default)]
    pub rows: Vec<i64>,
    /// Whole columns (negative counts from the right).
    #[serde(default)]
    pub columns: Vec<i64>,
    /// Single squares, as `[row, column]`.
    #[serde(default)]
    pub squares: Vec<[i64; 2]>,
}

/// The pieces each side has and where they start.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PiecesSpec {
    /// `true`: one piece on each position of the first run.
    #[serde(default)]
    pub on_first_run: bool,
    /// Pieces on these track positions (negative counts from the track's end).
    #[serde(default)]
    pub positions: Vec<i64>,
    /// Pieces off the board, before the track's first position.
    #[serde(default)]
    pub off_board: i64,
}

/// How pieces move and meet.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovesSpec {
    /// Who shares a square: `single` (default: one piece a square), `stacks` (a side's
    /// pieces that meet stack, move whole and are captured whole), `shared` (any pieces
    /// share squares; nothing blocks).
    #[serde(default)]
    pub occupancy: Occupancy,
    /// Landing on an enemy piece captures it (`landing`, default) or is not a move
    /// (`none`).
    #[serde(default)]
    pub capture: Capture,
    /// `false`: a piece may not pass a square holding a piece of its own side. Default
    /// `true`.
    #[serde(default = "yes")]
    pub pass_own: bool,
    /// A region where a side's pieces cannot be captured (a move onto them is not legal).
    #[serde(default)]
    pub safe: Option<String>,
    /// The last position an ordinary move may reach (negative counts from the track's
    /// end); default the track's last position.
    #[serde(default)]
    pub limit: Option<i64>,
    /// A move that would pass the limit: `illegal` (default) or `stop` (it stops there).
    #[serde(default)]
    pub overshoot: Overshoot,
    /// When a seat decides: `always` (default: after every throw, a single forced move or
    /// pass included) or `choices` (a single legal action is made without asking).
    #[serde(default)]
    pub decide: Decide,
}

fn yes() -> bool {
    true
}

impl Default for MovesSpec {
    fn default() -> Self {
        MovesSpec {
            occupancy: Occupancy::Single,
            capture: Capture::Landing,
            pass_own: true,
            safe: None,
            limit: None,
            overshoot: Overshoot::Illegal,
            decide: Decide::Always,
        }
    }
}

/// Who shares a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Occupancy {
    /// One piece a square; own pieces block.
    #[default]
    Single,
    /// A side's pieces stack and move whole.
    Stacks,
    /// Any pieces share squares.
    Shared,
}

/// What landing on an enemy does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Capture {
    /// It captures the piece (or the stack).
    #[default]
    Landing,
    /// Nothing is captured.
    None,
}

/// A move past the limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Overshoot {
    /// Not a move.
    #[default]
    Illegal,
    /// The piece stops on the limit.
    Stop,
}

/// When a seat decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Decide {
    /// After every throw.
    #[default]
    Always,
    /// Only between two or more actions.
    Choices,
}

/// Unmoved pieces and the values that release them.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleaseSpec {
    /// The values that release a piece (its first move).
    #[serde(default)]
    pub values: Vec<i64>,
    /// Instead of `values`: per side, the counts of marked sides that release its pieces
    /// (a throw in the side's own colour).
    #[serde(default)]
    pub counts_by_side: Vec<Vec<i64>>,
    /// How far the releasing move goes: 1 (default) or more steps, whatever the value;
    /// 0: an `unlock SQUARE` action frees the piece without moving it.
    #[serde(default = "one")]
    pub steps: i64,
    /// `true`: a release value must release a piece while any unmoved piece can move.
    #[serde(default)]
    pub priority: bool,
}

fn one() -> i64 {
    1
}

/// A value stored instead of moved, to lengthen a capturing move later.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StoreSpec {
    /// The value that is stored (`store`) and never moves a piece.
    pub value: i64,
    /// How stored values lengthen a move that then captures: `any` (default: 1 to the
    /// whole stock, `SQUARE+j`) or `all` (the whole stock at once).
    #[serde(default)]
    pub supplement: Supplement,
}

/// How much of the stock a move may add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Supplement {
    /// Any part of it.
    #[default]
    Any,
    /// All of it.
    All,
}

/// A holding position.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HoldSpec {
    /// The track position (negative counts from the end).
    pub position: i64,
    /// How many throws of `value` move the piece one step on (the count is kept per
    /// piece across turns; other throws do nothing). From the track's last position the
    /// step takes the piece out.
    pub throws: i64,
    /// The value that counts.
    pub value: i64,
}

/// How a turn runs.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnSpec {
    /// `each` (default: every throw is moved before the next) or `all-first` (all the
    /// turn's throws are made, then their values spent whole, one piece each, in any
    /// order: `SQUARE/v`; values that cannot be used are lost with a `pass`).
    #[serde(default)]
    pub throws: TurnThrows,
}

/// When throws are moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TurnThrows {
    /// One throw, one move.
    #[default]
    Each,
    /// All throws first.
    AllFirst,
}

/// The opening: seats throw once each in turn until one throws `value`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpeningSpec {
    /// The value that begins the game.
    pub value: i64,
    /// `true` (default): that throw is the beginner's first move; `false`: it moves
    /// nothing and the beginner throws again.
    #[serde(default = "yes")]
    pub moves: bool,
}

/// A neutral chaser on a shared track, driven by the seats that have got out.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChaserSpec {
    /// How it moves: `steered` (default: it appears when the first seat gets out, and its
    /// drivers choose `back` or `forward`) or `self-steering` (it stands on the board from
    /// the start and steps back while it carries pieces, forward otherwise).
    #[serde(default)]
    pub kind: ChaserKind,
    /// A steered chaser: the position where it appears when the first seat gets out
    /// (negative counts from the end).
    #[serde(default)]
    pub appears_at: Option<i64>,
    /// Its own throw table (same sticks), read by the seats that drive it.
    pub throws: ThrowTable,
    /// A self-steering chaser: where it stands at the start, a position or `"off"` (off
    /// the board before position 0; its first step puts it on position 0).
    #[serde(default)]
    pub start: Option<ChaserStart>,
    /// A self-steering chaser: the last position it may stand on (negative counts from the
    /// end); a forward step from it is lost with the rest of the move.
    #[serde(default)]
    pub reach: Option<i64>,
    /// A self-steering chaser: the first position it carries pieces from (default 1);
    /// pieces before it are never carried, and pieces carried back from it are buried,
    /// their seats out of the game.
    #[serde(default)]
    pub carries_from: Option<i64>,
    /// A self-steering chaser: holding positions whose pieces drive it with the seats' own
    /// throws (with `driving_values`).
    #[serde(default)]
    pub driven_from: Vec<i64>,
    /// A self-steering chaser: the seats' values that drive it from `driven_from`, each
    /// moving it that many steps.
    #[serde(default)]
    pub driving_values: Vec<i64>,
    /// A self-steering chaser: at its first move, the pieces on its start position are
    /// lifted off the board and set down, unharmed, where that move ends.
    #[serde(default)]
    pub lifts_at_first_move: bool,
}

/// How a chaser moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChaserKind {
    /// Its drivers choose its direction.
    #[default]
    Steered,
    /// Back while it carries pieces, forward otherwise.
    SelfSteering,
}

/// Where a self-steering chaser starts.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(
    untagged,
    expecting = "expected a position (a whole number, negative from the end) or `\"off\"`"
)]
pub enum ChaserStart {
    /// On this position (negative counts from the end).
    At(i64),
    /// `"off"`: off the board, before position 0.
    Off(String),
}

/// When the game ends and how seats rank.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndSpec {
    /// The game ends when a side has no pieces left (all captured).
    #[serde(default)]
    pub no_pieces: bool,
    /// The game ends when every piece of every side stands in this region (as its side
    /// sees it).
    #[serde(default)]
    pub all_in: Option<String>,
    /// The game ends when no capture is possible any more: every piece of side 0 stands
    /// on a higher row than every piece of side 1 (two sides on turned one-way tracks).
    #[serde(default)]
    pub separated: bool,
    /// The game ends when no piece of any side could move with any value.
    #[serde(default)]
    pub frozen: bool,
    /// The game ends when every seat has got out.
    #[serde(default)]
    pub all_out: bool,
    /// How seats rank at the end (the throw cap included).
    pub rank: Rank,
}

/// How seats rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Rank {
    /// The side with pieces left wins when the others have none; otherwise a draw.
    LastStanding,
    /// More pieces left ranks higher; equal counts tie.
    PiecesLeft,
    /// More captures ranks higher; equal counts tie.
    Captures,
    /// In the order the seats got out; seats still racing tie below; buried seats last, a
    /// later burial above an earlier one.
    Arrival,
    /// Every seat that got out ties first; seats still racing tie below; buried seats tie
    /// last.
    Out,
}

/// A rule option: a named patch of the description.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionSpec {
    /// What the option means, in a sentence.
    pub help: String,
    /// The kind of value.
    #[serde(rename = "type")]
    pub kind: OptionKind,
    /// The default value (`false` for a yes/no option).
    #[serde(default)]
    pub default: Option<i64>,
    /// The smallest value of an `int` option.
    #[serde(default)]
    pub min: Option<i64>,
    /// The largest value of an `int` option.
    #[serde(default)]
    pub max: Option<i64>,
    /// The values an `int` option takes (all from `min` to `max` when empty).
    #[serde(default)]
    pub values: Vec<i64>,
    /// The patch: merged into the description when a `bool` option is on, or always for
    /// an `int` option, with every string `"$value"` in it replaced by the value.
    #[schemars(schema_with = "patch_schema")]
    pub patch: toml::Table,
}

/// The kind of an option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OptionKind {
    /// Yes or no.
    Bool,
    /// A whole number.
    Int,
}

/// A patch's schema: a table of the description's fields (checked once merged).
fn patch_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "object" })
}
