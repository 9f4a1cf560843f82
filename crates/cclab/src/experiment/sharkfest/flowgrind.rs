//! The talk's flowgrind demo (seed 002, the slide after "flowgrind"): a Reno flow whose
//! report shows, in its per-interval columns, a Linux sender's first retransmission timeout.
//! Until 0.951 s the sender reads cwnd 10, ssthresh INT_MAX, one segment unacknowledged
//! (uack 1), no RTT sample (rtt 0.0; rttvar 250.0 is Linux's initial mdev of 1 s shown over
//! four) and rto 1000.0; in the interval ending at 1.002 s it reads cwnd 1, ssthresh 5, lost
//! 1, retr 1 (outstanding) and tret 1 (in all), bkof 1 (one backoff), rto 2000.0 and ca state
//! "loss"; reor, Linux's reordering degree, reads 3 throughout. Our time series carries the
//! same columns (`retrans_out`, `retr`, `backoff`, `reordering`).
//!
//! Our run takes its conditions from the sample's own columns: one segment to send (uack 1),
//! a path that returns nothing (the flow's throughput stays 0), no RTT sample from the SYN
//! exchange (rtt 0.0), and no tail loss probe before the timeout (the only retransmission,
//! retr 1, is the timeout's own; Linux's tcp_schedule_loss_probe arms one only on SACK
//! connections, so we run the flow without SACK and so without one). Then the laws do the rest: RFC 6298 §2.1's initial RTO of 1 s,
//! RFC 5681 §3.1's loss window of one segment, and §5.5's backoff doubling the RTO. The
//! ssthresh tells Linux from the RFC: Linux's `tcp_reno_ssthresh` halves cwnd (10/2 = 5),
//! RFC 5681's eq. (4) halves FlightSize, max(1/2, 2) = 2 segments.

use super::super::run_one;
use super::measure::TESTBED;
use crate::experiment::{Claim, Table};
use crate::table::num;
use crate::UserError;
use cc::Time;
use sim::results::FlowSample;
use sim::LossSpec;
use std::path::Path;

/// The talk's two report lines (the sender's "S" rows): before and after the timeout.
pub struct Line {
    pub end_s: f64,
    pub cwnd: f64,
    /// `None`: INT_MAX.
    pub ssthresh: Option<f64>,
    pub uack: u64,
    pub lost: u64,
    /// Retransmissions outstanding (`tcpi_retrans`).
    pub retr: u64,
    /// Retransmissions so far (`tcpi_total_retrans`).
    pub tret: u64,
    /// The reordering degree (`tcpi_reordering`).
    pub reor: u64,
    /// Timeouts since the last RTT sample (`tcpi_backoff`).
    pub bkof: u32,
    pub rto_ms: f64,
    pub ca_state: &'static str,
}

/// How the two lines' numbers map to the header's columns. The header names 13 columns
/// from cwnd to rto (cwnd ssth uack sack lost retr tret fack reor bkof rtt rtvar rto), but the
/// talk's text of the line before the timeout holds 14 numbers there and the line after it
/// 12: a number was added to one and dropped from the other when the slide was turned into
/// text. Read from the left (cwnd ... tret) and from the right (reor bkof rtt rtvar rto) both
/// lines agree with each other and with Linux (reor 3, its initial `tcp_reordering`), so that
/// is how we read them; only fack, between the two ends, is unreadable (and always 0 since
/// Linux 4.15 removed FACK).
///
/// "S 0 0.900 0.951 ... 10 INT_MAX 1 0 0 0 0 0 0 3 0 0.0 250.0 1000.0 open".
pub const BEFORE: Line = Line { end_s: 0.951, cwnd: 10.0, ssthresh: None, uack: 1, lost: 0, retr: 0, tret: 0, reor: 3, bkof: 0, rto_ms: 1000.0, ca_state: "open" };
/// "S 0 0.951 1.002 ... 1 5 1 0 1 1 1 3 1 0.0 250.0 2000.0 loss".
pub const AFTER: Line = Line { end_s: 1.002, cwnd: 1.0, ssthresh: Some(5.0), uack: 1, lost: 1, retr: 1, tret: 1, reor: 3, bkof: 1, rto_ms: 2000.0, ca_state: "loss" };

/// Our sender's samples every 10 ms (flowgrind's `-i` of the demo is 0.05 s).
const SAMPLE: Time = Time::from_millis(10);

/// What our run's samples read at the talk's two lines, and when the state turned to loss.
#[derive(Clone, Debug, Default)]
pub struct Flowgrind {
    pub before: FlowSample,
    pub after: FlowSample,
    /// The first sample in TCP_CA_Loss (s).
    pub timeout_at: Option<f64>,
}

pub fn run(out: &Path) -> Result<Flowgrind, UserError> {
    let l = TESTBED;
    let mut cfg = l.config(l.flows(&["reno"]), 3, 0.0, 1);
    cfg.sample_interval = Some(SAMPLE);
    cfg.link.netem.loss = LossSpec::Random { p: 1.0, correlation: 0.0 };
    let f = &mut cfg.flows[0];
    f.sender.data_limit = Some(f.sender.mss);
    // No SACK, so no tail loss probe, as Linux (and our sender) arm one only with SACK.
    f.sender.sack = false;
    f.syn_rtt_sample = false;
    let r = run_one(cfg, &out.join("flowgrind-timeout"))?;
    let samples = super::measure::flow0(&r);
    let at = |t: f64| samples.iter().filter(|s| s.time <= t + 1e-9).last().map(|s| (*s).clone()).unwrap_or_default();
    // After the timeout: the first sample in TCP_CA_Loss, whatever order the timer and the
    // sample at the same instant ran in.
    let first_loss = samples.iter().find(|s| s.ca_state == Some("loss")).map(|s| (*s).clone());
    Ok(Flowgrind { before: at(BEFORE.end_s), timeout_at: first_loss.as_ref().map(|s| s.time), after: first_loss.unwrap_or_default() })
}

pub fn claims(f: &Flowgrind, claims: &mut Vec<Claim>) {
    let on = "Reno without SACK, one segment to send on a path that returns nothing, no RTT sample, read every 10 ms";
    let exact = |claim: String, ours: f64, talk: f64, unit: &str, rule: &str| Claim::conformance(&claim, ours, talk, unit, rule);
    claims.push(exact(format!("flowgrind sample: rto before any RTT sample (\"rto 1000.0\" at {} s; {on})", BEFORE.end_s), f.before.rto_ms, BEFORE.rto_ms, "ms", "RFC 6298 §2.1's initial RTO of 1 s"));
    claims.push(match f.timeout_at {
        Some(t) => {
            let mut c = Claim::band(
                &format!("flowgrind sample: the first timeout, when ca state turns to \"loss\" ({on})"),
                &[t],
                (BEFORE.end_s, AFTER.end_s + SAMPLE.as_secs_f64()),
                "s",
                "the talk's report interval 0.951–1.002 s in which it turned, and our 10 ms sample",
            );
            c.seed = format!("between {} and {} s (+ our 10 ms sample)", BEFORE.end_s, AFTER.end_s);
            c
        }
        None => Claim::not_comparable("flowgrind sample: the first timeout", "0.951–1.002 s".into(), "no timeout".into(), "our sender never entered TCP_CA_Loss"),
    });
    claims.push(exact(format!("flowgrind sample: cwnd at the timeout, 10 → \"1\" ({on})"), f.after.cwnd.unwrap_or(f64::NAN), AFTER.cwnd, "segments", "RFC 5681 §3.1's loss window"));
    claims.push(exact(
        format!("flowgrind sample: ssthresh at the timeout, INT_MAX → \"5\" with one segment in flight ({on})"),
        f.after.ssthresh.unwrap_or(f64::NAN),
        AFTER.ssthresh.unwrap_or(f64::NAN),
        "segments",
        "Linux's tcp_reno_ssthresh halves cwnd, 10/2; RFC 5681's eq. (4) would halve FlightSize, max(1/2, 2) = 2",
    ));
    claims.push(exact(format!("flowgrind sample: rto after the timeout, \"2000.0\" ({on})"), f.after.rto_ms, AFTER.rto_ms, "ms", "RFC 6298 §5.5 doubles the RTO"));
    claims.push(exact(format!("flowgrind sample: retransmissions outstanding after the timeout, \"retr 1\" ({on})"), f.after.retrans_out as f64, AFTER.retr as f64, "", "the timeout's one retransmission, not yet acknowledged"));
    // The columns the talk shows changing (or not) across the timeout: both lines judged.
    let both_lines = |claim: String, column: fn(&FlowSample) -> f64, talk: fn(&Line) -> f64, unit: &str, basis: &str| {
        let line = |what: &str, ours: &FlowSample, l: &Line| (what.to_string(), exact(claim.clone(), column(ours), talk(l), unit, basis));
        Claim::all_of(&claim, &format!("{} → {}", num(talk(&BEFORE)), num(talk(&AFTER))), &[line("before", &f.before, &BEFORE), line("after", &f.after, &AFTER)])
    };
    claims.push(both_lines(format!("flowgrind sample: retransmissions in all, \"tret\" 0 → 1 ({on})"), |s| s.retr as f64, |l| l.tret as f64, "", "none before, then the timeout's one retransmission"));
    claims.push(both_lines(format!("flowgrind sample: RTO backoffs, \"bkof\" 0 → 1 ({on})"), |s| s.backoff as f64, |l| l.bkof as f64, "", "none before, then one timeout and no RTT sample since (RFC 6298 §5.5; Linux icsk_backoff)"));
    claims.push(both_lines(
        format!("flowgrind sample: the reordering degree, \"reor 3\" before and after ({on})"),
        |s| s.reordering as f64,
        |l| l.reor as f64,
        "segments",
        "Linux's initial tp->reordering (sysctl tcp_reordering = 3), RFC 5681's DupThresh; a timeout with fewer than that many segments SACKed leaves it (tcp_enter_loss)",
    ));
    claims.push(exact(format!("flowgrind sample: segments marked lost by then, \"lost 1\" ({on})"), f.after.lost as f64, AFTER.lost as f64, "", "Linux's tcp_enter_loss marks every outstanding segment lost at the timeout, here the one"));
    claims.push(Claim::not_comparable(
        "flowgrind sample: one segment unacknowledged before and after, \"uack 1\"",
        format!("{} and {}", BEFORE.uack, AFTER.uack),
        format!("{} and {}", f.before.unacked, f.after.unacked),
        "an input, not an outcome: our run sends one segment because the sample shows one",
    ));
    claims.push(Claim::not_comparable(
        &format!("flowgrind sample: rttvar before any RTT sample, \"rtvar 250.0\" ({on})"),
        format!("{} ms", num(LINUX_INITIAL_RTTVAR_MS)),
        format!("{} ms", num(f.before.rttvar_ms)),
        "a report, not a behaviour: RFC 6298 defines no RTTVAR before the first RTT sample and we report 0; Linux starts mdev at the initial RTO (tcp_init_sock) and TCP_INFO reports it over four, 250 ms. Both take the same 1 s initial RTO (the row above)",
    ));
}

/// What Linux's TCP_INFO reports as rttvar before any RTT sample: `mdev_us` starts at
/// TCP_TIMEOUT_INIT (1 s, `tcp_init_sock`) and `tcpi_rttvar` is `mdev_us >> 2`.
const LINUX_INITIAL_RTTVAR_MS: f64 = 250.0;

/// The talk's two lines and ours, in flowgrind's columns.
pub fn table(f: &Flowgrind) -> Table {
    let mut t = Table::new("the talk's flowgrind sample against ours: the sender's columns before and after its first timeout", &["line", "end (s)", "cwnd", "ssth", "uack", "lost", "retr", "tret", "reor", "bkof", "rto (ms)", "ca state"]);
    for (what, line, ours) in [("before", &BEFORE, &f.before), ("after", &AFTER, &f.after)] {
        t.row(vec![
            format!("the talk, {what}"),
            num(line.end_s),
            num(line.cwnd),
            line.ssthresh.map_or("INT_MAX".into(), num),
            line.uack.to_string(),
            line.lost.to_string(),
            line.retr.to_string(),
            line.tret.to_string(),
            line.reor.to_string(),
            line.bkof.to_string(),
            num(line.rto_ms),
            line.ca_state.into(),
        ]);
        t.row(vec![
            format!("ours, {what}"),
            num(ours.time),
            ours.cwnd.map_or("–".into(), num),
            ours.ssthresh.map_or("INT_MAX".into(), num),
            ours.unacked.to_string(),
            ours.lost.to_string(),
            ours.retrans_out.to_string(),
            ours.retr.to_string(),
            ours.reordering.to_string(),
            ours.backoff.to_string(),
            num(ours.rto_ms),
            ours.ca_state.unwrap_or("–").into(),
        ]);
    }
    t
}
