//! Verdicts on a seed's claims. Every report opens with a table of [`Claim`]s: what the seed
//! says (a number, a mean over runs with its spread, or a direction), what we measured, the
//! test that judged them, and one of five verdicts:
//!
//! - **holds**: the stated test accepts ours as the seed's;
//! - **does not hold**: it does not, and `why` says what we found out about the cause;
//! - **not settled**: a bound judged by a confidence interval ([`Claim::difference`],
//!   [`Claim::mean_bound`]) whose interval reaches across it: these runs can neither keep the
//!   bound nor break it. `why` says so, and about how many seeds would settle it if the mean
//!   and the spread stayed as they are ([`crate::stats::runs_to_settle`]). It is counted among
//!   the judged claims and never as holding; it is kept apart from "does not hold" because
//!   the runs do not show the claim false either. Also a mean the seed's runs cannot pin
//!   ([`Claim::matches`]: their spread reaches past zero), and a seed's single figure inside
//!   our prediction interval where that interval cannot tell it from half or twice it
//!   ([`Claim::one_run`], [`ONE_RUN_RESOLUTION`]);
//! - **fitted**: a model parameter was chosen to produce this very figure, so agreement proves
//!   nothing and is never counted as holding;
//! - **not comparable**: the two figures measure different things; `why` says how.
//!
//! The tests, each named in the table:
//!
//! - [`Claim::value`]: one figure against one, within a relative tolerance whose basis (a
//!   model's stated error, the seed's reading precision) is written beside it. A seed's zero is
//!   met only by a zero: no relative tolerance makes 0.3 agree with 0.
//! - [`Claim::distribution`]: our runs against the seed's mean and standard deviation over its
//!   runs, by Welch's two-sided t-test at [`ALPHA`] ([`crate::stats::welch_p`]); with fewer
//!   than two runs on a side the test is undefined and the claim is not comparable. Where it
//!   holds, the test also gives the 95 % interval of the difference of means
//!   ([`crate::stats::welch_interval`]): how large a difference the runs could have missed.
//! - [`Claim::variance`]: our runs' spread against the seed's standard deviation over its
//!   runs, by the two-sided F-test of equal variances at [`ALPHA`] ([`crate::stats::f_test_p`]).
//! - [`Claim::significance`]: a statement that two sets of runs differ, or do not, by Welch's
//!   test at [`ALPHA`]; with the seed's own runs it checks the seed's reading of its data.
//! - [`Claim::equivalent`]: a claim of sameness, by equivalence (two one-sided Welch tests):
//!   the 90 % interval of ours minus the reference inside a stated margin. Welch's test not
//!   finding a difference is not sameness shown.
//! - [`Claim::one_run`]: a seed's single figure (no spread given) inside our runs' 95 %
//!   prediction interval for one more run, widened by the seed's rounding, and not settled
//!   where the interval admits both half and twice the seed's figure;
//!   [`Claim::one_run_positive`] takes that interval on a log scale for times and ratios, and
//!   calls a claim not comparable where the interval spans more than a factor of ten.
//! - [`Claim::direction`]: "A above B", checked seed by seed on paired runs: it holds when it
//!   holds on every seed, so the spread over seeds decides, not a mean.
//! - [`Claim::bound`]: a stated bound ("gains no more than 10 %"), kept on every seed.
//! - [`Claim::mean_bound`]: a bound on our mean over seeds, kept by its whole 95 % confidence
//!   interval.
//! - [`Claim::band`]: a model's band (its constant's stated range), holding when the 95 %
//!   confidence interval of our mean over seeds lies inside it and not settled when the
//!   interval reaches across an edge.

use crate::stats::{confidence_half_width, f_test_p, prediction_half_width, runs_to_settle, welch_interval, welch_p, Summary};
use crate::table::{num, Table};

/// The significance level of the distribution test: a difference with p < 0.05 does not hold.
pub const ALPHA: f64 = 0.05;

/// How far apart two standard deviations may be and still count as the same, for
/// [`Claim::variance`]: a factor of two either way, the precision five runs give one (the 95 %
/// interval of σ from five runs is 0.60 to 2.87 times s).
pub const SD_FACTOR: f64 = 2.0;

/// The coarsest difference a one-run claim must be able to see: a seed's figure inside our
/// prediction interval settles nothing where the interval also admits half and twice it. A
/// stated convention, not derived: the factor of two [`SD_FACTOR`] takes for a standard
/// deviation, applied to a figure, so that a "holds" at least rules out an error of a factor
/// of two either way.
pub const ONE_RUN_RESOLUTION: f64 = 2.0;

/// How far [`runs_to_settle`] looks for a claim not settled before it says no practical number
/// of seeds would settle it.
const MAX_RUNS_TO_SETTLE: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Holds,
    DoesNotHold,
    NotSettled,
    /// A check of our code against a rule the seed states (a constant, a design), not a
    /// measure of behaviour: it passed, but it could fail only by a slip in our code, so it
    /// is not counted among the claims that hold ([`Claim::check`]).
    Conforms,
    Fitted,
    NotComparable,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "does not hold",
            Verdict::NotSettled => "not settled",
            Verdict::Conforms => "conforms",
            Verdict::Fitted => "fitted",
            Verdict::NotComparable => "not comparable",
        }
    }
}

/// What a claim's runs are: one per seed of one configuration, or one per link and seed where
/// a claim pools links (a spread over them is then a spread over links, not over seeds).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Runs {
    Seeds,
    LinksAndSeeds,
}

impl Runs {
    fn one(self) -> &'static str {
        match self {
            Runs::Seeds => "seed",
            Runs::LinksAndSeeds => "link and seed",
        }
    }
    /// After a count of runs: nothing for seeds (the default), what they pool otherwise.
    fn pooled(self) -> &'static str {
        match self {
            Runs::Seeds => "",
            Runs::LinksAndSeeds => " runs (links × seeds)",
        }
    }
    fn plural(self) -> &'static str {
        match self {
            Runs::Seeds => "seeds",
            Runs::LinksAndSeeds => "runs (links × seeds)",
        }
    }
}

/// A one-sided bound for [`Claim::bound`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    AtLeast(f64),
    AtMost(f64),
}

/// One claim of a seed, ours beside it, and the verdict.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Claim {
    /// What is claimed, e.g. "trial 1: mVegas's mean throughput".
    pub claim: String,
    /// The seed's figure or statement, with its unit and spread.
    pub seed: String,
    /// Ours, with its unit and spread over seeds.
    pub ours: String,
    /// How the two were judged.
    pub test: String,
    pub verdict: Verdict,
    /// Does not hold: the cause we found. Fitted: what was fitted, and on which data. Not
    /// comparable: what differs. Optional for a claim that holds.
    pub why: String,
}

fn with_unit(v: f64, unit: &str) -> String {
    if unit.is_empty() {
        num(v)
    } else {
        format!("{} {unit}", num(v))
    }
}

/// Where an equivalence interval lies wholly to one side of zero: sameness within the margin,
/// yet a difference the runs do show.
fn one_sided(lo: f64, hi: f64, inside: bool) -> &'static str {
    match (inside, lo > 0.0, hi < 0.0) {
        (true, true, _) => "; the interval is above zero: ours is higher, by less than the margin",
        (true, _, true) => "; the interval is below zero: ours is lower, by less than the margin",
        _ => "",
    }
}

/// `mean ± sd (n = k)`, or just the value for one run.
pub fn spread(s: &Summary, unit: &str) -> String {
    if s.n == 1 {
        with_unit(s.mean, unit)
    } else {
        format!("{} ± {} (n = {})", with_unit(s.mean, unit), num(s.sd), s.n)
    }
}

impl Claim {
    fn new(claim: &str, seed: String, ours: String, test: String, verdict: Verdict) -> Claim {
        Claim { claim: claim.to_string(), seed, ours, test, verdict, why: String::new() }
    }

    /// Ours within `tolerance` (relative, e.g. 0.1 for ±10 %) of the seed's figure; `basis`
    /// says where the tolerance comes from. A seed's 0 is met only by exactly 0.
    pub fn value(claim: &str, ours: f64, seed: f64, unit: &str, tolerance: f64, basis: &str) -> Claim {
        let (holds, test) = if seed == 0.0 {
            (ours == 0.0, "exactly 0, as the seed's".to_string())
        } else {
            (((ours - seed) / seed).abs() <= tolerance, format!("within ±{} % ({basis}); ours is {:+.1} %", num(tolerance * 100.0), (ours - seed) / seed * 100.0))
        };
        let verdict = if holds && ours.is_finite() { Verdict::Holds } else { Verdict::DoesNotHold };
        Claim::new(claim, with_unit(seed, unit), with_unit(ours, unit), test, verdict)
    }

    /// A conformance check: the seed's figure is one that `rule` (a standard's or Linux's
    /// constant) sets and our code follows, so ours must equal it exactly. It is judged as
    /// [`Claim::value`] with no tolerance, and where it holds its note says that it is not a
    /// measure of behaviour: it could fail only by a slip in our code.
    pub fn conformance(claim: &str, ours: f64, seed: f64, unit: &str, rule: &str) -> Claim {
        Claim::value(claim, ours, seed, unit, 0.0, &format!("exact: {rule}"))
            .check(&format!("the seed's figure follows from a rule our code implements ({rule}); it could fail only by a slip in our code"))
    }

    /// Marks a claim as a check of our code against the rule or design the seed states, not a
    /// measure of behaviour (`what` says why it could fail only by a slip in our code): one
    /// that holds becomes [`Verdict::Conforms`], not counted among those that hold; one that
    /// fails keeps its verdict, with `what` as its note.
    pub fn check(mut self, what: &str) -> Claim {
        if self.holds() {
            self.verdict = Verdict::Conforms;
        }
        let note = format!("a check of our code, not a measure of behaviour: {}", what.trim_end_matches('.'));
        // A cause found earlier follows the note (a claim not settled keeps its own first).
        let earlier = if self.verdict == Verdict::NotSettled { String::new() } else { std::mem::take(&mut self.why) };
        let why = match earlier.chars().next() {
            None => note,
            Some(first) => format!("{note}. {}{}", first.to_uppercase(), &earlier[first.len_utf8()..]),
        };
        self.because(&why)
    }

    /// Our runs against the seed's runs, known by their mean and standard deviation, by
    /// Welch's t-test: holds when equal means are not rejected at [`ALPHA`].
    pub fn distribution(claim: &str, ours: &[f64], seed: Summary, unit: &str) -> Claim {
        let Some(o) = Summary::of(ours) else {
            return Claim::not_comparable(claim, spread(&seed, unit), "no runs".into(), "we have no runs of this");
        };
        let (seed_text, ours_text) = (spread(&seed, unit), spread(&o, unit));
        match welch_p(&o, &seed) {
            None => Claim::not_comparable(claim, seed_text, ours_text, "Welch's test needs two runs or more on each side"),
            Some(p) => {
                let verdict = if p >= ALPHA { Verdict::Holds } else { Verdict::DoesNotHold };
                let mut test = format!("Welch's t-test, two-sided: {}", welch_result(&o, &seed, p));
                // Where no difference is found, how large a one the runs could have missed.
                if let (Verdict::Holds, Some((lo, hi))) = (verdict, welch_interval(&o, &seed, ALPHA)) {
                    test += &format!("; ours minus the reference lies in {} to {} (95 %)", num(lo), num(hi));
                }
                Claim::new(claim, seed_text, ours_text, test, verdict)
            }
        }
    }

    /// Our runs as a reproduction of the seed's mean (the seed's runs known by their mean,
    /// standard deviation and count): does not hold when Welch's test rejects equal means at
    /// [`ALPHA`]; holds when the 95 % Welch interval of ours minus the seed's lies within ± the
    /// spread of the seed's own runs, the half-width of its 95 % prediction interval for one
    /// more run, `t(0.975, n − 1)·s·√(1 + 1/n)`; and is not settled when the interval reaches
    /// beyond that (no difference found is not sameness shown), or when that spread is as large
    /// as a positive mean itself: the seed's runs then take anything from zero up, and do not
    /// pin the figure.
    pub fn matches(claim: &str, ours: &[f64], seed: Summary, unit: &str) -> Claim {
        let c = Claim::distribution(claim, ours, seed, unit);
        let (Verdict::Holds, Some(o)) = (c.verdict, Summary::of(ours)) else { return c };
        let (Some((lo, hi)), Some(margin)) = (welch_interval(&o, &seed, ALPHA), prediction_half_width(&seed, ALPHA)) else { return c };
        let inside = -margin <= lo && hi <= margin;
        let test = format!(
            "Welch's t-test, two-sided: {}; ours minus the seed's lies in {} to {} (95 %), {} ±{}, the spread of the seed's own runs (95 % of one more run)",
            welch_result(&o, &seed, welch_p(&o, &seed).unwrap_or(1.0)),
            num(lo),
            with_unit(hi, unit),
            if inside { "within" } else { "not within" },
            with_unit(margin, unit)
        );
        // A positive figure whose runs spread past zero: "within their spread" then takes
        // anything from zero to twice the mean, which a zero must never pass for.
        let unpinned = seed.mean > 0.0 && margin >= seed.mean;
        let mut m = Claim::new(claim, c.seed, c.ours, test, if inside && !unpinned { Verdict::Holds } else { Verdict::NotSettled });
        if !inside {
            m.why = "no difference found, but the interval reaches beyond the seed's own spread: more runs would narrow it.".into();
        } else if unpinned {
            m.why = format!(
                "no difference found, but the seed's own runs spread so widely (±{} about its {}, 95 % of one more run) that the test would take anything from zero to twice its mean: the seed's runs do not pin this figure.",
                with_unit(margin, unit),
                with_unit(seed.mean, unit)
            );
        }
        m
    }

    /// "Ours is the same as the reference", by equivalence, not by a test that failed to find a
    /// difference: two one-sided tests at [`ALPHA`] (Schuirmann 1987), which hold when the
    /// (1 − 2α) = 90 % Welch interval of ours minus the reference lies inside ±`margin`;
    /// `margin_source` says where the margin comes from. Few or noisy runs give a wide interval
    /// and the claim does not hold: no difference found is not sameness shown.
    pub fn equivalent(claim: &str, ours: &[f64], reference: Summary, margin: f64, margin_source: &str, unit: &str) -> Claim {
        let Some(o) = Summary::of(ours) else {
            return Claim::not_comparable(claim, spread(&reference, unit), "no runs".into(), "we have no runs of this");
        };
        let (seed_text, ours_text) = (spread(&reference, unit), spread(&o, unit));
        let Some((lo, hi)) = welch_interval(&o, &reference, 2.0 * ALPHA) else {
            return Claim::not_comparable(claim, seed_text, ours_text, "an equivalence test needs two runs or more on each side");
        };
        // + 0.0 turns a negative zero (no spread, no difference) into a plain one for printing.
        let (lo, hi) = (lo + 0.0, hi + 0.0);
        let inside = -margin < lo && hi < margin;
        let test = format!(
            "equivalence (two one-sided Welch tests, α = {ALPHA}): ours minus the reference lies in {} to {} (90 %), {} ±{} ({margin_source}){}",
            num(lo),
            with_unit(hi, unit),
            if inside { "inside" } else { "not inside" },
            with_unit(margin, unit),
            one_sided(lo, hi, inside)
        );
        let verdict = if inside { Verdict::Holds } else { Verdict::DoesNotHold };
        Claim::new(claim, seed_text, ours_text, test, verdict)
    }

    /// Our runs' standard deviation against the seed's (`seed.sd` over `seed.n` runs): does
    /// not hold when the two-sided F-test rejects equal variances at [`ALPHA`]; otherwise holds
    /// only when the 95 % interval of σ_ours/σ_seed lies within a factor of
    /// [`SD_FACTOR`] either way, and is not settled when it does not: no difference found is
    /// not sameness shown.
    pub fn variance(claim: &str, ours: &[f64], seed: Summary, unit: &str) -> Claim {
        let sd = |s: &Summary| format!("sd {} (n = {})", with_unit(s.sd, unit), s.n);
        let Some(o) = Summary::of(ours) else {
            return Claim::not_comparable(claim, sd(&seed), "no runs".into(), "we have no runs of this");
        };
        match f_test_p(&o, &seed) {
            None => Claim::not_comparable(claim, sd(&seed), sd(&o), "the F-test needs two runs or more on each side and a spread in the seed's"),
            Some(p) => {
                let mut test = format!(
                    "F-test of equal variances, two-sided: F = {} on ({}, {}) degrees of freedom, {}, {} α = {ALPHA}",
                    num((o.sd / seed.sd).powi(2)),
                    o.n - 1,
                    seed.n - 1,
                    p_equals(p),
                    if p >= ALPHA { "≥" } else { "<" }
                );
                if p < ALPHA {
                    return Claim::new(claim, sd(&seed), sd(&o), test, Verdict::DoesNotHold);
                }
                let Some((lo, hi)) = crate::stats::sd_ratio_interval(&o, &seed, ALPHA) else {
                    return Claim::new(claim, sd(&seed), sd(&o), test, Verdict::NotSettled);
                };
                let inside = 1.0 / SD_FACTOR <= lo && hi <= SD_FACTOR;
                test += &format!(
                    "; σ_ours/σ_seed lies in {} to {} (95 %), {} 1/{SD_FACTOR} to {SD_FACTOR}",
                    num(lo),
                    num(hi),
                    if inside { "within" } else { "not within" }
                );
                let mut c = Claim::new(claim, sd(&seed), sd(&o), test, if inside { Verdict::Holds } else { Verdict::NotSettled });
                if !inside {
                    // Even with endless runs of ours the seed's own n bounds the interval.
                    c.why = match crate::stats::sd_ratio_width_limit(seed.n, ALPHA) {
                        Some(width) if width > SD_FACTOR * SD_FACTOR => format!(
                            "the F-test finds no difference, but its interval reaches beyond a factor of {SD_FACTOR}: the seed's {} runs leave its own standard deviation uncertain by a factor of {} from end to end (95 %), more than the {} the margin allows, so no number of our runs could settle it.",
                            seed.n,
                            num(width),
                            SD_FACTOR * SD_FACTOR
                        ),
                        _ => format!("the F-test finds no difference, but its interval reaches beyond a factor of {SD_FACTOR}: more runs of ours would narrow it."),
                    };
                }
                c
            }
        }
    }

    /// A statement that two sets of runs differ (`differ`) or do not, by Welch's two-sided
    /// t-test at [`ALPHA`], checked on the runs given: ours, or the seed's own where the
    /// statement is the seed's reading of its data.
    pub fn significance(claim: &str, seed: &str, a: (&str, &[f64]), b: (&str, &[f64]), differ: bool, unit: &str) -> Claim {
        let (Some(sa), Some(sb)) = (Summary::of(a.1), Summary::of(b.1)) else {
            return Claim::not_comparable(claim, seed.into(), "no runs".into(), "we have no runs of this");
        };
        let ours = format!("{} {} against {} {}", a.0, spread(&sa, unit), b.0, spread(&sb, unit));
        let Some(p) = welch_p(&sa, &sb) else {
            return Claim::not_comparable(claim, seed.into(), ours, "Welch's test needs two runs or more on each side");
        };
        let found = p < ALPHA;
        let verdict = if found == differ { Verdict::Holds } else { Verdict::DoesNotHold };
        let test = format!("Welch's t-test, two-sided: {}: {}", welch_result(&sa, &sb, p), if found { "a significant difference" } else { "no significant difference" });
        Claim::new(claim, seed.into(), ours, test, verdict)
    }

    /// The seed's figure from a single run (no spread given) against our runs over seeds: holds
    /// when it lies inside our 95 % prediction interval for one more run
    /// ([`crate::stats::prediction_half_width`]) widened by `precision`, half a unit of the
    /// seed's last printed digit (0.005 for "91 %"). Where the interval admits both half and
    /// twice a positive seed figure, it is not settled rather than holding.
    pub fn one_run(claim: &str, ours: &[f64], seed: f64, precision: f64, unit: &str) -> Claim {
        let Some(o) = Summary::of(ours) else {
            return Claim::not_comparable(claim, with_unit(seed, unit), "no runs".into(), "we have no runs of this");
        };
        let Some(half) = prediction_half_width(&o, ALPHA) else {
            return Claim::not_comparable(claim, with_unit(seed, unit), spread(&o, unit), "a prediction interval needs two runs or more");
        };
        let (lo, hi) = (o.mean - half - precision, o.mean + half + precision);
        let verdict = if (lo..=hi).contains(&seed) { Verdict::Holds } else { Verdict::DoesNotHold };
        let test = format!(
            "the seed's one run inside our 95 % prediction interval ± the seed's rounding ({}): {} to {}",
            num(precision),
            num(lo),
            num(hi)
        );
        Claim::new(claim, with_unit(seed, unit), spread(&o, unit), test, verdict).unless_blind_to_a_factor_of_two(seed, (lo, hi), unit)
    }

    /// A one-run claim that holds only because our interval is too wide to tell a factor of
    /// two ([`ONE_RUN_RESOLUTION`]): where it admits both half and twice a positive seed
    /// figure, our runs could not have told the seed's figure from one twice or half as
    /// large, so the agreement is not settled.
    fn unless_blind_to_a_factor_of_two(mut self, seed: f64, (lo, hi): (f64, f64), unit: &str) -> Claim {
        if self.holds() && seed > 0.0 && lo <= seed / ONE_RUN_RESOLUTION && hi >= seed * ONE_RUN_RESOLUTION {
            self.verdict = Verdict::NotSettled;
            self.why = format!(
                "our interval, {} to {}, admits both half ({}) and twice ({}) the seed's figure: these runs cannot tell a factor of two, so the seed's figure lying inside settles nothing; more seeds would narrow it",
                num(lo),
                num(hi),
                with_unit(seed / ONE_RUN_RESOLUTION, unit),
                with_unit(seed * ONE_RUN_RESOLUTION, unit)
            );
        }
        self
    }

    /// [`Claim::one_run`] for a positive figure whose runs spread by factors, not by amounts (a
    /// scan's time, a speed-up, a ratio of counts): the prediction interval is taken on the
    /// logarithms, `exp(m ± t·s·√(1 + 1/n))` with `m` and `s` the mean and standard deviation
    /// of `ln x` (a log-normal model), so that it never reaches zero or below, then widened by
    /// `precision`. An interval spanning more than a factor of ten (an order of magnitude) is
    /// too wide to test one run against: the claim is then not comparable, not "holds"; one
    /// that admits both half and twice the seed's figure is not settled (as [`Claim::one_run`]).
    pub fn one_run_positive(claim: &str, ours: &[f64], seed: f64, precision: f64, unit: &str) -> Claim {
        let Some(o) = Summary::of(ours) else {
            return Claim::not_comparable(claim, with_unit(seed, unit), "no runs".into(), "we have no runs of this");
        };
        if ours.iter().any(|&x| x <= 0.0 || !x.is_finite()) {
            return Claim::one_run(claim, ours, seed, precision, unit);
        }
        let Some((lo, hi)) = log_prediction_interval(ours) else {
            return Claim::not_comparable(claim, with_unit(seed, unit), spread(&o, unit), "a prediction interval needs two runs or more");
        };
        let (lo, hi) = (lo - precision, hi + precision);
        let test = format!(
            "the seed's one run inside our 95 % prediction interval on a log scale ± the seed's rounding ({}): {} to {} (× {} from end to end)",
            num(precision),
            num(lo),
            num(hi),
            num(hi / lo)
        );
        if hi > 10.0 * lo {
            let mut c = Claim::not_comparable(claim, with_unit(seed, unit), spread(&o, unit), "our runs' 95 % prediction interval spans more than a factor of ten, too wide to test one run against");
            c.test = test;
            return c;
        }
        let verdict = if (lo..=hi).contains(&seed) { Verdict::Holds } else { Verdict::DoesNotHold };
        Claim::new(claim, with_unit(seed, unit), spread(&o, unit), test, verdict).unless_blind_to_a_factor_of_two(seed, (lo, hi), unit)
    }

    /// The seed's direction "`a.0` above `b.0`" (e.g. "Vegas above mVegas"), checked on our
    /// paired runs (`a.1[i]` and `b.1[i]` from the same seed): holds when `a` is above `b`
    /// on every seed.
    pub fn direction(claim: &str, seed: &str, a: (&str, &[f64]), b: (&str, &[f64]), unit: &str) -> Claim {
        Claim::direction_over(claim, seed, a, b, unit, Runs::Seeds)
    }

    /// [`Claim::direction`] over runs that may pool several links as well as seeds.
    pub fn direction_over(claim: &str, seed: &str, a: (&str, &[f64]), b: (&str, &[f64]), unit: &str, runs: Runs) -> Claim {
        let pairs: Vec<(f64, f64)> = a.1.iter().copied().zip(b.1.iter().copied()).collect();
        let (Some(sa), Some(sb)) = (Summary::of(a.1), Summary::of(b.1)) else {
            return Claim::not_comparable(claim, seed.into(), "no runs".into(), "we have no runs of this");
        };
        if a.1.len() != b.1.len() {
            return Claim::not_comparable(claim, seed.into(), format!("{} and {} runs", a.1.len(), b.1.len()), "the runs are not paired by seed");
        }
        let above = pairs.iter().filter(|(x, y)| x > y).count();
        let verdict = if above == pairs.len() { Verdict::Holds } else { Verdict::DoesNotHold };
        if pairs.len() == 1 {
            let ours = format!("{} {} {} ({} against {})", a.0, if above == 1 { "above" } else { "not above" }, b.0, spread(&sa, unit), spread(&sb, unit));
            return Claim::new(claim, seed.into(), ours, "in our one run (no spread to judge it by)".into(), verdict);
        }
        // Pooled over links, the runs' spread is the links' differences: give their range.
        let show = |s: &Summary| match runs {
            Runs::Seeds => spread(s, unit),
            Runs::LinksAndSeeds => format!("{} to {}", num(s.min), with_unit(s.max, unit)),
        };
        let ours = format!("{} above {} on {above} of {} {} ({} against {})", a.0, b.0, pairs.len(), runs.plural(), show(&sa), show(&sb));
        Claim::new(claim, seed.into(), ours, format!("on every {}", runs.one()), verdict)
    }

    /// The seed's "`a.0` above `b.0`" where our runs of the two are not paired (different
    /// workloads, say, whose seeds share nothing but a number): by the 95 % Welch interval of
    /// mean(a) − mean(b), which holds when it lies above zero, does not hold when it lies below,
    /// and is not settled when it reaches across.
    pub fn means_apart(claim: &str, seed: &str, a: (&str, &[f64]), b: (&str, &[f64]), unit: &str) -> Claim {
        let (Some(sa), Some(sb)) = (Summary::of(a.1), Summary::of(b.1)) else {
            return Claim::not_comparable(claim, seed.into(), "no runs".into(), "we have no runs of this");
        };
        let Some((lo, hi)) = welch_interval(&sa, &sb, ALPHA) else {
            return Claim::not_comparable(claim, seed.into(), format!("{} against {}", spread(&sa, unit), spread(&sb, unit)), "Welch's interval needs two runs or more on each side");
        };
        let ours = format!("{} {} against {} {}; the difference {} to {} (95 %)", a.0, spread(&sa, unit), b.0, spread(&sb, unit), num(lo), with_unit(hi, unit));
        let (verdict, test) = interval_keeps((lo, hi), Bound::AtLeast(0.0), &format!("of {} minus {} (Welch, the runs unpaired)", a.0, b.0), unit);
        let mut c = Claim::new(claim, seed.into(), ours, test, verdict);
        if verdict == Verdict::NotSettled {
            c.why = format!("The 95 % interval of the difference, {} to {}, reaches across zero: these runs show neither the order nor its reverse.", num(lo), with_unit(hi, unit));
        }
        c
    }

    /// "Ours lie on the seed's level": figures of ours over the seed's (`ratios`, one per
    /// figure compared) on both sides of 1, by the two-sided sign test
    /// ([`crate::stats::sign_test_p`]). Does not hold when it rejects at [`ALPHA`] (a bias: too many on one side); otherwise not settled, since a sign
    /// test can find a bias but never show there is none.
    pub fn no_bias(claim: &str, seed: &str, ratios: &[f64]) -> Claim {
        let n = ratios.len();
        let above = ratios.iter().filter(|&&r| r > 1.0).count();
        let below = ratios.iter().filter(|&&r| r < 1.0).count();
        let ours = format!("above 1 on {above}, below on {below} of {n} ({} to {})", num(ratios.iter().copied().fold(f64::INFINITY, f64::min)), num(ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max)));
        let Some(p) = crate::stats::sign_test_p(above, below) else {
            return Claim::not_comparable(claim, seed.into(), ours, "no figure differs from the seed's");
        };
        let test = format!("two-sided sign test over {} figures: {}, {} α = {ALPHA}", above + below, p_equals(p), if p < ALPHA { "<" } else { "≥" });
        let mut c = Claim::new(claim, seed.into(), ours, test, if p < ALPHA { Verdict::DoesNotHold } else { Verdict::NotSettled });
        if p >= ALPHA {
            c.why = "the sign test finds no bias, and it could not show there is none.".into();
        }
        c
    }

    /// A bound the seed states ("the attacker gains at least 10 %", "no more than 10 %"),
    /// checked on each of our seeds' `values`: holds when every seed keeps it.
    pub fn bound(claim: &str, seed: &str, values: &[f64], bound: Bound, unit: &str) -> Claim {
        Claim::bound_over(claim, seed, values, bound, unit, Runs::Seeds)
    }

    /// [`Claim::bound`] over runs that may pool several links as well as seeds.
    pub fn bound_over(claim: &str, seed: &str, values: &[f64], bound: Bound, unit: &str, runs: Runs) -> Claim {
        let Some(s) = Summary::of(values) else {
            return Claim::not_comparable(claim, seed.into(), "no runs".into(), "we have no runs of this");
        };
        let every = format!("on every {}", runs.one());
        let on = if s.n == 1 { "for our one figure" } else { every.as_str() };
        let (keeps, test) = match bound {
            Bound::AtLeast(x) => (values.iter().filter(|&&v| v >= x).count(), format!("≥ {} {on}", with_unit(x, unit))),
            Bound::AtMost(x) => (values.iter().filter(|&&v| v <= x).count(), format!("≤ {} {on}", with_unit(x, unit))),
        };
        let verdict = if keeps == values.len() { Verdict::Holds } else { Verdict::DoesNotHold };
        let ours = if s.n == 1 {
            format!("{}; {}", with_unit(s.mean, unit), if keeps == 1 { "kept" } else { "not kept" })
        } else if s.min == s.max {
            format!("{} on each of {}{}; kept on {keeps} of {}", with_unit(s.min, unit), s.n, runs.pooled(), values.len())
        } else {
            format!("{} to {} (mean {}, n = {}{}); kept on {keeps} of {}", num(s.min), with_unit(s.max, unit), num(s.mean), s.n, runs.pooled(), values.len())
        };
        Claim::new(claim, seed.into(), ours, test, verdict)
    }

    /// An effect judged against a bound: the runs `with.1` minus the runs `without.1` paired by
    /// seed (an attacker's gain minus the honest pair's gain on the same seed), by the 95 %
    /// confidence interval of the mean difference (Student's t on the per-seed differences,
    /// [`crate::stats::confidence_half_width`]). `AtLeast(x)` holds when the whole interval lies
    /// at or above `x`, `AtMost(x)` when it lies at or below `x`: a bound is kept only where the
    /// runs can tell it from its breach.
    pub fn difference(claim: &str, seed: &str, with: (&str, &[f64]), without: (&str, &[f64]), bound: Bound, unit: &str) -> Claim {
        let (Some(a), Some(b)) = (Summary::of(with.1), Summary::of(without.1)) else {
            return Claim::not_comparable(claim, seed.into(), "no runs".into(), "we have no runs of this");
        };
        if a.n != b.n {
            return Claim::not_comparable(claim, seed.into(), format!("{} and {} runs", a.n, b.n), "the runs are not paired by seed");
        }
        let Some((lo, hi)) = difference_interval(with.1, without.1) else {
            return Claim::not_comparable(claim, seed.into(), spread(&a, unit), "a confidence interval needs two seeds or more");
        };
        if !(lo.is_finite() && hi.is_finite()) {
            return Claim::not_comparable(claim, seed.into(), spread(&a, unit), "our runs give no finite interval (a run without a finite figure)");
        }
        let ours = format!(
            "{} (95 % interval {} to {}); {}: {}, {}: {}",
            with_unit((lo + hi) / 2.0, unit),
            num(lo),
            with_unit(hi, unit),
            with.0,
            spread(&a, unit),
            without.0,
            spread(&b, unit)
        );
        let (verdict, test) = interval_keeps((lo, hi), bound, "of the mean difference per seed", unit);
        let d: Vec<f64> = with.1.iter().zip(without.1).map(|(a, b)| a - b).collect();
        Claim::new(claim, seed.into(), ours, test, verdict).settle_note(&d, (lo, hi), bound, unit)
    }

    /// A bound on a mean over seeds ("nearer the square root's exponent than the line's"):
    /// holds when the whole 95 % confidence interval of our mean keeps it, as in
    /// [`Claim::difference`], so that the runs tell the bound from its breach.
    pub fn mean_bound(claim: &str, seed: &str, values: &[f64], bound: Bound, unit: &str) -> Claim {
        let Some(s) = Summary::of(values) else {
            return Claim::not_comparable(claim, seed.into(), "no runs".into(), "we have no runs of this");
        };
        let Some(half) = confidence_half_width(&s, ALPHA) else {
            return Claim::not_comparable(claim, seed.into(), spread(&s, unit), "a confidence interval needs two seeds or more");
        };
        let (lo, hi) = (s.mean - half, s.mean + half);
        if !(lo.is_finite() && hi.is_finite()) {
            return Claim::not_comparable(claim, seed.into(), spread(&s, unit), "our runs give no finite interval (a run without a finite figure)");
        }
        let (verdict, test) = interval_keeps((lo, hi), bound, "of our mean", unit);
        Claim::new(claim, seed.into(), format!("{} (95 % interval {} to {})", spread(&s, unit), num(lo), with_unit(hi, unit)), test, verdict).settle_note(values, (lo, hi), bound, unit)
    }

    /// A model's prediction given as a band `lo..=hi` (the range of its constant that its
    /// source states, `basis`) against our runs over seeds: holds when the 95 % confidence
    /// interval of our mean ([`crate::stats::confidence_half_width`]) lies inside the band, does
    /// not hold when it misses the band, and is not settled when it reaches across an edge
    /// (the runs neither confirm the model nor reject it). With one run, its value must lie in
    /// the band.
    pub fn band(claim: &str, ours: &[f64], (lo, hi): (f64, f64), unit: &str, basis: &str) -> Claim {
        Claim::within(claim, format!("model: {} to {}", num(lo), with_unit(hi, unit)), ours, (lo, hi), unit, basis)
    }

    /// A seed's figure known only as a band `lo..=hi` (what a reading could have been, `basis`
    /// says why: the precision it was printed to, what it counted), judged as [`Claim::band`]:
    /// holds when the 95 % confidence interval of our mean lies inside the band.
    pub fn within(claim: &str, seed: String, ours: &[f64], (lo, hi): (f64, f64), unit: &str, basis: &str) -> Claim {
        let Some(o) = Summary::of(ours) else {
            return Claim::not_comparable(claim, seed, "no runs".into(), "we have no runs of this");
        };
        let Some(half) = confidence_half_width(&o, ALPHA) else {
            let inside = (lo..=hi).contains(&o.mean);
            let test = format!("our one run {} the band ({basis})", if inside { "inside" } else { "outside" });
            return Claim::new(claim, seed, spread(&o, unit), test, if inside { Verdict::Holds } else { Verdict::DoesNotHold });
        };
        let (a, b) = (o.mean - half, o.mean + half);
        if !(a.is_finite() && b.is_finite()) {
            return Claim::not_comparable(claim, seed, spread(&o, unit), "our runs give no finite interval");
        }
        let (verdict, word) = if lo <= a && b <= hi {
            (Verdict::Holds, "inside")
        } else if b < lo || a > hi {
            (Verdict::DoesNotHold, "misses")
        } else {
            (Verdict::NotSettled, "reaches across an edge of")
        };
        let test = format!("the 95 % confidence interval of our mean, {} to {}, {word} the band ({basis})", num(a), num(b));
        // The edge the interval reaches across nearest our mean: the one more seeds would settle.
        let edge = if o.mean < lo || (o.mean <= hi && o.mean - lo < hi - o.mean) { Bound::AtLeast(lo) } else { Bound::AtMost(hi) };
        Claim::new(claim, seed, spread(&o, unit), test, verdict).settle_note(ours, (a, b), edge, unit)
    }

    /// A figure our model was fitted to: never counted as holding. `what` names the fitted
    /// parameter and the data it was fitted on.
    pub fn fitted(claim: &str, seed: String, ours: String, what: &str) -> Claim {
        let mut c = Claim::new(claim, seed, ours, "none: the model was fitted to it".into(), Verdict::Fitted);
        c.why = what.to_string();
        c
    }

    /// Two figures that do not measure the same thing; `reason` says how they differ.
    pub fn not_comparable(claim: &str, seed: String, ours: String, reason: &str) -> Claim {
        let mut c = Claim::new(claim, seed, ours, "none".into(), Verdict::NotComparable);
        c.why = reason.to_string();
        c
    }

    /// Several of the seed's claims at once, under one setting: holds when every part does,
    /// does not hold when any part does not, is not comparable when a part is not (and none is
    /// broken), is not settled when a part is not settled and every other holds or is fitted,
    /// and is fitted when a part is fitted and none is
    /// broken or not comparable, and is not comparable otherwise. `parts` are the parts'
    /// claims, each named by a short label; `ours` lists each part's verdict and figure; the
    /// why of a fitted or not comparable whole gives the parts' own.
    pub fn all_of(claim: &str, seed: &str, parts: &[(String, Claim)]) -> Claim {
        if parts.is_empty() {
            return Claim::not_comparable(claim, seed.into(), "no parts".into(), "none of the parts could be run");
        }
        let held = parts.iter().filter(|(_, c)| matches!(c.verdict, Verdict::Holds | Verdict::Conforms)).count();
        let ours = parts.iter().map(|(label, c)| format!("{label}: {} ({})", c.verdict.label(), c.ours)).collect::<Vec<_>>().join("; ");
        // Parts that are all checks of our code make a check of our code.
        let verdict = if held == parts.len() {
            if parts.iter().any(|(_, c)| c.holds()) { Verdict::Holds } else { Verdict::Conforms }
        } else if parts.iter().any(|(_, c)| c.verdict == Verdict::DoesNotHold) {
            Verdict::DoesNotHold
        } else if parts.iter().any(|(_, c)| c.verdict == Verdict::NotComparable) {
            Verdict::NotComparable
        } else if parts.iter().any(|(_, c)| c.verdict == Verdict::NotSettled) {
            Verdict::NotSettled
        } else {
            Verdict::Fitted
        };
        let mut c = Claim::new(claim, seed.into(), ours, format!("every part holds: {held} of {} parts hold", parts.len()), verdict);
        if matches!(verdict, Verdict::NotSettled | Verdict::Fitted | Verdict::NotComparable | Verdict::Conforms) {
            c.why = parts
                .iter()
                .filter(|(_, p)| p.verdict == verdict)
                .map(|(label, p)| format!("{label}: {} ({})", p.verdict.label(), p.why))
                .collect::<Vec<_>>()
                .join("; ");
        }
        c
    }

    /// The seed's claim under a setting of ours chosen from several (a parameter swept):
    /// `options` are the claim judged under each setting, named. A setting picked for giving
    /// the seed's result is fitted to it, so this is *fitted* where some setting's claim holds
    /// (naming which), *does not hold* where every one does not, *not settled* where none holds,
    /// none is not comparable and one is not settled, and not comparable otherwise.
    pub fn any_setting(claim: &str, seed: &str, options: &[(String, Claim)]) -> Claim {
        let ours = options.iter().map(|(name, c)| format!("{name}: {}", c.verdict.label())).collect::<Vec<_>>().join("; ");
        let giving: Vec<&str> = options.iter().filter(|(_, c)| c.holds()).map(|(name, _)| name.as_str()).collect();
        if !giving.is_empty() {
            let what = format!("holds with {}, a setting picked from {} for giving it, so fitted to the result it would reproduce", giving.join(" or "), options.len());
            return Claim::fitted(claim, seed.into(), ours, &what);
        }
        let judged = |c: &Claim| matches!(c.verdict, Verdict::DoesNotHold | Verdict::NotSettled);
        let verdict = if options.is_empty() || !options.iter().all(|(_, c)| judged(c)) {
            Verdict::NotComparable
        } else if options.iter().any(|(_, c)| c.verdict == Verdict::NotSettled) {
            Verdict::NotSettled
        } else {
            Verdict::DoesNotHold
        };
        let mut c = Claim::new(claim, seed.into(), ours, format!("some setting of {} gives it", options.len()), verdict);
        if verdict == Verdict::NotSettled {
            c.why = options.iter().filter(|(_, o)| o.verdict == verdict).map(|(name, o)| format!("{name}: {}", o.why)).collect::<Vec<_>>().join("; ");
        }
        c
    }

    /// The cause we found for a difference (or, for a claim that holds, what it rests on). A
    /// claim not settled keeps its note on what would settle it, and the cause follows.
    pub fn because(mut self, why: &str) -> Claim {
        self.why = match (self.verdict, self.why.is_empty(), why.is_empty()) {
            (Verdict::NotSettled, false, true) => return self,
            (Verdict::NotSettled, false, false) => format!("{} {why}", self.why),
            _ => why.to_string(),
        };
        self
    }

    /// For a claim not settled, `why` says so: the interval `(lo, hi)` of the mean of `runs`
    /// reaches across the bound, and [`runs_to_settle`] estimates how many runs would settle
    /// it, and which way, if their mean and spread stayed as they are.
    fn settle_note(mut self, runs: &[f64], (lo, hi): (f64, f64), bound: Bound, unit: &str) -> Claim {
        let (Verdict::NotSettled, Some(s)) = (self.verdict, Summary::of(runs)) else { return self };
        let (x, kept) = match bound {
            Bound::AtLeast(x) => (x, s.mean >= x),
            Bound::AtMost(x) => (x, s.mean <= x),
        };
        let way = if kept { "keep" } else { "break" };
        let estimate = match runs_to_settle(&s, s.mean - x, ALPHA, MAX_RUNS_TO_SETTLE) {
            Some(n) => format!("if our mean and spread stayed as they are, about {n} seeds would narrow the interval enough to {way} it (a planning figure: more seeds move the mean too)"),
            None => format!("our mean lies so near it that even {MAX_RUNS_TO_SETTLE} seeds at this spread would not settle it"),
        };
        self.why = format!(
            "The 95 % interval, {} to {}, reaches across {}, so these {} seeds can neither keep the bound nor break it; {estimate}.",
            num(lo),
            num(hi),
            with_unit(x, unit),
            s.n
        );
        self
    }

    /// The cause, where the claim does not hold (a claim that holds keeps no "why").
    pub fn because_unless_held(self, why: &str) -> Claim {
        if self.holds() {
            self
        } else {
            self.because(why)
        }
    }

    pub fn holds(&self) -> bool {
        self.verdict == Verdict::Holds
    }
}

/// Whether an interval `(lo, hi)` keeps `bound` as a whole, and the test's description.
/// Kept when the whole interval is on the bound's side, broken when the whole interval is
/// beyond it, and not settled when it reaches across.
fn interval_keeps((lo, hi): (f64, f64), bound: Bound, of: &str, unit: &str) -> (Verdict, String) {
    let (keeps, breaks, test) = match bound {
        Bound::AtLeast(x) => (lo >= x, hi < x, format!("the 95 % confidence interval {of} at or above {}", with_unit(x, unit))),
        Bound::AtMost(x) => (hi <= x, lo > x, format!("the 95 % confidence interval {of} at or below {}", with_unit(x, unit))),
    };
    let verdict = match (keeps, breaks) {
        (true, _) => Verdict::Holds,
        (_, true) => Verdict::DoesNotHold,
        _ => Verdict::NotSettled,
    };
    (verdict, test)
}

/// The 95 % prediction interval for one more run: `x̄ ± t(0.975, n − 1)·s·√(1 + 1/n)`
/// ([`Claim::one_run`]'s interval before the seed's rounding, and the whisker its figures
/// draw). `None` with fewer than two runs.
pub fn prediction_interval(xs: &[f64]) -> Option<(f64, f64)> {
    let s = Summary::of(xs)?;
    let h = prediction_half_width(&s, ALPHA)?;
    Some((s.mean - h, s.mean + h))
}

/// The 95 % prediction interval for one more run of a positive figure, on a log scale:
/// `exp(m ± t(0.975, n − 1)·s·√(1 + 1/n))`, `m` and `s` the mean and standard deviation of
/// `ln x` ([`Claim::one_run_positive`]'s interval before the seed's rounding, and the whisker
/// its figures draw). `None` with fewer than two runs or a value at or below zero.
pub fn log_prediction_interval(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.iter().any(|&x| x <= 0.0 || !x.is_finite()) {
        return None;
    }
    let logs: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
    let l = Summary::of(&logs)?;
    let h = prediction_half_width(&l, ALPHA)?;
    Some(((l.mean - h).exp(), (l.mean + h).exp()))
}

/// A figure's whisker for a claim judged by [`Claim::one_run`]: our mean with the interval
/// the seed's one run is tested against ([`prediction_interval`]), min–max with one run.
/// `None` without runs.
pub fn one_run_whisker(xs: &[f64]) -> Option<(f64, (f64, f64))> {
    let s = Summary::of(xs)?;
    Some((s.mean, prediction_interval(xs).unwrap_or((s.min, s.max))))
}

/// [`one_run_whisker`] for a positive figure judged by [`Claim::one_run_positive`] (a ratio,
/// a speed-up), whose runs spread by factors: the interval on a log scale
/// ([`log_prediction_interval`]), min–max with one run.
pub fn one_run_positive_whisker(xs: &[f64]) -> Option<(f64, (f64, f64))> {
    let s = Summary::of(xs)?;
    Some((s.mean, log_prediction_interval(xs).unwrap_or((s.min, s.max))))
}

/// The 95 % confidence interval of the mean of `with[i] − without[i]` (runs paired by seed):
/// `d̄ ± t(0.975, n − 1)·s_d/√n`, centred on the mean difference. `None` with fewer than two
/// pairs or unequal lengths.
pub fn difference_interval(with: &[f64], without: &[f64]) -> Option<(f64, f64)> {
    if with.len() != without.len() {
        return None;
    }
    let d: Vec<f64> = with.iter().zip(without).map(|(a, b)| a - b).collect();
    let s = Summary::of(&d)?;
    let half = confidence_half_width(&s, ALPHA)?;
    Some((s.mean - half, s.mean + half))
}

/// A p-value to two significant digits (0.38, 0.012), or "< 0.0001".
pub fn p_value(p: f64) -> String {
    if p < 1e-4 {
        return "< 0.0001".into();
    }
    let decimals = (1 - p.log10().floor() as i32).max(2) as usize;
    let s = format!("{p:.decimals$}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// "p = 0.38", or "p < 0.0001" below the smallest p-value we print.
pub fn p_equals(p: f64) -> String {
    let v = p_value(p);
    if v.starts_with('<') {
        format!("p {v}")
    } else {
        format!("p = {v}")
    }
}

/// Welch's test of runs `a` against `b` at [`ALPHA`] as a test cell gives it: "p = 0.38, ≥ α =
/// 0.05", or, where neither side varies at all, that the test is undefined and the means are
/// simply equal or apart ([`crate::stats::welch_p`] then takes p as 1 or 0).
pub fn welch_result(a: &Summary, b: &Summary, p: f64) -> String {
    if a.sd == 0.0 && b.sd == 0.0 {
        let how = if a.mean == b.mean { "exactly equal" } else { "apart" };
        format!("no spread on either side, so no p-value: the means are {how}")
    } else {
        format!("{}, {} α = {ALPHA}", p_equals(p), if p >= ALPHA { "≥" } else { "<" })
    }
}

/// How many claims hold, of how many that can hold (fitted and not comparable ones, and checks
/// of our code that passed, excluded; those not settled are judged, and do not hold).
pub fn tally(claims: &[Claim]) -> (usize, usize) {
    let judged = claims.iter().filter(|c| matches!(c.verdict, Verdict::Holds | Verdict::DoesNotHold | Verdict::NotSettled)).count();
    (claims.iter().filter(|c| c.holds()).count(), judged)
}

/// The claims as a table, for the terminal, `verdicts.csv` and `results.md`.
pub fn claims_table(claims: &[Claim]) -> Table {
    let mut t = Table::new("verdicts", &["claim", "seed", "ours", "test", "verdict", "why"]);
    for c in claims {
        t.row(vec![c.claim.clone(), c.seed.clone(), c.ours.clone(), c.test.clone(), c.verdict.label().into(), c.why.clone()]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A conjunction holds only when every part does; ours names each part's verdict.
    #[test]
    fn all_of_holds_only_when_every_part_holds() {
        let kept = Claim::bound("a", "≥ 1", &[2.0], Bound::AtLeast(1.0), "");
        let broken = Claim::bound("b", "≥ 1", &[0.5], Bound::AtLeast(1.0), "");
        let both = Claim::all_of("x", "a and b", &[("a".into(), kept.clone()), ("b".into(), broken)]);
        assert_eq!(both.verdict, Verdict::DoesNotHold);
        assert!(both.ours.starts_with("a: holds (2; kept); b: does not hold (0.5; not kept)"), "{}", both.ours);
        assert_eq!(both.test, "every part holds: 1 of 2 parts hold");
        assert!(Claim::all_of("x", "a twice", &[("a".into(), kept.clone()), ("a".into(), kept.clone())]).holds());
        let unknown = Claim::not_comparable("c", "s".into(), "o".into(), "r");
        assert_eq!(Claim::all_of("x", "a and c", &[("a".into(), kept.clone()), ("c".into(), unknown)]).verdict, Verdict::NotComparable);
        assert_eq!(Claim::all_of("x", "nothing", &[]).verdict, Verdict::NotComparable);
        let fitted = Claim::fitted("f", "s".into(), "o".into(), "chosen on seeds 1-8");
        let with_fit = Claim::all_of("x", "a and f", &[("a".into(), kept.clone()), ("f".into(), fitted)]);
        assert_eq!(with_fit.verdict, Verdict::Fitted);
        assert_eq!(with_fit.why, "f: fitted (chosen on seeds 1-8)");
        let unknown = Claim::not_comparable("c", "s".into(), "o".into(), "r");
        assert_eq!(Claim::all_of("x", "a and c", &[("a".into(), kept.clone()), ("c".into(), unknown)]).why, "c: not comparable (r)");
        // Differences 10, 12, 11 against a bound of 10: their interval reaches across it.
        let open = Claim::difference("u", "s", ("a", &[10.0, 13.0, 13.0]), ("h", &[0.0, 1.0, 2.0]), Bound::AtLeast(10.0), "");
        assert_eq!(open.verdict, Verdict::NotSettled);
        let with_open = Claim::all_of("x", "a and u", &[("a".into(), kept), ("u".into(), open.clone())]);
        assert_eq!(with_open.verdict, Verdict::NotSettled);
        assert!(with_open.why.starts_with("u: not settled (The 95 % interval"), "{}", with_open.why);
        let broken = Claim::bound("b", "≥ 1", &[0.5], Bound::AtLeast(1.0), "");
        assert_eq!(Claim::all_of("x", "b and u", &[("b".into(), broken.clone()), ("u".into(), open.clone())]).verdict, Verdict::DoesNotHold);
        let either = Claim::any_setting("x", "s", &[("b".into(), broken), ("u".into(), open)]);
        assert_eq!(either.verdict, Verdict::NotSettled);
        assert!(either.why.starts_with("u: The 95 % interval"), "{}", either.why);
    }

    /// A claim under one setting chosen from a sweep: a setting giving it is fitted, never
    /// holds; none giving it does not hold; an unjudgeable setting among failures leaves it
    /// not comparable.
    #[test]
    fn any_setting_is_fitted_when_one_gives_it() {
        let kept = Claim::bound("a", "≥ 1", &[2.0], Bound::AtLeast(1.0), "");
        let broken = Claim::bound("b", "≥ 1", &[0.5], Bound::AtLeast(1.0), "");
        let one = Claim::any_setting("x", "s", &[("10 ms".into(), broken.clone()), ("50 ms".into(), kept)]);
        assert_eq!(one.verdict, Verdict::Fitted);
        assert!(one.why.contains("holds with 50 ms, a setting picked from 2"), "{}", one.why);
        assert_eq!(one.ours, "10 ms: does not hold; 50 ms: holds");
        let none = Claim::any_setting("x", "s", &[("10 ms".into(), broken.clone()), ("50 ms".into(), broken.clone())]);
        assert_eq!(none.verdict, Verdict::DoesNotHold);
        let unknown = Claim::not_comparable("c", "s".into(), "o".into(), "r");
        assert_eq!(Claim::any_setting("x", "s", &[("a".into(), broken), ("c".into(), unknown)]).verdict, Verdict::NotComparable);
        assert_eq!(Claim::any_setting("x", "s", &[]).verdict, Verdict::NotComparable);
    }

    /// Welch's test on 1, 2, 3 against 4, 5, 6: means 2 and 5, both sd 1, se² = 2/3, t = 3.674
    /// on 4 degrees of freedom, p = 0.021: "they differ" holds and "they do not" does not.
    #[test]
    fn significance_statements_are_judged_by_welch() {
        let (a, b) = ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]);
        let c = Claim::significance("x", "differ", ("a", &a), ("b", &b), true, "");
        assert_eq!(c.verdict, Verdict::Holds, "{}", c.test);
        assert!(c.test.contains("p = 0.021"), "{}", c.test);
        assert_eq!(Claim::significance("x", "alike", ("a", &a), ("b", &b), false, "").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::significance("x", "alike", ("a", &a), ("b", &[1.5, 2.5, 2.0]), false, "").verdict, Verdict::Holds);
    }

    /// On a log scale: runs 1, 2, 4 (logarithms 0, ln 2, 2 ln 2; mean ln 2, sd ln 2) give
    /// exp(ln 2 ± t(0.975, 2)·ln 2·√(4/3)) = 2·2^(±4.303·1.1547) = 2^(1 ± 4.968): 0.0639 to 62.6,
    /// far wider than a factor of ten, so not comparable; runs 9, 10, 11 give a narrow interval
    /// that holds 10 and not 20, and never reaches below zero where the linear one would.
    #[test]
    fn positive_figures_are_tested_on_a_log_scale_and_a_too_wide_interval_says_so() {
        let c = Claim::one_run_positive("x", &[1.0, 2.0, 4.0], 3.0, 0.0, "s");
        assert_eq!(c.verdict, Verdict::NotComparable, "{}", c.test);
        assert!(c.test.contains("0.06389 to 62.61"), "{}", c.test);
        let narrow = [9.0, 10.0, 11.0];
        assert_eq!(Claim::one_run_positive("x", &narrow, 10.0, 0.0, "s").verdict, Verdict::Holds);
        assert_eq!(Claim::one_run_positive("x", &narrow, 20.0, 0.0, "s").verdict, Verdict::DoesNotHold);
        let linear = Claim::one_run("x", &[1.0, 2.0, 4.0], 3.0, 0.0, "s");
        assert!(linear.test.contains(": -"), "the linear interval reaches below zero: {}", linear.test);
    }

    /// A conformance check is exact and, where it holds, says in its note what it is; where it
    /// fails it carries no such note (its why is for the cause).
    #[test]
    fn a_conformance_check_is_exact_and_says_what_it_is() {
        let c = Claim::conformance("rto", 1000.0, 1000.0, "ms", "RFC 6298 §2.1");
        assert_eq!(c.verdict, Verdict::Conforms);
        assert!(c.test.contains("exact: RFC 6298 §2.1") && c.why.starts_with("a check of our code"), "{c:?}");
        let off = Claim::conformance("rto", 1001.0, 1000.0, "ms", "RFC 6298 §2.1");
        assert_eq!(off.verdict, Verdict::DoesNotHold);
        assert!(off.why.contains("a slip in our code"), "{off:?}");
    }

    /// Equivalence by two one-sided tests: 1, 2, 3 against a reference of mean 2, sd 1 over 3
    /// runs. The difference is 0 with se² = 1/3 + 1/3 and 4 degrees of freedom, so the 90 %
    /// interval is ±t(0.95, 4)·√(2/3) = ±2.132·0.8165 = ±1.741: inside a margin of 2, not inside
    /// one of 1.5, where Welch's test finds no difference (p = 1) yet sameness is not shown.
    #[test]
    fn sameness_needs_the_ninety_percent_interval_inside_the_margin() {
        let (ours, reference) = ([1.0, 2.0, 3.0], Summary::given(2.0, 1.0, 3));
        let c = Claim::equivalent("x", &ours, reference, 2.0, "m", "");
        assert_eq!(c.verdict, Verdict::Holds, "{}", c.test);
        assert!(c.test.contains("-1.741 to 1.741"), "{}", c.test);
        assert_eq!(Claim::equivalent("x", &ours, reference, 1.5, "m", "").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::distribution("x", &ours, reference, "").verdict, Verdict::Holds);
        assert_eq!(Claim::equivalent("x", &[2.0], reference, 2.0, "m", "").verdict, Verdict::NotComparable);
    }

    /// Ours 2.5, 2.6, 2.7 against a reference of mean 0.5, sd 1 over 3 runs: the difference is
    /// 2.1 with se = √(0.01/3 + 1/3) = 0.580 on 2.04 degrees of freedom, so the 90 % interval is
    /// about 2.1 ± 2.9·0.58 = 0.42 to 3.78: inside a margin of 4 and wholly above zero, which the
    /// test names (sameness within a margin is not no difference). Around zero it names nothing.
    #[test]
    fn sameness_on_one_side_of_zero_is_named() {
        let c = Claim::equivalent("x", &[2.5, 2.6, 2.7], Summary::given(0.5, 1.0, 3), 4.0, "m", "");
        assert_eq!(c.verdict, Verdict::Holds, "{}", c.test);
        assert!(c.test.ends_with("; the interval is above zero: ours is higher, by less than the margin"), "{}", c.test);
        let c = Claim::equivalent("x", &[1.0, 2.0, 3.0], Summary::given(2.0, 1.0, 3), 2.0, "m", "");
        assert!(c.test.ends_with("(m)"), "{}", c.test);
    }

    /// Five runs on each side: F(4, 4) has the closed form P(F' ≤ f) = 3x² − 2x³ with
    /// x = f/(1 + f) (the regularised incomplete beta I_x(2, 2)). At F = 9, x = 0.9 and the
    /// upper tail is 1 − 0.972 = 0.028, p = 0.056: kept. At F = 10, x = 10/11 and the tail is
    /// 0.0233, p = 0.047: rejected. The same ratios the other way round are judged alike, and a
    /// run set with no spread never matches one with some.
    #[test]
    fn variances_are_judged_by_the_two_sided_f_test() {
        let seed = Summary::given(100.0, 1.0, 5);
        // Five runs around 100 with standard deviation `target`.
        let scale = |target: f64| {
            let base = [-2.0, -1.0, 0.0, 1.0, 2.0];
            let k = target / Summary::of(&base).unwrap().sd;
            base.iter().map(|x| 100.0 + x * k).collect::<Vec<_>>()
        };
        let p = |ratio: f64| f_test_p(&Summary::of(&scale(ratio.sqrt())).unwrap(), &seed).unwrap();
        assert!((p(9.0) - 0.056).abs() < 0.001, "{}", p(9.0));
        assert!((p(10.0) - 0.0466).abs() < 0.001, "{}", p(10.0));
        assert!((p(1.0 / 9.0) - 0.056).abs() < 0.001, "{}", p(1.0 / 9.0));
        // Not rejected, and not shown alike either: five runs of the seed's leave its σ
        // uncertain by √(χ²(0.975; 4)/χ²(0.025; 4)) = √(11.14/0.484) = 4.796 from end to end,
        // more than the 2² the margin spans, whatever runs of ours.
        let c = Claim::variance("x", &scale(3.0), seed, "");
        assert_eq!(c.verdict, Verdict::NotSettled, "{}", c.test);
        assert!(c.why.contains("4.796") && c.test.contains("not within 1/2 to 2"), "{} / {}", c.test, c.why);
        // With 200 runs a side, equal spreads give a 95 % interval of the ratio of about
        // 0.87 to 1.15 (F(0.975; 199, 199) ≈ 1.32): inside a factor of two, shown alike.
        let many: Vec<f64> = (0..200).map(|i| 100.0 + if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        assert_eq!(Claim::variance("x", &many, Summary::given(100.0, 1.0, 200), "").verdict, Verdict::Holds);
        let c = Claim::variance("x", &scale(10f64.sqrt()), seed, "Mbit/s");
        assert_eq!(c.verdict, Verdict::DoesNotHold, "{}", c.test);
        assert!(c.test.contains("F = 10") && c.seed == "sd 1 Mbit/s (n = 5)", "{} / {}", c.test, c.seed);
        assert_eq!(Claim::variance("x", &[5.0, 5.0, 5.0], seed, "").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::variance("x", &[5.0], seed, "").verdict, Verdict::NotComparable);
    }

    /// The seed's five runs, mean 100 and sd 1: the spread of one more of its runs is
    /// t(0.975, 4)·1·√(1 + 1/5) = 3.04. Ours 99.5, 100, 100.5 (sd 0.5): Welch's interval of the
    /// difference, ±1.3 (5.96 degrees of freedom), lies within it: holds. Ours 90, 100, 110: no
    /// difference found, but the interval (about ±25) reaches beyond it: not settled. Ours at
    /// 110 with the same spread: rejected.
    #[test]
    fn a_mean_matches_the_seeds_within_the_spread_of_its_own_runs() {
        let seed = Summary::given(100.0, 1.0, 5);
        let c = Claim::matches("x", &[99.5, 100.0, 100.5], seed, "");
        assert_eq!(c.verdict, Verdict::Holds, "{}", c.test);
        assert!(c.test.contains("within ±3.041"), "{}", c.test);
        let c = Claim::matches("x", &[90.0, 100.0, 110.0], seed, "");
        assert_eq!(c.verdict, Verdict::NotSettled, "{}", c.test);
        assert_eq!(Claim::matches("x", &[109.5, 110.0, 110.5], seed, "").verdict, Verdict::DoesNotHold);
        // Five runs of mean 10 and sd 4.5 (the seed's trial-6 mVegas): one more run's spread,
        // 2.776·4.5·√1.2 = 13.7, reaches past zero, so even ours at the seed's own mean with no
        // spread is not settled: the seed's runs would take 0.3 as readily.
        let wide = Summary::given(10.0, 4.5, 5);
        let c = Claim::matches("x", &[9.9, 10.0, 10.1], wide, "");
        assert_eq!(c.verdict, Verdict::NotSettled, "{}", c.test);
        assert!(c.why.contains("do not pin"), "{}", c.why);
    }

    /// Unpaired runs: 10, 11, 12 against 1, 2, 3 lie apart by 9 ± 2.27 (Welch, 4 degrees of
    /// freedom): holds, and the reverse does not; against 9, 11, 13 the interval reaches across.
    #[test]
    fn means_apart_by_the_welch_interval() {
        let (hi, lo, wide) = ([10.0, 11.0, 12.0], [1.0, 2.0, 3.0], [9.0, 11.0, 13.0]);
        assert_eq!(Claim::means_apart("x", "", ("a", &hi), ("b", &lo), "").verdict, Verdict::Holds);
        assert_eq!(Claim::means_apart("x", "", ("b", &lo), ("a", &hi), "").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::means_apart("x", "", ("a", &hi), ("c", &wide), "").verdict, Verdict::NotSettled);
        assert_eq!(Claim::means_apart("x", "", ("a", &[1.0]), ("b", &lo), "").verdict, Verdict::NotComparable);
    }

    /// Six of six on one side: p = 2/64 = 0.03125, a bias; five of six: p = 2·7/64 = 0.22.
    #[test]
    fn a_sign_test_finds_a_bias_and_never_its_absence() {
        let c = Claim::no_bias("x", "", &[0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
        assert_eq!(c.verdict, Verdict::DoesNotHold, "{}", c.test);
        assert!(c.test.contains("p = 0.031"), "{}", c.test);
        let c = Claim::no_bias("x", "", &[0.4, 0.5, 0.6, 0.7, 0.8, 1.1]);
        assert_eq!(c.verdict, Verdict::NotSettled, "{}", c.test);
        assert!(c.test.contains("p = 0.22"), "{}", c.test);
    }

    /// A check of our code that passes conforms and is not counted; one that fails does not
    /// hold; a conjunction of checks is a check, one with a behaviour in it holds.
    #[test]
    fn checks_of_our_code_conform_and_are_not_counted() {
        let kept = || Claim::bound("a", "≥ 1", &[2.0], Bound::AtLeast(1.0), "");
        let broken = Claim::bound("b", "≥ 1", &[0.5], Bound::AtLeast(1.0), "").check("the rule");
        let check = kept().check("the rule");
        assert_eq!((check.verdict, broken.verdict), (Verdict::Conforms, Verdict::DoesNotHold));
        assert!(check.why.starts_with("a check of our code, not a measure of behaviour: the rule"), "{}", check.why);
        assert_eq!(tally(&[check.clone(), kept(), broken]), (1, 2));
        assert_eq!(Claim::all_of("x", "", &[("a".into(), check.clone()), ("b".into(), check.clone())]).verdict, Verdict::Conforms);
        assert_eq!(Claim::all_of("x", "", &[("a".into(), check), ("b".into(), kept())]).verdict, Verdict::Holds);
        // A cause found before the check follows its note.
        let caused = Claim::bound("c", "≥ 1", &[0.5], Bound::AtLeast(1.0), "").because("the cause").check("the rule.");
        assert_eq!(caused.why, "a check of our code, not a measure of behaviour: the rule. The cause");
    }

    /// Three runs 1.10, 1.12, 1.14: mean 1.12, sd 0.02, half-width t(0.975, 2)·0.02/√3 =
    /// 4.303·0.011547 = 0.0497, so 1.0703 to 1.1697: it misses a band ending at 1.0696, reaches
    /// across the upper edge of one ending at 1.071 (not settled), and lies inside one from
    /// 1.07 to 1.17.
    #[test]
    fn bands_are_judged_by_the_confidence_interval_of_our_mean() {
        let runs = [1.10, 1.12, 1.14];
        let c = Claim::band("x", &runs, (0.9961, 1.0696), "", "C from 1.22 to 1.31");
        assert_eq!(c.verdict, Verdict::DoesNotHold, "{}", c.test);
        assert!(c.test.contains("1.07") && c.test.contains("misses") && c.seed == "model: 0.9961 to 1.07", "{} / {}", c.test, c.seed);
        let c = Claim::band("x", &runs, (0.9961, 1.071), "", "b");
        assert_eq!(c.verdict, Verdict::NotSettled, "{}", c.test);
        assert!(c.test.contains("reaches across an edge") && c.why.contains("reaches across 1.071") && c.why.contains("break"), "{} / {}", c.test, c.why);
        assert_eq!(Claim::band("x", &runs, (1.07, 1.17), "", "b").verdict, Verdict::Holds);
        // A band inside the interval: the edge nearer our mean is the one to settle.
        let c = Claim::band("x", &runs, (1.11, 1.16), "", "b");
        assert_eq!(c.verdict, Verdict::NotSettled);
        assert!(c.why.contains("reaches across 1.11") && c.why.contains("keep"), "{}", c.why);
        // Below the band too, and one run must lie inside it.
        assert_eq!(Claim::band("x", &[0.90, 0.91, 0.92], (0.9961, 1.0696), "", "b").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::band("x", &[1.0], (0.9961, 1.0696), "", "b").verdict, Verdict::Holds);
        assert_eq!(Claim::band("x", &[1.08], (0.9961, 1.0696), "", "b").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::band("x", &[], (0.9961, 1.0696), "", "b").verdict, Verdict::NotComparable);
    }

    #[test]
    fn values_within_a_stated_tolerance() {
        let c = Claim::value("x", 10.5, 10.0, "Mbit/s", 0.1, "model");
        assert_eq!(c.verdict, Verdict::Holds);
        assert_eq!((c.seed.as_str(), c.ours.as_str()), ("10 Mbit/s", "10.5 Mbit/s"));
        assert!(c.test.contains("±10 %") && c.test.contains("+5.0 %"), "{}", c.test);
        assert_eq!(Claim::value("x", 11.5, 10.0, "", 0.1, "model").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::value("x", f64::NAN, 10.0, "", 0.1, "model").verdict, Verdict::DoesNotHold);
    }

    /// The issue's rule: a zero never agrees with a non-zero, whatever the tolerance.
    #[test]
    fn a_zero_is_met_only_by_a_zero() {
        assert_eq!(Claim::value("x", 0.3, 0.0, "", 1.0, "any").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::value("x", 0.0, 0.0, "", 0.0, "any").verdict, Verdict::Holds);
        assert_eq!(Claim::value("x", 0.0, 5.0, "", 1.0, "any").verdict, Verdict::Holds, "a 100 % tolerance admits 0 against 5: stated, not hidden");
    }

    #[test]
    fn distributions_by_welch() {
        // The seed's trial 1: mVegas 94.5 ± 1.2 over five runs; ours five identical 289.6.
        let c = Claim::distribution("mVegas", &[289.6; 5], Summary::given(94.5, 1.2, 5), "Mbit/s");
        assert_eq!(c.verdict, Verdict::DoesNotHold);
        assert!(c.test.contains("< 0.0001"), "{}", c.test);
        assert_eq!(c.ours, "289.6 Mbit/s ± 0 (n = 5)");
        let c = Claim::distribution("Reno", &[289.0, 291.0, 290.0, 288.5, 291.5], Summary::given(290.0, 1.5, 5), "Mbit/s");
        assert_eq!(c.verdict, Verdict::Holds, "{}", c.test);
        assert_eq!(Claim::distribution("one", &[1.0], Summary::given(1.0, 0.1, 5), "").verdict, Verdict::NotComparable);
    }

    #[test]
    fn one_run_against_our_prediction_interval() {
        // Ours 1..8: mean 4.5, sd 2.449; t(0.975, 7) = 2.365 gives 4.5 ± 6.14.
        let ours = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
        assert_eq!(Claim::one_run("x", &ours, 10.5, 0.0, "s").verdict, Verdict::Holds);
        let c = Claim::one_run("x", &ours, 10.7, 0.0, "s");
        assert_eq!(c.verdict, Verdict::DoesNotHold, "{}", c.test);
        assert_eq!(Claim::one_run("x", &[3.0], 3.0, 0.0, "s").verdict, Verdict::NotComparable);
        // The same interval, −1.64 to 10.64, admits both 2.5 and 10, half and twice a seed
        // figure of 5: it cannot tell a factor of two, so 5 inside it settles nothing.
        let c = Claim::one_run("x", &ours, 5.0, 0.0, "s");
        assert_eq!(c.verdict, Verdict::NotSettled, "{}", c.test);
        assert!(c.why.contains("cannot tell a factor of two"), "{}", c.why);
        // On a log scale, t(0.975, 2)·√(4/3) = 4.969 times the sd of the logarithms either
        // way about their mean (ln 30 for each set below): 20, 30, 45 (sd 0.405) give 4.0 to
        // 225 s, wider than a factor of ten, so not comparable; 25, 30, 36 (sd 0.182) give
        // 12.1 to 74.2 s, which admits 16 and 64 around a seed figure of 32: not settled;
        // 28, 30, 32 (sd 0.067) give 21.5 to 41.7 s: it holds.
        assert_eq!(Claim::one_run_positive("x", &[20.0, 30.0, 45.0], 32.0, 0.0, "s").verdict, Verdict::NotComparable);
        assert_eq!(Claim::one_run_positive("x", &[25.0, 30.0, 36.0], 32.0, 0.0, "s").verdict, Verdict::NotSettled);
        assert_eq!(Claim::one_run_positive("x", &[28.0, 30.0, 32.0], 32.0, 0.0, "s").verdict, Verdict::Holds);
    }

    #[test]
    fn directions_hold_only_on_every_seed() {
        let c = Claim::direction("Vegas above mVegas", "Vegas 8.45 > mVegas 7.37", ("Vegas", &[9.0, 8.0, 8.5]), ("mVegas", &[7.0, 7.5, 8.0]), "Mbit/s");
        assert_eq!(c.verdict, Verdict::Holds);
        assert!(c.ours.starts_with("Vegas above mVegas on 3 of 3 seeds"), "{}", c.ours);
        let c = Claim::direction("d", "s", ("A", &[9.0, 7.0]), ("B", &[8.0, 8.0]), "");
        assert_eq!(c.verdict, Verdict::DoesNotHold);
        assert!(c.ours.contains("on 1 of 2 seeds"), "{}", c.ours);
        assert_eq!(Claim::direction("d", "s", ("A", &[1.0]), ("B", &[0.0, 1.0]), "").verdict, Verdict::NotComparable);
    }

    #[test]
    fn bounds_hold_only_on_every_seed() {
        let c = Claim::bound("gain", "≤ 10 %", &[0.02, 0.08], Bound::AtMost(0.1), "");
        assert_eq!(c.verdict, Verdict::Holds);
        assert_eq!(c.ours, "0.02 to 0.08 (mean 0.05, n = 2); kept on 2 of 2");
        let same = Claim::bound("x", "≤ 1", &[1.0, 1.0, 1.0], Bound::AtMost(1.0), "episodes");
        assert_eq!(same.ours, "1 episodes on each of 3; kept on 3 of 3");
        assert_eq!(Claim::bound("gain", "≤ 10 %", &[0.02, 0.12], Bound::AtMost(0.1), "").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::bound("gain", "≥ 10 %", &[0.5, 0.1], Bound::AtLeast(0.1), "").verdict, Verdict::Holds);
        assert_eq!(Claim::bound("gain", "≥ 10 %", &[], Bound::AtLeast(0.1), "").verdict, Verdict::NotComparable);
    }

    /// Attacked 10, 13, 13 against honest 0, 1, 2 on the same seeds: differences 10, 12, 11,
    /// mean 11, sd 1, half-width t(0.975, 2)·1/√3 = 4.303·0.5774 = 2.484, so 8.52 to 13.48: not
    /// settled at or above 10 (the interval reaches below), nor at or below 10. At the same mean
    /// and spread, m seeds give t(0.975, m − 1)/√m: 2.571/√6 = 1.050 for 6, 2.447/√7 = 0.925
    /// for 7, so 7 seeds would clear the distance of 1 and keep "at or above 10". A gap of 20
    /// with the same spread is shown above 10; no gap at all is shown not to reach 10 (broken);
    /// identical runs are shown at or below 0.
    #[test]
    fn differences_hold_only_where_the_interval_clears_the_bound() {
        let (a, h) = ([10.0, 13.0, 13.0], [0.0, 1.0, 2.0]);
        let c = Claim::difference("gain", "gains", ("attacked", &a), ("honest", &h), Bound::AtLeast(10.0), "points");
        assert_eq!(c.verdict, Verdict::NotSettled);
        assert!(c.ours.starts_with("11 points (95 % interval 8.516 to 13.48 points); attacked: 12 points ± 1.732 (n = 3), honest: 1 points ± 1 (n = 3)"), "{}", c.ours);
        assert!(c.why.contains("8.516 to 13.48, reaches across 10 points") && c.why.contains("about 7 seeds would narrow the interval enough to keep it"), "{}", c.why);
        let c = c.because("a cause");
        assert!(c.why.starts_with("The 95 % interval") && c.why.ends_with(" a cause"), "the note stays before the cause: {}", c.why);
        assert!(c.clone().because("").why.ends_with(" a cause"), "no cause keeps the note");
        let below = Claim::difference("g", "s", ("a", &a), ("h", &h), Bound::AtMost(10.0), "");
        assert_eq!(below.verdict, Verdict::NotSettled);
        assert!(below.why.contains("about 7 seeds would narrow the interval enough to break it"), "{}", below.why);
        assert_eq!(Claim::difference("g", "s", ("a", &h), ("h", &h), Bound::AtLeast(10.0), "").verdict, Verdict::DoesNotHold);
        let far = [20.0, 23.0, 23.0];
        assert_eq!(Claim::difference("g", "s", ("a", &far), ("h", &h), Bound::AtLeast(10.0), "").verdict, Verdict::Holds);
        assert_eq!(Claim::difference("g", "s", ("a", &h), ("h", &h), Bound::AtMost(0.0), "").verdict, Verdict::Holds);
        assert_eq!(Claim::difference("g", "s", ("a", &[1.0, 2.0]), ("h", &h), Bound::AtMost(10.0), "").verdict, Verdict::NotComparable);
    }

    /// Exponents 0.4, 0.5, 0.6: mean 0.5, sd 0.1, half-width t(0.975, 2)·0.1/√3 = 4.303·0.05774
    /// = 0.2484, so 0.2516 to 0.7484: kept at or below 0.75 and at or above 0.25, not settled at
    /// or below 0.7 (the interval reaches above it; 4 seeds give 3.182·0.1/2 = 0.159 < 0.2 and
    /// would keep it), broken at or above 0.9 (the whole interval is below); one run gives no
    /// interval.
    #[test]
    fn mean_bounds_hold_only_where_the_interval_keeps_them() {
        let k = [0.4, 0.5, 0.6];
        let c = Claim::mean_bound("shape", "like a square root", &k, Bound::AtMost(0.75), "");
        assert_eq!(c.verdict, Verdict::Holds);
        assert!(c.ours.starts_with("0.5 ± 0.1 (n = 3) (95 % interval 0.2516 to 0.7484)"), "{}", c.ours);
        assert_eq!(Claim::mean_bound("s", "s", &k, Bound::AtLeast(0.25), "").verdict, Verdict::Holds);
        let unsettled = Claim::mean_bound("s", "s", &k, Bound::AtMost(0.7), "");
        assert_eq!(unsettled.verdict, Verdict::NotSettled);
        assert!(unsettled.why.contains("about 4 seeds would narrow the interval enough to keep it"), "{}", unsettled.why);
        assert_eq!(Claim::mean_bound("s", "s", &k, Bound::AtLeast(0.9), "").verdict, Verdict::DoesNotHold);
        // A run without a finite figure (an exponent where nothing grew) gives no interval.
        assert_eq!(Claim::mean_bound("s", "s", &[0.4, f64::INFINITY], Bound::AtMost(0.75), "").verdict, Verdict::NotComparable);
        assert_eq!(Claim::mean_bound("s", "s", &[0.5], Bound::AtMost(0.75), "").verdict, Verdict::NotComparable);
    }

    #[test]
    fn one_run_inside_our_prediction_interval() {
        // Ours 0.90 ± 0.01 over 5 runs: half-width 2.776·0.01·1.0954 = 0.0304, plus 0.005.
        let ours = [0.89, 0.90, 0.91, 0.90, 0.90];
        let sd = Summary::of(&ours).unwrap().sd;
        let half = 2.776 * sd * 1.2f64.sqrt() + 0.005;
        assert_eq!(Claim::one_run("x", &ours, 0.90 + 0.99 * half, 0.005, "").verdict, Verdict::Holds);
        assert_eq!(Claim::one_run("x", &ours, 0.90 - 1.01 * half, 0.005, "").verdict, Verdict::DoesNotHold);
        assert_eq!(Claim::one_run("x", &[0.9], 0.9, 0.005, "").verdict, Verdict::NotComparable);
    }

    #[test]
    fn fitted_never_counts_as_holding() {
        let claims = [
            Claim::fitted("speed-up", "3.0".into(), "3.0".into(), "router share fitted on seeds 1-8"),
            Claim::value("a", 1.0, 1.0, "", 0.1, "m"),
            Claim::value("b", 2.0, 1.0, "", 0.1, "m"),
            Claim::not_comparable("c", "x".into(), "y".into(), "different metric"),
        ];
        assert!(!claims[0].holds());
        assert_eq!(tally(&claims), (1, 2));
    }

    #[test]
    fn p_values_read_well() {
        assert_eq!(p_value(0.38), "0.38");
        assert_eq!(p_value(0.5), "0.5");
        assert_eq!(p_value(0.012), "0.012");
        assert_eq!(p_value(1.0), "1");
        assert_eq!(p_value(1e-6), "< 0.0001");
        assert_eq!(p_equals(1e-6), "p < 0.0001");
        assert_eq!(p_equals(0.38), "p = 0.38");
    }

    /// Welch's test is undefined where neither side varies: the cell says so rather than print
    /// the limit p as if a test had run; runs with a spread get their p-value and α.
    #[test]
    fn welch_without_any_spread_gives_no_p_value() {
        let flat = |m| Summary::given(m, 0.0, 3);
        assert_eq!(welch_result(&flat(3.0), &flat(1.0), 0.0), "no spread on either side, so no p-value: the means are apart");
        assert_eq!(welch_result(&flat(0.0), &flat(0.0), 1.0), "no spread on either side, so no p-value: the means are exactly equal");
        assert_eq!(welch_result(&Summary::given(3.0, 0.5, 3), &flat(1.0), 0.012), "p = 0.012, < α = 0.05");
        let c = Claim::significance("x", "seed", ("a", &[2.0, 2.0, 2.0]), ("b", &[1.0, 1.0, 1.0]), true, "");
        assert_eq!((c.verdict, c.test.contains("no p-value")), (Verdict::Holds, true), "{}", c.test);
    }
}
