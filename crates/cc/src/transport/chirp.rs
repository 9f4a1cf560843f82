//! Paced chirping: a start-up that replaces slow start under any window-based controller.
//!
//! Sources: Misund & Briscoe, "Paced Chirping: Rapid flow start with very low queuing delay"
//! (Netdev 0x13, 2019); Misund's master's thesis (University of Oslo, 2018); the authors' Linux
//! prototype (github.com/JoakimMisund/PacedChirping, `latest/module/paced_chirping.c` and the
//! kernel patch that schedules the chirps), read for its behaviour and constants. The capacity
//! analysis is pathChirp's (Ribeiro, Riedi, Baraniuk, Navratil & Cottrell, PAM 2003) as the
//! prototype adapts it.
//!
//! **Chirps.** Instead of doubling a window per round trip, the sender sends *chirps*: trains
//! of `n` packets whose gaps shrink, so that one chirp sweeps a range of rates around the
//! current estimate of the capacity, expressed as an average gap `G` (rate = MSS / G). With
//! geometry `γ`, the gap after packet `k` is (the prototype's `initial_gap` and `gap_step`)
//!
//! ```text
//! g_k = γ·G − k·s,   s = 2(γ − 1)·G / n,   k = 0 .. n−2
//! ```
//!
//! so a 16-packet chirp with `γ` = 2 starts at half the estimated rate and ends at four times
//! it. (The gaps shrink by a constant step, as in the prototype; pathChirp's chirps shrink them
//! by a constant ratio.) Between chirps a guard interval lets the queue drain:
//! `max(G, srtt/M − chirp length)`, which spreads the `M` chirps of a round over a round trip.
//!
//! **Excursion analysis.** Each packet's queueing delay `q_k = rtt_k − min_rtt` comes back with
//! its ACK. An *excursion* starts at `k` where `q_k < q_{k+1}` and lasts while the queue stays
//! above [`EXCURSION_END_FRACTION`] of the highest rise seen in it; an excursion of at least
//! `L` packets ([`ChirpConfig::excursion_len`]) is the signature of a rate above the capacity,
//! not of noise. Each packet `k` gets a gap estimate `E_k`:
//!
//! - inside a long excursion where the queue grew (`q_k < q_{k+1}`): `E_k = g_k`, the gap that
//!   made the queue grow (pathChirp's `E_k = R_k`);
//! - an excursion still open at the chirp's end means the rate from its start on is above the
//!   capacity: its packets and all the others get `g_l`, the gap where it began;
//! - otherwise `g_{n−2}`, the chirp's smallest gap: the capacity is at least that rate.
//!
//! The chirp's estimate is the mean gap `Ĝ = Σ E_k / (n − 1)` (the prototype's arithmetic mean;
//! pathChirp weighs by the gaps), clamped to `[min_gap_us, max_gap_us]` ([`ChirpConfig`]), and
//! the average moves half way to it: `G ← G/2 + Ĝ/2` (the prototype's `GAP_AVG_SHIFT` = 1).
//!
//! **Rounds.** The first round has [`INITIAL_CHIRPS`] chirps of [`FIRST_CHIRP_PACKETS`] packets
//! (ten packets: RFC 6928's initial window), the next ones [`SECOND_CHIRP_PACKETS`], then
//! `n`. A round ends when the first chirp of the round is acknowledged (or, for the first one,
//! analysed), one round trip after it was sent; from chirp [`GAIN_FROM_CHIRP`] on, a round
//! that sent all of its `M` chirps multiplies `M` by the gain. So the data per round grows
//! geometrically as in slow start, but it goes out in paced chirps that fill the queue by a
//! few packets only, never in a burst above the sweep's top rate.
//!
//! **Hand-over.** Once the chirps of a round add up to a smoothed RTT (`Σ chirp lengths ≥
//! srtt`, the prototype's `should_terminate`), or a chirp had to follow the one before back to
//! back (its guard at the floor `G`: ours, see below), the sender is sending at the estimated
//! rate all the time: it paces at `MSS/G` with a
//! window of `max(2·B, 10)` segments, `B = min_rtt/G`, for `B` acknowledged segments (the
//! prototype's transition), then hands the controller a window of the packets in flight (at
//! least 2) and its congestion avoidance takes over (ssthresh = cwnd). A loss, a timeout or
//! an ECN echo ends chirping at once with the same window, before the controller reacts to
//! it (the prototype leaves on the Loss state; the paper sets losses and ECN aside).
//!
//! What is ours: the back-to-back test. A round ends when its first chirp's first ACK returns,
//! about one RTT after it left; once chirps no longer fit an RTT with their guards, fewer than
//! `srtt/(length + G)` of them leave before that ACK, so `Σ lengths` stays below `srtt` and the
//! prototype's test alone never fires (we saw chirping run on for seconds at 100 Mbit/s, 50 ms,
//! with the queue growing). Also ours: per-packet samples are matched to chirps by sequence number (the prototype
//! assumes no loss or reordering), the gaps used are those actually sent (the access link can
//! stretch a scheduled one), and the minimum gap defaults to 1 µs instead of the prototype's
//! 30 µs "safety bound for development", which would cap the estimate near 400 Mbit/s.
//! Delayed ACKs blur the per-packet delays; the paper evaluates without them, and so should a
//! user.

use crate::units::{Bytes, Rate, Time};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Chirps in the first round (the prototype's initial `M`, `2 << M_SHIFT`).
pub const INITIAL_CHIRPS: f64 = 2.0;
/// The same as a count: chirps numbered below it belong to the first round.
const FIRST_ROUND_CHIRPS: u32 = INITIAL_CHIRPS as u32;
/// Packets in chirps 0 and 1 (the prototype: `chirp_number <= 1` → 5).
pub const FIRST_CHIRP_PACKETS: u32 = 5;
/// Packets in chirps 2 and 3 (the prototype: `chirp_number <= 3` → 8).
pub const SECOND_CHIRP_PACKETS: u32 = 8;
/// The number of chirps per round grows only from this chirp on (the prototype's
/// `start_new_round`: `chirp_number >= 6`).
pub const GAIN_FROM_CHIRP: u32 = 6;
/// An excursion ends when the queue falls to this fraction of its highest rise (the
/// prototype's `max_q/2 + max_q/8`; pathChirp's decrease factor F = 1.5 would give 2/3).
pub const EXCURSION_END_FRACTION: f64 = 0.625;
/// The transition paces at no less than one MSS per 5 ms (the prototype's `min(5000000U,
/// gap_avg_ns)` when it sets `sk_pacing_rate`).
pub const TRANSITION_MAX_GAP: Time = Time::from_millis(5);
/// The transition's window is at least this many segments (the prototype's `max(..., 10U)`).
pub const TRANSITION_MIN_WINDOW: u64 = 10;
/// The hand-over window is at least this many segments (the prototype's `exit_paced_chirping`:
/// `max(packets_out, 2U)`).
pub const HANDOVER_MIN_WINDOW: u64 = 2;

/// Paced chirping's parameters; the defaults are the prototype's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChirpConfig {
    /// Packets per chirp once the first four are out (`CHIRP_SIZE` 16).
    pub chirp_packets: u32,
    /// First gap over the average gap, `γ` (`dctcp_pc_initial_geometry` 2, clamped to 1..3).
    pub geometry: f64,
    /// Growth of the chirps per round (`dctcp_pc_initial_gain` 2).
    pub gain: f64,
    /// Packets an excursion needs to count, `L` (`dctcp_pc_L` 5; pathChirp's busy-period
    /// threshold is also 5).
    pub excursion_len: u32,
    /// The first average gap, µs (`gap_avg_ns = 200000`: 58 Mbit/s at 1448 bytes).
    pub initial_gap_us: f64,
    /// The smallest gap an estimate may take, µs (ours: 1; the prototype's development bound
    /// is 30).
    pub min_gap_us: f64,
    /// The largest gap an estimate may take, µs (the prototype's 10 ms: about 1 Mbit/s).
    pub max_gap_us: f64,
}

impl Default for ChirpConfig {
    fn default() -> Self {
        ChirpConfig {
            chirp_packets: 16,
            geometry: 2.0,
            gain: 2.0,
            excursion_len: 5,
            initial_gap_us: 200.0,
            min_gap_us: 1.0,
            max_gap_us: 10_000.0,
        }
    }
}

/// The prototype's ranges where it has them (geometry 1..3, gain at least 1); the rest keep a
/// chirp analysable (at least 3 packets, an excursion shorter than a chirp) and a gap between
/// 1 ns and 1 s.
impl crate::check::Validate for ChirpConfig {
    fn validate(&self) -> Result<(), String> {
        use crate::check::{ordered, within};
        within("chirp_packets", self.chirp_packets, 3..=1000)?;
        within("geometry", self.geometry, 1.0..=3.0)?;
        within("gain", self.gain, 1.0..=16.0)?;
        within("excursion_len", self.excursion_len, 2..=self.chirp_packets.max(2))?;
        within("min_gap_us", self.min_gap_us, 0.001..=1e6)?;
        within("max_gap_us", self.max_gap_us, 0.001..=1e6)?;
        ordered("min_gap_us", self.min_gap_us, "max_gap_us", self.max_gap_us)?;
        within("initial_gap_us", self.initial_gap_us, self.min_gap_us..=self.max_gap_us)
    }
}

/// How a flow starts: the controller's own start-up (slow start, HyStart, BBR's STARTUP), or
/// paced chirping handing over to the controller's congestion avoidance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Startup {
    #[default]
    Controller,
    PacedChirping(ChirpConfig),
}

impl Startup {
    /// The names a scenario's `startup` and `--startup` take.
    pub const NAMES: &'static [&'static str] = &["controller", "paced-chirping"];

    pub fn from_name(name: &str) -> Result<Startup, String> {
        match name {
            "controller" => Ok(Startup::Controller),
            "paced-chirping" => Ok(Startup::PacedChirping(ChirpConfig::default())),
            other => Err(format!("unknown start-up `{other}`; allowed: {}", Startup::NAMES.join(", "))),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Startup::Controller => "controller",
            Startup::PacedChirping(_) => "paced-chirping",
        }
    }
}

impl crate::check::Validate for Startup {
    fn validate(&self) -> Result<(), String> {
        match self {
            Startup::Controller => Ok(()),
            Startup::PacedChirping(c) => c.validate(),
        }
    }
}

/// One chirp: its first segment, its scheduled gaps and what came back.
#[derive(Clone, Debug)]
struct Chirp {
    number: u32,
    begin: u64,
    /// Packets planned.
    packets: u32,
    /// Send time of each packet sent so far.
    sent: Vec<Time>,
    /// Queueing delay of each packet, once its ACK has come.
    qdelay: Vec<Option<Time>>,
    /// Scheduled gap after packet `k`, ns.
    gaps: Vec<f64>,
    /// No more packets will be added (all sent, or the data ran out).
    closed: bool,
}

impl Chirp {
    fn end(&self) -> u64 {
        self.begin + self.sent.len() as u64
    }
}

/// Where the start-up is.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Phase {
    /// Sending chirps and analysing them.
    Chirping,
    /// Pacing at the estimate with a window of `window` segments until `acks_left` more
    /// segments are acknowledged.
    Transition { rate: Rate, window: u64, acks_left: u64 },
}

/// The start-up's decision after an ACK.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Outcome {
    Continue,
    /// Chirping is over: the controller continues from this window (bytes).
    HandOver(Bytes),
}

/// Paced chirping's state: sans-I/O, driven by the sender core.
#[derive(Clone, Debug)]
pub struct PacedChirping {
    cfg: ChirpConfig,
    mss: Bytes,
    phase: Phase,
    /// The average-gap estimate `G`, ns.
    gap: f64,
    /// Chirps sent and not yet analysed, oldest first; the last may still be sending.
    chirps: VecDeque<Chirp>,
    /// The next chirp's number.
    next_number: u32,
    /// Chirps per round, `M`.
    per_round: f64,
    round_start: u32,
    round_sent: u32,
    /// Σ chirp lengths of this round, ns.
    round_length: f64,
    /// When the next chirp may begin.
    next_chirp_at: Time,
    /// A chirp went out back to back with the one before (its guard at the floor `G`): the
    /// round's chirps fill a round trip.
    filled: bool,
    /// Chirps analysed and their estimates (ns), for tests and traces.
    pub estimates: Vec<f64>,
}

impl PacedChirping {
    pub fn new(cfg: &ChirpConfig, mss: Bytes) -> PacedChirping {
        PacedChirping {
            gap: cfg.initial_gap_us * 1e3,
            cfg: cfg.clone(),
            mss,
            phase: Phase::Chirping,
            chirps: VecDeque::new(),
            next_number: 0,
            per_round: INITIAL_CHIRPS,
            round_start: 0,
            round_sent: 0,
            round_length: 0.0,
            next_chirp_at: Time::ZERO,
            filled: false,
            estimates: Vec::new(),
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The current capacity estimate, `MSS / G`.
    pub fn rate(&self) -> Rate {
        Rate::from_bytes_per_sec(self.mss as f64 * 1e9 / self.gap)
    }

    /// The current average gap `G`.
    pub fn gap(&self) -> Time {
        Time(self.gap.round() as u64)
    }

    /// Packets planned for chirp `number` (5, 5, 8, 8, then `chirp_packets`).
    fn chirp_packets(&self, number: u32) -> u32 {
        match number {
            0 | 1 => FIRST_CHIRP_PACKETS,
            2 | 3 => SECOND_CHIRP_PACKETS,
            _ => self.cfg.chirp_packets,
        }
    }

    /// The scheduled gaps of an `n`-packet chirp around the average gap `g`, ns:
    /// `g_k = γ·g − k·2(γ−1)·g/n` for `k = 0 .. n−2`.
    pub fn chirp_gaps(n: u32, g: f64, geometry: f64) -> Vec<f64> {
        let step = 2.0 * (geometry - 1.0) * g / n as f64;
        (0..n.saturating_sub(1)).map(|k| geometry * g - k as f64 * step).collect()
    }

    /// When the next chirp packet may leave (while chirping; a time in the past means now), or
    /// `None` when this round's chirps are all scheduled and the sender waits for ACKs.
    pub fn release_time(&self) -> Option<Time> {
        if self.phase != Phase::Chirping {
            return None;
        }
        if let Some(c) = self.chirps.back().filter(|c| !c.closed) {
            let k = c.sent.len() - 1;
            return Some(c.sent[k] + Time(c.gaps[k].round() as u64));
        }
        ((self.round_sent as f64) < self.per_round.floor()).then_some(self.next_chirp_at)
    }

    /// Segment `seq` left at `now` as a chirp packet (the sender sends one only at or after
    /// [`release_time`](Self::release_time)).
    pub fn on_sent(&mut self, now: Time, seq: u64, srtt: Option<Time>) {
        if self.chirps.back().is_none_or(|c| c.closed) {
            let packets = self.chirp_packets(self.next_number);
            let gaps = Self::chirp_gaps(packets, self.gap, self.cfg.geometry);
            let length: f64 = gaps.iter().sum();
            self.chirps.push_back(Chirp {
                number: self.next_number,
                begin: seq,
                packets,
                sent: Vec::with_capacity(packets as usize),
                qdelay: Vec::with_capacity(packets as usize),
                gaps,
                closed: false,
            });
            self.next_number += 1;
            self.round_sent += 1;
            self.round_length += length;
            // The guard after this chirp spreads the round's M chirps over a round trip.
            let spread = srtt.map_or(0.0, |r| r.0 as f64 / self.per_round.floor().max(1.0));
            let guard = (spread - length).max(self.gap);
            // Past the first round, chirps back to back mean the estimate fills the path.
            self.filled |= self.next_number > FIRST_ROUND_CHIRPS && spread > 0.0 && spread - length <= self.gap;
            self.next_chirp_at = now + Time((length + guard).round() as u64);
        }
        let c = self.chirps.back_mut().expect("a chirp is open");
        c.sent.push(now);
        c.qdelay.push(None);
        if c.sent.len() as u32 >= c.packets {
            c.closed = true;
        }
    }

    /// The data ran out: the open chirp gets no more packets.
    pub fn close_chirp(&mut self) {
        if let Some(c) = self.chirps.back_mut() {
            c.closed = true;
        }
    }

    /// Segment `seq`, never retransmitted, was acknowledged after `rtt`; `min_rtt` is the
    /// path's.
    pub fn on_sample(&mut self, seq: u64, rtt: Time, min_rtt: Time) {
        for c in self.chirps.iter_mut() {
            if seq >= c.begin && seq < c.end() {
                c.qdelay[(seq - c.begin) as usize] = Some(rtt.saturating_sub(min_rtt));
                if seq == c.begin && c.number >= 2 && c.number == self.round_start {
                    // The round's first chirp is back: one round trip has passed.
                    self.start_round();
                }
                return;
            }
        }
    }

    /// A new round: `M ← M·gain` once past the first chirps if the last round sent all of its.
    fn start_round(&mut self) {
        if self.next_number >= GAIN_FROM_CHIRP && self.round_sent as f64 >= self.per_round.floor() {
            self.per_round *= self.cfg.gain;
        }
        self.round_start = self.next_number;
        self.round_sent = 0;
        self.round_length = 0.0;
    }

    /// After an ACK: analyse every chirp whose packets are all acknowledged (`snd_una` past its
    /// end), and move on to the transition and the hand-over. `acked` segments were newly
    /// acknowledged; `in_flight` segments are outstanding.
    pub fn on_ack(&mut self, snd_una: u64, acked: u64, in_flight: u64, srtt: Option<Time>, min_rtt: Option<Time>) -> Outcome {
        match &mut self.phase {
            Phase::Transition { acks_left, .. } => {
                *acks_left = acks_left.saturating_sub(acked);
                if *acks_left == 0 {
                    return Outcome::HandOver(self.handover_window(in_flight));
                }
                return Outcome::Continue;
            }
            Phase::Chirping => {}
        }
        while self.chirps.front().is_some_and(|c| c.closed && snd_una >= c.end()) {
            let c = self.chirps.pop_front().expect("checked");
            if let Some(e) = analyse(&c, self.cfg.excursion_len) {
                let e = e.clamp(self.cfg.min_gap_us * 1e3, self.cfg.max_gap_us * 1e3);
                self.estimates.push(e);
                self.gap = self.gap / 2.0 + e / 2.0;
            }
            if c.number == 0 {
                self.start_round();
            }
            if let (Some(srtt), Some(min_rtt)) = (srtt, min_rtt) {
                if srtt.0 as f64 <= self.round_length || self.filled {
                    self.enter_transition(min_rtt);
                    return Outcome::Continue;
                }
            }
        }
        Outcome::Continue
    }

    /// The prototype's transition: pace at `MSS/min(G, 5 ms)` with a window of `max(2·B, 10)`
    /// for `B = min_rtt/G` acknowledged segments.
    fn enter_transition(&mut self, min_rtt: Time) {
        let gap = self.gap.min(TRANSITION_MAX_GAP.0 as f64);
        let bdp = (min_rtt.0 as f64 / self.gap).floor() as u64;
        self.phase = Phase::Transition {
            rate: Rate::from_bytes_per_sec(self.mss as f64 * 1e9 / gap),
            window: (2 * bdp).max(TRANSITION_MIN_WINDOW),
            acks_left: bdp.max(1),
        };
        self.chirps.clear();
    }

    /// The window handed to the controller: the packets in flight, at least two.
    pub fn handover_window(&self, in_flight: u64) -> Bytes {
        in_flight.max(HANDOVER_MIN_WINDOW) * self.mss
    }
}

/// One chirp's gap estimate (ns) by the excursion analysis in the module doc, or `None` when
/// fewer than two of its packets have a queueing delay. Gaps are those actually sent where the
/// next packet went out, else the scheduled ones.
fn analyse(c: &Chirp, excursion_len: u32) -> Option<f64> {
    // The packets with a delay sample, in order, and the gap after each.
    let n = c.qdelay.iter().take_while(|q| q.is_some()).count();
    if n < 2 {
        return None;
    }
    let q: Vec<f64> = c.qdelay[..n].iter().map(|d| d.expect("counted").0 as f64).collect();
    let gaps: Vec<f64> = (0..n - 1)
        .map(|k| if k + 1 < c.sent.len() { (c.sent[k + 1] - c.sent[k]).0 as f64 } else { c.gaps[k] })
        .collect();
    let mut estimate: Vec<Option<f64>> = vec![None; n - 1];
    let mut start: Option<usize> = None;
    let mut max_rise = 0.0f64;
    let mut open_from: Option<usize> = None;
    let mut i = 0;
    while i < n {
        if let Some(s) = start {
            let rise = q[i] - q[s];
            if rise > 0.0 && rise > EXCURSION_END_FRACTION * max_rise {
                max_rise = max_rise.max(rise);
                if i == n - 1 {
                    // Still rising at the chirp's end: the rate from `s` on is too high.
                    open_from = Some(s);
                }
                i += 1;
                continue;
            }
            // The excursion [s, i) has ended; a long one marks where the queue grew.
            if (i - s) as u32 >= excursion_len {
                for k in s..i.min(n - 1) {
                    if q[k] < q[k + 1] {
                        estimate[k] = Some(gaps[k]);
                    }
                }
            }
            start = None;
        }
        if i + 1 < n && q[i] < q[i + 1] {
            start = Some(i);
            max_rise = 0.0;
        }
        i += 1;
    }
    let fallback = gaps[open_from.unwrap_or(n - 2)];
    if let Some(s) = open_from {
        for e in &mut estimate[s..] {
            *e = Some(gaps[s]);
        }
    }
    Some(estimate.iter().map(|e| e.unwrap_or(fallback)).sum::<f64>() / (n - 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Validate;

    const MSS: Bytes = 1000;

    /// A chirp sent at its scheduled gaps into a bottleneck serving one packet per `service`
    /// ns, empty at the start: the queueing delay each packet sees.
    fn through_bottleneck(gaps: &[f64], service: f64) -> Vec<Time> {
        let mut t = 0.0;
        let mut free = 0.0f64;
        let mut q = vec![];
        for k in 0..=gaps.len() {
            let start = free.max(t);
            q.push(Time((start - t).round() as u64));
            free = start + service;
            if k < gaps.len() {
                t += gaps[k];
            }
        }
        q
    }

    fn chirp_of(gaps: Vec<f64>, q: &[Time]) -> Chirp {
        let mut sent = vec![Time::ZERO];
        for g in &gaps {
            let last = *sent.last().unwrap();
            sent.push(last + Time(g.round() as u64));
        }
        Chirp { number: 4, begin: 0, packets: sent.len() as u32, sent, qdelay: q.iter().map(|&d| Some(d)).collect(), gaps, closed: true }
    }

    #[test]
    fn gaps_shrink_linearly_from_geometry_times_the_average() {
        let g = PacedChirping::chirp_gaps(16, 1000.0, 2.0);
        assert_eq!(g.len(), 15);
        assert_eq!(g[0], 2000.0);
        // s = 2(γ−1)G/n = 125 ns; the last gap is 2000 − 14·125 = 250.
        assert_eq!(g[1], 1875.0);
        assert_eq!(g[14], 250.0);
        // Geometry 1 is a paced train at the estimate.
        assert!(PacedChirping::chirp_gaps(16, 1000.0, 1.0).iter().all(|&x| x == 1000.0));
    }

    #[test]
    fn a_chirp_faster_than_the_link_estimates_the_link() {
        // Average gap 1000 ns, link 1 packet per 800 ns: gaps below 800 ns build a queue that
        // lasts to the chirp's end, so the estimate is the gap where that excursion began.
        let gaps = PacedChirping::chirp_gaps(16, 1000.0, 2.0);
        let q = through_bottleneck(&gaps, 800.0);
        let e = analyse(&chirp_of(gaps.clone(), &q), 5).unwrap();
        let onset = gaps.iter().position(|&g| g < 800.0).unwrap();
        assert_eq!(e, gaps[onset]);
        assert!((700.0..=800.0).contains(&e), "{e}");
    }

    #[test]
    fn a_chirp_slower_than_the_link_speeds_the_estimate_up() {
        // A link far faster than the chirp: no queue, the estimate is the smallest gap.
        let gaps = PacedChirping::chirp_gaps(16, 1000.0, 2.0);
        let q = through_bottleneck(&gaps, 10.0);
        assert_eq!(analyse(&chirp_of(gaps.clone(), &q), 5), Some(gaps[14]));
    }

    #[test]
    fn a_short_bump_is_noise_not_an_excursion() {
        // Two packets of queue (shorter than L = 5) in an otherwise empty chirp.
        let gaps = PacedChirping::chirp_gaps(16, 1000.0, 2.0);
        let mut q = vec![Time::ZERO; 16];
        q[3] = Time(500);
        q[4] = Time(900);
        assert_eq!(analyse(&chirp_of(gaps.clone(), &q), 5), Some(gaps[14]));
    }

    #[test]
    fn estimates_move_half_way_and_stay_in_bounds() {
        let cfg = ChirpConfig { min_gap_us: 0.5, ..ChirpConfig::default() };
        let mut pc = PacedChirping::new(&cfg, MSS);
        let srtt = Some(Time::from_millis(10));
        // Chirp 0: five packets, all back with no queue.
        let mut now = Time::ZERO;
        for seq in 0..5 {
            let t = pc.release_time().unwrap();
            now = now.max(t);
            pc.on_sent(now, seq, srtt);
        }
        for seq in 0..5 {
            pc.on_sample(seq, Time::from_millis(10), Time::from_millis(10));
        }
        let before = pc.gap;
        assert_eq!(pc.on_ack(5, 5, 0, srtt, srtt), Outcome::Continue);
        let smallest = PacedChirping::chirp_gaps(5, before, 2.0)[3];
        assert!((pc.gap - (before + smallest) / 2.0).abs() < 2.0, "{} vs {}", pc.gap, (before + smallest) / 2.0);
    }

    #[test]
    fn a_round_stops_after_m_chirps_and_the_guard_spreads_them() {
        let mut pc = PacedChirping::new(&ChirpConfig::default(), MSS);
        let srtt = Some(Time::from_millis(20));
        let mut now = Time::ZERO;
        let mut seq = 0;
        let mut starts = vec![];
        while let Some(t) = pc.release_time() {
            now = now.max(t);
            if pc.chirps.back().is_none_or(|c| c.closed) {
                starts.push(now);
            }
            pc.on_sent(now, seq, srtt);
            seq += 1;
        }
        // The first round: two chirps of five packets, the second srtt/M after the first.
        assert_eq!(seq, 10);
        assert_eq!(starts.len(), 2);
        assert_eq!(starts[1] - starts[0], Time::from_millis(10));
    }

    #[test]
    fn handover_follows_the_transition() {
        let mut pc = PacedChirping::new(&ChirpConfig::default(), MSS);
        pc.gap = 100_000.0; // 100 µs: 10 packets per ms
        pc.enter_transition(Time::from_millis(10));
        let Phase::Transition { window, acks_left, rate } = pc.phase() else { panic!("not in transition") };
        assert_eq!((window, acks_left), (200, 100));
        assert!((rate.bytes_per_sec() - 1e7).abs() < 1.0);
        assert_eq!(pc.on_ack(0, 99, 90, None, None), Outcome::Continue);
        assert_eq!(pc.on_ack(0, 1, 90, None, None), Outcome::HandOver(90 * MSS));
        assert_eq!(pc.handover_window(0), 2 * MSS);
    }

    /// Through the sender core: the initial ten packets leave as two chirps of five, their gaps
    /// shrinking from 2·200 µs by 80 µs, the second chirp half a round trip after the first
    /// (M = 2), whatever the controller's window says.
    #[test]
    fn the_sender_sends_the_first_round_as_two_paced_chirps() {
        use crate::transport::{SenderConfig, SenderCore};
        use crate::CcConfig;
        let cfg = SenderConfig { mss: MSS, startup: Startup::PacedChirping(ChirpConfig::default()), ..SenderConfig::default() };
        let mut s = SenderCore::new(cfg, &CcConfig::from_name("reno").unwrap(), crate::rng::component_rng(1, 1));
        s.on_handshake(Time::from_millis(10));
        let mut now = Time::ZERO;
        let mut times = vec![];
        while times.len() < 10 {
            match s.poll_transmit(now) {
                Some(t) => times.push((t.seq, now)),
                None => now = s.next_send_time(now).expect("chirping waits only for its schedule"),
            }
        }
        assert!(s.poll_transmit(now).is_none() && s.next_send_time(now).is_none(), "the round is scheduled");
        let gaps: Vec<u64> = times.windows(2).map(|w| (w[1].1 - w[0].1).0 / 1000).collect();
        assert_eq!(&gaps[..4], [400, 320, 240, 160]);
        assert_eq!(times[5].1, Time::from_millis(5));
        assert_eq!(&gaps[5..], [400, 320, 240, 160]);
        assert_eq!(s.snapshot().state, "chirping");
    }

    #[test]
    fn parameters_out_of_range_name_the_field() {
        let bad = |c: ChirpConfig| c.validate().unwrap_err();
        assert!(bad(ChirpConfig { geometry: 4.0, ..ChirpConfig::default() }).starts_with("geometry: 4 is outside"));
        assert!(bad(ChirpConfig { gain: 0.5, ..ChirpConfig::default() }).starts_with("gain:"));
        assert!(bad(ChirpConfig { excursion_len: 40, ..ChirpConfig::default() }).starts_with("excursion_len:"));
        assert!(bad(ChirpConfig { min_gap_us: 50.0, max_gap_us: 20.0, ..ChirpConfig::default() }).starts_with("max_gap_us:"));
        assert!(ChirpConfig::default().validate().is_ok());
        assert!(Startup::from_name("chirp").unwrap_err().contains("allowed: controller, paced-chirping"));
    }
}
