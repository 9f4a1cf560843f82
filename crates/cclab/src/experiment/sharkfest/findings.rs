//! The talk's main findings, each judged by the verdict rows that bear on it
//! ([`crate::finding`]). The talk is a survey with no one headline; these are the conclusions
//! its evaluation slides draw from its own runs (collateral damage, random loss, Reno
//! friendliness, RTT fairness, lossy links, "Late news", BBR v2 against v1). Its statements of
//! each algorithm's control law are checks of our code and judge nothing, so they have no
//! finding here; the verdict table has them.

use crate::finding::Finding;
use crate::verdict::{Claim, Verdict};

/// The rows `pick` selects whose verdict is `verdict`, each named by its claim up to `end`
/// (": " for the algorithm a row opens with, " (" for the claim without its conditions),
/// joined, or "none".
fn names(claims: &[Claim], pick: &dyn Fn(&Claim) -> bool, verdict: Verdict, end: &str) -> String {
    let ns: Vec<&str> = claims.iter().filter(|c| pick(c) && c.verdict == verdict).map(|c| c.claim.split(end).next().unwrap_or(&c.claim)).collect();
    if ns.is_empty() {
        "none".into()
    } else {
        ns.join(if end == ": " { ", " } else { "; " })
    }
}

/// The rows `pick` selects that do not hold, each named by its claim up to its parenthesis.
fn not_holding(claims: &[Claim], pick: &dyn Fn(&Claim) -> bool) -> String {
    let ns: Vec<&str> = claims.iter().filter(|c| pick(c) && c.verdict == Verdict::DoesNotHold).map(|c| c.claim.split(" (").next().unwrap_or(&c.claim)).collect();
    if ns.is_empty() {
        "Every judged row holds.".into()
    } else {
        format!("Not holding: {}. Each row's why gives the cause.", ns.join("; "))
    }
}

pub fn findings(claims: &[Claim]) -> Vec<Finding> {
    let episodes = |c: &Claim| c.claim.contains("(loss episodes) in the 60 s run alone");
    let totals = |c: &Claim| c.claim.contains("total packets in that run");
    let friendliness = |c: &Claim| {
        ["takes more from Reno than Reno does", "takes less from Reno than Scalable", "Vegas loses to Reno", "Scalable against NewReno on 20 Mbit/s", "Compound's share against Reno on"].iter().any(|s| c.claim.contains(s))
    };
    let rtt_fairness = |c: &Claim| c.claim.contains("the 50 ms flow takes");
    let bbr_loss = |c: &Claim| c.claim.starts_with("BBR's goodput alone at") || c.claim.starts_with("BBR falls from 10 to 20 %");
    let lossy = |c: &Claim| ["Westwood+ against CUBIC alone at 1 %", "Westwood+ above Reno alone at 1 %", "NewReno at 1 % loss"].iter().any(|s| c.claim.starts_with(s));
    let late_news = |c: &Claim| c.claim.contains("Late news") || c.claim.contains("news of a drop");
    let bbr_v2 = |c: &Claim| c.claim.starts_with("BBR v2") || c.claim.starts_with("BBR v1") || c.claim.starts_with("BBRv3");
    vec![
        Finding::judge(
            "Collateral damage: buffer overflows (loss episodes) and total packets of each algorithm's 60 s run alone (\"Almost 3 Buffer overflows / 797k Total Packets\" for NewReno ... \"23\" for Scalable)",
            claims,
            |c| episodes(c) || totals(c) || c.claim.contains("overflows (loss episodes) in 60 s alone as Reno's"),
            format!(
                "Overflow episodes as the talk's: {} agree, {} do not; the totals do not, ours counting data and ACKs once each where the talk's capture counted each twice (the rows give the factor).",
                names(claims, &episodes, Verdict::Holds, ": "),
                names(claims, &episodes, Verdict::DoesNotHold, ": ")
            ),
        ),
        Finding::judge(
            "BBR v1 under random loss: \"Great, full BW rate!\" at 1 %, 30 and 24 of 40 Mbit/s at 5 and 10 %, \"we went too far\" at 20 %",
            claims,
            bbr_loss,
            format!("{} Linux's own BBR on our testbed sets the rates beside ours (the table of ours against Linux).", not_holding(claims, &bbr_loss)),
        ),
        Finding::judge(
            "Reno friendliness: Scalable \"kills Reno easily\", CUBIC \"moderate\", Vegas \"gets beaten\", Compound coexists \"good\" off a long fat network",
            claims,
            friendliness,
            format!(
                "Judged against Reno's own share against Reno on the same seeds. Holding: {}. Not holding: {}.",
                names(claims, &friendliness, Verdict::Holds, " ("),
                names(claims, &friendliness, Verdict::DoesNotHold, " (")
            ),
        ),
        Finding::judge(
            "RTT fairness: CUBIC and Compound \"good\", HighSpeed \"still bad\", Scalable \"terrible\" (the 50 ms flow's share against a 200 ms one, as against Reno's)",
            claims,
            rtt_fairness,
            format!("Holding: {}. Not holding: {}.", names(claims, &rtt_fairness, Verdict::Holds, " ("), names(claims, &rtt_fairness, Verdict::DoesNotHold, " (")),
        ),
        Finding::judge(
            "Lossy links at 1 %: Westwood+ \"beats CUBIC by x5 factor\" and is \"good for lossy links\"; NewReno \"can't go faster than 3Mbps\"",
            claims,
            lossy,
            not_holding(claims, &lossy),
        ),
        Finding::judge(
            "\"Late news\": a drop's news reaches the sender later with a longer RTT or a drop at the path's beginning, and costs more",
            claims,
            late_news,
            not_holding(claims, &late_news),
        ),
        Finding::judge(
            "BBR v2 (our BBRv3) addresses BBR v1's faults: loss with shallow buffers, no ECN, an aggressive RTT probe, unfairness to Reno and CUBIC",
            claims,
            bbr_v2,
            not_holding(claims, &bbr_v2),
        ),
    ]
}
