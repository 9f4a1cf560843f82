//! Link capacity from Mahimahi trace files (Netravali et al., USENIX ATC 2015; the traces in
//! `shared/traces/` come from Winstein et al., NSDI 2013).
//!
//! Each line is a time in milliseconds at which one MTU (1500 bytes) may leave the link; a time
//! repeated on several lines allows several packets in that millisecond. The trace repeats with
//! a period equal to its last timestamp. An opportunity that finds the queue empty is lost.

use cc::{Rate, Time};
use std::sync::Arc;

/// The bytes one delivery opportunity carries.
pub const OPPORTUNITY_BYTES: u64 = 1500;

/// A parsed trace: delivery opportunities, in milliseconds, sorted.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub name: String,
    opportunities_ms: Arc<Vec<u64>>,
    period_ms: u64,
}

/// At most 40 characters of `s`, control characters escaped: a line quoted in an error.
fn excerpt(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(|c| c.escape_debug()).collect();
    if s.chars().nth(40).is_some() {
        out.push_str("...");
    }
    out
}

impl Trace {
    /// Parses a trace's text. Errors name the line and what is wrong.
    pub fn parse(name: &str, text: &str) -> Result<Trace, String> {
        let mut ops = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            let ms: u64 = t
                .parse()
                .map_err(|_| format!("{name}:{}: `{}` is not a whole number of milliseconds", i + 1, excerpt(t)))?;
            if ops.last().is_some_and(|&last| ms < last) {
                return Err(format!("{name}:{}: timestamps must not decrease ({ms} after {})", i + 1, ops.last().unwrap()));
            }
            ops.push(ms);
        }
        let period_ms = *ops.last().ok_or_else(|| format!("{name}: the trace has no delivery opportunities"))?;
        if period_ms == 0 {
            return Err(format!("{name}: the trace must span at least 1 ms"));
        }
        Ok(Trace { name: name.to_string(), opportunities_ms: Arc::new(ops), period_ms })
    }

    /// The mean capacity over one period.
    pub fn mean_rate(&self) -> Rate {
        Rate::from_bytes_per_sec(self.opportunities_ms.len() as f64 * OPPORTUNITY_BYTES as f64 / (self.period_ms as f64 / 1e3))
    }

    /// Opportunities in `[0, t)`.
    pub fn opportunities_before(&self, t: Time) -> u64 {
        let t_ms = t.0 / 1_000_000;
        let (cycles, rem) = (t_ms / self.period_ms, t_ms % self.period_ms);
        let partial = self.opportunities_ms.partition_point(|&ms| ms < rem) as u64;
        cycles * self.opportunities_ms.len() as u64 + partial
    }
}

/// Walks the opportunities in time order, each used once.
#[derive(Clone, Debug)]
pub struct TraceCursor {
    trace: Trace,
    idx: usize,
    cycle: u64,
}

impl TraceCursor {
    pub fn new(trace: Trace) -> TraceCursor {
        TraceCursor { trace, idx: 0, cycle: 0 }
    }

    fn time_of(&self, idx: usize, cycle: u64) -> Time {
        Time::from_millis(cycle * self.trace.period_ms + self.trace.opportunities_ms[idx])
    }

    /// Takes the first unused opportunity at or after `now` (earlier ones are lost).
    pub fn take(&mut self, now: Time) -> Time {
        let n = self.trace.opportunities_ms.len();
        // Skip whole periods that passed unused.
        let now_ms = now.0 / 1_000_000;
        let cycle_now = now_ms / self.trace.period_ms;
        if cycle_now > self.cycle + 1 {
            self.cycle = cycle_now - 1;
            self.idx = 0;
        }
        loop {
            let t = self.time_of(self.idx, self.cycle);
            self.idx += 1;
            if self.idx == n {
                self.idx = 0;
                self.cycle += 1;
            }
            if t >= now {
                return t;
            }
        }
    }

    pub fn trace(&self) -> &Trace {
        &self.trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_counts_and_repeats() {
        let t = Trace::parse("t", "0\n0\n5\n10\n").unwrap();
        // 4 packets per 10 ms period: 4·1500 B / 10 ms = 4.8 Mbit/s.
        assert!((t.mean_rate().bits_per_sec() - 4.8e6).abs() < 1.0);
        assert_eq!(t.opportunities_before(Time::from_millis(25)), 4 + 4 + 2);
        let mut c = TraceCursor::new(t);
        let got: Vec<u64> = (0..6).map(|_| c.take(Time::ZERO).0 / 1_000_000).collect();
        assert_eq!(got, vec![0, 0, 5, 10, 10, 10]);
        // Opportunities before `now` are lost.
        assert_eq!(c.take(Time::from_millis(33)).0 / 1_000_000, 35);
        assert_eq!(c.take(Time::from_millis(1000)).0 / 1_000_000, 1000);
    }

    #[test]
    fn bad_traces_name_the_line() {
        assert!(Trace::parse("t", "0\nfive\n").unwrap_err().contains("t:2"));
        assert!(Trace::parse("t", "5\n3\n").unwrap_err().contains("decrease"));
        assert!(Trace::parse("t", "\n").unwrap_err().contains("no delivery"));
    }

    #[test]
    fn the_cellular_traces_parse() {
        for name in ["Verizon-LTE-short.down", "Verizon-LTE-short.up", "TMobile-LTE-short.down"] {
            let path = format!("{}/../../traces/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let t = Trace::parse(name, &text).unwrap();
            // LTE downlinks of the Saturator paper: a few to a few tens of Mbit/s on average.
            let mbit = t.mean_rate().bits_per_sec() / 1e6;
            assert!(mbit > 1.0 && mbit < 100.0, "{name}: {mbit} Mbit/s");
        }
    }
}
