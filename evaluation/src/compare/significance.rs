//! Which differences between configurations are real: a two-sided z-test per metric on
//! the two estimates (Welch's unequal-variance form, with the standard errors behind the
//! 95% intervals), and Holm–Bonferroni's correction across the metrics of each pair. Two
//! exact (solved) values are not estimates: their difference is exact, not a test, and is
//! marked so ([`Difference::exact`]), never `significant`, nor counted in Holm's family.

use serde::Serialize;

use super::ConfigurationResult;

/// One metric of one configuration against the baseline (the first configuration), for
/// one agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// The baseline's label.
    pub baseline: String,
    /// The other configuration's label.
    pub configuration: String,
    /// The agent.
    pub agent: String,
    /// The metric.
    pub metric: &'static str,
    /// `configuration − baseline`.
    pub difference: f64,
    /// The test statistic (`None` where both values are exact).
    pub z: Option<f64>,
    /// The two-sided p-value (0 or 1 where both values are exact).
    pub p: f64,
    /// Holm's adjusted p-value across the metrics of the pair.
    pub p_holm: f64,
    /// Whether the difference is significant at the family-wise level `alpha` (never for
    /// an exact difference: it is not a test).
    pub significant: bool,
    /// Both values are exact (solved): the difference is exact, not an estimate's, and no
    /// test is made (`p` is 0 where they differ, 1 where they are equal).
    pub exact: bool,
}

/// The complementary error function (W. J. Cody's rational approximation as in Numerical
/// Recipes' `erfcc`, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The two-sided p-value of a standard normal statistic `z`: `P(|Z| ≥ |z|)`.
///
/// ```
/// use stickdice_evaluation::compare::normal_two_sided_p;
/// assert!((normal_two_sided_p(1.959_964) - 0.05).abs() < 1e-6);
/// assert!((normal_two_sided_p(0.0) - 1.0).abs() < 1e-6);
/// ```
pub fn normal_two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
}

/// Holm's step-down adjusted p-values (in the order given): sorted ascending, the `i`-th
/// smallest (0-based) is multiplied by `m − i`, made non-decreasing, capped at 1.
///
/// ```
/// use stickdice_evaluation::compare::holm;
/// let adj = holm(&[0.01, 0.04, 0.03]);
/// assert_eq!(adj, vec![0.03, 0.06, 0.06]);
/// ```
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let m = ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]).then(a.cmp(&b)));
    let mut out = vec![0.0; m];
    let mut running = 0.0f64;
    for (i, &k) in order.iter().enumerate() {
        let v = ((m - i) as f64 * ps[k]).min(1.0);
        running = running.max(v);
        out[k] = (running * 1e12).round() / 1e12;
    }
    out
}

/// Every configuration after the first against the first, per agent; the metrics tested
/// are those with a value and an interval (or exact) on both sides.
pub(crate) fn differences(
    results: &[ConfigurationResult],
    agents: &[String],
    metrics: &[&'static str],
    alpha: f64,
) -> Vec<Difference> {
    let mut out = Vec::new();
    let Some(base) = results.first() else {
        return out;
    };
    for other in &results[1..] {
        for (ai, agent) in agents.iter().enumerate() {
            let (Some(a), Some(b)) = (base.rows.get(ai), other.rows.get(ai)) else {
                continue;
            };
            let mut pair = Vec::new();
            for &m in metrics {
                let (Some(x), Some(y)) = (a.get(m), b.get(m)) else {
                    continue;
                };
                let (Some(vx), Some(vy), Some(sx), Some(sy)) = (x.value, y.value, x.se(), y.se())
                else {
                    continue;
                };
                let d = vy - vx;
                let se = (sx * sx + sy * sy).sqrt();
                let (z, p) = if se > 0.0 {
                    let z = d / se;
                    (Some(z), normal_two_sided_p(z))
                } else if x.exact && y.exact {
                    (None, if d.abs() > 1e-12 { 0.0 } else { 1.0 })
                } else {
                    // No spread on either side (a constant figure): equal values do not
                    // differ, different ones do.
                    (None, if d.abs() > 1e-12 { 0.0 } else { 1.0 })
                };
                pair.push(Difference {
                    baseline: base.label.clone(),
                    configuration: other.label.clone(),
                    agent: agent.clone(),
                    metric: m,
                    difference: d,
                    z,
                    p,
                    p_holm: p,
                    significant: false,
                    exact: x.exact && y.exact,
                });
            }
            // Holm's family: the tests, not the exact differences.
            let tested: Vec<usize> = (0..pair.len()).filter(|&i| !pair[i].exact).collect();
            let adjusted = holm(&tested.iter().map(|&i| pair[i].p).collect::<Vec<_>>());
            for (&i, p) in tested.iter().zip(adjusted) {
                pair[i].p_holm = p;
                pair[i].significant = p < alpha;
            }
            out.extend(pair);
        }
    }
    out
}
