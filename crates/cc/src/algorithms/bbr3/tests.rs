use super::*;
use crate::algorithms::bbr_model::test_path::{fill_pipe, mbps8, rate, state_changes, Path};
use crate::testing::{init, MSS};

fn bbr3(cfg: &Bbr3Config) -> Bbr3 {
    Bbr3::new(cfg, init(10 * MSS))
}

/// After STARTUP fills the pipe with one BDP in flight, DRAIN ends at once, and so does
/// PROBE_BW's DOWN: CRUISE.
fn into_probe_bw(cc: &mut Bbr3, p: &mut Path) {
    fill_pipe(cc, p);
    assert_eq!(cc.state(), State::ProbeBwCruise);
    assert_eq!(
        state_changes(&p.h),
        ["drain", "probe_bw_down", "probe_bw_cruise"]
    );
}

/// In PROBE_BW, without the ACK-aggregation allowance (cwnd is the model's arithmetic).
fn probe_bw_without_aggregation() -> (Bbr3, Path) {
    let mut cc = bbr3(&Bbr3Config {
        extra_acked_gain: 0.0,
        ..Bbr3Config::default()
    });
    let mut p = Path::new(100);
    into_probe_bw(&mut cc, &mut p);
    (cc, p)
}

/// A bandwidth probe: REFILL for a round, then UP.
fn probing_up() -> (Bbr3, Path) {
    let (mut cc, mut p) = probe_bw_without_aggregation();
    let mut ctx = p.h.ctx();
    cc.start_probe_bw_refill(0, &mut ctx);
    p.round(&mut cc, 100, mbps8(), 100 * MSS);
    p.round(&mut cc, 1, mbps8(), 100 * MSS);
    assert_eq!(cc.state(), State::ProbeBwUp);
    assert!(cc.bw_probe_samples);
    assert_eq!(cc.inflight_hi(), None);
    (cc, p)
}

#[test]
fn startup_gains_then_drain_at_one_half() {
    let mut cc = bbr3(&Bbr3Config::default());
    let mut p = Path::new(100);
    assert!((cc.pacing_gain() - 2.77).abs() < 0.01);
    assert_eq!(cc.cwnd_gain, 2.0);
    for bw in [1e5, 2e5, 4e5, 8e5, 8.8e5, 8.8e5] {
        p.round(&mut cc, 50, rate(bw), 300 * MSS);
        assert_eq!(cc.state(), State::Startup);
    }
    p.round(&mut cc, 50, rate(8.8e5), 300 * MSS);
    assert_eq!(cc.state(), State::Drain);
    assert_eq!(cc.pacing_gain(), 0.5);
    // DRAIN gives up after 3 rounds even if inflight stays high (draft CheckDrainDone).
    p.rounds(&mut cc, 3, 50, rate(8.8e5), 300 * MSS);
    assert_eq!(cc.state(), State::Drain);
    p.round(&mut cc, 50, rate(8.8e5), 300 * MSS);
    assert_eq!(cc.state(), State::ProbeBwDown);
    assert_eq!(cc.pacing_gain(), 0.9);
}

#[test]
fn probe_bw_cycles_cruise_refill_up_down_with_their_gains() {
    let mut cc = bbr3(&Bbr3Config::default());
    let mut p = Path::new(100);
    into_probe_bw(&mut cc, &mut p);
    let mut seen = vec![(cc.state(), cc.pacing_gain(), cc.cwnd_gain, p.h.now)];
    // 90 packets in flight, below the BDP. Rounds of 100 ACKs, 1 ms apart.
    for _ in 0..40 {
        let start = p.delivered;
        for _ in 0..100 {
            p.ack(
                &mut cc,
                Time::from_millis(1),
                start,
                mbps8(),
                90 * MSS,
                false,
                false,
            );
            if cc.state() != seen.last().unwrap().0 {
                seen.push((cc.state(), cc.pacing_gain(), cc.cwnd_gain, p.h.now));
            }
        }
    }
    let got: Vec<_> = seen.iter().take(5).map(|s| (s.0, s.1, s.2)).collect();
    let expect = [
        (State::ProbeBwCruise, 1.0, 2.0),
        (State::ProbeBwRefill, 1.0, 2.0),
        (State::ProbeBwUp, 1.25, 2.25),
        (State::ProbeBwDown, 0.9, 2.0),
        (State::ProbeBwCruise, 1.0, 2.0),
    ];
    assert_eq!(got, expect);
    // The probe came 2-3 s after DOWN began (the end of DRAIN, just before `seen[0]`);
    // REFILL lasted one round; UP lasted until the bandwidth plateaued (3 rounds without
    // 25 % growth, the first counted at UP's first round end).
    let cruise = seen[1].3 - seen[0].3;
    assert!(
        cruise >= Time::from_millis(1900) && cruise <= Time::from_secs(3),
        "{cruise:?}"
    );
    let refill = seen[2].3 - seen[1].3;
    assert!(refill <= Time::from_millis(101), "{refill:?}");
    let up = seen[3].3 - seen[2].3;
    assert!(
        up > Time::from_millis(200) && up <= Time::from_millis(301),
        "{up:?}"
    );
}

#[test]
fn loss_above_two_percent_while_probing_cuts_inflight_hi_and_ends_the_probe() {
    let (mut cc, mut p) = probing_up();
    // 2 lost of 120 in flight: 1.7 %, below 2 %: nothing happens.
    p.rs_lost = 2 * MSS;
    p.tick(&mut cc, 120 * MSS, false);
    assert_eq!(cc.inflight_hi(), None);
    assert_eq!(cc.state(), State::ProbeBwUp);
    // 3 lost of 120: 2.5 % > 2 %. inflight_hi = max(tx_in_flight = 120 packets,
    // beta · target_inflight) with target = min(BDP (at least 3 quanta) + 2 in UP, cwnd)
    // = 102 packets: 0.7 · 102 = 71.4 packets, so 120 packets.
    p.rs_lost = 3 * MSS;
    p.tick(&mut cc, 120 * MSS, false);
    assert_eq!(cc.inflight_hi(), Some(120 * MSS));
    assert_eq!(cc.state(), State::ProbeBwDown);
    assert!(cc.prev_probe_too_high);
    // Once per probe: later lossy samples do not cut it again.
    p.tick(&mut cc, 60 * MSS, false);
    assert_eq!(cc.inflight_hi(), Some(120 * MSS));
    // The cap applies in DOWN: cwnd ≤ inflight_hi.
    assert!(cc.control().cwnd.unwrap() <= 120 * MSS);
}

#[test]
fn inflight_hi_floor_is_beta_times_the_target_inflight() {
    let (mut cc, mut p) = probing_up();
    // A sample whose packet left with only 50 packets in flight lost 5 (10 %):
    // inflight_hi = max(50, 0.7 · min(102, cwnd)) packets = 71.4 packets.
    let target = cc.target_inflight();
    assert_eq!(target, 102 * MSS);
    p.rs_lost = 5 * MSS;
    p.tick(&mut cc, 50 * MSS, false);
    let hi = cc.inflight_hi().unwrap();
    assert!((71_399..=71_400).contains(&hi), "{hi}");
}

/// CRUISE after a round with 90 packets (below the BDP) in flight.
fn cruising(cfg: &Bbr3Config) -> (Bbr3, Path) {
    let mut cc = bbr3(cfg);
    let mut p = Path::new(100);
    into_probe_bw(&mut cc, &mut p);
    p.round(&mut cc, 100, mbps8(), 90 * MSS);
    assert_eq!(cc.state(), State::ProbeBwCruise);
    (cc, p)
}

#[test]
fn lossy_rounds_outside_probing_cut_bw_lo_and_inflight_lo_by_beta() {
    let (mut cc, mut p) = cruising(&Bbr3Config {
        extra_acked_gain: 0.0,
        ..Bbr3Config::default()
    });
    let cwnd = cc.control().cwnd.unwrap();
    // The network delivers half the rate for a round, then a round loses a packet: at the
    // end of the loss round, bw_lo = max(bw_latest = 0.5, 0.7 · max_bw) = 0.7 MB/s and
    // inflight_lo = max(inflight_latest = 50 packets, 0.7 · cwnd).
    p.round(&mut cc, 100, rate(5e5), 90 * MSS);
    assert_eq!(cc.bw(), mbps8());
    p.lost_per_round = MSS;
    p.round(&mut cc, 100, rate(5e5), 90 * MSS);
    p.lost_per_round = 0;
    p.round(&mut cc, 1, rate(5e5), 90 * MSS);
    assert!((cc.bw().bytes_per_sec() - 7e5).abs() < 1.0, "{:?}", cc.bw());
    assert_eq!(cc.inflight_lo(), Some((cwnd as f64 * 0.7) as Bytes));
    // Pacing follows bw = min(max_bw, bw_lo).
    let pacing = cc.control().pacing_rate.unwrap().bytes_per_sec();
    assert!((pacing - 7e5 * 0.99).abs() < 1.0, "{pacing}");
    assert!(cc.control().cwnd.unwrap() <= (cwnd as f64 * 0.7) as Bytes);
}

#[test]
fn ecn_marks_end_startup_after_two_rounds_and_cut_inflight_lo_by_alpha() {
    // ECN is used at any RTT for this test (Linux: only below 5 ms), and marks in CRUISE
    // do not trigger Google's immediate re-probe (tested below).
    let cfg = Bbr3Config {
        ecn_max_rtt_ms: 0,
        ecn_reprobe_gain: 0.0,
        extra_acked_gain: 0.0,
        ..Bbr3Config::default()
    };
    let mut cc = bbr3(&cfg);
    let mut p = Path::new(100);
    for bw in [1.25e5, 2.5e5, 5e5] {
        p.round(&mut cc, 100, rate(bw), 100 * MSS);
    }
    assert_eq!(cc.state(), State::Startup);
    assert!(cc.ecn.eligible);
    // Two rounds with 60 % of packets CE-marked (≥ 50 %): STARTUP ends when the second
    // round's ratio is known, on the first ACK of the following round.
    p.ce_fraction = 0.6;
    p.rounds(&mut cc, 2, 100, rate(1e6), 100 * MSS);
    assert_eq!(cc.state(), State::Startup);
    p.ce_fraction = 0.0;
    p.round(&mut cc, 100, rate(1e6), 100 * MSS);
    assert_ne!(cc.state(), State::Startup);
    // alpha = EWMA(1/16) of the CE ratio of rounds 1..5 (ECN is eligible from round 2 on,
    // which closes round 1): 1 → 0.9375 → 0.87890625 → 0.823974609375 → (0.6)
    // 0.809976196289 → (0.6) 0.796852684021.
    assert!(
        (cc.ecn.alpha - 0.796852684021).abs() < 1e-9,
        "{}",
        cc.ecn.alpha
    );
    assert!(cc.inflight_hi().is_some());
    // In CRUISE, a marked round cuts inflight_lo to cwnd · (1 − alpha/3).
    while cc.state() != State::ProbeBwCruise {
        p.round(&mut cc, 100, mbps8(), 80 * MSS);
    }
    let cwnd = cc.control().cwnd.unwrap();
    let alpha_before = cc.ecn.alpha;
    p.ce_fraction = 0.1;
    p.round(&mut cc, 100, mbps8(), 80 * MSS);
    // The round's marks are seen on its ACKs; the loss-round boundary (the next round's
    // first ACK) applies the cut with alpha as updated at that boundary.
    p.ce_fraction = 0.0;
    p.round(&mut cc, 1, mbps8(), 80 * MSS);
    // Two rounds closed since `alpha_before`: the unmarked one before, then the 10 % one.
    let alpha = 15.0 / 16.0 * (15.0 / 16.0 * alpha_before) + 0.1 / 16.0;
    assert!((cc.ecn.alpha - alpha).abs() < 1e-12);
    let expect = (cwnd as f64 * (1.0 - alpha / 3.0)) as Bytes;
    assert_eq!(cc.inflight_lo(), Some(expect));
}

#[test]
fn ecn_marks_in_cruise_without_loss_trigger_an_immediate_reprobe() {
    let (mut cc, mut p) = cruising(&Bbr3Config {
        ecn_max_rtt_ms: 0,
        ..Bbr3Config::default()
    });
    // A mark on the round's last ACK: the next ACK refills (Google's ecn_reprobe_gain),
    // long before the 2-3 s probe timer.
    p.ce_fraction = 0.01;
    p.round(&mut cc, 100, mbps8(), 90 * MSS);
    p.ce_fraction = 0.0;
    assert_eq!(cc.state(), State::ProbeBwCruise);
    p.round(&mut cc, 1, mbps8(), 90 * MSS);
    assert_eq!(cc.state(), State::ProbeBwRefill);
}

#[test]
fn ecn_is_ignored_on_long_paths_by_default() {
    let mut cc = bbr3(&Bbr3Config::default());
    let mut p = Path::new(100);
    // Every packet CE-marked while the rate doubles: at 100 ms (above Linux's 5 ms limit)
    // the marks neither end STARTUP nor count.
    p.ce_fraction = 1.0;
    for bw in [1.25e5, 2.5e5, 5e5, 1e6] {
        p.round(&mut cc, 100, rate(bw), 100 * MSS);
    }
    assert!(!cc.ecn.eligible);
    assert_eq!(cc.state(), State::Startup);
    assert_eq!(cc.inflight_hi(), None);
}

#[test]
fn probe_rtt_every_five_seconds_at_half_the_bdp() {
    let (mut cc, mut p) = probe_bw_without_aggregation();
    // Equal samples do not refresh the PROBE_RTT clock in v3: 5 s after the first (and
    // lowest) sample, on the first ACK at 1 ms, PROBE_RTT.
    let last_min = Time::from_millis(1);
    while p.h.now + p.rtt <= last_min + Time::from_secs(5) {
        p.round(&mut cc, 100, mbps8(), 100 * MSS);
        assert_ne!(cc.state(), State::ProbeRtt, "at {:?}", p.h.now);
    }
    p.round(&mut cc, 100, mbps8(), 100 * MSS);
    assert_eq!(cc.state(), State::ProbeRtt);
    // cwnd = BDP/2 = 50 packets (at least 4).
    assert_eq!(cc.control().cwnd, Some(50 * MSS));
    // 200 ms and a round at ≤ 50 packets in flight, then CRUISE.
    p.rounds(&mut cc, 2, 50, mbps8(), 50 * MSS);
    assert_eq!(cc.state(), State::ProbeRtt);
    p.rounds(&mut cc, 2, 50, mbps8(), 50 * MSS);
    assert_eq!(cc.state(), State::ProbeBwCruise);
    assert!(cc.control().cwnd.unwrap() > 50 * MSS);
}

#[test]
fn reports_state_bw_and_min_rtt() {
    let mut cc = bbr3(&Bbr3Config::default());
    let mut p = Path::new(100);
    into_probe_bw(&mut cc, &mut p);
    let s = cc.snapshot();
    assert_eq!(s.state, "probe_bw_cruise");
    assert_eq!(s.bw_estimate, Some(mbps8()));
    assert_eq!(s.min_rtt, Some(Time::from_millis(100)));
    assert_eq!(cc.name(), "bbr3");
    assert!(cc.control().pacing_rate.is_some());
}
