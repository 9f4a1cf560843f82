//! The bottleneck: a drop list, netem loss and a token-bucket policer on entry, a FIFO limited
//! in packets or bytes
//! under a queue discipline (drop-tail, RED, CoDel, step marking), a serialiser at the link's
//! (possibly scheduled) rate, and netem delay on exit.
//!
//! The model keeps no clock: every call takes `now`. The simulator passes its event time; the
//! testbed's emulator (crate `testbed`) passes the wall clock and carries real frames through
//! the same code.

use crate::config::{SimConfig, TCP_HEADER_BYTES};
use crate::impair::{DelayProcess, LossProcess};
use crate::packet::{DataPacket, CE, NOT_ECT};
use crate::policer::Policer;
use crate::qdisc::{LinkFacts, Qdisc, Verdict};
use crate::stats::Histogram;
use crate::trace::{Trace, TraceCursor, OPPORTUNITY_BYTES};
use cc::rng::component_rng;
use cc::{Bytes, Rate, Time};
use std::collections::VecDeque;

/// What happened to a packet offered to the bottleneck.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    Queued,
    /// Dropped by the netem loss process.
    RandomLoss,
    /// Dropped because the link's drop list names its arrival number.
    Listed,
    /// Dropped by the policer: the bucket held too few tokens.
    Policed,
    /// Dropped because the queue was full.
    Overflow,
    /// Dropped by the queue discipline (RED).
    AqmDrop,
}

/// Counters and distributions of the bottleneck.
#[derive(Clone, Debug, Default)]
pub struct LinkStats {
    /// Packets offered to the link.
    pub arrivals: u64,
    pub forwarded: u64,
    pub forwarded_wire_bytes: Bytes,
    pub overflow_drops: u64,
    pub random_drops: u64,
    /// Drops the link's drop list asked for ([`crate::LinkConfig::drop_packets`]).
    pub listed_drops: u64,
    /// Drops by the token-bucket policer ([`crate::LinkConfig::policer`]).
    pub policed_drops: u64,
    /// Drops decided by the queue discipline (RED, CoDel), not by overflow.
    pub aqm_drops: u64,
    /// Packets CE-marked by the queue discipline.
    pub ecn_marks: u64,
    /// Buffer-overflow episodes (the talk's "buffer overflows"): overflow drops less than one
    /// full-buffer drain time apart belong to the same episode, so a run of drops while the
    /// queue stays full counts once.
    pub overflow_events: u64,
    /// Queueing delay (sojourn before service) of forwarded packets, in microseconds.
    pub queue_delay_us: Histogram,
    /// Queue length in packets seen by arriving packets.
    pub queue_len_seen: Histogram,
    /// ∫ queue length dt, in packet·ns, for the time-average.
    pub queue_area: f64,
    pub max_queue_packets: u64,
    /// ∫ rate dt: bytes the link could have carried.
    pub capacity_bytes: f64,
}

impl LinkStats {
    /// Every drop, whatever decided it.
    pub fn drops(&self) -> u64 {
        self.overflow_drops + self.random_drops + self.listed_drops + self.policed_drops + self.aqm_drops
    }
}

/// RNG component ids of the link's random processes (flows use their index).
const RNG_LINK_LOSS: u64 = 1 << 32;
const RNG_LINK_DELAY: u64 = (1 << 32) + 1;
const RNG_LINK_AQM: u64 = (1 << 32) + 2;
const RNG_REVERSE_LOSS: u64 = (1 << 32) + 3;
const RNG_REVERSE_DELAY: u64 = (1 << 32) + 4;

/// The return path's netem impairments (ACKs and control messages): loss, then delay.
pub struct ReturnPath;

impl ReturnPath {
    pub fn loss(cfg: &SimConfig) -> LossProcess {
        LossProcess::new(cfg.link.reverse_netem.loss, component_rng(cfg.seed, RNG_REVERSE_LOSS))
    }
    pub fn delay(cfg: &SimConfig) -> DelayProcess {
        DelayProcess::new(&cfg.link.reverse_netem, component_rng(cfg.seed, RNG_REVERSE_DELAY))
    }
}

pub struct Bottleneck {
    queue: VecDeque<DataPacket>,
    queue_bytes: Bytes,
    limit_packets: u64,
    limit_bytes: Bytes,
    rate: Rate,
    in_service: Option<DataPacket>,
    /// Delivery opportunities from a Mahimahi trace, instead of a constant rate.
    trace: Option<TraceCursor>,
    qdisc: Qdisc,
    loss: LossProcess,
    pub delay: DelayProcess,
    /// Arrival numbers still to drop (1-based, increasing), reversed so the next is last.
    drop_list: Vec<u64>,
    /// The token-bucket policer on entry, if any.
    policer: Option<Policer>,
    /// The last overflow drop, and how long a full queue takes to drain.
    last_overflow: Option<Time>,
    last_change: Time,
    last_capacity_update: Time,
    pub stats: LinkStats,
}

impl Bottleneck {
    pub fn new(
        rate: Rate,
        limit_packets: u64,
        limit_bytes: Bytes,
        qdisc: Qdisc,
        loss: LossProcess,
        delay: DelayProcess,
    ) -> Bottleneck {
        Bottleneck {
            queue: VecDeque::new(),
            queue_bytes: 0,
            limit_packets,
            limit_bytes,
            rate,
            in_service: None,
            trace: None,
            qdisc,
            loss,
            delay,
            drop_list: Vec::new(),
            policer: None,
            last_overflow: None,
            last_change: Time::ZERO,
            last_capacity_update: Time::ZERO,
            stats: LinkStats::default(),
        }
    }

    /// The bottleneck a configuration describes: its initial rate (or trace), queue limit,
    /// discipline and forward netem processes, each seeded from `cfg.seed`. The rate
    /// schedule is the caller's to apply (`set_rate`).
    pub fn from_config(cfg: &SimConfig) -> Bottleneck {
        let (limit_packets, limit_bytes) = cfg.queue_limit();
        let netem = &cfg.link.netem;
        let facts = LinkFacts {
            rate: cfg.initial_rate(),
            packet_bytes: cfg.flows.first().map_or(1448, |f| f.sender.mss) + TCP_HEADER_BYTES,
            rtt: cfg.reference_rtt(),
            limit_packets,
        };
        let mut link = Bottleneck::new(
            cfg.initial_rate(),
            limit_packets,
            limit_bytes,
            Qdisc::new(&cfg.link.qdisc, facts, component_rng(cfg.seed, RNG_LINK_AQM)),
            LossProcess::new(netem.loss, component_rng(cfg.seed, RNG_LINK_LOSS)),
            DelayProcess::new(netem, component_rng(cfg.seed, RNG_LINK_DELAY)),
        );
        if let Some(t) = &cfg.link.trace {
            link.use_trace(t.clone());
        }
        link.drop_list = cfg.link.drop_packets.iter().rev().copied().collect();
        link.policer = cfg.link.policer.map(Policer::new);
        link
    }

    pub fn rate(&self) -> Rate {
        self.rate
    }
    pub fn queue_packets(&self) -> u64 {
        self.queue.len() as u64
    }
    pub fn queue_bytes(&self) -> Bytes {
        self.queue_bytes
    }
    /// Packets held: queued plus the one being serialised.
    pub fn packets_held(&self) -> u64 {
        self.queue.len() as u64 + self.in_service.is_some() as u64
    }

    fn account_queue(&mut self, now: Time) {
        self.stats.queue_area += self.queue.len() as f64 * (now - self.last_change).0 as f64;
        self.last_change = now;
    }

    fn account_capacity(&mut self, now: Time) {
        self.stats.capacity_bytes += self.rate.bytes_in(now - self.last_capacity_update);
        self.last_capacity_update = now;
    }

    pub fn set_rate(&mut self, now: Time, rate: Rate) {
        self.account_capacity(now);
        self.rate = rate;
    }

    /// Offers a packet. Returns what happened, and whether the link went from idle to busy
    /// (the caller must then schedule the departure at the returned time).
    pub fn arrive(&mut self, now: Time, mut p: DataPacket) -> (Admission, Option<Time>) {
        self.stats.arrivals += 1;
        self.stats.queue_len_seen.record(self.queue.len() as u64);
        if self.drop_list.last() == Some(&self.stats.arrivals) {
            self.drop_list.pop();
            self.stats.listed_drops += 1;
            return (Admission::Listed, None);
        }
        if self.loss.lose() {
            self.stats.random_drops += 1;
            return (Admission::RandomLoss, None);
        }
        if let Some(policer) = &mut self.policer {
            if !policer.conforms(now, p.wire as Bytes) {
                self.stats.policed_drops += 1;
                return (Admission::Policed, None);
            }
        }
        match self.qdisc.on_enqueue(now, self.queue.len() as u64, p.ecn != NOT_ECT) {
            Verdict::Pass => {}
            Verdict::Mark => {
                p.ecn = CE;
                self.stats.ecn_marks += 1;
            }
            Verdict::Drop => {
                self.stats.aqm_drops += 1;
                return (Admission::AqmDrop, None);
            }
        }
        if self.queue.len() as u64 >= self.limit_packets || self.queue_bytes + p.wire as Bytes > self.limit_bytes {
            self.stats.overflow_drops += 1;
            let drain = self.rate.tx_time(self.queue_bytes).max(Time::from_millis(1));
            if self.last_overflow.is_none_or(|t| now - t > drain) {
                self.stats.overflow_events += 1;
            }
            self.last_overflow = Some(now);
            return (Admission::Overflow, None);
        }
        p.enqueued = now;
        self.account_queue(now);
        self.queue.push_back(p);
        self.queue_bytes += p.wire as Bytes;
        self.stats.max_queue_packets = self.stats.max_queue_packets.max(self.queue.len() as u64);
        if self.in_service.is_none() {
            (Admission::Queued, self.start_service(now))
        } else {
            (Admission::Queued, None)
        }
    }

    /// Takes the head of the queue into service (the discipline may drop or mark it first);
    /// returns when it will have left, or `None` if the queue emptied.
    fn start_service(&mut self, now: Time) -> Option<Time> {
        self.account_queue(now);
        while let Some(mut p) = self.queue.pop_front() {
            self.queue_bytes -= p.wire as Bytes;
            let sojourn = now - p.enqueued;
            match self.qdisc.on_dequeue(now, sojourn, self.queue_bytes, p.ecn != NOT_ECT) {
                Verdict::Drop => {
                    self.stats.aqm_drops += 1;
                    continue;
                }
                Verdict::Mark => {
                    if p.ecn != CE {
                        p.ecn = CE;
                        self.stats.ecn_marks += 1;
                    }
                }
                Verdict::Pass => {}
            }
            self.stats.queue_delay_us.record(sojourn.0 / 1_000);
            self.in_service = Some(p);
            return Some(match &mut self.trace {
                Some(cursor) => cursor.take(now),
                None => now + self.rate.tx_time(p.wire as Bytes),
            });
        }
        self.qdisc.on_idle(now);
        None
    }

    /// The packet in service has left. Returns it, and the next departure time if another
    /// packet went into service.
    pub fn depart(&mut self, now: Time) -> (DataPacket, Option<Time>) {
        let p = self.in_service.take().expect("departure without a packet in service");
        self.stats.forwarded += 1;
        self.stats.forwarded_wire_bytes += p.wire as Bytes;
        let next = self.start_service(now);
        (p, next)
    }

    /// Drives the link from a trace's delivery opportunities.
    pub fn use_trace(&mut self, trace: Trace) {
        self.rate = trace.mean_rate();
        self.trace = Some(TraceCursor::new(trace));
    }

    /// Bytes the link could carry in `[from, to)`.
    pub fn capacity_between(&self, from: Time, to: Time) -> f64 {
        match &self.trace {
            Some(c) => {
                let t = c.trace();
                (t.opportunities_before(to) - t.opportunities_before(from)) as f64 * OPPORTUNITY_BYTES as f64
            }
            None => self.rate.bytes_in(to - from),
        }
    }

    /// Closes the time integrals at the end of the run.
    pub fn finish(&mut self, now: Time) {
        self.account_queue(now);
        self.account_capacity(now);
        if let Some(c) = &self.trace {
            self.stats.capacity_bytes = c.trace().opportunities_before(now) as f64 * OPPORTUNITY_BYTES as f64;
        }
    }
}
