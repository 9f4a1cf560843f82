//! Proportional rate reduction (RFC 6937) and tail loss probes (RFC 8985 §7) against the
//! timeouts of issue 16, item 2: Reno with 1 % and CUBIC with 5 % random loss on 40 Mbit/s,
//! 100 ms, one BDP of drop-tail buffer, 60 s, where Linux (which has both) times out "none or
//! almost none" of the time. Bounds come from the mechanisms, with a stated allowance for
//! counting noise; the figures are printed for the record.

mod common;
use ::sim::QueueLimit;
use common::*;

const SEEDS: u64 = 20;

#[derive(Default, Debug)]
struct Totals {
    timeouts: u64,
    tail_timeouts: u64,
    retransmits: u64,
    segments: u64,
}

fn totals(cc: &str, p: f64, delayed_ack: bool, on: bool) -> Totals {
    let mut t = Totals::default();
    for seed in 1..=SEEDS {
        let mut f = flow(cc, 100);
        f.delayed_ack = delayed_ack;
        f.sender.prr = on;
        f.sender.tlp = on;
        let r = simulate(seed, 60, with_loss(link(40.0, QueueLimit::Bdp(1.0)), p), vec![f]);
        let s = &r.summary.flows[0];
        t.timeouts += s.timeouts;
        t.tail_timeouts += s.tail_timeouts;
        t.retransmits += s.retransmits;
        t.segments += s.segments_sent;
    }
    t
}

/// A count's upper allowance over its expectation `m` (Poisson: three standard deviations,
/// plus one for counting in whole timeouts).
fn allowance(m: f64) -> f64 {
    3.0 * m.sqrt() + 1.0
}

/// Timeouts split by where they fire:
///
/// - **Tail** timeouts fire in the Open state: the last segments of a flight were lost with no
///   later segment to SACK them, so neither the duplicate-ACK rule nor RACK can see the hole.
///   With TLP the probe goes out at min(2·SRTT + 2 ms, RTO) (never after the RTO) and its SACK
///   starts fast recovery; the RTO still fires only if the probe is lost as well, which under
///   independent random loss happens with probability p. So E[tail with TLP] = p · E[tail
///   without]: at 5 % loss the tail timeouts fall twentyfold, at 1 % a hundredfold.
/// - **Recovery** timeouts (a lost retransmission with nothing sent after it for RACK to see)
///   are not TLP's to repair; PRR sends the fast retransmit at once and then new data behind it
///   (one segment per two delivered), where the pipe < cwnd rule sent nothing until the pipe
///   fell below the reduced window, so they cannot become more frequent.
///
/// Hence: tail_on ≤ p·tail_off + allowance, recovery_on ≤ recovery_off + allowance, and the
/// total falls. Retransmissions stay what the loss rate makes them: a probe adds at most one
/// retransmission per tail, and each loss is still resent once.
#[test]
fn prr_and_tail_loss_probes_remove_the_tail_timeouts() {
    for (cc, p) in [("reno", 0.01), ("cubic", 0.05)] {
        for delayed_ack in [false, true] {
            let off = totals(cc, p, delayed_ack, false);
            let on = totals(cc, p, delayed_ack, true);
            let minutes = SEEDS as f64;
            eprintln!(
                "{cc} {:.0} % loss, delayed ACKs {delayed_ack}: RTOs/min {:.2} -> {:.2} (tail {:.2} -> {:.2}), \
                 retransmissions/min {:.1} -> {:.1} ({:.2} % -> {:.2} % of segments)",
                p * 100.0,
                off.timeouts as f64 / minutes,
                on.timeouts as f64 / minutes,
                off.tail_timeouts as f64 / minutes,
                on.tail_timeouts as f64 / minutes,
                off.retransmits as f64 / minutes,
                on.retransmits as f64 / minutes,
                100.0 * off.retransmits as f64 / off.segments as f64,
                100.0 * on.retransmits as f64 / on.segments as f64,
            );
            let what = format!("{cc} p={p} delayed_ack={delayed_ack}: off {off:?}, on {on:?}");
            let tail_bound = p * off.tail_timeouts as f64;
            assert!(on.tail_timeouts as f64 <= tail_bound + allowance(tail_bound), "tail timeouts: {what}");
            let (rec_off, rec_on) = (off.timeouts - off.tail_timeouts, on.timeouts - on.tail_timeouts);
            assert!(rec_on as f64 <= rec_off as f64 + allowance(rec_off as f64), "recovery timeouts: {what}");
            assert!(on.timeouts <= off.timeouts, "{what}");
            // Each segment lost at random is resent about once either way: the retransmitted
            // share of what is sent stays within a tenth of itself (about p, plus the few
            // retransmissions of segments whose first retransmission was lost too).
            let share = |t: &Totals| t.retransmits as f64 / t.segments as f64;
            assert!((share(&on) - share(&off)).abs() <= 0.1 * share(&off), "retransmissions: {what}");
        }
    }
}

/// The case TLP was made for: a short transfer (one initial window, ten segments) whose last
/// segments are lost has nothing after them to SACK, so only the RTO would find them. Over 1000
/// transfers at 5 % random loss, with TLP each such tail is probed (at 2·SRTT + 2 ms, or at the
/// RTO's time when one segment is left) and the RTO fires only if the probe is lost too, with
/// probability p: tail_on ≤ p·tail_off + allowance, as in the bulk test above. (The
/// completion time hardly changes here: with one segment left the probe waits 2·SRTT + 200 ms,
/// capped at the RTO, so it goes when the RTO would have; what TLP saves is the timeout's
/// collapse of the window to one segment, which a longer transfer would pay for.)
#[test]
fn a_lost_tail_of_a_short_transfer_is_probed_instead_of_timed_out() {
    let p = 0.05;
    let run = |on: bool| {
        let (mut tail, mut timeouts, mut fct) = (0u64, 0u64, vec![]);
        for seed in 1..=1000 {
            let mut f = flow("cubic", 100);
            f.sender.data_limit = Some(10 * 1448);
            f.sender.prr = on;
            f.sender.tlp = on;
            let r = simulate(seed, 10, with_loss(link(40.0, QueueLimit::Bdp(1.0)), p), vec![f]);
            let s = &r.summary.flows[0];
            tail += s.tail_timeouts;
            timeouts += s.timeouts;
            fct.push(s.completion_time_s.expect("the transfer completes"));
        }
        fct.sort_by(f64::total_cmp);
        (tail, timeouts, fct)
    };
    let (tail_off, rto_off, fct_off) = run(false);
    let (tail_on, rto_on, fct_on) = run(true);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    eprintln!(
        "10-segment transfers at 5 % loss: RTOs {rto_off} -> {rto_on} (tail {tail_off} -> {tail_on}), \
         completion mean {:.3} -> {:.3} s, p95 {:.3} -> {:.3} s",
        mean(&fct_off),
        mean(&fct_on),
        fct_off[949],
        fct_on[949]
    );
    let bound = p * tail_off as f64;
    assert!(tail_on as f64 <= bound + allowance(bound), "tail timeouts {tail_off} -> {tail_on}");
    assert!(rto_on <= rto_off);
}

/// The link's drop list (`drop_packets`, ns-3's `ReceiveListErrorModel`): Reno alone on a
/// buffer it never fills (10 Mbit/s, 100 ms, 100 BDPs), its 20th packet dropped. That packet
/// is the middle of the second round (IW = 10, then 20 packets 11-30), so the later ones SACK
/// the hole: one drop, one retransmission, no timeout, and slow start ends there. The window
/// at detection is IW plus what was delivered by then, at most 19 in order plus the three
/// SACKed that make the duplicate-ACK threshold: ≤ 32, so ssthresh = cwnd/2 ≤ 16 (and ≥ 14,
/// the window once the 19 in order are ACKed being 29).
#[test]
fn a_listed_drop_is_one_loss_that_ends_slow_start_at_half_the_window() {
    let mut l = link(10.0, QueueLimit::Bdp(100.0));
    l.drop_packets = vec![20];
    let r = simulate(1, 5, l, vec![flow("reno", 100)]);
    let (s, link) = (&r.summary.flows[0], &r.summary.link);
    assert_eq!((link.drops, link.listed_drops, link.overflow_drops), (1, 1, 0));
    assert_eq!((s.retransmits, s.timeouts), (1, 0));
    let ssthresh = r.series.as_ref().unwrap().flows.iter().find_map(|x| x.ssthresh).unwrap();
    assert!((14.0..=16.0).contains(&ssthresh), "ssthresh {ssthresh}");
}
