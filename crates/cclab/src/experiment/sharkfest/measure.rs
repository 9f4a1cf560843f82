//! The talk's tests as runs: for one algorithm and one seed, each of its flowgrind commands
//! (slide "Used flowgrind commands") on its bottleneck, reduced to the figures the tables and
//! claims use.
//!
//! The links: the talk's testbed is 40 Mbit/s with a 100 ms RTT ("NewReno on 40Mbps_100ms
//! link"); Scalable against NewReno is shown on 20 Mbit/s, 100 ms ("20Mbps, 100ms link") and
//! Compound on 20 Mbit/s, 200 ms ("Link: 20mpbs, 200ms RTT"). The talk does not give the
//! emulator's buffer; we give every link one BDP of drop-tail buffer.
//!
//! Packets on the wire: the talk's collateral-damage slides divide by the packet count of a
//! Wireshark capture of eth0, which holds both directions. We count both directions once: data
//! packets sent (retransmissions included) plus ACKs, one per data packet that reached the
//! receiver (our receiver acknowledges every segment). The talk's totals turn out to be twice
//! that; [`super::talk`] says what that does and does not tell.

use super::super::readings::{goodput_between, second_half_share};
use super::super::run_one;
use crate::UserError;
use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, LinkConfig, LossSpec, QueueLimit, RunResult, SimConfig};
use std::path::Path;

/// A bottleneck: rate and every flow's base RTT.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub mbps: f64,
    pub rtt_ms: u64,
}

/// The talk's testbed.
pub const TESTBED: Link = Link { mbps: 40.0, rtt_ms: 100 };
/// "Scalable vs NewReno ... 20Mbps, 100ms link".
pub const SCALABLE_LINK: Link = Link { mbps: 20.0, rtt_ms: 100 };
/// Compound's slide: "Link: 20mpbs, 200ms RTT".
pub const COMPOUND_LINK: Link = Link { mbps: 20.0, rtt_ms: 200 };
/// A link that is not long and fat, for Compound's "Coexistence with Reno on non-LFN links":
/// 80 kbit in flight, under RFC 1072's 100 kbit.
pub const NON_LFN_LINK: Link = Link { mbps: 10.0, rtt_ms: 8 };

/// The "Regular 1-stream probe": `flowgrind ... -T s=60`.
pub const ALONE_S: u64 = 60;

impl Link {
    /// The bandwidth-delay product in full-sized segments (1500-byte frames).
    pub fn bdp_segments(&self) -> f64 {
        self.mbps * 1e6 * self.rtt_ms as f64 / 1e3 / (1500.0 * 8.0)
    }

    pub fn label(&self) -> String {
        format!("{} Mbit/s, {} ms", self.mbps, self.rtt_ms)
    }

    pub(super) fn flows(&self, algorithms: &[&str]) -> Vec<FlowConfig> {
        algorithms.iter().map(|cc| FlowConfig::new(CcConfig::from_name(cc).expect("known algorithm"), Time::from_millis(self.rtt_ms))).collect()
    }

    pub(super) fn config(&self, flows: Vec<FlowConfig>, secs: u64, loss: f64, seed: u64) -> SimConfig {
        SimConfig {
            seed,
            duration: Time::from_secs(secs),
            sample_interval: Some(Time::from_millis(500)),
            link: LinkConfig {
                rate: Rate::from_bits_per_sec(self.mbps * 1e6),
                buffer: QueueLimit::Bdp(1.0),
                netem: sim::Netem { loss: if loss > 0.0 { LossSpec::Random { p: loss, correlation: 0.0 } } else { LossSpec::None }, ..Default::default() },
                ..LinkConfig::default()
            },
            flows,
        }
    }

    /// `cc` alone for `secs` under random loss `loss`.
    pub fn alone(&self, cc: &str, secs: u64, loss: f64, seed: u64, dir: &Path) -> Result<RunResult, UserError> {
        run_one(self.config(self.flows(&[cc]), secs, loss, seed), dir)
    }

    /// `cc` against one `rival` flow for `secs` (the talk's "vs. Reno Friendliness", `-n 2`):
    /// `cc`'s share of the two flows' goodput over the second half.
    pub fn share_against(&self, cc: &str, rival: &str, secs: u64, seed: u64, dir: &Path) -> Result<f64, UserError> {
        let r = run_one(self.config(self.flows(&[cc, rival]), secs, 0.0, seed), dir)?;
        Ok(second_half_share(&r))
    }
}

/// One flow alone on a link whose buffer is 1 % of the BDP, so that every RTT stays within 1 %
/// of the base RTT that the talk's recovery times assume. The flow is paced (as Linux with the
/// fq qdisc): unpaced, slow start's line-rate bursts overflow so small a buffer at a tenth of
/// the BDP. Its cwnd is sampled every 10 ms. Lossless and drop-tail, so the run is the same on
/// every seed.
pub fn recovery_run(cc: &str, link: Link, secs: u64, dir: &Path) -> Result<RunResult, UserError> {
    let mut cfg = link.config(link.flows(&[cc]), secs, 0.0, 1);
    cfg.flows[0].sender.pace_window = true;
    cfg.link.buffer = QueueLimit::Bdp(0.01);
    cfg.sample_interval = Some(Time::from_millis(10));
    run_one(cfg, dir)
}

/// Flow 0's samples, in time order (none without a time series).
pub(super) fn flow0(r: &RunResult) -> Vec<&sim::results::FlowSample> {
    r.series.as_ref().map_or(Vec::new(), |s| s.flows.iter().filter(|f| f.flow == 0).collect())
}

/// "Recovery time after packet loss": for each loss recovery of the first flow but the first
/// (the slow-start overshoot, a window the path never carried), the time from the recovery's
/// end (cwnd at ssthresh) to the window regaining its largest value before that loss, read off
/// the sampled cwnd (to one sample interval), to within one segment: the path drops at the same
/// window each cycle (BDP plus buffer), but the loss is seen up to an RTT after the drop, in
/// which Reno may have added its one segment, so the largest sample before one loss can exceed
/// the window at the next by one. A recovery whose window is not regained before the next loss
/// or the run's end gives none.
pub fn recovery_times(r: &RunResult) -> Vec<f64> {
    /// One segment, the growth per RTT of Reno's congestion avoidance.
    const REGAIN_SLACK_SEGMENTS: f64 = 1.0;
    let samples = flow0(r);
    let in_recovery = |i: usize| samples[i].state == "recovery";
    let mut times = Vec::new();
    let (mut peak, mut recoveries, mut i) = (0.0f64, 0, 0);
    while i < samples.len() {
        if !in_recovery(i) {
            peak = peak.max(samples[i].cwnd.unwrap_or(0.0));
            i += 1;
            continue;
        }
        while i < samples.len() && in_recovery(i) {
            i += 1;
        }
        recoveries += 1;
        if recoveries > 1 && i < samples.len() {
            let exit = samples[i].time;
            let regained = (i..samples.len()).take_while(|&j| !in_recovery(j)).find(|&j| samples[j].cwnd.is_some_and(|c| c >= peak - REGAIN_SLACK_SEGMENTS));
            times.extend(regained.map(|j| samples[j].time - exit));
        }
        peak = 0.0;
    }
    times
}

/// The talk's BBR capture (`bbr_10mbit_80ms.pcapng`): BBR alone on 10 Mbit/s, 80 ms, a BDP
/// of buffer, 35 s (three ProbeRTTs), sampled every 10 ms: an eighth of its 80 ms phases.
pub const BBR_LINK: Link = Link { mbps: 10.0, rtt_ms: 80 };

pub fn bbr_cycle_run(cc: &str, seed: u64, dir: &Path) -> Result<RunResult, UserError> {
    let mut cfg = BBR_LINK.config(BBR_LINK.flows(&[cc]), 35, 0.0, seed);
    cfg.sample_interval = Some(Time::from_millis(10));
    run_one(cfg, dir)
}

/// BBR's phases as its sampled state and pacing rate show them.
#[derive(Clone, Debug, Default)]
pub struct BbrCycle {
    /// Between successive ProbeRTT entries, seconds.
    pub probe_rtt_every: Vec<f64>,
    /// How long each ProbeRTT lasted, seconds (to one sample).
    pub probe_rtt_for: Vec<f64>,
    /// How long each ProbeRTT held its flight at cwnd, from the first sample drained to it to
    /// the phase's end, seconds (to one sample).
    pub probe_rtt_held: Vec<f64>,
    /// The largest cwnd sampled in ProbeRTT once inflight had drained to it, segments.
    pub probe_rtt_cwnd: f64,
    /// Goodput over each ProbeRTT, from the sample before it to its last (Mbit/s).
    pub probe_rtt_goodput: Vec<f64>,
    /// ProbeBW's pacing rate in its up and down phases over its cruising rate (the median).
    pub gain_up: f64,
    pub gain_down: f64,
    /// Between successive up phases, in minimum RTTs.
    pub probe_every_rtts: Vec<f64>,
    /// How long each up and each down phase lasted, in minimum RTTs (to one sample; phases
    /// cut by the start or end of a ProbeBW run are left out).
    pub up_for_rtts: Vec<f64>,
    pub down_for_rtts: Vec<f64>,
    /// Inflight (packets) at each such up phase's first and last sample.
    pub up_inflight: Vec<(f64, f64)>,
    /// The bottleneck's queue (packets) at Drain's first sample and at the first sample after
    /// it: what Startup left, and what Drain left of it.
    pub drain_queue: Option<(f64, f64)>,
}

pub(super) fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    if xs.is_empty() {
        f64::NAN
    } else {
        xs[xs.len() / 2]
    }
}

/// Reads [`BbrCycle`] off flow 0's samples: ProbeRTT is its `probe_rtt` runs; in each run of
/// `probe_bw` samples the cruising rate is the median pacing rate, an up phase a sample above
/// 1.1 times it and a down phase one below 0.9 times it.
pub fn bbr_cycle(r: &RunResult) -> BbrCycle {
    let samples = flow0(r);
    if samples.is_empty() {
        return BbrCycle::default();
    }
    let step = samples.windows(2).next().map_or(0.0, |w| w[1].time - w[0].time);
    let min_rtt_s = r.summary.flows[0].rtt_ms.min / 1e3;
    let mut c = BbrCycle::default();
    let (mut up, mut down) = (Vec::new(), Vec::new());
    let mut probe_rtt_starts = Vec::new();
    let mut i = 0;
    while i < samples.len() {
        let state = samples[i].state;
        let j = (i..samples.len()).find(|&j| samples[j].state != state).unwrap_or(samples.len());
        let run = &samples[i..j];
        if state == "drain" && c.drain_queue.is_none() {
            let queue_at = |t: f64| r.series.as_ref().and_then(|s| s.link.iter().find(|l| l.time >= t - 1e-9)).map(|l| l.queue_packets as f64);
            c.drain_queue = queue_at(run[0].time).zip(samples.get(j).and_then(|after| queue_at(after.time)));
        } else if state == "probe_rtt" {
            probe_rtt_starts.push(run[0].time);
            if let Some(before) = i.checked_sub(1).map(|b| &samples[b]) {
                let last = &run[run.len() - 1];
                c.probe_rtt_goodput.push((last.delivered_bytes - before.delivered_bytes) as f64 * 8.0 / (last.time - before.time) / 1e6);
            }
            c.probe_rtt_for.push(run[run.len() - 1].time - run[0].time + step);
            let drained = run.iter().filter(|s| s.cwnd.is_some_and(|w| s.inflight as f64 <= w));
            if let Some(first) = drained.clone().next() {
                c.probe_rtt_held.push(run[run.len() - 1].time - first.time + step);
            }
            c.probe_rtt_cwnd = drained.filter_map(|s| s.cwnd).fold(c.probe_rtt_cwnd, f64::max);
        } else if state == "probe_bw" {
            let cruise = median(run.iter().filter_map(|s| s.pacing_rate_mbps).collect());
            let mut last_up = None::<f64>;
            // The phase under way (+1 up, -1 down, 0 cruising), from which sample.
            let mut phase = (0i8, 0usize);
            for (k, s) in run.iter().enumerate() {
                let Some(rate) = s.pacing_rate_mbps else { continue };
                let now = if rate > 1.1 * cruise { 1 } else if rate < 0.9 * cruise { -1 } else { 0 };
                if now != phase.0 {
                    let lasted = (k - phase.1) as f64 * step / min_rtt_s;
                    match phase {
                        (1, from) if from > 0 => {
                            c.up_for_rtts.push(lasted);
                            c.up_inflight.push((run[from].inflight as f64, run[k - 1].inflight as f64));
                        }
                        (-1, from) if from > 0 => c.down_for_rtts.push(lasted),
                        _ => {}
                    }
                    phase = (now, k);
                }
                if rate > 1.1 * cruise {
                    up.push(rate / cruise);
                    let starts = k == 0 || run[k - 1].pacing_rate_mbps.is_some_and(|p| p <= 1.1 * cruise);
                    if starts {
                        if let Some(t) = last_up {
                            c.probe_every_rtts.push((s.time - t) / min_rtt_s);
                        }
                        last_up = Some(s.time);
                    }
                } else if rate < 0.9 * cruise {
                    down.push(rate / cruise);
                }
            }
        }
        i = j;
    }
    c.probe_rtt_every = probe_rtt_starts.windows(2).map(|w| w[1] - w[0]).collect();
    c.gain_up = median(up);
    c.gain_down = median(down);
    c
}

/// The first flow's retransmissions after `after` seconds, from the time series.
/// The queueing delay over the run's last `span` seconds: the mean of the flow's smoothed RTT
/// in the samples there, less the smallest RTT it measured (the path's own, with a packet's
/// transmission).
fn queueing_over_last(r: &RunResult, span: f64) -> f64 {
    let series = &r.series.as_ref().expect("time series").flows;
    let from = r.summary.sim_time_s - span;
    let rtts: Vec<f64> = series.iter().filter(|s| s.flow == 0 && s.time > from).filter_map(|s| s.rtt_ms).collect();
    crate::stats::mean(&rtts) - r.summary.flows[0].rtt_ms.min
}

/// The span at the end of the run alone over which [`Row::settled_queueing_ms`] is read.
pub const SETTLED_LAST_S: f64 = 10.0;

fn late_retransmits(r: &RunResult, after: f64) -> f64 {
    let series = &r.series.as_ref().expect("time series").flows;
    let at = |t: f64| series.iter().filter(|s| s.flow == 0 && s.time <= t + 1e-9).last().map_or(0, |s| s.retr);
    (at(r.summary.sim_time_s) - at(after)) as f64
}

/// Data packets and ACKs on the wire: what a capture of both directions counts.
pub fn wire_packets(r: &RunResult) -> f64 {
    (r.summary.accounting.sent + r.summary.accounting.delivered) as f64
}

/// One algorithm's figures on one seed.
#[derive(Clone, Debug)]
pub struct Row {
    pub goodput_alone: f64,
    pub rtt_p95_ms: f64,
    pub utilisation: f64,
    /// Buffer-overflow events in the 60 s run alone, as the link counts them (drops closer
    /// than a full buffer's drain time are one event).
    pub overflow_events: f64,
    /// Loss-recovery episodes of the sender in that run: one burst of retransmissions each,
    /// what an IO graph of a capture shows as one spike.
    pub loss_episodes: f64,
    /// Retransmissions after the first 5 s of that run: losses once start-up is over.
    pub late_retransmits: f64,
    /// Data + ACK packets in that run.
    pub wire_packets: f64,
    pub rtt_ms: f64,
    /// The queueing delay over the last [`SETTLED_LAST_S`] of the run alone (ms).
    pub settled_queueing_ms: f64,
    pub jain5: f64,
    pub reno_share: f64,
    pub jain_staggered: f64,
    pub goodput_1pct: f64,
    pub variable_utilisation: f64,
    pub rtt_share: f64,
}

/// The talk's convergence test starts its five flows this many seconds apart (fast mode
/// divides it by the same factor as the runs' lengths).
pub const STAGGER_S: u64 = 10;

/// Every test of the talk for `cc` on `seed`; `fast` runs the multi-flow tests for a third
/// of their length (the 60 s run alone and the lossy run keep the talk's length, so that
/// event counts compare). The convergence run is returned for plotting.
pub fn measure(cc: &str, seed: u64, fast: bool, out: &Path) -> Result<(Row, RunResult), UserError> {
    let k = if fast { 3 } else { 1 };
    let dir = |t: &str| out.join(cc).join(format!("seed-{seed}")).join(t);
    let l = TESTBED;
    let alone = l.alone(cc, ALONE_S, 0.0, seed, &dir("alone"))?;
    let five = run_one(l.config(l.flows(&[cc; 5]), 90 / k, 0.0, seed), &dir("five"))?;
    let reno_share = l.share_against(cc, "reno", 90 / k, seed, &dir("vs-reno"))?;
    let mut staggered = l.flows(&[cc; 5]);
    for (i, f) in staggered.iter_mut().enumerate() {
        f.start = Time::from_secs(STAGGER_S * i as u64 / k);
        f.stop = Some(f.start + Time::from_secs((100 - 20 * i as u64) / k));
    }
    let conv = run_one(l.config(staggered, 100 / k, 0.0, seed), &dir("convergence"))?;
    let lossy = l.alone(cc, ALONE_S, 0.01, seed, &dir("loss-1pct"))?;
    // The talk's variable link (slide "Convergence (1 stream)": 5 / 2.5 Mbit/s); it gives no
    // period, we alternate every 10 s.
    let mut variable = l.config(l.flows(&[cc]), 60 / k, 0.0, seed);
    variable.link.rate = Rate::from_bits_per_sec(5e6);
    variable.link.schedule = (1..6).map(|i| (Time::from_secs(10 * i / k), Rate::from_bits_per_sec(if i % 2 == 1 { 2.5e6 } else { 5e6 }))).collect();
    let var = run_one(variable, &dir("variable"))?;
    let mut rtt_cfg = l.config(l.flows(&[cc, cc]), 90 / k, 0.0, seed);
    rtt_cfg.flows[0].rtt = Time::from_millis(50);
    rtt_cfg.flows[1].rtt = Time::from_millis(200);
    let rtt = run_one(rtt_cfg, &dir("rtt-fairness"))?;
    let (s, e) = (40.0 / k as f64, 60.0 / k as f64);
    let row = Row {
        goodput_alone: alone.summary.flows[0].goodput_bps,
        rtt_p95_ms: alone.summary.flows[0].rtt_ms.p95,
        utilisation: alone.summary.link.utilization,
        overflow_events: alone.summary.link.overflow_events as f64,
        loss_episodes: alone.summary.flows[0].loss_episodes as f64,
        late_retransmits: late_retransmits(&alone, 5.0),
        wire_packets: wire_packets(&alone),
        rtt_ms: alone.summary.flows[0].rtt_ms.mean,
        settled_queueing_ms: queueing_over_last(&alone, SETTLED_LAST_S),
        jain5: sim::jain_index(&goodput_between(&five, five.summary.sim_time_s / 2.0, five.summary.sim_time_s)),
        reno_share,
        jain_staggered: sim::jain_index(&goodput_between(&conv, s, e)),
        goodput_1pct: lossy.summary.flows[0].goodput_bps,
        variable_utilisation: var.summary.link.utilization,
        rtt_share: second_half_share(&rtt),
    };
    Ok((row, conv))
}
