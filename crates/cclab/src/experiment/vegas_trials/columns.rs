//! The seed's own columns against each other (cause F): in each trial, are the seed's five
//! Vegas runs distributed like its Reno runs, like its mVegas runs, like both or like neither?
//!
//! Two sets of runs are "alike" when Welch's two-sided t-test between them gives
//! `p ≥ ALPHA` ([`crate::verdict::ALPHA`], 0.05): the test cannot tell them apart. Vegas
//! between Reno and mVegas would be alike to both or to neither; the seed's table has it alike
//! to exactly one in every trial, Reno in trials 1, 2 and 4 and mVegas in trials 3, 5 and 6.
//! Where the seed's Vegas is like its mVegas, our mVegas is set beside it too: if those runs
//! were made with the seed's modified module (the hypothesis of cause F: a vegas2 built from
//! `tcp_vegas.c` that keeps its `EXPORT_SYMBOL_GPL`s stops Linux from loading `tcp_vegas`, so
//! selecting "vegas" fails and leaves the module selected before), that is the cell of ours
//! they should match.
//!
//! The seed's own reading of its columns is checked on them too ([`outperform_claims`]): "In
//! both Trial 5 and 6, modified Vegas outperforms default Vegas, though only statistically
//! significantly in Trial 6 and at that only if the (most extreme of the entire dataset)
//! outlier is included."

use super::seed;
use crate::experiment::Table;
use crate::stats::{welch_p, Summary};
use crate::table::num;
use crate::verdict::{p_equals, p_value, Bound, Claim, ALPHA};

/// Which of the seed's other two columns its Vegas runs are alike to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Likeness {
    Reno,
    MVegas,
    Both,
    Neither,
}

impl Likeness {
    fn label(self) -> &'static str {
        match self {
            Likeness::Reno => "Reno",
            Likeness::MVegas => "mVegas",
            Likeness::Both => "both",
            Likeness::Neither => "neither",
        }
    }
}

/// Welch's p between the seed's Vegas and its Reno, and between its Vegas and its mVegas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    pub trial: u32,
    pub p_reno: f64,
    pub p_mvegas: f64,
}

impl Comparison {
    pub fn likeness(&self) -> Likeness {
        match (self.p_reno >= ALPHA, self.p_mvegas >= ALPHA) {
            (true, false) => Likeness::Reno,
            (false, true) => Likeness::MVegas,
            (true, true) => Likeness::Both,
            (false, false) => Likeness::Neither,
        }
    }
}

/// Welch's p between two summaries (NaN with fewer than two runs on a side, which is never
/// "alike").
fn p(a: &Summary, b: &Summary) -> f64 {
    welch_p(a, b).unwrap_or(f64::NAN)
}

/// The seed's Vegas against its Reno and its mVegas in `trial`.
pub fn compare(trial: &seed::Trial) -> Comparison {
    let [reno, vegas, mvegas] = trial.cells.map(|c| c.summary());
    Comparison { trial: trial.number, p_reno: p(&vegas, &reno), p_mvegas: p(&vegas, &mvegas) }
}

/// Every trial's comparison, in the seed's order.
pub fn compare_all() -> Vec<Comparison> {
    seed::TRIALS.iter().map(compare).collect()
}

/// Welch's p between our runs `ours` and the seed's Vegas of `trial` (NaN with fewer than two
/// runs).
pub fn ours_against_seed_vegas(trial: u32, ours: &[f64]) -> f64 {
    Summary::of(ours).map_or(f64::NAN, |o| p(&o, &seed::trial(trial).cells[1].summary()))
}

/// The table: per trial, the seed's Vegas, its p against the seed's Reno and mVegas, which it
/// is like, and, where it is like mVegas, our mVegas (from `ours(trial, k)`, `k` in `ALGOS`
/// order) with its p against the seed's Vegas.
pub fn table(ours: &dyn Fn(u32, usize) -> Vec<f64>) -> Table {
    let mut t = Table::new(
        "cause F: the seed's Vegas against its own Reno and mVegas columns (Welch's t-test, alike when p ≥ 0.05)",
        &["trial", "seed Vegas (Mbit/s)", "p against seed Reno", "p against seed mVegas", "alike to", "our mVegas (Mbit/s)", "p, our mVegas against seed Vegas"],
    );
    for c in compare_all() {
        let s = seed::trial(c.trial).cells[1].summary();
        let mut row = vec![c.trial.to_string(), format!("{} ± {}", num(s.mean), num(s.sd)), p_value(c.p_reno), p_value(c.p_mvegas), c.likeness().label().into()];
        if c.likeness() == Likeness::MVegas {
            let xs = ours(c.trial, 2);
            let mean = Summary::of(&xs).map_or(f64::NAN, |o| o.mean);
            row.extend([num(mean), p_value(ours_against_seed_vegas(c.trial, &xs))]);
        } else {
            row.extend([String::new(), String::new()]);
        }
        t.row(row);
    }
    t
}

/// Welch's one-sided p for "`a` above `b`": half the two-sided p when `a`'s mean is above
/// `b`'s, else one minus that (NaN with fewer than two runs on a side).
fn welch_p_above(a: &[f64], b: &[f64]) -> f64 {
    let (Some(sa), Some(sb)) = (Summary::of(a), Summary::of(b)) else { return f64::NAN };
    welch_p(&sa, &sb).map_or(f64::NAN, |p| if sa.mean > sb.mean { p / 2.0 } else { 1.0 - p / 2.0 })
}

/// The seed's statement on mVegas against Vegas in trials 5 and 6, each part checked on the
/// seed's own five runs per column by Welch's test (the seed names no test): trial 5 not
/// significant, trial 6 significant with its 18.1 Mbit/s outlier and not without it.
pub fn outperform_claims() -> Vec<Claim> {
    let quote = "\"modified Vegas outperforms default Vegas, though only statistically significantly in Trial 6 and at that only if the (most extreme of the entire dataset) outlier is included\"";
    let runs = |trial: u32, k: usize| seed::trial(trial).cells[k].runs;
    let (vegas_6, mvegas_6) = (runs(6, 1), runs(6, 2));
    let outlier = mvegas_6.iter().copied().fold(f64::MIN, f64::max);
    let without: Vec<f64> = mvegas_6.iter().copied().filter(|&x| x != outlier).collect();
    let with = Claim::significance(
        &format!("trial 6: mVegas above Vegas significantly with the outlier ({} Mbit/s) among its runs (the seed's own five runs per column)", num(outlier)),
        quote,
        ("the seed's mVegas", &mvegas_6),
        ("its Vegas", &vegas_6),
        true,
        "Mbit/s",
    );
    let with = if with.holds() {
        with
    } else {
        let sd = |xs: &[f64]| Summary::of(xs).map_or(f64::NAN, |s| s.sd);
        with.because(&format!(
            "the seed's own runs do not bear it out: the outlier lifts mVegas's mean but also its standard deviation ({} Mbit/s with it, {} without), so Welch's test finds no difference with it either, nor does its one-sided form ({}). Which test the seed ran it does not say",
            num(sd(&mvegas_6)),
            num(sd(&without)),
            p_equals(welch_p_above(&mvegas_6, &vegas_6))
        ))
    };
    vec![
        Claim::significance(
            "trial 5: mVegas above Vegas not significantly (the seed's own five runs per column)",
            quote,
            ("the seed's mVegas", &runs(5, 2)),
            ("its Vegas", &runs(5, 1)),
            false,
            "Mbit/s",
        ),
        with,
        Claim::significance(
            "trial 6: mVegas above Vegas not significantly without the outlier (the seed's own runs, the outlier left out)",
            quote,
            ("the seed's mVegas", &without),
            ("its Vegas", &vegas_6),
            false,
            "Mbit/s",
        ),
        most_extreme_claim(),
    ]
}

/// How far run `i` of `runs` lies from the others of its cell: `|x − m|/m`, `m` the median of
/// the other four. Grubbs' G cannot rank five runs' outliers: it is bounded by
/// `(n − 1)/√n = 1.789` at n = 5, which any one run far from four close ones approaches, so
/// every cell with one such run scores about the same.
fn distance_from_its_cell(runs: &[f64], i: usize) -> f64 {
    let mut others: Vec<f64> = runs.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
    others.sort_by(f64::total_cmp);
    let m = (others[(others.len() - 1) / 2] + others[others.len() / 2]) / 2.0;
    (runs[i] - m).abs() / m
}

/// The seed's "(most extreme of the entire dataset) outlier", trial 6's 18.1 Mbit/s, checked
/// on its own 90 runs: no other run lies as far from its cell ([`distance_from_its_cell`]).
fn most_extreme_claim() -> Claim {
    let mut far: Vec<(f64, u32, usize, f64)> = Vec::new();
    for t in seed::TRIALS {
        for (k, cell) in t.cells.iter().enumerate() {
            for (i, &x) in cell.runs.iter().enumerate() {
                far.push((distance_from_its_cell(&cell.runs, i), t.number, k, x));
            }
        }
    }
    far.sort_by(|a, b| b.0.total_cmp(&a.0));
    let name = |(_, t, k, x): (f64, u32, usize, f64)| format!("trial {t}'s {} {} Mbit/s", ["Reno", "Vegas", "mVegas"][k], num(x));
    let outlier = seed::trial(6).cells[2].runs.iter().copied().fold(f64::MIN, f64::max);
    let mine = far.iter().find(|f| f.1 == 6 && f.2 == 2 && f.3 == outlier).copied().expect("trial 6's mVegas runs");
    let next = far.iter().find(|f| **f != mine).copied().expect("other runs");
    let mut c = Claim::bound(
        &format!("trial 6's mVegas run of {} Mbit/s is \"the most extreme of the entire dataset\": no other of the seed's 90 runs lies as far from the median of its cell's other four (|x − m|/m)", num(outlier)),
        "\"the (most extreme of the entire dataset) outlier\"",
        &[next.0],
        Bound::AtMost(mine.0),
        "",
    );
    c.ours = format!("{} at {}; the next, {}, at {}", name(mine), num(mine.0), name(next), num(next.0));
    c.test = format!("every other run at most {} from its cell", num(mine.0));
    // Grubbs' G of the run farthest from each cell's mean, for the cells at or above ours.
    let g = grubbs_g(&seed::trial(6).cells[2].runs, outlier);
    let mut rivals: Vec<String> = Vec::new();
    for t in seed::TRIALS {
        for (k, cell) in t.cells.iter().enumerate() {
            let Some(s) = Summary::of(&cell.runs) else { continue };
            let x = cell.runs.iter().copied().max_by(|a, b| (a - s.mean).abs().total_cmp(&(b - s.mean).abs())).unwrap_or(f64::NAN);
            let gx = grubbs_g(&cell.runs, x);
            if gx >= g && !(t.number == 6 && k == 2) {
                rivals.push(format!("{} (G = {})", name((0.0, t.number, k, x)), num(gx)));
            }
        }
    }
    let by_g = if rivals.is_empty() {
        format!("by Grubbs' G it is the largest as well ({})", num(g))
    } else {
        format!("by Grubbs' G ({}), which at five runs cannot exceed 1.789, {} {} as high or higher, so G does not single it out", num(g), rivals.join(", "), if rivals.len() == 1 { "scores" } else { "score" })
    };
    c.because(&format!("read as distance from its cell relative to the cell's size; {by_g}"))
}

/// Grubbs' statistic of `x` among `runs`: `|x − mean|/sd`.
fn grubbs_g(runs: &[f64], x: f64) -> f64 {
    Summary::of(runs).map_or(f64::NAN, |s| (x - s.mean).abs() / s.sd)
}

/// The trials in which the seed's Vegas is alike to `like`.
pub fn trials_like(all: &[Comparison], like: Likeness) -> Vec<u32> {
    all.iter().filter(|c| c.likeness() == like).map(|c| c.trial).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(mean: f64, sd: f64) -> Summary {
        Summary { n: 5, min: mean - sd, median: mean, max: mean + sd, mean, sd }
    }

    /// Far apart by many standard errors is "not alike"; a hair apart is "alike".
    #[test]
    fn likeness_follows_welch_at_alpha() {
        let c = |p_reno, p_mvegas| Comparison { trial: 0, p_reno, p_mvegas }.likeness();
        assert_eq!(c(0.5, 0.001), Likeness::Reno);
        assert_eq!(c(0.001, 0.5), Likeness::MVegas);
        assert_eq!(c(0.5, 0.5), Likeness::Both);
        assert_eq!(c(0.001, 0.001), Likeness::Neither);
        assert_eq!(c(ALPHA, 0.0), Likeness::Reno, "p = alpha is not significant");
        // 10 ± 1 against 10.1 ± 1: t = 0.16, alike; against 20 ± 1: t = 15.8, not.
        assert!(p(&summary(10.0, 1.0), &summary(10.1, 1.0)) > 0.8);
        assert!(p(&summary(10.0, 1.0), &summary(20.0, 1.0)) < 1e-4);
    }

    /// The seed's trial 6 with its outlier: mVegas 7.62, 7.80, 7.98, 9.86, 18.10 (mean 10.27,
    /// sd 4.47) against Vegas 8.45 ± 1.36 (printed): se² = 4.47²/5 + 1.36²/5 = 4.37, t =
    /// 1.82/2.09 = 0.87 on about 4.7 degrees of freedom, p ≈ 0.42: not significant, so
    /// the seed's "significantly ... if the outlier is included" does not hold on its own runs;
    /// the other two parts (trial 5, trial 6 without the outlier: not significant) hold.
    #[test]
    fn the_seeds_significance_statement_checked_on_its_own_runs() {
        let c = outperform_claims();
        let verdicts: Vec<_> = c.iter().map(|c| c.verdict.label()).collect();
        assert_eq!(verdicts, ["holds", "does not hold", "holds", "holds"], "{c:#?}");
        assert!(c[1].test.contains("p = 0.4"), "{}", c[1].test);
    }

    /// 18.1 against the median of 7.62, 7.80, 7.98, 9.86 (7.89): |18.1 − 7.89|/7.89 = 1.294;
    /// the next farthest run of the 90, trial 6's Vegas 10.5 against the median of its other
    /// four, lies at 0.344. Grubbs' G of 18.1 is 1.752, and trial 4's mVegas 102 and trial 5's
    /// 103 score 1.763 and 1.773.
    #[test]
    fn the_outlier_is_the_farthest_from_its_cell_but_not_by_grubbs() {
        let c = most_extreme_claim();
        assert!(c.holds(), "{c:#?}");
        assert!(c.ours.contains("18.1 Mbit/s at 1.294") && c.ours.contains("10.5 Mbit/s, at 0.3436"), "{}", c.ours);
        assert!(c.why.contains("G = 1.773"), "{}", c.why);
        assert!((distance_from_its_cell(&[7.62, 7.80, 7.98, 9.86, 18.10], 4) - 10.21 / 7.89).abs() < 1e-9);
    }

    /// The seed's table (its five runs per cell, `seed.rs`): Vegas alike to Reno in trials
    /// 1, 2 and 4, alike to mVegas in 3, 5 and 6, never to both or neither.
    #[test]
    fn the_seeds_vegas_is_alike_to_exactly_one_column() {
        let all = compare_all();
        assert_eq!(trials_like(&all, Likeness::Reno), vec![1, 2, 4]);
        assert_eq!(trials_like(&all, Likeness::MVegas), vec![3, 5, 6]);
        assert!(trials_like(&all, Likeness::Both).is_empty() && trials_like(&all, Likeness::Neither).is_empty());
    }
}
