//! `twin`: Reno, CUBIC and BBR on the seeds' links, each in the simulator and on the testbed
//! (kernel TCP through the same link model), side by side. Needs root.

use super::{Options, Output, Table};
use crate::run::simulate;
use crate::twin_metrics::{accuracy_line, twin_metrics};
use crate::UserError;
use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, LinkConfig, LossSpec, QueueLimit, SimConfig, Trace};

pub const DESCRIPTION: &str = "Each algorithm alone on each link, once in the simulator and once as \
the kernel's own implementation (TCP_CONGESTION) in network namespaces through a user-space \
emulator that applies the simulator's link model to real packets. Links: 40 Mbit/s, 100 ms, one \
BDP of drop-tail buffer with 0, 1 and 5 % random loss (seed 002's network); 10 Mbit/s, 60 ms, 50 \
packets with 0.1 and 1 % loss (seed 004's netem trials); a Mahimahi Verizon LTE downlink trace \
with 100 ms and 100 packets. The verdict per metric: agree within 10 %, close within 30 %, else \
differ (counts of three or fewer agree). Runs last 30 s (fast mode: 5 s, two links).";

const VERIZON: &str = include_str!("../../../../traces/Verizon-LTE-short.down");

struct LinkCase {
    name: &'static str,
    rate_mbit: f64,
    rtt_ms: u64,
    buffer: QueueLimit,
    loss: f64,
    trace: bool,
}

const fn case(name: &'static str, rate_mbit: f64, rtt_ms: u64, buffer: QueueLimit, loss: f64) -> LinkCase {
    LinkCase { name, rate_mbit, rtt_ms, buffer, loss, trace: false }
}

const LINKS: [LinkCase; 6] = [
    case("40mbit-100ms-1bdp-0%", 40.0, 100, QueueLimit::Bdp(1.0), 0.0),
    case("40mbit-100ms-1bdp-1%", 40.0, 100, QueueLimit::Bdp(1.0), 0.01),
    case("40mbit-100ms-1bdp-5%", 40.0, 100, QueueLimit::Bdp(1.0), 0.05),
    case("10mbit-60ms-50pkts-0.1%", 10.0, 60, QueueLimit::Packets(50), 0.001),
    case("10mbit-60ms-50pkts-1%", 10.0, 60, QueueLimit::Packets(50), 0.01),
    LinkCase { name: "verizon-lte-100ms-100pkts", rate_mbit: 0.0, rtt_ms: 100, buffer: QueueLimit::Packets(100), loss: 0.0, trace: true },
];

const ALGORITHMS: [&str; 3] = ["reno", "cubic", "bbr"];

fn config(l: &LinkCase, cc: &str, secs: u64) -> Result<SimConfig, UserError> {
    let mut link = LinkConfig { buffer: l.buffer, ..LinkConfig::default() };
    if l.trace {
        link.trace = Some(Trace::parse("Verizon-LTE-short.down", VERIZON)?);
    } else {
        link.rate = Rate::from_bits_per_sec(l.rate_mbit * 1e6);
    }
    if l.loss > 0.0 {
        link.netem.loss = LossSpec::Random { p: l.loss, correlation: 0.0 };
    }
    Ok(SimConfig {
        seed: 1,
        duration: Time::from_secs(secs),
        sample_interval: Some(Time::from_millis(100)),
        link,
        flows: vec![FlowConfig::new(CcConfig::from_name(cc)?, Time::from_millis(l.rtt_ms))],
    })
}

pub fn run(opts: &Options) -> Result<Output, UserError> {
    if !testbed::netns::has_net_admin() {
        return Err("twin: needs root (CAP_NET_ADMIN) for the testbed's network namespaces; run it with sudo".into());
    }
    testbed::netns::install_signal_handlers();
    let secs = if opts.fast { 5 } else { 30 };
    let links: Vec<&LinkCase> = if opts.fast { vec![&LINKS[0], &LINKS[4]] } else { LINKS.iter().collect() };
    let mut t = Table::new(
        "simulator (ours) against the kernel, per link and algorithm",
        &["link", "cc", "goodput ours", "goodput kernel", "kernel/ours", "retrans ours", "retrans kernel", "cwnd ours", "cwnd kernel", "queue delay ours", "queue delay kernel", "agree / close / differ"],
    );
    let mut out = Output::default();
    for l in links {
        for cc in ALGORITHMS {
            let cfg = config(l, cc, secs)?;
            let dir = opts.out.join(l.name).join(cc);
            let ours = simulate(cfg.clone(), true, "")?;
            crate::output::write_result_files(&dir.join("sim"), &cfg, &ours)?;
            let kernel = testbed::run(&testbed::TestbedConfig::from_sim(cfg.clone())).map_err(UserError)?;
            crate::output::write_result_files(&dir.join("kernel"), &cfg, &kernel.result)?;
            let ms = twin_metrics(&ours, &kernel.result);
            let get = |name: &str| ms.iter().find(|m| m.metric == name).expect("a twin metric");
            let fmt = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |x| format!("{x:.2} {unit}"));
            let count = |v: &str| ms.iter().filter(|m| m.verdict().starts_with(v)).count();
            let (g, r, c, q) = (get("goodput"), get("retransmissions"), get("cwnd mean"), get("queueing delay mean"));
            t.row(vec![
                l.name.into(),
                cc.into(),
                fmt(g.ours, "Mbit/s"),
                fmt(g.kernel, "Mbit/s"),
                g.ratio().map_or("-".into(), |x| format!("{x:.2}")),
                fmt(r.ours, ""),
                fmt(r.kernel, ""),
                fmt(c.ours, ""),
                fmt(c.kernel, ""),
                fmt(q.ours, "ms"),
                fmt(q.kernel, "ms"),
                format!("{} / {} / {}", count("agree"), count("close"), count("differ")),
            ]);
            out.notes.push(format!("{} {cc}: {}", l.name, accuracy_line(&kernel.emulator)));
        }
    }
    out.tables.push(t);
    Ok(out)
}
