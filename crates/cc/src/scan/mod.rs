//! # scan: nmap's probe windows (`ultra_scan` congestion control)
//!
//! A scanner gets answers to a small fraction of its probes, so a TCP-style window that grows
//! per reply grows far too slowly (seed 000, nmap's wiki page "ResponseRateScaledCongestionControl").
//! This module is nmap's answer, a library piece for any prober: no I/O and no clock, time and
//! events are handed in. It has three variants, selected by name ([`Variant`]): `unscaled`
//! (trunk just before 2007-09-18, the seed's baseline), `scaled-2007` (the seed's), `scaled`
//! (nmap today).
//!
//! Source: nmap, `github.com/nmap/nmap` at `db4aefddfa348ec815ffa83a109c97e05db88766`, read
//! through cclab's spec `shared/specs/nmap-ultrascan-cc.md` (paraphrased, no code copied):
//! `timing.h`/`timing.cc` (`struct ultra_timing_vals` with `cc_scale`, `ack`, `drop`,
//! `drop_group`; `scan_performance_vars::init`; `timeout_info`, `adjust_timeouts2`),
//! `scan_engine.h`/`.cc` (`GroupScanStats`, `HostScanStats`, `UltraProbe`,
//! `ultrascan_adjust_timing`, `ultrascan_host_probe_update`, `processData`, `doAnyPings`,
//! `doAnyOutstandingRetransmits`, `doAnyNewProbes`, `waitForResponses`), `scan_engine_raw.cc`
//! (`get_ping_pcap_result`: reply classes), `targets.cc` (`massping`: batches), and the history
//! commits `302547375`, `eddc2b083`, `0f396a5b3`, `94e7a9cd4`, `12a4288aa`, `90ba6b97d`,
//! `637ba35a2`, `9ac591f9d`.
//!
//! ## The rules
//!
//! One window ([`UltraTimingVals`]) for the whole scan (the group) and one per target host. A
//! probe may go out when both allow it: `cwnd ≥ probes in flight + 0.5`. With *s* the
//! increment scale and *m* = 3 for a reply to a timing ping (else 1):
//!
//! ```text
//! ack:  slow start (cwnd < ssthresh):  cwnd ← min(cwnd + s·m, ssthresh)
//!       avoidance:                     cwnd ← cwnd + ca_incr·s·m / cwnd       (ca_incr 1, or 2 at T4/T5)
//!       cwnd ← min(cwnd, 300)
//! drop: group  cwnd ← max(1, cwnd/2),  ssthresh ← ⌊max(in_flight/d, 2)⌋   (d = 1.5 at T0..T3, 4/3 at T4, 1.25 at T5)
//!       host   cwnd ← 1,               ssthresh ← ⌊max(in_flight/d, 2)⌋
//!       only for a probe sent after the window's last drop
//! a drop is a reply to a retransmission, or a timing ping that timed out
//!
//! s = 1                                               unscaled (RFC 2581, as TCP)
//! s = min(probes_sent / probes_replied_to, 50)        scaled-2007, group only
//! s = min(num_replies_expected / num_replies_received, 50)   scaled, group and each host
//!
//! timeout = clamp(srtt + 4·rttvar, 100 ms, 10 s)     srtt += err/8, rttvar += (|err| − rttvar)/4
//! ```
//!
//! Starting values: cwnd 10, ssthresh 75 (50 before 2007-09-05, `1b41c049f`). The seed's argument: with a
//! fraction *f* of probes answered, a window that grows `1/cwnd` per reply grows by *f* per
//! round trip instead of 1, like a square root instead of linearly; multiplying increments by
//! `1/f` restores the linear growth.
//!
//! ## The pieces, one concept per file
//!
//! - [`perf`]: timing templates `-T0`..`-T5` and the constants ([`ScanPerformanceVars`]);
//! - [`variant`]: the three variants and the rules that tell them apart;
//! - [`timing_vals`]: one window and its ack/drop rules;
//! - [`packet_ratio`]: the seed's `probes_sent / probes_replied_to`;
//! - [`timeout`]: the RTT estimator and probe timeout;
//! - [`rate_limit`]: send-delay boosts and rate-limit detection (RLD);
//! - [`probe`], [`host`], [`group`]: probes, per-host and scan-wide bookkeeping;
//! - [`engine`]: the scheduler of one `ultra_scan()` call ([`UltraScan`]);
//! - [`massping`]: host discovery of a whole target list in batches of 4096 ([`HostDiscovery`]).

pub mod engine;
pub mod group;
pub mod host;
pub mod massping;
pub mod packet_ratio;
pub mod perf;
pub mod probe;
pub mod rate_limit;
pub mod timeout;
pub mod timing_vals;
pub mod variant;

pub use engine::{ScanCounters, UltraScan};
pub use group::GroupScanStats;
pub use host::HostScanStats;
pub use massping::HostDiscovery;
pub use packet_ratio::PacketRatio;
pub use perf::{ScanPerformanceVars, TimingTemplate};
pub use probe::{HostState, ProbeSend, ProbeToken, ReplyKind, UltraProbe};
pub use timeout::TimeoutInfo;
pub use timing_vals::UltraTimingVals;
pub use variant::{Variant, VariantRules};
