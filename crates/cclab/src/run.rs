//! `cclab run`: a scenario from a file and/or flags, or the default comparison.

use crate::output;
use crate::pcap::PcapTap;
use crate::scenario::{
    BufferArg, CcArg, DefencesSpec, FlowSpec, PercentArg, QueueArg, RateArg, ReceiverSpec, Scenario, SizeArg, StartupArg, TimeArg,
};
use crate::{RunArgs, UserError};
use cc::check::within;
use cc::protocols::DatagramConfig;
use cc::transport::SenderConfig;
use cc::ALGORITHMS;
use indicatif::{ProgressBar, ProgressStyle};
use sim::sink::{Discard, SampleSink};
use sim::tap::Tap;
use sim::{FlowConfig, RunResult, SimConfig, Simulation, Transport};
use std::str::FromStr;
use std::time::{Duration, Instant};

fn flag<T: FromStr<Err = String>>(name: &str, v: &Option<String>) -> Result<Option<T>, UserError> {
    v.as_deref().map(|s| s.parse::<T>().map_err(|e| UserError(format!("--{name}: {e}")))).transpose()
}

/// The scenario the flags describe (only what they set).
pub fn flags_scenario(a: &RunArgs) -> Result<Scenario, UserError> {
    let mut s = Scenario { seed: a.seed, ..Scenario::default() };
    s.duration = flag::<TimeArg>("duration", &a.duration)?;
    s.interval = flag::<TimeArg>("interval", &a.interval)?;
    s.link.rate = flag::<RateArg>("rate", &a.rate)?;
    s.link.buffer = flag::<BufferArg>("buffer", &a.buffer)?;
    s.link.loss = flag::<PercentArg>("loss", &a.loss)?;
    s.link.queue = flag::<QueueArg>("queue", &a.queue)?;
    // Absolute, like a scenario file's (see `Scenario::rebase_paths`).
    s.link.trace = a.trace_down.as_ref().map(|t| std::fs::canonicalize(t).map_or_else(|_| t.clone(), |p| p.display().to_string()));
    if let Some(n) = &a.netem {
        sim::Netem::parse(n).map_err(|e| UserError(format!("--netem: {e}")))?;
        s.link.netem = Some(n.clone());
    }
    if let Some(n) = &a.netem_reverse {
        sim::Netem::parse(n).map_err(|e| UserError(format!("--netem-reverse: {e}")))?;
        s.link.netem_reverse = Some(n.clone());
    }
    if let Some(n) = &a.host_noise {
        sim::HostNoise::parse(n).map_err(|e| UserError(format!("--host-noise: {e}")))?;
        s.link.host_noise = Some(n.clone());
    }
    s.link.send_overhead = flag::<TimeArg>("send-overhead", &a.send_overhead)?;
    if a.drop_packets.is_some() {
        s.link.drop_packets = a.drop_packets.clone();
    }
    if let Some(p) = &a.policer {
        sim::policer::PolicerConfig::parse(p).map_err(|e| UserError(format!("--policer: {e}")))?;
        s.link.policer = Some(p.clone());
    }
    if a.trace_down.is_some() && a.rate.is_some() {
        return Err("--rate: the trace given with --trace-down sets the capacity; give one of the two".into());
    }
    let d = &mut s.defaults;
    d.rtt = flag::<TimeArg>("rtt", &a.rtt)?;
    d.rwnd = flag::<SizeArg>("rwnd", &a.rwnd)?;
    d.min_rto = flag::<TimeArg>("min-rto", &a.min_rto)?;
    d.access_rate = flag::<RateArg>("access-rate", &a.access_rate)?;
    d.access_delay = flag::<TimeArg>("access-delay", &a.access_delay)?;
    d.app_rate = flag::<RateArg>("app-rate", &a.app_rate)?;
    d.mss = a.mss;
    d.initial_window = a.iw;
    // The flow settings' ranges, checked here to name the flag (the same ranges name the
    // scenario key when a file sets them).
    let range = |r: Result<(), String>| r.map_err(|e| UserError(format!("--{e}")));
    if let Some(t) = &d.rtt {
        range(within("rtt", t.0, FlowConfig::RTT))?;
    }
    if let Some(t) = &d.min_rto {
        range(within("min-rto", t.0, SenderConfig::MIN_RTO))?;
    }
    if let Some(m) = d.mss {
        range(within("mss", m, SenderConfig::MSS))?;
    }
    if let Some(w) = d.initial_window {
        range(within("iw", w, SenderConfig::INITIAL_WINDOW))?;
    }
    if let Some(r) = &d.rwnd {
        range(within("rwnd", r.0, 1..=SenderConfig::RWND_MAX))?;
    }
    if a.no_sack {
        d.sack = Some(false);
    }
    if a.no_prr {
        d.prr = Some(false);
    }
    if a.no_tlp {
        d.tlp = Some(false);
    }
    if a.delayed_ack {
        d.delayed_ack = Some(true);
    }
    if a.handshake {
        d.handshake = Some(true);
    }
    if a.no_syn_rtt_sample {
        d.syn_rtt_sample = Some(false);
    }
    d.startup = flag::<StartupArg>("startup", &a.startup)?;
    d.receiver = a.receiver.as_deref().map(ReceiverSpec::from_flag).transpose().map_err(|e| UserError(format!("--receiver: {e}")))?;
    d.defences = a.defences.as_deref().map(DefencesSpec::from_flag).transpose().map_err(|e| UserError(format!("--defences: {e}")))?;
    if a.pacing {
        d.pacing = Some(true);
    }
    if a.ecn {
        d.ecn = Some(true);
    }
    let stagger = flag::<TimeArg>("stagger", &a.stagger)?;
    if let Some(list) = &a.cc {
        let mut names: Vec<CcArg> = list
            .split(',')
            .map(|n| n.parse::<CcArg>().map_err(|e| UserError(format!("--cc: {e}"))))
            .collect::<Result<_, _>>()?;
        if names.is_empty() {
            return Err("--cc: give at least one algorithm".into());
        }
        if let Some(r) = flag::<RateArg>("cbr-rate", &a.cbr_rate)? {
            let mut any = false;
            for n in names.iter_mut() {
                if let CcArg(Transport::Datagram(DatagramConfig::Cbr(c))) = n {
                    c.rate_bps = r.0.bits_per_sec().round() as u64;
                    any = true;
                }
            }
            if !any {
                return Err("--cbr-rate: applies to `cbr` flows; add cbr to --cc".into());
            }
        }
        let n = a.flows.unwrap_or(names.len() as u32);
        if n == 0 || n as usize > sim::config::limits::MAX_FLOWS {
            return Err(format!("--flows: must be 1 to {}", sim::config::limits::MAX_FLOWS).into());
        }
        s.flows = Some(
            (0..n as usize)
                .map(|k| FlowSpec {
                    cc: Some(names[k % names.len()].clone()),
                    start: stagger.as_ref().map(|t| {
                        let at = cc::Time(t.0 .0 * k as u64);
                        TimeArg(at, format!("{}s", at.as_secs_f64()))
                    }),
                    ..FlowSpec::default()
                })
                .collect(),
        );
    } else if a.flows.is_some() {
        return Err("--flows: give the algorithms with --cc (e.g. --cc reno --flows 5)".into());
    } else if a.cbr_rate.is_some() {
        return Err("--cbr-rate: applies to `cbr` flows given with --cc (e.g. --cc cbr,reno --cbr-rate 50mbit)".into());
    }
    Ok(s)
}

/// Runs one configuration with a progress bar that appears if the run lasts over a second;
/// the time series is kept in the result.
pub fn simulate(cfg: SimConfig, quiet: bool, label: &str) -> Result<RunResult, UserError> {
    with_progress(cfg, quiet, label, |sim, progress| Ok(sim.run(progress)))
}

/// `simulate` with a tap on every packet (a pcap writer) and the time series streamed to
/// `sink` instead of kept (the result then holds none); both are finished after the run.
pub fn simulate_streaming(
    cfg: SimConfig,
    quiet: bool,
    label: &str,
    tap: Option<Box<dyn Tap>>,
    sink: Box<dyn SampleSink>,
) -> Result<RunResult, UserError> {
    with_progress(cfg, quiet, label, |sim, progress| {
        let (result, sink, tap) = sim.run_streaming(sink, tap, progress);
        if let Some(tap) = tap {
            tap.finish()?;
        }
        sink.finish()?;
        Ok(result)
    })
}

/// Builds the simulation and hands it to `run` with a progress callback that shows a bar once
/// the run has lasted a second (unless `quiet`); records the wall time.
fn with_progress(
    cfg: SimConfig,
    quiet: bool,
    label: &str,
    run: impl FnOnce(Simulation, &mut dyn FnMut(f64)) -> Result<RunResult, UserError>,
) -> Result<RunResult, UserError> {
    let started = Instant::now();
    let sim = Simulation::new(cfg).map_err(UserError)?;
    let mut bar: Option<ProgressBar> = None;
    let mut progress = |frac: f64| {
        if quiet {
            return;
        }
        if bar.is_none() && started.elapsed() > Duration::from_secs(1) {
            let b = ProgressBar::new(1000);
            b.set_style(
                ProgressStyle::with_template("{msg} [{bar:40}] {percent}% sim time, eta {eta}")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            b.set_message(label.to_string());
            bar = Some(b);
        }
        if let Some(b) = &bar {
            b.set_position((frac * 1000.0) as u64);
        }
    };
    let mut result = run(sim, &mut progress)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    result.summary.wall_time_s = started.elapsed().as_secs_f64();
    Ok(result)
}

/// Keys of a scenario that a `cclab run` flag sets directly, the flag, and whether the user
/// gave it: for naming the flag in an error about a value given as a flag.
const FLAG_KEYS: &[(&str, &str, fn(&RunArgs) -> bool)] = &[
    ("duration", "--duration", |a| a.duration.is_some()),
    ("interval", "--interval", |a| a.interval.is_some()),
    ("link.rate", "--rate", |a| a.rate.is_some()),
    ("link.buffer", "--buffer", |a| a.buffer.is_some()),
    ("link.queue", "--queue", |a| a.queue.is_some()),
    ("link.netem_reverse", "--netem-reverse", |a| a.netem_reverse.is_some()),
    ("link.host_noise", "--host-noise", |a| a.host_noise.is_some()),
    ("link.send_overhead", "--send-overhead", |a| a.send_overhead.is_some()),
    ("link.drop_packets", "--drop-packets", |a| a.drop_packets.is_some()),
    ("link.policer", "--policer", |a| a.policer.is_some()),
    ("link.netem", "--netem", |a| a.netem.is_some()),
    ("link.loss", "--loss", |a| a.loss.is_some()),
    ("link.trace", "--trace-down", |a| a.trace_down.is_some()),
];

/// `err` with its leading scenario key replaced by the flag that set it, when the user gave
/// that flag (`link.netem: ...` becomes `--netem: ...`).
fn name_flag(err: String, a: &RunArgs) -> String {
    for (key, flag, given) in FLAG_KEYS {
        if let Some(rest) = err.strip_prefix(key) {
            if (rest.starts_with(':') || rest.starts_with('.') || rest.starts_with(' ')) && given(a) {
                return format!("{flag}{rest}");
            }
        }
    }
    err
}

/// The simulator configuration a file and flags describe, errors naming the flag or key.
pub fn resolve(a: &RunArgs, scenario: &Scenario) -> Result<SimConfig, UserError> {
    scenario.resolve().map_err(|e| UserError(name_flag(e, a)))
}

/// The scenario a file and flags describe (flags override the file).
pub fn load_scenario(a: &RunArgs) -> Result<Scenario, UserError> {
    let flags = flags_scenario(a)?;
    let base = match &a.scenario {
        Some(path) => Scenario::load(path)?,
        None => Scenario::default(),
    };
    Ok(base.overlay(&flags))
}

/// Refuses, before anything runs, an `--out` directory or `--pcap` file that would overwrite a
/// user's files (see [`output::check_out_dir`]).
pub fn check_outputs(a: &RunArgs, scenario: &Scenario) -> Result<(), UserError> {
    if let Some(dir) = &a.out {
        output::check_out_dir(dir, a.force, "--out")?;
    }
    if let Some(p) = &a.pcap {
        let mut inputs: Vec<&std::path::Path> = Vec::new();
        inputs.extend(a.scenario.as_deref());
        inputs.extend(scenario.link.trace.as_deref().map(std::path::Path::new));
        output::check_new_file(p, a.force, "--pcap", &inputs)?;
        if a.out.as_deref().is_some_and(|d| p.starts_with(d)) {
            return Err("--pcap: inside the --out directory, which cclab replaces; give a path outside it".into());
        }
    }
    Ok(())
}

pub fn run(a: &RunArgs) -> Result<(), UserError> {
    let scenario = load_scenario(a)?;
    check_outputs(a, &scenario)?;
    if a.scenario.is_none() && a.cc.is_none() {
        if a.pcap.is_some() {
            return Err("--pcap: needs a single run: give --cc or a scenario file".into());
        }
        return compare(&scenario, a);
    }
    let cfg = resolve(a, &scenario)?;
    let tap: Option<Box<dyn Tap>> = match &a.pcap {
        Some(path) => Some(Box::new(PcapTap::create(path)?)),
        None => None,
    };
    // The time series goes straight to its files (or nowhere): memory stays flat however long
    // the run.
    let sink: Box<dyn SampleSink> = match &a.out {
        Some(dir) => {
            output::prepare_out_dir(dir, a.force, "--out")?;
            Box::new(output::CsvSink::create(dir)?)
        }
        None => Box::new(Discard),
    };
    let result = simulate_streaming(cfg.clone(), a.quiet || a.json, "simulating", tap, sink)?;
    if let Some(dir) = &a.out {
        output::write_run(dir, &scenario, &result)?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&result.summary).expect("summary serialises"));
    } else {
        output::print_run(&cfg, &result, scenario.link.netem.as_deref());
        if let Some(dir) = &a.out {
            println!("wrote {}", dir.display());
        }
    }
    Ok(())
}

/// The main job: every algorithm alone on the same network, one row each.
/// The datagram protocols the default comparison runs beside the TCP algorithms.
const COMPARED_DATAGRAM: [&str; 4] = ["sabul", "sabul-2003", "udt", "tfrc"];

fn compare(base: &Scenario, a: &RunArgs) -> Result<(), UserError> {
    if let Some(dir) = &a.out {
        output::prepare_out_dir(dir, a.force, "--out")?;
    }
    let mut rows = Vec::new();
    let mut first_cfg = None;
    // Every TCP algorithm, then the responsive datagram protocols (not `cbr`, whose rate is
    // whatever it is told).
    let tcp = ALGORITHMS.iter().map(|a| (a.name, Transport::Tcp((a.default_config)())));
    let datagram = COMPARED_DATAGRAM.iter().map(|&n| (n, Transport::Datagram(DatagramConfig::from_name(n).expect("a registered protocol"))));
    // A start-up such as paced chirping is compared under the algorithms that can take over
    // from it.
    let startup = base.defaults.startup.as_ref().is_some_and(|s| s.0 != cc::transport::Startup::Controller);
    let takes = sim::config::handover_algorithms();
    for (name, transport) in tcp.chain(datagram).filter(|(name, _)| !startup || takes.contains(name)) {
        let mut s = base.clone();
        s.flows = Some(vec![FlowSpec { cc: Some(CcArg(transport)), ..FlowSpec::default() }]);
        let cfg = resolve(a, &s)?;
        first_cfg.get_or_insert_with(|| cfg.clone());
        let sink: Box<dyn SampleSink> = match &a.out {
            Some(dir) => {
                let sub = dir.join(name);
                std::fs::create_dir_all(&sub).map_err(|e| UserError(format!("{}: {e}", sub.display())))?;
                Box::new(output::CsvSink::create(&sub)?)
            }
            None => Box::new(Discard),
        };
        let result = simulate_streaming(cfg, a.quiet || a.json, name, None, sink)?;
        if let Some(dir) = &a.out {
            output::write_run(&dir.join(name), &s, &result)?;
        }
        rows.push(result);
    }
    if a.json {
        let all: Vec<_> = rows.iter().map(|r| &r.summary).collect();
        println!("{}", serde_json::to_string_pretty(&all).expect("summaries serialise"));
    } else {
        output::print_comparison(first_cfg.as_ref().expect("at least one algorithm"), &rows, base.link.netem.as_deref());
        if let Some(dir) = &a.out {
            println!("wrote {}/<algorithm>/", dir.display());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_prr_and_no_tlp_reach_every_flows_sender() {
        let sender = |a: RunArgs| {
            let Ok(s) = flags_scenario(&RunArgs { cc: Some("reno,cubic".into()), ..a }) else { panic!("flags refused") };
            let cfg = s.resolve().unwrap();
            cfg.flows.iter().map(|f| (f.sender.prr, f.sender.tlp)).collect::<Vec<_>>()
        };
        assert_eq!(sender(RunArgs::default()), [(true, true); 2]);
        assert_eq!(sender(RunArgs { no_prr: true, ..RunArgs::default() }), [(false, true); 2]);
        assert_eq!(sender(RunArgs { no_tlp: true, ..RunArgs::default() }), [(true, false); 2]);
    }

    #[test]
    fn startup_receiver_and_defences_flags_reach_every_flow() {
        let a = RunArgs {
            cc: Some("reno,cubic".into()),
            startup: Some("paced-chirping".into()),
            receiver: Some("optimistic-ack:20".into()),
            defences: Some("abc,nonce".into()),
            ..RunArgs::default()
        };
        let cfg = flags_scenario(&a).ok().unwrap().resolve().unwrap();
        for f in &cfg.flows {
            assert_eq!(f.sender.startup.name(), "paced-chirping");
            assert_eq!(f.attack, Some(cc::transport::Misbehaviour::OptimisticAck { lead: 20 }));
            assert!(f.sender.defences.abc && f.sender.defences.nonce && !f.sender.defences.new_data_only);
        }
        let err = |a: RunArgs| flags_scenario(&RunArgs { cc: Some("reno".into()), ..a }).err().unwrap().0;
        assert!(err(RunArgs { startup: Some("fast".into()), ..RunArgs::default() }).starts_with("--startup: unknown start-up `fast`"));
        assert!(err(RunArgs { receiver: Some("ack-division".into()), ..RunArgs::default() }).starts_with("--receiver: split: missing"));
        assert!(err(RunArgs { defences: Some("abd".into()), ..RunArgs::default() }).starts_with("--defences: unknown defence `abd`"));
    }

    /// `--send-overhead` sets the link's phase randomiser; a negative wait, or one the link
    /// refuses (over 1 s), is an error naming the flag.
    #[test]
    fn the_send_overhead_flag_sets_the_phase_randomiser() {
        let a = |v: &str| RunArgs { cc: Some("reno".into()), send_overhead: Some(v.into()), ..RunArgs::default() };
        let cfg = flags_scenario(&a("40us")).ok().unwrap().resolve().unwrap();
        assert_eq!(cfg.link.send_overhead, Some(cc::Time::from_micros(40)));
        assert!(flags_scenario(&a("-5ms")).err().unwrap().0.starts_with("--send-overhead: "));
        let too_long = resolve(&a("2s"), &flags_scenario(&a("2s")).ok().unwrap()).err().unwrap().0;
        assert!(too_long.starts_with("--send-overhead: "), "{too_long}");
    }
}
