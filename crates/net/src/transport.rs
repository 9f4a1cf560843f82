//! Which controller or protocol a session runs, as the `Hello` carries it: the configuration's
//! JSON, tagged by `algorithm` like a scenario file's `cc = { algorithm = "udt", ... }`.

use cc::protocols::DatagramConfig;
use sim::Transport;

/// The default configuration of the TCP controller or datagram protocol called `name`.
pub fn from_name(name: &str) -> Option<Transport> {
    cc::CcConfig::from_name(name).ok().map(Transport::Tcp).or_else(|| DatagramConfig::from_name(name).map(Transport::Datagram))
}

pub fn to_json(t: &Transport) -> String {
    match t {
        Transport::Tcp(c) => serde_json::to_string(c),
        Transport::Datagram(d) => serde_json::to_string(d),
    }
    .expect("a configuration serialises")
}

pub fn from_json(s: &str) -> Result<Transport, String> {
    let v: serde_json::Value = serde_json::from_str(s).map_err(|e| e.to_string())?;
    let name = v.get("algorithm").and_then(|a| a.as_str()).ok_or("no `algorithm`")?;
    if DatagramConfig::from_name(name).is_some() {
        serde_json::from_value(v).map(Transport::Datagram).map_err(|e| e.to_string())
    } else {
        serde_json::from_value(v).map(Transport::Tcp).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_controller_and_protocol_survives_the_hello() {
        for a in cc::ALGORITHMS {
            let t = Transport::Tcp((a.default_config)());
            assert_eq!(from_json(&to_json(&t)).unwrap(), t, "{}", a.name);
        }
        for p in cc::protocols::PROTOCOLS {
            let t = Transport::Datagram((p.default_config)());
            assert_eq!(from_json(&to_json(&t)).unwrap(), t, "{}", p.name);
        }
        assert!(from_json("{\"algorithm\":\"nosuch\"}").is_err());
        assert!(from_json("[]").is_err());
    }
}
