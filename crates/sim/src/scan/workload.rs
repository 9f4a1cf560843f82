//! The event loop of a scan: the scanner ([`cc::scan::HostDiscovery`]) sends probes through
//! its access link to the target addresses; up hosts (for the probe types they answer) and
//! routers answer after the address's RTT; answers come back through the access link.
//!
//! The simulator's [`EventQueue`] carries four kinds of events: `SenderTimer` (the scanner's
//! wake-up; `aux` is its generation, stale ones are skipped), `DataArrival` (a probe reaches its
//! address; `target` is the packet's slot), `AckArrival` (an answer reaches the scanner's access
//! link) and `LinkDeparture` (the answer has crossed it and reaches the scanner).

use super::access::AccessLink;
use super::config::{ScanConfig, PACKET_BYTES};
use super::result::{RatioStats, ScanResult, WindowPoint, RATIO_UNITS};
use super::targets::{self, Address};
use crate::event::{EventKind, EventQueue};
use crate::impair::LossProcess;
use crate::netem::LossSpec;
use crate::stats::Histogram;
use cc::scan::perf::PING_GROUP_SZ;
use cc::scan::{HostDiscovery, HostState, ProbeSend, ProbeToken, ReplyKind, Variant};
use cc::rng::CcRng;
use cc::{component_rng, Time};
use rand_distr::{Distribution, Exp1};

const RNG_UPLINK_LOSS: u64 = (2 << 32) + 2;
const RNG_DOWNLINK_LOSS: u64 = (2 << 32) + 3;
const RNG_JITTER: u64 = (2 << 32) + 4;

/// One direction of a trip to an address: half its RTT, stretched by the path's jitter.
fn one_way(rtt: Time, jitter: f64, rng: &mut CcRng) -> Time {
    let half = rtt.0 / 2;
    if jitter == 0.0 {
        return Time(half);
    }
    let e: f64 = Exp1.sample(rng);
    Time(half + (half as f64 * jitter * e).round() as u64)
}

/// A packet in flight: a probe on its way out, then its answer on the way back.
#[derive(Copy, Clone, Debug)]
struct Packet {
    token: ProbeToken,
    answer: ReplyKind,
}

/// Packets in flight, by slot; freed slots are reused.
#[derive(Default)]
struct Slab {
    slots: Vec<Packet>,
    free: Vec<u32>,
}

impl Slab {
    fn insert(&mut self, p: Packet) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = p;
                i
            }
            None => {
                self.slots.push(p);
                self.slots.len() as u32 - 1
            }
        }
    }
    fn remove(&mut self, i: u32) -> Packet {
        self.free.push(i);
        self.slots[i as usize]
    }
}

fn loss(p: f64, seed: u64, component: u64) -> LossProcess {
    let spec = if p > 0.0 { LossSpec::Random { p, correlation: 0.0 } } else { LossSpec::None };
    LossProcess::new(spec, component_rng(seed, component))
}

/// Runs one variant's sweep to the end (or to the time limit).
pub fn run(cfg: &ScanConfig, variant: Variant) -> ScanResult {
    let net = &cfg.network;
    let mut addresses = targets::draw(cfg);
    let mut uplink = AccessLink::new(net.access_rate, net.access_buffer, loss(net.loss, cfg.seed, RNG_UPLINK_LOSS));
    let mut downlink = AccessLink::new(net.access_rate, net.access_buffer, loss(net.loss, cfg.seed, RNG_DOWNLINK_LOSS));
    let mut jitter = component_rng(cfg.seed, RNG_JITTER);
    let rules = if cfg.unanswered_is_drop { variant.rules().with_unanswered_as_drop() } else { variant.rules() };
    let mut scanner = HostDiscovery::with_rules(variant, rules, cfg.timing, cfg.hosts, cfg.probes, PING_GROUP_SZ as u32, Time::ZERO);
    let mut q = EventQueue::default();
    let mut packets = Slab::default();
    let mut reached = vec![false; cfg.hosts as usize];
    let mut ratio = Histogram::default();
    let mut samples = Vec::new();
    let mut sends: Vec<ProbeSend> = Vec::new();
    let mut unreachables = 0u64;
    let mut timer_gen = 0u32;
    // ∫ cwnd dt and ∫ timeout dt of the running batch's group, for time averages.
    let (mut cwnd_area, mut timeout_area, mut last_t) = (0.0f64, 0.0f64, Time::ZERO);
    let group_window = |s: &HostDiscovery| {
        let t = &s.batch().gstats.timing;
        (t.cwnd, t.ssthresh as f64)
    };
    let mut window_now = group_window(&scanner);
    let mut window = vec![WindowPoint { time_s: 0.0, cwnd: window_now.0, ssthresh: window_now.1 }];
    q.schedule(Time::ZERO, EventKind::SenderTimer, 0, timer_gen);

    while let Some(e) = q.pop() {
        let now = e.time;
        if now > cfg.time_limit || scanner.is_done() {
            break;
        }
        let g = &scanner.batch().gstats;
        let dt = (now - last_t).as_secs_f64();
        cwnd_area += g.timing.cwnd * dt;
        timeout_area += g.to.timeout().as_secs_f64() * dt;
        last_t = now;
        match e.kind {
            EventKind::SenderTimer => {
                if e.aux != timer_gen {
                    continue;
                }
                sends.clear();
                scanner.poll(now, &mut sends);
                for s in &sends {
                    let Some(out) = uplink.offer(now, PACKET_BYTES) else { continue };
                    let rtt = match &addresses[s.token.target as usize] {
                        Address::Up { rtt, answers } if answers & (1 << s.probe_type) != 0 => *rtt,
                        Address::Routed { rtt, .. } => *rtt,
                        Address::Up { .. } | Address::Silent => continue,
                    };
                    let slot = packets.insert(Packet { token: s.token, answer: ReplyKind::Up });
                    q.schedule(out + one_way(rtt, net.jitter, &mut jitter), EventKind::DataArrival, slot, 0);
                }
                timer_gen += 1;
                if let Some(t) = scanner.next_wakeup() {
                    q.schedule(t.max(now), EventKind::SenderTimer, 0, timer_gen);
                }
            }
            EventKind::DataArrival => {
                let p = packets.slots[e.target as usize];
                let answered = match &mut addresses[p.token.target as usize] {
                    Address::Up { rtt, .. } => Some((*rtt, ReplyKind::Up)),
                    Address::Routed { rtt, router } => router.answers(now).then_some((*rtt, ReplyKind::Unreachable)),
                    Address::Silent => None,
                };
                let Some((rtt, answer)) = answered else {
                    packets.remove(e.target);
                    continue;
                };
                packets.slots[e.target as usize].answer = answer;
                q.schedule(now + one_way(rtt, net.jitter, &mut jitter), EventKind::AckArrival, e.target, 0);
            }
            EventKind::AckArrival => match downlink.offer(now, PACKET_BYTES) {
                Some(t) => q.schedule(t, EventKind::LinkDeparture, e.target, 0),
                None => {
                    packets.remove(e.target);
                }
            },
            EventKind::LinkDeparture => {
                let p = packets.remove(e.target);
                match p.answer {
                    ReplyKind::Up => reached[p.token.target as usize] = true,
                    _ => unreachables += 1,
                }
                scanner.on_reply(now, p.token, p.answer);
                // Read replies, then the next send phase, at this instant.
                timer_gen += 1;
                q.schedule(now, EventKind::SenderTimer, 0, timer_gen);
            }
            _ => unreachable!("the scan workload schedules no other events"),
        }
        let w = group_window(&scanner);
        if w != window_now {
            let t = now.as_secs_f64();
            window.push(WindowPoint { time_s: t, cwnd: window_now.0, ssthresh: window_now.1 });
            window.push(WindowPoint { time_s: t, cwnd: w.0, ssthresh: w.1 });
            window_now = w;
        }
        scanner.take_ratio_samples(&mut samples);
        for r in samples.drain(..) {
            ratio.record((r * RATIO_UNITS).round() as u64);
        }
    }

    let span = last_t.as_secs_f64().max(1e-9);
    let states = scanner.host_states();
    let c = scanner.counters();
    let count = |f: &dyn Fn(usize) -> bool| (0..cfg.hosts as usize).filter(|&i| f(i)).count() as u64;
    ScanResult {
        variant: if cfg.unanswered_is_drop { format!("{} (unanswered = drop)", variant.name()) } else { variant.name().to_string() },
        finished: scanner.is_done(),
        scan_time_s: scanner.finished_at().unwrap_or(cfg.time_limit).as_secs_f64(),
        probes_sent: c.probes_sent,
        hosts_found: count(&|i| states[i] == HostState::Up),
        hosts_up: count(&|i| matches!(addresses[i], Address::Up { .. })),
        hosts_reachable: count(&|i| reached[i]),
        packet_ratio: RatioStats::from_histogram(&ratio),
        retransmissions: c.retransmissions,
        timeouts: c.timeouts,
        group_drops: c.group_drops,
        pings_sent: c.pings_sent,
        ping_timeouts: c.ping_timeouts,
        host_drops: c.host_drops,
        host_window_holds: c.host_window_holds,
        unreachables_received: unreachables,
        mean_group_cwnd: cwnd_area / span,
        mean_group_timeout_s: timeout_area / span,
        batches: cfg.hosts.div_ceil(cc::scan::perf::PING_GROUP_SZ as u32),
        window,
    }
}
