//! The names people write for the algorithms and protocols, for legends and reports: the
//! spelling of each one's paper or RFC ("NewReno", "CUBIC", "H-TCP"), where the scenario files
//! use the Linux module's lower-case name (`newreno`, `cubic`, `htcp`). `none` is seed 003's
//! SACKEXP (TCP SACK without congestion control).

/// The written name of the algorithm or protocol `name` (as in `algorithm = "..."`); a name
/// not in the list is returned as it is.
pub fn display_name(name: &str) -> &str {
    match name {
        "tahoe" => "Tahoe",
        "reno" => "Reno",
        "newreno" => "NewReno",
        "none" => "SACKEXP",
        "scalable" => "Scalable",
        "highspeed" => "HighSpeed",
        "vegas" => "Vegas",
        "mvegas" => "mVegas",
        "veno" => "Veno",
        "yeah" => "YeAH",
        "illinois" => "Illinois",
        "compound" => "Compound",
        "lp" => "TCP-LP",
        "nv" => "TCP-NV",
        "cdg" => "CDG",
        "bic" => "BIC",
        "cubic" => "CUBIC",
        "htcp" => "H-TCP",
        "hybla" => "Hybla",
        "westwood" => "Westwood+",
        "dctcp" => "DCTCP",
        "bbr" => "BBR",
        "bbr3" => "BBRv3",
        "sabul" => "SABUL",
        "udt" => "UDT",
        "tfrc" => "TFRC",
        "cbr" => "CBR",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every algorithm `cclab list` prints has a written name of its own.
    #[test]
    fn every_algorithm_has_a_written_name() {
        for a in crate::ALGORITHMS {
            assert_ne!(display_name(a.name), a.name, "{} has no written name", a.name);
        }
        assert_eq!(display_name("none"), "SACKEXP");
        assert_eq!(display_name("somebody's own"), "somebody's own");
    }
}
