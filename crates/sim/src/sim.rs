//! The discrete-event core and the dumbbell: flows' senders feed the bottleneck; its output
//! crosses each flow's forward pipe to the receiver; ACKs return on an uncongested pipe.
//!
//! Time is integer nanoseconds. Events are `(time, seq)`-ordered; each component schedules
//! only its head event; timers are cancelled lazily by generation numbers. Every random
//! process has its own RNG derived from `(seed, component id)`.

use crate::config::{SimConfig, Transport};
use crate::endpoint::{Back, Endpoint, FlowCounters};
use crate::event::{EventKind, EventQueue};
use crate::hostnoise::HostClock;
use crate::impair::{DelayProcess, LossProcess};
use crate::link::{Admission, Bottleneck, ReturnPath};
use crate::packet::{DataPacket, ECT0, NOT_ECT};
use crate::pipe::Pipe;
use crate::results::{FlowSample, LinkSample, RunResult, TimeSeries};
use crate::stats::Histogram;
use crate::sink::SampleSink;
use crate::tap::{FlowInfo, Tap};
use cc::rng::{component_rng, Rng};
use cc::transport::SenderCore;
use cc::{Rate, Time};

/// RNG component id of the hosts' ACK-processing jitter (flows use their index, the link's
/// processes the ids in `link`).
const RNG_HOST_JITTER: u64 = (1 << 32) + 5;
/// RNG component id of the senders' send overhead (`LinkConfig::send_overhead`).
const RNG_SEND_OVERHEAD: u64 = (1 << 32) + 6;

pub(crate) struct Flow {
    pub ep: Endpoint,
    /// Header bytes added to each packet's payload on the wire.
    header_bytes: u64,
    /// The sender's access link's delay (`FlowConfig::access_delay`), then the rest of the
    /// forward half: bottleneck to receiver.
    access_delay: Time,
    pub fwd_delay: Time,
    pub rev_delay: Time,
    /// Packets on the access link, between the sender and the bottleneck (a constant delay:
    /// FIFO).
    access_pipe: Pipe<DataPacket>,
    data_pipe: Pipe<DataPacket>,
    data_gen: u32,
    back_pipe: Pipe<Back>,
    back_gen: u32,
    /// Data packets that reached the receiver (duplicates included).
    pub arrivals: u64,
    /// Times of the sender-timer events in the queue, latest first. An event is pushed only for
    /// a time earlier than all of these, so they stay in decreasing order and pop from the end.
    /// A wake-up that finds nothing due just re-arms: a timer that moves later (the RTO, on
    /// every ACK) costs no event, and the queue holds a few events per flow, not one per ACK.
    timer_events: Vec<Time>,
    rx_timer_gen: u32,
    rx_timer_at: Option<Time>,
    nic_free_at: Time,
    /// The end of the send overhead drawn for the last ACK (ns-2's `delsnd_timer_`): until
    /// then the sender sends nothing an ACK released.
    overhead_until: Time,
    pub access_rate: Rate,
    pub started: bool,
    pub active: bool,
    pub start: Time,
    pub end: Option<Time>,
    pub completed_at: Option<Time>,
    pub rtt_us: Histogram,
    /// Counters frozen when the flow stopped.
    pub final_stats: Option<FlowCounters>,
    /// Delivered bytes at the fairness window's edges.
    pub window_delivered: [u64; 2],
    /// For per-interval rates in the time series.
    last_sample_delivered: u64,
    last_sample_sent: u64,
}

/// A simulation run.
pub struct Simulation {
    cfg: SimConfig,
    now: Time,
    events: EventQueue,
    link: Bottleneck,
    pub(crate) flows: Vec<Flow>,
    series: Option<TimeSeries>,
    /// Where samples go instead of `series` (see [`Simulation::run_streaming`]).
    sink: Option<Box<dyn SampleSink>>,
    last_link_sample_forwarded: u64,
    fairness_window: (Time, Time),
    tap: Option<Box<dyn Tap>>,
    /// The return path's netem impairments (shared by every flow, as one qdisc would be).
    reverse_loss: LossProcess,
    reverse_delay: DelayProcess,
    /// Per-flow ACK processing jitter (a host that delays its ACKs; off by default).
    host_jitter: Time,
    jitter_rng: cc::CcRng,
    /// The senders' random send overhead (Floyd & Jacobson's, as ns-2's `overhead_`).
    send_overhead: Time,
    overhead_rng: cc::CcRng,
    /// Each flow's sender and receiver host clocks, when the host noise model is on (empty
    /// when it is off: no state, no random draws).
    hosts: Vec<[HostClock; 2]>,
    /// Feedback a receiver produced in one event, before it is sent back: one buffer reused
    /// for every event, so that no packet costs an allocation.
    back_scratch: Vec<Back>,
}

/// Flow `i`'s sender host is host `2i` and its receiver host `2i + 1` (their RNG streams).
fn host_clocks(cfg: &SimConfig) -> Vec<[HostClock; 2]> {
    let noise = cfg.link.host_noise;
    if noise.is_off() {
        return Vec::new();
    }
    (0..cfg.flows.len() as u64).map(|i| [HostClock::new(noise, cfg.seed, 2 * i), HostClock::new(noise, cfg.seed, 2 * i + 1)]).collect()
}

impl Simulation {
    pub fn new(cfg: SimConfig) -> Result<Simulation, String> {
        cfg.validate()?;
        let link = Bottleneck::from_config(&cfg);
        let reordering = link.delay.has_jitter();
        let mut events = EventQueue::default();
        let flows = cfg
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let rng = component_rng(cfg.seed, i as u64);
                let (ep, header_bytes) = Endpoint::with_attack(&f.transport, &f.sender, f.delayed_ack, f.attack, rng);
                // With a handshake the data starts once SYN and SYN-ACK have crossed the path.
                let first_data = if f.handshake && matches!(f.transport, Transport::Tcp(_)) {
                    events.schedule(f.start, EventKind::SynSent, i as u32, 0);
                    f.start + cfg.base_rtt(i)
                } else {
                    f.start
                };
                events.schedule(first_data, EventKind::FlowStart, i as u32, 0);
                if let Some(stop) = f.stop {
                    events.schedule(stop, EventKind::FlowStop, i as u32, 0);
                }
                for (k, &(at, _)) in f.app_schedule.iter().enumerate() {
                    events.schedule(at, EventKind::AppRateChange, i as u32, k as u32);
                }
                let half = f.forward_delay();
                Flow {
                    ep,
                    header_bytes,
                    access_delay: f.access_delay,
                    fwd_delay: half - f.access_delay,
                    rev_delay: f.rtt - half,
                    access_pipe: Pipe::new(false),
                    data_pipe: Pipe::new(reordering),
                    data_gen: 0,
                    back_pipe: Pipe::new(cfg.link.reverse_netem.jitter > Time::ZERO),
                    back_gen: 0,
                    arrivals: 0,
                    timer_events: Vec::new(),
                    rx_timer_gen: 0,
                    rx_timer_at: None,
                    nic_free_at: Time::ZERO,
                    overhead_until: Time::ZERO,
                    access_rate: cfg.access_rate(i),
                    started: false,
                    active: false,
                    start: f.start,
                    end: None,
                    completed_at: None,
                    rtt_us: Histogram::default(),
                    final_stats: None,
                    window_delivered: [0, 0],
                    last_sample_delivered: 0,
                    last_sample_sent: 0,
                }
            })
            .collect();
        for (i, &(t, _)) in cfg.link.schedule.iter().enumerate() {
            events.schedule(t, EventKind::LinkRateChange, i as u32, 0);
        }
        let series = cfg.sample_interval.map(|iv| {
            events.schedule(iv, EventKind::Sample, 0, 0);
            TimeSeries::default()
        });
        // Jain's index is taken over the window in which every flow is running: from the last
        // start to the first planned stop (or the end of the run).
        let ws = cfg.flows.iter().map(|f| f.start).max().unwrap_or(Time::ZERO).min(cfg.duration);
        let we = cfg.flows.iter().map(|f| f.stop.unwrap_or(cfg.duration)).min().unwrap_or(cfg.duration).min(cfg.duration);
        let fairness_window = if we > ws { (ws, we) } else { (Time::ZERO, cfg.duration) };
        Ok(Simulation {
            now: Time::ZERO,
            events,
            link,
            flows,
            series,
            sink: None,
            last_link_sample_forwarded: 0,
            fairness_window,
            tap: None,
            reverse_loss: ReturnPath::loss(&cfg),
            reverse_delay: ReturnPath::delay(&cfg),
            host_jitter: cfg.link.host_jitter.unwrap_or(Time::ZERO),
            jitter_rng: component_rng(cfg.seed, RNG_HOST_JITTER),
            send_overhead: cfg.link.send_overhead.unwrap_or_else(|| cfg.initial_rate().tx_time(1500)),
            overhead_rng: component_rng(cfg.seed, RNG_SEND_OVERHEAD),
            hosts: host_clocks(&cfg),
            back_scratch: Vec::new(),
            cfg,
        })
    }

    pub fn config(&self) -> &SimConfig {
        &self.cfg
    }

    pub fn now(&self) -> Time {
        self.now
    }

    /// Runs to the end with the time series streamed to `sink` as it is sampled (the result
    /// then holds none), and an optional tap on every packet; returns both with the result.
    pub fn run_streaming(
        mut self,
        sink: Box<dyn SampleSink>,
        tap: Option<Box<dyn Tap>>,
        progress: impl FnMut(f64),
    ) -> (RunResult, Box<dyn SampleSink>, Option<Box<dyn Tap>>) {
        self.series = None;
        self.sink = Some(sink);
        self.tap = tap;
        let result = self.run_to_end(progress);
        (result, self.sink.take().expect("the sink stays set during the run"), self.tap.take())
    }

    /// Runs to the end. `progress` is called now and then with the fraction of simulated
    /// time done.
    pub fn run(mut self, progress: impl FnMut(f64)) -> RunResult {
        self.run_to_end(progress)
    }

    fn run_to_end(&mut self, mut progress: impl FnMut(f64)) -> RunResult {
        let end = self.cfg.duration;
        let mut next_progress = 0u64;
        let (ws, we) = self.fairness_window;
        let mut window_marks = [false, false];
        while let Some(t) = self.events.peek_time() {
            if t > end {
                break;
            }
            for (k, edge) in [ws, we].into_iter().enumerate() {
                if !window_marks[k] && t >= edge {
                    window_marks[k] = true;
                    for f in &mut self.flows {
                        f.window_delivered[k] = f.ep.counters().bytes_delivered;
                    }
                }
            }
            let e = self.events.pop().expect("peeked");
            self.now = e.time;
            let i = e.target as usize;
            match e.kind {
                EventKind::LinkDeparture => self.on_link_departure(),
                EventKind::LinkRateChange => {
                    let (_, rate) = self.cfg.link.schedule[i];
                    self.link.set_rate(self.now, rate);
                }
                EventKind::AppRateChange => {
                    let (_, rate) = self.cfg.flows[i].app_schedule[e.aux as usize];
                    self.flows[i].ep.set_app_rate(self.now, rate);
                    if self.flows[i].active {
                        self.try_send(i);
                    }
                }
                EventKind::BottleneckArrival => self.on_bottleneck_arrival(i),
                EventKind::DataArrival => {
                    if e.aux == self.flows[i].data_gen {
                        self.on_data_arrival(i)
                    }
                }
                EventKind::AckArrival => {
                    if e.aux == self.flows[i].back_gen {
                        self.on_back_arrival(i)
                    }
                }
                EventKind::SenderTimer => {
                    let f = &mut self.flows[i];
                    let at = f.timer_events.pop();
                    debug_assert_eq!(at, Some(self.now), "sender-timer events pop in time order");
                    if f.active {
                        if f.ep.next_timer().is_some_and(|t| t <= self.now) {
                            f.ep.on_timer(self.now);
                        }
                        self.try_send(i);
                    }
                }
                EventKind::ReceiverTimer => {
                    if e.aux == self.flows[i].rx_timer_gen {
                        self.flows[i].rx_timer_at = None;
                        let mut out = std::mem::take(&mut self.back_scratch);
                        self.flows[i].ep.receiver_on_timer(self.now, &mut out);
                        self.send_all_back(i, &mut out);
                        self.back_scratch = out;
                        self.arm_receiver_timer(i);
                    }
                }
                EventKind::SynSent => {
                    let info = self.tap_info(i);
                    if let Some(tap) = &mut self.tap {
                        tap.syn_sent(self.now, i as u32, &info);
                    }
                }
                EventKind::FlowStart => {
                    let info = self.tap_info(i);
                    if let Some(tap) = &mut self.tap {
                        tap.flow_started(self.now, i as u32, &info);
                    }
                    let f = &mut self.flows[i];
                    // The SYN exchange is not simulated; its RTT sample (the path's base RTT)
                    // seeds the sender's estimator as it would.
                    if let Endpoint::Tcp { sender, .. } = &mut f.ep {
                        if self.cfg.flows[i].syn_rtt_sample {
                            sender.on_handshake(self.cfg.base_rtt(i));
                        }
                    }
                    f.started = true;
                    f.active = true;
                    self.try_send(i);
                }
                EventKind::FlowStop => self.stop_flow(i),
                EventKind::Sample => {
                    self.take_sample();
                    if let Some(iv) = self.cfg.sample_interval {
                        self.events.schedule(self.now + iv, EventKind::Sample, 0, 0);
                    }
                }
            }
            let done = self.events.processed();
            if done >= next_progress {
                next_progress = done + (1 << 16);
                progress(self.now.as_secs_f64() / end.as_secs_f64().max(1e-12));
            }
        }
        self.now = end;
        for k in 0..2 {
            if !window_marks[k] {
                for f in &mut self.flows {
                    f.window_delivered[k] = f.ep.counters().bytes_delivered;
                }
            }
        }
        for i in 0..self.flows.len() {
            if self.flows[i].active {
                self.stop_flow(i);
            }
        }
        self.link.finish(end);
        progress(1.0);
        let mut result = RunResult::collect(self);
        // Moved, not copied: a long run's series is the largest thing it holds.
        result.series = self.series.take();
        result
    }

    fn stop_flow(&mut self, i: usize) {
        let f = &mut self.flows[i];
        if f.end.is_none() {
            f.end = Some(self.now.max(f.start));
            f.final_stats = Some(f.ep.counters());
        }
        f.active = false;
    }

    /// What a tap is told of flow `i`.
    fn tap_info(&self, i: usize) -> FlowInfo {
        let f = &self.flows[i];
        let sender = &self.cfg.flows[i].sender;
        FlowInfo { tcp: matches!(f.ep, Endpoint::Tcp { .. }), mss: f.ep.mss(), sack: sender.sack, ecn: sender.ecn, header_bytes: f.header_bytes }
    }

    /// Sends whatever the sender may send now, then re-arms its timer.
    fn try_send(&mut self, i: usize) {
        let now = self.now;
        let mut nic_busy = false;
        loop {
            let f = &mut self.flows[i];
            if !f.active {
                return;
            }
            if f.nic_free_at > now {
                nic_busy = f.ep.has_sendable();
                break;
            }
            let Some(tx) = f.ep.poll_transmit(now) else { break };
            let wire = tx.len + f.header_bytes;
            f.nic_free_at = now + f.access_rate.tx_time(wire);
            let p = DataPacket {
                flow: i as u32,
                seq: tx.seq,
                len: tx.len as u32,
                wire: wire as u32,
                sent: now,
                enqueued: now,
                ecn: if tx.ecn_capable { ECT0 } else { NOT_ECT },
                retransmission: tx.is_retransmission,
                hdr_rtt: tx.hdr_rtt.unwrap_or(Time::ZERO),
                nonce: tx.nonce,
                tsecr: tx.tsecr.unwrap_or(Time::ZERO),
            };
            if let Some(tap) = &mut self.tap {
                tap.data_sent(now, &p);
            }
            if f.access_delay == Time::ZERO {
                self.enter_bottleneck(p);
            } else {
                let at = now + f.access_delay;
                if f.access_pipe.push(at, p) {
                    self.events.schedule(at, EventKind::BottleneckArrival, i as u32, 0);
                }
            }
        }
        self.arm_sender_timer(i, nic_busy);
    }

    /// A data packet reaches the bottleneck now: its queue admits or drops it.
    fn enter_bottleneck(&mut self, p: DataPacket) {
        let (adm, departure) = self.link.arrive(self.now, p);
        if adm == Admission::Queued {
            if let Some(t) = departure {
                self.events.schedule(t, EventKind::LinkDeparture, 0, 0);
            }
        }
    }

    /// The packets due off flow `i`'s access link reach the bottleneck.
    fn on_bottleneck_arrival(&mut self, i: usize) {
        while let Some(p) = self.flows[i].access_pipe.pop_due(self.now) {
            self.enter_bottleneck(p);
        }
        if let Some(t) = self.flows[i].access_pipe.head_time() {
            self.events.schedule(t, EventKind::BottleneckArrival, i as u32, 0);
        }
    }

    /// Re-arms the sender's timer for the earliest of its RTO or controller timer, its pacing
    /// release, and (if a packet is waiting for it) the access link.
    fn arm_sender_timer(&mut self, i: usize, nic_busy: bool) {
        let now = self.now;
        let f = &mut self.flows[i];
        let mut want = f.ep.next_timer();
        if nic_busy {
            want = Some(want.map_or(f.nic_free_at, |w| w.min(f.nic_free_at)));
        } else if let Some(t) = f.ep.next_send_time(now) {
            want = Some(want.map_or(t, |w| w.min(t)));
        }
        if let Some(t) = want {
            let t = t.max(now);
            if f.timer_events.last().is_none_or(|&pending| t < pending) {
                f.timer_events.push(t);
                self.events.schedule(t, EventKind::SenderTimer, i as u32, 0);
            }
        }
    }

    fn arm_receiver_timer(&mut self, i: usize) {
        let f = &mut self.flows[i];
        if let Some(t) = f.ep.receiver_next_timer() {
            if f.rx_timer_at.is_none_or(|at| t < at) {
                f.rx_timer_gen = f.rx_timer_gen.wrapping_add(1);
                f.rx_timer_at = Some(t);
                self.events.schedule(t, EventKind::ReceiverTimer, i as u32, f.rx_timer_gen);
            }
        }
    }

    fn on_link_departure(&mut self) {
        let now = self.now;
        let (p, next) = self.link.depart(now);
        if let Some(t) = next {
            self.events.schedule(t, EventKind::LinkDeparture, 0, 0);
        }
        let extra = self.link.delay.sample();
        let i = p.flow as usize;
        let f = &mut self.flows[i];
        let mut at = now + extra + f.fwd_delay;
        if let Some([_, receiver]) = self.hosts.get_mut(i) {
            at = receiver.process(at);
        }
        if f.data_pipe.push(at, p) {
            f.data_gen = f.data_gen.wrapping_add(1);
            self.events.schedule(at, EventKind::DataArrival, i as u32, f.data_gen);
        }
    }

    fn on_data_arrival(&mut self, i: usize) {
        let now = self.now;
        let mut out = std::mem::take(&mut self.back_scratch);
        while let Some(p) = self.flows[i].data_pipe.pop_due(now) {
            self.flows[i].arrivals += 1;
            self.flows[i].ep.on_data(now, &p, &mut out);
        }
        self.send_all_back(i, &mut out);
        self.back_scratch = out;
        let f = &mut self.flows[i];
        if let Some(t) = f.data_pipe.head_time() {
            f.data_gen = f.data_gen.wrapping_add(1);
            self.events.schedule(t, EventKind::DataArrival, i as u32, f.data_gen);
        }
        self.arm_receiver_timer(i);
    }

    /// Sends everything in `out` back to flow `i`'s sender, leaving `out` empty.
    ///
    /// A misbehaving receiver's ACKs for one arrival (divided, spoofed, optimistic) leave as one
    /// train and share one draw of the sender's processing jitter (`host_jitter`, when set):
    /// drawn per ACK, the last of a train would come at the largest of many draws, a steadier
    /// delay than an honest flow's. (The send overhead needs no such care: a train's ACKs
    /// arrive together and share the wait the first one draws.)
    fn send_all_back(&mut self, i: usize, out: &mut Vec<Back>) {
        let train = self.cfg.flows[i].attack.is_some();
        let mut jitter = None;
        for back in out.drain(..) {
            let used = self.send_back(i, back, if train { jitter } else { None });
            jitter = jitter.or(used);
        }
    }

    /// The sender's ACK processing jitter: `shared` if given, else a fresh draw.
    fn draw_jitter(&mut self, shared: Option<Time>) -> Time {
        match shared {
            Some(j) => j,
            None if self.host_jitter > Time::ZERO => Time(self.jitter_rng.random_range(0..=self.host_jitter.0)),
            None => Time::ZERO,
        }
    }

    /// Returns the jitter it drew (or shared), unless the return path lost the packet.
    fn send_back(&mut self, i: usize, back: Back, shared: Option<Time>) -> Option<Time> {
        if self.reverse_loss.lose() {
            return None;
        }
        let mut extra = self.reverse_delay.sample();
        let jitter = self.draw_jitter(shared);
        extra += jitter;
        let f = &mut self.flows[i];
        let mut at = self.now + f.rev_delay + extra;
        if let Some([sender, _]) = self.hosts.get_mut(i) {
            at = sender.process(at);
        }
        if f.back_pipe.push(at, back) {
            f.back_gen = f.back_gen.wrapping_add(1);
            self.events.schedule(at, EventKind::AckArrival, i as u32, f.back_gen);
        }
        Some(jitter)
    }

    fn on_back_arrival(&mut self, i: usize) {
        let now = self.now;
        {
            let f = &mut self.flows[i];
            while let Some(back) = f.back_pipe.pop_due(now) {
                if let Some(tap) = &mut self.tap {
                    tap.feedback_received(now, i as u32, &back);
                }
                if let Some(r) = f.ep.on_back(now, &back) {
                    f.rtt_us.record(r.0 / 1_000);
                }
            }
            if let Some(t) = f.back_pipe.head_time() {
                f.back_gen = f.back_gen.wrapping_add(1);
                self.events.schedule(t, EventKind::AckArrival, i as u32, f.back_gen);
            }
            if f.active && f.ep.is_complete() {
                f.completed_at = Some(now);
            }
        }
        if self.flows[i].completed_at == Some(now) && self.flows[i].active {
            self.stop_flow(i);
            return;
        }
        self.draw_send_overhead(i);
        self.try_send(i);
    }

    /// Before sending what an ACK released: unless a wait is already pending, the sender waits
    /// a random time uniform on `[0, send_overhead]` (ns-2 `TcpAgent::send_much` with
    /// `overhead_`), modelled as its NIC not being free until then, so data leave in order.
    fn draw_send_overhead(&mut self, i: usize) {
        let now = self.now;
        if self.send_overhead == Time::ZERO || self.flows[i].overhead_until > now {
            return;
        }
        let wait = Time(self.overhead_rng.random_range(0..=self.send_overhead.0));
        let f = &mut self.flows[i];
        f.overhead_until = now + wait;
        f.nic_free_at = f.nic_free_at.max(f.overhead_until);
    }

    fn take_sample(&mut self) {
        let now = self.now;
        let iv = self.cfg.sample_interval.expect("sampling without an interval").as_secs_f64();
        let sink: &mut dyn SampleSink = match (&mut self.sink, &mut self.series) {
            (Some(s), _) => s.as_mut(),
            (None, Some(s)) => s,
            (None, None) => return,
        };
        for (id, f) in self.flows.iter_mut().enumerate() {
            if !f.started || (f.end.is_some_and(|e| e + Time::from_secs_f64(iv) < now)) {
                continue;
            }
            let c = f.ep.counters();
            let smp = f.ep.sample();
            let mss = f.ep.mss() as f64;
            let delivered = c.bytes_delivered;
            let sent = c.bytes_sent;
            sink.flow(&FlowSample {
                time: now.as_secs_f64(),
                flow: id as u32,
                cwnd: smp.cwnd.map(|c| c as f64 / mss),
                ssthresh: smp.ssthresh.map(|s| s as f64 / mss),
                inflight: smp.inflight,
                sacked: smp.sacked,
                lost: smp.lost,
                retr: smp.retr,
                rtt_ms: smp.rtt.map(|t| t.as_millis_f64()),
                rttvar_ms: smp.rttvar.as_millis_f64(),
                rto_ms: smp.rto.as_millis_f64(),
                state: smp.state,
                pacing_rate_mbps: smp.pacing_rate_bps.map(|r| r / 1e6),
                throughput_mbps: (sent - f.last_sample_sent) as f64 * 8.0 / iv / 1e6,
                goodput_mbps: (delivered - f.last_sample_delivered) as f64 * 8.0 / iv / 1e6,
                delivered_bytes: delivered,
                ca_state: smp.ca_state,
                unacked: smp.unacked,
                retrans_out: smp.retrans_out,
                backoff: smp.backoff,
                reordering: smp.reordering,
                logged_rate_mbps: smp.logged_rate_bps.map(|r| r / 1e6),
            });
            f.last_sample_delivered = delivered;
            f.last_sample_sent = sent;
        }
        sink.link(&LinkSample::take(&self.link, now, Time::from_secs_f64(iv), &mut self.last_link_sample_forwarded));
    }

    /// Where every data packet ever sent is now.
    pub fn accounting(&self) -> crate::results::Accounting {
        let s = &self.link.stats;
        crate::results::Accounting {
            sent: self.flows.iter().map(|f| f.ep.counters().segments_sent).sum(),
            delivered: self.flows.iter().map(|f| f.arrivals).sum(),
            dropped: s.drops(),
            in_network: self.link.packets_held() + self.flows.iter().map(|f| f.data_pipe.len() as u64).sum::<u64>(),
        }
    }

    pub(crate) fn parts(&self) -> (&SimConfig, &Bottleneck, &[Flow], u64, (Time, Time)) {
        (&self.cfg, &self.link, &self.flows, self.events.processed(), self.fairness_window)
    }

    /// Replaces flow `i`'s TCP sender before the run, e.g. with one driving a user-defined
    /// controller (`Cc::Custom`).
    pub fn replace_sender(&mut self, i: usize, sender: SenderCore) {
        if let Endpoint::Tcp { sender: s, .. } = &mut self.flows[i].ep {
            *s = sender;
        }
    }

    /// Replaces flow `i`'s two ends before the run (a user-defined datagram transport).
    pub fn replace_endpoint(&mut self, i: usize, ep: Endpoint, header_bytes: u64) {
        self.flows[i].ep = ep;
        self.flows[i].header_bytes = header_bytes;
    }

    /// The transport of flow `i` (for tests and tools that inspect state).
    pub fn transport_name(&self, i: usize) -> &'static str {
        self.flows[i].ep.name()
    }
}
