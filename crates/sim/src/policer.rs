//! A token-bucket policer on the bottleneck's entry: what Linux's `tc ... action police rate R
//! burst B conform-exceed drop` does to a flow, and what ISPs use to cap a customer's rate
//! (Flach et al., "An Internet-Wide Analysis of Traffic Policing", SIGCOMM 2016, found
//! policing on 7 % of the paths they measured, with 21 % loss on the policed ones).
//!
//! Unlike a shaper (a queue served at R), a policer has no queue: a packet passes if the
//! bucket holds tokens for its size, and is dropped otherwise.
//!
//! ```text
//! tokens(t) = min(B, tokens(t₀) + R · (t − t₀))       (the bucket starts full)
//! pass  ⇔ tokens ≥ L   (then tokens −= L)             L = the packet's wire size
//! ```
//!
//! Over any interval of length T the policer passes at most `R·T + B` bytes: a flow that
//! offers more than R loses the excess, and one that was quiet gets a burst of B through at
//! whatever rate it sends.

use crate::units::{parse_rate, parse_size};
use cc::{Bytes, Rate, Time};

/// The policer's rate and bucket depth.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PolicerConfig {
    pub rate: Rate,
    /// The bucket's depth, in bytes of wire size (`burst` in tc).
    pub burst: Bytes,
}

impl PolicerConfig {
    /// tc's words: `rate 10mbit burst 30KB`, both required, in either order.
    pub fn parse(s: &str) -> Result<PolicerConfig, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let (mut rate, mut burst) = (None, None);
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            let value = words.get(i + 1).copied();
            match word {
                "rate" if rate.is_none() => {
                    let v = value.ok_or("`rate` needs a rate, e.g. `rate 10mbit`")?;
                    rate = Some(parse_rate(v).map_err(|e| format!("rate: {e}"))?);
                }
                "burst" if burst.is_none() => {
                    let v = value.ok_or("`burst` needs a size, e.g. `burst 30KB`")?;
                    burst = Some(parse_size(v).map_err(|e| format!("burst: {e}"))?);
                }
                "rate" | "burst" => return Err(format!("`{word}` given twice")),
                _ => return Err(format!("`{word}` is not one of the words `rate R`, `burst B` (e.g. `rate 10mbit burst 30KB`)")),
            }
            i += 2;
        }
        match (rate, burst) {
            (Some(rate), Some(burst)) => Ok(PolicerConfig { rate, burst }),
            (None, _) => Err("`rate R` is required (e.g. `rate 10mbit burst 30KB`)".into()),
            (_, None) => Err("`burst B` is required (e.g. `rate 10mbit burst 30KB`)".into()),
        }
    }

    /// A positive rate, and a bucket that holds at least one packet of `packet_bytes` (tc
    /// warns of the same: a smaller bucket drops every full-sized packet).
    pub fn validate(&self, packet_bytes: Bytes) -> Result<(), String> {
        if !(self.rate.0 > 0.0 && self.rate.0.is_finite()) {
            return Err("rate: must be positive".into());
        }
        if self.burst < packet_bytes || self.burst > 1 << 30 {
            return Err(format!("burst: from one packet ({packet_bytes} bytes on the wire) to 1 GB, got {} bytes", self.burst));
        }
        Ok(())
    }
}

impl std::fmt::Display for PolicerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rate {}bit burst {}B", self.rate.bits_per_sec(), self.burst)
    }
}

/// The bucket.
#[derive(Clone, Debug)]
pub struct Policer {
    cfg: PolicerConfig,
    /// Tokens in bytes, at `last`.
    tokens: f64,
    last: Time,
}

impl Policer {
    pub fn new(cfg: PolicerConfig) -> Policer {
        Policer { cfg, tokens: cfg.burst as f64, last: Time::ZERO }
    }

    /// Whether a packet of `wire` bytes arriving at `now` conforms (and takes its tokens).
    pub fn conforms(&mut self, now: Time, wire: Bytes) -> bool {
        let refill = self.cfg.rate.bytes_in(now.saturating_sub(self.last));
        self.tokens = (self.tokens + refill).min(self.cfg.burst as f64);
        self.last = self.last.max(now);
        if self.tokens >= wire as f64 {
            self.tokens -= wire as f64;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policer(mbit: f64, burst: Bytes) -> Policer {
        Policer::new(PolicerConfig { rate: Rate::from_bits_per_sec(mbit * 1e6), burst })
    }

    #[test]
    fn a_full_bucket_passes_a_burst_then_the_rate() {
        // 8 Mbit/s = 1 byte/µs; a 10 550-byte bucket; 1000-byte packets every 100 µs (10×).
        let mut p = policer(8.0, 10_550);
        let passed: Vec<bool> = (0..40).map(|i| p.conforms(Time::from_micros(100 * i), 1000)).collect();
        // Before arrival i the bucket holds 10 550 − 900·i bytes (100 trickle in per arrival):
        // arrivals 0 to 10 pass, leaving 550.
        assert!(passed[..11].iter().all(|&x| x), "{passed:?}");
        // Then a packet's worth every 10 arrivals: the 15th (550 + 500 bytes), 25th and 35th.
        let later: Vec<usize> = (11..40).filter(|&i| passed[i]).collect();
        assert_eq!(later, [15, 25, 35]);
    }

    #[test]
    fn over_any_interval_at_most_rate_times_time_plus_burst_passes() {
        let mut p = policer(8.0, 5_000);
        let mut passed_bytes = 0;
        // 3000 packets of 1500 bytes at 2.4 per ms (3.6 bytes/µs, 3.6× the rate) for 1.25 s.
        for i in 0..3000u64 {
            if p.conforms(Time::from_micros(i * 1_000 / 2 * 5 / 6), 1500) {
                passed_bytes += 1500;
            }
        }
        let t_us = (2999 * 1_000 / 2 * 5 / 6) as f64;
        assert!(passed_bytes as f64 <= t_us + 5_000.0, "{passed_bytes}");
        // The offer always exceeds the rate, so what is left in the bucket at the end is less
        // than a packet: at least R·T + B − 1500 passed.
        assert!(passed_bytes as f64 > t_us + 5_000.0 - 1500.0, "{passed_bytes}");
    }

    #[test]
    fn parse_takes_tc_words_and_names_what_is_wrong() {
        let c = PolicerConfig::parse("rate 10mbit burst 30KB").unwrap();
        assert_eq!(c.rate, Rate::from_bits_per_sec(10e6));
        assert_eq!(c, PolicerConfig::parse("burst 30KB rate 10mbit").unwrap());
        assert_eq!(PolicerConfig::parse(&c.to_string()).unwrap(), c);
        for (bad, says) in [
            ("rate 10mbit", "`burst B` is required"),
            ("burst 30KB", "`rate R` is required"),
            ("rate 10mbit burst", "`burst` needs a size"),
            ("rate fast burst 30KB", "rate:"),
            ("rate 10mbit rate 5mbit burst 1KB", "given twice"),
            ("peakrate 10mbit", "is not one of the words"),
        ] {
            let e = PolicerConfig::parse(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!(c.validate(1500).is_ok());
        let small = PolicerConfig { burst: 1000, ..c };
        assert!(small.validate(1500).unwrap_err().starts_with("burst: from one packet"));
    }
}
