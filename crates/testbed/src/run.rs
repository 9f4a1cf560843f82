//! One testbed run: namespaces, emulator, receiver and senders, and the simulator's
//! `RunResult` built from what they measured.

use crate::cpu_latency;
use crate::emulator::{Capture, Emulator, EmulatorReport};
use crate::kernel::{self, FlowRecord, KernelFlow};
use crate::netns::{self, Namespaces};
use crate::tcpinfo;
use serde::Serialize;
use cc::transport::SenderConfig;
use cc::Time;
use sim::results::{Accounting, Dist, FlowSummary, LinkSummary, Summary, TimeSeries};
use sim::{jain_index, RunResult, SimConfig, Transport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Flow `i` connects to the receiver's port `PORT_BASE + i`.
pub const PORT_BASE: u16 = 50_000;
/// How long the emulator and receiver may outlive the configured duration (closing flows).
const GRACE: Time = Time(2_000_000_000);
/// How long the threads may take to open their sockets.
const SETUP_TIMEOUT: Duration = Duration::from_secs(5);

/// A scenario for the testbed: the simulator's configuration and each flow's kernel
/// congestion control (by the kernel's name: `reno`, `cubic`, `bbr`, ...).
#[derive(Clone, Debug)]
pub struct TestbedConfig {
    pub sim: SimConfig,
    pub cc: Vec<String>,
}

impl TestbedConfig {
    /// Each flow under the kernel's algorithm of the same name as the scenario's.
    pub fn from_sim(sim: SimConfig) -> TestbedConfig {
        let cc = sim.flows.iter().map(|f| f.transport.name().to_string()).collect();
        TestbedConfig { sim, cc }
    }

    /// What the testbed cannot do: a clear message naming the field.
    pub fn validate(&self) -> Result<(), String> {
        self.sim.validate()?;
        if self.cc.len() != self.sim.flows.len() {
            return Err(format!("--cc: {} congestion controls for {} flows", self.cc.len(), self.sim.flows.len()));
        }
        let d = SenderConfig::default();
        for (i, f) in self.sim.flows.iter().enumerate() {
            if let Transport::Datagram(p) = &f.transport {
                return Err(format!("flows[{i}].cc: the testbed runs kernel TCP; `{}` is a datagram protocol", p.name()));
            }
            let s = &f.sender;
            // `delayed_ack` on is the kernel's own receiver (every second segment, 40 ms, at
            // once while it has quick ACKs left, SACK compression past a hole, as the
            // simulator's `cc::transport::rcv_window` and `sack_compress`); off sets the
            // receiver's route's `quickack`, so the kernel acknowledges every segment.
            let unsupported = [
                ("pacing", s.pace_window != d.pace_window),
                ("rwnd", s.rwnd != d.rwnd),
                ("initial_window", s.initial_window != d.initial_window),
                ("min_rto", s.min_rto != d.min_rto),
                ("access_rate", f.access_rate.is_some()),
                // Applications that always have data or write at one rate, honest receivers,
                // the kernel's own recovery (PRR, TLP), start-up and defences.
                ("app_schedule", !f.app_schedule.is_empty()),
                ("receiver", f.attack.is_some()),
                ("defences", s.defences != d.defences),
                ("startup", s.startup != d.startup),
                ("prr", s.prr != d.prr),
                ("tlp", s.tlp != d.tlp),
                // The kernel always takes its RTT sample from the SYN exchange.
                ("syn_rtt_sample", !f.syn_rtt_sample),
            ];
            if s.sack != self.sim.flows[0].sender.sack {
                return Err(format!("flows[{i}].sack: on the testbed SACK is on for every flow or for none (net.ipv4.tcp_sack of the sender's namespace)"));
            }
            if f.delayed_ack != self.sim.flows[0].delayed_ack {
                return Err(format!("flows[{i}].delayed_ack: on the testbed every flow delays its ACKs or none does (the quickack metric of the receiver's route)"));
            }
            if s.ecn != self.sim.flows[0].sender.ecn {
                return Err(format!("flows[{i}].ecn: on the testbed ECN is on for every flow or for none (net.ipv4.tcp_ecn of the sender's namespace)"));
            }
            if let Some((name, _)) = unsupported.iter().find(|(_, set)| *set) {
                return Err(format!("flows[{i}].{name}: not supported on the testbed (the kernel's own default applies); remove it"));
            }
        }
        Ok(())
    }
}

/// A testbed run's result in the simulator's form, the emulator's accuracy report, and what
/// the kernel says limited each flow.
pub struct TestbedResult {
    pub result: RunResult,
    pub emulator: EmulatorReport,
    pub limits: Vec<FlowLimits>,
    /// The kernel flows' time series: sample times read and missed.
    pub sampling: crate::kernel::Sampling,
}

/// What held a kernel flow back, from its last `TCP_INFO` (the kernel's `tcp_chrono` timers,
/// which `ss -ti` prints as `busy:`, `rwnd_limited:` and `sndbuf_limited:`): the time it had
/// data in flight, and of that the time it could not send because the receiver's advertised
/// window or its own send buffer was full. The simulator's receiver advertises no window, so
/// a flow that spent time rwnd-limited here was held back by something the simulation lacks
/// (Linux's receive-buffer autotuning starts at 64 KB and grows with what arrives).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FlowLimits {
    pub flow: u32,
    pub busy_s: f64,
    pub rwnd_limited_s: f64,
    pub sndbuf_limited_s: f64,
    /// The most segments the flow had outstanding at any read of its `TCP_INFO` (after every
    /// wake-up of the sender loop and every burst of writes). Linux grows the window of a flow
    /// in slow start only below twice the most it had out in the window's round
    /// (`tcp_is_cwnd_limited`), so an application-limited flow's window stays at or below
    /// twice this.
    pub most_unacked: u64,
}

impl FlowLimits {
    fn from_record(flow: usize, r: &FlowRecord) -> FlowLimits {
        let info = &r.last;
        FlowLimits {
            most_unacked: r.most_unacked,
            flow: flow as u32,
            busy_s: info.busy_time as f64 * 1e-6,
            rwnd_limited_s: info.rwnd_limited as f64 * 1e-6,
            sndbuf_limited_s: info.sndbuf_limited as f64 * 1e-6,
        }
    }

    /// One line for the terminal.
    pub fn line(&self) -> String {
        let share = |t: f64| if self.busy_s > 0.0 { t / self.busy_s * 100.0 } else { 0.0 };
        format!(
            "kernel flow {}: busy {:.2} s, limited by the receive window {:.3} s ({:.1} %), by the send buffer {:.3} s ({:.1} %)",
            self.flow,
            self.busy_s,
            self.rwnd_limited_s,
            share(self.rwnd_limited_s),
            self.sndbuf_limited_s,
            share(self.sndbuf_limited_s)
        )
    }
}

/// How long after the namespaces exist the run's clock starts. The emulator, the receiver and
/// the sender set up their sockets (10-15 ms on the testbed host) before time zero, so that a
/// flow's SYN leaves at its start time and its goodput counts from there, as in the simulator
/// (whose `handshake` adds the SYN's round trip); a clock started before the setup charged
/// every kernel flow with it (0.3 % of a 5 s run's goodput).
pub const SETUP_LEAD: Duration = Duration::from_millis(100);

fn wait_ready(flag: &AtomicBool, finished: impl Fn() -> bool, what: &str) -> Result<(), String> {
    let t0 = Instant::now();
    while !flag.load(Ordering::Acquire) {
        if finished() || t0.elapsed() > SETUP_TIMEOUT {
            return Err(format!("testbed: the {what} did not start"));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(())
}

/// Runs the scenario on kernel TCP through the emulated link. Needs CAP_NET_ADMIN.
pub fn run(tc: &TestbedConfig) -> Result<TestbedResult, String> {
    run_with_capture(tc, None)
}

/// `run`, handing every frame the sender's host sees to `capture` (a pcap writer).
pub fn run_with_capture(tc: &TestbedConfig, capture: Option<Capture>) -> Result<TestbedResult, String> {
    tc.validate()?;
    for name in &tc.cc {
        tcpinfo::ensure_congestion_control(name)?;
    }
    let cfg = &tc.sim;
    // Held until the run ends (dropped with this function's locals).
    let awake = cpu_latency::hold();
    let ns = Namespaces::create()?;
    if cfg.flows[0].sender.ecn {
        // Per namespace: /proc/sys/net is the opening thread's namespace's.
        netns::in_namespace(&ns.sender, || std::fs::write("/proc/sys/net/ipv4/tcp_ecn", "1"))?
            .map_err(|e| format!("testbed: net.ipv4.tcp_ecn in the sender's namespace: {e}"))?;
    }
    if !cfg.flows[0].sender.sack {
        // The sender's SYN then offers no SACK (RFC 2018), so the connection runs Linux's
        // NewReno recovery with duplicate-ACK counting (`tcp_add_reno_sack`).
        netns::in_namespace(&ns.sender, || std::fs::write("/proc/sys/net/ipv4/tcp_sack", "0"))?
            .map_err(|e| format!("testbed: net.ipv4.tcp_sack in the sender's namespace: {e}"))?;
    }
    if !cfg.flows[0].delayed_ack {
        ns.ack_every_segment()?;
    }
    let default_mss = SenderConfig::default().mss;
    let flows: Vec<KernelFlow> = cfg
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| KernelFlow {
            cc: tc.cc[i].clone(),
            start: f.start,
            stop: f.stop,
            size: f.sender.data_limit,
            // TCP_MAXSEG counts the 12 bytes of the timestamp option.
            mss: (f.sender.mss != default_mss).then_some(f.sender.mss + 12),
            port: PORT_BASE + i as u16,
            app: f.sender.app_rate.map(|r| (r, f.sender.mss)),
        })
        .collect();
    let ports: Vec<u16> = flows.iter().map(|f| f.port).collect();
    let fairness = fairness_window(cfg);
    let hard_end = cfg.duration + GRACE;
    let emu_ready = AtomicBool::new(false);
    let rcv_ready = AtomicBool::new(false);
    let stop = AtomicBool::new(false);
    let wall = Instant::now();
    let origin = Instant::now() + SETUP_LEAD;
    let outcome = std::thread::scope(|sc| {
        let emulator = sc.spawn(|| {
            netns::enter(&ns.emulator)?;
            Emulator::new(cfg, PORT_BASE).with_capture(capture).run(origin, hard_end, &emu_ready, &stop)
        });
        let receiver = sc.spawn(|| {
            netns::enter(&ns.receiver)?;
            kernel::run_receiver(&ports, origin, hard_end, &rcv_ready, &stop)
        });
        let senders = wait_ready(&emu_ready, || emulator.is_finished(), "emulator")
            .and_then(|()| wait_ready(&rcv_ready, || receiver.is_finished(), "receiver"))
            .and_then(|()| {
                sc.spawn(|| {
                    netns::enter(&ns.sender)?;
                    kernel::run_senders(&flows, origin, cfg.duration, cfg.sample_interval, fairness)
                })
                .join()
                .map_err(|_| "testbed: the sender thread panicked".to_string())?
            });
        stop.store(true, Ordering::Relaxed);
        let emu = emulator.join().map_err(|_| "testbed: the emulator thread panicked".to_string())?;
        let rcv = receiver.join().map_err(|_| "testbed: the receiver thread panicked".to_string())?;
        Ok::<_, String>((senders?, emu?, rcv?))
    });
    drop(ns);
    if netns::interrupted() {
        return Err("testbed: interrupted; namespaces removed".into());
    }
    let ((records, rows, sampling), mut emu, _received) = outcome?;
    emu.report.cpus_kept_awake = awake.is_some();
    let wall_time_s = wall.elapsed().as_secs_f64();

    let flows_summary: Vec<FlowSummary> = records.iter().enumerate().map(|(i, r)| flow_summary(cfg, i, &tc.cc[i], r)).collect();
    let window = (fairness.1 - fairness.0).as_secs_f64().max(1e-9);
    let shares: Vec<f64> = records.iter().map(|r| r.window_acked[1].saturating_sub(r.window_acked[0]) as f64 / window).collect();
    let s = &emu.stats;
    let dropped = s.drops();
    let summary = Summary {
        seed: cfg.seed,
        sim_time_s: cfg.duration.as_secs_f64(),
        wall_time_s,
        events: emu.report.forward_frames + emu.report.reverse_frames + emu.report.other_frames,
        packets: s.arrivals,
        jain_index: jain_index(&shares),
        fairness_window_s: [fairness.0.as_secs_f64(), fairness.1.as_secs_f64()],
        flows: flows_summary,
        link: LinkSummary::from_stats(cfg, s),
        // Frames at the emulator's bottleneck: what entered, what left it, what it dropped,
        // and what it still held at the end of the duration.
        accounting: Accounting {
            sent: s.arrivals,
            delivered: s.forwarded,
            dropped,
            in_network: s.arrivals.saturating_sub(s.forwarded + dropped),
        },
    };
    let series = cfg.sample_interval.map(|_| TimeSeries { flows: rows, link: emu.link_series });
    let limits = records.iter().enumerate().map(|(i, r)| FlowLimits::from_record(i, r)).collect();
    Ok(TestbedResult { result: RunResult { summary, series }, emulator: emu.report, limits, sampling })
}

/// As the simulator: from the last start to the first planned stop (or the end).
fn fairness_window(cfg: &SimConfig) -> (Time, Time) {
    let ws = cfg.flows.iter().map(|f| f.start).max().unwrap_or(Time::ZERO).min(cfg.duration);
    let we = cfg.flows.iter().map(|f| f.stop.unwrap_or(cfg.duration)).min().unwrap_or(cfg.duration).min(cfg.duration);
    if we > ws {
        (ws, we)
    } else {
        (Time::ZERO, cfg.duration)
    }
}

fn flow_summary(cfg: &SimConfig, i: usize, cc: &str, r: &FlowRecord) -> FlowSummary {
    let f = &cfg.flows[i];
    let start = f.start.min(cfg.duration);
    let end = r.ended.unwrap_or(cfg.duration).max(start);
    let dur = (end - start).as_secs_f64();
    let per_s = |b: u64| if dur > 0.0 { b as f64 * 8.0 / dur } else { 0.0 };
    let info = &r.last;
    FlowSummary {
        id: i as u32,
        cc: cc.to_string(),
        start_s: start.as_secs_f64(),
        end_s: end.as_secs_f64(),
        throughput_bps: per_s(info.bytes_sent),
        goodput_bps: per_s(info.bytes_acked),
        efficiency: if info.bytes_sent > 0 { info.bytes_acked as f64 / info.bytes_sent as f64 } else { 0.0 },
        bytes_sent: info.bytes_sent,
        bytes_delivered: info.bytes_acked,
        segments_sent: info.data_segs_out as u64,
        retransmits: info.total_retrans as u64,
        timeouts: r.timeouts(),
        // TCP_INFO does not say in which state an RTO fired.
        tail_timeouts: 0,
        loss_episodes: r.loss_episodes,
        // The smoothed RTT at each sample (TCP_INFO gives no per-ACK samples).
        rtt_ms: Dist::from_hist(&r.srtt_us, 1e-3),
        completion_time_s: r.completed.map(|t| (t - f.start).as_secs_f64()),
        app_lost_bytes: 0,
        receiver_attack: None,
        startup: None,
        // Kernel TCP counts no ERR figure.
        losses_counted: 0,
        rate_intervals: 0,
        intervals_errs_exceed_sent: 0,
        packets_logged_unsent: 0,
        err_decreases: 0,
        loss_rereports: 0,
        rereport_interval_ms: None,
        // TCP_INFO does not count retransmissions per round trip.
        recovery_retransmits_max_per_round: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::{CcConfig, Rate};
    use sim::{FlowConfig, LinkConfig};

    /// Every flow setting the testbed cannot give the kernel is refused by name, not dropped.
    #[test]
    fn what_the_kernel_cannot_do_is_refused_by_name() {
        let check = |change: &dyn Fn(&mut FlowConfig)| {
            let mut f = FlowConfig::new(CcConfig::from_name("reno").unwrap(), Time::from_millis(100));
            change(&mut f);
            let sim = SimConfig { seed: 1, duration: Time::from_secs(1), sample_interval: None, link: LinkConfig::default(), flows: vec![f] };
            TestbedConfig::from_sim(sim).validate()
        };
        assert_eq!(check(&|_| {}), Ok(()));
        let refused = |name: &str, change: &dyn Fn(&mut FlowConfig)| {
            assert_eq!(check(change), Err(format!("flows[0].{name}: not supported on the testbed (the kernel's own default applies); remove it")));
        };
        // The emulator holds a flow's access delay before its queue, as the simulator does.
        assert_eq!(check(&|f| f.access_delay = Time::from_millis(10)), Ok(()));
        // An application writing at a rate is the kernel flow's writer's (`KernelFlow::app`).
        assert_eq!(check(&|f| f.sender.app_rate = Some(Rate::from_bits_per_sec(1e6))), Ok(()));
        refused("app_schedule", &|f| f.app_schedule = vec![(Time::from_secs(1), None)]);
        refused("receiver", &|f| f.attack = Some(cc::transport::Misbehaviour::AckDivision { split: 2 }));
        refused("defences", &|f| f.sender.defences.abc = !f.sender.defences.abc);
        refused("startup", &|f| f.sender.startup = cc::transport::Startup::PacedChirping(Default::default()));
        refused("prr", &|f| f.sender.prr = false);
        refused("tlp", &|f| f.sender.tlp = false);
    }
}
