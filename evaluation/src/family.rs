//! Families of configurations: distances between games and readings, a hierarchical
//! clustering, and the family tree drawn as an SVG dendrogram or written in Newick.
//!
//! The comparison (`stickdice compare`) measures each configuration — a game, its rule
//! options, its seat count — on the same metrics. This module turns those rows into a
//! picture of which readings and which siblings lie close:
//!
//! * **Distances on metrics** ([`distances`]). The metrics have different units (throws,
//!   shares, log10 counts), so each metric (column) is first normalised across the compared
//!   set ([`Normalisation`]: z-scores by default, or min–max), then rows are compared with
//!   the Euclidean distance or the cosine distance ([`Metric`]).
//! * **A distance on the rules' structure** ([`structure_distances`], [`rule_features`]),
//!   after the Digital Ludeme Project's game distances (Ludii, `Mining/src/gameDistance/`):
//!   each configuration is a bag of features — its game, seat count, capabilities and every
//!   rule option with its value — and two bags are compared with Ludii's Jaccard distance
//!   (`metrics/bagOfWords/Jaccard.java`): bags normalised to sum 1, then
//!   1 − Σ min(a, b) / Σ max(a, b). Two readings of one game share every feature but the
//!   options they set differently.
//! * **The tree** ([`upgma`], [`tree`]): agglomerative clustering with average linkage
//!   (UPGMA): the two closest clusters merge, and a merged cluster's distance to another is
//!   the mean distance between their members. Ties merge the pair whose smallest input
//!   indices come first, so the same input always gives the same tree.
//!
//! ```
//! use stickdice_evaluation::family;
//!
//! // Four configurations measured on one metric: 0, 1, 3 and 7.
//! let labels: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
//! let rows = vec![vec![0.0], vec![1.0], vec![3.0], vec![7.0]];
//! let d = family::distances(&labels, &rows, family::Normalisation::None, family::Metric::Euclidean)?;
//! let tree = family::upgma(&d);
//! assert_eq!(tree.newick(), "(((a:0.5,b:0.5):0.75,c:1.25):1.583333,d:2.833333);");
//! assert!(tree.svg().starts_with("<svg"));
//! # Ok::<(), family::FamilyError>(())
//! ```

use core::fmt::Write as _;

use serde::Serialize;
use stickdice::{AnyGame, Game};

use crate::chart;

/// What is wrong with the input of a distance or a tree.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FamilyError {
    /// Nothing to compare.
    #[error("no configurations to compare")]
    Empty,
    /// The labels and the rows do not pair up.
    #[error("{labels} labels for {rows} rows")]
    LabelCount {
        /// Labels given.
        labels: usize,
        /// Rows given.
        rows: usize,
    },
    /// The rows have no columns.
    #[error("the rows have no values to compare")]
    NoColumns,
    /// A row has another length than the first.
    #[error("row {row} ({label}) has {len} values, the first row has {expected}")]
    Ragged {
        /// The row's index.
        row: usize,
        /// The row's label.
        label: String,
        /// Its length.
        len: usize,
        /// The first row's length.
        expected: usize,
    },
    /// A value is NaN or infinite.
    #[error("row {row} ({label}), column {column}: {value} is not a finite number")]
    NotFinite {
        /// The row's index.
        row: usize,
        /// The row's label.
        label: String,
        /// The column's index.
        column: usize,
        /// The value.
        value: f64,
    },
    /// A distance matrix that is not one: not square, a negative or non-finite entry, a
    /// non-zero diagonal or an asymmetry.
    #[error("not a distance matrix: {0}")]
    NotADistance(String),
}

/// How each metric (column) is put on a common scale across the compared configurations
/// before distances are taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Normalisation {
    /// (x − mean) / sd, the mean and the population standard deviation (divisor n) of
    /// the column; a constant column becomes all zeros (it tells the configurations
    /// apart in nothing). Every metric then weighs the same, whatever its unit.
    #[default]
    ZScore,
    /// (x − min) / (max − min): every column in [0, 1]; a constant column becomes zeros.
    MinMax,
    /// The values as given (for metrics already on one scale, and for tests).
    None,
}

/// How two normalised rows are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Metric {
    /// √Σ (x_i − y_i)²: how far apart the profiles are, metric by metric.
    #[default]
    Euclidean,
    /// 1 − x·y / (‖x‖ ‖y‖), in [0, 2]: whether the profiles point the same way (on
    /// z-scores: whether the same metrics are above and below the set's mean), whatever
    /// how far. A zero row (a configuration at the mean on every metric) has no direction:
    /// its distance is 0 to another zero row and 1 to any other row. Values below 1e-12
    /// are 0, as in Ludii's `Cosine.java`.
    Cosine,
}

impl Normalisation {
    /// The name used in outputs (`z-score`, `min-max`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            Normalisation::ZScore => "z-score",
            Normalisation::MinMax => "min-max",
            Normalisation::None => "none",
        }
    }
}

impl Metric {
    /// The name used in outputs (`euclidean`, `cosine`).
    pub fn name(self) -> &'static str {
        match self {
            Metric::Euclidean => "euclidean",
            Metric::Cosine => "cosine",
        }
    }
}

/// Checks that `labels` and `rows` pair up, the rows are non-empty, equally long and
/// finite.
fn check_rows(labels: &[String], rows: &[Vec<f64>]) -> Result<usize, FamilyError> {
    if rows.is_empty() {
        return Err(FamilyError::Empty);
    }
    if labels.len() != rows.len() {
        return Err(FamilyError::LabelCount {
            labels: labels.len(),
            rows: rows.len(),
        });
    }
    let width = rows[0].len();
    if width == 0 {
        return Err(FamilyError::NoColumns);
    }
    for (r, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(FamilyError::Ragged {
                row: r,
                label: labels[r].clone(),
                len: row.len(),
                expected: width,
            });
        }
        if let Some((c, &v)) = row.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(FamilyError::NotFinite {
                row: r,
                label: labels[r].clone(),
                column: c,
                value: v,
            });
        }
    }
    Ok(width)
}

/// The indices of the columns whose values are finite in every row: the metrics every
/// compared configuration has (a metric a game does not have is NaN in its row). Rows of
/// unequal length keep only the columns all of them reach.
pub fn complete_columns(rows: &[Vec<f64>]) -> Vec<usize> {
    let width = rows.iter().map(Vec::len).min().unwrap_or(0);
    (0..width)
        .filter(|&c| rows.iter().all(|r| r[c].is_finite()))
        .collect()
}

/// `rows` with each column normalised across the rows (see [`Normalisation`]).
///
/// # Errors
/// No rows, no columns, rows of unequal length, or a value that is not finite.
pub fn normalise(
    labels: &[String],
    rows: &[Vec<f64>],
    normalisation: Normalisation,
) -> Result<Vec<Vec<f64>>, FamilyError> {
    let width = check_rows(labels, rows)?;
    let n = rows.len() as f64;
    let mut out = rows.to_vec();
    if normalisation == Normalisation::None {
        return Ok(out);
    }
    for c in 0..width {
        let column = rows.iter().map(|r| r[c]);
        let (shift, scale) = match normalisation {
            Normalisation::ZScore => {
                let mean = column.clone().sum::<f64>() / n;
                let var = column.map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
                (mean, var.sqrt())
            }
            _ => {
                let lo = column.clone().fold(f64::INFINITY, f64::min);
                let hi = column.fold(f64::NEG_INFINITY, f64::max);
                (lo, hi - lo)
            }
        };
        for row in &mut out {
            // A constant column (or one whose spread is lost in rounding) tells nothing.
            row[c] = if scale > 1e-12 * shift.abs().max(1.0) {
                (row[c] - shift) / scale
            } else {
                0.0
            };
        }
    }
    Ok(out)
}

/// The distance between two rows of equal length.
fn row_distance(metric: Metric, x: &[f64], y: &[f64]) -> f64 {
    match metric {
        Metric::Euclidean => x
            .iter()
            .zip(y)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            .sqrt(),
        Metric::Cosine => {
            let dot: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
            let nx = x.iter().map(|a| a * a).sum::<f64>().sqrt();
            let ny = y.iter().map(|b| b * b).sum::<f64>().sqrt();
            match (nx > 0.0, ny > 0.0) {
                (false, false) => 0.0,
                (true, true) => {
                    let d = (1.0 - dot / (nx * ny)).clamp(0.0, 2.0);
                    if d < 1e-12 {
                        0.0
                    } else {
                        d
                    }
                }
                _ => 1.0,
            }
        }
    }
}

/// A symmetric matrix of distances between labelled configurations, with how it was made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DistanceMatrix {
    labels: Vec<String>,
    /// Row-major, `n × n`.
    values: Vec<f64>,
    method: String,
}

impl DistanceMatrix {
    /// A matrix from its rows, checked: square, finite, non-negative, a zero diagonal,
    /// symmetric within 1e-9 (relative); it is then made exactly symmetric (the mean of
    /// the two halves). `method` says how the distances were made, for outputs.
    ///
    /// # Errors
    /// Nothing to compare, labels that do not pair with the rows, or not a distance matrix.
    pub fn new(
        labels: &[String],
        rows: &[Vec<f64>],
        method: &str,
    ) -> Result<DistanceMatrix, FamilyError> {
        let n = rows.len();
        if n == 0 {
            return Err(FamilyError::Empty);
        }
        if labels.len() != n {
            return Err(FamilyError::LabelCount {
                labels: labels.len(),
                rows: n,
            });
        }
        let bad = |what: String| Err(FamilyError::NotADistance(what));
        let mut values = vec![0.0; n * n];
        for (i, row) in rows.iter().enumerate() {
            if row.len() != n {
                return bad(format!("row {i} has {} entries for {n} labels", row.len()));
            }
            for (j, &d) in row.iter().enumerate() {
                if !d.is_finite() || d < 0.0 {
                    return bad(format!("entry ({i}, {j}) is {d}"));
                }
                if i == j && d != 0.0 {
                    return bad(format!("the diagonal entry ({i}, {i}) is {d}"));
                }
                let e = rows[j][i];
                if (d - e).abs() > 1e-9 * d.max(e).max(1.0) {
                    return bad(format!(
                        "entries ({i}, {j}) = {d} and ({j}, {i}) = {e} differ"
                    ));
                }
                values[i * n + j] = if i < j { (d + e) / 2.0 } else { 0.0 };
            }
        }
        for i in 0..n {
            for j in 0..i {
                values[i * n + j] = values[j * n + i];
            }
        }
        Ok(DistanceMatrix {
            labels: labels.to_vec(),
            values,
            method: method.to_owned(),
        })
    }

    /// The number of configurations.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there is none (never: a matrix has at least one configuration).
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The configurations' labels, in input order.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// How the distances were made (for example `euclidean on z-score`).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The distance between configurations `i` and `j`.
    ///
    /// # Panics
    /// An index out of range.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        let n = self.len();
        assert!(i < n && j < n, "index ({i}, {j}) out of a {n} × {n} matrix");
        self.values[i * n + j]
    }

    /// The matrix as rows.
    pub fn rows(&self) -> Vec<Vec<f64>> {
        self.values
            .chunks(self.len())
            .map(<[f64]>::to_vec)
            .collect()
    }

    /// The closest pair of different configurations `(i, j, distance)` with `i < j`, the
    /// first in input order among ties; `None` with one configuration.
    pub fn closest_pair(&self) -> Option<(usize, usize, f64)> {
        let n = self.len();
        let mut best: Option<(usize, usize, f64)> = None;
        for i in 0..n {
            for j in i + 1..n {
                let d = self.get(i, j);
                if best.is_none_or(|(_, _, b)| d < b) {
                    best = Some((i, j, d));
                }
            }
        }
        best
    }

    /// A Markdown table, distances to 3 decimals, with the method as a caption line.
    pub fn to_markdown(&self) -> String {
        let mut o = format!("Distances ({}):\n\n|  |", self.method);
        for l in &self.labels {
            let _ = write!(o, " {} |", markdown_cell(l));
        }
        o.push_str("\n|---|");
        o.push_str(&"---:|".repeat(self.len()));
        o.push('\n');
        for (i, l) in self.labels.iter().enumerate() {
            let _ = write!(o, "| {} |", markdown_cell(l));
            for j in 0..self.len() {
                let _ = write!(o, " {:.3} |", self.get(i, j));
            }
            o.push('\n');
        }
        o
    }

    /// CSV: a header of labels after an empty cell, then one row per configuration, full
    /// precision (Rust's shortest round-trip form).
    pub fn to_csv(&self) -> String {
        let mut o = String::from("configuration");
        for l in &self.labels {
            o.push(',');
            o.push_str(&csv_cell(l));
        }
        o.push('\n');
        for (i, l) in self.labels.iter().enumerate() {
            o.push_str(&csv_cell(l));
            for j in 0..self.len() {
                let _ = write!(o, ",{}", self.get(i, j));
            }
            o.push('\n');
        }
        o
    }
}

fn markdown_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The distances between the configurations' metric rows: each column normalised across
/// the rows, then rows compared by `metric`.
///
/// # Errors
/// No rows, labels that do not pair with the rows, no columns, rows of unequal length, or
/// a value that is not finite (drop the metrics some configuration lacks first: see
/// [`complete_columns`]).
pub fn distances(
    labels: &[String],
    rows: &[Vec<f64>],
    normalisation: Normalisation,
    metric: Metric,
) -> Result<DistanceMatrix, FamilyError> {
    let z = normalise(labels, rows, normalisation)?;
    let n = z.len();
    let mut m = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let d = row_distance(metric, &z[i], &z[j]);
            m[i][j] = d;
            m[j][i] = d;
        }
    }
    DistanceMatrix::new(
        labels,
        &m,
        &format!("{} on {}", metric.name(), normalisation.name()),
    )
}

/// What a game of the list offers beyond its rules, by kind (`stickdice_rl::offers`).
pub type Offers = fn(stickdice::GameKind) -> Vec<&'static str>;

/// The features of a configuration's rules, as a bag for [`structure_distances`] — our
/// counterpart of the boolean concepts Ludii compares games on
/// (`Mining/src/gameDistance/datasets/bagOfWords/BooleanConceptDataset.java`). Sorted:
///
/// * what the rules are made of, read from the game's own description of its board and
///   equipment (the [`Board`](stickdice::Board) geometry and the sticks): `sticks=N`,
///   `squares=N`, `track=shared` or `track=per-seat`, `track=loops` where a circuit loops
///   forever, `pieces-per-seat=N`, `neutral-piece=KIND` (the Ghoula), and `piece=KIND`
///   for every kind of piece on the board at the start (`piece`, `father`, …);
/// * the seat count (`seats=N`);
/// * each part the game offers beyond its rules (`capability=exact`, …), as `offers`
///   answers for its kind (`stickdice_rl::offers` asks every crate that provides one),
///   which says, for one, whether the game is small enough to solve;
/// * the game (`game=NAME`) and each rule option with its value (`NAME:option=value`,
///   prefixed by the game because two games' options of one name are different rules).
pub fn rule_features(game: &AnyGame, offers: Offers) -> Vec<String> {
    use stickdice::Board;
    let kind = game.kind();
    let (seats, options, sticks, geometry, pieces) = stickdice::with_game!(game, |g| (
        g.seats(),
        g.options(),
        g.sticks().count(),
        g.geometry(),
        g.pieces(&g.initial_state())
    ));
    let mut f = vec![
        format!("game={}", kind.name()),
        format!("seats={seats}"),
        format!("sticks={sticks}"),
        format!("squares={}", geometry.squares.len()),
    ];
    let shared = geometry.tracks.iter().any(|t| t.seat.is_none());
    f.push(format!(
        "track={}",
        if shared { "shared" } else { "per-seat" }
    ));
    if geometry.tracks.iter().any(|t| t.loops_to.is_some()) {
        f.push("track=loops".to_owned());
    }
    let own = pieces.iter().filter(|p| p.seat == Some(0)).count();
    f.push(format!("pieces-per-seat={own}"));
    for p in &pieces {
        f.push(match p.seat {
            Some(_) => format!("piece={}", p.kind),
            None => format!("neutral-piece={}", p.kind),
        });
    }
    f.extend(offers(kind).into_iter().map(|c| format!("capability={c}")));
    f.extend(
        options
            .into_iter()
            .map(|(k, v)| format!("{}:{k}={v}", kind.name())),
    );
    f.sort();
    f.dedup();
    f
}

/// Ludii's weighted Jaccard distance between two bags of features (each feature weighing
/// 1 in its bag), after normalising each bag to sum 1 (`Mining/src/gameDistance/`:
/// `metrics/bagOfWords/Jaccard.java`, `DistanceUtils.getGameDataset`, the default
/// vocabulary of weight 1): 1 − Σ_w min(a_w, b_w) / Σ_w max(a_w, b_w). For bags of equal
/// size this is the plain Jaccard distance 1 − |A ∩ B| / |A ∪ B|. Two empty bags are at 0.
pub fn jaccard(a: &[String], b: &[String]) -> f64 {
    let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut b: Vec<&str> = b.iter().map(String::as_str).collect();
    a.sort_unstable();
    a.dedup();
    b.sort_unstable();
    b.dedup();
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let wa = if a.is_empty() {
        0.0
    } else {
        1.0 / a.len() as f64
    };
    let wb = if b.is_empty() {
        0.0
    } else {
        1.0 / b.len() as f64
    };
    let (mut min, mut max) = (0.0, 0.0);
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (x, y) = match (a.get(i), b.get(j)) {
            (Some(p), Some(q)) if p == q => {
                i += 1;
                j += 1;
                (wa, wb)
            }
            (Some(p), Some(q)) if p < q => {
                i += 1;
                (wa, 0.0)
            }
            (Some(_), None) => {
                i += 1;
                (wa, 0.0)
            }
            _ => {
                j += 1;
                (0.0, wb)
            }
        };
        min += f64::min(x, y);
        max += f64::max(x, y);
    }
    1.0 - min / max
}

/// The distances between configurations on their rules' structure: [`jaccard`] between
/// their feature bags (for games, [`rule_features`]).
///
/// # Errors
/// No configurations, or labels that do not pair with the bags.
pub fn structure_distances(
    labels: &[String],
    features: &[Vec<String>],
) -> Result<DistanceMatrix, FamilyError> {
    if features.is_empty() {
        return Err(FamilyError::Empty);
    }
    if labels.len() != features.len() {
        return Err(FamilyError::LabelCount {
            labels: labels.len(),
            rows: features.len(),
        });
    }
    let n = features.len();
    let mut m = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let d = jaccard(&features[i], &features[j]);
            m[i][j] = d;
            m[j][i] = d;
        }
    }
    DistanceMatrix::new(labels, &m, "jaccard on rule features")
}

/// A node of a [`Tree`]: an input configuration or a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Node {
    /// The configuration of this input index.
    Leaf(usize),
    /// The merge of this index in [`Tree::merges`].
    Cluster(usize),
}

/// One step of the clustering: two clusters joined at a distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Merge {
    /// The cluster holding the smaller input index.
    pub left: Node,
    /// The other cluster.
    pub right: Node,
    /// The average-linkage distance at which they join (the dendrogram's height).
    pub height: f64,
    /// The configurations in the merged cluster.
    pub size: usize,
}

/// A family tree: the merges of an agglomerative clustering, in the order they happened
/// (heights never decrease); the last merge is the root. One configuration gives a tree
/// without merges.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tree {
    labels: Vec<String>,
    merges: Vec<Merge>,
    method: String,
}

/// Average-linkage (UPGMA) clustering of a distance matrix. The two closest clusters
/// merge; a merged cluster's distance to another is the mean of the distances between
/// their members. Among equally close pairs, the one whose clusters' smallest input
/// indices come first merges (compared as the sorted pair), so the tree depends only on
/// the matrix.
pub fn upgma(matrix: &DistanceMatrix) -> Tree {
    let n = matrix.len();
    // Slot k holds a live cluster: its node, size and smallest input index.
    let mut live: Vec<Option<(Node, usize, usize)>> =
        (0..n).map(|i| Some((Node::Leaf(i), 1, i))).collect();
    let mut d = matrix.rows();
    let mut merges = Vec::with_capacity(n.saturating_sub(1));
    for _ in 1..n {
        let mut best: Option<(f64, usize, usize, usize, usize)> = None;
        for a in 0..n {
            let Some((_, _, la)) = live[a] else { continue };
            for b in a + 1..n {
                let Some((_, _, lb)) = live[b] else { continue };
                let key = (d[a][b], la.min(lb), la.max(lb));
                let better = match best {
                    None => true,
                    Some((bd, lo, hi, _, _)) => {
                        key.0 < bd || (key.0 == bd && (key.1, key.2) < (lo, hi))
                    }
                };
                if better {
                    best = Some((key.0, key.1, key.2, a, b));
                }
            }
        }
        let (height, _, _, a, b) = best.expect("two live clusters remain");
        let (na, sa, la) = live[a].expect("live");
        let (nb, sb, lb) = live[b].expect("live");
        let (left, right) = if la < lb { (na, nb) } else { (nb, na) };
        merges.push(Merge {
            left,
            right,
            height,
            size: sa + sb,
        });
        let (wa, wb) = (sa as f64, sb as f64);
        for k in 0..n {
            if k != a && k != b && live[k].is_some() {
                let v = (wa * d[a][k] + wb * d[b][k]) / (wa + wb);
                d[a][k] = v;
                d[k][a] = v;
            }
        }
        live[a] = Some((Node::Cluster(merges.len() - 1), sa + sb, la.min(lb)));
        live[b] = None;
    }
    Tree {
        labels: matrix.labels().to_vec(),
        merges,
        method: format!("average linkage (UPGMA) of {}", matrix.method()),
    }
}

/// The family tree of configurations measured on the same metrics: z-scores per metric,
/// Euclidean distances, average linkage ([`distances`] then [`upgma`]).
///
/// # Errors
/// As [`distances`].
pub fn tree(labels: &[String], rows: &[Vec<f64>]) -> Result<Tree, FamilyError> {
    Ok(upgma(&distances(
        labels,
        rows,
        Normalisation::ZScore,
        Metric::Euclidean,
    )?))
}

impl Tree {
    /// The configurations' labels, in input order.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The merges, in the order they happened; the last is the root.
    pub fn merges(&self) -> &[Merge] {
        &self.merges
    }

    /// How the tree was made (for example `average linkage (UPGMA) of euclidean on
    /// z-score`).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The root: the last merge, or the only leaf.
    pub fn root(&self) -> Node {
        match self.merges.len() {
            0 => Node::Leaf(0),
            m => Node::Cluster(m - 1),
        }
    }

    fn height(&self, node: Node) -> f64 {
        match node {
            Node::Leaf(_) => 0.0,
            Node::Cluster(c) => self.merges[c].height,
        }
    }

    /// The input indices in the order the dendrogram draws them (depth first, left before
    /// right): members of a cluster are adjacent.
    pub fn leaf_order(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.labels.len());
        let mut stack = vec![self.root()];
        while let Some(node) = stack.pop() {
            match node {
                Node::Leaf(i) => out.push(i),
                Node::Cluster(c) => {
                    stack.push(self.merges[c].right);
                    stack.push(self.merges[c].left);
                }
            }
        }
        out
    }

    /// The cophenetic distance between configurations `i` and `j`: the height of the
    /// merge that first puts them in one cluster (0 for `i == j`).
    ///
    /// # Panics
    /// An index out of range.
    pub fn cophenetic(&self, i: usize, j: usize) -> f64 {
        let n = self.labels.len();
        assert!(i < n && j < n, "index ({i}, {j}) out of {n} configurations");
        if i == j {
            return 0.0;
        }
        // The members of each merge, built up the merges.
        let mut members: Vec<Vec<usize>> = Vec::with_capacity(self.merges.len());
        for m in &self.merges {
            let mut all = Vec::new();
            for side in [m.left, m.right] {
                match side {
                    Node::Leaf(k) => all.push(k),
                    Node::Cluster(k) => all.extend_from_slice(&members[k]),
                }
            }
            if all.contains(&i) && all.contains(&j) {
                return m.height;
            }
            members.push(all);
        }
        unreachable!("the root holds every configuration")
    }

    /// The cophenetic correlation: Pearson's correlation between the distances and the
    /// tree's cophenetic distances over all pairs — how faithfully the tree shows the
    /// distances (1 = exactly). `None` with fewer than three configurations, when either
    /// side is constant, or when `matrix` is of another size.
    pub fn cophenetic_correlation(&self, matrix: &DistanceMatrix) -> Option<f64> {
        let n = self.labels.len();
        if n < 3 || matrix.len() != n {
            return None;
        }
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                xs.push(matrix.get(i, j));
                ys.push(self.cophenetic(i, j));
            }
        }
        let m = xs.len() as f64;
        let (mx, my) = (xs.iter().sum::<f64>() / m, ys.iter().sum::<f64>() / m);
        let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
        for (x, y) in xs.iter().zip(&ys) {
            sxy += (x - mx) * (y - my);
            sxx += (x - mx) * (x - mx);
            syy += (y - my) * (y - my);
        }
        (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
    }

    /// The tree in Newick format (for ludologists' and phylogeneticists' tools): leaves
    /// are the labels (quoted `'…'` unless made only of letters, digits and `-.=+/`),
    /// branch lengths are half the height differences, so the path between two leaves
    /// through the tree is their cophenetic distance (6 decimals, trailing zeros dropped).
    pub fn newick(&self) -> String {
        let mut o = String::new();
        self.write_newick(self.root(), None, &mut o);
        o.push(';');
        o
    }

    fn write_newick(&self, node: Node, parent: Option<f64>, o: &mut String) {
        match node {
            Node::Leaf(i) => o.push_str(&newick_label(&self.labels[i])),
            Node::Cluster(c) => {
                let m = self.merges[c];
                o.push('(');
                self.write_newick(m.left, Some(m.height), o);
                o.push(',');
                self.write_newick(m.right, Some(m.height), o);
                o.push(')');
            }
        }
        if let Some(h) = parent {
            o.push(':');
            o.push_str(&short_number((h - self.height(node)) / 2.0));
        }
    }

    /// The dendrogram as a self-contained SVG document: one row per configuration
    /// (labels on the left, in [`Tree::leaf_order`]), the distance growing to the right on
    /// an axis at the bottom, each merge a bracket at its height.
    pub fn svg(&self) -> String {
        let n = self.labels.len();
        let order = self.leaf_order();
        let row = 24.0;
        let label_w = self
            .labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .clamp(4, 60) as f64
            * 7.0;
        let (left, top, plot_w) = (label_w + 24.0, 48.0, 480.0);
        let width = left + plot_w + 40.0;
        let height = top + n as f64 * row + 56.0;
        let max_h = self.merges.last().map_or(0.0, |m| m.height);
        let step = chart::nice_step(if max_h > 0.0 { max_h / 5.0 } else { 0.2 });
        let axis_max = (max_h / step).ceil().max(1.0) * step;
        let x = |h: f64| left + h / axis_max * plot_w;
        let mut y = vec![0.0; n + self.merges.len()];
        for (k, &i) in order.iter().enumerate() {
            y[i] = top + (k as f64 + 0.5) * row;
        }
        let mut o = String::new();
        chart::begin(&mut o, width, height);
        let _ = writeln!(
            o,
            r#"<text x="{:.1}" y="24" font-size="14" font-weight="bold">Family tree</text>"#,
            12.0
        );
        let _ = writeln!(
            o,
            r##"<text x="{:.1}" y="40" fill="#555">{}</text>"##,
            12.0,
            chart::escape(&self.method)
        );
        // Axis and grid.
        let axis_y = top + n as f64 * row + 8.0;
        let _ = writeln!(
            o,
            r#"<line x1="{:.1}" y1="{axis_y:.1}" x2="{:.1}" y2="{axis_y:.1}" stroke="black"/>"#,
            x(0.0),
            x(axis_max)
        );
        let ticks = (axis_max / step).round() as usize;
        for t in 0..=ticks {
            let v = t as f64 * step;
            let _ = writeln!(
                o,
                r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{axis_y:.1}" stroke="#ddd"/>"##,
                x(v),
                top
            );
            let _ = writeln!(
                o,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                x(v),
                axis_y + 16.0,
                short_number(v)
            );
        }
        let _ = writeln!(
            o,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">distance</text>"#,
            x(axis_max / 2.0),
            axis_y + 34.0
        );
        // Labels.
        for (i, label) in self.labels.iter().enumerate() {
            let _ = writeln!(
                o,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end" dominant-baseline="middle">{}</text>"#,
                left - 8.0,
                y[i],
                chart::escape(label)
            );
        }
        // Brackets, in merge order (children are always drawn before parents).
        let pos = |node: Node, y: &[f64]| match node {
            Node::Leaf(i) => (x(0.0), y[i]),
            Node::Cluster(c) => (x(self.merges[c].height), y[n + c]),
        };
        for (c, m) in self.merges.iter().enumerate() {
            let (lx, ly) = pos(m.left, &y);
            let (rx, ry) = pos(m.right, &y);
            let hx = x(m.height);
            let _ = writeln!(
                o,
                r#"<path d="M{lx:.1},{ly:.1} H{hx:.1} V{ry:.1} H{rx:.1}" fill="none" stroke="black" stroke-width="1.5"><title>{} at {}</title></path>"#,
                m.size,
                short_number(m.height)
            );
            y[n + c] = (ly + ry) / 2.0;
        }
        chart::end(&mut o);
        o
    }
}

/// The family of a comparison's configurations: the distances on their metrics and on their
/// rules' structure, and a tree for each, ready to write next to the comparison's other
/// outputs ([`Family::files`], [`Family::to_markdown`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Family {
    /// The agent whose games the metrics come from (the comparison's first).
    pub agent: String,
    /// The metrics the distances use: every metric with a value in every configuration,
    /// except the exact twins of simulated ones (`ExactAdvantageP1`,
    /// `ExactDurationThrows`), which would count one property twice.
    pub metrics: Vec<&'static str>,
    /// The metrics left out because some configuration has no value for them.
    pub left_out: Vec<&'static str>,
    /// Euclidean distances on the metrics' z-scores.
    pub distances: DistanceMatrix,
    /// Their average-linkage tree.
    pub tree: Tree,
    /// How faithfully the tree shows the distances (see [`Tree::cophenetic_correlation`]).
    pub cophenetic_correlation: Option<f64>,
    /// Jaccard distances on the rules' features ([`rule_features`]).
    pub structure: DistanceMatrix,
    /// Their average-linkage tree.
    pub structure_tree: Tree,
}

impl Family {
    /// The family of `comparison`'s configurations, from its first agent's figures; the
    /// structure's features name what each game offers as `offers` says
    /// (`stickdice_rl::offers`).
    ///
    /// # Errors
    /// No configuration, or no metric with a value in every configuration.
    pub fn of(
        comparison: &crate::compare::Comparison,
        offers: Offers,
    ) -> Result<Family, FamilyError> {
        let results = &comparison.results;
        if results.is_empty() {
            return Err(FamilyError::Empty);
        }
        let agent = comparison
            .settings
            .agents
            .first()
            .cloned()
            .unwrap_or_default();
        let labels: Vec<String> = results.iter().map(|r| r.label.clone()).collect();
        let value = |r: &crate::compare::ConfigurationResult, m: &str| {
            r.rows
                .iter()
                .find(|row| row.agent == agent)
                .and_then(|row| row.get(m))
                .and_then(|x| x.value)
                .filter(|v| v.is_finite())
        };
        let candidates: Vec<&'static str> = comparison
            .metrics
            .iter()
            .copied()
            .filter(|m| !m.starts_with("Exact"))
            .collect();
        let (metrics, left_out): (Vec<&'static str>, Vec<&'static str>) = candidates
            .into_iter()
            .partition(|m| results.iter().all(|r| value(r, m).is_some()));
        if metrics.is_empty() {
            return Err(FamilyError::NoColumns);
        }
        let rows: Vec<Vec<f64>> = results
            .iter()
            .map(|r| {
                metrics
                    .iter()
                    .map(|m| value(r, m).expect("complete"))
                    .collect()
            })
            .collect();
        let distances = distances(&labels, &rows, Normalisation::ZScore, Metric::Euclidean)?;
        let tree = upgma(&distances);
        let cophenetic_correlation = tree.cophenetic_correlation(&distances);
        let features = results
            .iter()
            .map(|r| {
                r.configuration
                    .build()
                    .map(|g| rule_features(&g, offers))
                    .map_err(|e| FamilyError::NotADistance(format!("{}: {e}", r.label)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let structure = structure_distances(&labels, &features)?;
        let structure_tree = upgma(&structure);
        Ok(Family {
            agent,
            metrics,
            left_out,
            distances,
            tree,
            cophenetic_correlation,
            structure,
            structure_tree,
        })
    }

    /// The files to write into the comparison's output directory, as (file name,
    /// contents): `family.svg` and `family.nwk` (the tree on the metrics),
    /// `family-distances.csv`, and `family-structure.svg`, `family-structure.nwk`,
    /// `family-structure.csv` (the tree and distances on the rules' structure).
    pub fn files(&self) -> Vec<(String, String)> {
        vec![
            ("family.svg".to_owned(), self.tree.svg()),
            ("family.nwk".to_owned(), self.tree.newick() + "\n"),
            ("family-distances.csv".to_owned(), self.distances.to_csv()),
            ("family-structure.svg".to_owned(), self.structure_tree.svg()),
            (
                "family-structure.nwk".to_owned(),
                self.structure_tree.newick() + "\n",
            ),
            ("family-structure.csv".to_owned(), self.structure.to_csv()),
        ]
    }

    /// A Markdown section "Family tree": what the distances use, the closest pairs, both
    /// distance tables and both trees in Newick.
    pub fn to_markdown(&self) -> String {
        let mut o = String::from("## Family tree\n\n");
        let _ = writeln!(
            o,
            "From the `{}` games: {} metrics with a value in every configuration ({}), each as z-scores across the configurations; Euclidean distances; average linkage (UPGMA).",
            self.agent,
            self.metrics.len(),
            self.metrics.join(", ")
        );
        if !self.left_out.is_empty() {
            let _ = writeln!(
                o,
                "Left out (no value in some configuration): {}.",
                self.left_out.join(", ")
            );
        }
        if let Some(r) = self.cophenetic_correlation {
            let _ = writeln!(o, "Cophenetic correlation: {r:.3}.");
        }
        let labels = self.distances.labels();
        for (what, d) in [
            ("metrics", &self.distances),
            ("rules' structure", &self.structure),
        ] {
            if let Some((i, j, v)) = d.closest_pair() {
                let _ = writeln!(
                    o,
                    "Closest on the {what}: {} and {} ({v:.3}).",
                    labels[i], labels[j]
                );
            }
        }
        let _ = write!(
            o,
            "\n{}\nTree (Newick): `{}`\n\n{}\nTree on the rules' structure (Newick): `{}`\n",
            self.distances.to_markdown(),
            self.tree.newick(),
            self.structure.to_markdown(),
            self.structure_tree.newick()
        );
        o
    }
}

/// `v` to 6 decimals without trailing zeros (`0.5`, `1.583333`, `2`).
fn short_number(v: f64) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// A Newick leaf name: bare if made only of letters, digits and `-.=+/`, else quoted with
/// inner quotes doubled.
fn newick_label(label: &str) -> String {
    let bare = !label.is_empty()
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-.=+/".contains(c));
    if bare {
        label.to_owned()
    } else {
        format!("'{}'", label.replace('\'', "''"))
    }
}

#[cfg(test)]
mod tests {
    /// What a game offers, as far as this crate and the agents' can tell (the encodings
    /// are the `stickdice-rl` crate's, above this one).
    fn offers_here(kind: stickdice::GameKind) -> Vec<&'static str> {
        let mut out = vec!["board"];
        for (part, games) in [
            ("evaluate", stickdice_agents::evaluations()),
            ("exact", stickdice_agents::solvers()),
            ("measure", crate::measures()),
            ("review", crate::references()),
            ("tablebase", stickdice_agents::tablebases()),
        ] {
            if games.contains(&kind) {
                out.push(part);
            }
        }
        out
    }

    use super::*;

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Four points on a line at 0, 1, 3 and 7.
    fn line() -> (Vec<String>, Vec<Vec<f64>>) {
        (
            labels(&["a", "b", "c", "d"]),
            vec![vec![0.0], vec![1.0], vec![3.0], vec![7.0]],
        )
    }

    #[test]
    fn four_points_on_a_line_give_the_known_distances_and_tree() {
        let (l, rows) = line();
        let d = distances(&l, &rows, Normalisation::None, Metric::Euclidean).unwrap();
        assert_eq!(d.get(0, 3), 7.0);
        assert_eq!(d.get(2, 1), 2.0);
        assert_eq!(d.closest_pair(), Some((0, 1, 1.0)));
        let t = upgma(&d);
        // {a,b} at 1; then c joins at (3 + 2)/2 = 2.5; then d at (7 + 6 + 4)/3 = 17/3.
        let m = t.merges();
        assert_eq!(m.len(), 3);
        assert_eq!(
            (m[0].left, m[0].right, m[0].height, m[0].size),
            (Node::Leaf(0), Node::Leaf(1), 1.0, 2)
        );
        assert_eq!(
            (m[1].left, m[1].right, m[1].height),
            (Node::Cluster(0), Node::Leaf(2), 2.5)
        );
        assert!(close(m[2].height, 17.0 / 3.0));
        assert_eq!(
            (m[2].left, m[2].right, m[2].size),
            (Node::Cluster(1), Node::Leaf(3), 4)
        );
        assert_eq!(t.leaf_order(), vec![0, 1, 2, 3]);
        assert_eq!(
            t.newick(),
            "(((a:0.5,b:0.5):0.75,c:1.25):1.583333,d:2.833333);"
        );
        assert_eq!(t.cophenetic(0, 1), 1.0);
        assert_eq!(t.cophenetic(1, 2), 2.5);
        assert!(close(t.cophenetic(3, 0), 17.0 / 3.0));
        assert_eq!(t.cophenetic(2, 2), 0.0);
        // Pearson's r of (1, 3, 7, 2, 6, 4) and (1, 2.5, 17/3, 2.5, 17/3, 17/3).
        let r = t.cophenetic_correlation(&d).unwrap();
        assert!((r - 0.898_584_117_458_720_8).abs() < 1e-12, "{r}");
        // Scaling or shifting the one metric changes nothing after z-scores.
        let scaled: Vec<Vec<f64>> = rows.iter().map(|r| vec![10.0 * r[0] - 4.0]).collect();
        assert_eq!(tree(&l, &scaled).unwrap().leaf_order(), vec![0, 1, 2, 3]);
        assert_eq!(
            tree(&l, &scaled)
                .unwrap()
                .newick()
                .replace(char::is_numeric, ""),
            t.newick().replace(char::is_numeric, "")
        );
    }

    #[test]
    fn z_scores_and_min_max_per_column() {
        let l = labels(&["x", "y", "z"]);
        let rows = vec![
            vec![1.0, 5.0, 0.0],
            vec![2.0, 5.0, 10.0],
            vec![3.0, 5.0, 20.0],
        ];
        let z = normalise(&l, &rows, Normalisation::ZScore).unwrap();
        let s = (2.0f64 / 3.0).sqrt(); // population sd of 1, 2, 3
        assert!(close(z[0][0], -1.0 / s) && close(z[1][0], 0.0) && close(z[2][0], 1.0 / s));
        assert_eq!(
            [z[0][1], z[1][1], z[2][1]],
            [0.0; 3],
            "a constant column is zeros"
        );
        assert!(close(z[2][2], 1.0 / s));
        let m = normalise(&l, &rows, Normalisation::MinMax).unwrap();
        assert_eq!(
            m,
            vec![
                vec![0.0, 0.0, 0.0],
                vec![0.5, 0.0, 0.5],
                vec![1.0, 0.0, 1.0]
            ]
        );
        // Euclidean on z-scores: x and z differ by 2/s in two columns.
        let d = distances(&l, &rows, Normalisation::ZScore, Metric::Euclidean).unwrap();
        assert!(close(d.get(0, 2), (2.0 * (2.0 / s) * (2.0 / s)).sqrt()));
        assert_eq!(d.method(), "euclidean on z-score");
    }

    #[test]
    fn cosine_distances_known_values() {
        let l = labels(&["e1", "e2", "diag", "diag2", "zero", "zero2", "neg"]);
        let rows = vec![
            vec![1.0, 0.0],
            vec![0.0, 1.0],
            vec![1.0, 1.0],
            vec![2.0, 2.0],
            vec![0.0, 0.0],
            vec![0.0, 0.0],
            vec![-1.0, 0.0],
        ];
        let d = distances(&l, &rows, Normalisation::None, Metric::Cosine).unwrap();
        assert!(close(d.get(0, 1), 1.0));
        assert_eq!(d.get(2, 3), 0.0);
        assert!(close(d.get(0, 2), 1.0 - 1.0 / 2f64.sqrt()));
        assert_eq!(d.get(4, 5), 0.0);
        assert_eq!(d.get(4, 0), 1.0);
        assert!(close(d.get(0, 6), 2.0));
    }

    #[test]
    fn ties_merge_the_earliest_pair_and_the_tree_is_deterministic() {
        // Every pair at distance 1: merges follow input order.
        let l = labels(&["p", "q", "r", "s"]);
        let ones: Vec<Vec<f64>> = (0..4)
            .map(|i| (0..4).map(|j| if i == j { 0.0 } else { 1.0 }).collect())
            .collect();
        let d = DistanceMatrix::new(&l, &ones, "test").unwrap();
        let t = upgma(&d);
        assert_eq!(t.newick(), "(((p:0.5,q:0.5):0,r:0.5):0,s:0.5);");
        assert_eq!(t, upgma(&d));
        // A square's corners: two equal closest pairs (0,1) and (2,3); (0,1) first.
        let l = labels(&["a", "b", "c", "d"]);
        let rows = vec![
            vec![0.0, 0.0],
            vec![1.0, 0.0],
            vec![0.0, 5.0],
            vec![1.0, 5.0],
        ];
        let t = upgma(&distances(&l, &rows, Normalisation::None, Metric::Euclidean).unwrap());
        assert_eq!(t.merges()[0].left, Node::Leaf(0));
        assert_eq!(t.merges()[1].left, Node::Leaf(2));
        assert_eq!(t.leaf_order(), vec![0, 1, 2, 3]);
        // The cluster holding the smaller index is on the left, whatever merged first.
        let l = labels(&["far", "m", "n"]);
        let rows = vec![vec![10.0], vec![0.0], vec![1.0]];
        let t = upgma(&distances(&l, &rows, Normalisation::None, Metric::Euclidean).unwrap());
        assert_eq!(t.merges()[1].left, Node::Leaf(0));
        assert_eq!(t.leaf_order(), vec![0, 1, 2]);
        assert_eq!(t.newick(), "(far:4.75,(m:0.5,n:0.5):4.25);");
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let l = labels(&["a", "b"]);
        assert_eq!(tree(&[], &[]), Err(FamilyError::Empty));
        assert_eq!(
            tree(&l, &[vec![1.0]]),
            Err(FamilyError::LabelCount { labels: 2, rows: 1 })
        );
        assert_eq!(tree(&l, &[vec![], vec![]]), Err(FamilyError::NoColumns));
        assert_eq!(
            tree(&l, &[vec![1.0, 2.0], vec![1.0]]),
            Err(FamilyError::Ragged {
                row: 1,
                label: "b".into(),
                len: 1,
                expected: 2
            })
        );
        let e = tree(&l, &[vec![1.0, 2.0], vec![1.0, f64::NAN]]).unwrap_err();
        assert!(
            matches!(
                e,
                FamilyError::NotFinite {
                    row: 1,
                    column: 1,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .contains("row 1 (b), column 1: NaN is not a finite number"),
            "{e}"
        );
        assert!(matches!(
            tree(&l, &[vec![f64::INFINITY], vec![1.0]]),
            Err(FamilyError::NotFinite { row: 0, .. })
        ));
        for bad in [
            vec![vec![0.0, 1.0], vec![2.0, 0.0]],
            vec![vec![0.0, -1.0], vec![-1.0, 0.0]],
            vec![vec![1.0, 1.0], vec![1.0, 0.0]],
            vec![vec![0.0, 1.0]],
            vec![vec![0.0, f64::NAN], vec![f64::NAN, 0.0]],
        ] {
            let e = DistanceMatrix::new(&l[..bad.len()], &bad, "t");
            assert!(
                matches!(e, Err(FamilyError::NotADistance(_))),
                "{bad:?}: {e:?}"
            );
        }
        assert_eq!(structure_distances(&l, &[]), Err(FamilyError::Empty));
    }

    #[test]
    fn complete_columns_drop_what_some_configuration_lacks() {
        let rows = vec![vec![1.0, f64::NAN, 3.0], vec![1.0, 2.0, 3.0, 4.0]];
        assert_eq!(complete_columns(&rows), vec![0, 2]);
        assert_eq!(complete_columns(&[]), Vec::<usize>::new());
    }

    #[test]
    fn one_configuration_is_a_lone_leaf() {
        let t = tree(&labels(&["only one"]), &[vec![3.0, 4.0]]).unwrap();
        assert!(t.merges().is_empty());
        assert_eq!(t.root(), Node::Leaf(0));
        assert_eq!(t.newick(), "'only one';");
        assert_eq!(t.leaf_order(), vec![0]);
        let svg = t.svg();
        assert!(
            svg.contains(">only one</text>") && svg.ends_with("</svg>\n"),
            "{svg}"
        );
    }

    #[test]
    fn newick_quotes_what_needs_it() {
        assert_eq!(newick_label("sig-el-oued"), "sig-el-oued");
        assert_eq!(newick_label("max_throws=5"), "'max_throws=5'");
        assert_eq!(newick_label("Ka'aba 2p"), "'Ka''aba 2p'");
        assert_eq!(newick_label(""), "''");
        assert_eq!(short_number(2.0), "2");
        assert_eq!(short_number(-0.0000001), "0");
    }

    #[test]
    fn the_dendrogram_is_well_formed_svg() {
        let (_, rows) = line();
        let l = labels(&["a<b", "b & c", "c", "d"]);
        let t = tree(&l, &rows).unwrap();
        let svg = t.svg();
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>\n"));
        assert!(svg.contains(">a&lt;b</text>") && svg.contains(">b &amp; c</text>"));
        assert_eq!(svg.matches("<path ").count(), 3, "one bracket per merge");
        assert!(svg.contains("average linkage (UPGMA) of euclidean on z-score"));
        assert_eq!(svg.matches('<').count(), svg.matches('>').count());
        assert_eq!(svg, t.svg());
    }

    #[test]
    fn tables_of_distances() {
        let (_, rows) = line();
        let l = labels(&["a", "b|c", "x,y", "d"]);
        let d = distances(&l, &rows, Normalisation::None, Metric::Euclidean).unwrap();
        let md = d.to_markdown();
        assert!(md.starts_with("Distances (euclidean on none):\n\n|  | a | b\\|c | x,y | d |\n|---|---:|---:|---:|---:|\n"), "{md}");
        assert!(md.contains("| a | 0.000 | 1.000 | 3.000 | 7.000 |"), "{md}");
        let csv = d.to_csv();
        assert!(
            csv.starts_with("configuration,a,b|c,\"x,y\",d\na,0,1,3,7\n"),
            "{csv}"
        );
        assert_eq!(csv.lines().count(), 5);
    }

    #[test]
    fn jaccard_as_ludii_defines_it() {
        let f = |xs: &[&str]| labels(xs);
        assert_eq!(jaccard(&f(&["a", "b"]), &f(&["a", "b"])), 0.0);
        assert_eq!(jaccard(&f(&["a"]), &f(&["b"])), 1.0);
        // Equal sizes: the plain Jaccard distance, 1 - 2/4.
        assert!(close(
            jaccard(&f(&["a", "b", "c"]), &f(&["a", "b", "d"])),
            0.5
        ));
        // Unequal sizes, normalised bags: Σ min = 1/3 (a), Σ max = 1/2 + 1/2 + 1/3 + 1/3.
        assert!(close(
            jaccard(&f(&["a", "b"]), &f(&["a", "c", "d"])),
            1.0 - (1.0 / 3.0) / (5.0 / 3.0)
        ));
        assert_eq!(jaccard(&[], &[]), 0.0);
        assert_eq!(jaccard(&f(&["a"]), &[]), 1.0);
        assert_eq!(jaccard(&f(&["a", "a", "b"]), &f(&["b", "a"])), 0.0);
    }

    #[test]
    fn readings_of_one_game_are_closer_in_structure_than_siblings() {
        let a = AnyGame::new("sig-el-oued", Some(2), &["cairo_always_three=false"]).unwrap();
        let b = AnyGame::new("sig-el-oued", Some(2), &["cairo_always_three=true"]).unwrap();
        let c = AnyGame::new("sig-wa-duqqan", Some(2), &[] as &[&str]).unwrap();
        let fa = rule_features(&a, offers_here);
        assert!(fa.contains(&"game=sig-el-oued".to_owned()), "{fa:?}");
        assert!(fa.contains(&"seats=2".to_owned()));
        assert!(fa.contains(&"capability=exact".to_owned()));
        assert!(
            fa.contains(&"sig-el-oued:cairo_always_three=false".to_owned()),
            "{fa:?}"
        );
        assert!(fa.windows(2).all(|w| w[0] < w[1]), "sorted");
        for f in [
            "sticks=6",
            "pieces-per-seat=3",
            "track=shared",
            "piece=djinn",
        ] {
            assert!(fa.contains(&f.to_owned()), "{f}: {fa:?}");
        }
        let fc = rule_features(&c, offers_here);
        for f in [
            "sticks=4",
            "pieces-per-seat=1",
            "track=shared",
            "neutral-piece=ghoula",
        ] {
            assert!(fc.contains(&f.to_owned()), "{f}: {fc:?}");
        }
        let l = labels(&["false", "true", "duqqan"]);
        let d = structure_distances(
            &l,
            &[
                fa.clone(),
                rule_features(&b, offers_here),
                rule_features(&c, offers_here),
            ],
        )
        .unwrap();
        // One option differs: 2 of |A ∪ B| = |A| + 1 features.
        assert!(
            close(d.get(0, 1), 2.0 / (fa.len() as f64 + 1.0)),
            "{}",
            d.get(0, 1)
        );
        assert!(d.get(0, 2) > d.get(0, 1) && d.get(1, 2) > d.get(0, 1));
        assert_eq!(d.method(), "jaccard on rule features");
        let t = upgma(&d);
        assert_eq!(t.merges()[0].left, Node::Leaf(0));
        assert_eq!(t.merges()[0].right, Node::Leaf(1));
    }

    #[test]
    fn the_family_of_a_comparison() {
        use crate::compare::{compare, Configuration, Settings};
        let configs = [
            Configuration::new("sig-el-oued", Some(2), &["cairo_always_three=false"]).unwrap(),
            Configuration::new("sig-el-oued", Some(2), &["cairo_always_three=true"]).unwrap(),
            Configuration::new("sig-wa-duqqan", Some(2), &[] as &[&str]).unwrap(),
        ];
        let settings = Settings {
            games: 40,
            detailed: 4,
            trace: Vec::new(),
            luck_games: 0,
            exact: false,
            ..Settings::default()
        };
        let c = compare(&configs, &settings).unwrap();
        let f = Family::of(&c, offers_here).unwrap();
        assert_eq!(f.agent, "random");
        assert_eq!(f.distances.len(), 3);
        assert!(f.metrics.contains(&"DurationThrows"), "{:?}", f.metrics);
        assert!(f.metrics.iter().all(|m| !m.starts_with("Exact")));
        assert_eq!(
            f.metrics.len() + f.left_out.len(),
            c.metrics.iter().filter(|m| !m.starts_with("Exact")).count()
        );
        // The two readings of Sig (El Oued) differ in one option: closest in structure.
        assert_eq!(
            f.structure.closest_pair().map(|(i, j, _)| (i, j)),
            Some((0, 1))
        );
        let files = f.files();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "family.svg",
                "family.nwk",
                "family-distances.csv",
                "family-structure.svg",
                "family-structure.nwk",
                "family-structure.csv"
            ]
        );
        assert!(
            files[1].1.ends_with(";\n") && files[1].1.contains("'sig-wa-duqqan 2p'"),
            "{}",
            files[1].1
        );
        let md = f.to_markdown();
        assert!(
            md.starts_with("## Family tree\n\nFrom the `random` games: "),
            "{md}"
        );
        assert!(md.contains("Closest on the rules' structure: sig-el-oued 2p cairo_always_three=false and sig-el-oued 2p cairo_always_three=true"), "{md}");
        // The same seed gives the same family.
        assert_eq!(
            Family::of(&compare(&configs, &settings).unwrap(), offers_here).unwrap(),
            f
        );
        // Nothing to compare.
        let empty = crate::compare::Comparison {
            results: Vec::new(),
            ..c
        };
        assert_eq!(Family::of(&empty, offers_here), Err(FamilyError::Empty));
    }
}
