//! netem's syntax for the bottleneck's impairments, as the seeds write their experiments:
//! `delay 100ms 10ms 25% loss 0.1%`.
//!
//! Supported (see tc-netem(8)): `delay TIME [JITTER [CORRELATION]]`,
//! `distribution {uniform|normal}`, `loss [random] PERCENT [CORRELATION]`,
//! `loss gemodel p [r [1-h [1-k]]]`, `rate RATE`, `limit PACKETS`. Anything else is rejected
//! with a message that names it.
//!
//! Semantics follow Linux netem: loss is decided as a packet enters the qdisc; delay (with
//! jitter) is added as it leaves; `rate` is the link's serialisation rate and `limit` the queue
//! length in packets. Without a `distribution`, jitter is uniform on `[delay-jitter,
//! delay+jitter]`, which is what the kernel does when tc loads no table.

use crate::units::{parse_percent, parse_rate, parse_time};
use cc::{Rate, Time};
use serde::{Deserialize, Serialize};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DelayDistribution {
    #[default]
    Uniform,
    Normal,
}

/// A packet-loss process.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "lowercase")]
pub enum LossSpec {
    #[default]
    None,
    /// Independent (Bernoulli) loss with probability `p`; with `correlation` ρ > 0 each draw is
    /// `(1-ρ)·U + ρ·previous` as in netem's `get_crandom`.
    Random { p: f64, correlation: f64 },
    /// Gilbert-Elliott burst loss (netem `gemodel`): `p` = P(good→bad), `r` = P(bad→good),
    /// loss probability `1-h` in the bad state and `1-k` in the good state.
    GilbertElliott { p: f64, r: f64, one_minus_h: f64, one_minus_k: f64 },
}

impl LossSpec {
    /// The long-run loss probability.
    pub fn mean_loss(&self) -> f64 {
        match *self {
            LossSpec::None => 0.0,
            LossSpec::Random { p, .. } => p,
            LossSpec::GilbertElliott { p, r, one_minus_h, one_minus_k } => {
                if p + r == 0.0 {
                    one_minus_k
                } else {
                    let pi_bad = p / (p + r);
                    pi_bad * one_minus_h + (1.0 - pi_bad) * one_minus_k
                }
            }
        }
    }
}

/// The impairments a netem string describes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Netem {
    pub delay: Time,
    pub jitter: Time,
    pub delay_correlation: f64,
    pub distribution: DelayDistribution,
    pub loss: LossSpec,
    pub rate: Option<Rate>,
    pub limit: Option<u64>,
}

const SUPPORTED: &str = "delay, distribution, loss (random, gemodel), rate, limit";

/// `t` in the units netem strings use (ms, or us/ns when not whole).
pub(crate) fn fmt_time(t: Time) -> String {
    if t.0 % 1_000_000 == 0 {
        format!("{}ms", t.0 / 1_000_000)
    } else if t.0 % 1_000 == 0 {
        format!("{}us", t.0 / 1_000)
    } else {
        format!("{}ns", t.0)
    }
}

fn pct(p: f64) -> String {
    format!("{}%", p * 100.0)
}

/// The netem string that parses back to this value.
impl std::fmt::Display for Netem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut words: Vec<String> = Vec::new();
        if self.delay > Time::ZERO || self.jitter > Time::ZERO {
            words.push(format!("delay {}", fmt_time(self.delay)));
            if self.jitter > Time::ZERO {
                words.push(fmt_time(self.jitter));
                if self.delay_correlation > 0.0 {
                    words.push(pct(self.delay_correlation));
                }
                if self.distribution == DelayDistribution::Normal {
                    words.push("distribution normal".into());
                }
            }
        }
        match self.loss {
            LossSpec::None => {}
            LossSpec::Random { p, correlation } => {
                words.push(format!("loss {}", pct(p)));
                if correlation > 0.0 {
                    words.push(pct(correlation));
                }
            }
            LossSpec::GilbertElliott { p, r, one_minus_h, one_minus_k } => {
                words.push(format!("loss gemodel {} {} {} {}", pct(p), pct(r), pct(one_minus_h), pct(one_minus_k)));
            }
        }
        if let Some(r) = self.rate {
            words.push(format!("rate {}bit", r.bits_per_sec()));
        }
        if let Some(l) = self.limit {
            words.push(format!("limit {l}"));
        }
        write!(f, "{}", words.join(" "))
    }
}

impl Netem {
    /// Parses a netem option string. Errors name the offending word and what is allowed.
    pub fn parse(s: &str) -> Result<Netem, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let mut n = Netem::default();
        let mut i = 0;
        let opt_percent = |i: usize| words.get(i).and_then(|w| parse_percent(w).ok());
        let mut given: Vec<String> = Vec::new();
        while i < words.len() {
            let w = words[i].to_ascii_lowercase();
            i += 1;
            // tc takes the last of a repeated option; a second `delay` or `loss` is more likely
            // a mistake than an intent, so it is an error here.
            let option = if w == "drop" { "loss".to_string() } else { w.clone() };
            if given.contains(&option) {
                return Err(format!("netem: `{option}` is given twice; give each option once"));
            }
            given.push(option);
            let arg = |i: usize, what: &str| -> Result<&str, String> {
                words.get(i).copied().ok_or_else(|| format!("netem: `{w}` needs {what}"))
            };
            match w.as_str() {
                "delay" => {
                    n.delay = parse_time(arg(i, "a time")?).map_err(|e| format!("netem delay: {e}"))?;
                    i += 1;
                    if let Some(j) = words.get(i).and_then(|w| parse_time(w).ok()) {
                        n.jitter = j;
                        i += 1;
                        if let Some(c) = opt_percent(i) {
                            n.delay_correlation = c;
                            i += 1;
                        }
                    }
                }
                "distribution" => {
                    n.distribution = match arg(i, "uniform or normal")? {
                        "uniform" => DelayDistribution::Uniform,
                        "normal" => DelayDistribution::Normal,
                        other => {
                            return Err(format!(
                                "netem distribution: `{other}` is not supported; allowed: uniform, normal"
                            ))
                        }
                    };
                    i += 1;
                }
                "loss" | "drop" => {
                    let first = arg(i, "a percentage, `random` or `gemodel`")?.to_ascii_lowercase();
                    if first == "gemodel" {
                        i += 1;
                        let p = parse_percent(arg(i, "p as a percentage")?).map_err(|e| format!("netem gemodel p: {e}"))?;
                        i += 1;
                        let mut vals = [1.0 - p, 1.0, 0.0];
                        for v in vals.iter_mut() {
                            match opt_percent(i) {
                                Some(x) => {
                                    *v = x;
                                    i += 1;
                                }
                                None => break,
                            }
                        }
                        n.loss = LossSpec::GilbertElliott { p, r: vals[0], one_minus_h: vals[1], one_minus_k: vals[2] };
                    } else if first == "state" {
                        return Err("netem loss: the 4-state model `state` is not supported; allowed: random, gemodel".into());
                    } else {
                        if first == "random" {
                            i += 1;
                        }
                        let p = parse_percent(arg(i, "a percentage")?).map_err(|e| format!("netem loss: {e}"))?;
                        i += 1;
                        let mut correlation = 0.0;
                        if let Some(c) = opt_percent(i) {
                            correlation = c;
                            i += 1;
                        }
                        n.loss = LossSpec::Random { p, correlation };
                    }
                    if words.get(i).is_some_and(|w| w.eq_ignore_ascii_case("ecn")) {
                        return Err("netem loss: `ecn` marking is not supported; use an ECN-marking queue".into());
                    }
                }
                "rate" => {
                    n.rate = Some(parse_rate(arg(i, "a rate")?).map_err(|e| format!("netem rate: {e}"))?);
                    i += 1;
                }
                "limit" => {
                    let v = arg(i, "a packet count")?;
                    n.limit = Some(
                        v.parse::<u64>()
                            .ok()
                            .filter(|&l| l > 0)
                            .ok_or_else(|| format!("netem limit: `{v}` is not a positive packet count"))?,
                    );
                    i += 1;
                }
                other => {
                    return Err(format!("netem: `{other}` is not supported; supported: {SUPPORTED}"));
                }
            }
        }
        Ok(n)
    }
}

/// Delays and jitter up to an hour, a positive rate up to 10 Tbit/s, a queue limit of at least
/// one packet, loss probabilities in [0, 1] (the parser takes percentages in 0-100 %).
impl cc::check::Validate for Netem {
    fn validate(&self) -> Result<(), String> {
        use cc::check::{above, within};
        let hour = Time::from_secs(3600);
        within("delay", self.delay, Time::ZERO..=hour)?;
        within("jitter", self.jitter, Time::ZERO..=hour)?;
        within("delay correlation", self.delay_correlation, 0.0..=1.0)?;
        if let Some(r) = self.rate {
            within("rate (bit/s)", r.bits_per_sec(), above(0.0, 1e13))?;
        }
        if let Some(l) = self.limit {
            within("limit", l, 1..=1_000_000_000)?;
        }
        let probabilities: Vec<(&str, f64)> = match self.loss {
            LossSpec::None => vec![],
            LossSpec::Random { p, correlation } => vec![("loss", p), ("loss correlation", correlation)],
            LossSpec::GilbertElliott { p, r, one_minus_h, one_minus_k } => {
                vec![("gemodel p", p), ("gemodel r", r), ("gemodel 1-h", one_minus_h), ("gemodel 1-k", one_minus_k)]
            }
        };
        for (name, v) in probabilities {
            within(name, v, 0.0..=1.0)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_option_is_an_error() {
        for s in ["delay 5ms delay 10ms", "loss 100% loss 0%", "loss 1% drop 2%", "rate 1mbit rate 2mbit"] {
            let e = Netem::parse(s).unwrap_err();
            assert!(e.contains("given twice"), "{s}: {e}");
        }
    }

    #[test]
    fn the_seeds_trial_six_string() {
        let n = Netem::parse("delay 100ms 10ms 25% loss 0.1%").unwrap();
        assert_eq!(n.delay, Time::from_millis(100));
        assert_eq!(n.jitter, Time::from_millis(10));
        assert_eq!(n.delay_correlation, 0.25);
        assert_eq!(n.loss, LossSpec::Random { p: 0.001, correlation: 0.0 });
    }

    #[test]
    fn gemodel_defaults_follow_tc() {
        let n = Netem::parse("loss gemodel 1%").unwrap();
        assert_eq!(n.loss, LossSpec::GilbertElliott { p: 0.01, r: 0.99, one_minus_h: 1.0, one_minus_k: 0.0 });
        let n = Netem::parse("loss gemodel 1% 10% 70% 0.1%").unwrap();
        assert_eq!(n.loss, LossSpec::GilbertElliott { p: 0.01, r: 0.1, one_minus_h: 0.7, one_minus_k: 0.001 });
        // Stationary loss: pi_bad = 1/11; 1/11·0.7 + 10/11·0.001.
        assert!((n.loss.mean_loss() - (0.7 / 11.0 + 0.01 / 11.0)).abs() < 1e-12);
    }

    #[test]
    fn rate_limit_random_and_distribution() {
        let n = Netem::parse("rate 10mbit limit 100 loss random 1% 25% delay 20ms 5ms distribution normal").unwrap();
        assert_eq!(n.rate.unwrap().bits_per_sec(), 10e6);
        assert_eq!(n.limit, Some(100));
        assert_eq!(n.loss, LossSpec::Random { p: 0.01, correlation: 0.25 });
        assert_eq!(n.distribution, DelayDistribution::Normal);
    }

    #[test]
    fn display_parses_back_to_the_same_value() {
        for s in ["delay 100ms 10ms 25% loss 0.1%", "loss gemodel 1% 10% 70% 0.1%", "delay 5ms 1ms distribution normal rate 10mbit limit 50", ""] {
            let n = Netem::parse(s).unwrap();
            assert_eq!(Netem::parse(&n.to_string()).unwrap(), n, "{s} -> {n}");
        }
    }

    #[test]
    fn unsupported_words_are_named() {
        let e = Netem::parse("delay 10ms reorder 25%").unwrap_err();
        assert!(e.contains("reorder") && e.contains("supported"), "{e}");
        assert!(Netem::parse("delay").unwrap_err().contains("needs"));
        assert!(Netem::parse("loss 2").unwrap_err().contains("percentage"));
        assert!(Netem::parse("limit 0").is_err());
        assert!(Netem::parse("distribution pareto").unwrap_err().contains("pareto"));
    }
}
