//! # A scan workload: nmap-style host discovery of random Internet addresses
//!
//! A scanner sweeps `hosts` addresses with `probes` probe types each, under one of the probe
//! window variants of [`cc::scan`]. `up` of the addresses answer some of the probe types after
//! their RTT; the others are down: most are silent, and a few sit behind a last-hop router that
//! answers with ICMP host unreachables (dropping the first packet while it tries ARP, and
//! rate-limiting what it sends). Probes and answers cross the scanner's access link, where they
//! can be lost or overflow the buffer. Retransmissions, timeouts and the host-down decision
//! are the library's (nmap's).
//!
//! Deterministic: the addresses, the loss processes and the scanner are driven by
//! `component_rng(seed, ·)` and integer time; nothing reads a clock.
//!
//! ## The network model ([`ScanNetwork::default`], [`ScanConfig::default`]) and why
//!
//! | value | default | why |
//! |---|---|---|
//! | target RTT | log-normal, median 150 ms, σ 0.7 | **assumed**, from no measurement of the seed's paths: a body around a transcontinental median and a long tail of slow access links. Scan times grow almost in proportion to it, speed-ups much less (the `nmap-scaling` experiment's sensitivity table) |
//! | jitter | one-way time × (1 + 0.1·Exp(1)) | queueing along the path |
//! | loss | **0.1 %** each way at the scanner's access link | SLAC's PingER measurements of 2007-2008 (confluence.slac.stanford.edu, PingER reports): losses below 0.1 % to North America, Europe, East Asia and Oceania, above it (up to a few per cent) to the rest of the world; random addresses are spread over both. It makes the occasional reply to a retransmission, i.e. the drops nmap sees on an ordinary scan. Not fitted |
//! | answers of an up host | each probe type *k* independently with `answer_probability[k]`, given it answers at least one | Nmap book ch. 3 Table 3.2: single probes find only 36–62 % of responsive hosts (`-PE` 62.47 %, `-PS443` 44.17 %, `-PA80` 43.28 %, `-PS80` 42.47 %, `-PP` 36.66 %); the spec (§7) names it as the response model for simulation. A host found by the seed's scans is one that answered at least one of its probes |
//! | down addresses behind an answering router | **0.15 %** | **fitted** (below), on the merged rule |
//! | the router's ARP | the first packet to a dead address is dropped while the router resolves it; later ones get a host unreachable | nmap's developers saw exactly this in August 2007: the unreachables "come back in response to the second probe only, which counts as a drop" (bamsoftware.com/wiki/Nmap/PerformanceGraphs, spec §6) |
//! | ICMP rate limit | 2 per second, burst 1, per router | Cisco IOS's default (one unreachable per 500 ms) |
//! | access link | 10 Mbit/s each way, 100 packets of buffer | a 2007 office uplink; never the bottleneck of a scan of a few hundred probes per second |
//!
//! ## The one fitted value
//!
//! How many dead addresses sit behind a router that answers with unreachables is not known
//! from outside: we found no measurement of it for 2007 paths that we could read. It decides
//! the drops that scaled-2007 suffers (each router unreachable to a retransmission halves its
//! group window) and unscaled does not (it ignores router unreachables). The `nmap-scaling`
//! experiment fits it on **one** of the seed's workloads, the 5000-address speed-up, over seeds
//! 1-8 on a grid of 0 to 0.6 %, and checks everything else (the other two speed-ups, the scan
//! times, `packet_ratio`) on seeds 9-16; its report has the fit table, the out-of-sample
//! verdicts and the reasons where they fail. The default here, 0.15 %, is the value that fit
//! chose when it ran the merged rule (scaled-2007); it now runs the seed's own rule
//! (scaled-wiki) and chooses its share afresh on every run (0.2 % in its report), so that
//! report, not this default, is where the fitted value stands.
//! The scan is very sensitive to it on small sweeps: one answering router more or fewer among
//! the 466 dead addresses of the 500-address sweep changes scaled-2007's time by tens of per
//! cent.
//!
//! See [`ScanNetwork::default`] for the values in code.

pub mod access;
pub mod config;
pub mod icmp;
pub mod result;
pub mod rtt;
pub mod targets;
pub mod workload;

pub use config::{ScanConfig, ScanNetwork};
pub use icmp::IcmpRateLimit;
pub use result::{RatioStats, ScanResult, WindowPoint};
pub use rtt::RttDistribution;
pub use workload::run;
