//! The comparison's outputs: a terminal table, CSV and Markdown, a column dictionary for
//! data frames, and SVG charts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::{Comparison, Metric};
use crate::chart;

/// A value with its interval: `0.512 ± 0.010`, `0.5 (exact)`, or `—` with no value.
fn show(m: &Metric) -> String {
    let Some(v) = m.value else {
        return "—".to_string();
    };
    let digits = if v.abs() >= 100.0 {
        1
    } else if v.abs() >= 10.0 {
        2
    } else {
        3
    };
    match (m.exact, m.ci95, m.interval) {
        (true, _, _) => format!("{v:.*} exact", digits + 1),
        // Clipped to the metric's range: the interval's ends, not a ± that runs past them.
        (false, Some(h), Some([lo, hi])) if lo > v - h || hi < v + h => {
            format!("{v:.digits$} [{lo:.digits$}, {hi:.digits$}]")
        }
        (false, Some(h), _) => format!("{v:.digits$} ± {h:.digits$}"),
        (false, None, _) => format!("{v:.digits$}"),
    }
}

impl Comparison {
    /// Whether the figure of `label` under `agent` differs significantly from the
    /// baseline's.
    pub fn is_significant(&self, label: &str, agent: &str, metric: &str) -> bool {
        self.differences.iter().any(|d| {
            d.configuration == label && d.agent == agent && d.metric == metric && d.significant
        })
    }

    /// Whether the exact (solved) figure of `label` under `agent` differs from the
    /// baseline's exact figure: a difference known exactly, not a test.
    pub fn differs_exactly(&self, label: &str, agent: &str, metric: &str) -> bool {
        self.differences.iter().any(|d| {
            d.configuration == label
                && d.agent == agent
                && d.metric == metric
                && d.exact
                && d.p == 0.0
        })
    }

    /// Rows of (metric, one cell per configuration and agent), a `*` marking a figure that
    /// differs significantly from the baseline (the first configuration).
    fn grid(&self) -> (Vec<String>, Vec<(String, Vec<String>)>) {
        let mut heads = Vec::new();
        for r in &self.results {
            for row in &r.rows {
                heads.push(if self.settings.agents.len() > 1 {
                    format!("{} [{}]", r.label, row.agent)
                } else {
                    r.label.clone()
                });
            }
        }
        let mut lines = Vec::new();
        for &m in &self.metrics {
            let mut cells = Vec::new();
            for r in &self.results {
                for row in &r.rows {
                    let cell = row.get(m).map_or("—".to_string(), show);
                    let star = if self.is_significant(&r.label, &row.agent, m) {
                        " *"
                    } else if self.differs_exactly(&r.label, &row.agent, m) {
                        " ≠"
                    } else {
                        ""
                    };
                    cells.push(format!("{cell}{star}"));
                }
            }
            lines.push((m.to_string(), cells));
        }
        (heads, lines)
    }

    /// The table for a terminal: one line per metric, one column per configuration (and
    /// agent), then the notes. Columns whose labels are long are headed by numbers, with the
    /// labels listed above the table, so that the table stays as narrow as its figures.
    pub fn table(&self) -> String {
        let (heads, lines) = self.grid();
        let mut o = grid_table(&heads, &lines);
        o.push_str(&self.footnote());
        o
    }

    fn footnote(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "\n± is the 95% interval; `exact` is solved. {}{} games per configuration and agent ({}), seed {}.",
            if self.settings.throws.is_some() {
                "At most "
            } else {
                ""
            },
            self.settings.games,
            self.settings.agents.join(", "),
            self.settings.seed
        );
        if self.settings.throws.is_some() || self.settings.trace_throws.is_some() {
            let budget = |b: Option<u64>| b.map_or("none".to_string(), |b| format!("{b} throws"));
            let games: Vec<String> = self
                .results
                .iter()
                .flat_map(|r| r.rows.iter().map(move |row| (r, row)))
                .map(|(r, row)| {
                    let trace: Vec<String> =
                        r.skill_trace.iter().map(|s| s.games.to_string()).collect();
                    if trace.is_empty() {
                        format!("{} {}", row.label, row.games)
                    } else {
                        format!(
                            "{} {} (skill trace {})",
                            row.label,
                            row.games,
                            trace.join("/")
                        )
                    }
                })
                .collect();
            let _ = writeln!(
                o,
                "Budgets: self-play {}, each step of the skill trace {}; the games played: {}.",
                budget(self.settings.throws),
                budget(self.settings.trace_throws),
                games.join(", ")
            );
        }
        if self.results.len() > 1 {
            let _ = writeln!(
                o,
                "* differs from the first configuration ({}): two-sided z-test on the estimates, Holm–Bonferroni across the metrics of each pair, family-wise α = {}.",
                self.results[0].label, self.settings.alpha
            );
            if self.differences.iter().any(|d| d.exact && d.p == 0.0) {
                let _ = writeln!(
                    o,
                    "≠ differs exactly from the first configuration: both values are solved, so the difference is known, not tested."
                );
            }
        }
        for r in &self.results {
            if !r.skill_trace.is_empty() {
                let steps: Vec<String> = r
                    .skill_trace
                    .iter()
                    .map(|s| {
                        format!(
                            "{} vs {} {:.3}{}",
                            s.agent,
                            s.against,
                            s.score,
                            s.ci95.map_or(String::new(), |h| format!(" ± {h:.3}"))
                        )
                    })
                    .collect();
                let _ = writeln!(o, "skill trace of {}: {}", r.label, steps.join("; "));
            }
        }
        // Notes, once per (metric, note).
        let mut notes: Vec<(String, String)> = Vec::new();
        for r in &self.results {
            for row in &r.rows {
                for m in &row.metrics {
                    if let Some(n) = &m.note {
                        let key = (m.name.to_string(), n.clone());
                        if !notes.contains(&key) {
                            notes.push(key);
                        }
                    }
                }
            }
        }
        for (m, n) in notes {
            let _ = writeln!(o, "{m}: {n}");
        }
        o
    }

    /// The table in Markdown, with the same marks and notes.
    pub fn to_markdown(&self) -> String {
        let (heads, lines) = self.grid();
        let mut o = String::new();
        let _ = writeln!(o, "| metric | {} |", heads.join(" | "));
        let _ = writeln!(o, "|---|{}", "---:|".repeat(heads.len()));
        for (name, cells) in &lines {
            let _ = writeln!(o, "| {name} | {} |", cells.join(" | ").replace('*', "\\*"));
        }
        o.push_str(&self.footnote().replace('*', "\\*"));
        o
    }

    /// The figures in long form, one row per configuration, agent and metric: columns
    /// `configuration`, `game`, `players`, `options`, `agent`, `metric`, `value`, `ci95`,
    /// `ci95_low`, `ci95_high` (the interval clipped to the metric's range), `n`, `exact`,
    /// `source`, `note`, `difference`, `p_holm`, `significant` (the last three against the
    /// first configuration; empty for it; never significant where both values are exact:
    /// such a difference is known, not tested). What Python's
    /// `stickdice.compare` returns, ready for `pandas.DataFrame`.
    pub fn columns(&self) -> BTreeMap<&'static str, Vec<Value>> {
        let mut c: BTreeMap<&'static str, Vec<Value>> = BTreeMap::new();
        for r in &self.results {
            let opts: Vec<String> = r
                .configuration
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            for row in &r.rows {
                for m in &row.metrics {
                    let d = self.differences.iter().find(|d| {
                        d.configuration == r.label && d.agent == row.agent && d.metric == m.name
                    });
                    let mut push = |k: &'static str, v: Value| c.entry(k).or_default().push(v);
                    push("configuration", r.label.clone().into());
                    push("game", r.configuration.game.clone().into());
                    push("players", r.configuration.players.into());
                    push("options", opts.join(" ").into());
                    push("agent", row.agent.clone().into());
                    push("metric", m.name.into());
                    push("value", m.value.map_or(Value::Null, Value::from));
                    push("ci95", m.ci95.map_or(Value::Null, Value::from));
                    push("ci95_low", m.interval.map_or(Value::Null, |i| i[0].into()));
                    push("ci95_high", m.interval.map_or(Value::Null, |i| i[1].into()));
                    push("n", m.n.into());
                    push("exact", m.exact.into());
                    push("source", m.source.clone().into());
                    push("note", m.note.clone().map_or(Value::Null, Value::from));
                    push("difference", d.map_or(Value::Null, |d| d.difference.into()));
                    push("p_holm", d.map_or(Value::Null, |d| d.p_holm.into()));
                    push(
                        "significant",
                        d.map_or(Value::Null, |d| d.significant.into()),
                    );
                }
            }
        }
        c
    }

    /// The long form ([`Comparison::columns`]) as CSV.
    pub fn to_csv(&self) -> String {
        let cols = self.columns();
        let names: Vec<&str> = cols.keys().copied().collect();
        let rows = cols.values().next().map_or(0, Vec::len);
        let mut o = names.join(",");
        o.push('\n');
        let mut columns: Vec<_> = cols.values().map(|v| v.iter()).collect();
        for _ in 0..rows {
            let cells: Vec<String> = columns
                .iter_mut()
                .map(|c| match c.next().unwrap_or(&Value::Null) {
                    Value::Null => String::new(),
                    Value::String(s) => {
                        if s.contains([',', '"', '\n']) {
                            format!("\"{}\"", s.replace('"', "\"\""))
                        } else {
                            s.clone()
                        }
                    }
                    v => v.to_string(),
                })
                .collect();
            o.push_str(&cells.join(","));
            o.push('\n');
        }
        o
    }

    /// The SVG charts, as (file name, document): one per metric with a value (each
    /// configuration's figure with its 95% interval, significant differences from the
    /// baseline marked), and `profiles.svg`, small multiples of every configuration's
    /// metrics scaled to the range over the configurations.
    pub fn charts(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for &m in &self.metrics {
            let mut bars = Vec::new();
            for r in &self.results {
                for row in &r.rows {
                    if let Some(x) = row.get(m) {
                        if let Some(v) = x.value {
                            let label = if self.settings.agents.len() > 1 {
                                format!("{} [{}]", r.label, row.agent)
                            } else {
                                r.label.clone()
                            };
                            bars.push((
                                label,
                                v,
                                x.interval,
                                x.exact,
                                self.is_significant(&r.label, &row.agent, m),
                            ));
                        }
                    }
                }
            }
            if !bars.is_empty() {
                out.push((format!("{m}.svg"), metric_chart(m, &bars)));
            }
        }
        out.push(("profiles.svg".to_string(), self.profiles_svg()));
        out
    }

    fn profiles_svg(&self) -> String {
        // Each metric scaled to [0, 1] over the configurations (0.5 where all are equal).
        let rows: Vec<(String, &super::Row)> = self
            .results
            .iter()
            .flat_map(|r| {
                r.rows
                    .iter()
                    .map(move |row| (format!("{} [{}]", r.label, row.agent), row))
            })
            .collect();
        let metrics: Vec<&str> = self
            .metrics
            .iter()
            .copied()
            .filter(|m| {
                rows.iter()
                    .any(|(_, r)| r.get(m).and_then(|x| x.value).is_some())
            })
            .collect();
        let range = |m: &str| {
            let vs: Vec<f64> = rows
                .iter()
                .filter_map(|(_, r)| r.get(m).and_then(|x| x.value))
                .collect();
            let lo = vs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = vs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (lo, hi)
        };
        let cols = rows.len().clamp(1, 4);
        let panel_w = 300.0;
        let bar_h = 11.0;
        let panel_h = 40.0 + metrics.len() as f64 * bar_h;
        let w = cols as f64 * panel_w + 20.0;
        let h = rows.len().div_ceil(cols) as f64 * (panel_h + 10.0) + 40.0;
        let mut o = String::new();
        chart::begin(&mut o, w, h);
        let _ = writeln!(
            o,
            r#"<text x="{}" y="20" text-anchor="middle" font-size="14">Each configuration's metrics, scaled from the lowest (left) to the highest (right) over the configurations</text>"#,
            w / 2.0
        );
        for (i, (label, row)) in rows.iter().enumerate() {
            let x0 = 10.0 + (i % cols) as f64 * panel_w;
            let y0 = 35.0 + (i / cols) as f64 * (panel_h + 10.0);
            let _ = writeln!(
                o,
                r##"<rect x="{x0}" y="{y0}" width="{}" height="{panel_h}" fill="none" stroke="#ccc"/><text x="{}" y="{}" font-weight="bold">{}</text>"##,
                panel_w - 10.0,
                x0 + 5.0,
                y0 + 15.0,
                chart::escape(label)
            );
            for (k, m) in metrics.iter().enumerate() {
                let y = y0 + 25.0 + k as f64 * bar_h;
                let _ = writeln!(
                    o,
                    r#"<text x="{}" y="{}" font-size="9" text-anchor="end">{m}</text>"#,
                    x0 + 125.0,
                    y + 8.0
                );
                if let Some(v) = row.get(m).and_then(|x| x.value) {
                    let (lo, hi) = range(m);
                    let s = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
                    let _ = writeln!(
                        o,
                        r##"<rect x="{}" y="{}" width="{:.1}" height="{}" fill="#4a7ab5"><title>{m}: {v}</title></rect>"##,
                        x0 + 130.0,
                        y + 1.0,
                        (s * 150.0).max(1.0),
                        bar_h - 2.0
                    );
                }
            }
        }
        chart::end(&mut o);
        o
    }
}

/// One bar of a metric's chart: the label, the value, its 95% interval (clipped to the
/// metric's range), whether it is exact, whether it differs significantly.
type Bar = (String, f64, Option<[f64; 2]>, bool, bool);

/// One metric across configurations: a bar per configuration with its 95% interval.
fn metric_chart(metric: &str, bars: &[Bar]) -> String {
    let bar_h = 22.0;
    let (left, right, top) = (260.0, 60.0, 50.0);
    let pw = 420.0;
    let w = left + pw + right;
    let h = top + bars.len() as f64 * (bar_h + 6.0) + 50.0;
    let lo = bars
        .iter()
        .map(|b| b.2.map_or(b.1, |i| i[0]).min(b.1))
        .fold(0.0f64, f64::min);
    let hi = bars
        .iter()
        .map(|b| b.2.map_or(b.1, |i| i[1]).max(b.1))
        .fold(f64::NEG_INFINITY, f64::max)
        .max(lo + 1e-9);
    let x_of = |v: f64| left + (v - lo) / (hi - lo) * pw;
    let mut o = String::new();
    chart::begin(&mut o, w, h);
    let _ = writeln!(
        o,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{} (bars: value; whiskers: 95% interval; * differs from the first)</text>"#,
        w / 2.0,
        chart::escape(metric)
    );
    let axis_y = top + bars.len() as f64 * (bar_h + 6.0);
    let _ = writeln!(
        o,
        r#"<line x1="{left}" y1="{axis_y}" x2="{}" y2="{axis_y}" stroke="black"/>"#,
        left + pw
    );
    let step = chart::nice_step((hi - lo) / 5.0);
    let mut v = (lo / step).ceil() * step;
    while v <= hi + 1e-12 {
        let x = x_of(v);
        let _ = writeln!(
            o,
            r#"<line x1="{x:.1}" y1="{axis_y}" x2="{x:.1}" y2="{}" stroke="black"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"#,
            axis_y + 4.0,
            axis_y + 18.0,
            trim(v)
        );
        v += step;
    }
    for (i, (label, value, ci, exact, sig)) in bars.iter().enumerate() {
        let y = top + i as f64 * (bar_h + 6.0);
        let fill = if *exact { "#27ae60" } else { "#4a7ab5" };
        let (x1, x2) = (x_of(0.0f64.max(lo)), x_of(*value));
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" text-anchor="end">{}{}</text><rect x="{:.1}" y="{y}" width="{:.1}" height="{bar_h}" fill="{fill}"><title>{}: {value}</title></rect>"#,
            left - 6.0,
            y + 15.0,
            chart::escape(label),
            if *sig { " *" } else { "" },
            x1.min(x2),
            (x2 - x1).abs().max(1.0),
            chart::escape(label)
        );
        if let Some([low, high]) = ci {
            let (a, b) = (x_of(*low), x_of(*high));
            let ym = y + bar_h / 2.0;
            let _ = writeln!(
                o,
                r#"<line x1="{a:.1}" y1="{ym}" x2="{b:.1}" y2="{ym}" stroke="black"/><line x1="{a:.1}" y1="{}" x2="{a:.1}" y2="{}" stroke="black"/><line x1="{b:.1}" y1="{}" x2="{b:.1}" y2="{}" stroke="black"/>"#,
                ym - 5.0,
                ym + 5.0,
                ym - 5.0,
                ym + 5.0
            );
        }
    }
    chart::end(&mut o);
    o
}

fn trim(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The longest column label written over its column; longer ones are numbered.
const MAX_HEAD: usize = 24;

/// Rows of cells under column labels, lined up by characters (not bytes). When a label is
/// longer than [`MAX_HEAD`], the columns are headed `[1]`, `[2]`, … and the labels listed
/// first.
fn grid_table(heads: &[String], lines: &[(String, Vec<String>)]) -> String {
    let mut o = String::new();
    let numbered = heads.iter().any(|h| h.chars().count() > MAX_HEAD);
    let shown: Vec<String> = if numbered {
        let _ = writeln!(o, "columns:");
        for (i, h) in heads.iter().enumerate() {
            let _ = writeln!(o, "  [{}] {h}", i + 1);
        }
        o.push('\n');
        (1..=heads.len()).map(|i| format!("[{i}]")).collect()
    } else {
        heads.to_vec()
    };
    let w0 = lines
        .iter()
        .map(|l| l.0.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let widths: Vec<usize> = (0..shown.len())
        .map(|i| {
            lines
                .iter()
                .filter_map(|l| l.1.get(i))
                .map(|c| c.chars().count())
                .chain([shown[i].chars().count()])
                .max()
                .unwrap_or(8)
        })
        .collect();
    let _ = write!(o, "{:<w0$}", "metric");
    for (h, w) in shown.iter().zip(&widths) {
        let _ = write!(o, "  {h:>w$}");
    }
    o.push('\n');
    for (name, cells) in lines {
        let _ = write!(o, "{name:<w0$}");
        for (c, w) in cells.iter().zip(&widths) {
            let pad = w.saturating_sub(c.chars().count());
            let _ = write!(o, "  {}{c}", " ".repeat(pad));
        }
        o.push('\n');
    }
    o
}

#[cfg(test)]
mod table_tests {
    use super::grid_table;

    /// Each line's width in characters: the columns are right-aligned, so lines of equal
    /// width line up.
    fn widths(rows: &[&str]) -> Vec<usize> {
        rows.iter().map(|r| r.chars().count()).collect()
    }

    #[test]
    fn long_labels_are_numbered_and_the_columns_line_up() {
        let heads = vec![
            "sig-wa-duqqan-houmt-taourit 2p exact_waiting_square=true [random]".to_string(),
            "Es-Sîg 2p [greedy]".to_string(),
        ];
        let lines = vec![
            (
                "Balance".to_string(),
                vec!["0.800 ± 0.241".to_string(), "1.000 ± 0.398 *".to_string()],
            ),
            (
                "DurationTurns".to_string(),
                vec!["144.4 ± 27.1".to_string(), "—".to_string()],
            ),
        ];
        let t = grid_table(&heads, &lines);
        assert!(
            t.starts_with("columns:\n  [1] sig-wa-duqqan-houmt-taourit"),
            "{t}"
        );
        assert!(t.contains("  [2] Es-Sîg 2p [greedy]\n"), "{t}");
        let rows: Vec<&str> = t.lines().skip_while(|l| !l.starts_with("metric")).collect();
        assert_eq!(rows.len(), 3, "{t}");
        assert!(widths(&rows).iter().all(|&w| w == widths(&rows)[0]), "{t}");
        // No line of the table is wider than its figures need.
        assert!(rows.iter().all(|r| r.chars().count() < 50), "{t}");
        // Short labels stay over their columns, lined up by characters.
        let heads = vec!["Es-Sîg 2p".to_string(), "issiren 2p".to_string()];
        let t = grid_table(&heads, &lines);
        assert!(t.starts_with("metric"), "{t}");
        let rows: Vec<&str> = t.lines().collect();
        assert!(widths(&rows).iter().all(|&w| w == widths(&rows)[0]), "{t}");
    }
}
