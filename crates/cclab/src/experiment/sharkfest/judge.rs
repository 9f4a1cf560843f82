//! How the talk's claims about our own runs are judged: a direction between two sets of runs,
//! paired by seed, holds only on every seed and beyond the seeds' spread; "at least" also holds
//! where the two cannot be told apart. Shared by [`super::talk`] and the modules that add claims
//! of their own ([`super::bbr_v2`], [`super::cubic_techniques`]).

use crate::experiment::Claim;
use crate::stats::{mean, welch_p, Summary};
use crate::verdict::{Verdict, ALPHA};

/// Welch's p-value between two of our sets of runs, and how a test cell gives it.
pub(super) fn welch(a: &[f64], b: &[f64]) -> Option<(f64, String)> {
    let (sa, sb) = (Summary::of(a)?, Summary::of(b)?);
    welch_p(&sa, &sb).map(|p| (p, crate::verdict::welch_result(&sa, &sb, p)))
}

/// A direction between two of our own sets of runs holds only if the difference is also
/// beyond their spread (Welch's test at [`ALPHA`]): being above on every seed by a hair is not
/// a difference.
pub(super) fn beyond_spread(mut c: Claim, a: &[f64], b: &[f64]) -> Claim {
    let p = welch(a, b);
    match p {
        Some((p, _)) if p >= ALPHA && c.holds() => {
            c.verdict = Verdict::DoesNotHold;
            c.test = format!("{}, and beyond the seeds' spread: Welch's {} ≥ {ALPHA}", c.test, crate::verdict::p_equals(p));
            c.why = "above on every seed, but by less than the runs vary: no difference to speak of".into();
            c
        }
        Some((p, text)) => {
            c.test = format!("{}, and beyond the seeds' spread (Welch's test: {text})", c.test);
            if !c.holds() && p >= ALPHA {
                c.why = "not above on every seed, and the means differ by less than the runs vary: these runs cannot tell the two apart".into();
            }
            c
        }
        None => c,
    }
}

/// "`a.0` above `b.0`" on every seed and beyond the seeds' spread: [`Claim::direction`]
/// judged by [`beyond_spread`].
pub(super) fn direction_apart(claim: &str, seed: &str, a: (&str, &[f64]), b: (&str, &[f64]), unit: &str) -> Claim {
    beyond_spread(Claim::direction(claim, seed, a, b, unit), a.1, b.1)
}

/// A claim "A at least B" checked as the direction "A above B" on every seed (which implies
/// it), or, where that fails, as A no different from B by Welch's test at [`ALPHA`]: only a
/// B significantly above A breaks it.
pub(super) fn at_least(mut c: Claim, a: &[f64], b: &[f64]) -> Claim {
    if c.holds() {
        return c;
    }
    if let Some((p, text)) = welch(a, b) {
        let lower = mean(a) < mean(b);
        c.test = format!("{}, or no different (Welch's test: {text})", c.test);
        if p >= ALPHA || !lower {
            c.verdict = Verdict::Holds;
            c.why = "not above on every seed, but no different from it beyond the runs' spread".into();
        } else {
            c.why = "significantly below it".into();
        }
    }
    c
}
