//! What a run produces: the summary (per flow, per link, fairness) and the time series.

use crate::config::SimConfig;
use crate::link::{Bottleneck, LinkStats};
use cc::Time;
use crate::sim::Simulation;
use crate::stats::{jain_index, Histogram};
use serde::{Deserialize, Serialize};

/// min / mean / p95 / max of a distribution, in the unit the field's name gives.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dist {
    pub min: f64,
    pub mean: f64,
    pub p95: f64,
    pub max: f64,
}

impl Dist {
    pub fn from_hist(h: &Histogram, scale: f64) -> Dist {
        Dist {
            min: h.min() as f64 * scale,
            mean: h.mean() * scale,
            p95: h.quantile(0.95) as f64 * scale,
            max: h.max() as f64 * scale,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowSummary {
    pub id: u32,
    pub cc: String,
    pub start_s: f64,
    pub end_s: f64,
    /// Payload bits per second transmitted, retransmissions included (the TCP-SACK seed's
    /// "throughput").
    pub throughput_bps: f64,
    /// Payload bits per second delivered, each byte once (the seed's "goodput").
    pub goodput_bps: f64,
    /// goodput / throughput.
    pub efficiency: f64,
    pub bytes_sent: u64,
    pub bytes_delivered: u64,
    pub segments_sent: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    /// Of `timeouts`, those that fired with no loss known yet (TCP's Open state): lost tails,
    /// which tail loss probes repair.
    #[serde(default)]
    pub tail_timeouts: u64,
    pub loss_episodes: u64,
    pub rtt_ms: Dist,
    /// When a sized transfer was fully acknowledged (flow completion time from its start).
    pub completion_time_s: Option<f64>,
    /// Payload a misbehaving receiver acknowledged but never received (optimistic ACKing's
    /// cost; absent, and zero, for honest receivers).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub app_lost_bytes: u64,
    /// The attack a misbehaving receiver mounts (`ack-division`, `dup-ack-spoofing`,
    /// `optimistic-ack`); absent for honest receivers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receiver_attack: Option<String>,
    /// The start-up when it is not the controller's own (`paced-chirping`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup: Option<String>,
    /// Lost packet numbers a rate-based sender counted toward its loss rate (SABUL's ERR
    /// count, which a 2003 sender inflates with re-reports: seed 001's "can double the apparent
    /// error rate"); absent, and zero, for TCP and protocols that count none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub losses_counted: u64,
    /// A rate-based sender's rate-control intervals (SABUL's SYN periods); absent, and zero,
    /// for TCP.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rate_intervals: u64,
    /// Of those, the intervals whose counted losses outnumbered the packets sent, where the
    /// 2003 SABUL code sets the loss rate to 1 and logs a rate above the rate sent (seed 001:
    /// "When the number of packets sent is less than the number of error packets, SABUL sender
    /// sets the loss rate to one").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub intervals_errs_exceed_sent: u64,
    /// Packets those intervals logged as sent beyond the ones really sent.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub packets_logged_unsent: u64,
    /// Rate decreases a loss report drove rather than the rate-control timer (SABUL's Gen-B:
    /// +b after more than V = 10 reports since the last change); absent for TCP.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub err_decreases: u64,
    /// The receiver's periodic re-reports of missing numbers (SABUL's ERR timer: seed 001's
    /// "periodically every 1.5 * RTT"), one per number re-sent; absent, and zero, for TCP and
    /// for protocols without them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub loss_rereports: u64,
    /// Their mean interval since the number's previous report, ms; absent without re-reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rereport_interval_ms: Option<f64>,
    /// The most retransmissions TCP's fast recovery sent in one round trip: several with SACK,
    /// one per partial ACK without it (seed 003: "more than one packet per RTT during fast
    /// recovery"); absent, and zero, where fast recovery never retransmitted.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub recovery_retransmits_max_per_round: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkSummary {
    /// Mean capacity over the run.
    pub capacity_bps: f64,
    /// Wire bytes forwarded / bytes the link could carry.
    pub utilization: f64,
    pub packets_forwarded: u64,
    /// The queue discipline.
    pub queue: String,
    /// All drops: queue overflows, AQM drops, random (netem) losses, listed and policed drops.
    pub drops: u64,
    pub overflow_drops: u64,
    pub aqm_drops: u64,
    pub random_drops: u64,
    /// Drops the link's drop list asked for (`link.drop_packets`).
    pub listed_drops: u64,
    /// Drops by the token-bucket policer (`link.policer`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub policed_drops: u64,
    pub ecn_marks: u64,
    /// Buffer-overflow episodes: overflow drops closer together than the time to drain a full
    /// buffer count once.
    pub overflow_events: u64,
    /// The talk's collateral damage: buffer-overflow events per million packets offered.
    pub overflow_events_per_mpkt: f64,
    pub queue_delay_ms: Dist,
    /// `mean` is the time average; `p95` and `max` as seen by arriving packets.
    pub queue_packets: Dist,
    pub queue_limit_packets: Option<u64>,
    pub queue_limit_bytes: Option<u64>,
}

impl LinkSummary {
    /// The summary of a bottleneck's counters over a run of `cfg.duration`.
    pub fn from_stats(cfg: &SimConfig, s: &LinkStats) -> LinkSummary {
        let dur_ns = cfg.duration.0 as f64;
        let (lp, lb) = cfg.queue_limit();
        LinkSummary {
            capacity_bps: s.capacity_bytes * 8.0 / cfg.duration.as_secs_f64(),
            utilization: if s.capacity_bytes > 0.0 { s.forwarded_wire_bytes as f64 / s.capacity_bytes } else { 0.0 },
            packets_forwarded: s.forwarded,
            queue: cfg.link.qdisc.name().to_string(),
            drops: s.drops(),
            overflow_drops: s.overflow_drops,
            aqm_drops: s.aqm_drops,
            random_drops: s.random_drops,
            listed_drops: s.listed_drops,
            policed_drops: s.policed_drops,
            ecn_marks: s.ecn_marks,
            overflow_events: s.overflow_events,
            overflow_events_per_mpkt: if s.arrivals > 0 { s.overflow_events as f64 * 1e6 / s.arrivals as f64 } else { 0.0 },
            queue_delay_ms: Dist::from_hist(&s.queue_delay_us, 1e-3),
            queue_packets: Dist {
                min: s.queue_len_seen.min() as f64,
                mean: s.queue_area / dur_ns,
                p95: s.queue_len_seen.quantile(0.95) as f64,
                max: s.max_queue_packets as f64,
            },
            queue_limit_packets: (lp != u64::MAX).then_some(lp),
            queue_limit_bytes: (lb != u64::MAX).then_some(lb),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub seed: u64,
    pub sim_time_s: f64,
    /// Filled in by whoever timed the run (not part of the deterministic output).
    pub wall_time_s: f64,
    /// Events processed.
    pub events: u64,
    /// Packets offered to the bottleneck.
    pub packets: u64,
    /// Jain's index of the flows' goodputs over the window in which all of them run.
    pub jain_index: f64,
    pub fairness_window_s: [f64; 2],
    pub flows: Vec<FlowSummary>,
    pub link: LinkSummary,
    pub accounting: Accounting,
}

/// Conservation of data packets: `sent = delivered + dropped + in_network` at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accounting {
    /// Data packets the senders transmitted (retransmissions included).
    pub sent: u64,
    /// Data packets that reached a receiver (duplicates included).
    pub delivered: u64,
    pub dropped: u64,
    /// Still queued, in service or propagating when the run ended.
    pub in_network: u64,
}

/// One time-series row per flow per interval; columns after flowgrind's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FlowSample {
    pub time: f64,
    pub flow: u32,
    /// Segments.
    pub cwnd: Option<f64>,
    pub ssthresh: Option<f64>,
    pub inflight: u64,
    pub sacked: u64,
    pub lost: u64,
    /// Retransmissions so far.
    pub retr: u64,
    /// Latest RTT sample, ms.
    #[serde(rename = "rtt")]
    pub rtt_ms: Option<f64>,
    #[serde(rename = "rttvar")]
    pub rttvar_ms: f64,
    #[serde(rename = "rto")]
    pub rto_ms: f64,
    pub state: &'static str,
    /// Mbit/s.
    #[serde(rename = "pacing_rate")]
    pub pacing_rate_mbps: Option<f64>,
    /// Sent (retransmissions included) over the last interval, Mbit/s.
    #[serde(rename = "throughput")]
    pub throughput_mbps: f64,
    /// Delivered over the last interval, Mbit/s.
    #[serde(rename = "goodput")]
    pub goodput_mbps: f64,
    pub delivered_bytes: u64,
    /// TCP's loss-recovery state, flowgrind's "ca state" column (Linux's `tcp_ca_state`:
    /// open, cwr, recovery, loss); empty for datagram flows.
    pub ca_state: Option<&'static str>,
    /// Segments sent and not yet cumulatively acknowledged, `snd_nxt − snd_una` (Linux's
    /// `tcpi_unacked`, flowgrind's "uack", `ss -i`'s "unacked"): the window in use, counting
    /// what is SACKed, lost or in flight; 0 for datagram flows.
    pub unacked: u64,
    /// Retransmitted segments not yet acknowledged (Linux's `tcpi_retrans`, flowgrind's
    /// "retr"; `retr` above is flowgrind's "tret", every retransmission so far).
    pub retrans_out: u64,
    /// Timeouts since the last RTT sample, each doubling the RTO (Linux's `tcpi_backoff`,
    /// flowgrind's "bkof").
    pub backoff: u32,
    /// The path's reordering degree in segments, DupThresh with SACK (Linux's
    /// `tcpi_reordering`, flowgrind's "reor"; 3 until reordering is seen); 0 for datagram flows.
    pub reordering: u64,
    /// The sending rate the sender itself last measured and logged, Mbit/s: SABUL's packets
    /// counted as sent over its last rate-control interval (seed 001's "measured sending
    /// rate"); empty for TCP and for protocols that log none.
    #[serde(rename = "logged_rate")]
    pub logged_rate_mbps: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinkSample {
    pub time: f64,
    pub rate_mbps: f64,
    pub queue_packets: u64,
    pub queue_bytes: u64,
    /// Time the current backlog takes to drain at the current rate.
    pub queue_delay_ms: f64,
    /// Drops so far.
    pub drops: u64,
    pub utilization: f64,
}

impl LinkSample {
    /// The bottleneck's state at `now`, over the interval `iv` that ends there; `last_forwarded`
    /// holds the wire bytes forwarded at the previous sample and is advanced.
    pub fn take(link: &Bottleneck, now: Time, iv: Time, last_forwarded: &mut u64) -> LinkSample {
        let fwd = link.stats.forwarded_wire_bytes;
        let secs = iv.as_secs_f64();
        let capacity = link.capacity_between(now - iv, now);
        let sample = LinkSample {
            time: now.as_secs_f64(),
            rate_mbps: capacity * 8.0 / secs / 1e6,
            queue_packets: link.queue_packets(),
            queue_bytes: link.queue_bytes(),
            queue_delay_ms: link.rate().tx_time(link.queue_bytes()).as_millis_f64(),
            drops: link.stats.drops(),
            utilization: ((fwd - *last_forwarded) as f64 / capacity.max(1.0)).min(1.0),
        };
        *last_forwarded = fwd;
        sample
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeSeries {
    pub flows: Vec<FlowSample>,
    pub link: Vec<LinkSample>,
}

#[derive(Clone, Debug)]
pub struct RunResult {
    pub summary: Summary,
    pub series: Option<TimeSeries>,
}

impl RunResult {
    pub(crate) fn collect(sim: &Simulation) -> RunResult {
        let (cfg, link, flows, events, (ws, we)) = sim.parts();
        let flow_summaries: Vec<FlowSummary> = flows
            .iter()
            .enumerate()
            .map(|(id, f)| {
                let st = f.final_stats.clone().unwrap_or_else(|| f.ep.counters());
                let start = f.start.min(cfg.duration);
                let end = f.end.unwrap_or(cfg.duration);
                let dur = (end - start).as_secs_f64();
                let per_s = |b: u64| if dur > 0.0 { b as f64 * 8.0 / dur } else { 0.0 };
                FlowSummary {
                    id: id as u32,
                    cc: cfg.flows[id].transport.name().to_string(),
                    start_s: start.as_secs_f64(),
                    end_s: end.as_secs_f64(),
                    throughput_bps: per_s(st.bytes_sent),
                    goodput_bps: per_s(st.bytes_delivered),
                    efficiency: if st.bytes_sent > 0 { st.bytes_delivered as f64 / st.bytes_sent as f64 } else { 0.0 },
                    bytes_sent: st.bytes_sent,
                    bytes_delivered: st.bytes_delivered,
                    segments_sent: st.segments_sent,
                    retransmits: st.retransmits,
                    timeouts: st.timeouts,
                    tail_timeouts: st.tail_timeouts,
                    loss_episodes: st.loss_episodes,
                    rtt_ms: Dist::from_hist(&f.rtt_us, 1e-3),
                    completion_time_s: f.completed_at.map(|t| (t - f.start).as_secs_f64()),
                    app_lost_bytes: st.app_lost_bytes,
                    receiver_attack: cfg.flows[id].attack.as_ref().map(|a| a.name().to_string()),
                    startup: Some(&cfg.flows[id].sender.startup)
                        .filter(|s| **s != cc::transport::Startup::Controller)
                        .map(|s| s.name().to_string()),
                    losses_counted: st.losses_counted,
                    rate_intervals: st.rate_intervals,
                    intervals_errs_exceed_sent: st.intervals_errs_exceed_sent,
                    packets_logged_unsent: st.packets_logged_unsent,
                    err_decreases: st.err_decreases,
                    loss_rereports: st.rereports.count,
                    rereport_interval_ms: st.rereports.mean_interval().map(|t| t.as_millis_f64()),
                    recovery_retransmits_max_per_round: st.recovery_retransmits_max_per_round,
                }
            })
            .collect();
        let window = (we - ws).as_secs_f64();
        let shares: Vec<f64> =
            flows.iter().map(|f| (f.window_delivered[1] - f.window_delivered[0]) as f64 / window.max(1e-9)).collect();
        let s = &link.stats;
        let summary = Summary {
            seed: cfg.seed,
            sim_time_s: cfg.duration.as_secs_f64(),
            wall_time_s: 0.0,
            events,
            packets: s.arrivals,
            jain_index: jain_index(&shares),
            fairness_window_s: [ws.as_secs_f64(), we.as_secs_f64()],
            flows: flow_summaries,
            link: LinkSummary::from_stats(cfg, &link.stats),
            accounting: sim.accounting(),
        };
        // The series is moved in by the caller (`Simulation::run_to_end`).
        RunResult { summary, series: None }
    }
}
