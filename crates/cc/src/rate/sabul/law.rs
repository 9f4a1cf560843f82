//! The pluggable SABUL rate law: which generation's rules turn loss rates and ERR reports into
//! a new inter-packet time (spec §1.4, §5 item 1). The sender owns the IPT, the clamps and the
//! freeze; a law only maps `(IPT, input) → IPT`.
//!
//! ```toml
//! law = { generation = "rc" }          # Gen-B, the papers' rule (the default)
//! law = { generation = "code-2003" }   # Gen-C, the 2003 code's rule
//! law = { generation = "tr-2002" }     # Gen-A, the 2002 report's two-threshold rule
//! ```

use crate::rate::sabul::gen_a::{GenALaw, GenALawConfig};
use crate::rate::sabul::gen_c::{GenCLaw, GenCLawConfig};
use crate::rate::sabul::rc::{RcLaw, RcLawConfig};
use serde::{Deserialize, Serialize};

/// Which generation of SABUL's rate control, with its constants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "generation")]
pub enum SabulLawConfig {
    /// Gen-B: \[RC\] §3 / \[SP\] §3.6, MIMD on the IPT with an additive term.
    #[serde(rename = "rc")]
    Rc(RcLawConfig),
    /// Gen-C: the 2003 code's stepped increase and 1/8 decrease per congestion epoch.
    #[serde(rename = "code-2003")]
    Code2003(GenCLawConfig),
    /// Gen-A: \[TR2002\]'s two-threshold MIMD with a dead band and an acceleration phase.
    #[serde(rename = "tr-2002")]
    Tr2002(GenALawConfig),
}

impl Default for SabulLawConfig {
    fn default() -> Self {
        SabulLawConfig::Rc(RcLawConfig::default())
    }
}

/// A rate law, built from a [`SabulLawConfig`].
#[derive(Clone, Debug, PartialEq)]
pub enum SabulLaw {
    Rc(RcLaw),
    Code2003(GenCLaw),
    Tr2002(GenALaw),
}

impl SabulLaw {
    pub fn new(cfg: &SabulLawConfig, syn_us: f64) -> SabulLaw {
        match cfg {
            SabulLawConfig::Rc(c) => SabulLaw::Rc(RcLaw::new(c)),
            SabulLawConfig::Code2003(c) => SabulLaw::Code2003(GenCLaw::new(c, syn_us)),
            SabulLawConfig::Tr2002(c) => SabulLaw::Tr2002(GenALaw::new(c)),
        }
    }

    /// The SYN-driven step, from the interval's loss rate.
    pub fn on_syn(&mut self, ipt_us: f64, loss: f64) -> f64 {
        match self {
            SabulLaw::Rc(l) => l.on_syn(ipt_us, loss),
            SabulLaw::Code2003(l) => l.on_syn(ipt_us, loss),
            SabulLaw::Tr2002(l) => l.on_syn(ipt_us, loss),
        }
    }

    /// The ERR-driven step; `new_epoch` when the ERR's first number lies beyond LastDecSeq.
    pub fn on_err(&mut self, ipt_us: f64, new_epoch: bool) -> f64 {
        match self {
            SabulLaw::Rc(l) => l.on_err(ipt_us),
            SabulLaw::Code2003(l) => l.on_err(ipt_us, new_epoch),
            SabulLaw::Tr2002(l) => l.on_err(ipt_us),
        }
    }
}

/// The chosen law's ranges.
impl crate::check::Validate for SabulLawConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        match self {
            SabulLawConfig::Rc(c) => crate::check::Validate::validate(c),
            SabulLawConfig::Code2003(c) => crate::check::Validate::validate(c),
            SabulLawConfig::Tr2002(c) => crate::check::Validate::validate(c),
        }
    }
}
