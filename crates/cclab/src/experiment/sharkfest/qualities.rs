//! The talk's ✓ and × lists read as behaviours we can measure (seed 002). Each item names no
//! figure, so each gets a run and a measure, stated here, that tells the behaviour from its
//! absence:
//!
//! - **The cliff.** "Often visits 'cliff' area doing damage (this is common among all
//!   loss-based algorithms)" and Vegas's "Doesn't act on Cliff zone". The cliff is the
//!   buffer's edge, where the link drops packets. Each algorithm runs alone on the talk's
//!   testbed for [`LONG_S`] s; it visits the cliff when the link drops packets after
//!   [`SETTLED_S`] s, once slow start's overshoot and its recovery are over.
//! - **Oscillation.** "Has 1-Bit congestion indicator → inevitable high oscillation level
//!   (this is common among all loss-based algorithms)" and Vegas's "Very smooth": the
//!   coefficient of variation (σ/μ) of the window over the same run's second half, where
//!   Vegas has drained what slow start left in the queue (one segment per RTT).
//! - **Scalable on a high BDP.** "Much more efficient than Reno in high BDP networks". The
//!   talk's own high-BDP link, 1 Gbit/s and 100 ms, under random loss at the rate p* where
//!   Scalable's equilibrium window equals the BDP: a window W gains ln(1.01) per RTT and loses
//!   p·W·ln(8/7) to cuts, so W* = ln(1.01)/(p·ln(8/7)) and p* = ln(1.01)/(BDP·ln(8/7)). The
//!   loss rate follows from Scalable's law and the link, not from any result; at p* Reno's
//!   Mathis window √(3/(2p*)) is a small part of the BDP, the talk's "it can't work
//!   efficiently on high-BDP links".
//!   Compound on the same link and loss: "combine fairness of delay-based CA with
//!   aggressiveness of loss-based CA", its delay window (dwnd, grown by α·win^k per RTT while
//!   fewer than γ = 30 packets are queued, HighSpeed's law) is what scales where no queue forms.
//! - **HighSpeed off a long fat network.** "Behaves less aggressive if a path is not LFN (for
//!   TCP friendliness)": its share against one Reno flow on [`SMALL_WINDOW`], where its window
//!   stays below its 38-segment Reno region, against its share on the testbed, and against
//!   Reno's own share on the small link.
//! - **Vegas and small buffers.** "Doesn't like small buffers". Vegas's flows each aim to
//!   keep α to β packets queued (2 to 4, Linux's defaults), so the talk's five flows (`-n 5`)
//!   need a buffer of 5α = 10 packets to rest and of 5β = 20 to hold all they may queue. On a
//!   buffer of half the first ([`vegas_buffers`]) they overflow it before their delay rule can
//!   act and lose packets as a loss-based algorithm does; on the second their rule can hold
//!   them once slow start is over. Measure:
//!   utilisation of five Vegas flows against five Reno flows on the testbed with each buffer.
//! - **Vegas and small RTTs.** "Doesn't like small RTTs". Vegas reads its queue off the RTT
//!   above the smallest seen, so timing noise of the hosts (waking up to a packet, being
//!   descheduled) reads as queue; it is a small part of a 100 ms RTT and a large part of a
//!   0.2 ms one (seed 004's two VMs). Vegas and Reno alone on 40 Mbit/s with the `testbed`
//!   host-noise preset (measured on this project's host, [`sim::hostnoise`]) and the testbed's
//!   buffer of 333 packets at both RTTs: what Vegas's utilisation falls short of Reno's at
//!   0.2 ms against at 100 ms.
//! - **Vegas against every loss-based algorithm.** "Gets beaten by **any** loss-based
//!   algorithm": Vegas against one flow of each loss-based algorithm run (the talk's `-n 2`
//!   test, [`super::measure::Link::share_against`]), its share of the two flows' goodput over
//!   the second half.
//! - **BBR v1 on a shallow buffer.** "Ignores packet loss, susceptible to high loss rate +
//!   shallow buffer combination" (the talk's first item for BBR v2). BBR v1 bounds what it
//!   has in flight by cwnd_gain = 2 BDPs whatever it loses, which a buffer below one BDP
//!   cannot hold; [`SHALLOW_BUFFER_BDP`] is a tenth of one. The talk's five-flow test
//!   (`-n 5`) on it: the share of packets sent that the link drops, against CUBIC's, and
//!   against BBRv3's, whose loss bound (BBRv2's inflight_hi) answers the item.
//! - **Large buffers.** "Doesn't help if long-term incoming rate > outgoing rate. Actually make
//!   things worse (high latency, 'bufferbloat')", and "Buffer is good for absorbing short spikes
//!   of traffic or for short-lived connections, but becomes a problem for long-lived ones".
//!   Reno alone on the talk's BBR capture link ([`BLOAT_LINK`], where a sawtooth cycle on 4 BDPs
//!   lasts under a minute) for [`BLOAT_S`] s with one BDP of buffer and with [`LARGE_BUFFER_BDP`],
//!   read over whole sawtooth cycles, from its second loss to its last. With B ≥ 1 BDP the queue
//!   never empties, so the RTT is W/C and the window grows as dW/dt = C/W: the time it spends
//!   at W is proportional to W, and between W₂/2 and W₂ = B + BDP (the loss) its time average
//!   is (2/3)(W₂³ − W₁³)/(W₂² − W₁²) = (7/9)·W₂. The mean RTT is then (7/9)(B + BDP)/C, and
//!   goodput is the link's whatever B. The short-lived connection: a transfer of
//!   [`SHORT_TRANSFER`] bytes alone, its completion time on a tenth of a BDP of buffer, where
//!   slow start overflows it, against on [`LARGE_BUFFER_BDP`], which holds slow start's
//!   bursts up to the window the transfer needs.

use super::super::run_one;
use super::laws::SMALL_WINDOW;
use super::measure::{Link, ALONE_S, BBR_LINK, TESTBED};
use crate::UserError;
use cc::Time;
use sim::{QueueLimit, RunResult};
use std::path::Path;

/// The cliff and oscillation runs' length: Reno's sawtooth on the testbed is W/2 = 334 RTTs,
/// about 50 s at its mean RTT of 150 ms, so 180 s hold three cycles, two in the second half.
pub const LONG_S: u64 = 180;
/// Slow start's overshoot and its recovery are over by then on the testbed (they end within
/// 3 s: the overshoot comes at about 1 s, and a timeout's 1 s floor and one backoff follow).
pub const SETTLED_S: f64 = 20.0;
/// Scalable's and Reno's high-BDP link: the talk's "1Gbps link with 100ms RTT" (fast mode:
/// 100 Mbit/s, where p* is ten times larger and Reno's share of the BDP about three times).
pub fn high_bdp_link(fast: bool) -> Link {
    Link { mbps: if fast { 100.0 } else { 1000.0 }, rtt_ms: 100 }
}
/// A shallow buffer: a tenth of the BDP.
pub const SHALLOW_BUFFER_BDP: f64 = 0.1;

/// The bufferbloat runs' link and length: Reno's cycle on 4 BDPs is W₂/2 = 167 RTTs of about
/// 0.31 s, 52 s, so 300 s hold four whole cycles after the first.
pub const BLOAT_LINK: Link = BBR_LINK;
pub const BLOAT_S: u64 = 300;
/// The large buffer, in BDPs.
pub const LARGE_BUFFER_BDP: f64 = 4.0;
/// The short-lived connection: 1 MB, about 690 segments, which slow start sends in seven round
/// trips with a window of at most 320 segments, inside B + BDP = 333 on [`LARGE_BUFFER_BDP`].
pub const SHORT_TRANSFER: u64 = 1_000_000;

/// The time average of Reno's RTT over whole sawtooth cycles on a buffer of `bdps` BDPs of
/// [`BLOAT_LINK`], by the law (7/9)(B + BDP)/C (ms).
pub fn bloat_law_ms(bdps: f64) -> f64 {
    7.0 / 9.0 * (bdps + 1.0) * BLOAT_LINK.rtt_ms as f64
}

/// Reno alone on [`BLOAT_LINK`] with `bdps` BDPs of buffer: its mean RTT (ms) and goodput
/// (Mbit/s) over whole sawtooth cycles, from the sample of its second loss to that of its last
/// (losses closer than 2 s are one episode).
pub fn bloat_run(bdps: f64, seed: u64, dir: &Path) -> Result<(f64, f64), UserError> {
    let l = BLOAT_LINK;
    let mut cfg = l.config(l.flows(&["reno"]), BLOAT_S, 0.0, seed);
    cfg.link.buffer = QueueLimit::Bdp(bdps);
    cfg.sample_interval = Some(Time::from_millis(10));
    let r = run_one(cfg, dir)?;
    let samples = super::measure::flow0(&r);
    let mut episodes: Vec<f64> = Vec::new();
    for w in samples.windows(2).filter(|w| w[1].retr > w[0].retr) {
        if episodes.last().is_none_or(|&t| w[1].time - t > 2.0) {
            episodes.push(w[1].time);
        }
    }
    let (Some(&from), Some(&to)) = (episodes.get(1), episodes.last()) else { return Ok((f64::NAN, f64::NAN)) };
    let cycles: Vec<_> = samples.iter().filter(|s| s.time >= from && s.time < to).collect();
    let rtt = crate::stats::mean(&cycles.iter().filter_map(|s| s.rtt_ms).collect::<Vec<_>>());
    let goodput = crate::stats::mean(&cycles.iter().map(|s| s.goodput_mbps).collect::<Vec<_>>());
    Ok((rtt, goodput))
}

/// Reno's completion time (s) for [`SHORT_TRANSFER`] alone on [`BLOAT_LINK`] with `bdps` BDPs
/// of buffer.
pub fn short_transfer(bdps: f64, seed: u64, dir: &Path) -> Result<f64, UserError> {
    let l = BLOAT_LINK;
    let mut cfg = l.config(l.flows(&["reno"]), 60, 0.0, seed);
    cfg.link.buffer = QueueLimit::Bdp(bdps);
    cfg.flows[0].sender.data_limit = Some(SHORT_TRANSFER);
    Ok(run_one(cfg, dir)?.summary.flows[0].completion_time_s.unwrap_or(f64::INFINITY))
}

/// Vegas's small and large buffer for five flows: half of 5α, and 5β (packets).
pub fn vegas_buffers() -> (u64, u64) {
    let v = cc::algorithms::vegas::VegasConfig::default();
    (u64::from(5 * v.alpha / 2), u64::from(5 * v.beta))
}

/// The short RTT of the small-RTT runs: seed 004's two VMs on one host.
pub const SHORT_RTT: Time = Time::from_micros(200);

/// Scalable's equilibrium window under random loss `p`: W* = ln(1.01)/(p·ln(8/7)) segments.
pub fn scalable_equilibrium(p: f64) -> f64 {
    1.01f64.ln() / (p * (8.0f64 / 7.0).ln())
}

/// The loss rate at which [`scalable_equilibrium`] equals the BDP of `link`.
pub fn scalable_loss_rate(link: Link) -> f64 {
    scalable_equilibrium(1.0) / link.bdp_segments()
}

/// Reno's window under random loss `p` by the Mathis law, √(3/(2p)) segments.
pub fn mathis_window(p: f64) -> f64 {
    (1.5 / p).sqrt()
}

/// One algorithm alone on the testbed for [`LONG_S`] s.
#[derive(Clone, Debug)]
pub struct Long {
    /// Packets the link dropped after [`SETTLED_S`].
    pub late_drops: f64,
    /// σ/μ of the window over the second half.
    pub window_cv: f64,
}

impl Long {
    pub fn of(r: &RunResult) -> Long {
        let end = r.summary.sim_time_s;
        let flows = r.series.as_ref().map(|s| s.flows.as_slice()).unwrap_or_default();
        let w: Vec<f64> = flows.iter().filter(|s| s.flow == 0 && s.time >= end / 2.0).filter_map(|s| s.cwnd).collect();
        let window_cv = crate::stats::Summary::of(&w).map_or(f64::NAN, |s| s.sd / s.mean);
        Long { late_drops: super::super::readings::drops_after(r, SETTLED_S), window_cv }
    }
}

pub fn long_run(cc: &str, seed: u64, dir: &Path) -> Result<Long, UserError> {
    let l = TESTBED;
    Ok(Long::of(&run_one(l.config(l.flows(&[cc]), LONG_S, 0.0, seed), dir)?))
}

/// `cc` alone on [`high_bdp_link`] under random loss at [`scalable_loss_rate`]: goodput, Mbit/s.
pub fn high_bdp_goodput(cc: &str, fast: bool, seed: u64, dir: &Path) -> Result<f64, UserError> {
    let link = high_bdp_link(fast);
    Ok(link.alone(cc, ALONE_S, scalable_loss_rate(link), seed, dir)?.summary.flows[0].goodput_bps / 1e6)
}

/// `cc`'s share against one Reno flow on [`SMALL_WINDOW`] over the second half of `secs`.
pub fn small_link_share(cc: &str, secs: u64, seed: u64, dir: &Path) -> Result<f64, UserError> {
    SMALL_WINDOW.share_against(cc, "reno", secs, seed, dir)
}

/// Five `cc` flows on the testbed with [`SHALLOW_BUFFER_BDP`] of buffer for `secs`: the link's
/// drops over the packets sent, in per cent.
pub fn shallow_loss_percent(cc: &str, secs: u64, seed: u64, dir: &Path) -> Result<f64, UserError> {
    let l = TESTBED;
    let mut cfg = l.config(l.flows(&[cc; 5]), secs, 0.0, seed);
    cfg.link.buffer = QueueLimit::Bdp(SHALLOW_BUFFER_BDP);
    let r = run_one(cfg, dir)?;
    Ok(r.summary.link.drops as f64 / r.summary.accounting.sent.max(1) as f64 * 100.0)
}

/// Five `cc` flows on the testbed with a buffer of `packets` for `secs`: the link's utilisation.
pub fn buffer_utilisation(cc: &str, packets: u64, secs: u64, seed: u64, dir: &Path) -> Result<f64, UserError> {
    let l = TESTBED;
    let mut cfg = l.config(l.flows(&[cc; 5]), secs, 0.0, seed);
    cfg.link.buffer = QueueLimit::Packets(packets);
    Ok(run_one(cfg, dir)?.summary.link.utilization)
}

/// `cc` alone on 40 Mbit/s with the testbed's buffer and the `testbed` host noise, at an RTT
/// of `rtt`, for the talk's [`ALONE_S`] s probe: the link's utilisation.
pub fn noisy_utilisation(cc: &str, rtt: Time, seed: u64, dir: &Path) -> Result<f64, UserError> {
    let l = TESTBED;
    let mut cfg = l.config(l.flows(&[cc]), ALONE_S, 0.0, seed);
    cfg.flows[0].rtt = rtt;
    cfg.link.buffer = QueueLimit::Packets(l.bdp_segments().round() as u64);
    cfg.link.host_noise = sim::HostNoise::preset("testbed").expect("a preset");
    Ok(run_one(cfg, dir)?.summary.link.utilization)
}

/// What the runs gave, per algorithm and per seed (seeds in the same order everywhere).
#[derive(Clone, Debug, Default)]
pub struct Qualities {
    /// How long the two-flow and five-flow runs lasted (s).
    pub multi_flow_secs: u64,
    /// Every algorithm run, with its [`Long`] per seed.
    pub long: Vec<(&'static str, Vec<Long>)>,
    /// Scalable's and Reno's goodput on [`high_bdp_link`] (Mbit/s), and that link.
    pub high_bdp: (Vec<f64>, Vec<f64>),
    pub high_bdp_mbps: f64,
    /// Compound's goodput on the same link and loss (Mbit/s).
    pub high_bdp_compound: Vec<f64>,
    /// HighSpeed's and Reno's shares against Reno on [`SMALL_WINDOW`].
    pub small_link: (Vec<f64>, Vec<f64>),
    /// Drops over packets sent (%) of five flows on the shallow buffer: BBR, BBRv3, CUBIC.
    pub shallow: [Vec<f64>; 3],
    /// Vegas's share against one flow of each loss-based algorithm run, per seed.
    pub vegas_against: Vec<(&'static str, Vec<f64>)>,
    /// Utilisation of five flows on [`vegas_buffers`]: (Vegas, Reno) on the small buffer,
    /// then on the large one.
    pub small_buffer: (Vec<f64>, Vec<f64>),
    pub large_buffer: (Vec<f64>, Vec<f64>),
    /// Utilisation alone with host noise: (Vegas, Reno) at [`SHORT_RTT`], then at 100 ms.
    pub short_rtt: (Vec<f64>, Vec<f64>),
    pub long_rtt: (Vec<f64>, Vec<f64>),
    /// Reno over whole sawtooth cycles on one BDP and on [`LARGE_BUFFER_BDP`]: mean RTT (ms)
    /// and goodput (Mbit/s) per seed.
    pub bloat: [(Vec<f64>, Vec<f64>); 2],
    /// Reno's completion time for [`SHORT_TRANSFER`] on a tenth of a BDP and on
    /// [`LARGE_BUFFER_BDP`] (s).
    pub short_lived: (Vec<f64>, Vec<f64>),
}

/// The algorithms of [`Qualities::shallow`], in its order.
pub const SHALLOW: [&str; 3] = ["bbr", "bbr3", "cubic"];

impl Qualities {
    pub fn long(&self, cc: &str) -> Option<&[Long]> {
        self.long.iter().find(|(n, _)| *n == cc).map(|(_, v)| v.as_slice())
    }
}

/// Every run above for `names` on seeds 1..=`seeds`; `fast` runs the two-flow and five-flow
/// tests for a third of their length, as [`super::measure::measure`] does.
pub fn run(names: &[&'static str], seeds: u64, fast: bool, out: &Path) -> Result<Qualities, UserError> {
    let dir = out.join("qualities");
    let per_seed = |f: &dyn Fn(u64) -> Result<f64, UserError>| (1..=seeds).map(f).collect::<Result<Vec<f64>, UserError>>();
    let long = names
        .iter()
        .map(|&cc| Ok((cc, (1..=seeds).map(|s| long_run(cc, s, &dir.join("long").join(cc).join(format!("seed-{s}")))).collect::<Result<Vec<_>, UserError>>()?)))
        .collect::<Result<Vec<_>, UserError>>()?;
    let high = |cc: &str| per_seed(&|s| high_bdp_goodput(cc, fast, s, &dir.join("high-bdp").join(cc).join(format!("seed-{s}"))));
    let secs = 90 / if fast { 3 } else { 1 };
    let share = |cc: &str| per_seed(&|s| small_link_share(cc, secs, s, &dir.join("small-link").join(format!("{cc}-vs-reno-seed-{s}"))));
    let shallow = |cc: &str| per_seed(&|s| shallow_loss_percent(cc, secs, s, &dir.join("shallow-buffer").join(cc).join(format!("seed-{s}"))));
    let (small, large) = vegas_buffers();
    let buffer = |cc: &str, packets: u64| per_seed(&|s| buffer_utilisation(cc, packets, secs, s, &dir.join("vegas-buffer").join(format!("{cc}-{packets}-packets-seed-{s}"))));
    let noisy = |cc: &str, rtt: Time| per_seed(&|s| noisy_utilisation(cc, rtt, s, &dir.join("noisy-hosts").join(format!("{cc}-{}us-seed-{s}", rtt.as_nanos() / 1000))));
    let long_rtt = Time::from_millis(TESTBED.rtt_ms);
    let loss_based: Vec<&'static str> = names.iter().copied().filter(|cc| cc::family_of(cc) == Some(cc::Family::Loss)).collect();
    let vegas_against = loss_based
        .into_iter()
        .map(|rival| Ok((rival, per_seed(&|s| TESTBED.share_against("vegas", rival, secs, s, &dir.join("vegas-against").join(format!("{rival}-seed-{s}"))))?)))
        .collect::<Result<Vec<_>, UserError>>()?;
    let bloat = |bdps: f64| -> Result<(Vec<f64>, Vec<f64>), UserError> {
        let runs = (1..=seeds).map(|s| bloat_run(bdps, s, &dir.join("large-buffer").join(format!("reno-{bdps}bdp-seed-{s}")))).collect::<Result<Vec<_>, UserError>>()?;
        Ok(runs.into_iter().unzip())
    };
    let short = |bdps: f64| per_seed(&|s| short_transfer(bdps, s, &dir.join("short-transfer").join(format!("reno-{bdps}bdp-seed-{s}"))));
    Ok(Qualities {
        bloat: [bloat(1.0)?, bloat(LARGE_BUFFER_BDP)?],
        short_lived: (short(SHALLOW_BUFFER_BDP)?, short(LARGE_BUFFER_BDP)?),
        multi_flow_secs: secs,
        vegas_against,
        small_buffer: (buffer("vegas", small)?, buffer("reno", small)?),
        large_buffer: (buffer("vegas", large)?, buffer("reno", large)?),
        short_rtt: (noisy("vegas", SHORT_RTT)?, noisy("reno", SHORT_RTT)?),
        long_rtt: (noisy("vegas", long_rtt)?, noisy("reno", long_rtt)?),
        long,
        high_bdp: (high("scalable")?, high("reno")?),
        high_bdp_compound: high("compound")?,
        high_bdp_mbps: high_bdp_link(fast).mbps,
        small_link: (share("highspeed")?, share("reno")?),
        shallow: [shallow(SHALLOW[0])?, shallow(SHALLOW[1])?, shallow(SHALLOW[2])?],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (7/9)(B + BDP)/C: on 10 Mbit/s, 80 ms, 124.4 ms at one BDP of buffer and 311.1 ms at
    /// four; the time average of W over W₂/2..W₂ weighted by W is 7/9 of W₂.
    #[test]
    fn the_bufferbloat_law_is_seven_ninths_of_the_full_pipe() {
        assert!((bloat_law_ms(1.0) - 124.44).abs() < 0.01);
        assert!((bloat_law_ms(4.0) - 311.11).abs() < 0.01);
        let (w1, w2) = (0.5f64, 1.0f64);
        assert!(((2.0 / 3.0) * (w2.powi(3) - w1.powi(3)) / (w2.powi(2) - w1.powi(2)) - 7.0 / 9.0).abs() < 1e-12);
    }

    /// At W* the expected change of ln W per RTT is zero: ln(1.01) gained, p·W* cuts of
    /// ln(8/7) each. On 1 Gbit/s, 100 ms (8333 segments) p* is about 8.9·10⁻⁶, where Reno's
    /// Mathis window is about 409 segments, 5 % of the BDP.
    #[test]
    fn scalable_equilibrium_balances_growth_and_cuts() {
        let p = 1e-5;
        let w = scalable_equilibrium(p);
        assert!((1.01f64.ln() - p * w * (8.0f64 / 7.0).ln()).abs() < 1e-12);
        let link = Link { mbps: 1000.0, rtt_ms: 100 };
        let ps = scalable_loss_rate(link);
        assert!((scalable_equilibrium(ps) - link.bdp_segments()).abs() < 1e-6);
        assert!((ps - 8.94e-6).abs() < 0.01e-6, "{ps}");
        assert!((mathis_window(ps) / link.bdp_segments() - 0.049).abs() < 0.001);
    }
}
