//! The TCP receiver: cumulative ACKs, SACK blocks and delayed ACKs.
//!
//! - SACK (RFC 2018 §4): the first block holds the most recently received segment; the
//!   others repeat the most recently reported blocks; at most [`MAX_SACK_BLOCKS`].
//! - Delayed ACKs (RFC 1122 §4.2.3.2, RFC 5681 §4.2): at least every second full-sized segment,
//!   within `delack_timeout` (40 ms, Linux's minimum); out-of-order segments and segments that
//!   fill a hole are acknowledged at once. With [`ReceiverConfig::rcv_window`], also every
//!   segment while Linux's quick-ACK budget lasts, which its receive-window autotuning refills
//!   ([`super::rcv_window`]). With [`ReceiverConfig::sack_compression`], out-of-order segments
//!   past the third above one `rcv_nxt` are acknowledged at most once per Linux's
//!   compressed-ACK timer ([`super::sack_compress`]).
//! - A timer that fires before its deadline (the deadline moved on since it was armed) changes
//!   nothing; the caller re-arms it at [`Receiver::next_timer`], as Linux's delayed-ACK timer
//!   re-arms itself for `icsk_ack.timeout`.
//! - Timestamps (RFC 7323): every ACK carries the time it was sent (`tsval`); the sender echoes
//!   the latest in its segments (TSecr), which gives the receiver its RTT.
//! - ECN (RFC 3168): ECE is echoed on every ACK sent after a CE mark (the simulated sender
//!   reacts at most once per window, like a CWR handshake); the count of CE-marked segments since
//!   the previous ACK is reported too, as accurate-ECN-style feedback for DCTCP.
//! - The cumulative nonce (Savage et al. 1999 §4.3): when segments carry nonces, every ACK
//!   echoes the sum of the nonces below its cumulative ACK ([`Ack::nonce_sum`]).
//! - A receiver may misbehave ([`Misbehaviour`], set in [`ReceiverConfig::attack`]); use
//!   [`Receiver::on_arrival`], which applies the attack to the honest receiver's ACKs.

use super::misbehave::Misbehaviour;
use super::rcv_window::{RcvWindow, RcvWindowConfig};
use super::sack_compress::SackCompressor;
use super::{Ack, SackBlock, MAX_SACK_BLOCKS};
use crate::units::{Bytes, Time};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct ReceiverConfig {
    pub sack: bool,
    /// Acknowledge every `delack_segments`-th in-order segment (1 = no delayed ACKs).
    pub delack_segments: u32,
    pub delack_timeout: Time,
    /// An attack on the sender (`None`: an honest receiver).
    pub attack: Option<Misbehaviour>,
    /// Linux's quick ACKs and the receive-window autotuning behind them (`None`: an ACK every
    /// `delack_segments` only, as RFC 1122 has it).
    pub rcv_window: Option<RcvWindowConfig>,
    /// Linux's SACK compression (`net.ipv4.tcp_comp_sack_*` at their defaults), with SACK only.
    pub sack_compression: bool,
}

impl Default for ReceiverConfig {
    fn default() -> Self {
        ReceiverConfig { sack: true, delack_segments: 1, delack_timeout: Time::from_millis(40), attack: None, rcv_window: None, sack_compression: false }
    }
}

/// Counters a receiver keeps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReceiverStats {
    pub segments_received: u64,
    /// Segments that had already arrived (spurious retransmissions).
    pub duplicate_segments: u64,
    pub acks_sent: u64,
    pub ce_marked: u64,
    /// Payload bytes that arrived, each once: what the receiving application gets.
    pub delivered_bytes: Bytes,
    /// ACKs a misbehaving receiver added to the honest ones (divided, spoofed or optimistic).
    pub attack_acks: u64,
}

#[derive(Clone, Debug)]
pub struct Receiver {
    cfg: ReceiverConfig,
    rcv_nxt: u64,
    /// Out-of-order ranges above rcv_nxt, sorted and disjoint.
    ooo: Vec<SackBlock>,
    /// Recently received out-of-order segments, most recent first (each names its block).
    recent: [u64; MAX_SACK_BLOCKS + 1],
    n_recent: usize,
    unacked_segments: u32,
    delack_deadline: Option<Time>,
    ce_since_ack: u32,
    ece: bool,
    last_echo: Option<Time>,
    last_owd: Option<Time>,
    stats: ReceiverStats,
    /// Sum of the nonces below `rcv_nxt`, and the nonces of segments held out of order.
    nonce_sum: u32,
    ooo_nonces: BTreeMap<u64, u32>,
    /// Highest segment received + 1, and the highest cumulative ACK claimed (optimistic ACKing).
    max_seen: u64,
    claimed: u64,
    window: Option<RcvWindow>,
    compressor: Option<SackCompressor>,
}

impl Receiver {
    pub fn new(cfg: ReceiverConfig) -> Receiver {
        Receiver {
            rcv_nxt: 0,
            ooo: Vec::new(),
            recent: [0; MAX_SACK_BLOCKS + 1],
            n_recent: 0,
            unacked_segments: 0,
            delack_deadline: None,
            ce_since_ack: 0,
            ece: false,
            last_echo: None,
            last_owd: None,
            stats: ReceiverStats::default(),
            nonce_sum: 0,
            ooo_nonces: BTreeMap::new(),
            max_seen: 0,
            claimed: 0,
            window: cfg.rcv_window.map(RcvWindow::new),
            compressor: (cfg.sack_compression && cfg.sack).then(SackCompressor::default),
            cfg,
        }
    }

    /// Segments the receiver acknowledged (optimistically) that never arrived and, as the path
    /// delivers in order, never will: the application's loss. Zero for an honest receiver.
    pub fn app_lost_segments(&self) -> u64 {
        let bound = self.claimed.min(self.max_seen);
        if bound <= self.rcv_nxt {
            return 0;
        }
        let held: u64 = self.ooo.iter().map(|b| b.end.min(bound).saturating_sub(b.start.min(bound))).sum();
        bound - self.rcv_nxt - held
    }

    /// A data segment of `len` payload bytes carrying `nonce` (0: none) and echoing `tsecr`
    /// arrived: the honest receiver's ACK, if any, with the configured attack applied, go into
    /// `out`.
    #[allow(clippy::too_many_arguments)]
    pub fn on_arrival(&mut self, now: Time, seq: u64, len: Bytes, sent: Time, ce: bool, nonce: u32, tsecr: Option<Time>, out: &mut Vec<Ack>) {
        let fresh = seq >= self.rcv_nxt && !self.holds(seq);
        if fresh {
            self.stats.delivered_bytes += len;
            if nonce != 0 {
                self.ooo_nonces.insert(seq, nonce);
            }
        }
        self.max_seen = self.max_seen.max(seq + 1);
        let (before, sum_before) = (self.rcv_nxt, self.nonce_sum);
        let ack = self.on_segment_echoing(now, seq, len, sent, ce, tsecr);
        if !self.ooo_nonces.is_empty() {
            for s in before..self.rcv_nxt {
                if let Some(n) = self.ooo_nonces.remove(&s) {
                    self.nonce_sum = self.nonce_sum.wrapping_add(n);
                }
            }
        }
        let Some(mut ack) = ack else { return };
        ack.nonce_sum = self.nonce_sum;
        match self.cfg.attack {
            None => out.push(ack),
            Some(Misbehaviour::AckDivision { split }) => {
                // The segment that just came into order, acknowledged in parts first.
                if fresh && seq == before {
                    let parts = (split as Bytes).min(len).max(1);
                    for k in 1..parts {
                        let part = Ack { cum_ack: seq, offset: (k * len / parts) as u32, nonce_sum: sum_before, n_sack: 0, ..ack };
                        out.push(part);
                        self.stats.attack_acks += 1;
                    }
                }
                out.push(ack);
            }
            Some(Misbehaviour::DupAckSpoofing { count }) => {
                out.push(ack);
                if !self.ooo.is_empty() {
                    for _ in 0..count {
                        out.push(ack);
                    }
                    self.stats.attack_acks += count as u64;
                }
            }
            Some(Misbehaviour::OptimisticAck { lead }) => {
                out.push(ack);
                let claim = self.claimed.max(self.max_seen + lead as u64);
                self.claimed = claim;
                // The nonces it knows: those below rcv_nxt and of held segments below the claim.
                let guess =
                    self.ooo_nonces.range(self.rcv_nxt..claim).fold(self.nonce_sum, |a, (_, &n)| a.wrapping_add(n));
                out.push(Ack { cum_ack: claim, offset: 0, nonce_sum: guess, sack: Default::default(), n_sack: 0, ..ack });
                self.stats.attack_acks += 1;
            }
        }
    }

    /// The delayed-ACK timer, as [`on_timer`](Self::on_timer), with the nonce sum stamped.
    pub fn on_timer_ack(&mut self, now: Time) -> Option<Ack> {
        self.on_timer(now).map(|a| Ack { nonce_sum: self.nonce_sum, ..a })
    }

    pub fn config(&self) -> &ReceiverConfig {
        &self.cfg
    }
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }
    pub fn stats(&self) -> &ReceiverStats {
        &self.stats
    }
    /// Out-of-order ranges held above `rcv_nxt`.
    pub fn out_of_order(&self) -> &[SackBlock] {
        &self.ooo
    }

    /// When the next timer fires (delayed ACK or compressed ACK), if one is armed.
    pub fn next_timer(&self) -> Option<Time> {
        let compressed = self.compressor.as_ref().and_then(SackCompressor::deadline);
        match (self.delack_deadline, compressed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The timers: acknowledge what is pending if the delayed-ACK deadline has passed, or held
    /// ACKs if the compressed-ACK timer has fired. Before either deadline, nothing.
    pub fn on_timer(&mut self, now: Time) -> Option<Ack> {
        let delack_due = self.delack_deadline.is_some_and(|t| t <= now);
        if self.compressor.as_ref().is_some_and(|c| c.due(now)) || (delack_due && self.unacked_segments > 0) {
            return Some(self.make_ack(now));
        }
        if delack_due {
            self.delack_deadline = None;
        }
        None
    }

    /// A full-sized data segment arrived with no timestamp echo, as
    /// [`on_segment_echoing`](Self::on_segment_echoing).
    pub fn on_segment(&mut self, now: Time, seq: u64, sent: Time, ce: bool) -> Option<Ack> {
        let len = self.cfg.rcv_window.map_or(0, |w| w.advmss);
        self.on_segment_echoing(now, seq, len, sent, ce, None)
    }

    /// A data segment of `len` bytes arrived. `sent` is its send time (the timestamp the ACK
    /// echoes); `now` minus `sent` is its one-way delay; `tsecr` is the send time of the ACK
    /// whose timestamp it echoes. Returns the ACK to send now, if any.
    pub fn on_segment_echoing(&mut self, now: Time, seq: u64, len: Bytes, sent: Time, ce: bool, tsecr: Option<Time>) -> Option<Ack> {
        self.stats.segments_received += 1;
        if let Some(w) = &mut self.window {
            w.on_timestamp(now, len, tsecr);
        }
        let rcv_nxt_before = self.rcv_nxt;
        if ce {
            self.stats.ce_marked += 1;
            self.ce_since_ack += 1;
            self.ece = true;
        }
        self.last_echo = Some(sent);
        self.last_owd = Some(now - sent);
        let duplicate = seq < self.rcv_nxt || self.holds(seq);
        let immediate = if duplicate {
            self.stats.duplicate_segments += 1;
            true // a duplicate: tell the sender where we are (RFC 5681 §4.2)
        } else if seq == self.rcv_nxt {
            self.rcv_nxt += 1;
            let filled_hole = !self.ooo.is_empty();
            if filled_hole && self.ooo[0].start == self.rcv_nxt {
                self.rcv_nxt = self.ooo.remove(0).end;
            }
            filled_hole
        } else {
            self.insert_ooo(seq);
            true
        };
        let out_of_order = !duplicate && seq > rcv_nxt_before;
        if let Some(w) = &mut self.window {
            if duplicate {
                w.on_duplicate();
            } else {
                // What the application reads now, and the span held out of order above it.
                let read = (self.rcv_nxt - rcv_nxt_before) * len;
                let ooo = self.ooo.last().map_or(0, |b| b.end - self.rcv_nxt) * len;
                w.on_data(now, len, read, ooo);
            }
        }
        let quick = self.window.as_ref().is_some_and(|w| w.quick());
        self.unacked_segments += 1;
        // Out of order, with no quick ACK due: SACK compression may hold it.
        let rtt = self.window.as_ref().and_then(RcvWindow::rtt);
        let held = out_of_order && !ce && !quick && self.compressor.as_mut().is_some_and(|c| c.hold(now, self.rcv_nxt, rtt));
        if held {
            None
        } else if immediate || ce || quick || self.unacked_segments >= self.cfg.delack_segments {
            Some(self.make_ack(now))
        } else {
            if self.delack_deadline.is_none() {
                self.delack_deadline = Some(now + self.cfg.delack_timeout);
            }
            None
        }
    }

    fn holds(&self, seq: u64) -> bool {
        self.ooo.iter().any(|b| b.start <= seq && seq < b.end)
    }

    fn insert_ooo(&mut self, seq: u64) {
        let i = self.ooo.partition_point(|b| b.end < seq);
        if i < self.ooo.len() && self.ooo[i].end == seq {
            self.ooo[i].end += 1;
            if i + 1 < self.ooo.len() && self.ooo[i + 1].start == seq + 1 {
                self.ooo[i].end = self.ooo.remove(i + 1).end;
            }
        } else if i < self.ooo.len() && self.ooo[i].start == seq + 1 {
            self.ooo[i].start = seq;
        } else {
            self.ooo.insert(i, SackBlock { start: seq, end: seq + 1 });
        }
        // Most recent first; drop an older entry naming the same block.
        let mut list = [0u64; MAX_SACK_BLOCKS + 1];
        list[0] = seq;
        let mut n = 1;
        for &r in &self.recent[..self.n_recent] {
            if n == list.len() {
                break;
            }
            if self.block_of(r) != self.block_of(seq) {
                list[n] = r;
                n += 1;
            }
        }
        self.recent = list;
        self.n_recent = n;
    }

    fn block_of(&self, seq: u64) -> Option<SackBlock> {
        let i = self.ooo.partition_point(|b| b.end <= seq);
        self.ooo.get(i).filter(|b| b.start <= seq).copied()
    }

    fn make_ack(&mut self, now: Time) -> Ack {
        if let Some(w) = &mut self.window {
            w.on_ack_sent();
        }
        if let Some(c) = &mut self.compressor {
            c.on_ack_sent();
        }
        let (ooo, rcv_nxt) = (&self.ooo, self.rcv_nxt);
        let window = self.window.as_mut().map(|w| {
            let held: u64 = ooo.iter().map(|b| b.end - b.start).sum();
            w.advertise(rcv_nxt * w.advmss(), held * w.advmss())
        });
        let mut ack = Ack {
            window,
            tsval: Some(now),
            cum_ack: self.rcv_nxt,
            ece: self.ece,
            ce_packets: self.ce_since_ack,
            echo: self.last_echo,
            one_way_delay: self.last_owd,
            ..Ack::default()
        };
        if self.cfg.sack {
            let mut n = 0;
            for &r in &self.recent[..self.n_recent] {
                if n == MAX_SACK_BLOCKS {
                    break;
                }
                if let Some(b) = self.block_of(r) {
                    if b.start >= self.rcv_nxt && !ack.sack[..n].contains(&b) {
                        ack.sack[n] = b;
                        n += 1;
                    }
                }
            }
            // Fill remaining slots with other held blocks, lowest first.
            for b in &self.ooo {
                if n == MAX_SACK_BLOCKS {
                    break;
                }
                if !ack.sack[..n].contains(b) {
                    ack.sack[n] = *b;
                    n += 1;
                }
            }
            ack.n_sack = n as u8;
        }
        self.unacked_segments = 0;
        self.delack_deadline = None;
        self.ce_since_ack = 0;
        self.ece = false;
        self.stats.acks_sent += 1;
        ack
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rx() -> Receiver {
        Receiver::new(ReceiverConfig::default())
    }

    #[test]
    fn in_order_segments_advance_the_cumulative_ack() {
        let mut r = rx();
        for s in 0..5 {
            let a = r.on_segment(Time(s), s, Time(0), false).unwrap();
            assert_eq!(a.cum_ack, s + 1);
            assert_eq!(a.n_sack, 0);
        }
    }

    #[test]
    fn sack_blocks_report_most_recent_first_and_merge() {
        let mut r = rx();
        r.on_segment(Time(0), 0, Time(0), false);
        // 1 lost; 2,3 arrive; 5 arrives (4 lost); 7 arrives.
        r.on_segment(Time(0), 2, Time(0), false);
        r.on_segment(Time(0), 3, Time(0), false);
        r.on_segment(Time(0), 5, Time(0), false);
        let a = r.on_segment(Time(0), 7, Time(0), false).unwrap();
        assert_eq!(a.cum_ack, 1);
        assert_eq!(
            a.sack_blocks(),
            &[SackBlock { start: 7, end: 8 }, SackBlock { start: 5, end: 6 }, SackBlock { start: 2, end: 4 }]
        );
        // 4 fills the gap between blocks 2..4 and 5..6.
        let a = r.on_segment(Time(0), 4, Time(0), false).unwrap();
        assert_eq!(a.sack_blocks()[0], SackBlock { start: 2, end: 6 });
        // 1 fills the first hole: everything up to 6 is in order.
        let a = r.on_segment(Time(0), 1, Time(0), false).unwrap();
        assert_eq!(a.cum_ack, 6);
        assert_eq!(a.sack_blocks(), &[SackBlock { start: 7, end: 8 }]);
    }

    /// Linux's delayed ACKs (`rcv_window`): the first 22 segments of a connection are ACKed one
    /// by one (a budget of 16 that stays full while the window grows for six segments, then
    /// drains), the rest every second segment, each ACK stamped with its send time.
    #[test]
    fn a_linux_receiver_acks_its_first_22_segments_one_by_one_then_every_second() {
        use super::super::rcv_window::{RcvWindowConfig, TESTBED_SCALING_RATIO};
        let mut r = Receiver::new(ReceiverConfig {
            delack_segments: 2,
            rcv_window: Some(RcvWindowConfig { advmss: 1448, scaling_ratio: TESTBED_SCALING_RATIO }),
            ..ReceiverConfig::default()
        });
        let acked: Vec<bool> = (0..30).map(|s| r.on_segment(Time(s), s, Time(0), false).is_some()).collect();
        assert!(acked[..22].iter().all(|&a| a), "{acked:?}");
        assert_eq!(acked[22..], [false, true, false, true, false, true, false, true]);
        let a = r.on_segment(Time(99), 30, Time(0), false);
        assert!(a.is_none());
        let a = r.on_segment(Time(100), 31, Time(0), false).unwrap();
        assert_eq!(a.tsval, Some(Time(100)));
        assert_eq!(a.window, Some(80_896), "the advertised window: the clamp, 131,072·158/256, nothing held");
    }

    #[test]
    fn at_most_three_blocks() {
        let mut r = rx();
        for s in [1, 3, 5, 7, 9] {
            r.on_segment(Time(0), s, Time(0), false);
        }
        let a = r.on_segment(Time(0), 11, Time(0), false).unwrap();
        assert_eq!(a.n_sack, 3);
        assert_eq!(a.sack[0], SackBlock { start: 11, end: 12 });
    }

    #[test]
    fn delayed_acks_every_second_segment_or_on_the_timer() {
        let mut r = Receiver::new(ReceiverConfig { delack_segments: 2, ..ReceiverConfig::default() });
        assert!(r.on_segment(Time(0), 0, Time(0), false).is_none());
        assert_eq!(r.next_timer(), Some(Time::from_millis(40)));
        assert_eq!(r.on_segment(Time(1), 1, Time(0), false).unwrap().cum_ack, 2);
        assert!(r.on_segment(Time(2), 2, Time(0), false).is_none());
        let a = r.on_timer(Time::from_millis(41)).unwrap();
        assert_eq!(a.cum_ack, 3);
        // Out of order: acknowledged at once.
        assert!(r.on_segment(Time(3), 5, Time(0), false).is_some());
    }

    /// A timer event that comes before the deadline (the deadline moved on since it was armed)
    /// leaves the deadline armed, so the pending segment's ACK still goes at 40 ms.
    #[test]
    fn an_early_timer_keeps_the_delayed_ack_deadline() {
        let mut r = Receiver::new(ReceiverConfig { delack_segments: 2, ..ReceiverConfig::default() });
        r.on_segment(Time(0), 0, Time(0), false);
        r.on_segment(Time(1), 1, Time(0), false).unwrap();
        let ms = Time::from_millis;
        assert!(r.on_segment(ms(2), 2, Time(0), false).is_none());
        assert!(r.on_timer(ms(40)).is_none(), "the first deadline's event, 2 ms early");
        assert_eq!(r.next_timer(), Some(ms(42)));
        assert_eq!(r.on_timer(ms(42)).unwrap().cum_ack, 3);
    }

    /// Linux's SACK compression after a loss on 10 Mbit/s (segments 1.2 ms apart), with the
    /// quick-ACK budget spent: the three segments past the hole are ACKed at once; the fourth
    /// starts the 1.1 ms timer (min(1 ms, RTT/20) + 100 µs of slack), the fifth arrives before it
    /// fires and is held too, and the timer's ACK SACKs both. The retransmission that fills the
    /// hole is ACKed at once.
    #[test]
    fn out_of_order_acks_past_the_third_wait_for_the_compressed_ack_timer() {
        use super::super::rcv_window::{RcvWindowConfig, TESTBED_SCALING_RATIO};
        let mut r = Receiver::new(ReceiverConfig {
            delack_segments: 2,
            rcv_window: Some(RcvWindowConfig { advmss: 1448, scaling_ratio: TESTBED_SCALING_RATIO }),
            sack_compression: true,
            ..ReceiverConfig::default()
        });
        let at = |k: u64| Time::from_micros(1_200 * k);
        let rtt = Time::from_millis(60);
        // 400 segments in order, one round trip's worth echoing an ACK 60 ms old: the budget is
        // spent and the receiver has its RTT.
        for s in 0..400 {
            r.on_arrival(at(s), s, 1448, at(s), false, 0, (s >= 50).then(|| at(s) - rtt), &mut Vec::new());
        }
        let mut out = Vec::new();
        let mut arrive = |r: &mut Receiver, k: u64, seq: u64| {
            out.clear();
            r.on_arrival(at(k), seq, 1448, at(k), false, 0, Some(at(k) - rtt), &mut out);
            out.len()
        };
        // 400 lost; 401-405 arrive.
        assert_eq!([401, 402, 403].map(|s| arrive(&mut r, s, s)), [1, 1, 1], "three duplicate ACKs at once");
        assert_eq!(arrive(&mut r, 404, 404), 0, "the fourth is held");
        assert_eq!(r.next_timer(), Some(at(404) + Time::from_micros(1_100)));
        assert_eq!(arrive(&mut r, 405, 405), 0, "so is the fifth, 1.2 ms later: the timer was due at 1.1 ms");
        let a = r.on_timer_ack(at(404) + Time::from_micros(1_100)).unwrap();
        assert_eq!((a.cum_ack, a.sack_blocks()[0]), (400, SackBlock { start: 401, end: 406 }));
        assert_eq!(r.next_timer(), None, "nothing held, nothing pending");
        assert_eq!(arrive(&mut r, 406, 406), 0, "the same rcv_nxt: no three duplicates again");
        assert_eq!(arrive(&mut r, 407, 400), 1, "the retransmission fills the hole: ACKed at once");
        assert_eq!(r.rcv_nxt(), 407);
    }

    #[test]
    fn duplicates_are_counted_and_acked() {
        let mut r = rx();
        r.on_segment(Time(0), 0, Time(0), false);
        let a = r.on_segment(Time(0), 0, Time(0), false).unwrap();
        assert_eq!(a.cum_ack, 1);
        assert_eq!(r.stats().duplicate_segments, 1);
    }

    #[test]
    fn without_sack_no_blocks() {
        let mut r = Receiver::new(ReceiverConfig { sack: false, ..ReceiverConfig::default() });
        r.on_segment(Time(0), 2, Time(0), false);
        let a = r.on_segment(Time(0), 3, Time(0), false).unwrap();
        assert_eq!((a.cum_ack, a.n_sack), (0, 0));
    }
    fn attacker(attack: Misbehaviour) -> Receiver {
        Receiver::new(ReceiverConfig { attack: Some(attack), ..ReceiverConfig::default() })
    }

    #[test]
    fn ack_division_acknowledges_a_segment_in_parts_then_whole() {
        let mut r = attacker(Misbehaviour::AckDivision { split: 4 });
        let mut out = Vec::new();
        r.on_arrival(Time(0), 0, 1000, Time(0), false, 0, None, &mut out);
        let got: Vec<(u64, u32)> = out.iter().map(|a| (a.cum_ack, a.offset)).collect();
        assert_eq!(got, [(0, 250), (0, 500), (0, 750), (1, 0)]);
        assert_eq!(r.stats().attack_acks, 3);
        assert_eq!(r.stats().delivered_bytes, 1000);
    }

    #[test]
    fn spoofed_duplicates_only_while_a_hole_is_open() {
        let mut r = attacker(Misbehaviour::DupAckSpoofing { count: 3 });
        let mut out = Vec::new();
        r.on_arrival(Time(0), 0, 1000, Time(0), false, 0, None, &mut out);
        assert_eq!(out.len(), 1);
        out.clear();
        r.on_arrival(Time(0), 2, 1000, Time(0), false, 0, None, &mut out);
        assert_eq!(out.len(), 4);
        assert!(out.iter().all(|a| a.cum_ack == 1));
    }

    /// Optimistic ACKs run `lead` ahead of the highest segment seen; a segment below the claim
    /// that never arrives is the application's loss; the honest ACK goes first.
    #[test]
    fn optimistic_acks_lead_and_their_holes_are_lost() {
        let mut r = attacker(Misbehaviour::OptimisticAck { lead: 5 });
        let mut out = Vec::new();
        r.on_arrival(Time(0), 0, 1000, Time(0), false, 0, None, &mut out);
        assert_eq!(out.iter().map(|a| a.cum_ack).collect::<Vec<_>>(), [1, 6]);
        // Segment 1 is dropped; 2 and 3 arrive.
        for s in [2, 3] {
            r.on_arrival(Time(0), s, 1000, Time(0), false, 0, None, &mut out);
        }
        assert_eq!(out.last().unwrap().cum_ack, 9);
        assert_eq!(r.app_lost_segments(), 1);
        assert_eq!(r.stats().delivered_bytes, 3000);
    }

    /// The nonce sum covers exactly the segments below the cumulative ACK, in whatever order
    /// they arrived.
    #[test]
    fn the_nonce_sum_follows_the_cumulative_ack() {
        let mut r = rx();
        let mut out = Vec::new();
        r.on_arrival(Time(0), 1, 1000, Time(0), false, 7, None, &mut out);
        assert_eq!((out[0].cum_ack, out[0].nonce_sum), (0, 0));
        r.on_arrival(Time(0), 0, 1000, Time(0), false, 5, None, &mut out);
        assert_eq!((out[1].cum_ack, out[1].nonce_sum), (2, 12));
    }
}

