//! The talk's "Late news!" slide, its second bullet: "With packet drop at the beginning of a
//! path – it's getting worse."
//!
//! Reno alone on the slide's link ([`SLIDE_LINK`]: 20 Mbit/s, 100 ms, the
//! [`BUFFER_PACKETS`]-packet buffer of [`super::late_news`]) with its bottleneck at the
//! beginning of the path (next to the sender) and at its end (next to the receiver: an access
//! delay of half the RTT, [`sim::FlowConfig::access_delay`]), sampled every millisecond
//! through slow start's first loss episode. Two figures per run:
//!
//! - **How late the news is**: from the first drop at the queue to the sender's first
//!   retransmission. With D = RTT/2 each way and the queue `a` from the sender, the packets
//!   behind the drop carry the news on to the receiver (D − a, after the queue's B/C) and
//!   back (D): the news takes RTT + B/C − a, plus what loss detection waits for, the same at
//!   both places. At the beginning (a = 0) it is later by the whole access delay, 50 ms.
//! - **What it costs**: the packets slow start's first loss episode drops. The sender's
//!   timeline depends only on when its ACKs come back, which is the round trip however it is
//!   split, so it sends the same packets at the same times wherever the queue is; the queue
//!   sees them `a` later and its drops are the same. Late news costs BDP + B in both places
//!   ([`super::late_news`]): the packets the sender sends while the news is late in the one case
//!   are the packets already on their way to the queue in the other.

use super::super::run_one;
use super::judge::direction_apart;
use super::late_news::{episode_drops, episode_gap_secs, BUFFER_PACKETS, SLIDE_LINK};
use crate::experiment::Claim;
use crate::stats::mean;
use crate::table::num;
use crate::UserError;
use cc::Time;
use sim::{QueueLimit, RunResult};
use std::path::Path;

/// Long enough for slow start's first loss episode and its recovery on the slide's link (the
/// first drop comes at about 0.6 s).
pub const SECS: u64 = 3;
/// The bottleneck's places: next to the sender, and half the RTT (the whole forward path) away.
pub const ACCESS_DELAYS_MS: [u64; 2] = [0, SLIDE_LINK.rtt_ms / 2];

/// Per place ([`ACCESS_DELAYS_MS`]), per seed.
#[derive(Clone, Debug, Default)]
pub struct DropPosition {
    /// From the first drop to the first retransmission, ms.
    pub news_ms: Vec<Vec<f64>>,
    /// Drops in slow start's loss episode.
    pub drops: Vec<Vec<f64>>,
}

/// The first time (s) a series of cumulative counts rises above zero.
fn first_rise(samples: impl Iterator<Item = (f64, u64)>) -> Option<f64> {
    samples.into_iter().find(|&(_, n)| n > 0).map(|(t, _)| t)
}

/// From the first drop at the link to the sender's first retransmission, ms (to the sample).
fn news_delay_ms(r: &RunResult) -> Option<f64> {
    let s = r.series.as_ref()?;
    let drop = first_rise(s.link.iter().map(|l| (l.time, l.drops)))?;
    let retx = first_rise(s.flows.iter().map(|f| (f.time, f.retr)))?;
    Some((retx - drop) * 1e3)
}

pub fn run(seeds: u64, out: &Path) -> Result<DropPosition, UserError> {
    let dir = out.join("drop-position");
    let mut p = DropPosition::default();
    for a in ACCESS_DELAYS_MS {
        let (mut news, mut drops) = (Vec::new(), Vec::new());
        for s in 1..=seeds {
            let mut flows = SLIDE_LINK.flows(&["reno"]);
            flows[0].access_delay = Time::from_millis(a);
            let mut cfg = SLIDE_LINK.config(flows, SECS, 0.0, s);
            cfg.link.buffer = QueueLimit::Packets(BUFFER_PACKETS);
            cfg.sample_interval = Some(Time::from_millis(1));
            let r = run_one(cfg, &dir.join(format!("access-{a}ms/seed-{s}")))?;
            news.push(news_delay_ms(&r).unwrap_or(f64::NAN));
            drops.push(episode_drops(&r, episode_gap_secs(&SLIDE_LINK)).first().map_or(0.0, |&d| d as f64));
        }
        p.news_ms.push(news);
        p.drops.push(drops);
    }
    Ok(p)
}

/// The news's delay from a drop at a full queue `a_ms` from the sender to its fast
/// retransmit, ms: the packets behind the drop wait out the queue (B/C), travel on to the
/// receiver and back (RTT − a), and the third duplicate ACK (DupThresh) comes two packet
/// times after the first.
pub fn news_law_ms(a_ms: u64) -> f64 {
    let packet_ms = 1500.0 * 8.0 / (SLIDE_LINK.mbps * 1e6) * 1e3;
    SLIDE_LINK.rtt_ms as f64 + BUFFER_PACKETS as f64 * packet_ms - a_ms as f64 + 2.0 * packet_ms
}

pub fn claims(p: &DropPosition, claims: &mut Vec<Claim>) {
    let quote = "\"Late news!\" ... \"With packet drop at the beginning of a path – it's getting worse\"";
    let setting = format!(
        "Reno alone on {} Mbit/s, {} ms, {BUFFER_PACKETS}-packet buffer, slow start's first loss; the bottleneck next to the sender or {} ms along the path, next to the receiver",
        SLIDE_LINK.mbps, SLIDE_LINK.rtt_ms, ACCESS_DELAYS_MS[1]
    );
    let (begin, end) = ("at the beginning", "at the end");
    let news = direction_apart(
        &format!("The news of a drop at the beginning of the path reaches the sender later: ms from the drop to the first retransmission ({setting})"),
        quote,
        (begin, &p.news_ms[0]),
        (end, &p.news_ms[1]),
        "ms",
    );
    let law = |a: u64| news_law_ms(a);
    claims.push(news.because(&format!(
        "the packets behind a drop carry its news on to the receiver and back: RTT + B/C − a from a queue a from the sender, plus two packet times until the third duplicate ACK: {} and {} ms at the two places, ours {} and {} ms (sampled every millisecond): later by the whole access delay at the beginning",
        num(law(ACCESS_DELAYS_MS[0])),
        num(law(ACCESS_DELAYS_MS[1])),
        num(mean(&p.news_ms[0])),
        num(mean(&p.news_ms[1]))
    )));
    let cost = direction_apart(
        &format!("Late news from the beginning of the path costs more: drops in slow start's loss episode ({setting})"),
        quote,
        (begin, &p.drops[0]),
        (end, &p.drops[1]),
        "packets",
    );
    claims.push(cost.because(&format!(
        "the sender's timeline depends only on when its ACKs return, the whole round trip however it is split, so it sends the same packets at the same times wherever the queue is, and the queue drops the same ones: the packets sent while the news is late at the beginning are, with the queue at the end, already on their way to it. Both lose about BDP + B ({} and {} packets, BDP + B = {})",
        num(mean(&p.drops[0])),
        num(mean(&p.drops[1])),
        num(super::late_news::slow_start_law(SLIDE_LINK.rtt_ms))
    )));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_news_law_is_the_round_trip_the_queue_and_two_packets_less_the_access_delay() {
        // 100 ms + 167 · 0.6 ms + 2 · 0.6 ms − a.
        assert!((news_law_ms(0) - 201.4).abs() < 1e-9);
        assert!((news_law_ms(50) - 151.4).abs() < 1e-9);
    }

    #[test]
    fn the_first_rise_is_the_first_sample_above_zero() {
        assert_eq!(first_rise([(0.0, 0), (0.001, 0), (0.002, 3), (0.003, 4)].into_iter()), Some(0.002));
        assert_eq!(first_rise([(0.0, 0), (1.0, 0)].into_iter()), None);
    }
}
