//! A scan workload and the network it crosses.

use super::icmp::IcmpRateLimit;
use super::rtt::RttDistribution;
use cc::scan::TimingTemplate;
use cc::{Bytes, Rate, Time};

/// Bytes on the wire of every probe and reply (an Ethernet minimum frame; ICMP echo, TCP SYN or
/// ACK, RST and ICMP unreachables all fit).
pub const PACKET_BYTES: Bytes = 64;

/// The network a scan crosses. [`ScanNetwork::default`] is cclab's one model of random Internet
/// hosts; see the module documentation of [`crate::scan`] for why each value.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ScanNetwork {
    /// RTT of each target address, drawn once per address.
    pub rtt: RttDistribution,
    /// Per-packet delay variation: each one-way trip takes `(RTT/2)·(1 + jitter·E)` with `E`
    /// exponential of mean 1 (queueing along the path).
    pub jitter: f64,
    /// Random loss at the scanner's access link, each direction.
    pub loss: f64,
    /// Fraction of the down addresses whose last-hop router answers with ICMP unreachables.
    pub unreachable_fraction: f64,
    /// Each such router's ICMP rate limit (`None`: unlimited).
    pub icmp_rate_limit: Option<IcmpRateLimit>,
    /// The router drops the first packet to a dead address while it tries ARP.
    pub arp_drops_first: bool,
    /// The scanner's access link, each direction.
    pub access_rate: Rate,
    pub access_buffer: Bytes,
}

impl Default for ScanNetwork {
    fn default() -> ScanNetwork {
        ScanNetwork {
            rtt: RttDistribution::LogNormal { median: Time::from_millis(150), sigma: 0.7 },
            jitter: 0.1,
            loss: 0.001,
            unreachable_fraction: 0.0015,
            icmp_rate_limit: Some(IcmpRateLimit { per_second: 2.0, burst: 1.0 }),
            arp_drops_first: true,
            access_rate: Rate::from_bits_per_sec(10e6),
            access_buffer: 100 * PACKET_BYTES,
        }
    }
}

/// How often a responsive host answers each of nmap's default IPv4 probes as root, `-PE -PS443
/// -PA80 -PP` (Nmap book, ch. 3, Table 3.2, the share of responsive Internet hosts each single
/// probe finds: 62.47 %, 44.17 %, 43.28 %, 36.66 %).
pub const DEFAULT_ANSWER_PROBABILITY: [f64; 4] = [0.6247, 0.4417, 0.4328, 0.3666];
/// Table 3.2's figures for single probes: `-PE`, `-PA80` (also used for other ACK ports), `-PS80`.
pub const ANSWER_PE: f64 = 0.6247;
pub const ANSWER_PA80: f64 = 0.4328;
pub const ANSWER_PS80: f64 = 0.4247;

/// The most addresses one scan may sweep: a /8, 2^24 (memory grows with the address count).
pub const MAX_HOSTS: u32 = 1 << 24;

/// A host-discovery sweep: `hosts` addresses, `up` of them answering, `probes` probe types per
/// host (nmap's default as root on IPv4: 4, `-PE -PS443 -PA80 -PP`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ScanConfig {
    pub hosts: u32,
    /// Hosts that answer at least one of the probe types (what nmap reports as up).
    pub up: u32,
    pub probes: u8,
    /// For each probe type in sending order, the chance that an up host answers it (and its
    /// retransmissions); drawn independently per host and type, given that the host answers at
    /// least one.
    pub answer_probability: [f64; 4],
    pub timing: TimingTemplate,
    pub seed: u64,
    pub network: ScanNetwork,
    /// Give up after this much simulated time (the result says the scan did not finish).
    pub time_limit: Time,
    /// TCP's rule instead of nmap's: every scan probe that times out unanswered is a drop
    /// ([`cc::scan::VariantRules::with_unanswered_as_drop`]). No nmap ever did this; it shows
    /// what the seed's "not counted as a drop as it would be with TCP" is worth.
    pub unanswered_is_drop: bool,
}

impl Default for ScanConfig {
    fn default() -> ScanConfig {
        ScanConfig {
            hosts: 500,
            up: 34,
            probes: 4,
            answer_probability: DEFAULT_ANSWER_PROBABILITY,
            timing: TimingTemplate::T3,
            seed: 1,
            network: ScanNetwork::default(),
            time_limit: Time::from_secs(100_000),
            unanswered_is_drop: false,
        }
    }
}

impl ScanConfig {
    /// Checks what the command line cannot: one line naming the problem.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_HOSTS).contains(&self.hosts) {
            return Err(format!("--hosts: scan 1 to {MAX_HOSTS} addresses (a /8)"));
        }
        if self.up > self.hosts {
            return Err(format!("--up: {} hosts up out of {} addresses", self.up, self.hosts));
        }
        if !(1..=4).contains(&self.probes) {
            return Err(format!("--probes: {} probe types per host; nmap's host discovery sends 1 to 4", self.probes));
        }
        if let Some(p) = self.answer_probability[..self.probes as usize].iter().find(|p| !(**p > 0.0 && **p <= 1.0)) {
            return Err(format!("answer probability {p}: a fraction above 0 and at most 1"));
        }
        let n = &self.network;
        if !(n.jitter.is_finite() && n.jitter >= 0.0) {
            return Err("--jitter: a fraction of the RTT of 0 or more".into());
        }
        if !(0.0..=1.0).contains(&n.loss) || !(0.0..=1.0).contains(&n.unreachable_fraction) {
            return Err("--loss and --unreachable are percentages between 0% and 100%".into());
        }
        if let Some(l) = n.icmp_rate_limit {
            if !(l.per_second.is_finite() && l.per_second > 0.0 && l.burst >= 1.0) {
                return Err("--icmp-rate-limit: a positive rate with a burst of at least 1".into());
            }
        }
        Ok(())
    }
}
