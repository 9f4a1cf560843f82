//! The congestion-control laboratory as a library: scenarios and their resolution, runs, the
//! files a run writes, sweeps, experiments, plots and reports. The `cclab` command line
//! (`main.rs`) and the Python package (`python/`) are both thin layers over it, so that a
//! scenario means the same thing, and a run writes the same figures, whichever one starts it.
//!
//! ## Layers
//!
//! Data flows one way, runs -> tables -> figures -> report, and a module uses only modules of
//! its own layer or below:
//!
//! 1. foundations: [`scenario`], [`pcap`], [`table`] (the `Table` type and number format),
//!    [`stats`];
//! 2. runs: [`run`], [`output`] (a run's files), [`sweep`], [`bench_net`], [`kernel_run`];
//! 3. tables of results: [`verdict`] (claims against a seed), [`scan_table`], [`twin_metrics`];
//! 4. figures: [`plot`] (never imports an experiment or the report);
//! 5. the report: [`report`] (uses `plot::PlotFiles` and the verdicts, nothing above);
//! 6. experiments and commands, which drive all of the above: [`experiment`] and the `*_cmd`
//!    modules and [`bench`]. No experiment uses a `*_cmd` module: what both need lives below.

pub mod bench;
pub mod bench_net;
pub mod bench_scan;
pub mod experiment;
pub mod finding;
pub mod kernel_run;
pub mod output;
pub mod net_cmd;
pub mod pcap;
pub mod plot;
pub mod plot_cmd;
pub mod report;
pub mod run;
pub mod scan_cmd;
pub mod scan_table;
pub mod scenario;
pub mod stats;
pub mod sweep;
pub mod table;
pub mod testbed_cmd;
pub mod twin_metrics;
pub mod verdict;

use clap::Args;
use std::path::PathBuf;

/// Flags for `cclab run`. Each one overrides the scenario file. The Python package's
/// `cclab.run(...)` takes the same settings as keyword arguments (deserialised from them).
#[derive(Args, Clone, Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunArgs {
    /// Scenario file (TOML).
    pub scenario: Option<PathBuf>,
    /// Algorithms, comma-separated; flows take them in turn.
    #[arg(long)]
    pub cc: Option<String>,
    /// Sending rate of the `cbr` flows given in --cc, e.g. 50mbit (default 10mbit).
    #[arg(long, allow_hyphen_values = true)]
    pub cbr_rate: Option<String>,
    /// Number of flows (default: one per algorithm given).
    #[arg(long)]
    pub flows: Option<u32>,
    /// Bottleneck rate, e.g. 40mbit.
    #[arg(long, allow_hyphen_values = true)]
    pub rate: Option<String>,
    /// Base round-trip time of every flow, e.g. 100ms.
    #[arg(long, allow_hyphen_values = true)]
    pub rtt: Option<String>,
    /// Simulated time, e.g. 60s.
    #[arg(long, allow_hyphen_values = true)]
    pub duration: Option<String>,
    /// Random loss at the bottleneck, e.g. 1%.
    #[arg(long, allow_hyphen_values = true)]
    pub loss: Option<String>,
    /// netem impairments at the bottleneck, e.g. "delay 100ms 10ms 25% loss 0.1%".
    #[arg(long)]
    pub netem: Option<String>,
    /// netem delay/jitter/loss on the return path (ACKs), as `tc ... netem` on the receiver.
    #[arg(long)]
    pub netem_reverse: Option<String>,
    /// End hosts' timing noise: a preset (testbed, nic, vm, off) and/or
    /// "irq_gap T latency T stall T every T" (default off).
    #[arg(long)]
    pub host_noise: Option<String>,
    /// The simulator's phase randomiser: a sender waits a random time, uniform on [0, T],
    /// before sending what an ACK releases, e.g. 40us (default: one packet time at the
    /// bottleneck; 0 turns it off). A testbed run measures a kernel's own (`send_latency` in
    /// emulator.json); the kernel side of `twin` ignores it.
    #[arg(long, allow_hyphen_values = true)]
    pub send_overhead: Option<String>,
    /// Drop the bottleneck's n-th arriving data packets, e.g. 20,35 (1-based, increasing;
    /// retransmissions count), as ns-3's ReceiveListErrorModel.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub drop_packets: Option<Vec<u64>>,
    /// A token-bucket policer on the bottleneck's entry, in tc's words, e.g.
    /// "rate 10mbit burst 30KB": packets beyond the bucket are dropped, none queued.
    #[arg(long)]
    pub policer: Option<String>,
    /// Bottleneck buffer: 1bdp, 100pkts, 150KB.
    #[arg(long, allow_hyphen_values = true)]
    pub buffer: Option<String>,
    /// Queue discipline: droptail, red, codel, step.
    #[arg(long)]
    pub queue: Option<String>,
    /// Bottleneck capacity from a Mahimahi trace file (one line per 1500-byte opportunity,
    /// in ms; the trace repeats), e.g. traces/Verizon-LTE-short.down.
    #[arg(long)]
    pub trace_down: Option<String>,
    /// Send ECN-capable packets (DCTCP turns this on by itself).
    #[arg(long)]
    pub ecn: bool,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start flow k at k times this (staggered starts), e.g. 10s.
    #[arg(long, allow_hyphen_values = true)]
    pub stagger: Option<String>,
    /// Segment payload size in bytes.
    #[arg(long)]
    pub mss: Option<u64>,
    /// Turn SACK off (cumulative ACKs only).
    #[arg(long)]
    pub no_sack: bool,
    /// Turn proportional rate reduction off (RFC 6937; fast recovery then sends while the
    /// pipe is below cwnd).
    #[arg(long)]
    pub no_prr: bool,
    /// Turn tail loss probes off (RFC 8985 §7).
    #[arg(long)]
    pub no_tlp: bool,
    /// Delayed ACKs as Linux's receiver sends them (every second segment or 40 ms, every segment while its quick-ACK budget lasts, SACKs past the third duplicate at most one per 1.1 ms; on the testbed, Linux's own; without it the testbed's receiver ACKs every segment, route `quickack`).
    #[arg(long)]
    pub delayed_ack: bool,
    /// TCP's three-way handshake: data starts one base RTT after the flow (RFC 9293 §3.5),
    /// as from a kernel's connect(); goodput still counts from the start.
    #[arg(long)]
    pub handshake: bool,
    /// Start every TCP sender with no RTT sample from the SYN exchange: RFC 6298 §2.1's
    /// initial RTO of 1 s times the first flight.
    #[arg(long)]
    pub no_syn_rtt_sample: bool,
    /// How window-based flows start: controller (their own slow start, HyStart or STARTUP)
    /// or paced-chirping (Misund & Briscoe 2019, handing over to congestion avoidance).
    #[arg(long)]
    pub startup: Option<String>,
    /// A misbehaving receiver on every TCP flow: ack-division:SPLIT, dup-ack-spoofing:COUNT,
    /// optimistic-ack:LEAD or honest (Savage et al. 1999).
    #[arg(long)]
    pub receiver: Option<String>,
    /// The sender's defences to turn on, the others off: abc, new_data_only, dupack_limit,
    /// nonce (comma-separated), or none, or all (default: Linux's, new_data_only).
    #[arg(long)]
    pub defences: Option<String>,
    /// Pace window-based flows (Linux-style, 2x / 1.2x cwnd per RTT).
    #[arg(long)]
    pub pacing: bool,
    /// Receiver window, e.g. 64KB.
    #[arg(long, allow_hyphen_values = true)]
    pub rwnd: Option<String>,
    /// Initial window in segments.
    #[arg(long)]
    pub iw: Option<u32>,
    /// Minimum retransmission timeout, e.g. 200ms.
    #[arg(long, allow_hyphen_values = true)]
    pub min_rto: Option<String>,
    /// Sender access-link rate, e.g. 100mbit.
    #[arg(long, allow_hyphen_values = true)]
    pub access_rate: Option<String>,
    /// One-way delay from each sender to the bottleneck, part of the RTT's forward half, e.g.
    /// 25ms (default 0: the bottleneck next to the senders; at most rtt/2).
    #[arg(long, allow_hyphen_values = true)]
    pub access_delay: Option<String>,
    /// Each flow's application write rate, as iperf3's -b, e.g. 10mbit (default: always has
    /// data). TCP flows only.
    #[arg(long, allow_hyphen_values = true)]
    pub app_rate: Option<String>,
    /// Time-series sample interval, e.g. 100ms.
    #[arg(long, allow_hyphen_values = true)]
    pub interval: Option<String>,
    /// Write summary.json, timeseries.csv and link.csv here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the summary as JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write every packet (data and ACKs, as tcpdump on the senders' host) to this pcap file.
    #[arg(long)]
    pub pcap: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write `--out` into a directory cclab did not write, and replace an existing `--pcap`
    /// file (never an input file).
    #[arg(long)]
    pub force: bool,
}

/// A user error: printed as one line, exit code 2.
pub struct UserError(pub String);

/// The longest error line printed, in characters: a message quoting a user's 100 KB line or a
/// binary file stays readable.
pub const MAX_ERROR_CHARS: usize = 300;

impl UserError {
    /// The message as one printable line: control characters (a newline, a NUL read from a
    /// binary file) escaped as `\n`, `\0`, and the whole cut to [`MAX_ERROR_CHARS`].
    pub fn line(&self) -> String {
        let mut out = String::new();
        for (n, c) in self.0.chars().enumerate() {
            if n == MAX_ERROR_CHARS {
                out.push_str("...");
                break;
            }
            if c.is_control() {
                out.extend(c.escape_debug());
            } else {
                out.push(c);
            }
        }
        out
    }
}

impl<T: Into<String>> From<T> for UserError {
    fn from(s: T) -> Self {
        UserError(s.into())
    }
}

