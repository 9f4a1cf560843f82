//! What a simulation run is made of: a dumbbell with one bottleneck and any number of flows.

use crate::hostnoise::HostNoise;
use crate::netem::Netem;
use crate::policer::PolicerConfig;
use crate::qdisc::QdiscConfig;
use crate::trace::Trace;
use cc::transport::SenderConfig;
use cc::protocols::DatagramConfig;
use cc::{Bytes, CcConfig, Rate, Time};

/// How much the bottleneck queue holds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum QueueLimit {
    Packets(u64),
    Bytes(Bytes),
    /// A multiple of the bandwidth-delay product, computed from the bottleneck's initial rate
    /// and the longest base RTT among the flows.
    Bdp(f64),
}

/// The bottleneck link: a drop-tail FIFO feeding a serialiser, with netem impairments.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkConfig {
    pub rate: Rate,
    /// Piecewise-constant rate changes `(at, rate)`, sorted by time.
    pub schedule: Vec<(Time, Rate)>,
    pub buffer: QueueLimit,
    /// The queue discipline under the buffer's hard limit.
    pub qdisc: QdiscConfig,
    /// Capacity from a Mahimahi trace instead of `rate`/`schedule`.
    pub trace: Option<Trace>,
    /// Loss on entry, delay and jitter on exit; `rate` and `limit` override the fields above.
    pub netem: Netem,
    /// Impairments on the return path (ACKs and control messages): netem's delay, jitter and
    /// loss, as when `tc ... netem` sits on the receiver's interface.
    pub reverse_netem: Netem,
    /// Senders send what an ACK releases after a random delay, uniform on `[0, send_overhead]`
    /// (`None`: one packet's transmission time at the bottleneck; `Some(0)` turns it off): ns-2's
    /// TCP `overhead_`, the random processing time of Floyd & Jacobson ("On traffic phase effects
    /// in packet-switched gateways", 1992), who showed that without such randomness a
    /// deterministic simulation of drop-tail queues lets some flows dodge every drop by their
    /// phase alone. As in ns-2, the ACK itself is processed when it arrives (its RTT sample and
    /// its spacing from the previous ACK are exact, as a kernel's are to a microsecond), a wait
    /// already pending is not drawn again, and the data leave in order. A Linux sender on the
    /// testbed sends 12-53 µs after the ACK (1st to 99th percentile, README's testbed section),
    /// far less than the default's packet time at low rates (1.2 ms at 10 Mbit/s), which with
    /// an ACK per segment bunches packets the ACK clock would space and drops more than the
    /// kernel does; `Some(40 µs)` gives the kernel's drops there.
    pub send_overhead: Option<Time>,
    /// Senders process each ACK after a random delay, uniform on `[0, host_jitter]`, in order
    /// (`None`: no delay). A model of a host whose scheduling delays its ACKs, such as a virtual
    /// machine's; unlike `send_overhead` it moves the RTT samples and the ACKs' spacing that
    /// delay-based controllers and HyStart read. (Before 2026-11-26 this, with one packet time
    /// by default, was the simulator's phase randomiser; at 10 Mbit/s it broke the 2 ms ACK
    /// trains that Linux's HyStart leaves slow start on.)
    pub host_jitter: Option<Time>,
    /// End hosts' timing noise: interrupt moderation, wake-up latency, stalls (see
    /// [`crate::hostnoise`]; off by default). It sits beside `host_jitter`, which it adds to.
    pub host_noise: HostNoise,
    /// Drop the link's n-th arriving data packets (1-based, increasing; retransmissions
    /// count): deterministic loss at chosen points, as ns-3's `ReceiveListErrorModel` gives.
    /// Applied before netem's loss.
    pub drop_packets: Vec<u64>,
    /// A token-bucket policer on entry, after the drop list and netem's loss (`tc ... action
    /// police rate R burst B drop`; [`crate::policer`]).
    pub policer: Option<PolicerConfig>,
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig {
            rate: Rate::from_bits_per_sec(40e6),
            schedule: Vec::new(),
            buffer: QueueLimit::Bdp(1.0),
            qdisc: QdiscConfig::DropTail,
            trace: None,
            netem: Netem::default(),
            reverse_netem: Netem::default(),
            send_overhead: None,
            host_jitter: None,
            host_noise: HostNoise::OFF,
            drop_packets: Vec::new(),
            policer: None,
        }
    }
}

/// What one run may ask of the machine, each a one-line error when exceeded.
pub mod limits {
    use cc::Time;

    /// Flows in one run (100 bench-sized flows use 24 MB; this many, a few GB at most).
    pub const MAX_FLOWS: usize = 10_000;
    /// Simulated time (11.6 days).
    pub const MAX_DURATION: Time = Time::from_secs(1_000_000);
    /// Packets the bottleneck could carry over the run at its initial rate: about 10 minutes
    /// at the simulator's measured 2-3 million packets per second (`cclab bench`).
    pub const MAX_PACKETS: f64 = 2e9;
    /// Time-series samples per flow (`duration / interval`).
    pub const MAX_SAMPLES: u64 = 1_000_000;
    /// Arrival numbers in a link's drop list (8 bytes each).
    pub const MAX_DROP_LIST: usize = 1_000_000;
    /// Link and access rates (10 Tbit/s).
    pub const MAX_RATE_BPS: f64 = 1e13;
}

/// Which transport a flow runs: TCP under a congestion controller, or a datagram protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum Transport {
    Tcp(CcConfig),
    Datagram(DatagramConfig),
}

impl Transport {
    pub fn name(&self) -> &'static str {
        match self {
            Transport::Tcp(c) => c.name(),
            Transport::Datagram(d) => d.name(),
        }
    }

    /// The algorithm's own range checks, and no NaN or infinity in any of its parameters
    /// (found generically: such a number serialises as JSON `null` where the algorithm's
    /// default has a number). Errors are `parameter: what is allowed`.
    pub fn validate(&self) -> Result<(), String> {
        let (ours, default) = match self {
            Transport::Tcp(c) => {
                c.validate()?;
                (serde_json::to_value(c), serde_json::to_value(CcConfig::from_name(c.name())?))
            }
            Transport::Datagram(d) => {
                d.validate()?;
                let default = DatagramConfig::from_name(d.name()).ok_or("an unknown protocol")?;
                (serde_json::to_value(d), serde_json::to_value(default))
            }
        };
        let (Ok(serde_json::Value::Object(ours)), Ok(serde_json::Value::Object(default))) = (ours, default) else {
            return Ok(());
        };
        for (k, v) in &ours {
            if v.is_null() && default.get(k).is_some_and(serde_json::Value::is_number) {
                return Err(format!("{k}: must be a finite number"));
            }
        }
        Ok(())
    }
}

/// One flow: a sender and receiver on their own access path. `sender` holds the settings
/// every transport shares (`mss`, `data_limit`, `ecn`) and TCP's own.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowConfig {
    pub transport: Transport,
    /// Base (propagation) round-trip time of the flow's path, without queueing.
    pub rtt: Time,
    pub start: Time,
    pub stop: Option<Time>,
    pub sender: SenderConfig,
    /// Acknowledge as Linux's receiver does: every second segment (or after 40 ms), but every
    /// segment while its quick-ACK budget lasts (`cc::transport::rcv_window`), and past a hole
    /// three duplicate ACKs at once, then one per compressed-ACK timer
    /// (`cc::transport::sack_compress`), instead of every segment; its ACKs advertise Linux's
    /// autotuned receive window, which the sender respects.
    pub delayed_ack: bool,
    /// TCP's three-way handshake (RFC 9293 §3.5): the first data leaves one base RTT after
    /// `start`, when SYN and SYN-ACK have crossed the path, as from a kernel's `connect()`;
    /// goodput and completion times still count from `start`. The SYN and SYN-ACK are not
    /// themselves queued or lost. Off: data leaves at `start` (most simulators' default).
    pub handshake: bool,
    /// The SYN exchange's RTT sample (the path's base RTT) seeds the sender's estimator, as
    /// RFC 6298 §2.2 has it, whether or not `handshake` delays the data. Off: the sender starts
    /// with no RTT sample, and §2.1's initial RTO of 1 s times its first flight (the state of
    /// the Linux sender in the SharkFest talk's flowgrind sample: rtt 0, rto 1000 ms).
    pub syn_rtt_sample: bool,
    /// The sender's access link (NIC) rate. `None`: ten times the bottleneck's initial rate,
    /// as in the TCP-SACK seed's 100/10/100 Mbit/s topology.
    pub access_rate: Option<Rate>,
    /// One-way propagation delay of the sender's access link, from the sender to the
    /// bottleneck: the part of the forward half of `rtt` before the queue, the rest lying
    /// between the queue and the receiver (a dumbbell's access and bottleneck links, as ns-3
    /// builds them). Zero (the default) puts the bottleneck at the sender's end of the path;
    /// `rtt / 2` at the receiver's. Where a drop happens decides how long its news takes to
    /// reach the sender: `rtt − access_delay` plus the queue.
    pub access_delay: Time,
    /// A misbehaving TCP receiver (`None`: honest). See `cc::transport::misbehave`.
    pub attack: Option<cc::transport::Misbehaviour>,
    /// Steps of the application's write rate (TCP only): at each time (from the run's start,
    /// sorted) the application writes at the new rate, or always has data (`None`), from
    /// there on. Before the first step it writes at `sender.app_rate`.
    pub app_schedule: Vec<(Time, Option<Rate>)>,
}

impl FlowConfig {
    /// A path's base RTT: above zero (a zero RTT divides by zero in every delay-based law)
    /// and at most 100 s.
    pub const RTT: std::ops::RangeInclusive<Time> = Time::from_micros(1)..=Time::from_secs(100);

    /// The forward half of the base RTT (sender to receiver); the return half is the rest.
    pub fn forward_delay(&self) -> Time {
        Time(self.rtt.0 / 2)
    }

    /// A TCP flow.
    pub fn new(cc: CcConfig, rtt: Time) -> FlowConfig {
        FlowConfig::with_transport(Transport::Tcp(cc), rtt)
    }

    /// A flow of a datagram protocol (SABUL, UDT, TFRC, CBR).
    pub fn datagram(protocol: DatagramConfig, rtt: Time) -> FlowConfig {
        FlowConfig::with_transport(Transport::Datagram(protocol), rtt)
    }

    /// A flow of either kind, with the other settings at their defaults.
    pub fn with_transport(transport: Transport, rtt: Time) -> FlowConfig {
        FlowConfig {
            transport,
            rtt,
            start: Time::ZERO,
            stop: None,
            sender: SenderConfig::default(),
            delayed_ack: false,
            handshake: false,
            syn_rtt_sample: true,
            access_rate: None,
            access_delay: Time::ZERO,
            attack: None,
            app_schedule: Vec::new(),
        }
    }
}

/// The algorithms a start-up such as paced chirping can hand over to.
pub fn handover_algorithms() -> Vec<&'static str> {
    let init = cc::CcInit { mss: 1448, initial_cwnd: 14480 };
    cc::ALGORITHMS
        .iter()
        .filter(|a| cc::CongestionControl::takes_startup_handover(&(a.default_config)().build(init)))
        .map(|a| a.name)
        .collect()
}

/// Default sender access-link speed relative to the bottleneck.
pub const DEFAULT_ACCESS_SPEEDUP: f64 = 10.0;

/// IP + TCP headers with the timestamp option: 20 + 20 + 12 bytes.
pub const TCP_HEADER_BYTES: Bytes = 52;

/// IP + UDP headers and a 16-byte protocol header (UDT's): 20 + 8 + 16 bytes.
pub const UDP_HEADER_BYTES: Bytes = 44;

#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    pub seed: u64,
    pub duration: Time,
    /// Time-series sample interval (`None`: no time series).
    pub sample_interval: Option<Time>,
    pub link: LinkConfig,
    pub flows: Vec<FlowConfig>,
}

impl SimConfig {
    /// The bottleneck's queue limit in packets and bytes (one of them unbounded).
    pub fn queue_limit(&self) -> (u64, Bytes) {
        if let Some(l) = self.link.netem.limit {
            return (l, Bytes::MAX);
        }
        match self.link.buffer {
            QueueLimit::Packets(p) => (p, Bytes::MAX),
            QueueLimit::Bytes(b) => (u64::MAX, b),
            QueueLimit::Bdp(k) => {
                let bdp = self.initial_rate().bytes_in(self.reference_rtt()) * k;
                (u64::MAX, (bdp.round() as Bytes).max(1500))
            }
        }
    }

    /// Flow `i`'s round-trip time without queueing: its path's RTT plus the netem delays of
    /// both directions.
    pub fn base_rtt(&self, i: usize) -> Time {
        self.flows[i].rtt + self.link.netem.delay + self.link.reverse_netem.delay
    }

    /// The longest base RTT among the flows: the RTT a BDP refers to.
    pub fn reference_rtt(&self) -> Time {
        (0..self.flows.len()).map(|i| self.base_rtt(i)).max().unwrap_or(Time::ZERO)
    }

    /// Sender access-link rate of flow `i` (explicit, or 10x the bottleneck).
    pub fn access_rate(&self, i: usize) -> Rate {
        self.flows[i].access_rate.unwrap_or_else(|| self.initial_rate().scale(DEFAULT_ACCESS_SPEEDUP))
    }

    /// The bottleneck's rate at time zero (a trace's mean rate).
    pub fn initial_rate(&self) -> Rate {
        if let Some(t) = &self.link.trace {
            return t.mean_rate();
        }
        let base = self.link.netem.rate.unwrap_or(self.link.rate);
        self.link.schedule.iter().take_while(|(t, _)| *t == Time::ZERO).last().map_or(base, |&(_, r)| r)
    }

    /// Checks what the types cannot: a clear message naming the field as a scenario file
    /// does (`link.netem.delay`, `flows[2].cc.beta`, `flows[0].rtt`). The limits in
    /// [`limits`] keep a run within what a machine finishes and holds.
    pub fn validate(&self) -> Result<(), String> {
        use cc::check::Validate;
        if self.flows.is_empty() {
            return Err("flows: at least one flow is needed".into());
        }
        if self.flows.len() > limits::MAX_FLOWS {
            return Err(format!("flows: {} flows is more than the {} allowed", self.flows.len(), limits::MAX_FLOWS));
        }
        if self.duration == Time::ZERO {
            return Err("duration: must be positive".into());
        }
        if self.duration > limits::MAX_DURATION {
            return Err(format!("duration: at most {} s", limits::MAX_DURATION.as_secs_f64()));
        }
        self.link.validate().map_err(|e| format!("link.{e}"))?;
        let packets = self.initial_rate().bytes_per_sec() * self.duration.as_secs_f64() / 1500.0;
        if packets > limits::MAX_PACKETS {
            return Err(format!(
                "duration: {} s at {:.0} Mbit/s is about {packets:.1e} bottleneck packets, more than the {:.0e} allowed (about 10 minutes of simulation); shorten the run",
                self.duration.as_secs_f64(),
                self.initial_rate().bits_per_sec() / 1e6,
                limits::MAX_PACKETS
            ));
        }
        if let Some(iv) = self.sample_interval {
            if iv == Time::ZERO {
                return Err("interval: must be positive".into());
            }
            if iv > self.duration {
                return Err(format!("interval: {iv} is longer than the run ({}): no sample would be taken", self.duration));
            }
            if self.duration.0 / iv.0 > limits::MAX_SAMPLES {
                return Err(format!("interval: {iv} over {} is more than the {} samples per flow allowed", self.duration, limits::MAX_SAMPLES));
            }
        }
        for (i, f) in self.flows.iter().enumerate() {
            f.validate().map_err(|e| format!("flows[{i}].{e}"))?;
            if f.start >= self.duration {
                return Err(format!("flows[{i}].start: {} is not before the run's end ({})", f.start, self.duration));
            }
            if let QueueLimit::Bytes(b) = self.link.buffer {
                let packet = f.sender.mss + TCP_HEADER_BYTES;
                if b < packet {
                    return Err(format!("link.buffer: {b} B holds not even one of flow {i}'s {packet}-byte packets"));
                }
            }
            if let Some(p) = &self.link.policer {
                p.validate(f.sender.mss + TCP_HEADER_BYTES).map_err(|e| format!("link.policer.{e}"))?;
            }
        }
        Ok(())
    }
}

/// The bottleneck's rate, buffer, discipline and impairments in their ranges (errors name the
/// key under `link`).
impl cc::check::Validate for LinkConfig {
    fn validate(&self) -> Result<(), String> {
        use cc::check::{above, within};
        within("rate (bit/s)", self.rate.bits_per_sec(), above(0.0, limits::MAX_RATE_BPS))?;
        for (i, (_, r)) in self.schedule.iter().enumerate() {
            within(&format!("schedule[{i}].rate (bit/s)"), r.bits_per_sec(), above(0.0, limits::MAX_RATE_BPS))?;
        }
        if self.schedule.windows(2).any(|w| w[0].0 > w[1].0) {
            return Err("schedule: steps must be sorted by time".into());
        }
        match self.buffer {
            QueueLimit::Packets(p) => within("buffer (packets)", p, 1..=1_000_000_000)?,
            QueueLimit::Bytes(b) => within("buffer (bytes)", b, 1..=1_000_000_000_000)?,
            QueueLimit::Bdp(k) => within("buffer (BDPs)", k, above(0.0, 1000.0))?,
        }
        self.qdisc.validate().map_err(|e| format!("queue.{e}"))?;
        self.netem.validate().map_err(|e| format!("netem: {e}"))?;
        self.reverse_netem.validate().map_err(|e| format!("netem_reverse: {e}"))?;
        if self.reverse_netem.rate.is_some() || self.reverse_netem.limit.is_some() {
            return Err("netem_reverse: the return path is uncongested; allowed: delay, distribution, loss".into());
        }
        if self.trace.is_some() && (!self.schedule.is_empty() || self.netem.rate.is_some()) {
            return Err("trace: a trace sets the capacity; drop link.schedule and netem's rate".into());
        }
        if let Some(j) = self.host_jitter {
            within("host_jitter", j, Time::ZERO..=Time::from_secs(1))?;
        }
        if let Some(j) = self.send_overhead {
            within("send_overhead", j, Time::ZERO..=Time::from_secs(1))?;
        }
        self.host_noise.validate().map_err(|e| format!("host_noise: {e}"))?;
        if self.drop_packets.len() > limits::MAX_DROP_LIST {
            return Err(format!("drop_packets: at most {} arrival numbers", limits::MAX_DROP_LIST));
        }
        if self.drop_packets.first() == Some(&0) || self.drop_packets.windows(2).any(|w| w[0] >= w[1]) {
            return Err("drop_packets: arrival numbers must be increasing and start at 1 (the link's first packet)".into());
        }
        Ok(())
    }
}

/// A flow's transport, path and sender settings in their ranges (errors name the key under
/// `flows[i]`).
impl cc::check::Validate for FlowConfig {
    fn validate(&self) -> Result<(), String> {
        use cc::check::{above, within};
        self.transport.validate().map_err(|e| format!("cc.{e}"))?;
        within("rtt", self.rtt, FlowConfig::RTT)?;
        if let Some(stop) = self.stop {
            if stop <= self.start {
                return Err(format!("stop: {stop} must be after start ({})", self.start));
            }
        }
        if let Some(r) = self.access_rate {
            within("access_rate (bit/s)", r.bits_per_sec(), above(0.0, limits::MAX_RATE_BPS))?;
        }
        if self.access_delay > self.forward_delay() {
            return Err(format!(
                "access_delay: {} is more than the forward half of the RTT ({}); allowed 0 to rtt/2",
                self.access_delay,
                self.forward_delay()
            ));
        }
        if !matches!(self.transport, Transport::Tcp(_)) {
            let key = if self.sender.app_rate.is_some() { "app_rate" } else { "app_schedule" };
            if self.sender.app_rate.is_some() || !self.app_schedule.is_empty() {
                return Err(format!("{key}: only a TCP flow takes an application rate; `{}` sends at its own", self.transport.name()));
            }
        }
        for (k, (at, r)) in self.app_schedule.iter().enumerate() {
            if *at < self.start {
                return Err(format!("app_schedule[{k}].at: {at} is before the flow's start ({})", self.start));
            }
            if let Some(r) = r {
                within(&format!("app_schedule[{k}].rate (bit/s)"), r.bits_per_sec(), above(0.0, self.sender.mss as f64 * 8e9))?;
            }
        }
        if self.app_schedule.windows(2).any(|w| w[0].0 > w[1].0) {
            return Err("app_schedule: steps must be sorted by time".into());
        }
        if let Some(a) = &self.attack {
            if !matches!(self.transport, Transport::Tcp(_)) {
                return Err("receiver: an attack needs a TCP flow".into());
            }
            a.validate().map_err(|e| format!("receiver.{e}"))?;
        }
        if self.sender.startup != cc::transport::Startup::Controller {
            let takes = match &self.transport {
                Transport::Tcp(c) => {
                    let init = cc::CcInit { mss: self.sender.mss, initial_cwnd: self.sender.mss };
                    cc::CongestionControl::takes_startup_handover(&c.build(init))
                }
                Transport::Datagram(_) => false,
            };
            if !takes {
                return Err(format!(
                    "startup: `{}` needs a window-based controller with a congestion avoidance to hand over to ({}); `{}` has its own start-up",
                    self.sender.startup.name(),
                    handover_algorithms().join(", "),
                    self.transport.name()
                ));
            }
        }
        self.sender.validate()
    }
}
