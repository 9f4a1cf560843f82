//! `cclab bench`'s net cases: the real UDP transport on loopback (`cclab serve` and `cclab send`
//! in one process, one thread each), its goodput and the CPU it spends per gigabyte delivered,
//! beside iperf3 over the kernel's TCP on the same machine when iperf3 is installed.

use crate::UserError;
use cc::transport::SenderConfig;
use cc::Time;
use net::client::{self, ClientConfig};
use net::server::{self, ServerConfig};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug, Serialize)]
pub struct NetResult {
    pub name: String,
    pub what: String,
    pub goodput_bps: f64,
    /// Process CPU time (user + system, both ends) per 10^9 payload bytes delivered.
    pub cpu_s_per_gb: f64,
    pub bytes: u64,
    /// How late paced sends left after their scheduled time (median, 99th percentile), µs.
    pub pacing_late_p50_us: Option<f64>,
    pub pacing_late_p99_us: Option<f64>,
    pub intact: bool,
}

/// User plus system CPU time of this process so far, in seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// One cclab stream with controller `cc` on loopback for `secs`.
fn cclab_case(name: &str, cc: &str, pacing: bool, secs: f64) -> Result<NetResult, UserError> {
    let cfg = ServerConfig { bind: "127.0.0.1:0".parse().expect("an address"), once: true, ..ServerConfig::default() };
    let sock = server::bind(&cfg)?;
    let addr = sock.local_addr().map_err(|e| e.to_string())?;
    let stop = AtomicBool::new(false);
    let cpu0 = cpu_seconds();
    let reports = std::thread::scope(|s| {
        let h = s.spawn(|| server::serve(&cfg, &sock, &stop, &mut |_| {}));
        let c = ClientConfig {
            server: addr,
            cc: sim::Transport::Tcp(cc::CcConfig::from_name(cc).map_err(UserError)?),
            streams: 1,
            duration: Time::from_secs_f64(secs),
            reverse: false,
            sender: SenderConfig { pace_window: pacing, ..SenderConfig::default() },
            delayed_ack: false,
            interval: Time::from_secs(1),
            token: String::new(),
        };
        let r = client::run(&c, &|_, _| {});
        stop.store(true, Ordering::Relaxed);
        let _ = h.join();
        r.map_err(UserError)
    })?;
    let cpu = cpu_seconds() - cpu0;
    let r = &reports[0];
    Ok(NetResult {
        name: name.into(),
        what: format!("cclab send --cc {cc}{}, loopback, {secs} s", if pacing { " --pacing" } else { "" }),
        goodput_bps: r.bits_per_second(),
        cpu_s_per_gb: cpu / (r.bytes_delivered as f64 / 1e9).max(1e-9),
        bytes: r.bytes_delivered,
        pacing_late_p50_us: r.pacing_late_p50_us,
        pacing_late_p99_us: r.pacing_late_p99_us,
        intact: r.intact(),
    })
}

/// iperf3 over the kernel's TCP on loopback: the reference. `None` without iperf3.
fn iperf3_case(secs: f64) -> Option<NetResult> {
    let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port().to_string();
    let mut server = std::process::Command::new("iperf3").args(["-s", "-1", "-B", "127.0.0.1", "-p", &port]).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().ok()?;
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = std::process::Command::new("iperf3").args(["-c", "127.0.0.1", "-p", &port, "-t", &secs.to_string(), "-J"]).output();
    let _ = server.kill();
    let _ = server.wait();
    let v: serde_json::Value = serde_json::from_slice(&out.ok()?.stdout).ok()?;
    let end = &v["end"];
    let bps = end["sum_received"]["bits_per_second"].as_f64()?;
    let bytes = end["sum_received"]["bytes"].as_u64()?;
    let cpu = &end["cpu_utilization_percent"];
    let cpu_s = (cpu["host_total"].as_f64()? + cpu["remote_total"].as_f64()?) / 100.0 * secs;
    Some(NetResult {
        name: "net-iperf3-tcp".into(),
        what: format!("iperf3 over kernel TCP ({}), loopback, {secs} s", end["sender_tcp_congestion"].as_str().unwrap_or("?")),
        goodput_bps: bps,
        cpu_s_per_gb: cpu_s / (bytes as f64 / 1e9),
        bytes,
        pacing_late_p50_us: None,
        pacing_late_p99_us: None,
        intact: true,
    })
}

pub fn net_cases(only: Option<&str>, quiet: bool) -> Result<Vec<NetResult>, UserError> {
    let secs = 3.0;
    let mut out = Vec::new();
    for (name, cc, pacing) in [("net-cubic", "cubic", false), ("net-bbr", "bbr", false), ("net-reno-paced", "reno", true)] {
        if only.is_some_and(|o| !name.contains(o)) {
            continue;
        }
        if !quiet {
            eprintln!("running {name} ...");
        }
        out.push(cclab_case(name, cc, pacing, secs)?);
    }
    if only.is_none_or(|o| "net-iperf3-tcp".contains(o)) {
        match iperf3_case(secs) {
            Some(r) => out.push(r),
            None if !quiet => eprintln!("iperf3 is not installed (apt-get install iperf3): no kernel-TCP reference"),
            None => {}
        }
    }
    Ok(out)
}
