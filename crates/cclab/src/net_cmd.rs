//! `cclab serve` and `cclab send`: any TCP controller cclab has, over real UDP sockets,
//! measured and printed as iperf3 does (per-interval lines, `--json` with start, intervals and
//! end), with `--out DIR` writing the simulator's `summary.json` and `timeseries.csv` columns
//! so that `cclab plot` works on real runs.

use crate::output::fmt_rate;
use crate::scenario::CcArg;
use crate::UserError;
use cc::transport::SenderConfig;
use cc::Time;
use net::client::{self, ClientConfig};
use net::report::{Interval, StreamReport};
use net::server::{self, ServerConfig};
use sim::results::{Accounting, Dist, FlowSummary, LinkSummary, Summary};
use sim::units::parse_time;
use sim::Transport;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// iperf3's port.
pub const DEFAULT_PORT: u16 = 5201;

/// Flags for `cclab serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (0.0.0.0: every IPv4 interface; 127.0.0.1: loopback only).
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: String,
    #[arg(long, short, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Admit only clients that present this token (`cclab send --token`).
    #[arg(long)]
    pub token: Option<String>,
    /// Sessions (streams) held at once; more are refused.
    #[arg(long, default_value_t = 64)]
    pub max_sessions: usize,
    /// Close a session silent this long.
    #[arg(long, default_value = "10s")]
    pub idle_timeout: String,
    /// Refuse runs longer than this.
    #[arg(long, default_value = "3600s")]
    pub max_duration: String,
    /// Serve one client, then exit (iperf3's -1).
    #[arg(long, short = '1')]
    pub once: bool,
}

/// Flags for `cclab send`.
#[derive(clap::Args, Debug)]
pub struct SendArgs {
    /// The host running `cclab serve`.
    pub host: String,
    #[arg(long, short, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The congestion controller or protocol: any of `cclab list` (TCP algorithms over the
    /// sender core, or SABUL, UDT, TFRC, CBR with their own feedback).
    #[arg(long, default_value = "cubic")]
    pub cc: String,
    /// Seconds to send (`30` or `30s`).
    #[arg(long = "time", short = 't', default_value = "10")]
    pub time: String,
    /// Parallel streams, each its own session and socket.
    #[arg(long, short = 'P', default_value_t = 1)]
    pub parallel: u16,
    /// Reverse: the server sends, this side receives.
    #[arg(long, short = 'R')]
    pub reverse: bool,
    /// Seconds between interval lines (`1` or `500ms`).
    #[arg(long, short = 'i', default_value = "1")]
    pub interval: String,
    /// The server's token, if it asks for one.
    #[arg(long, default_value = "")]
    pub token: String,
    /// Segment payload size in bytes.
    #[arg(long, default_value_t = 1448)]
    pub mss: u64,
    /// Pace window-based controllers too (Linux's 2x / 1.2x cwnd per RTT).
    #[arg(long)]
    pub pacing: bool,
    /// Print iperf3-style JSON (start, intervals, end) instead of the lines.
    #[arg(long)]
    pub json: bool,
    /// Write summary.json, timeseries.csv, link.csv and report.json here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write `--out` into a directory cclab did not write.
    #[arg(long)]
    pub force: bool,
}

/// `30` (seconds, as iperf3 takes it) or `30s`, `500ms`.
fn seconds(flag: &str, s: &str) -> Result<Time, UserError> {
    let t = match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 86_400.0 => Time::from_secs_f64(x),
        Ok(_) => return Err(format!("--{flag}: `{s}` must be a positive number of seconds, at most 86400").into()),
        Err(_) => parse_time(s).map_err(|e| format!("--{flag}: {e}"))?,
    };
    if t == Time::ZERO {
        return Err(format!("--{flag}: must be positive").into());
    }
    Ok(t)
}

pub fn serve(a: &ServeArgs) -> Result<(), UserError> {
    let bind: std::net::IpAddr = a.bind.parse().map_err(|_| format!("--bind: `{}` is not an IP address like 0.0.0.0, 127.0.0.1 or ::", a.bind))?;
    if a.max_sessions == 0 || a.max_sessions > 4096 {
        return Err("--max-sessions: must be 1 to 4096".into());
    }
    let cfg = ServerConfig {
        bind: SocketAddr::new(bind, a.port),
        token: a.token.clone().filter(|t| !t.is_empty()),
        max_sessions: a.max_sessions,
        idle_timeout: seconds("idle-timeout", &a.idle_timeout)?,
        max_duration: seconds("max-duration", &a.max_duration)?,
        once: a.once,
        ..ServerConfig::default()
    };
    let sock = server::bind(&cfg)?;
    println!("cclab server listening on {} (UDP){}", sock.local_addr().map_err(|e| e.to_string())?, if cfg.token.is_some() { ", token required" } else { "" });
    let stop = AtomicBool::new(false);
    let stats = server::serve(&cfg, &sock, &stop, &mut |line| println!("{line}"))?;
    println!(
        "served {} sessions ({} refused, {} closed idle); dropped {} corrupted, {} truncated, {} foreign, {} malformed datagrams and {} for unknown sessions",
        stats.sessions, stats.refused, stats.idle_closed, stats.dropped_corrupted, stats.dropped_truncated, stats.dropped_foreign, stats.dropped_malformed, stats.unknown_session
    );
    Ok(())
}

fn mbytes(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.2} GBytes", b as f64 / (1u64 << 30) as f64)
    } else if b >= 1 << 20 {
        format!("{:.2} MBytes", b as f64 / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KBytes", b as f64 / 1024.0)
    }
}

fn interval_line(i: &Interval, k: u16) -> String {
    let mut line = format!("[{:>3}] {:>6.2}-{:<6.2} sec  {:>12}  {:>15}", k + 1, i.start_s, i.end_s, mbytes(i.bytes), fmt_rate(i.bits_per_second));
    if let Some(r) = i.retransmits {
        line.push_str(&format!("  {r:>5}"));
    }
    if let Some(c) = i.cwnd {
        line.push_str(&format!("  {:>12}", mbytes(c)));
    }
    if let Some(rtt) = i.rtt_ms {
        line.push_str(&format!("  {rtt:>7.1} ms"));
    }
    line
}

pub fn send(a: &SendArgs) -> Result<(), UserError> {
    let CcArg(cc) = a.cc.parse::<CcArg>().map_err(|e| format!("--cc: {e}"))?;
    if let Transport::Datagram(d) = &cc {
        if a.pacing {
            return Err(format!("--pacing: applies to TCP controllers; {} paces by its own rate", d.name()).into());
        }
    }
    if a.parallel == 0 || a.parallel > 128 {
        return Err("--parallel: must be 1 to 128".into());
    }
    if !(64..=net::wire::MAX_PAYLOAD as u64).contains(&a.mss) {
        return Err(format!("--mss: must be 64 to {}", net::wire::MAX_PAYLOAD).into());
    }
    let duration = seconds("time", &a.time)?;
    let interval = seconds("interval", &a.interval)?;
    if let Some(dir) = &a.out {
        crate::output::check_out_dir(dir, a.force, "--out")?;
    }
    let server = (a.host.as_str(), a.port)
        .to_socket_addrs()
        .map_err(|e| format!("{}: {e}", a.host))?
        .next()
        .ok_or_else(|| format!("{}: no address", a.host))?;
    let cfg = ClientConfig {
        server,
        cc: cc.clone(),
        streams: a.parallel,
        duration,
        reverse: a.reverse,
        sender: SenderConfig { mss: a.mss, pace_window: a.pacing, ..SenderConfig::default() },
        delayed_ack: false,
        interval,
        token: a.token.clone(),
    };
    if !a.json {
        println!(
            "Connecting to host {}, port {} (cclab send: {}, {} stream{}, {} s{})",
            a.host,
            a.port,
            cc.name(),
            a.parallel,
            if a.parallel == 1 { "" } else { "s" },
            duration.as_secs_f64(),
            if a.reverse { ", reverse: the server sends" } else { "" }
        );
        println!("[ ID] Interval           Transfer         Bitrate{}", if a.reverse { "" } else { "   Retr          Cwnd      RTT" });
    }
    let quiet = a.json;
    let reports = client::run(&cfg, &|i, k| {
        if !quiet {
            println!("{}", interval_line(i, k));
        }
    })
    .map_err(UserError)?;
    let json = report_json(a, &cfg, &reports);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&json).expect("the report serialises"));
    } else {
        print_end(&reports);
    }
    if let Some(dir) = &a.out {
        crate::output::prepare_out_dir(dir, a.force, "--out")?;
        write_out(dir, &cfg, &reports, &json)?;
        if !a.json {
            println!("wrote {}", dir.display());
        }
    }
    if reports.iter().any(|r| !r.intact()) {
        return Err("the stream lost or corrupted data (see the integrity line)".into());
    }
    Ok(())
}

fn print_end(reports: &[StreamReport]) {
    println!("- - - - - - - - - - - - - - - - - - - - - - - - -");
    for r in reports {
        println!(
            "[{:>3}] {:>6.2}-{:<6.2} sec  {:>12}  {:>15}  {:>5}  {}",
            r.stream + 1,
            0.0,
            r.seconds,
            mbytes(r.bytes_delivered),
            fmt_rate(r.bits_per_second()),
            r.retransmits,
            if r.sender { "sender" } else { "receiver" }
        );
    }
    if reports.len() > 1 {
        let bytes: u64 = reports.iter().map(|r| r.bytes_delivered).sum();
        let secs = reports.iter().map(|r| r.seconds).fold(0.0, f64::max);
        println!("[SUM] {:>6.2}-{:<6.2} sec  {:>12}  {:>15}  {:>5}", 0.0, secs, mbytes(bytes), fmt_rate(bytes as f64 * 8.0 / secs.max(1e-9)), reports.iter().map(|r| r.retransmits).sum::<u64>());
    }
    for r in reports {
        let late = match (r.pacing_late_p50_us, r.pacing_late_p99_us) {
            (Some(p50), Some(p99)) => format!("; paced sends left {p50:.0} us (median), {p99:.0} us (p99) after their time"),
            _ => String::new(),
        };
        let checksum = match (r.checksum_ok, r.reliable) {
            (true, _) => "ok",
            (false, true) => "MISMATCH",
            (false, false) => "not comparable (an unreliable protocol's losses stay lost)",
        };
        println!(
            "[{:>3}] integrity: {} bytes delivered {}, {} lost, {} corrupted, checksum {checksum}; {} bytes of duplicate arrivals discarded{late}",
            r.stream + 1,
            r.bytes_delivered,
            if r.reliable { "once and in order" } else { "once each, as they came" },
            r.bytes_lost,
            r.bytes_corrupted,
            r.bytes_duplicated,
        );
    }
}

/// iperf3's JSON shape: `start`, `intervals` (each with its streams and their sum), `end`.
fn report_json(a: &SendArgs, cfg: &ClientConfig, reports: &[StreamReport]) -> serde_json::Value {
    let n = reports.iter().map(|r| r.intervals.len()).max().unwrap_or(0);
    let intervals: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let streams: Vec<&Interval> = reports.iter().filter_map(|r| r.intervals.get(i)).collect();
            let bytes: u64 = streams.iter().map(|s| s.bytes).sum();
            let bps: f64 = streams.iter().map(|s| s.bits_per_second).sum();
            serde_json::json!({"streams": streams, "sum": {"bytes": bytes, "bits_per_second": bps}})
        })
        .collect();
    let bytes: u64 = reports.iter().map(|r| r.bytes_delivered).sum();
    let secs = reports.iter().map(|r| r.seconds).fold(0.0, f64::max);
    serde_json::json!({
        "start": {
            "connecting_to": {"host": a.host, "port": a.port},
            "server": cfg.server.to_string(),
            "cc": cfg.cc.name(),
            "streams": cfg.streams,
            "duration_s": cfg.duration.as_secs_f64(),
            "reverse": cfg.reverse,
            "mss": cfg.sender.mss,
        },
        "intervals": intervals,
        "end": {
            "streams": reports,
            "sum": {"seconds": secs, "bytes": bytes, "bits_per_second": bytes as f64 * 8.0 / secs.max(1e-9), "retransmits": reports.iter().map(|r| r.retransmits).sum::<u64>()},
            "integrity": {
                "bytes_lost": reports.iter().map(|r| r.bytes_lost).sum::<u64>(),
                "bytes_corrupted": reports.iter().map(|r| r.bytes_corrupted).sum::<u64>(),
                "duplicate_bytes_discarded": reports.iter().map(|r| r.bytes_duplicated).sum::<u64>(),
                "checksum_ok": reports.iter().all(|r| r.checksum_ok),
            },
        },
    })
}

/// The simulator's files for a real run: the flows' figures in `summary.json` (the link's are
/// unknown on a real path: zero, with the queue named "real network"), the sender's (or, with
/// `-R`, the receiver's) samples in `timeseries.csv`, an empty `link.csv`, and the iperf3-style
/// JSON as `report.json`.
fn write_out(dir: &std::path::Path, cfg: &ClientConfig, reports: &[StreamReport], json: &serde_json::Value) -> Result<(), UserError> {
    let flows: Vec<FlowSummary> = reports
        .iter()
        .map(|r| {
            let secs = r.seconds.max(1e-9);
            let rtt = r.rtt_mean_ms.unwrap_or(0.0);
            FlowSummary {
                id: r.stream as u32,
                cc: r.cc.clone(),
                start_s: 0.0,
                end_s: r.seconds,
                throughput_bps: r.bytes_sent as f64 * 8.0 / secs,
                goodput_bps: r.bits_per_second(),
                efficiency: if r.bytes_sent > 0 { r.bytes_delivered as f64 / r.bytes_sent as f64 } else { 0.0 },
                bytes_sent: r.bytes_sent,
                bytes_delivered: r.bytes_delivered,
                segments_sent: r.segments_sent,
                retransmits: r.retransmits,
                timeouts: r.timeouts,
                tail_timeouts: 0,
                loss_episodes: 0,
                rtt_ms: Dist { min: r.rtt_min_ms.unwrap_or(0.0), mean: rtt, p95: 0.0, max: 0.0 },
                completion_time_s: None,
                app_lost_bytes: 0,
                receiver_attack: None,
                startup: None,
                losses_counted: 0,
                rate_intervals: 0,
                intervals_errs_exceed_sent: 0,
                packets_logged_unsent: 0,
                err_decreases: 0,
                loss_rereports: 0,
                rereport_interval_ms: None,
                recovery_retransmits_max_per_round: 0,
            }
        })
        .collect();
    let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_bps).collect();
    let secs = reports.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let summary = Summary {
        seed: 0,
        sim_time_s: secs,
        wall_time_s: secs,
        events: 0,
        packets: reports.iter().map(|r| r.segments_sent).sum(),
        jain_index: sim::jain_index(&goodputs),
        fairness_window_s: [0.0, cfg.duration.as_secs_f64()],
        flows,
        link: LinkSummary {
            capacity_bps: 0.0,
            utilization: 0.0,
            packets_forwarded: 0,
            queue: "real network".into(),
            drops: 0,
            overflow_drops: 0,
            aqm_drops: 0,
            random_drops: 0,
            listed_drops: 0,
            policed_drops: 0,
            ecn_marks: 0,
            overflow_events: 0,
            overflow_events_per_mpkt: 0.0,
            queue_delay_ms: Dist::default(),
            queue_packets: Dist::default(),
            queue_limit_packets: None,
            queue_limit_bytes: None,
        },
        accounting: Accounting { sent: reports.iter().map(|r| r.segments_sent).sum(), delivered: 0, dropped: 0, in_network: 0 },
    };
    let samples: Vec<sim::results::FlowSample> = reports.iter().flat_map(|r| r.samples.iter().cloned()).collect();
    let series = sim::TimeSeries { flows: samples, link: Vec::new() };
    crate::output::write_files(
        dir,
        &[
            ("summary.json", serde_json::to_string_pretty(&summary).expect("summary serialises") + "\n"),
            ("timeseries.csv", crate::output::csv_text(&series.flows).map_err(UserError)?),
            ("link.csv", crate::output::link_csv_header() + "\n"),
            ("report.json", serde_json::to_string_pretty(json).expect("report serialises") + "\n"),
        ],
    )
}
