//! `cclab scan`: nmap-style host discovery of a list of random addresses under each of the
//! probe-window variants (seed 000), with the seed's figures: scan time, probes sent, hosts
//! found and the `packet_ratio` statistics.

use crate::scan_table::table;
use crate::UserError;
use cc::scan::{TimingTemplate, Variant};
use clap::Args;
use sim::scan::{RttDistribution, ScanConfig, ScanResult};
use sim::units::{parse_percent, parse_rate};

/// Flags for `cclab scan`. The network defaults are [`sim::scan::ScanNetwork::default`].
#[derive(Args, Debug)]
pub struct ScanArgs {
    /// Addresses to sweep.
    #[arg(long, default_value_t = 500)]
    pub hosts: u32,
    /// How many of them are up.
    #[arg(long, default_value_t = 34)]
    pub up: u32,
    /// Probe-window variants, comma-separated: unscaled, scaled-wiki, scaled-2007, scaled.
    #[arg(long, default_value = "unscaled,scaled-wiki,scaled-2007,scaled")]
    pub variant: String,
    /// Probe types per host (nmap's host discovery as root sends 4: -PE -PS443 -PA80 -PP).
    #[arg(long, default_value_t = 4)]
    pub probes: u8,
    /// Timing template, T0..T5 (or paranoid .. insane).
    #[arg(long, default_value = "T3")]
    pub timing: String,
    /// RTT of each target: 100ms, uniform:50ms:500ms or lognormal:MEDIAN:SIGMA.
    #[arg(long)]
    pub rtt: Option<String>,
    /// Random loss at the scanner's access link, each direction, e.g. 1%.
    #[arg(long)]
    pub loss: Option<String>,
    /// Fraction of the down addresses whose router answers with ICMP unreachables, e.g. 10%.
    #[arg(long)]
    pub unreachable: Option<String>,
    /// The scanner's access-link rate, e.g. 10mbit.
    #[arg(long)]
    pub access_rate: Option<String>,
    /// Count every unanswered probe as a drop, as TCP would count a lost segment (no nmap
    /// does: the seed's "Why host discovery is different").
    #[arg(long)]
    pub unanswered_is_drop: bool,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

fn flag<T>(name: &str, v: &Option<String>, parse: impl Fn(&str) -> Result<T, String>) -> Result<Option<T>, UserError> {
    v.as_deref().map(|s| parse(s).map_err(|e| UserError(format!("{name}: {e}")))).transpose()
}

/// The variants named in a comma-separated list, in the order given.
pub fn parse_variants(list: &str) -> Result<Vec<Variant>, UserError> {
    list.split(',').map(|s| s.trim().parse::<Variant>().map_err(|e| UserError(format!("--variant: {e}")))).collect()
}

/// The scan configuration the flags describe.
pub fn config(a: &ScanArgs) -> Result<ScanConfig, UserError> {
    let mut cfg = ScanConfig { hosts: a.hosts, up: a.up, probes: a.probes, seed: a.seed, unanswered_is_drop: a.unanswered_is_drop, ..ScanConfig::default() };
    cfg.timing = a.timing.parse::<TimingTemplate>().map_err(|e| UserError(format!("--timing: {e}")))?;
    if let Some(r) = flag("--rtt", &a.rtt, |s| s.parse::<RttDistribution>())? {
        cfg.network.rtt = r;
    }
    if let Some(p) = flag("--loss", &a.loss, parse_percent)? {
        cfg.network.loss = p;
    }
    if let Some(p) = flag("--unreachable", &a.unreachable, parse_percent)? {
        cfg.network.unreachable_fraction = p;
    }
    if let Some(r) = flag("--access-rate", &a.access_rate, parse_rate)? {
        cfg.network.access_rate = r;
    }
    cfg.validate().map_err(UserError)?;
    Ok(cfg)
}

pub fn scan(a: &ScanArgs) -> Result<(), UserError> {
    let cfg = config(a)?;
    let variants = parse_variants(&a.variant)?;
    let results: Vec<ScanResult> = variants.iter().map(|&v| sim::scan::run(&cfg, v)).collect();
    if a.json {
        let json = serde_json::json!({
            "hosts": cfg.hosts,
            "up": cfg.up,
            "seed": cfg.seed,
            "variants": results,
        });
        println!("{}", serde_json::to_string_pretty(&json).map_err(|e| UserError(e.to_string()))?);
    } else {
        let title = format!(
            "host discovery of {} addresses ({} up), {} probe types, {:?}, seed {}",
            cfg.hosts, cfg.up, cfg.probes, cfg.timing, cfg.seed
        );
        print!("{}", table(&title, &results).render_text());
    }
    Ok(())
}
