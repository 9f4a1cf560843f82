//! Parsing of human-written quantities, in the spirit of `tc` and netem: `100ms`, `40mbit`,
//! `1.5MB`, `0.1%`.
//!
//! Rates are bits per second whatever the spelling: `40mbit`, `40Mbit/s`, `40mbps` and
//! `40Mbps` all mean 40·10⁶ bit/s (unlike tc, where `mbps` means megabytes per second: cclab
//! follows iperf3 and Wireshark, which is how most users read it). Sizes are bytes with SI
//! prefixes (`KB` = 1000 B) or binary ones (`KiB` = 1024 B).

use cc::{Bytes, Rate, Time};

/// Splits `"40mbit"` into `(40.0, "mbit")`: the longest prefix that is a finite number, and
/// the rest in lower case.
fn split_number(s: &str) -> Option<(f64, String)> {
    let s = s.trim();
    let (v, end) = (1..=s.len())
        .rev()
        .filter(|&i| s.is_char_boundary(i))
        .find_map(|i| s[..i].parse::<f64>().ok().filter(|v| v.is_finite()).map(|v| (v, i)))?;
    Some((v, s[end..].trim().to_ascii_lowercase()))
}

pub const TIME_FORMS: &str = "a time like 100ms, 1.5s, 250us or 20ns";
pub const RATE_FORMS: &str = "a rate like 40mbit, 40Mbps, 1gbit, 500kbit or 2e6bit";
pub const SIZE_FORMS: &str = "a size like 1500B, 64KB, 1.5MB or 2MiB";
pub const PERCENT_FORMS: &str = "a percentage like 1% or 0.1%";

/// The longest time written anywhere (about 31 years).
pub const MAX_TIME_S: f64 = 1e9;

/// A non-negative time.
pub fn parse_time(s: &str) -> Result<Time, String> {
    let (v, unit) = split_number(s).ok_or_else(|| format!("`{s}` is not {TIME_FORMS}"))?;
    let scale = match unit.as_str() {
        "ns" => 1e-9,
        "us" | "µs" | "usec" | "usecs" => 1e-6,
        "ms" | "msec" | "msecs" => 1e-3,
        "s" | "sec" | "secs" => 1.0,
        "min" => 60.0,
        _ => return Err(format!("`{s}` is not {TIME_FORMS}")),
    };
    if v < 0.0 {
        return Err(format!("`{s}` is negative; expected {TIME_FORMS}"));
    }
    // Nanoseconds in a u64 reach 584 years; beyond, a time would silently saturate.
    if v * scale > MAX_TIME_S {
        return Err(format!("`{s}` is more than the {MAX_TIME_S:.0e} s a time may be"));
    }
    Ok(Time::from_secs_f64(v * scale))
}

/// A positive rate.
pub fn parse_rate(s: &str) -> Result<Rate, String> {
    let (v, unit) = split_number(s).ok_or_else(|| format!("`{s}` is not {RATE_FORMS}"))?;
    // A capital B is a byte (`150KB`, `5MBps`): rates here are bits per second, and reading
    // bytes as bits would be off by eight, so such a unit is an error, not a guess.
    let written = s.trim().trim_start_matches(|c: char| c.is_ascii_digit() || ".eE+-".contains(c));
    if written.contains('B') && !written.to_ascii_lowercase().contains("bit") && !written.contains("bps") {
        let prefix = match written.trim().chars().next().map(|c| c.to_ascii_lowercase()) {
            Some('k') => 1e3,
            Some('m') => 1e6,
            Some('g') => 1e9,
            Some('t') => 1e12,
            _ => 1.0,
        };
        return Err(format!("`{s}` is in bytes, and a rate is in bits per second: {s}/s is {}bit", v * prefix * 8.0));
    }
    let unit = unit.trim_end_matches("/s");
    let scale = match unit {
        "bit" | "bps" | "b" => 1.0,
        "kbit" | "kbps" | "kb" | "k" => 1e3,
        "mbit" | "mbps" | "mb" | "m" => 1e6,
        "gbit" | "gbps" | "gb" | "g" => 1e9,
        "tbit" | "tbps" | "tb" => 1e12,
        _ => return Err(format!("`{s}` is not {RATE_FORMS}")),
    };
    if v <= 0.0 {
        return Err(format!("`{s}` must be positive; expected {RATE_FORMS}"));
    }
    Ok(Rate::from_bits_per_sec(v * scale))
}

/// A size in bytes.
pub fn parse_size(s: &str) -> Result<Bytes, String> {
    let (v, unit) = split_number(s).ok_or_else(|| format!("`{s}` is not {SIZE_FORMS}"))?;
    let scale = match unit.as_str() {
        "" | "b" | "byte" | "bytes" => 1.0,
        "kb" | "k" => 1e3,
        "mb" | "m" => 1e6,
        "gb" | "g" => 1e9,
        "kib" => 1024.0,
        "mib" => 1048576.0,
        "gib" => 1073741824.0,
        _ => return Err(format!("`{s}` is not {SIZE_FORMS}")),
    };
    if v < 0.0 {
        return Err(format!("`{s}` is negative; expected {SIZE_FORMS}"));
    }
    Ok((v * scale).round() as Bytes)
}

/// A probability written as a percentage (`1%` = 0.01), between 0 % and 100 %.
pub fn parse_percent(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let body = t.strip_suffix('%').ok_or_else(|| format!("`{s}` is not {PERCENT_FORMS}"))?;
    let v: f64 = body.trim().parse().map_err(|_| format!("`{s}` is not {PERCENT_FORMS}"))?;
    if !(0.0..=100.0).contains(&v) {
        return Err(format!("`{s}` is outside 0%..100%"));
    }
    Ok(v / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_time("100ms").unwrap(), Time::from_millis(100));
        assert_eq!(parse_time("1.5s").unwrap(), Time::from_millis(1500));
        assert_eq!(parse_time(" 250us ").unwrap(), Time::from_micros(250));
        assert!(parse_time("-1s").unwrap_err().contains("negative"));
        assert!(parse_time("100").is_err());
        assert!(parse_time("100 parsecs").is_err());
    }

    #[test]
    fn rates_mbps_and_mbit_agree() {
        let a = parse_rate("40mbit").unwrap();
        assert_eq!(a, parse_rate("40mbps").unwrap());
        assert_eq!(a, parse_rate("40Mbit/s").unwrap());
        assert_eq!(a.bits_per_sec(), 40e6);
        assert_eq!(parse_rate("1gbit").unwrap().bits_per_sec(), 1e9);
        let e = parse_rate("40 parsecs").unwrap_err();
        assert!(e.contains("parsecs") && e.contains("mbit"), "{e}");
        assert!(parse_rate("0mbit").is_err());
        // Bytes are not read as bits.
        assert_eq!(parse_rate("150KB").unwrap_err(), "`150KB` is in bytes, and a rate is in bits per second: 150KB/s is 1200000bit");
        assert!(parse_rate("5MBps").is_err() && parse_rate("5MB/s").is_err());
        assert_eq!(parse_rate("5MBit").unwrap().bits_per_sec(), 5e6);
    }

    #[test]
    fn sizes_and_percentages() {
        assert_eq!(parse_size("64KB").unwrap(), 64_000);
        assert_eq!(parse_size("2MiB").unwrap(), 2 << 20);
        assert_eq!(parse_percent("0.1%").unwrap(), 0.001);
        assert!(parse_percent("0.1").is_err());
        assert!(parse_percent("120%").is_err());
    }
}
