//! A seed's main findings, each judged from the verdict rows that decide it.
//!
//! The first thing a reader of a reproduction asks is whether the seed's headline result came
//! out. A tally over every row ("36 of 57 claims hold") does not answer it: many rows check
//! side claims, and the one row that matters can fail among them. So each report opens with the
//! seed's main findings in its own words, and for each:
//!
//! - **reproduced**: every verdict row that decides it holds;
//! - **not settled**: none fails, but some are not settled (their intervals reach across the
//!   bound): our runs neither show it nor break it;
//! - **partly reproduced**: some hold and some do not (the count says how many);
//! - **not reproduced**: none holds, and some do not hold;
//! - **not judged**: its rows are all fitted, not comparable or checks of our code, so our runs
//!   say nothing of it.
//!
//! Rows not settled never count as holding, as in the tally; fitted, not comparable and
//! conforming rows are listed but judge nothing. The outcome is computed from the verdicts,
//! never written by hand; the text beside it says what we found, with our figures, and where
//! the report finds why. A row's number (#) is its place in the verdict table, the data row of
//! `verdicts.csv`.

use crate::verdict::{Claim, Verdict};

/// Whether a finding came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Reproduced,
    NotSettled,
    Partly,
    NotReproduced,
    NotJudged,
}

impl Outcome {
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Reproduced => "reproduced",
            Outcome::NotSettled => "not settled",
            Outcome::Partly => "partly reproduced",
            Outcome::NotReproduced => "not reproduced",
            Outcome::NotJudged => "not judged",
        }
    }
}

/// One main finding of a seed, with its outcome and the rows that decide it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Finding {
    /// The finding in the seed's words, with where it says it.
    pub finding: String,
    pub outcome: Outcome,
    /// The outcome in words, as the report shows it.
    pub label: &'static str,
    /// How many of the deciding rows hold, and their numbers in the verdict table.
    pub rows: String,
    /// What we found, with our figures, and the cause where it does not reproduce.
    pub ours: String,
}

/// Row numbers as ranges: [3, 4, 5, 9] → "3–5, 9" (the verdict table numbers its rows, #).
fn ranges(rows: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < rows.len() {
        let mut j = k;
        while j + 1 < rows.len() && rows[j + 1] == rows[j] + 1 {
            j += 1;
        }
        parts.push(if j == k { rows[k].to_string() } else { format!("{}–{}", rows[k], rows[j]) });
        k = j + 1;
    }
    parts.join(", ")
}

impl Finding {
    /// Judges `finding` by the rows of `claims` (the experiment's whole verdict table, in its
    /// order) that `decides` picks.
    pub fn judge(finding: &str, claims: &[Claim], decides: impl Fn(&Claim) -> bool, ours: String) -> Finding {
        let picked: Vec<(usize, &Claim)> = claims.iter().enumerate().filter(|(_, c)| decides(c)).map(|(k, c)| (k + 1, c)).collect();
        let judged: Vec<usize> = picked.iter().filter(|(_, c)| matches!(c.verdict, Verdict::Holds | Verdict::DoesNotHold | Verdict::NotSettled)).map(|p| p.0).collect();
        let held = picked.iter().filter(|(_, c)| c.holds()).count();
        let failed = picked.iter().filter(|(_, c)| c.verdict == Verdict::DoesNotHold).count();
        let unjudged: Vec<usize> = picked.iter().filter(|(_, c)| matches!(c.verdict, Verdict::Fitted | Verdict::NotComparable)).map(|p| p.0).collect();
        let conforming: Vec<usize> = picked.iter().filter(|(_, c)| c.verdict == Verdict::Conforms).map(|p| p.0).collect();
        let outcome = match (held, failed, judged.len()) {
            (_, _, 0) => Outcome::NotJudged,
            (h, _, n) if h == n => Outcome::Reproduced,
            (_, 0, _) => Outcome::NotSettled,
            (0, _, _) => Outcome::NotReproduced,
            _ => Outcome::Partly,
        };
        let mut rows = if judged.is_empty() { "no row judged".to_string() } else { format!("{held} of {} hold (#{})", judged.len(), ranges(&judged)) };
        if !unjudged.is_empty() {
            rows.push_str(&format!("; fitted or not comparable, judging nothing: #{}", ranges(&unjudged)));
        }
        if !conforming.is_empty() {
            rows.push_str(&format!("; checks of our code, judging nothing: #{}", ranges(&conforming)));
        }
        Finding { finding: finding.into(), outcome, label: outcome.label(), rows, ours }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Bound;

    fn kept(name: &str) -> Claim {
        Claim::bound(name, "≥ 1", &[2.0], Bound::AtLeast(1.0), "")
    }
    fn broken(name: &str) -> Claim {
        Claim::bound(name, "≥ 1", &[0.5], Bound::AtLeast(1.0), "")
    }

    #[test]
    fn the_outcome_follows_the_deciding_rows_alone() {
        let claims = vec![kept("a1"), broken("b1"), kept("a2"), kept("a3"), Claim::fitted("a4", "s".into(), "o".into(), "chosen"), broken("b2")];
        let a = Finding::judge("a", &claims, |c| c.claim.starts_with('a'), String::new());
        assert_eq!(a.outcome, Outcome::Reproduced, "the broken rows are not a's");
        assert_eq!(a.rows, "3 of 3 hold (#1, 3–4); fitted or not comparable, judging nothing: #5");
        let b = Finding::judge("b", &claims, |c| c.claim.starts_with('b'), String::new());
        assert_eq!((b.outcome, b.rows.as_str()), (Outcome::NotReproduced, "0 of 2 hold (#2, 6)"));
        assert_eq!(Finding::judge("all", &claims, |_| true, String::new()).outcome, Outcome::Partly);
        let check = Claim::bound("c", "≥ 1", &[2.0], Bound::AtLeast(1.0), "").check("ours");
        let with_check = Finding::judge("c", &[kept("a"), check], |_| true, String::new());
        assert_eq!((with_check.outcome, with_check.rows.as_str()), (Outcome::Reproduced, "1 of 1 hold (#1); checks of our code, judging nothing: #2"));
        let fitted_only = Finding::judge("f", &claims, |c| c.claim == "a4", String::new());
        assert_eq!((fitted_only.outcome, fitted_only.rows.starts_with("no row judged")), (Outcome::NotJudged, true));
        assert_eq!(Finding::judge("none", &claims, |_| false, String::new()).outcome, Outcome::NotJudged);
    }

    /// A row not settled is judged and never holds, as in the tally; with no row failing, the
    /// finding is not settled either.
    #[test]
    fn a_row_not_settled_keeps_a_finding_from_being_reproduced() {
        let open = Claim::difference("u", "s", ("a", &[10.0, 13.0, 13.0]), ("h", &[0.0, 1.0, 2.0]), Bound::AtLeast(10.0), "");
        assert_eq!(open.verdict, Verdict::NotSettled);
        let f = Finding::judge("x", &[kept("a"), open.clone()], |_| true, String::new());
        assert_eq!((f.outcome, f.rows.as_str()), (Outcome::NotSettled, "1 of 2 hold (#1–2)"), "none fails");
        let f = Finding::judge("x", &[broken("b"), open.clone()], |_| true, String::new());
        assert_eq!(f.outcome, Outcome::NotReproduced, "none holds, one fails");
        let f = Finding::judge("x", &[kept("a"), broken("b"), open], |_| true, String::new());
        assert_eq!(f.outcome, Outcome::Partly);
    }
}
