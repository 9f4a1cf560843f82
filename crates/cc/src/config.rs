//! Controller configuration: a serde-tagged enum (`algorithm = "newreno"`) whose variants hold
//! typed parameters with the reference implementation's defaults, the [`Cc`] enum that
//! dispatches to every algorithm by `match`, and the table that `cclab list` prints.
//!
//! Adding an algorithm: write its file under `algorithms/` (a `Config` with serde defaults and
//! a `new(&Config, CcInit)` constructor) and add one line to the `registry!` invocation below.

use crate::algorithms::*;
use crate::check::Validate;
use crate::controller::*;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// The family an algorithm belongs to, by the congestion signal it reacts to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Loss,
    Delay,
    Hybrid,
    Model,
    Rate,
    /// No congestion control at all.
    None,
}

impl Family {
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Loss => "loss",
            Family::Delay => "delay",
            Family::Hybrid => "hybrid",
            Family::Model => "model",
            Family::Rate => "rate",
            Family::None => "none",
        }
    }
}

/// One row of the algorithm table.
pub struct AlgorithmInfo {
    pub name: &'static str,
    pub family: Family,
    pub source: &'static str,
    pub summary: &'static str,
    pub default_config: fn() -> CcConfig,
}

/// A controller that is `Clone` behind a box, for user-defined algorithms.
pub trait DynCongestionControl: CongestionControl + Send {
    fn clone_box(&self) -> Box<dyn DynCongestionControl>;
}

impl<T: CongestionControl + Clone + Send + 'static> DynCongestionControl for T {
    fn clone_box(&self) -> Box<dyn DynCongestionControl> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn DynCongestionControl> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Generates [`CcConfig`], [`Cc`], the dispatch and [`ALGORITHMS`] from one list.
macro_rules! registry {
    ($( $variant:ident ( $ty:ty, $cfg:ty ) = $name:literal, $ctor:path, $family:ident, $source:literal, $summary:literal; )*) => {
        /// A controller's configuration, as written in a scenario file:
        ///
        /// ```toml
        /// [flows.cc]
        /// algorithm = "newreno"
        /// ```
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "algorithm")]
        pub enum CcConfig {
            $( #[serde(rename = $name)] $variant($cfg), )*
        }

        /// Every algorithm, for the hot path: dispatch is a `match`, not a virtual call.
        /// `Custom` holds a user-defined controller behind a box.
        #[derive(Clone)]
        pub enum Cc {
            $( $variant($ty), )*
            Custom(Box<dyn DynCongestionControl>),
        }

        /// Every algorithm cclab has, in the order `cclab list` prints them.
        pub const ALGORITHMS: &[AlgorithmInfo] = &[
            $( AlgorithmInfo {
                name: $name,
                family: Family::$family,
                source: $source,
                summary: $summary,
                default_config: || CcConfig::$variant(<$cfg>::default()),
            }, )*
        ];

        impl CcConfig {

            pub fn name(&self) -> &'static str {
                match self { $( CcConfig::$variant(_) => $name, )* }
            }

            /// Every parameter in its allowed range (each algorithm's [`Validate`] states them):
            /// `parameter: what is allowed`.
            pub fn validate(&self) -> Result<(), String> {
                match self { $( CcConfig::$variant(c) => Validate::validate(c), )* }
            }

            /// Builds the controller.
            pub fn build(&self, init: CcInit) -> Cc {
                match self { $( CcConfig::$variant(c) => Cc::$variant($ctor(c, init)), )* }
            }
        }

        macro_rules! dispatch {
            ($self_:ident, $c:ident => $e:expr) => {
                match $self_ {
                    $( Cc::$variant($c) => $e, )*
                    Cc::Custom($c) => $e,
                }
            };
        }
    };
}

registry! {
    Tahoe(Tahoe, TahoeConfig) = "tahoe", Tahoe::new, Loss,
        "Jacobson, SIGCOMM 1988",
        "slow start + AIMD + fast retransmit; every loss restarts slow start from 1 MSS";
    Reno(Reno, RenoConfig) = "reno", Reno::reno, Loss,
        "RFC 5681; Linux tcp_cong.c",
        "AIMD (+1 MSS/RTT, x1/2) with fast recovery ending at the first new ACK";
    NewReno(Reno, RenoConfig) = "newreno", Reno::newreno, Loss,
        "RFC 6582; RFC 5681",
        "Reno whose fast recovery survives partial ACKs until the recovery point";
    None(Sackexp, NoneConfig) = "none", Sackexp::new, None,
        "Kempter, Xin, Kasera, SIGCOMM 2004 poster (seed 003, SACKEXP)",
        "no congestion window: win = min(bwnd, awnd), SACK repairs losses";
    Scalable(Scalable, ScalableConfig) = "scalable", Scalable::new, Loss,
        "Kelly, CCR 2003; Linux tcp_scalable.c",
        "MIMD: +1% of cwnd per RTT, x7/8 on loss (Reno below 100 segments)";
    HighSpeed(HighSpeed, HighSpeedConfig) = "highspeed", HighSpeed::new, Loss,
        "RFC 3649; Linux tcp_highspeed.c",
        "AIMD whose a(w), b(w) grow with the window above 38 segments";
    Vegas(Vegas, VegasConfig) = "vegas", Vegas::new, Delay,
        "Brakmo & Peterson, SIGCOMM 1994 / JSAC 1995; Linux tcp_vegas.c",
        "once per RTT: diff = cwnd(rtt-base_rtt)/rtt queued; +1 below alpha 2, -1 above beta 4";
    MVegas(MVegas, MVegasConfig) = "mvegas", MVegas::new, Delay,
        "modified Vegas (seed 004, TCP Congestion Project Report); Linux tcp_vegas.c",
        "Vegas leaving slow start at round 2; alpha 1, beta 6, +1 with probability 2^(6-n)/64 between";
    Veno(Veno, VenoConfig) = "veno", Veno::new, Hybrid,
        "Fu & Liew, IEEE JSAC 2003; Linux tcp_veno.c",
        "Reno; backlog N >= 3 halves growth; loss cuts x4/5 if N < 3 (random loss), else x1/2";
    Yeah(Yeah, YeahConfig) = "yeah", Yeah::new, Hybrid,
        "Baiocchi, Castellani, Vacirca, PFLDnet 2007; Linux tcp_yeah.c",
        "Scalable while the queue < 80 pkts, else Reno; drains its own queue; loss removes the queue";
    Illinois(Illinois, IllinoisConfig) = "illinois", Illinois::new, Hybrid,
        "Liu, Basar, Srikant, VALUETOOLS 2006; Linux tcp_illinois.c",
        "AIMD with alpha 10..0.3 and beta 1/8..1/2 set by the average queueing delay";
    Compound(Compound, CompoundConfig) = "compound", Compound::new, Hybrid,
        "Tan, Song, Zhang, Sridharan, INFOCOM 2006; draft-sridharan-tcpm-ctcp-02",
        "win = cwnd (Reno) + dwnd; dwnd += win^0.75/8 - 1 per RTT while diff < 30 pkts, -= diff after";
    Lp(Lp, LpConfig) = "lp", Lp::new, Delay,
        "Kuzmanovic & Knightly, INFOCOM 2003; Linux tcp_lp.c",
        "low priority: one-way delay above 15% of its range halves cwnd, twice within 3 RTTs sets 1";
    Nv(Nv, NvConfig) = "nv", Nv::new, Delay,
        "Brakmo, TCP-NV 2016; Linux tcp_nv.c",
        "once per RTT: cwnd above rate x min_rtt + 10 pkts cuts 30% of the excess, stops growth";
    Cdg(Cdg, CdgConfig) = "cdg", Cdg::new, Delay,
        "Hayes & Armitage, IFIP Networking 2011; Linux tcp_cdg.c",
        "backs off x0.707 with probability 1 - exp(-g/G) on a rising RTT gradient; shadow window";
    Bic(Bic, BicConfig) = "bic", Bic::new, Loss,
        "Xu, Harfoush, Rhee, INFOCOM 2004; Linux tcp_bic.c",
        "binary search for the last loss point, then max probing; x0.8 on loss";
    Cubic(Cubic, CubicConfig) = "cubic", Cubic::new, Loss,
        "RFC 9438; Linux tcp_cubic.c; HyStart (Ha & Rhee 2011), HyStart++ (RFC 9406)",
        "W(t) = C(t-K)^3 + W_max around the last loss point, x0.7 on loss, HyStart";
    Htcp(Htcp, HtcpConfig) = "htcp", Htcp::new, Loss,
        "Leith & Shorten, PFLDnet 2004; Linux tcp_htcp.c",
        "increase grows with time since the last loss; backoff RTT_min/RTT_max in [0.5, 0.8]";
    Hybla(Hybla, HyblaConfig) = "hybla", Hybla::new, Loss,
        "Caini & Firrincieli, IJSCN 2004; Linux tcp_hybla.c",
        "Reno scaled by rho = RTT/25 ms so long paths grow as fast in time as short ones";
    Westwood(Westwood, WestwoodConfig) = "westwood", Westwood::new, Loss,
        "Mascolo et al., MobiCom 2001 (Westwood+: CCR 2004); Linux tcp_westwood.c",
        "Reno whose loss response sets ssthresh to the estimated bandwidth x RTT_min";
    Dctcp(Dctcp, DctcpConfig) = "dctcp", Dctcp::new, Hybrid,
        "RFC 8257; Alizadeh et al., SIGCOMM 2010; Linux tcp_dctcp.c",
        "ECN: cut cwnd by alpha/2 per window, alpha = EWMA(g = 1/16) of the marked fraction";
    Bbr(Bbr, BbrConfig) = "bbr", Bbr::new, Model,
        "Cardwell et al., ACM Queue 2016; draft-cardwell-iccrg-bbr-congestion-control-00; Linux tcp_bbr.c",
        "paces at max_bw (10-round max) with gain cycle 5/4, 3/4, 1 x6; cwnd = 2 BDP; PROBE_RTT every 10 s";
    Bbr3(Bbr3, Bbr3Config) = "bbr3", Bbr3::new, Model,
        "draft-ietf-ccwg-bbr (BBRv3); Google's v3 Linux tcp_bbr.c (github.com/google/bbr, branch v3)",
        "BBR bounded by inflight_hi (loss > 2 % / CE > 50 % while probing) and bw_lo/inflight_lo (x0.7 per lossy round)";
}

impl CcConfig {
    /// The default configuration of the algorithm called `name` (its command-line name).
    pub fn from_name(name: &str) -> Result<CcConfig, String> {
        ALGORITHMS
            .iter()
            .find(|a| a.name == name)
            .map(|a| (a.default_config)())
            .ok_or_else(|| format!("unknown algorithm `{name}`; allowed: {}", algorithm_names().join(", ")))
    }
}

/// The family (loss, delay, hybrid, ...) of the algorithm named `name`, if there is one.
pub fn family_of(name: &str) -> Option<Family> {
    ALGORITHMS.iter().find(|a| a.name == name).map(|a| a.family)
}

/// The command-line names of every algorithm.
pub fn algorithm_names() -> Vec<&'static str> {
    ALGORITHMS.iter().map(|a| a.name).collect()
}

impl std::fmt::Debug for Cc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cc({})", self.name())
    }
}

impl CongestionControl for Cc {
    fn name(&self) -> &'static str {
        dispatch!(self, c => c.name())
    }
    #[inline]
    fn on_feedback(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_feedback(fb, ctx))
    }
    fn on_ack(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_ack(fb, ctx))
    }
    fn on_loss(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_loss(fb, ctx))
    }
    #[inline]
    fn on_sent(&mut self, sent: &Sent, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_sent(sent, ctx))
    }
    fn on_timeout(&mut self, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_timeout(ctx))
    }
    fn on_spurious_loss(&mut self, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_spurious_loss(ctx))
    }
    fn on_idle_restart(&mut self, restart: &IdleRestart, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_idle_restart(restart, ctx))
    }
    fn on_tx_start(&mut self, tx: &TxStart, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_tx_start(tx, ctx))
    }
    #[inline]
    fn control(&self) -> Control {
        dispatch!(self, c => c.control())
    }
    fn snapshot(&self) -> Snapshot {
        dispatch!(self, c => c.snapshot())
    }
    fn fast_recovery(&self) -> FastRecovery {
        dispatch!(self, c => c.fast_recovery())
    }
    fn needs_ecn(&self) -> bool {
        dispatch!(self, c => c.needs_ecn())
    }
    fn sets_recovery_window(&self) -> bool {
        dispatch!(self, c => c.sets_recovery_window())
    }
    fn takes_startup_handover(&self) -> bool {
        dispatch!(self, c => c.takes_startup_handover())
    }
    fn on_startup_handover(&mut self, cwnd: Bytes, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_startup_handover(cwnd, ctx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_of_reads_the_list() {
        assert_eq!(family_of("reno"), Some(Family::Loss));
        assert_eq!(family_of("vegas"), Some(Family::Delay));
        assert_eq!(family_of("bbr"), Some(Family::Model));
        assert_eq!(family_of("nosuch"), None);
    }

    #[test]
    fn every_listed_algorithm_builds_and_keeps_its_name() {
        for a in ALGORITHMS {
            let cfg = CcConfig::from_name(a.name).unwrap();
            assert_eq!(cfg.name(), a.name);
            let cc = cfg.build(CcInit { mss: 1000, initial_cwnd: 10_000 });
            assert_eq!(cc.name(), a.name);
        }
    }

    #[test]
    fn unknown_name_lists_the_allowed_ones() {
        let e = CcConfig::from_name("vegaz").unwrap_err();
        assert!(e.contains("vegaz") && e.contains("newreno"), "{e}");
    }

    /// Every algorithm's reference defaults lie in the ranges its `validate()` states, and
    /// every datagram protocol's too.
    #[test]
    fn every_default_is_in_range() {
        for a in ALGORITHMS {
            assert_eq!((a.default_config)().validate(), Ok(()), "{}", a.name);
        }
        for p in crate::protocols::PROTOCOLS {
            assert_eq!((p.default_config)().validate(), Ok(()), "{}", p.name);
        }
    }

    /// A parameter outside its range names itself and the range.
    #[test]
    fn out_of_range_parameters_name_the_range() {
        let c: CcConfig = serde_json::from_str(r#"{"algorithm": "cubic", "beta": 2.0}"#).unwrap();
        assert_eq!(c.validate().unwrap_err(), "beta: 2 is outside the allowed 0 < x < 1");
        let c: CcConfig = serde_json::from_str(r#"{"algorithm": "dctcp", "g": 2.0}"#).unwrap();
        assert!(c.validate().unwrap_err().starts_with("g: 2 is outside"));
        let c: CcConfig = serde_json::from_str(r#"{"algorithm": "htcp", "beta_min": 0.9, "beta_max": 0.5}"#).unwrap();
        assert!(c.validate().unwrap_err().starts_with("beta_max: 0.5 is below beta_min"));
    }
}
