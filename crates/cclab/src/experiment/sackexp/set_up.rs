//! The seed's two lossless slides, "zoomed into connection set up": each algorithm's first
//! flight, and a figure of the first second.

use super::{config, flow, run_one, Claim, Options, Output, ALONE};
use crate::plot::{color, Axis, Figure, Panel, Series, Style, WIDE};
use crate::verdict::Bound;
use crate::UserError;
use cc::Time;

/// The seed's two lossless slides, "zoomed into connection set up" (SACKBASE's and SACKEXP's
/// tcpdump traces): TCP SACK starts from the initial window and doubles it each round trip
/// (slow start) up to the receiver's window of one BDP; SACKEXP, with no congestion window,
/// sends that whole window at once. Each runs alone, lossless, at 60 ms for [`SET_UP_S`] s,
/// sampled every [`SET_UP_SAMPLE_MS`] ms; its first flight is the most segments
/// unacknowledged before the first ACK for data can return: from the first sample with data
/// out to one RTT later.
pub fn set_up(opts: &Options, seeds: u64, out: &mut Output) -> Result<(), UserError> {
    let rtt = 60;
    let awnd = {
        let f = flow("none", true, rtt);
        (f.sender.rwnd / f.sender.mss) as f64
    };
    let mut first: [Vec<f64>; 2] = Default::default();
    let mut traces: Vec<Series> = Vec::new();
    for (k, first_flight) in first.iter_mut().enumerate() {
        let (name, cc, sack) = ALONE[k];
        for seed in 1..=seeds {
            let mut cfg = config(vec![flow(cc, sack, rtt)], 0.0, SET_UP_S, seed);
            cfg.sample_interval = Some(Time::from_millis(SET_UP_SAMPLE_MS));
            let r = run_one(cfg, &opts.out.join(format!("rtt-{rtt}ms/set-up/{}/seed-{seed}", name.replace(' ', "-").to_lowercase())))?;
            let samples: Vec<(f64, f64)> = r.series.as_ref().map_or(Vec::new(), |s| s.flows.iter().map(|x| (x.time, x.unacked as f64)).collect());
            // From the first sample with data out (after the handshake) to one RTT later.
            let t0 = samples.iter().find(|p| p.1 > 0.0).map_or(0.0, |p| p.0);
            first_flight.push(samples.iter().filter(|(t, _)| *t >= t0 && *t < t0 + rtt as f64 / 1e3).map(|p| p.1).fold(0.0, f64::max));
            if seed == 1 {
                traces.push(Series::new(Some(format!("{name} (RNG seed 1)")), color(k), Style::Line { width: 2 }, samples));
            }
        }
    }
    let figure = Figure {
        name: "set-up-rtt-60ms".into(),
        title: format!("Connection set-up on the lossless link, RTT {rtt} ms: segments unacknowledged (snd_nxt − snd_una), sampled every {SET_UP_SAMPLE_MS} ms"),
        size: WIDE,
        panels: vec![Panel::new(Axis::new("time (s)", 0.0, SET_UP_S as f64), Axis::fit("segments unacknowledged", 0.0, traces.iter().flat_map(|s| s.points.iter().map(|p| p.1))), traces).legend_outside()],
    };
    out.plots.push(("Connection set-up, as the seed's lossless slides zoom in on it".into(), vec![figure.write(&opts.out.join("plots"))?]));
    out.claims.push(
        Claim::bound(
            &format!("SACKEXP, lossless link, \"zoomed into connection set up\": no slow start, its first round trip carries the receiver's whole window (awnd = {awnd} segments; most segments unacknowledged in the first {rtt} ms with data out)"),
            "win = min(snd_bwnd, snd_wnd), with no congestion window",
            &first[0],
            Bound::AtLeast(awnd - 1.0),
            "segments",
        )
        .check("our SACKEXP against the seed's design: it fails only if something other than the receiver's window held the first flight"),
    );
    let iw = f64::from(flow("newreno", true, rtt).sender.initial_window);
    out.claims.push(
        Claim::bound(
            &format!("SACKBASE (TCP SACK), lossless link, \"zoomed into connection set up\": slow start, its first round trip carries only the initial window ({iw} segments, RFC 6928 and Linux), below SACKEXP's"),
            "\"size of the send window in case of a link bottleneck: bandwidth-delay product\", reached after slow start",
            &first[1],
            Bound::AtMost(iw),
            "segments",
        )
        .check(&format!("our sender against RFC 6928's initial window, today's; the seed's (a SIGCOMM 2004 poster) would have started from 2 to 4 segments (RFC 2581, RFC 3390), a round trip or two longer in slow start. The figure shows the window doubling each round trip to the receiver's {awnd} segments")),
    );
    Ok(())
}

/// How long the set-up runs last, and how often they are sampled (a tenth of the 60 ms RTT).
const SET_UP_S: u64 = 1;
const SET_UP_SAMPLE_MS: u64 = 6;

