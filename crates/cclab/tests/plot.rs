//! `cclab plot RESULTS_DIR` as a user runs it: the plots decode, the report is one
//! self-contained file, and a real browser (Debian's `chromium`, headless) loads it with
//! every image.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn cclab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cclab")).args(args).output().expect("cclab runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The plots a two-flow window-based run has (no pacing plot: neither flow paces), each with
/// its title.
const PLOTS: [(&str, &str); 5] = [
    ("cwnd", "Congestion window and slow-start threshold per flow"),
    ("goodput", "Goodput (delivered in order) per flow and in aggregate"),
    ("queue", "Bottleneck queue (drop-tail)"),
    ("phase", "Phase graph: flow 0: Reno against flow 1: CUBIC"),
    ("throughput-delay", "Goodput against 95th-percentile RTT per flow"),
];

/// `cclab run --cc reno,cubic --flows 2 --duration 10s --out DIR`, then `cclab plot DIR`;
/// returns the paths `cclab plot` printed.
fn run_and_plot(dir: &Path) -> Vec<PathBuf> {
    let d = dir.to_str().unwrap();
    let o = cclab(&["run", "--cc", "reno,cubic", "--flows", "2", "--duration", "10s", "--out", d, "--quiet"]);
    assert!(o.status.success(), "cclab run: {}", text(&o.stderr));
    let o = cclab(&["plot", d]);
    assert!(o.status.success(), "cclab plot: {}", text(&o.stderr));
    text(&o.stdout).lines().map(PathBuf::from).collect()
}

/// Width and height from a PNG's IHDR, after checking that the whole image decodes.
fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(buf.iter().any(|&b| b != 255), "{}: blank image", path.display());
    (info.width, info.height)
}

/// `width` and `height` of an SVG's root element.
fn svg_size(svg: &str) -> (u32, u32) {
    let root = &svg[..svg.find('>').unwrap()];
    let attr = |name: &str| -> u32 {
        let start = root.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("no {name} in {root}")) + name.len() + 3;
        root[start..].split('"').next().unwrap().parse().unwrap()
    };
    (attr("width"), attr("height"))
}

#[test]
fn plot_draws_png_and_svg_of_every_plot_and_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let printed = run_and_plot(dir);
    let mut want: Vec<PathBuf> = PLOTS
        .iter()
        .flat_map(|(name, _)| ["png", "svg"].map(|ext| dir.join("plots").join(format!("{name}.{ext}"))))
        .collect();
    want.push(dir.join("report.html"));
    assert_eq!(printed, want, "the paths printed");

    for (name, title) in PLOTS {
        let png = dir.join("plots").join(format!("{name}.png"));
        let svg_path = dir.join("plots").join(format!("{name}.svg"));
        let (w, h) = png_size(&png);
        assert!(w >= 800 && h >= 600, "{name}.png is {w}x{h}");
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        assert!(svg.starts_with("<svg "), "{name}.svg: {}", &svg[..60.min(svg.len())]);
        assert!(svg.trim_end().ends_with("</svg>"), "{name}.svg is closed");
        assert!(svg.contains(title), "{name}.svg lacks its title `{title}`");
        assert_eq!(svg_size(&svg), (w, h), "{name}: the SVG and the PNG are the same size");
    }

    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(html.matches("<img src=\"data:image/png;base64,").count(), PLOTS.len());
    for banned in ["http://", "https://", "src=\"file", "src=\"/", "src=\"plots"] {
        assert!(!html.contains(banned), "`{banned}` in report.html");
    }
    for want in ["reno", "cubic", "goodput", "Jain", "[[flows]]"] {
        assert!(html.contains(want), "`{want}` missing from report.html");
    }

    // Same data, same bytes.
    let before: Vec<Vec<u8>> = want.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let o = cclab(&["plot", dir.to_str().unwrap()]);
    assert!(o.status.success());
    for (p, b) in want.iter().zip(&before) {
        assert!(std::fs::read(p).unwrap() == *b, "{} differs when drawn again", p.display());
    }
}

#[test]
fn plot_of_a_missing_or_incomplete_directory_is_a_user_error() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nothing-here");
    let cases = [(missing.clone(), "no such results directory"), (tmp.path().to_path_buf(), "summary.json: missing")];
    for (dir, msg) in cases {
        let o = cclab(&["plot", dir.to_str().unwrap()]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("error: ") && err.contains(msg), "{err}");
    }
    std::fs::write(tmp.path().join("summary.json"), "{}").unwrap();
    let o = cclab(&["plot", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

fn find_on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).flat_map(|d| names.iter().map(move |n| d.join(n))).find(|p| p.is_file())
}

/// Runs `cmd` to completion or kills it after `limit`; returns (stdout, stderr).
fn output_within(mut cmd: Command, limit: Duration) -> (String, String) {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the browser starts");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the browser did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (text(&reader.join().unwrap()), text(&err_reader.join().unwrap()))
}

fn body_attr(dom: &str, name: &str) -> Option<usize> {
    let body = &dom[dom.find("<body")?..];
    let body = &body[..body.find('>')?];
    let start = body.find(&format!("{name}=\""))? + name.len() + 2;
    body[start..].split('"').next()?.parse().ok()
}

#[test]
fn report_loads_in_headless_chromium_with_every_image() {
    if std::env::var_os("CCLAB_NO_BROWSER").is_some() {
        eprintln!("SKIPPED: CCLAB_NO_BROWSER is set, so report.html was NOT rendered in a browser (unset it and install Debian's `chromium` package to run this check)");
        return;
    }
    let Some(browser) = find_on_path(&["chromium", "chromium-browser"]) else {
        panic!("`chromium` is not on PATH: install Debian's `chromium` package (apt-get install -y chromium) to render report.html headless, or set CCLAB_NO_BROWSER=1 to skip this check");
    };
    let tmp = tempfile::tempdir().unwrap();
    run_and_plot(tmp.path());
    let report = tmp.path().join("report.html").canonicalize().unwrap();
    let html = std::fs::read_to_string(&report).unwrap();
    let images = html.matches("<img ").count();
    assert_eq!(images, PLOTS.len());

    let profile = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(&browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .arg("--dump-dom")
    .arg(format!("file://{}", report.display()));
    let (dom, err) = output_within(cmd, Duration::from_secs(180));
    assert!(dom.contains("<body"), "no DOM from {}; stderr:\n{err}", browser.display());
    assert_eq!(dom.matches("<img ").count(), images, "every <img> in the DOM");
    assert_eq!(body_attr(&dom, "data-images"), Some(images), "the report's load script ran; stderr:\n{err}");
    assert_eq!(body_attr(&dom, "data-images-loaded"), Some(images), "every image decoded in the browser");
}
