//! `cclab serve` and `cclab send` as a user runs them, on loopback: iperf3-style lines and
//! JSON, cclab's files (which `cclab plot` reads), and one-line errors for bad flags.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn cclab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cclab")).args(args).output().expect("cclab runs")
}

/// A `cclab serve -1` on a free loopback port, killed when dropped (also on a failed test).
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let port = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let p = port.to_string();
        let mut args = vec!["serve", "--bind", "127.0.0.1", "--port", &p, "-1"];
        args.extend_from_slice(extra);
        let child = Command::new(env!("CARGO_BIN_EXE_cclab")).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(200));
        Server { child, port }
    }

    /// Waits (at most 10 s) for the server to leave after its client, and returns its output.
    fn finish(mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                let out = std::mem::replace(&mut self.child, Command::new("true").spawn().unwrap()).wait_with_output().unwrap();
                return String::from_utf8_lossy(&out.stdout).into_owned();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the server did not leave after its one client");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn assert_user_error(o: &Output, must_contain: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for m in must_contain {
        assert!(err.contains(m), "`{m}` missing from: {err}");
    }
}

#[test]
fn send_prints_interval_lines_and_a_clean_integrity_line() {
    let server = Server::start(&[]);
    let o = cclab(&["send", "127.0.0.1", "--port", &server.port.to_string(), "--cc", "reno", "-t", "2", "-i", "0.5"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    // Four half-second lines, then the totals and the integrity check.
    assert_eq!(out.lines().filter(|l| l.starts_with("[  1]") && l.contains("sec") && l.contains("bit/s")).count(), 4 + 1, "{out}");
    assert!(out.contains("0 lost, 0 corrupted, checksum ok"), "{out}");
    let log = server.finish();
    assert!(log.contains("reno stream 1 of 1") && log.contains("checksum ok"), "{log}");
}

#[test]
fn json_and_out_give_iperf3_shape_and_the_simulators_files() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("real");
    let server = Server::start(&[]);
    let o = cclab(&["send", "127.0.0.1", "--port", &server.port.to_string(), "--cc", "bbr", "-t", "1.5", "-P", "2", "--json", "--out", out_dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(v["start"]["cc"], "bbr");
    assert_eq!(v["start"]["streams"], 2);
    assert!(v["intervals"].as_array().unwrap().len() >= 1);
    assert_eq!(v["end"]["streams"].as_array().unwrap().len(), 2);
    assert_eq!(v["end"]["integrity"]["bytes_lost"], 0);
    assert_eq!(v["end"]["integrity"]["checksum_ok"], true);
    drop(server);
    for f in ["summary.json", "timeseries.csv", "link.csv", "report.json"] {
        assert!(out_dir.join(f).is_file(), "{f}");
    }
    // timeseries.csv has the simulator's columns.
    let sim_dir = dir.path().join("sim");
    let s = cclab(&["run", "--cc", "bbr", "--duration", "1s", "--out", sim_dir.to_str().unwrap()]);
    assert!(s.status.success());
    let header = |p: std::path::PathBuf| std::fs::read_to_string(p).unwrap().lines().next().unwrap().to_string();
    assert_eq!(header(out_dir.join("timeseries.csv")), header(sim_dir.join("timeseries.csv")));
    assert_eq!(header(out_dir.join("link.csv")), header(sim_dir.join("link.csv")));
    let p = cclab(&["plot", out_dir.to_str().unwrap()]);
    assert!(p.status.success(), "{}", String::from_utf8_lossy(&p.stderr));
    let html = std::fs::read_to_string(out_dir.join("report.html")).unwrap();
    assert!(html.contains("over a real network"));
}

#[test]
fn bad_flags_are_one_line_errors() {
    assert_user_error(&cclab(&["send", "127.0.0.1", "--cc", "sabul", "--pacing"]), &["--pacing", "sabul"]);
    assert_user_error(&cclab(&["send", "127.0.0.1", "--cc", "nosuch"]), &["--cc", "unknown algorithm"]);
    assert_user_error(&cclab(&["send", "127.0.0.1", "-t", "0"]), &["--time"]);
    assert_user_error(&cclab(&["send", "127.0.0.1", "-t", "soon"]), &["--time"]);
    assert_user_error(&cclab(&["send", "127.0.0.1", "-P", "0"]), &["--parallel"]);
    assert_user_error(&cclab(&["send", "127.0.0.1", "--mss", "10"]), &["--mss"]);
    assert_user_error(&cclab(&["serve", "--bind", "localhost:1"]), &["--bind"]);
    assert_user_error(&cclab(&["serve", "--max-sessions", "0"]), &["--max-sessions"]);
    // Nobody serves on this port: the handshake gives up with a message, not a hang.
    let port = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    assert_user_error(&cclab(&["send", "127.0.0.1", "--port", &port, "-t", "1"]), &["no answer"]);
}

#[test]
fn out_refuses_a_directory_of_someone_elses_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("thesis.tex"), "mine").unwrap();
    let server = Server::start(&[]);
    let o = cclab(&["send", "127.0.0.1", "--port", &server.port.to_string(), "-t", "1", "--out", dir.path().to_str().unwrap()]);
    assert_user_error(&o, &["--out", "thesis.tex"]);
    assert_eq!(std::fs::read_to_string(dir.path().join("thesis.tex")).unwrap(), "mine");
}
