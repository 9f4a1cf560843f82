//! The talk's main findings, each judged by the verdict rows that bear on it
//! ([`crate::finding`]). The talk is a survey with no one headline; these are its claims about
//! how the algorithms behave: from its own runs (collateral damage, random loss, Reno
//! friendliness, RTT fairness, lossy links), from its "Complex challenges" slide ("Late news")
//! and from the BBR v2 slides it quotes from Cardwell et al. Its statements of each
//! algorithm's control law are checks of our code, with no finding here; the verdict table has
//! them (those that fail, where the talk's rule is not Linux's, count there).

use crate::finding::Finding;
use crate::verdict::{Claim, Verdict};

/// How a row is named in a finding's text: by the algorithm it opens with, or by its claim
/// without the conditions in brackets.
#[derive(Clone, Copy)]
enum Name {
    Algorithm,
    Claim,
}

/// The rows `pick` selects whose verdict is `verdict`, named as `name` says and joined, or
/// `None` if there are none.
fn names(claims: &[Claim], pick: &dyn Fn(&Claim) -> bool, verdict: Verdict, name: Name) -> Option<String> {
    let (end, joiner) = match name {
        Name::Algorithm => (": ", ", "),
        Name::Claim => (" (", "; "),
    };
    let ns: Vec<&str> = claims.iter().filter(|c| pick(c) && c.verdict == verdict).map(|c| c.claim.split(end).next().unwrap_or(&c.claim)).collect();
    (!ns.is_empty()).then(|| ns.join(joiner))
}

/// The rows `pick` selects that do not hold, named by their claims.
fn not_holding(claims: &[Claim], pick: &dyn Fn(&Claim) -> bool) -> String {
    match names(claims, pick, Verdict::DoesNotHold, Name::Claim) {
        None => "Every judged row holds or is not settled.".into(),
        Some(ns) => format!("Not holding: {ns}. Each row's why gives the cause."),
    }
}

pub fn findings(claims: &[Claim]) -> Vec<Finding> {
    let episodes = |c: &Claim| c.claim.contains("buffer overflows (loss episodes) in the ");
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
            "Collateral damage: buffer overflows (loss episodes) and total packets of each algorithm's run alone (\"Almost 3 Buffer overflows / 797k Total Packets\" for NewReno ... \"23\" for Scalable)",
            claims,
            |c| episodes(c) || totals(c) || c.claim.starts_with("Westwood+: overflows (loss episodes)"),
            format!(
                "Overflow episodes as the talk's: {} hold, {} do not. Total packets: {} hold, {} do not (the rows' why gives what the talk's capture may have counted).",
                names(claims, &episodes, Verdict::Holds, Name::Algorithm).unwrap_or("none".into()),
                names(claims, &episodes, Verdict::DoesNotHold, Name::Algorithm).unwrap_or("none".into()),
                names(claims, &totals, Verdict::Holds, Name::Algorithm).unwrap_or("none".into()),
                names(claims, &totals, Verdict::DoesNotHold, Name::Algorithm).unwrap_or("none".into())
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
                names(claims, &friendliness, Verdict::Holds, Name::Claim).unwrap_or("none".into()),
                names(claims, &friendliness, Verdict::DoesNotHold, Name::Claim).unwrap_or("none".into())
            ),
        ),
        Finding::judge(
            "RTT fairness: CUBIC and Compound \"good\", HighSpeed \"still bad\", Scalable \"terrible\" (the 50 ms flow's share against a 200 ms one, as against Reno's)",
            claims,
            rtt_fairness,
            format!(
                "Holding: {}. Not holding: {}.",
                names(claims, &rtt_fairness, Verdict::Holds, Name::Claim).unwrap_or("none".into()),
                names(claims, &rtt_fairness, Verdict::DoesNotHold, Name::Claim).unwrap_or("none".into())
            ),
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
            "BBR v2 (our BBRv3) addresses BBR v1's faults (the slides quoted from Cardwell et al.): loss with shallow buffers, no ECN, an aggressive RTT probe, unfairness to Reno and CUBIC, high ACK aggregation",
            claims,
            bbr_v2,
            not_holding(claims, &bbr_v2),
        ),
    ]
}
