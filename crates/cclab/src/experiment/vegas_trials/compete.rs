//! The seed's aim (seed 004, Modules Description): mVegas's "somewhat conservative window
//! increase will provide some degree of increased bandwidth demand to more favorably compete
//! with Reno systems without as recklessly courting packet loss as Reno does". The seed ran
//! single flows only; the aim is judged on the clean link of [`super::backlog`] (10 Mbit/s,
//! 20 ms, one BDP of drop-tail buffer):
//!
//! - **Competing with Reno.** One Vegas or mVegas flow against one Reno flow for [`SECS`] s:
//!   its share of the two flows' goodput over the second half, mVegas's against Vegas's on the
//!   same seeds; and Vegas's own share below half, the seed's premise that Vegas cedes the
//!   network to Reno (its introduction).
//! - **Courting loss.** Each alone for [`SECS`] s: the packets the link drops after
//!   [`SETTLE_S`], once slow start's overshoot is over, Reno's against mVegas's.

use super::backlog::{RATE_BPS, RTT_MS};
use crate::experiment::readings::{drops_after, second_half_share};
use crate::experiment::{run_one, Claim, Options};
use crate::UserError;
use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, LinkConfig, QueueLimit, SimConfig};

/// Each run's length: Reno's sawtooth on this link (a window of 2 BDPs = 33 segments, halved at
/// each loss) is about 17 RTTs of 20-40 ms, well under a second, so a minute holds dozens.
pub const SECS: u64 = 60;
/// Slow start's overshoot and its recovery are over by then.
pub const SETTLE_S: f64 = 10.0;

fn config(algorithms: &[&str], seed: u64) -> Result<SimConfig, UserError> {
    let flows = algorithms.iter().map(|cc| CcConfig::from_name(cc).map(|c| FlowConfig::new(c, Time::from_millis(RTT_MS))).map_err(UserError)).collect::<Result<Vec<_>, _>>()?;
    Ok(SimConfig {
        seed,
        duration: Time::from_secs(SECS),
        sample_interval: Some(Time::from_secs(1)),
        link: LinkConfig { rate: Rate::from_bits_per_sec(RATE_BPS), buffer: QueueLimit::Bdp(1.0), ..LinkConfig::default() },
        flows,
    })
}

/// The runs and the two claims.
pub fn claims(opts: &Options, seeds: u64) -> Result<Vec<Claim>, UserError> {
    let dir = opts.out.join("compete");
    let per_seed = |f: &dyn Fn(u64) -> Result<f64, UserError>| (1..=seeds).map(f).collect::<Result<Vec<f64>, UserError>>();
    let share = |cc: &str| per_seed(&|s| Ok(second_half_share(&run_one(config(&[cc, "reno"], s)?, &dir.join(format!("{cc}-vs-reno/seed-{s}")))?)));
    let drops = |cc: &str| per_seed(&|s| Ok(drops_after(&run_one(config(&[cc], s)?, &dir.join(format!("{cc}-alone/seed-{s}")))?, SETTLE_S)));
    let link = format!("{} Mbit/s, {RTT_MS} ms, one BDP", RATE_BPS / 1e6);
    let (mvegas, vegas) = (share("mvegas")?, share("vegas")?);
    let (reno_drops, mvegas_drops) = (drops("reno")?, drops("mvegas")?);
    Ok(vec![
        // Two flows of one algorithm split the link evenly; a share below half on every seed
        // is ground ceded to Reno.
        Claim::bound(
            &format!("Vegas \"continuously cede[s] network usage\" to Reno: its share against one Reno flow over the second half of {SECS} s ({link})"),
            "\"systems using Vegas continuously cede network usage to other systems more willing to cause packet loss\": at most half",
            &vegas,
            crate::verdict::Bound::AtMost(0.5),
            "",
        ),
        Claim::direction(
            &format!("mVegas competes \"more favorably\" with Reno than Vegas does: its share against one Reno flow over the second half of {SECS} s ({link})"),
            "\"to more favorably compete with Reno systems\"",
            ("mVegas", &mvegas),
            ("Vegas", &vegas),
            "",
        ),
        Claim::direction(
            &format!("mVegas does so \"without as recklessly courting packet loss as Reno does\": packets the link drops after {SETTLE_S} s, each alone for {SECS} s ({link})"),
            "\"without as recklessly courting packet loss as Reno does\"",
            ("Reno", &reno_drops),
            ("mVegas", &mvegas_drops),
            "packets",
        ),
    ])
}
