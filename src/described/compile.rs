//! From a description to flat tables: checked once, when a game is built.

use super::format::{
    Capture, Condition, Decide, Description, Dir, Lines, Occupancy, OtherTracks, Overshoot, Rank,
    RunRef, Supplement, ThrowTable, TurnThrows,
};
use super::DescriptionError;
use crate::dice::Sticks;
use crate::game::MAX_SEATS;

/// Square codes: row × 32 + column, one byte.
pub const MAX_SQUARES: usize = 256;
/// The most pieces of all sides together.
pub const MAX_PIECES: usize = 64;
/// The most positions a track may have.
pub const MAX_POSITIONS: usize = 200;
/// The most rows (square codes are row × 32 + column in a byte).
pub const MAX_ROWS: usize = 8;
/// The most columns (the notation's column letters are `a` to `z`).
pub const MAX_COLUMNS: usize = 26;
/// The largest value a throw may have.
pub const MAX_VALUE: usize = 15;
/// The most named flags.
pub const MAX_FLAGS: usize = 4;

/// A set of squares (by square code).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mask(pub [u64; 4]);

impl Mask {
    #[inline(always)]
    pub fn has(&self, sq: u8) -> bool {
        self.0[(sq >> 6) as usize] >> (sq & 63) & 1 == 1
    }
    #[inline(always)]
    pub fn set(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] |= 1 << (sq & 63);
    }
    #[inline(always)]
    pub fn clear(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] &= !(1 << (sq & 63));
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    /// The squares in both sets.
    #[inline(always)]
    pub fn and(&self, other: &Mask) -> Mask {
        Mask(core::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    /// The squares in either set.
    #[inline(always)]
    pub fn or(&self, other: &Mask) -> Mask {
        Mask(core::array::from_fn(|i| self.0[i] | other.0[i]))
    }
    /// Whether the two sets share a square.
    #[inline(always)]
    pub fn meets(&self, other: &Mask) -> bool {
        (self.0[0] & other.0[0])
            | (self.0[1] & other.0[1])
            | (self.0[2] & other.0[2])
            | (self.0[3] & other.0[3])
            != 0
    }
    /// The lowest square in the set.
    #[inline(always)]
    pub fn first(&self) -> Option<u8> {
        let w = self.0.iter().position(|&w| w != 0)?;
        Some((w * 64) as u8 + self.0[w].trailing_zeros() as u8)
    }
    /// The highest square in the set.
    #[inline(always)]
    pub fn last(&self) -> Option<u8> {
        let w = self.0.iter().rposition(|&w| w != 0)?;
        Some((w * 64) as u8 + 63 - self.0[w].leading_zeros() as u8)
    }
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..=255u8).filter(move |&sq| self.has(sq))
    }
}

/// The square code of (row, column).
pub const fn code(row: usize, col: usize) -> u8 {
    ((row << 5) | col) as u8
}

/// No position: the track's end was passed, or the link is absent.
pub(crate) const NONE: u8 = u8::MAX;

/// A compiled gate: conditions on the mover, the moving pieces and the enemy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Gate {
    /// Some enemy piece stands in this region (index into `regions`), if any.
    pub enemy_in: Option<u8>,
    /// The mover's pieces in this region are all on one square or none.
    pub own_one_square_in: Option<u8>,
    /// Flag bits the moving pieces must all lack.
    pub without_flags: u8,
}

impl Gate {
    pub fn is_open(&self) -> bool {
        self.enemy_in.is_none() && self.own_one_square_in.is_none() && self.without_flags == 0
    }
}

/// A step out of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    /// The next position, or [`NONE`].
    pub to: u8,
    pub gate: Gate,
    /// Flag bits set on the pieces taking the step.
    pub set_flags: u8,
    /// The branch's name (for forks), 0-padded.
    pub name: [u8; 8],
}

/// One compiled throw table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Table {
    pub value: [u8; 9],
    pub again: [bool; 9],
    pub names: Vec<String>,
}

/// A whole compiled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Compiled {
    pub name: String,
    pub title: String,
    pub seats: usize,
    pub sides: usize,
    pub teams: bool,
    pub rows: usize,
    pub cols: usize,
    /// The board's squares (grid and extras) as a bitmask of square ids (row*cols+col).
    pub board: Mask,
    pub sticks: Sticks,
    pub table: Table,
    pub chaser_table: Option<Table>,
    pub chaser_appears: u8,
    /// The seats' values that drive a self-steering chaser from holding positions (bit v).
    pub driving_values: u16,
    /// The self-steering chaser's rules, if the chaser is one.
    pub steering: Option<super::chaser::Steering>,
    /// Per side: position → square id.
    pub square_of: Vec<Vec<u8>>,
    /// Per side: square id → position (first), or NONE.
    pub pos_of: Vec<[u8; MAX_SQUARES]>,
    /// Per side: the plain next position of each position (NONE at the end).
    pub next: Vec<Vec<Link>>,
    /// Per side: the fork branches after a position (empty for most).
    pub branches: Vec<Vec<Vec<Link>>>,
    pub track_len: usize,
    /// Whether any link has a gate, flags or branches (the walk is then not plain).
    pub plain: bool,
    /// Per (side, position, value), at [`Compiled::step_index`]: the destination of a
    /// plain walk, or NONE.
    pub dest: Vec<u8>,
    /// The same: the destination's square (NONE where there is no destination).
    pub dest_sq: Vec<u8>,
    /// The same: the squares a plain walk passes over (not its destination), where own
    /// pieces may block (`pass_own` off); empty otherwise.
    pub path: Vec<Mask>,
    /// The same: whether the walk is simple (every step a plain link: no fork, gate, flag
    /// or limit on the way), so that its destination, the squares it passes and the
    /// landing decide it.
    pub simple_walk: Vec<bool>,
    /// Whether every walk is plain and goes one position on a step (position `p + 1` after
    /// `p`, nothing after the last): a walk of `n` steps from `p` can only end on `p + n`.
    pub linear: bool,
    /// Whether any position holds a piece for some throws.
    pub any_hold: bool,
    /// Whether any track forks (a walk may then end on two positions).
    pub forks: bool,
    /// Per side: region masks (turned with the side's track).
    pub regions: Vec<Vec<Mask>>,
    pub region_names: Vec<String>,
    pub flag_names: Vec<String>,
    pub occupancy: Occupancy,
    pub capture: bool,
    pub pass_own: bool,
    pub safe: Option<u8>,
    pub limit: u8,
    pub overshoot: Overshoot,
    pub decide: Decide,
    pub release_values: u16,
    /// Per side, the counts of marked sides that release (bit k), when the release is by
    /// count; `release_values` then holds their values.
    pub release_counts: Option<Vec<u16>>,
    pub release_steps: u8,
    pub release_priority: bool,
    pub has_release: bool,
    pub store_value: Option<u8>,
    pub supplement: Supplement,
    /// Per position: (throws needed, value counted), throws 0 = no hold.
    pub hold: Vec<(u8, u8)>,
    pub all_first: bool,
    pub opening: Option<(u8, bool)>,
    pub end_no_pieces: bool,
    pub end_all_in: Option<u8>,
    pub end_separated: bool,
    pub end_frozen: bool,
    pub end_all_out: bool,
    pub rank: Rank,
    /// The start: per side, the positions of its pieces (NONE-1 = off board).
    pub start: Vec<Vec<u8>>,
    /// Pieces start unmoved (a release exists).
    pub start_unmoved: bool,
    pub pieces_per_side: usize,
    /// Per side: its pieces as a set (bit k for piece k), for the state's piece sets.
    pub side_bits: [u64; MAX_SEATS],
    /// The distinct non-zero values of the seats' table, ascending.
    pub values: Vec<u8>,
    /// The settings of the one-loop random playouts, where the description is plain
    /// enough for them.
    pub plain_playouts: Option<super::plain::Plain>,
    /// The same for descriptions of that shape with a stock of stored values.
    pub stocked_playouts: Option<super::stocked::Stocked>,
    /// The settings of the chased races' one-loop random playouts, where the description
    /// is such a race.
    pub chased_playouts: Option<super::chased::Chased>,
    /// The settings of the stacking descriptions' one-loop random playouts (stacks, gated
    /// forks, an opening throw), where the description is of that shape.
    pub stacked_playouts: Option<super::stacked::Stacked>,
    /// The settings of the one-loop random playouts of turns that throw first and then
    /// spend the held values, where the description is of that shape.
    pub spent_playouts: Option<super::spent::Spent>,
    /// The initial state, with its layout: built once, copied by
    /// [`Described::initial_state`](super::Described::initial_state) (building it piece by
    /// piece cost each random playout more than a copy).
    pub initial_state: super::state::State,
}

/// Off the board, before the first position.
pub(crate) const OFF: u8 = u8::MAX - 1;

fn err(field: &str, message: impl Into<String>) -> DescriptionError {
    DescriptionError::invalid(field, message)
}

fn index(field: &str, value: i64, len: usize) -> Result<usize, DescriptionError> {
    let len_i = len as i64;
    let i = if value < 0 { len_i + value } else { value };
    if i < 0 || i >= len_i {
        Err(err(
            field,
            format!(
                "{value} is out of range: expected 0 to {} (or -1 to -{len} counting from the end)",
                len_i - 1
            ),
        ))
    } else {
        Ok(i as usize)
    }
}

fn compile_table(field: &str, t: &ThrowTable, sticks: Sticks) -> Result<Table, DescriptionError> {
    let n = sticks.count() as usize;
    if t.values.len() != n + 1 {
        return Err(err(
            &format!("{field}.values"),
            format!(
                "{} entries, expected {} (one value per count of marked sides, 0 to {n})",
                t.values.len(),
                n + 1
            ),
        ));
    }
    let mut value = [0u8; 9];
    for (k, &v) in t.values.iter().enumerate() {
        if !(0..=MAX_VALUE as i64).contains(&v) {
            return Err(err(
                &format!("{field}.values"),
                format!("value {v} is out of range: expected 0 to {MAX_VALUE}"),
            ));
        }
        value[k] = v as u8;
    }
    if !t.again.is_empty() && !t.again_except.is_empty() {
        return Err(err(
            &format!("{field}.again_except"),
            "give `again` or `again_except`, not both",
        ));
    }
    let by_value = !t.again.is_empty() || !t.again_except.is_empty();
    if !t.again_counts.is_empty() && by_value {
        return Err(err(
            &format!("{field}.again_counts"),
            "give `again_counts` or `again`/`again_except`, not both",
        ));
    }
    for &k in &t.again_counts {
        if !(0..=n as i64).contains(&k) {
            return Err(err(
                &format!("{field}.again_counts"),
                format!("count {k} is out of range: expected 0 to {n}"),
            ));
        }
    }
    for (name, list) in [("again", &t.again), ("again_except", &t.again_except)] {
        for v in list {
            if !t.values.contains(v) {
                return Err(err(
                    &format!("{field}.{name}"),
                    format!("{v} is not a value of the table {:?}", t.values),
                ));
            }
        }
    }
    let mut again = [false; 9];
    for (k, again) in again.iter_mut().enumerate().take(n + 1) {
        let v = t.values[k];
        *again = if !t.again_counts.is_empty() {
            t.again_counts.contains(&(k as i64))
        } else if t.again_except.is_empty() {
            t.again.contains(&v)
        } else {
            !t.again_except.contains(&v)
        };
    }
    if !t.names.is_empty() && t.names.len() != n + 1 {
        return Err(err(
            &format!("{field}.names"),
            format!("{} entries, expected {} (or none)", t.names.len(), n + 1),
        ));
    }
    Ok(Table {
        value,
        again,
        names: t.names.clone(),
    })
}

fn value_field(field: &str, v: i64, table: &Table, n: usize) -> Result<u8, DescriptionError> {
    if (0..=n).any(|k| i64::from(table.value[k]) == v) {
        Ok(v as u8)
    } else {
        Err(err(
            field,
            format!(
                "{v} is not a value any throw has (the values are {:?})",
                &table.value[..=n]
            ),
        ))
    }
}

fn branch_name(field: &str, name: &str) -> Result<[u8; 8], DescriptionError> {
    if name.is_empty() || name.len() > 8 || !name.bytes().all(|b| b.is_ascii_lowercase()) {
        return Err(err(
            field,
            format!("`{name}`: expected 1 to 8 lower-case letters"),
        ));
    }
    let mut out = [0u8; 8];
    out[..name.len()].copy_from_slice(name.as_bytes());
    Ok(out)
}

/// Compiles a description (its options already applied) for a seat count.
pub(crate) fn compile(d: &Description, seats: usize) -> Result<Compiled, DescriptionError> {
    if d.format != 1 {
        return Err(err(
            "format",
            format!("version {}: this stickdice reads format 1", d.format),
        ));
    }
    if d.name.is_empty()
        || !d
            .name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(err(
            "name",
            format!("`{}`: expected lower-case letters, digits and `-`", d.name),
        ));
    }
    // Seats.
    let s = &d.seats;
    if s.min < 1 || s.max < s.min || s.max > MAX_SEATS {
        return Err(err(
            "seats",
            format!(
                "min {} and max {}: expected 1 <= min <= max <= {MAX_SEATS}",
                s.min, s.max
            ),
        ));
    }
    if let Some(n) = s.default.filter(|n| !s.counts().contains(n)) {
        let counts: Vec<String> = s.counts().iter().map(ToString::to_string).collect();
        return Err(err(
            "seats.default",
            format!(
                "{n}: expected one of the seat counts allowed ({})",
                counts.join(", ")
            ),
        ));
    }
    if seats < s.min || seats > s.max || (!s.allowed.is_empty() && !s.allowed.contains(&seats)) {
        return Err(err("seats", format!("{seats} seats are not allowed")));
    }
    let teams = s.teams;
    if teams && !seats.is_multiple_of(2) {
        return Err(err(
            "seats.teams",
            format!("{seats} seats cannot make two teams"),
        ));
    }
    let shared = d.track.others == OtherTracks::Shared;
    let sides = if teams { 2 } else { seats };
    if !shared && sides != 2 {
        return Err(err(
            "track.others",
            format!("a turned track needs exactly two sides, not {sides}: use `shared`"),
        ));
    }
    // Board.
    let b = &d.board;
    if b.rows < 1 || b.columns < 1 || b.rows as usize > MAX_ROWS || b.columns as usize > MAX_COLUMNS
    {
        return Err(err(
            "board",
            format!(
                "{} × {}: expected 1 to {MAX_ROWS} rows and 1 to {MAX_COLUMNS} columns",
                b.rows, b.columns
            ),
        ));
    }
    let grid_rows = b.rows as usize;
    let cols = b.columns as usize;
    let mut rows = grid_rows;
    for (i, &[r, c]) in b.extra.iter().enumerate() {
        if r < 0 || c < 0 || c as usize >= cols || r as usize >= MAX_ROWS {
            return Err(err(
                &format!("board.extra[{i}]"),
                format!(
                    "[{r}, {c}] is outside the columns 0 to {} or rows 0 to {}",
                    cols - 1,
                    MAX_ROWS - 1
                ),
            ));
        }
        rows = rows.max(r as usize + 1);
    }
    let mut board = Mask::default();
    for r in 0..grid_rows {
        for c in 0..cols {
            board.set(code(r, c));
        }
    }
    for &[r, c] in &b.extra {
        board.set(code(r as usize, c as usize));
    }
    let on_board = |r: i64, c: i64| -> Option<u8> {
        if r < 0 || c < 0 || r as usize >= rows || c as usize >= cols {
            return None;
        }
        let id = code(r as usize, c as usize);
        board.has(id).then_some(id)
    };
    // Throws.
    let sticks_n = d.throws.sticks.unwrap_or(6);
    let sticks = Sticks::with_count(sticks_n).ok_or_else(|| {
        err(
            "throws.sticks",
            format!("{sticks_n}: expected 3, 4, 6 or 8"),
        )
    })?;
    let table = compile_table("throws", &d.throws, sticks)?;
    let n = sticks.count() as usize;
    // Track runs → side 0's positions.
    if d.track.runs.is_empty() {
        return Err(err("track.runs", "no runs: a track needs at least one"));
    }
    let mut run_start = Vec::new();
    let mut squares0: Vec<u8> = Vec::new();
    for (i, run) in d.track.runs.iter().enumerate() {
        let f = format!("track.runs[{i}]");
        run_start.push(squares0.len());
        let given = run.row.is_some() as u8
            + run.column.is_some() as u8
            + (!run.squares.is_empty()) as u8
            + run.zigzag.is_some() as u8;
        if given != 1 {
            return Err(err(
                &f,
                "give exactly one of `row`, `column`, `squares` or `zigzag`",
            ));
        }
        if let Some(lines) = run.zigzag {
            let dir = run
                .dir
                .ok_or_else(|| err(&format!("{f}.dir"), "missing: the first line's direction"))?;
            let (count, line_len, along_row) = match lines {
                Lines::Rows => (grid_rows, cols, true),
                Lines::Columns => (cols, grid_rows, false),
            };
            if along_row != matches!(dir, Dir::Right | Dir::Left) {
                return Err(err(
                    &format!("{f}.dir"),
                    if along_row {
                        "rows run `right` or `left`"
                    } else {
                        "columns run `up` or `down`"
                    },
                ));
            }
            let from = index(&format!("{f}.from"), run.from.unwrap_or(0), count)?;
            let to = index(&format!("{f}.to"), run.to.unwrap_or(-1), count)?;
            let mut ascending = matches!(dir, Dir::Right | Dir::Up);
            let mut line = from as i64;
            loop {
                for i in 0..line_len {
                    let k = if ascending { i } else { line_len - 1 - i };
                    let (r, c) = if along_row {
                        (line as usize, k)
                    } else {
                        (k, line as usize)
                    };
                    squares0.push(code(r, c));
                }
                if line == to as i64 {
                    break;
                }
                line += if from <= to { 1 } else { -1 };
                ascending = !ascending;
            }
            continue;
        }
        if !run.squares.is_empty() {
            if run.dir.is_some() || run.from.is_some() || run.to.is_some() {
                return Err(err(&f, "`squares` takes no `dir`, `from` or `to`"));
            }
            for &[r, c] in &run.squares {
                let id = on_board(r, c).ok_or_else(|| {
                    err(
                        &format!("{f}.squares"),
                        format!("[{r}, {c}] is not a square of the board"),
                    )
                })?;
                squares0.push(id);
            }
            continue;
        }
        let dir = run.dir.ok_or_else(|| {
            err(
                &format!("{f}.dir"),
                "missing: expected right, left, up or down",
            )
        })?;
        let (line_len, along_row) = if run.row.is_some() {
            (cols, true)
        } else {
            (grid_rows, false)
        };
        if along_row != matches!(dir, Dir::Right | Dir::Left) {
            return Err(err(
                &format!("{f}.dir"),
                if along_row {
                    "a row runs `right` or `left`"
                } else {
                    "a column runs `up` or `down`"
                },
            ));
        }
        let line = if let Some(r) = run.row {
            index(&format!("{f}.row"), r, grid_rows)?
        } else {
            index(&format!("{f}.column"), run.column.unwrap_or(0), cols)?
        };
        let ascending = matches!(dir, Dir::Right | Dir::Up);
        let default_from = if ascending { 0 } else { line_len as i64 - 1 };
        let default_to = if ascending { line_len as i64 - 1 } else { 0 };
        let from = index(
            &format!("{f}.from"),
            run.from.unwrap_or(default_from),
            line_len,
        )?;
        let to = index(&format!("{f}.to"), run.to.unwrap_or(default_to), line_len)?;
        if (ascending && from > to) || (!ascending && from < to) {
            return Err(err(
                &f,
                format!("from {from} to {to} runs against its direction"),
            ));
        }
        let mut k = from as i64;
        loop {
            let (r, c) = if along_row {
                (line, k as usize)
            } else {
                (k as usize, line)
            };
            squares0.push(code(r, c));
            if k == to as i64 {
                break;
            }
            k += if ascending { 1 } else { -1 };
        }
    }
    let len = squares0.len();
    if len > MAX_POSITIONS {
        return Err(err(
            "track.runs",
            format!("{len} positions: at most {MAX_POSITIONS}"),
        ));
    }
    // Regions (side 0's view).
    let region_names: Vec<String> = d.regions.keys().cloned().collect();
    let mut regions0: Vec<Mask> = Vec::new();
    for (name, spec) in &d.regions {
        let f = format!("regions.{name}");
        let mut m = Mask::default();
        for &r in &spec.rows {
            let r = index(&format!("{f}.rows"), r, grid_rows)?;
            for c in 0..cols {
                m.set(code(r, c));
            }
        }
        for &c in &spec.columns {
            let c = index(&format!("{f}.columns"), c, cols)?;
            for r in 0..grid_rows {
                m.set(code(r, c));
            }
        }
        for &[r, c] in &spec.squares {
            m.set(on_board(r, c).ok_or_else(|| {
                err(
                    &format!("{f}.squares"),
                    format!("[{r}, {c}] is not a square of the board"),
                )
            })?);
        }
        if m.is_empty() {
            return Err(err(&f, "an empty region"));
        }
        regions0.push(m);
    }
    let region = |field: &str, name: &str| -> Result<u8, DescriptionError> {
        region_names
            .iter()
            .position(|n| n == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                let near =
                    crate::config::did_you_mean(name, region_names.iter().map(String::as_str));
                err(
                    field,
                    match near {
                        Some(near) => format!("no region `{name}` (did you mean `{near}`?)"),
                        None => format!(
                            "no region `{name}`; the regions are: {}",
                            region_names.join(", ")
                        ),
                    },
                )
            })
    };
    let turn_sq = |id: u8| -> u8 {
        let (r, c) = ((id >> 5) as usize, (id & 31) as usize);
        if r >= grid_rows {
            return NONE;
        }
        code(grid_rows - 1 - r, cols - 1 - c)
    };
    let mut flag_names: Vec<String> = Vec::new();
    let mut flag = |name: &str| -> Result<u8, DescriptionError> {
        if let Some(i) = flag_names.iter().position(|n| n == name) {
            return Ok(1 << i);
        }
        if flag_names.len() == MAX_FLAGS {
            return Err(err("track", format!("more than {MAX_FLAGS} flags")));
        }
        flag_names.push(name.to_string());
        Ok(1 << (flag_names.len() - 1))
    };
    // Links.
    let mut plain = true;
    let mut next0 = vec![
        Link {
            to: NONE,
            gate: Gate::default(),
            set_flags: 0,
            name: [0; 8]
        };
        len
    ];
    let mut branches0: Vec<Vec<Link>> = vec![Vec::new(); len];
    for (p, next) in next0.iter_mut().enumerate().take(len.saturating_sub(1)) {
        next.to = (p + 1) as u8;
    }
    let nruns = d.track.runs.len();
    let compile_gate = |f: &str,
                        gate: &[Condition],
                        flag: &mut dyn FnMut(&str) -> Result<u8, DescriptionError>|
     -> Result<Gate, DescriptionError> {
        let mut g = Gate::default();
        for c in gate {
            match c {
                Condition::EnemyIn(r) => g.enemy_in = Some(region(&format!("{f}.gate"), r)?),
                Condition::OwnOnOneSquareIn(r) => {
                    g.own_one_square_in = Some(region(&format!("{f}.gate"), r)?)
                }
                Condition::WithoutFlag(name) => g.without_flags |= flag(name)?,
            }
        }
        Ok(g)
    };
    for (i, run) in d.track.runs.iter().enumerate() {
        let f = format!("track.runs[{i}]");
        let last = if i + 1 < nruns {
            run_start[i + 1] - 1
        } else {
            len - 1
        };
        if let Some(link) = &run.then {
            let to = match &link.run {
                RunRef::Run(k) => run_start[index(&format!("{f}.then.run"), *k, nruns)?] as u8,
                RunRef::End(s) if s == "end" => NONE,
                RunRef::End(s) => {
                    return Err(err(
                        &format!("{f}.then.run"),
                        format!("`{s}`: expected a run's index or \"end\""),
                    ))
                }
            };
            let gate = compile_gate(&format!("{f}.then"), &link.gate, &mut flag)?;
            let set_flags = match &link.set_flag {
                Some(name) => flag(name)?,
                None => 0,
            };
            if !gate.is_open() || set_flags != 0 {
                plain = false;
            }
            next0[last] = Link {
                to,
                gate,
                set_flags,
                name: [0; 8],
            };
        }
        if !run.branches.is_empty() {
            if run.branches.len() < 2 {
                return Err(err(
                    &format!("{f}.branches"),
                    "a fork needs two or more branches",
                ));
            }
            if run.then.is_some() {
                return Err(err(&f, "give `then` or `branches`, not both"));
            }
            plain = false;
            for (j, br) in run.branches.iter().enumerate() {
                let bf = format!("{f}.branches[{j}]");
                let to = run_start[index(&format!("{bf}.run"), br.run, nruns)?] as u8;
                let gate = compile_gate(&bf, &br.gate, &mut flag)?;
                let set_flags = match &br.set_flag {
                    Some(name) => flag(name)?,
                    None => 0,
                };
                let name = branch_name(&format!("{bf}.name"), &br.name)?;
                if branches0[last].iter().any(|l: &Link| l.name == name) {
                    return Err(err(
                        &format!("{bf}.name"),
                        format!("`{}` is named twice", br.name),
                    ));
                }
                branches0[last].push(Link {
                    to,
                    gate,
                    set_flags,
                    name,
                });
            }
        }
    }
    // Per side tables.
    let mut square_of = Vec::new();
    let mut pos_of = Vec::new();
    let mut regions = Vec::new();
    for side in 0..sides {
        let turned = !shared && side == 1;
        let sq: Vec<u8> = squares0
            .iter()
            .map(|&id| if turned { turn_sq(id) } else { id })
            .collect();
        if turned {
            for (p, &id) in sq.iter().enumerate() {
                if id == NONE || !board.has(id) {
                    return Err(err(
                        "track.runs",
                        format!("position {p}, turned half a turn for side 1, leaves the board (the board is not symmetric)"),
                    ));
                }
            }
        }
        let mut po = [NONE; MAX_SQUARES];
        for (p, &id) in sq.iter().enumerate() {
            if po[id as usize] == NONE {
                po[id as usize] = p as u8;
            }
        }
        square_of.push(sq);
        pos_of.push(po);
        regions.push(
            regions0
                .iter()
                .map(|&m| {
                    if turned {
                        let mut t = Mask::default();
                        for id in m.iter() {
                            let q = turn_sq(id);
                            if q != NONE {
                                t.set(q);
                            }
                        }
                        t
                    } else {
                        m
                    }
                })
                .collect::<Vec<Mask>>(),
        );
    }
    // Every square on some track.
    let mut covered = Mask::default();
    for sq in &square_of {
        for &id in sq {
            covered.set(id);
        }
    }
    if let Some(id) = board.iter().find(|&id| !covered.has(id)) {
        return Err(err(
            "track.runs",
            format!(
                "square [{}, {}] is on no side's track: every square of the board must be on one",
                id >> 5,
                id & 31
            ),
        ));
    }
    // Moves.
    let m = &d.moves;
    let safe = match &m.safe {
        Some(r) => Some(region("moves.safe", r)?),
        None => None,
    };
    let limit = match m.limit {
        Some(l) => index("moves.limit", l, len)? as u8,
        None => NONE,
    };
    if shared && m.occupancy != Occupancy::Shared {
        return Err(err(
            "moves.occupancy",
            "a shared track needs `shared` occupancy",
        ));
    }
    if m.occupancy == Occupancy::Shared && m.capture == Capture::Landing {
        return Err(err(
            "moves.capture",
            "pieces that share squares cannot capture by landing: use `none`",
        ));
    }
    // Release and store.
    let mut release_values = 0u16;
    let mut release_counts = None;
    let (mut release_steps, mut release_priority) = (1u8, false);
    if let Some(r) = &d.release {
        if r.values.is_empty() && r.counts_by_side.is_empty() {
            return Err(err(
                "release.values",
                "empty: no piece could ever be released",
            ));
        }
        if !r.values.is_empty() && !r.counts_by_side.is_empty() {
            return Err(err(
                "release.counts_by_side",
                "give `values` or `counts_by_side`, not both",
            ));
        }
        if !r.counts_by_side.is_empty() {
            if r.counts_by_side.len() != sides {
                return Err(err(
                    "release.counts_by_side",
                    format!(
                        "{} lists for {sides} sides: expected one list of counts per side",
                        r.counts_by_side.len()
                    ),
                ));
            }
            let mut per_side = Vec::with_capacity(sides);
            for (side, counts) in r.counts_by_side.iter().enumerate() {
                let f = format!("release.counts_by_side[{side}]");
                if counts.is_empty() {
                    return Err(err(
                        &f,
                        "empty: no piece of this side could ever be released",
                    ));
                }
                let mut mask = 0u16;
                for &k in counts {
                    if !(0..=n as i64).contains(&k) {
                        return Err(err(
                            &f,
                            format!("count {k} is out of range: expected 0 to {n}"),
                        ));
                    }
                    let v = table.value[k as usize];
                    if v == 0 {
                        return Err(err(
                            &f,
                            format!("count {k} is worth 0, which cannot release a piece"),
                        ));
                    }
                    mask |= 1 << k;
                    release_values |= 1 << v;
                }
                per_side.push(mask);
            }
            release_counts = Some(per_side);
        }
        for &v in &r.values {
            let v = value_field("release.values", v, &table, n)?;
            if v == 0 {
                return Err(err("release.values", "0 cannot release a piece"));
            }
            release_values |= 1 << v;
        }
        if !(0..=MAX_VALUE as i64).contains(&r.steps) {
            return Err(err(
                "release.steps",
                format!("{}: expected 0 to {MAX_VALUE}", r.steps),
            ));
        }
        release_steps = r.steps as u8;
        release_priority = r.priority;
    }
    let store_value = match &d.store {
        Some(s) => Some(value_field("store.value", s.value, &table, n)?),
        None => None,
    };
    let supplement = d.store.as_ref().map(|s| s.supplement).unwrap_or_default();
    if store_value.is_some() && release_steps != 0 && d.release.is_some() {
        // allowed: a stored value that also releases by moving is not read by this format
        return Err(err(
            "store",
            "a stored value works with `release.steps = 0` (unlocking) or no release",
        ));
    }
    // Holds.
    let mut hold = vec![(0u8, 0u8); len];
    for (i, h) in d.holds.iter().enumerate() {
        let f = format!("holds[{i}]");
        let p = index(&format!("{f}.position"), h.position, len)?;
        if !(1..=255).contains(&h.throws) {
            return Err(err(
                &format!("{f}.throws"),
                format!("{}: expected 1 to 255", h.throws),
            ));
        }
        let v = value_field(&format!("{f}.value"), h.value, &table, n)?;
        if v == 0 {
            return Err(err(&format!("{f}.value"), "0 cannot count"));
        }
        hold[p] = (h.throws as u8, v);
    }
    // Opening.
    let opening = match &d.opening {
        Some(o) => Some((value_field("opening.value", o.value, &table, n)?, o.moves)),
        None => None,
    };
    // Pieces.
    let pc = &d.pieces;
    let mut start0: Vec<u8> = Vec::new();
    if pc.on_first_run {
        let end = if nruns > 1 { run_start[1] } else { len };
        start0.extend((0..end).map(|p| p as u8));
    }
    for &p in &pc.positions {
        start0.push(index("pieces.positions", p, len)? as u8);
    }
    if pc.off_board < 0 {
        return Err(err("pieces.off_board", "a count cannot be negative"));
    }
    if pc.off_board as usize > MAX_PIECES {
        return Err(err(
            "pieces.off_board",
            format!(
                "{} pieces a side: at most {MAX_PIECES} in all",
                pc.off_board
            ),
        ));
    }
    start0.extend(std::iter::repeat_n(OFF, pc.off_board as usize));
    if start0.is_empty() {
        return Err(err(
            "pieces",
            "no pieces: give `on_first_run`, `positions` or `off_board`",
        ));
    }
    if start0.len() * sides > MAX_PIECES {
        return Err(err(
            "pieces",
            format!(
                "{} pieces in all: at most {MAX_PIECES}",
                start0.len() * sides
            ),
        ));
    }
    if m.occupancy == Occupancy::Single {
        let mut seen = std::collections::BTreeSet::new();
        for &p in &start0 {
            if p != OFF && !seen.insert(squares0[p as usize]) {
                return Err(err("pieces.positions", "two pieces start on one square"));
            }
        }
    }
    if pc.off_board > 0 && d.release.is_none() {
        return Err(err(
            "pieces.off_board",
            "pieces off the board need a `release` to enter",
        ));
    }
    // End.
    let e = &d.end;
    let end_all_in = match &e.all_in {
        Some(r) => Some(region("end.all_in", r)?),
        None => None,
    };
    if e.separated && (shared || sides != 2) {
        return Err(err("end.separated", "needs two sides on turned tracks"));
    }
    if e.all_out
        && d.holds
            .iter()
            .all(|h| index("holds", h.position, len).ok() != Some(len - 1))
    {
        return Err(err(
            "end.all_out",
            "pieces get out by a hold on the track's last position; there is none",
        ));
    }
    if matches!(e.rank, Rank::Arrival | Rank::Out) && !e.all_out {
        return Err(err(
            "end.rank",
            "`arrival` and `out` rank seats that get out: set `all_out`",
        ));
    }
    // Chaser.
    let chaser = super::chaser::compile(
        d,
        &super::chaser::Context {
            len,
            sticks,
            shared,
            teams,
            table: &table,
            hold: &hold,
            pieces_per_side: start0.len(),
            index,
            compile_table,
        },
    )?;
    if d.turn.throws == TurnThrows::AllFirst
        && (d.release.is_some() || d.store.is_some() || d.chaser.is_some())
    {
        return Err(err(
            "turn.throws",
            "`all-first` turns take no release, store or chaser",
        ));
    }
    // Values.
    let mut values: Vec<u8> = table.value[..=n]
        .iter()
        .copied()
        .filter(|&v| v > 0)
        .collect();
    values.sort_unstable();
    values.dedup();
    if values.is_empty() {
        return Err(err(
            "throws.values",
            "every value is 0: no seat could ever move",
        ));
    }
    // Plain destinations.
    let mut next = Vec::new();
    let mut branches = Vec::new();
    let mut dest = Vec::with_capacity(sides * len * (MAX_VALUE + 1));
    let mut dest_sq = Vec::with_capacity(sides * len * (MAX_VALUE + 1));
    let mut path = Vec::new();
    let mut simple_walk = Vec::with_capacity(sides * len * (MAX_VALUE + 1));
    for squares in &square_of {
        next.push(next0.clone());
        branches.push(branches0.clone());
        for p in 0..len {
            // One step more for each value: `q` is where v steps end, `over` the squares of
            // the steps before the last, `plain_so_far` whether every step so far was
            // simple (a plain link, not from the limit or a fork; no step at all for v = 0,
            // which only the steps modulo 16 read).
            let mut q = p as u8;
            let mut over = Mask::default();
            let mut plain_so_far = true;
            for v in 0..=MAX_VALUE {
                if v > 0 && q != NONE {
                    if v > 1 {
                        over.set(squares[q as usize]);
                    }
                    let c = q as usize;
                    let l = &next0[c];
                    if q == limit
                        || !branches0[c].is_empty()
                        || !l.gate.is_open()
                        || l.set_flags != 0
                    {
                        plain_so_far = false;
                    }
                    q = l.to;
                }
                simple_walk.push(plain_so_far && q != NONE);
                dest.push(q);
                dest_sq.push(if q == NONE { NONE } else { squares[q as usize] });
                if !m.pass_own {
                    path.push(over);
                }
            }
        }
    }
    let linear = plain
        && limit == NONE
        && next0
            .iter()
            .enumerate()
            .all(|(p, l)| usize::from(l.to) == p + 1 || (p + 1 == len && l.to == NONE));
    let any_hold = hold.iter().any(|h| h.0 > 0);
    let forks = branches0.iter().any(|b| !b.is_empty());
    let pieces_per_side = start0.len();
    let mut compiled = Compiled {
        name: d.name.clone(),
        title: d.title.clone(),
        seats,
        sides,
        teams,
        rows,
        cols,
        board,
        sticks,
        table,
        chaser_table: chaser.table,
        chaser_appears: chaser.appears,
        driving_values: chaser.driving_values,
        steering: chaser.steering,
        square_of,
        pos_of,
        next,
        branches,
        track_len: len,
        plain,
        dest,
        dest_sq,
        path,
        simple_walk,
        linear,
        any_hold,
        forks,
        regions,
        region_names,
        flag_names,
        occupancy: m.occupancy,
        capture: m.capture == Capture::Landing,
        pass_own: m.pass_own,
        safe,
        limit,
        overshoot: m.overshoot,
        decide: m.decide,
        release_values,
        release_counts,
        release_steps,
        release_priority,
        has_release: d.release.is_some(),
        store_value,
        supplement,
        hold,
        all_first: d.turn.throws == TurnThrows::AllFirst,
        opening,
        end_no_pieces: e.no_pieces,
        end_all_in,
        end_separated: e.separated,
        end_frozen: e.frozen,
        end_all_out: e.all_out,
        rank: e.rank,
        start: vec![start0; sides],
        start_unmoved: d.release.is_some(),
        pieces_per_side,
        side_bits: core::array::from_fn(|side| {
            if side < sides && pieces_per_side > 0 {
                (u64::MAX >> (64 - pieces_per_side)) << (side * pieces_per_side)
            } else {
                0
            }
        }),
        values,
        plain_playouts: None,
        stocked_playouts: None,
        chased_playouts: None,
        stacked_playouts: None,
        spent_playouts: None,
        initial_state: super::state::State::EMPTY,
    };
    compiled.initial_state = compiled.initial();
    compiled.initial_state.layout = (compiled.sides as u8, compiled.pieces_per_side as u8);
    compiled.plain_playouts = super::plain::Plain::of(&compiled);
    compiled.stocked_playouts = super::stocked::Stocked::of(&compiled);
    compiled.chased_playouts = super::chased::Chased::of(&compiled);
    compiled.stacked_playouts = super::stacked::Stacked::of(&compiled);
    compiled.spent_playouts = super::spent::Spent::of(&compiled);
    Ok(compiled)
}
