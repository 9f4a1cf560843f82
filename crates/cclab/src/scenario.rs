//! Scenario files (TOML) and their resolution into a simulator configuration.
//!
//! Everything the command-line flags can say can be written here, plus per-flow settings:
//!
//! ```toml
//! seed = 7
//! duration = "60s"
//! interval = "100ms"          # time-series sample interval
//!
//! [link]
//! rate = "40mbit"
//! buffer = "1bdp"             # or "100pkts", "150KB"
//! netem = "delay 10ms loss 0.1%"
//! schedule = [{ at = "20s", rate = "2.5mbit" }]
//! host_noise = "testbed"      # end hosts' timing noise (sim::hostnoise); default off
//! policer = "rate 10mbit burst 30KB"  # a token-bucket policer on entry (sim::policer)
//!
//! [defaults]                  # applies to every flow
//! rtt = "100ms"
//! prr = true                  # proportional rate reduction (RFC 6937)
//! tlp = true                  # tail loss probes (RFC 8985 §7)
//! syn_rtt_sample = true       # the SYN exchange's RTT seeds the estimator (RFC 6298 §2.2)
//! startup = "paced-chirping"  # or "controller" (the default): see cc::transport::chirp
//!
//! [[flows]]
//! cc = "newreno"
//! count = 4                   # four identical flows
//!
//! [[flows]]
//! cc = { algorithm = "reno" }
//! rtt = "200ms"
//! start = "10s"
//! size = "20MB"
//!
//! [[flows]]
//! cc = "bbr"
//! app_rate = "10mbit"         # the application writes 10 Mbit/s (iperf3's -b) ...
//! app_schedule = [{ at = "30s", rate = "unlimited" }]   # ... and always has data from 30 s
//! access_delay = "25ms"       # the bottleneck 25 ms from the sender (of the 50 ms forward path)
//! ```
//!
//! Unknown keys, wrong units and impossible values are reported in one line that names the
//! key and what is allowed.

use cc::transport::{Defences, Misbehaviour, SenderConfig, Startup};
use cc::protocols::{DatagramConfig, PROTOCOLS};
use cc::{algorithm_names, Bytes, CcConfig, Rate, Time};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use sim::netem::LossSpec;
use sim::policer::PolicerConfig;
use sim::units::{parse_percent, parse_rate, parse_size, parse_time, PERCENT_FORMS, RATE_FORMS, SIZE_FORMS, TIME_FORMS};
use sim::{FlowConfig, HostNoise, LinkConfig, Netem, QdiscConfig, QueueLimit, SimConfig, Trace, Transport};
use std::fmt;

/// Declares a string-valued unit type whose parse errors become serde errors.
macro_rules! unit_arg {
    ($name:ident, $inner:ty, $parse:expr, $forms:expr) => {
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name(pub $inner, pub String);

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                $parse(s).map(|v| $name(v, s.to_string()))
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($forms)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        s.parse().map_err(E::custom)
                    }
                }
                d.deserialize_str(V)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.1)
            }
        }
    };
}

unit_arg!(TimeArg, Time, parse_time, TIME_FORMS);
unit_arg!(RateArg, Rate, parse_rate, RATE_FORMS);
unit_arg!(SizeArg, Bytes, parse_size, SIZE_FORMS);
unit_arg!(PercentArg, f64, parse_percent, PERCENT_FORMS);
unit_arg!(BufferArg, QueueLimit, parse_buffer, BUFFER_FORMS);
unit_arg!(AppRateArg, Option<Rate>, parse_app_rate, APP_RATE_FORMS);

pub const APP_RATE_FORMS: &str = "a rate like 10mbit or 500kbit, or `unlimited` (the application always has data)";

/// An application step's rate: `10mbit`, or `unlimited` for an application that always has
/// data.
pub fn parse_app_rate(s: &str) -> Result<Option<Rate>, String> {
    if s.trim().eq_ignore_ascii_case("unlimited") {
        return Ok(None);
    }
    parse_rate(s).map(Some).map_err(|_| format!("`{s}` is not {APP_RATE_FORMS}"))
}

pub const BUFFER_FORMS: &str = "a buffer like 1bdp, 0.5bdp, 100pkts or 150KB";

/// `1bdp`, `100pkts`, `150KB`.
pub fn parse_buffer(s: &str) -> Result<QueueLimit, String> {
    let t = s.trim().to_ascii_lowercase();
    let num = |body: &str| -> Result<f64, String> {
        body.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0).ok_or_else(|| format!("`{s}` is not {BUFFER_FORMS}"))
    };
    for suffix in ["xbdp", "bdp"] {
        if let Some(body) = t.strip_suffix(suffix) {
            return Ok(QueueLimit::Bdp(num(body)?));
        }
    }
    for suffix in ["packets", "pkts", "pkt", "p"] {
        if let Some(body) = t.strip_suffix(suffix) {
            let v = num(body)?;
            if v.fract() != 0.0 {
                return Err(format!("`{s}`: a packet count must be whole"));
            }
            return Ok(QueueLimit::Packets(v as u64));
        }
    }
    if t.parse::<f64>().is_ok() {
        return Err(format!("`{s}` needs a unit: {BUFFER_FORMS}"));
    }
    match parse_size(s) {
        Ok(b) if b > 0 => Ok(QueueLimit::Bytes(b)),
        _ => Err(format!("`{s}` is not {BUFFER_FORMS}")),
    }
}

/// Every name a flow's `cc` may take: TCP congestion controllers and datagram protocols.
pub fn transport_names() -> Vec<&'static str> {
    algorithm_names().into_iter().chain(PROTOCOLS.iter().map(|p| p.name)).collect()
}

/// A flow's transport given by name (`cc = "reno"`, `cc = "udt"`) or as a table with
/// parameters (`cc = { algorithm = "cubic", beta = 0.7 }`).
#[derive(Clone, Debug, PartialEq)]
pub struct CcArg(pub Transport);

impl std::str::FromStr for CcArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if let Ok(cc) = CcConfig::from_name(s) {
            return Ok(CcArg(Transport::Tcp(cc)));
        }
        DatagramConfig::from_name(s)
            .map(|d| CcArg(Transport::Datagram(d)))
            .ok_or_else(|| format!("unknown algorithm `{s}`; allowed: {}", transport_names().join(", ")))
    }
}

impl<'de> Deserialize<'de> for CcArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CcArg;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "an algorithm name ({}) or a table with `algorithm = \"...\"`", transport_names().join(", "))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<CcArg, E> {
                s.parse().map_err(E::custom)
            }
            fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<CcArg, M::Error> {
                let table = toml::Value::deserialize(de::value::MapAccessDeserializer::new(m))?;
                let name = table.get("algorithm").and_then(|v| v.as_str()).unwrap_or_default();
                if DatagramConfig::from_name(name).is_some() {
                    table.try_into().map(|d| CcArg(Transport::Datagram(d))).map_err(de::Error::custom)
                } else {
                    table.try_into().map(|c| CcArg(Transport::Tcp(c))).map_err(de::Error::custom)
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for CcArg {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Transport::Tcp(c) => c.serialize(s),
            Transport::Datagram(d) => d.serialize(s),
        }
    }
}

/// Declares a setting given by name (`queue = "red"`) or as a table with parameters
/// (`queue = { type = "red", min_th = 20 }`): `$from_name` reads the name, serde the table.
macro_rules! name_or_table_arg {
    ($(#[$doc:meta])* $name:ident, $inner:ty, $from_name:expr, $expecting:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name(pub $inner);

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                $from_name(s.trim()).map($name)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        s.parse().map_err(E::custom)
                    }
                    fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<$name, M::Error> {
                        <$inner>::deserialize(de::value::MapAccessDeserializer::new(m)).map($name)
                    }
                }
                d.deserialize_any(V)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(s)
            }
        }
    };
}

name_or_table_arg!(
    /// A queue discipline by name (`queue = "red"`) or as a table with parameters
    /// (`queue = { type = "red", min_th = 20, ecn = true }`).
    QueueArg,
    QdiscConfig,
    QdiscConfig::from_name,
    "a queue discipline (droptail, red, codel, step) or a table with `type = \"...\"`"
);

name_or_table_arg!(
    /// A flow's start-up by name (`startup = "paced-chirping"`) or as a table with parameters
    /// (`startup = { type = "paced-chirping", geometry = 1.5 }`; see `cc::transport::chirp`).
    StartupArg,
    Startup,
    Startup::from_name,
    "a start-up (controller, paced-chirping) or a table with `type = \"...\"`"
);

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleStep {
    pub at: Option<TimeArg>,
    pub rate: Option<RateArg>,
}

/// A step of a flow's `app_schedule`: from `at` (counted from the run's start) the
/// application writes at `rate`, or always has data (`rate = "unlimited"`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AppStep {
    pub at: Option<TimeArg>,
    pub rate: Option<AppRateArg>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub rate: Option<RateArg>,
    pub buffer: Option<BufferArg>,
    /// The queue discipline: droptail (default), red, codel, step.
    pub queue: Option<QueueArg>,
    /// A Mahimahi trace file giving the capacity (relative to the scenario file).
    pub trace: Option<String>,
    /// netem options for the bottleneck: `delay 100ms 10ms 25% loss 0.1%`.
    pub netem: Option<String>,
    /// Shorthand for `netem = "loss P"`.
    pub loss: Option<PercentArg>,
    /// netem delay/jitter/loss on the return path (ACKs), as netem on the receiver's egress.
    pub netem_reverse: Option<String>,
    /// Random wait before a sender sends what an ACK released, uniform up to this (ns-2's
    /// `overhead_`, against drop-tail phase effects; default: one packet's time at the
    /// bottleneck; "0s" for none).
    pub send_overhead: Option<TimeArg>,
    /// Random ACK processing delay at senders, uniform up to this, as a busy or virtual host
    /// adds (default: none).
    pub host_jitter: Option<TimeArg>,
    /// End hosts' timing noise (`sim::hostnoise`): a preset (`testbed`, `nic`, `vm`, `off`)
    /// and/or `irq_gap T latency T stall T every T`. Default off.
    pub host_noise: Option<String>,
    /// Drop the link's n-th arriving data packets (1-based, increasing; retransmissions count),
    /// as ns-3's `ReceiveListErrorModel`: `drop_packets = [30]`.
    pub drop_packets: Option<Vec<u64>>,
    /// A token-bucket policer on entry, in tc's words: `policer = "rate 10mbit burst 30KB"`.
    pub policer: Option<String>,
    pub schedule: Option<Vec<ScheduleStep>>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    pub cc: Option<CcArg>,
    /// This many identical flows.
    pub count: Option<u32>,
    pub rtt: Option<TimeArg>,
    pub start: Option<TimeArg>,
    pub stop: Option<TimeArg>,
    /// Bytes to transfer (the flow ends when all are acknowledged).
    pub size: Option<SizeArg>,
    pub mss: Option<u64>,
    pub sack: Option<bool>,
    /// Proportional rate reduction in SACK fast recovery (RFC 6937; default on, as Linux).
    pub prr: Option<bool>,
    /// Tail loss probes (RFC 8985 §7; default on with SACK, as Linux).
    pub tlp: Option<bool>,
    pub delayed_ack: Option<bool>,
    /// TCP's three-way handshake before the first data (one base RTT; default off).
    pub handshake: Option<bool>,
    /// The SYN exchange's RTT sample seeds the sender's RTT estimator (RFC 6298 §2.2; default
    /// on). Off: no sample, and the first flight is timed by §2.1's initial RTO of 1 s.
    pub syn_rtt_sample: Option<bool>,
    pub initial_window: Option<u32>,
    pub rwnd: Option<SizeArg>,
    pub min_rto: Option<TimeArg>,
    pub pacing: Option<bool>,
    pub ecn: Option<bool>,
    pub access_rate: Option<RateArg>,
    /// One-way delay from the sender to the bottleneck, part of the forward half of `rtt`
    /// (default 0: the bottleneck at the sender's end of the path; at most rtt/2).
    pub access_delay: Option<TimeArg>,
    /// The application's write rate, as iperf3's `-b` (default: it always has data; TCP
    /// flows only).
    pub app_rate: Option<RateArg>,
    /// Steps of the application's write rate: `[{ at = "10s", rate = "4mbit" }, { at = "20s",
    /// rate = "unlimited" }]` (TCP flows only).
    pub app_schedule: Option<Vec<AppStep>>,
    /// A misbehaving receiver (default: honest).
    pub receiver: Option<ReceiverSpec>,
    /// The sender's defences against one (default: Linux's set).
    pub defences: Option<DefencesSpec>,
    /// How the flow starts: `controller` (its own slow start, HyStart or STARTUP; default) or
    /// `paced-chirping`.
    pub startup: Option<StartupArg>,
}

/// A misbehaving TCP receiver, as Savage et al. (CCR 1999) describe them:
/// `receiver = { attack = "ack-division", split = 10 }`, `{ attack = "dup-ack-spoofing",
/// count = 5 }`, `{ attack = "optimistic-ack", lead = 20 }`, or `{ attack = "honest" }`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReceiverSpec {
    pub attack: Option<String>,
    /// ACK division: ACKs per segment.
    pub split: Option<u32>,
    /// Duplicate-ACK spoofing: spoofed duplicates per ACK while a hole is open.
    pub count: Option<u32>,
    /// Optimistic ACKing: segments acknowledged ahead of the highest received.
    pub lead: Option<u32>,
}

impl ReceiverSpec {
    /// The command line's form `ATTACK[:N]`, N being the attack's one parameter:
    /// `ack-division:10` (split), `dup-ack-spoofing:1` (count), `optimistic-ack:20` (lead),
    /// `honest`. Ranges are checked with the whole configuration.
    pub fn from_flag(s: &str) -> Result<ReceiverSpec, String> {
        let (attack, n) = match s.trim().split_once(':') {
            Some((a, n)) => {
                let n = n.trim().parse::<u32>().map_err(|_| format!("`{n}` is not a whole number (the form is ATTACK[:N], e.g. ack-division:10)"))?;
                (a.trim(), Some(n))
            }
            None => (s.trim(), None),
        };
        let mut r = ReceiverSpec { attack: Some(attack.to_string()), ..ReceiverSpec::default() };
        match attack {
            "ack-division" => r.split = n,
            "dup-ack-spoofing" => r.count = n,
            "optimistic-ack" => r.lead = n,
            "honest" if n.is_some() => return Err("`honest` takes no number".into()),
            _ => {}
        }
        r.resolve().map_err(|e| e.replace(" missing;", " missing (ATTACK:N);"))?;
        Ok(r)
    }

    fn of(a: Option<Misbehaviour>) -> ReceiverSpec {
        let mut r = ReceiverSpec { attack: Some(a.map_or("honest", |a| a.name()).to_string()), ..ReceiverSpec::default() };
        match a {
            Some(Misbehaviour::AckDivision { split }) => r.split = Some(split),
            Some(Misbehaviour::DupAckSpoofing { count }) => r.count = Some(count),
            Some(Misbehaviour::OptimisticAck { lead }) => r.lead = Some(lead),
            None => {}
        }
        r
    }

    /// The attack; ranges are checked with the whole configuration (`FlowConfig::validate`).
    fn resolve(&self) -> Result<Option<Misbehaviour>, String> {
        let names = || format!("honest, {}", Misbehaviour::NAMES.join(", "));
        let attack = self.attack.as_deref().ok_or_else(|| format!("attack: missing; allowed: {}", names()))?;
        let (want, a) = match attack {
            "honest" => ("", None),
            "ack-division" => ("split", self.split.map(|split| Misbehaviour::AckDivision { split })),
            "dup-ack-spoofing" => ("count", self.count.map(|count| Misbehaviour::DupAckSpoofing { count })),
            "optimistic-ack" => ("lead", self.lead.map(|lead| Misbehaviour::OptimisticAck { lead })),
            other => return Err(format!("attack: unknown `{other}`; allowed: {}", names())),
        };
        for (key, set) in [("split", self.split.is_some()), ("count", self.count.is_some()), ("lead", self.lead.is_some())] {
            if set && key != want {
                return Err(format!("{key}: not a parameter of `{attack}`"));
            }
        }
        if !want.is_empty() && a.is_none() {
            return Err(format!("{want}: missing; `{attack}` needs it"));
        }
        Ok(a)
    }
}

/// The sender's defences against a misbehaving receiver (`cc::transport::defence`), each
/// `true` or `false`; those left out keep Linux's setting (`new_data_only` on, the rest off):
/// `defences = { abc = true, new_data_only = true, dupack_limit = true, nonce = true }`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DefencesSpec {
    /// Appropriate byte counting (RFC 3465, L = 2).
    pub abc: Option<bool>,
    /// Growth only by newly acknowledged whole segments (off: one SMSS per ACK).
    pub new_data_only: Option<bool>,
    /// Savage et al.'s bound on duplicate ACKs counted.
    pub dupack_limit: Option<bool>,
    /// The cumulative nonce check.
    pub nonce: Option<bool>,
}

impl DefencesSpec {
    /// The command line's form: the defences to turn on, comma-separated (`abc,nonce`), the
    /// others off; `none` for the undefended sender, `all` for every defence.
    pub fn from_flag(s: &str) -> Result<DefencesSpec, String> {
        const NAMES: [&str; 4] = ["abc", "new_data_only", "dupack_limit", "nonce"];
        let mut on = [false; 4];
        match s.trim() {
            "none" => {}
            "all" => on = [true; 4],
            list => {
                for name in list.split(',').map(|n| n.trim().replace('-', "_")) {
                    let i = NAMES.iter().position(|&k| k == name).ok_or_else(|| {
                        format!("unknown defence `{name}`; allowed: {}, or none, all", NAMES.join(", "))
                    })?;
                    on[i] = true;
                }
            }
        }
        Ok(DefencesSpec { abc: Some(on[0]), new_data_only: Some(on[1]), dupack_limit: Some(on[2]), nonce: Some(on[3]) })
    }

    fn of(d: Defences) -> DefencesSpec {
        DefencesSpec { abc: Some(d.abc), new_data_only: Some(d.new_data_only), dupack_limit: Some(d.dupack_limit), nonce: Some(d.nonce) }
    }

    fn resolve(&self) -> Defences {
        let d = Defences::default();
        Defences {
            abc: self.abc.unwrap_or(d.abc),
            new_data_only: self.new_data_only.unwrap_or(d.new_data_only),
            dupack_limit: self.dupack_limit.unwrap_or(d.dupack_limit),
            nonce: self.nonce.unwrap_or(d.nonce),
        }
    }
}

impl FlowSpec {
    /// `self`, with fields it leaves unset taken from `base`.
    fn or(&self, base: &FlowSpec) -> FlowSpec {
        macro_rules! pick {
            ($($f:ident),*) => { FlowSpec { $($f: self.$f.clone().or_else(|| base.$f.clone()),)* } };
        }
        pick!(cc, count, rtt, start, stop, size, mss, sack, prr, tlp, delayed_ack, handshake, syn_rtt_sample, initial_window, rwnd, min_rto, pacing, ecn, access_rate, access_delay, app_rate, app_schedule, receiver, defences, startup)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: Option<String>,
    pub seed: Option<u64>,
    pub duration: Option<TimeArg>,
    pub interval: Option<TimeArg>,
    #[serde(default)]
    pub link: LinkSpec,
    /// Settings every flow inherits.
    #[serde(default)]
    pub defaults: FlowSpec,
    pub flows: Option<Vec<FlowSpec>>,
}

pub const DEFAULT_RATE: &str = "40mbit";
pub const DEFAULT_RTT: &str = "100ms";
pub const DEFAULT_DURATION: &str = "60s";

impl Scenario {
    /// Parses a scenario file's text. Errors are one line: `file:line:col: key: message`.
    pub fn from_toml(text: &str, file: &str) -> Result<Scenario, String> {
        let de = toml::Deserializer::new(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let loc = inner
                .span()
                .map(|sp| {
                    let before = &text[..sp.start.min(text.len())];
                    let line = before.matches('\n').count() + 1;
                    let col = sp.start - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                    format!(":{line}:{col}")
                })
                .unwrap_or_default();
            let msg = inner.message().replace('\n', " ");
            let key = if path.is_empty() || path == "." { String::new() } else { format!("{path}: ") };
            format!("{file}{loc}: {key}{msg}")
        })
    }

    /// A scenario file: read, parsed and its relative paths made absolute (see
    /// [`Scenario::rebase_paths`]).
    pub fn load(path: &std::path::Path) -> Result<Scenario, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read the scenario: {e}", path.display()))?;
        let mut s = Scenario::from_toml(&text, &path.display().to_string())?;
        s.rebase_paths(path.parent().unwrap_or(std::path::Path::new(".")));
        Ok(s)
    }

    /// A scenario from a TOML value (a sweep's run, a Python dict), validated as
    /// [`Scenario::from_toml`] validates a file. Errors are `key: message`.
    pub fn from_value(v: &toml::Value) -> Result<Scenario, String> {
        serde_path_to_error::deserialize(v.clone()).map_err(|e| {
            let path = e.path().to_string();
            let msg = e.into_inner().message().replace('\n', " ");
            if path.is_empty() || path == "." {
                msg
            } else {
                format!("{path}: {msg}")
            }
        })
    }

    /// The scenario file that resolves to `cfg` (experiments write it next to each run's
    /// results, so that `cclab run scenario.toml` repeats the run).
    pub fn from_config(cfg: &SimConfig) -> Scenario {
        let time = |t: Time| {
            let s = if t.0 % 1_000_000 == 0 { format!("{}ms", t.0 / 1_000_000) } else { format!("{}ns", t.0) };
            TimeArg(t, s)
        };
        let rate = |r: Rate| RateArg(r, format!("{}bit", r.bits_per_sec()));
        let buffer = match cfg.link.buffer {
            QueueLimit::Packets(p) => format!("{p}pkts"),
            QueueLimit::Bytes(b) => format!("{b}B"),
            QueueLimit::Bdp(k) => format!("{k}bdp"),
        };
        let netem = cfg.link.netem.to_string();
        let netem_reverse = cfg.link.reverse_netem.to_string();
        let flows = cfg
            .flows
            .iter()
            .map(|f| FlowSpec {
                cc: Some(CcArg(f.transport.clone())),
                count: None,
                rtt: Some(time(f.rtt)),
                start: (f.start > Time::ZERO).then(|| time(f.start)),
                stop: f.stop.map(time),
                size: f.sender.data_limit.map(|b| SizeArg(b, format!("{b}B"))),
                mss: Some(f.sender.mss),
                sack: Some(f.sender.sack),
                prr: Some(f.sender.prr),
                tlp: Some(f.sender.tlp),
                delayed_ack: Some(f.delayed_ack),
                handshake: f.handshake.then_some(true),
                syn_rtt_sample: (!f.syn_rtt_sample).then_some(false),
                initial_window: Some(f.sender.initial_window),
                rwnd: Some(SizeArg(f.sender.rwnd, format!("{}B", f.sender.rwnd))),
                min_rto: Some(time(f.sender.min_rto)),
                pacing: Some(f.sender.pace_window),
                ecn: Some(f.sender.ecn),
                access_rate: f.access_rate.map(rate),
                access_delay: (f.access_delay > Time::ZERO).then(|| time(f.access_delay)),
                app_rate: f.sender.app_rate.map(rate),
                app_schedule: (!f.app_schedule.is_empty()).then(|| {
                    f.app_schedule
                        .iter()
                        .map(|&(at, r)| AppStep {
                            at: Some(time(at)),
                            rate: Some(AppRateArg(r, r.map_or("unlimited".into(), |r| format!("{}bit", r.bits_per_sec())))),
                        })
                        .collect()
                }),
                receiver: f.attack.is_some().then(|| ReceiverSpec::of(f.attack)),
                defences: Some(DefencesSpec::of(f.sender.defences)),
                startup: (f.sender.startup != Startup::Controller).then(|| StartupArg(f.sender.startup.clone())),
            })
            .collect();
        Scenario {
            name: None,
            seed: Some(cfg.seed),
            duration: Some(time(cfg.duration)),
            interval: cfg.sample_interval.map(time),
            link: LinkSpec {
                // A trace sets the capacity; the file gives one or the other.
                rate: cfg.link.trace.is_none().then(|| rate(cfg.link.rate)),
                buffer: Some(BufferArg(cfg.link.buffer, buffer)),
                queue: Some(QueueArg(cfg.link.qdisc.clone())),
                // Absolute, since the written file is read from another directory.
                trace: cfg.link.trace.as_ref().map(|t| {
                    std::fs::canonicalize(&t.name).map_or_else(|_| t.name.clone(), |p| p.display().to_string())
                }),
                netem: (!netem.is_empty()).then_some(netem),
                netem_reverse: (!netem_reverse.is_empty()).then_some(netem_reverse),
                send_overhead: cfg.link.send_overhead.map(time),
                host_jitter: cfg.link.host_jitter.map(time),
                host_noise: (!cfg.link.host_noise.is_off()).then(|| cfg.link.host_noise.to_string()),
                drop_packets: (!cfg.link.drop_packets.is_empty()).then(|| cfg.link.drop_packets.clone()),
                policer: cfg.link.policer.map(|p| p.to_string()),
                loss: None,
                schedule: (!cfg.link.schedule.is_empty()).then(|| {
                    cfg.link.schedule.iter().map(|&(at, r)| ScheduleStep { at: Some(time(at)), rate: Some(rate(r)) }).collect()
                }),
            },
            defaults: FlowSpec::default(),
            flows: Some(flows),
        }
    }

    /// Resolves the relative paths in the scenario (trace files) against `dir`, the directory
    /// of the scenario file, to absolute ones, so that the scenario a run writes next to its
    /// results still names the same files when read from there.
    pub fn rebase_paths(&mut self, dir: &std::path::Path) {
        if let Some(t) = &mut self.link.trace {
            if std::path::Path::new(t.as_str()).is_relative() {
                let joined = dir.join(&*t);
                *t = std::fs::canonicalize(&joined).unwrap_or(joined).display().to_string();
            }
        }
    }

    /// `self` with everything `over` sets replacing what `self` says (flags over a file).
    pub fn overlay(mut self, over: &Scenario) -> Scenario {
        macro_rules! take {
            ($dst:expr, $src:expr) => {
                if $src.is_some() {
                    $dst = $src.clone();
                }
            };
        }
        take!(self.name, over.name);
        take!(self.seed, over.seed);
        take!(self.duration, over.duration);
        take!(self.interval, over.interval);
        take!(self.link.rate, over.link.rate);
        take!(self.link.buffer, over.link.buffer);
        take!(self.link.queue, over.link.queue);
        take!(self.link.trace, over.link.trace);
        take!(self.link.netem, over.link.netem);
        take!(self.link.loss, over.link.loss);
        take!(self.link.netem_reverse, over.link.netem_reverse);
        take!(self.link.send_overhead, over.link.send_overhead);
        take!(self.link.host_jitter, over.link.host_jitter);
        take!(self.link.host_noise, over.link.host_noise);
        take!(self.link.drop_packets, over.link.drop_packets);
        take!(self.link.policer, over.link.policer);
        take!(self.link.schedule, over.link.schedule);
        self.defaults = over.defaults.or(&self.defaults);
        take!(self.flows, over.flows);
        self
    }

    /// Resolves defaults and units into the simulator's configuration.
    pub fn resolve(&self) -> Result<SimConfig, String> {
        let duration = self.duration.as_ref().map_or_else(|| parse_time(DEFAULT_DURATION).unwrap(), |d| d.0);
        if duration == Time::ZERO {
            return Err("duration: must be positive".into());
        }
        // The default 100 ms, or the whole run when it is shorter.
        let interval = self.interval.as_ref().map_or(Time::from_millis(100).min(duration), |d| d.0);
        if interval == Time::ZERO {
            return Err("interval: must be positive".into());
        }
        let link = self.resolve_link()?;
        let specs = self.flows.as_deref().unwrap_or(&[]);
        if specs.is_empty() {
            return Err("flows: the scenario has no flows; add [[flows]] entries or pass --cc".into());
        }
        let mut flows = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let f = spec.or(&self.defaults);
            let count = f.count.unwrap_or(1);
            if count == 0 {
                return Err(format!("flows[{i}].count: must be at least 1"));
            }
            if flows.len() + count as usize > sim::config::limits::MAX_FLOWS {
                return Err(format!("flows[{i}].count: more than the {} flows allowed in one run", sim::config::limits::MAX_FLOWS));
            }
            let flow = resolve_flow(&f, i)?;
            for _ in 0..count {
                flows.push(flow.clone());
            }
        }
        let cfg = SimConfig { seed: self.seed.unwrap_or(1), duration, sample_interval: Some(interval), link, flows };
        cfg.validate()?;
        Ok(cfg)
    }

    fn resolve_link(&self) -> Result<LinkConfig, String> {
        let l = &self.link;
        let mut netem = match &l.netem {
            Some(s) => Netem::parse(s).map_err(|e| format!("link.netem: {e}"))?,
            None => Netem::default(),
        };
        if let Some(p) = &l.loss {
            if netem.loss != LossSpec::None {
                return Err("link.loss: the netem string already sets a loss; give one of the two".into());
            }
            netem.loss = LossSpec::Random { p: p.0, correlation: 0.0 };
        }
        if l.trace.is_some() && l.rate.is_some() {
            return Err("link.rate: the trace (link.trace) sets the capacity; give one of the two".into());
        }
        let schedule = resolve_steps("link.schedule", l.schedule.as_deref().unwrap_or_default(), |s| (s.at.as_ref(), s.rate.as_ref().map(|r| r.0)), RATE_FORMS)?;
        Ok(LinkConfig {
            rate: l.rate.as_ref().map_or_else(|| parse_rate(DEFAULT_RATE).unwrap(), |r| r.0),
            schedule,
            buffer: l.buffer.as_ref().map_or(QueueLimit::Bdp(1.0), |b| b.0),
            send_overhead: l.send_overhead.as_ref().map(|t| t.0),
            host_jitter: l.host_jitter.as_ref().map(|t| t.0),
            host_noise: match &l.host_noise {
                Some(s) => HostNoise::parse(s).map_err(|e| format!("link.host_noise: {e}"))?,
                None => HostNoise::OFF,
            },
            drop_packets: l.drop_packets.clone().unwrap_or_default(),
            policer: match &l.policer {
                Some(s) => Some(PolicerConfig::parse(s).map_err(|e| format!("link.policer: {e}"))?),
                None => None,
            },
            reverse_netem: match &l.netem_reverse {
                Some(s) => Netem::parse(s).map_err(|e| format!("link.netem_reverse: {e}"))?,
                None => Netem::default(),
            },
            qdisc: l.queue.as_ref().map_or(QdiscConfig::DropTail, |q| q.0.clone()),
            trace: match &l.trace {
                Some(path) => {
                    let text = std::fs::read_to_string(path).map_err(|e| format!("link.trace: cannot read `{path}`: {e}"))?;
                    Some(Trace::parse(path, &text).map_err(|e| format!("link.trace: {e}"))?)
                }
                None => None,
            },
            netem,
        })
    }
}

/// A schedule's steps (`link.schedule`, a flow's `app_schedule`): each step's time and value,
/// both required, in time order. Errors name `key[i]` and the field.
fn resolve_steps<S, V>(key: &str, steps: &[S], fields: impl Fn(&S) -> (Option<&TimeArg>, Option<V>), forms: &str) -> Result<Vec<(Time, V)>, String> {
    let mut out: Vec<(Time, V)> = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let (at, value) = fields(step);
        let at = at.ok_or_else(|| format!("{key}[{i}].at: missing; {TIME_FORMS}"))?;
        let value = value.ok_or_else(|| format!("{key}[{i}].rate: missing; {forms}"))?;
        if out.last().is_some_and(|&(t, _)| t > at.0) {
            return Err(format!("{key}[{i}].at: steps must be in time order"));
        }
        out.push((at.0, value));
    }
    Ok(out)
}

fn resolve_flow(f: &FlowSpec, i: usize) -> Result<FlowConfig, String> {
    let transport = f
        .cc
        .as_ref()
        .ok_or_else(|| format!("flows[{i}].cc: missing; allowed: {}", transport_names().join(", ")))?
        .0
        .clone();
    let rtt = f.rtt.as_ref().map_or_else(|| parse_time(DEFAULT_RTT).unwrap(), |t| t.0);
    // Ranges are checked with the whole configuration (`SimConfig::validate`).
    let mut sender = SenderConfig::default();
    if let Some(mss) = f.mss {
        sender.mss = mss;
    }
    if let Some(iw) = f.initial_window {
        sender.initial_window = iw;
    }
    if let Some(r) = &f.rwnd {
        sender.rwnd = r.0;
    }
    if let Some(t) = &f.min_rto {
        sender.min_rto = t.0;
    }
    sender.sack = f.sack.unwrap_or(true);
    sender.prr = f.prr.unwrap_or(true);
    sender.tlp = f.tlp.unwrap_or(true);
    sender.pace_window = f.pacing.unwrap_or(false);
    sender.ecn = f.ecn.unwrap_or(false);
    sender.data_limit = f.size.as_ref().map(|s| s.0);
    sender.app_rate = f.app_rate.as_ref().map(|r| r.0);
    sender.defences = f.defences.as_ref().map_or_else(Defences::default, DefencesSpec::resolve);
    sender.startup = f.startup.as_ref().map_or(Startup::Controller, |s| s.0.clone());
    let app_schedule = resolve_steps(&format!("flows[{i}].app_schedule"), f.app_schedule.as_deref().unwrap_or_default(), |s| (s.at.as_ref(), s.rate.as_ref().map(|r| r.0)), APP_RATE_FORMS)?;
    let attack = match &f.receiver {
        Some(r) => r.resolve().map_err(|e| format!("flows[{i}].receiver.{e}"))?,
        None => None,
    };
    Ok(FlowConfig {
        attack,
        app_schedule,
        transport,
        rtt,
        start: f.start.as_ref().map_or(Time::ZERO, |t| t.0),
        stop: f.stop.as_ref().map(|t| t.0),
        sender,
        delayed_ack: f.delayed_ack.unwrap_or(false),
        handshake: f.handshake.unwrap_or(false),
        syn_rtt_sample: f.syn_rtt_sample.unwrap_or(true),
        access_rate: f.access_rate.as_ref().map(|r| r.0),
        access_delay: f.access_delay.as_ref().map_or(Time::ZERO, |t| t.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Scenario::from_toml(text, "s.toml").and_then(|s| s.resolve()).unwrap_err()
    }

    /// The configuration `text` resolves to, after checking that writing it back as a
    /// scenario resolves to the same.
    fn written_back(text: &str) -> SimConfig {
        let cfg = Scenario::from_toml(text, "s.toml").unwrap().resolve().unwrap();
        let again = toml::to_string_pretty(&Scenario::from_config(&cfg)).unwrap();
        assert_eq!(Scenario::from_toml(&again, "again.toml").unwrap().resolve().unwrap(), cfg, "{again}");
        cfg
    }

    #[test]
    fn a_full_scenario_resolves() {
        let s = Scenario::from_toml(
            r#"
seed = 7
duration = "30s"
[link]
rate = "10mbit"
buffer = "50pkts"
netem = "delay 5ms loss 1%"
schedule = [{ at = "10s", rate = "5mbit" }]
[defaults]
rtt = "60ms"
[[flows]]
cc = "newreno"
count = 2
[[flows]]
cc = { algorithm = "reno" }
rtt = "120ms"
start = "5s"
size = "1MB"
sack = false
tlp = false
syn_rtt_sample = false
"#,
            "s.toml",
        )
        .unwrap();
        let c = s.resolve().unwrap();
        assert!(c.flows[0].sender.prr && c.flows[0].sender.tlp && !c.flows[2].sender.tlp);
        assert!(c.flows[0].syn_rtt_sample && !c.flows[2].syn_rtt_sample);
        assert_eq!(c.seed, 7);
        assert_eq!(c.flows.len(), 3);
        assert_eq!(c.flows[0].rtt, Time::from_millis(60));
        assert_eq!(c.flows[2].rtt, Time::from_millis(120));
        assert_eq!(c.flows[2].sender.data_limit, Some(1_000_000));
        assert!(!c.flows[2].sender.sack);
        assert_eq!(c.link.buffer, QueueLimit::Packets(50));
        assert_eq!(c.link.schedule.len(), 1);
    }

    #[test]
    fn unknown_key_is_named_with_its_position() {
        let e = err("[link]\nrat = \"40mbit\"\n");
        assert!(e.starts_with("s.toml:2:1: link.rat: unknown field `rat`"), "{e}");
        assert!(e.contains("`rate`") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn wrong_units_name_the_key_and_the_allowed_forms() {
        let e = err("[link]\nrate = \"40 parsecs\"\n[[flows]]\ncc = \"reno\"\n");
        assert!(e.contains("link.rate") && e.contains("parsecs") && e.contains("40mbit"), "{e}");
        // `40mbps` is accepted as megabits.
        let ok = Scenario::from_toml("[link]\nrate = \"40mbps\"\n[[flows]]\ncc = \"reno\"\n", "s").unwrap();
        assert_eq!(ok.resolve().unwrap().link.rate.bits_per_sec(), 40e6);
    }

    #[test]
    fn negative_durations_empty_flows_and_bad_algorithms_are_rejected() {
        assert!(err("duration = \"-5s\"\n[[flows]]\ncc = \"reno\"\n").contains("duration: `-5s` is negative"));
        assert!(err("flows = []\n").contains("flows"));
        let e = err("[[flows]]\ncc = \"vegaz\"\n");
        assert!(e.contains("flows[0].cc") && e.contains("vegaz") && e.contains("newreno"), "{e}");
        let e = err("[[flows]]\ncc = { algorithm = \"reno\", beta = 0.7 }\n");
        assert!(e.contains("beta"), "{e}");
        assert!(err("[[flows]]\ncc = \"reno\"\nstart = \"10s\"\nstop = \"5s\"\n").contains("flows[0].stop"));
        assert!(err("duration = 60\n").contains("expected a time"));
    }

    #[test]
    fn a_config_written_back_as_a_scenario_resolves_to_itself() {
        let s = Scenario::from_toml(
            "seed = 3\nduration = \"12s\"\n[link]\nrate = \"25mbit\"\nbuffer = \"0.5bdp\"\nqueue = \"codel\"\nnetem = \"delay 10ms 2ms 25% loss 0.5%\"\nschedule = [{ at = \"5s\", rate = \"5mbit\" }]\n[[flows]]\ncc = { algorithm = \"cubic\", beta = 0.8 }\nrtt = \"70ms\"\nstart = \"1s\"\nsize = \"3MB\"\nsack = false\n[[flows]]\ncc = \"bbr\"\n",
            "s.toml",
        )
        .unwrap();
        let cfg = s.resolve().unwrap();
        let text = toml::to_string_pretty(&Scenario::from_config(&cfg)).unwrap();
        let again = Scenario::from_toml(&text, "again.toml").unwrap().resolve().unwrap();
        assert_eq!(again, cfg, "{text}");
    }

    #[test]
    fn host_noise_is_a_link_key_written_back_only_when_on() {
        let s = Scenario::from_toml("[link]\nhost_noise = \"vm every 20ms\"\n[[flows]]\ncc = \"reno\"\n", "s.toml").unwrap();
        let cfg = s.resolve().unwrap();
        assert_eq!(cfg.link.host_noise.stall_every, Time::from_millis(20));
        assert_eq!(cfg.link.host_noise.stall_max, sim::hostnoise::VM_STALL_MAX);
        let text = toml::to_string_pretty(&Scenario::from_config(&cfg)).unwrap();
        assert_eq!(Scenario::from_toml(&text, "again.toml").unwrap().resolve().unwrap(), cfg, "{text}");
        let off = Scenario::from_toml("[[flows]]\ncc = \"reno\"\n", "s.toml").unwrap().resolve().unwrap();
        assert!(!toml::to_string_pretty(&Scenario::from_config(&off)).unwrap().contains("host_noise"));
        let e = err("[link]\nhost_noise = \"latency 2s\"\n[[flows]]\ncc = \"reno\"\n");
        assert!(e.contains("link.host_noise: latency: 2s is outside"), "{e}");
        let e = err("[link]\nhost_noise = \"quiet\"\n[[flows]]\ncc = \"reno\"\n");
        assert!(e.contains("link.host_noise: `quiet` is not a preset"), "{e}");
    }

    #[test]
    fn a_policer_is_a_link_key_written_back_and_checked() {
        let cfg = written_back("[link]\npolicer = \"rate 10mbit burst 30KB\"\n[[flows]]\ncc = \"bbr\"\n");
        let p = cfg.link.policer.expect("policer");
        assert_eq!((p.rate.bits_per_sec(), p.burst), (10e6, 30_000));
        let e = err("[link]\npolicer = \"rate 10mbit\"\n[[flows]]\ncc = \"bbr\"\n");
        assert_eq!(e, "link.policer: `burst B` is required (e.g. `rate 10mbit burst 30KB`)");
        let e = err("[link]\npolicer = \"rate 10mbit burst 1KB\"\n[[flows]]\ncc = \"bbr\"\n");
        assert!(e.starts_with("link.policer.burst: from one packet (1500 bytes on the wire)"), "{e}");
    }

    #[test]
    fn a_drop_list_is_a_link_key_written_back_and_checked() {
        let cfg = written_back("[link]\ndrop_packets = [30, 31]\n[[flows]]\ncc = \"reno\"\n");
        assert_eq!(cfg.link.drop_packets, vec![30, 31]);
        for bad in ["[31, 30]", "[30, 30]", "[0]"] {
            let e = err(&format!("[link]\ndrop_packets = {bad}\n[[flows]]\ncc = \"reno\"\n"));
            assert_eq!(e, "link.drop_packets: arrival numbers must be increasing and start at 1 (the link's first packet)", "{bad}");
        }
        assert!(err("[link]\ndrop_packets = [-3]\n[[flows]]\ncc = \"reno\"\n").contains("drop_packets"));
    }

    #[test]
    fn an_application_rate_and_its_steps_write_back_and_are_checked() {
        let cfg = written_back(
            "duration = \"30s\"\n[[flows]]\ncc = \"bbr\"\napp_rate = \"10mbit\"\napp_schedule = [{ at = \"10s\", rate = \"2mbit\" }, { at = \"20s\", rate = \"unlimited\" }]\n",
        );
        assert_eq!(cfg.flows[0].sender.app_rate, Some(Rate::from_bits_per_sec(10e6)));
        assert_eq!(cfg.flows[0].app_schedule, vec![(Time::from_secs(10), Some(Rate::from_bits_per_sec(2e6))), (Time::from_secs(20), None)]);
        let flow = |keys: &str| err(&format!("[[flows]]\ncc = \"reno\"\n{keys}\n"));
        assert!(flow("app_rate = \"fast\"").ends_with("flows[0].app_rate: `fast` is not a rate like 40mbit, 40Mbps, 1gbit, 500kbit or 2e6bit"));
        assert!(flow("app_schedule = [{ at = \"1s\", rate = \"lots\" }]").contains("`lots` is not a rate like 10mbit or 500kbit, or `unlimited`"));
        assert_eq!(flow("app_schedule = [{ at = \"1s\" }]"), format!("flows[0].app_schedule[0].rate: missing; {APP_RATE_FORMS}"));
        assert_eq!(flow("app_schedule = [{ at = \"2s\", rate = \"1mbit\" }, { at = \"1s\", rate = \"1mbit\" }]"), "flows[0].app_schedule[1].at: steps must be in time order");
        assert_eq!(flow("start = \"5s\"\napp_schedule = [{ at = \"1s\", rate = \"1mbit\" }]"), "flows[0].app_schedule[0].at: 1s is before the flow's start (5s)");
        assert_eq!(
            err("[[flows]]\ncc = \"udt\"\napp_rate = \"1mbit\"\n"),
            "flows[0].app_rate: only a TCP flow takes an application rate; `udt` sends at its own"
        );
    }

    #[test]
    fn an_access_delay_writes_back_and_is_checked() {
        let cfg = written_back("[[flows]]\ncc = \"reno\"\nrtt = \"100ms\"\naccess_delay = \"50ms\"\n[[flows]]\ncc = \"reno\"\n");
        assert_eq!((cfg.flows[0].access_delay, cfg.flows[1].access_delay), (Time::from_millis(50), Time::ZERO));
        assert_eq!(
            err("[[flows]]\ncc = \"reno\"\nrtt = \"100ms\"\naccess_delay = \"60ms\"\n"),
            "flows[0].access_delay: 60ms is more than the forward half of the RTT (50ms); allowed 0 to rtt/2"
        );
        assert!(err("[[flows]]\ncc = \"reno\"\naccess_delay = \"soon\"\n").contains("flows[0].access_delay: `soon`"));
    }

    #[test]
    fn receivers_and_defences_write_back_and_are_checked() {
        let s = Scenario::from_toml(
            "[[flows]]\ncc = \"reno\"\nreceiver = { attack = \"ack-division\", split = 10 }\ndefences = { abc = true, nonce = true }\n[[flows]]\ncc = \"reno\"\nreceiver = { attack = \"optimistic-ack\", lead = 20 }\n[[flows]]\ncc = \"cubic\"\nreceiver = { attack = \"dup-ack-spoofing\", count = 5 }\n[[flows]]\ncc = \"bbr\"\nreceiver = { attack = \"honest\" }\n",
            "s.toml",
        )
        .unwrap();
        let cfg = s.resolve().unwrap();
        assert_eq!(cfg.flows[0].attack, Some(Misbehaviour::AckDivision { split: 10 }));
        assert_eq!(cfg.flows[0].sender.defences, Defences { abc: true, nonce: true, ..Defences::default() });
        assert_eq!(cfg.flows[1].attack, Some(Misbehaviour::OptimisticAck { lead: 20 }));
        assert_eq!(cfg.flows[2].attack, Some(Misbehaviour::DupAckSpoofing { count: 5 }));
        assert_eq!(cfg.flows[3].attack, None);
        let text = toml::to_string_pretty(&Scenario::from_config(&cfg)).unwrap();
        assert_eq!(Scenario::from_toml(&text, "again.toml").unwrap().resolve().unwrap(), cfg, "{text}");
        let bad = |r: &str| err(&format!("[[flows]]\ncc = \"reno\"\nreceiver = {r}\n"));
        assert!(bad("{ attack = \"ack-division\", split = 1 }").contains("flows[0].receiver.split: 1 is outside"), "{}", bad("{ attack = \"ack-division\", split = 1 }"));
        assert!(bad("{ attack = \"ack-division\" }").contains("flows[0].receiver.split: missing"));
        assert!(bad("{ attack = \"ack-division\", lead = 3 }").contains("receiver.lead: not a parameter"));
        assert!(bad("{ attack = \"optimistic-ack\", lead = 0 }").contains("receiver.lead: 0 is outside"));
        assert!(bad("{ attack = \"dup-ack-spoofing\", count = 0 }").contains("receiver.count: 0 is outside"));
        assert!(bad("{ attack = \"nasty\" }").contains("unknown `nasty`"));
        assert!(err("[[flows]]\ncc = \"udt\"\nreceiver = { attack = \"optimistic-ack\", lead = 3 }\n").contains("needs a TCP flow"));
    }

    #[test]
    fn buffers() {
        assert_eq!(parse_buffer("1bdp").unwrap(), QueueLimit::Bdp(1.0));
        assert_eq!(parse_buffer("0.5 BDP").unwrap(), QueueLimit::Bdp(0.5));
        assert_eq!(parse_buffer("100pkts").unwrap(), QueueLimit::Packets(100));
        assert_eq!(parse_buffer("150KB").unwrap(), QueueLimit::Bytes(150_000));
        assert!(parse_buffer("lots").is_err());
        assert!(parse_buffer("-1bdp").is_err());
        assert!(parse_buffer("7").unwrap_err().contains("needs a unit"));
    }

    #[test]
    fn startup_by_name_or_table_writes_back_and_is_checked() {
        let text = "[[flows]]\ncc = \"reno\"\nstartup = \"paced-chirping\"\n[[flows]]\ncc = \"cubic\"\nstartup = { type = \"paced-chirping\", geometry = 1.5 }\n[[flows]]\ncc = \"bbr\"\n";
        let cfg = Scenario::from_toml(text, "s.toml").unwrap().resolve().unwrap();
        assert_eq!(cfg.flows[0].sender.startup, Startup::PacedChirping(cc::transport::ChirpConfig::default()));
        let Startup::PacedChirping(c) = &cfg.flows[1].sender.startup else { panic!("not chirping") };
        assert_eq!(c.geometry, 1.5);
        assert_eq!(cfg.flows[2].sender.startup, Startup::Controller);
        // The written scenario resolves to the same configuration.
        let back = toml::to_string(&Scenario::from_config(&cfg)).unwrap();
        assert_eq!(Scenario::from_toml(&back, "w.toml").unwrap().resolve().unwrap().flows, cfg.flows);
        let bad = |v: &str| err(&format!("[[flows]]\ncc = \"reno\"\nstartup = {v}\n"));
        assert!(bad("\"chirp\"").contains("unknown start-up `chirp`; allowed: controller, paced-chirping"), "{}", bad("\"chirp\""));
        assert!(bad("{ type = \"paced-chirping\", geometry = 5.0 }").contains("flows[0].startup.geometry: 5 is outside"), "{}", bad("{ type = \"paced-chirping\", geometry = 5.0 }"));
        let bbr = err("[[flows]]\ncc = \"bbr\"\nstartup = \"paced-chirping\"\n");
        assert!(bbr.contains("flows[0].startup: `paced-chirping` needs a window-based controller"), "{bbr}");
    }

    #[test]
    fn receiver_and_defences_flags_read_as_the_keys() {
        let r = ReceiverSpec::from_flag("ack-division:10").unwrap();
        assert_eq!(r.resolve().unwrap(), Some(Misbehaviour::AckDivision { split: 10 }));
        assert_eq!(ReceiverSpec::from_flag("honest").unwrap().resolve().unwrap(), None);
        assert!(ReceiverSpec::from_flag("optimistic-ack").unwrap_err().contains("lead: missing"));
        assert!(ReceiverSpec::from_flag("ack-division:x").unwrap_err().contains("not a whole number"));
        assert!(ReceiverSpec::from_flag("nice").unwrap_err().contains("unknown `nice`"));
        assert_eq!(DefencesSpec::from_flag("none").unwrap().resolve(), Defences::NONE);
        assert_eq!(DefencesSpec::from_flag("all").unwrap().resolve(), Defences::ALL);
        assert_eq!(DefencesSpec::from_flag("abc, nonce").unwrap().resolve(), Defences { abc: true, new_data_only: false, dupack_limit: false, nonce: true });
        assert!(DefencesSpec::from_flag("abc,magic").unwrap_err().contains("unknown defence `magic`"));
    }
}
