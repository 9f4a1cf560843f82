//! Statistics of repeated runs: the summary a seed's table gives (min, median, max, mean,
//! sample standard deviation) and Welch's two-sample t-test, used to compare our runs with a
//! seed's runs when the seed gives only a mean and a standard deviation.
//!
//! Welch's test (Welch, Biometrika 1947) does not assume equal variances:
//!
//! ```text
//!   t = (m₁ − m₂) / √(s₁²/n₁ + s₂²/n₂)
//!   ν = (s₁²/n₁ + s₂²/n₂)² / ((s₁²/n₁)²/(n₁−1) + (s₂²/n₂)²/(n₂−1))   (Welch–Satterthwaite)
//! ```
//!
//! and the two-sided p-value is `2·(1 − F_ν(|t|))` with `F_ν` Student's t distribution
//! (from `statrs`).

use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, FisherSnedecor, StudentsT};

/// What a seed's table gives of a set of runs, or what ours give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub min: f64,
    pub median: f64,
    pub max: f64,
    pub mean: f64,
    /// Sample standard deviation (n − 1 in the denominator); 0 for a single run.
    pub sd: f64,
}

impl Summary {
    /// The summary of `xs`; `None` when `xs` is empty or holds a NaN.
    pub fn of(xs: &[f64]) -> Option<Summary> {
        if xs.is_empty() || xs.iter().any(|x| x.is_nan()) {
            return None;
        }
        let mut v = xs.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let mean = v.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 { (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt() } else { 0.0 };
        let median = if n % 2 == 0 { (v[n / 2 - 1] + v[n / 2]) / 2.0 } else { v[n / 2] };
        Some(Summary { n, min: v[0], median, max: v[n - 1], mean, sd })
    }

    /// A summary known only by its mean, standard deviation and count (a seed's table).
    pub fn given(mean: f64, sd: f64, n: usize) -> Summary {
        Summary { n, min: f64::NAN, median: f64::NAN, max: f64::NAN, mean, sd }
    }
}

/// The mean of `xs`; NaN when it is empty or holds a NaN (no mean to speak of).
pub fn mean(xs: &[f64]) -> f64 {
    Summary::of(xs).map_or(f64::NAN, |s| s.mean)
}

/// Welch's two-sided t-test of equal means: the p-value, or `None` when it is undefined
/// (fewer than two runs on a side). Two samples without any spread have p = 1 when their
/// means are equal and p = 0 when they differ.
pub fn welch_p(a: &Summary, b: &Summary) -> Option<f64> {
    let (se2, df) = welch_se2_df(a, b)?;
    if se2 == 0.0 {
        return Some(if a.mean == b.mean { 1.0 } else { 0.0 });
    }
    let t = (a.mean - b.mean) / se2.sqrt();
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    Some((2.0 * (1.0 - dist.cdf(t.abs()))).clamp(0.0, 1.0))
}

/// The squared standard error of `a.mean − b.mean`, `s_a²/n_a + s_b²/n_b`, and the
/// Welch-Satterthwaite degrees of freedom (NaN when both spreads are 0); `None` with fewer
/// than two runs on a side.
fn welch_se2_df(a: &Summary, b: &Summary) -> Option<(f64, f64)> {
    if a.n < 2 || b.n < 2 {
        return None;
    }
    let (va, vb) = (a.sd * a.sd / a.n as f64, b.sd * b.sd / b.n as f64);
    let se2 = va + vb;
    Some((se2, se2 * se2 / (va * va / (a.n - 1) as f64 + vb * vb / (b.n - 1) as f64)))
}

/// The `1 − alpha` confidence interval of `a.mean − b.mean` that goes with Welch's test:
/// `(x̄_a − x̄_b) ± t(1 − alpha/2, df)·se`. It says how large a difference the runs could have
/// missed where the test finds none. `None` where the test is undefined; a point where
/// neither side has any spread.
pub fn welch_interval(a: &Summary, b: &Summary, alpha: f64) -> Option<(f64, f64)> {
    let (se2, df) = welch_se2_df(a, b)?;
    let d = a.mean - b.mean;
    if se2 == 0.0 {
        return Some((d, d));
    }
    let half = StudentsT::new(0.0, 1.0, df).ok()?.inverse_cdf(1.0 - alpha / 2.0) * se2.sqrt();
    Some((d - half, d + half))
}

/// The two-sided F-test of equal variances: the p-value of F = sd_a²/sd_b² against
/// F(n_a − 1, n_b − 1), 2·min(P(F' ≤ F), P(F' ≥ F)). `None` when it is undefined (fewer than
/// two runs on a side, or no spread in `b`). It assumes normal runs and is sensitive to
/// outliers (Box 1953), which a report must say where a seed's runs have one.
pub fn f_test_p(a: &Summary, b: &Summary) -> Option<f64> {
    if a.n < 2 || b.n < 2 || b.sd == 0.0 {
        return None;
    }
    let f = (a.sd / b.sd).powi(2);
    let dist = FisherSnedecor::new((a.n - 1) as f64, (b.n - 1) as f64).ok()?;
    let below = dist.cdf(f);
    Some((2.0 * below.min(1.0 - below)).clamp(0.0, 1.0))
}

/// The (1 − `alpha`) confidence interval of the ratio of standard deviations σ_a/σ_b from
/// the F distribution: `(s_a/s_b)/√F(1 − α/2; n_a − 1, n_b − 1)` to
/// `(s_a/s_b)/√F(α/2; n_a − 1, n_b − 1)`. `None` where [`f_test_p`] is undefined.
pub fn sd_ratio_interval(a: &Summary, b: &Summary, alpha: f64) -> Option<(f64, f64)> {
    if a.n < 2 || b.n < 2 || b.sd == 0.0 {
        return None;
    }
    let dist = FisherSnedecor::new((a.n - 1) as f64, (b.n - 1) as f64).ok()?;
    let r = a.sd / b.sd;
    Some((r / dist.inverse_cdf(1.0 - alpha / 2.0).sqrt(), r / dist.inverse_cdf(alpha / 2.0).sqrt()))
}

/// How many times its lower end the upper end of [`sd_ratio_interval`] is at the least, with
/// endless runs on side a: the uncertainty `n_b` runs leave in σ_b alone,
/// `√(χ²(1 − α/2; n_b − 1)/χ²(α/2; n_b − 1))` (4.8 for five runs at α = 0.05).
pub fn sd_ratio_width_limit(n_b: usize, alpha: f64) -> Option<f64> {
    let chi = ChiSquared::new(n_b.checked_sub(1).filter(|&d| d > 0)? as f64).ok()?;
    Some((chi.inverse_cdf(1.0 - alpha / 2.0) / chi.inverse_cdf(alpha / 2.0)).sqrt())
}

/// The two-sided sign test: with `above` of `above + below` figures on one side of a centre,
/// `p = 2·P(X ≤ min(above, below))`, X ~ Binomial(above + below, 1/2), capped at 1. `None`
/// with no figure off the centre.
pub fn sign_test_p(above: usize, below: usize) -> Option<f64> {
    let n = (above + below) as u64;
    let b = Binomial::new(0.5, n).ok().filter(|_| n > 0)?;
    Some((2.0 * b.cdf(above.min(below) as u64)).min(1.0))
}

/// Grubbs' test for one outlier (Grubbs 1969; NIST/SEMATECH e-Handbook §1.3.5.17), two-sided
/// at level `alpha`: G = max|xᵢ − x̄|/s against
/// `G_crit = (n − 1)/√n · √(t²/(n − 2 + t²))`, t the upper `alpha/(2n)` quantile of Student's t
/// on n − 2 degrees of freedom. Returns the run that exceeds it, if any; `None` with fewer than
/// three runs or no spread. It assumes normal runs.
pub fn grubbs_outlier(xs: &[f64], alpha: f64) -> Option<f64> {
    let s = Summary::of(xs)?;
    let n = s.n as f64;
    if s.n < 3 || s.sd == 0.0 {
        return None;
    }
    let t = StudentsT::new(0.0, 1.0, n - 2.0).ok()?.inverse_cdf(1.0 - alpha / (2.0 * n));
    let critical = (n - 1.0) / n.sqrt() * (t * t / (n - 2.0 + t * t)).sqrt();
    let far = xs.iter().copied().max_by(|a, b| (a - s.mean).abs().total_cmp(&(b - s.mean).abs()))?;
    ((far - s.mean).abs() / s.sd > critical).then_some(far)
}

/// The half-width of the two-sided prediction interval, at level `1 − alpha`, for one more
/// run drawn like the runs summarised in `s`: `t(1 − alpha/2, n − 1)·sd·√(1 + 1/n)` (e.g.
/// Hahn & Meeker, *Statistical Intervals*, 1991, §4.4). `None` with fewer than two runs.
pub fn prediction_half_width(s: &Summary, alpha: f64) -> Option<f64> {
    if s.n < 2 {
        return None;
    }
    let dist = StudentsT::new(0.0, 1.0, (s.n - 1) as f64).ok()?;
    Some(dist.inverse_cdf(1.0 - alpha / 2.0) * s.sd * (1.0 + 1.0 / s.n as f64).sqrt())
}

/// The half-width of the two-sided interval, at level `1 − alpha`, for the difference of two
/// more runs each drawn like the runs summarised in `s` (independent, with the variance `s`
/// estimates): `t(1 − alpha/2, n − 1)·sd·√2`. `None` with fewer than two runs.
pub fn two_run_difference_half_width(s: &Summary, alpha: f64) -> Option<f64> {
    if s.n < 2 {
        return None;
    }
    let dist = StudentsT::new(0.0, 1.0, (s.n - 1) as f64).ok()?;
    Some(dist.inverse_cdf(1.0 - alpha / 2.0) * s.sd * std::f64::consts::SQRT_2)
}

/// The half-width of the two-sided confidence interval, at level `1 − alpha`, for the mean of
/// the runs summarised in `s`: `t(1 − alpha/2, n − 1)·sd/√n`. `None` with fewer than two runs.
pub fn confidence_half_width(s: &Summary, alpha: f64) -> Option<f64> {
    if s.n < 2 {
        return None;
    }
    let dist = StudentsT::new(0.0, 1.0, (s.n - 1) as f64).ok()?;
    Some(dist.inverse_cdf(1.0 - alpha / 2.0) * s.sd / (s.n as f64).sqrt())
}

/// How many runs would make the `1 − alpha` confidence interval of a mean clear a bound
/// `distance` away from it, if the mean and the standard deviation of the runs summarised in
/// `s` stayed as they are: the least `m > s.n` with `t(1 − alpha/2, m − 1)·sd/√m < |distance|`,
/// searched up to `max`. A planning figure (the power of a further experiment is not 100 %),
/// for a claim whose interval now reaches across its bound. `None` when `s` has fewer than two
/// runs or `max` runs would not do.
pub fn runs_to_settle(s: &Summary, distance: f64, alpha: f64, max: usize) -> Option<usize> {
    if s.n < 2 || distance == 0.0 || !distance.is_finite() {
        return None;
    }
    (s.n + 1..=max).find(|&m| confidence_half_width(&Summary { n: m, ..*s }, alpha).is_some_and(|h| h < distance.abs()))
}

/// A straight line fitted by ordinary least squares, y = intercept + slope·x, with the
/// half-width of the slope's two-sided confidence interval at level `1 − alpha`:
/// `t(1 − alpha/2, n − 2)·√(s²/Σ(x − x̄)²)`, `s²` the residuals' Σr²/(n − 2) (e.g. Draper &
/// Smith, *Applied Regression Analysis*, §1.4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    pub n: usize,
    pub slope: f64,
    pub intercept: f64,
    pub slope_half_width: f64,
}

/// The least-squares line through `points` (x, y); `None` with fewer than three points or
/// with every x the same.
pub fn least_squares(points: &[(f64, f64)], alpha: f64) -> Option<Line> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / n as f64, points.iter().map(|p| p.1).sum::<f64>() / n as f64);
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 {
        return None;
    }
    let slope = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
    let intercept = my - slope * mx;
    let s2 = points.iter().map(|p| (p.1 - intercept - slope * p.0).powi(2)).sum::<f64>() / (n - 2) as f64;
    let t = StudentsT::new(0.0, 1.0, (n - 2) as f64).ok()?.inverse_cdf(1.0 - alpha / 2.0);
    Some(Line { n, slope, intercept, slope_half_width: t * (s2 / sxx).sqrt() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_as_a_seed_table_gives_it() {
        let s = Summary::of(&[3.0, 1.0, 2.0, 4.0]).unwrap();
        assert_eq!((s.n, s.min, s.median, s.max, s.mean), (4, 1.0, 2.5, 4.0, 2.5));
        assert!((s.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(Summary::of(&[7.0]).unwrap().sd, 0.0);
        assert!(Summary::of(&[]).is_none());
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }

    /// 1, 2, 3 against 4, 5, 6: d = −3, se² = 2/3, df = 4, t(0.975, 4) = 2.776, so
    /// −3 ± 2.776·0.8165 = −5.267 to −0.733.
    #[test]
    fn sd_ratio_interval_from_the_f_distribution() {
        // Equal spreads over five runs each: 1/√F(0.975; 4, 4) to √F(0.975; 4, 4), F = 9.605.
        let a = Summary::given(0.0, 2.0, 5);
        let (lo, hi) = sd_ratio_interval(&a, &a, 0.05).unwrap();
        assert!((hi - 9.6045f64.sqrt()).abs() < 1e-3 && (lo * hi - 1.0).abs() < 1e-9, "{lo} {hi}");
        // Endless runs against five: √(χ²(0.975; 4)/χ²(0.025; 4)) = √(11.143/0.4844) = 4.796.
        assert!((sd_ratio_width_limit(5, 0.05).unwrap() - 4.796).abs() < 1e-3);
        assert!(sd_ratio_width_limit(1, 0.05).is_none() && sd_ratio_interval(&a, &Summary::given(0.0, 0.0, 5), 0.05).is_none());
    }

    #[test]
    fn welch_interval_of_the_difference() {
        let (a, b) = (Summary::of(&[1.0, 2.0, 3.0]).unwrap(), Summary::of(&[4.0, 5.0, 6.0]).unwrap());
        let (lo, hi) = welch_interval(&a, &b, 0.05).unwrap();
        assert!((lo + 5.267).abs() < 1e-3 && (hi + 0.733).abs() < 1e-3, "{lo} {hi}");
        let flat = Summary::of(&[2.0, 2.0]).unwrap();
        assert_eq!(welch_interval(&flat, &flat, 0.05), Some((0.0, 0.0)));
    }

    /// n = 5 at α = 0.05: t(1 − 0.005, 3) = 5.841, G_crit = (4/√5)·√(34.12/37.12) = 1.715
    /// (NIST's table: 1.715). 1, 2, 3, 4, 10: mean 4, sd 3.536, G = 1.697: kept; 1, 2, 3, 4,
    /// 12: mean 4.4, sd 4.393, G = 1.730: an outlier.
    #[test]
    fn grubbs_finds_one_outlier_at_the_tables_critical_value() {
        assert_eq!(grubbs_outlier(&[1.0, 2.0, 3.0, 4.0, 10.0], 0.05), None);
        assert_eq!(grubbs_outlier(&[1.0, 2.0, 3.0, 4.0, 12.0], 0.05), Some(12.0));
        assert_eq!(grubbs_outlier(&[5.0, 5.0, 5.0], 0.05), None);
        assert_eq!(grubbs_outlier(&[1.0, 2.0], 0.05), None);
    }

    /// Points on y = 1 − 0.5x at x = 0..5 give the line exactly. Adding e = +0.1, −0.1
    /// alternately moves the slope by Σ(x − x̄)e / Σ(x − x̄)²: with x − x̄ = −2.5 ... 2.5 that is
    /// 0.1·(−2.5 + 1.5 − 0.5 − 0.5 + 1.5 − 2.5) / 17.5 = −0.3/17.5.
    #[test]
    fn least_squares_recovers_a_line_and_widens_with_noise() {
        let exact: Vec<(f64, f64)> = (0..6).map(|i| (f64::from(i), 1.0 - 0.5 * f64::from(i))).collect();
        let l = least_squares(&exact, 0.05).unwrap();
        assert!((l.slope + 0.5).abs() < 1e-12 && (l.intercept - 1.0).abs() < 1e-12 && l.slope_half_width < 1e-9, "{l:?}");
        let noisy: Vec<(f64, f64)> = exact.iter().enumerate().map(|(i, &(x, y))| (x, y + if i % 2 == 0 { 0.1 } else { -0.1 })).collect();
        let l = least_squares(&noisy, 0.05).unwrap();
        assert!((l.slope - (-0.5 - 0.3 / 17.5)).abs() < 1e-12, "{l:?}");
        assert!(l.slope_half_width > 0.0 && l.slope_half_width < 0.1, "{l:?}");
        assert!(least_squares(&exact[..2], 0.05).is_none());
        assert!(least_squares(&[(1.0, 0.0), (1.0, 1.0), (1.0, 2.0)], 0.05).is_none());
    }

    /// A textbook case: means 20 and 22, sd 2 and 2, n = 10 each: t = −2/√0.8 = −2.236,
    /// ν = 18 (equal variances and sizes), two-sided p = 0.0382 (Student's t table: the 5 %
    /// critical value at 18 df is 2.101 and the 2.5 % one is 2.445, so 0.025 < p < 0.05).
    #[test]
    fn welch_matches_the_t_table() {
        let p = welch_p(&Summary::given(20.0, 2.0, 10), &Summary::given(22.0, 2.0, 10)).unwrap();
        assert!(p > 0.025 && p < 0.05, "{p}");
        assert!((p - 0.0382).abs() < 0.001, "{p}");
        // At the 5 % critical value itself p is 0.05.
        let d = 2.101 * (0.8f64).sqrt();
        let p = welch_p(&Summary::given(20.0, 2.0, 10), &Summary::given(20.0 + d, 2.0, 10)).unwrap();
        assert!((p - 0.05).abs() < 0.001, "{p}");
    }

    /// Five runs with sd 1: t(0.975, 4) = 2.776 (t table), √(1 + 1/5) = 1.0954, so 3.041.
    #[test]
    fn prediction_interval_from_the_t_table() {
        let w = prediction_half_width(&Summary::given(0.0, 1.0, 5), 0.05).unwrap();
        assert!((w - 3.041).abs() < 1e-3, "{w}");
        assert_eq!(prediction_half_width(&Summary::given(0.0, 1.0, 1), 0.05), None);
    }

    /// Six runs with sd 1: t(0.975, 5) = 2.571 (t table) times √2, so 3.636.
    #[test]
    fn two_run_difference_interval_from_the_t_table() {
        let w = two_run_difference_half_width(&Summary::given(0.0, 1.0, 6), 0.05).unwrap();
        assert!((w - 3.636).abs() < 1e-3, "{w}");
        assert_eq!(two_run_difference_half_width(&Summary::given(0.0, 1.0, 1), 0.05), None);
    }

    /// Five runs with sd 1: t(0.975, 4) = 2.776 (t table) over √5, so 1.2415; three runs with
    /// sd 1: t(0.975, 2) = 4.303 over √3, so 2.484.
    #[test]
    fn confidence_interval_from_the_t_table() {
        let w = confidence_half_width(&Summary::given(0.0, 1.0, 5), 0.05).unwrap();
        assert!((w - 1.2415).abs() < 1e-3, "{w}");
        let w = confidence_half_width(&Summary::given(0.0, 1.0, 3), 0.05).unwrap();
        assert!((w - 2.484).abs() < 1e-3, "{w}");
        assert_eq!(confidence_half_width(&Summary::given(0.0, 1.0, 1), 0.05), None);
    }

    #[test]
    fn prediction_interval_with_eight_runs() {
        // n = 8: t(0.975, 7) = 2.365 (any t table); sd 2 gives 2.365 · 2 · √(9/8) = 5.017.
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]).unwrap();
        let w = prediction_half_width(&Summary { sd: 2.0, ..s }, 0.05).unwrap();
        assert!((w - 5.017).abs() < 0.002, "{w}");
        
    }

    #[test]
    fn welch_edge_cases() {
        let flat = |m| Summary::given(m, 0.0, 5);
        assert_eq!(welch_p(&flat(1.0), &flat(1.0)), Some(1.0));
        assert_eq!(welch_p(&flat(1.0), &flat(2.0)), Some(0.0));
        assert_eq!(welch_p(&flat(1.0), &Summary::given(1.0, 1.0, 1)), None);
        // Our five identical runs against the seed's spread: only the seed's variance counts.
        let p = welch_p(&flat(289.6), &Summary::given(94.5, 1.2, 5)).unwrap();
        assert!(p < 1e-6, "{p}");
    }
}
