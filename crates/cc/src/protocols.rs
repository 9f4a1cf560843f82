//! The datagram protocols by name: [`DatagramConfig`] (`algorithm = "udt"` in a scenario, with
//! each protocol's reference defaults), building a sender/receiver pair from it, and the table
//! `cclab list` prints ([`PROTOCOLS`]).
//!
//! It sits above the protocols ([`crate::rate`], [`crate::tfrc`], [`crate::cbr`]), which sit
//! above their interface ([`crate::datagram`]): the data flows one way.

use crate::check::Validate;
use crate::datagram::{DatagramReceiver, DatagramSender, DgInit};

/// A boxed sender and receiver pair.
pub type Endpoints = (Box<dyn DatagramSender + Send>, Box<dyn DatagramReceiver + Send>);

/// One row of the protocol table `cclab list` prints.
pub struct ProtocolInfo {
    pub name: &'static str,
    /// `rate` (rate-based control), `equation` (TFRC) or `unresponsive` (CBR).
    pub family: &'static str,
    pub source: &'static str,
    pub summary: &'static str,
    pub default_config: fn() -> DatagramConfig,
}

/// Generates [`DatagramConfig`], its `build` and [`PROTOCOLS`] from one list. Adding a
/// protocol: its `Config` (serde defaults) and `new_pair(&Config, DgInit)`, and one line here.
macro_rules! protocols {
    ($( $variant:ident ( $cfg:ty ) = $name:literal, $family:literal, $ctor:path, $source:literal, $summary:literal; )*) => {
        /// A datagram protocol's configuration (`algorithm = "udt"`), with the reference
        /// defaults.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "algorithm")]
        pub enum DatagramConfig {
            $( #[serde(rename = $name)] $variant($cfg), )*
        }

        /// Every datagram protocol, in the order `cclab list` prints them.
        pub const PROTOCOLS: &[ProtocolInfo] = &[
            $( ProtocolInfo { name: $name, family: $family, source: $source, summary: $summary, default_config: || DatagramConfig::$variant(<$cfg>::default()) }, )*
        ];

        impl DatagramConfig {

            /// Every parameter in its allowed range (each protocol's [`Validate`] states them):
            /// `parameter: what is allowed`.
            pub fn validate(&self) -> Result<(), String> {
                match self { $( DatagramConfig::$variant(c) => Validate::validate(c), )* }
            }

            pub fn name(&self) -> &'static str {
                match *self { $( DatagramConfig::$variant(_) => $name, )* }
            }

            /// Builds the sender and the receiver.
            #[allow(unused_variables)]
            pub fn build(&self, init: DgInit) -> Endpoints {
                match *self {
                    $( DatagramConfig::$variant(ref c) => {
                        let (s, r) = $ctor(c, init);
                        (Box::new(s), Box::new(r))
                    } )*
                }
            }
        }
    };
}

protocols! {
    Sabul(crate::rate::SabulConfig) = "sabul", "rate", crate::rate::sabul::new_pair,
        "Gu & Grossman, SABUL (2003); Oothongsap, Viniotis & Vouk, NETWORKING 2004 (seed 001)",
        "rate-based UDP: MIMD on the inter-packet time once per fixed SYN interval, loss rate from ERR reports";
    Sabul2003(crate::rate::Sabul2003Config) = "sabul-2003", "rate", crate::rate::sabul::v2003::new_pair,
        "SABUL v2.0 code (2003), as analysed by seed 001",
        "SABUL with the 2003 code's counting flaws: re-reported ERRs counted again, loss capped at 1, rate between SYNs";
    Udt(crate::rate::UdtConfig) = "udt", "rate", crate::rate::udt::new_pair,
        "UDT 4.11 ccc.cpp CUDTCC; draft-gg-udt-03",
        "rate-based UDP: capacity-based increase every 10 ms SYN, randomised 1/8 decrease per congestion period";
    Tfrc(crate::tfrc::TfrcConfig) = "tfrc", "equation", crate::tfrc::new_pair,
        "RFC 5348 (TCP-Friendly Rate Control); Padhye et al., SIGCOMM 1998",
        "equation-based: sends at the TCP throughput equation's rate for the measured loss event rate and RTT";
    Cbr(crate::cbr::CbrConfig) = "cbr", "unresponsive", crate::cbr::new_pair,
        "the talk's unresponsive flow (seed 002)",
        "constant bit rate (rate_bps, --cbr-rate), ignores all feedback";
}

impl DatagramConfig {
    /// Whether the protocol retransmits what is lost (SABUL and UDT are reliable bulk-transfer
    /// protocols; TFRC and CBR carry data that may be lost for good).
    pub fn is_reliable(&self) -> bool {
        matches!(self, DatagramConfig::Sabul(_) | DatagramConfig::Sabul2003(_) | DatagramConfig::Udt(_))
    }

    /// The default configuration of the protocol called `name`.
    pub fn from_name(name: &str) -> Option<DatagramConfig> {
        PROTOCOLS.iter().find(|p| p.name == name).map(|p| (p.default_config)())
    }
}
