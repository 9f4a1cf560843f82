//! `report.html`: one self-contained file (CSS, script and images inline, no URL anywhere, a
//! Content-Security-Policy that forbids fetching anything) holding an experiment's or a run's
//! description, parameters, verdicts on the seed's claims, tables and plots.
//!
//! The page is the template `templates/report.html`, rendered by `minijinja` with HTML
//! auto-escaping: this module only gathers the content, in the order it is added.
//!
//! Once the page has loaded, an inline script sets `data-images` (the number of `<img>`
//! elements) and `data-images-loaded` (those that decoded) on `<body>`, so that a headless
//! browser's DOM dump shows whether every image is there.

use crate::finding::Finding;
use crate::plot::PlotFiles;
use crate::verdict::{tally, Claim, Verdict};
use crate::UserError;
use base64::Engine as _;
use serde::Serialize;
use std::path::Path;

const TEMPLATE: &str = include_str!("../templates/report.html");

/// A table cell; numbers are right-aligned.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Cell {
    text: String,
    numeric: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Block {
    Text { paragraphs: Vec<String> },
    Code { text: String },
    Table { title: String, header: Vec<String>, rows: Vec<Vec<Cell>> },
    Image { caption: String, src: String },
    Findings { findings: Vec<Finding> },
    Claims { reference: String, measured: String, claims: Vec<Claim>, explained: Vec<Explained>, notes: Vec<Explained>, holds: usize, judged: usize, not_settled: usize, conforms: usize, fitted: usize, not_comparable: usize },
}

/// The claims that share one verdict and one explanation, listed once.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Explained {
    claims: Vec<String>,
    verdict: Verdict,
    why: String,
}

/// A headed part of the report; blocks appear in the order they are added.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Section {
    heading: String,
    blocks: Vec<Block>,
}

/// The report, built up and then written with [`Report::write`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    title: String,
    description: Vec<String>,
    parameters: Vec<(String, String)>,
    sections: Vec<Section>,
}

fn mime_of(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "png" => Some("image/png"),
        "svg" => Some("image/svg+xml"),
        _ => None,
    }
}

/// Blank lines start new paragraphs.
fn paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()).map(String::from).collect()
}

/// A cell is set as a number (right-aligned) when it starts with a digit after any sign, or
/// with a bound such as "< 0.0001".
fn cell(text: &str) -> Cell {
    let numeric = text.trim_start_matches(['-', '+', '±', '<', '>', '≤', '≥', ' ']).starts_with(|ch: char| ch.is_ascii_digit());
    Cell { text: text.to_string(), numeric }
}

impl Section {
    /// A paragraph (blank lines start new paragraphs).
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.blocks.push(Block::Text { paragraphs: paragraphs(text) });
        self
    }

    /// Preformatted text, e.g. a scenario file.
    pub fn code(&mut self, text: &str) -> &mut Self {
        self.blocks.push(Block::Code { text: text.to_string() });
        self
    }

    pub fn table(&mut self, title: &str, header: &[impl AsRef<str>], rows: &[Vec<String>]) -> &mut Self {
        self.blocks.push(Block::Table {
            title: title.to_string(),
            header: header.iter().map(|h| h.as_ref().to_string()).collect(),
            rows: rows.iter().map(|r| r.iter().map(|c| cell(c)).collect()).collect(),
        });
        self
    }

    /// Inlines a PNG or SVG file (read now).
    pub fn image(&mut self, caption: &str, path: &Path) -> Result<&mut Self, UserError> {
        let mime = mime_of(path).ok_or_else(|| UserError(format!("{}: not a .png or .svg image", path.display())))?;
        let bytes = std::fs::read(path).map_err(|e| UserError(format!("{}: {e}", path.display())))?;
        Ok(self.image_bytes(caption, mime, &bytes))
    }

    /// Inlines an image already in memory; `mime` is `image/png` or `image/svg+xml`.
    pub fn image_bytes(&mut self, caption: &str, mime: &'static str, bytes: &[u8]) -> &mut Self {
        let src = format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes));
        self.blocks.push(Block::Image { caption: caption.to_string(), src });
        self
    }

    /// Each plot's PNG, captioned with its title.
    pub fn plots(&mut self, plots: &[PlotFiles]) -> Result<&mut Self, UserError> {
        for p in plots {
            self.image(&p.title, &p.png)?;
        }
        Ok(self)
    }

    /// The seed's main findings, each with its outcome, the verdict rows that decide it and
    /// what we found (rows coloured by outcome).
    pub fn findings(&mut self, findings: &[Finding]) -> &mut Self {
        self.blocks.push(Block::Findings { findings: findings.to_vec() });
        self
    }

    /// The verdict table: each claim of the seed, ours, the test and the verdict (rows
    /// coloured by verdict), the tally, then why each claim that does not hold differs, what
    /// was fitted and what cannot be compared, and the notes some claims that hold carry (how
    /// far the test reaches, a caveat, a cause). `reference` heads the column of the figures
    /// ours are judged against: "seed", or "kernel" for the simulator against the testbed.
    pub fn claims(&mut self, reference: &str, claims: &[Claim]) -> &mut Self {
        self.claims_as(reference, "ours", claims)
    }

    /// [`Section::claims`] with the third column headed `measured` instead of "ours": for
    /// claims checked on other figures than our runs (a seed's statements on its own runs).
    pub fn claims_as(&mut self, reference: &str, measured: &str, claims: &[Claim]) -> &mut Self {
        let (holds, judged) = tally(claims);
        let count = |v: Verdict| claims.iter().filter(|c| c.verdict == v).count();
        let (mut explained, mut notes): (Vec<Explained>, Vec<Explained>) = (Vec::new(), Vec::new());
        for c in claims.iter().filter(|c| c.verdict != Verdict::Holds || !c.why.is_empty()) {
            let list = if matches!(c.verdict, Verdict::Holds | Verdict::Conforms) { &mut notes } else { &mut explained };
            match list.iter_mut().find(|e| e.verdict == c.verdict && e.why == c.why) {
                Some(e) => e.claims.push(c.claim.clone()),
                None => list.push(Explained { claims: vec![c.claim.clone()], verdict: c.verdict, why: c.why.clone() }),
            }
        }
        self.blocks.push(Block::Claims {
            reference: reference.to_string(),
            measured: measured.to_string(),
            claims: claims.to_vec(),
            explained,
            notes,
            holds,
            judged,
            not_settled: count(Verdict::NotSettled),
            conforms: count(Verdict::Conforms),
            fitted: count(Verdict::Fitted),
            not_comparable: count(Verdict::NotComparable),
        });
        self
    }
}

impl Report {
    pub fn new(title: &str) -> Report {
        Report { title: title.to_string(), description: Vec::new(), parameters: Vec::new(), sections: Vec::new() }
    }

    /// What the experiment or run is (blank lines start new paragraphs).
    pub fn description(&mut self, text: &str) -> &mut Self {
        self.description = paragraphs(text);
        self
    }

    /// One row of the parameters table.
    pub fn parameter(&mut self, key: &str, value: impl std::fmt::Display) -> &mut Self {
        self.parameters.push((key.to_string(), value.to_string()));
        self
    }

    /// Starts a new section and returns it to be filled.
    pub fn section(&mut self, heading: &str) -> &mut Section {
        self.sections.push(Section { heading: heading.to_string(), blocks: Vec::new() });
        self.sections.last_mut().expect("just pushed")
    }

    /// How many images the page holds.
    #[cfg(test)]
    pub fn image_count(&self) -> usize {
        self.sections.iter().flat_map(|s| &s.blocks).filter(|b| matches!(b, Block::Image { .. })).count()
    }

    pub fn to_html(&self) -> Result<String, UserError> {
        let mut env = minijinja::Environment::new();
        let failed = |e: minijinja::Error| UserError(format!("report.html: cannot render the template: {e}"));
        env.add_template("report.html", TEMPLATE).map_err(failed)?;
        env.get_template("report.html").and_then(|t| t.render(minijinja::value::Serde(self))).map_err(failed)
    }

    pub fn write(&self, path: &Path) -> Result<(), UserError> {
        std::fs::write(path, self.to_html()?).map_err(|e| UserError(format!("{}: {e}", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::DelayPoint;

    fn ok<T>(r: Result<T, UserError>) -> T {
        r.unwrap_or_else(|e| panic!("{}", e.0))
    }

    #[test]
    fn numbers_and_bounds_are_set_right_aligned() {
        for text in ["12.5", "-3", "± 0.2", "< 0.0001", "≥ 5"] {
            assert!(cell(text).numeric, "{text}");
        }
        for text in ["Reno", "p < 0.05", "", "-"] {
            assert!(!cell(text).numeric, "{text}");
        }
    }

    fn claims() -> Vec<Claim> {
        vec![
            Claim::value("rate", 10.5, 10.0, "Mbit/s", 0.1, "the model's error"),
            Claim::value("loss", 12.0, 10.0, "%", 0.1, "the model's error").because("our queue is <shorter>"),
            Claim::fitted("speed-up", "3".into(), "3".into(), "the share was fitted to it"),
            Claim::not_comparable("packets", "800k".into(), "199k".into(), "the seed counted both directions"),
            Claim::value("unexplained", 2.0, 1.0, "", 0.1, "m"),
            Claim::value("noted", 1.0, 1.0, "", 0.1, "m").because("it holds as two errors cancel"),
        ]
    }

    fn sample(dir: &Path) -> Report {
        let pts = [DelayPoint { label: "reno".into(), throughput_mbps: 30.0, delay_p95_ms: 180.0, runs: Vec::new() }];
        let plot = ok(crate::plot::throughput_delay(dir, "td", "T & D", ("throughput (Mbit/s)", "p95 delay (ms)"), &pts));
        let mut r = Report::new("A <report>");
        r.description("First.\n\nSecond & last.").parameter("rate", "40 Mbit/s").parameter("seed", 1);
        r.section("Verdicts").claims("seed", &claims());
        r.section("Tables").text("Some text.").table("t", &["a", "b"], &[vec!["1".into(), "<x>".into()]]);
        ok(ok(r.section("Plots").plots(std::slice::from_ref(&plot))).image("the SVG", &plot.svg));
        r
    }

    /// The `src` of every `<img>` in the page.
    fn image_sources(html: &str) -> Vec<&str> {
        html.match_indices("<img ").map(|(i, _)| {
            let rest = &html[i..];
            let start = rest.find("src=\"").expect("img has a src") + 5;
            let end = start + rest[start..].find('"').expect("src is closed");
            &rest[start..end]
        })
        .collect()
    }

    #[test]
    fn every_image_is_inlined_and_nothing_is_fetched() {
        let dir = tempfile::tempdir().unwrap();
        let r = sample(dir.path());
        let html = ok(r.to_html());
        let srcs = image_sources(&html);
        assert_eq!(srcs.len(), 2);
        assert_eq!(r.image_count(), 2);
        let files = [dir.path().join("td.png"), dir.path().join("td.svg")];
        for (src, (file, mime)) in srcs.iter().zip(files.iter().zip(["image/png", "image/svg+xml"])) {
            let data = src.strip_prefix(&format!("data:{mime};base64,")).unwrap_or_else(|| panic!("not a {mime} data URI: {}", &src[..40]));
            let bytes = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
            assert_eq!(bytes, std::fs::read(file).unwrap(), "{} inlined as it is", file.display());
        }
        for banned in ["http://", "https://", "src=\"file", "href=", "url(", "@import", "<link", "<iframe"] {
            assert!(!html.contains(banned), "`{banned}` in the report");
        }
        assert!(html.contains("default-src 'none'"));
    }

    #[test]
    fn text_is_escaped_and_structured() {
        let dir = tempfile::tempdir().unwrap();
        let html = ok(sample(dir.path()).to_html());
        assert!(html.contains("<title>A &lt;report&gt;</title>"), "{html}");
        assert!(html.contains("<p>First.</p>\n<p>Second &amp; last.</p>"), "{html}");
        assert!(html.contains("<tr><th>seed</th><td>1</td></tr>"));
        assert!(html.contains("<td class=\"num\">1</td><td>&lt;x&gt;</td>"));
        assert!(html.contains("<figcaption>T &amp; D</figcaption>"));
        assert!(!html.contains("<x>") && !html.contains("<shorter>"));
    }

    /// Each verdict has its row class; the tally counts neither fitted nor incomparable
    /// claims; every claim that does not hold is explained, or said to be unexplained.
    #[test]
    fn verdicts_are_marked_and_explained() {
        let mut r = Report::new("c");
        r.section("Verdicts").claims("seed", &claims());
        let html = ok(r.to_html());
        let rows: Vec<&str> = html.lines().filter(|l| l.starts_with("<tr class=")).collect();
        assert_eq!(rows.len(), 6, "{html}");
        for (row, class) in rows.iter().zip(["holds", "does-not-hold", "fitted", "not-comparable", "does-not-hold", "holds"]) {
            assert!(row.starts_with(&format!("<tr class=\"{class}\">")), "{row}");
        }
        assert!(rows[0].contains("+5.0 %") && rows[0].contains("±10 %") && rows[0].contains(">holds</td>"), "{}", rows[0]);
        assert!(rows[1].contains(">does not hold</td>"), "{}", rows[1]);
        assert!(html.contains("2 of 4 claims hold</strong>; 1 fitted"), "{html}");
        // A claim that holds shows its note apart from the explanations.
        assert!(html.contains("<h3>Notes on claims that hold or conform</h3>\n<dl class=\"why\">\n<dt>noted</dt>\n<dd>it holds as two errors cancel</dd>"), "{html}");
        assert!(html.contains("<dd>our queue is &lt;shorter&gt;</dd>"), "{html}");
        assert!(html.contains("<dt>unexplained: does not hold</dt>\n<dd>We have not found the cause yet.</dd>"), "{html}");
        let mut twice = claims();
        twice.push(Claim::not_comparable("bytes", "1".into(), "2".into(), "the seed counted both directions"));
        let mut r = Report::new("c");
        r.section("Verdicts").claims("seed", &twice);
        let html = ok(r.to_html());
        assert!(html.contains("<dt>packets; bytes: not comparable</dt>"), "one explanation for both: {html}");
        assert!(html.contains("<dd>the share was fitted to it</dd>"));
        assert!(!html.contains("<dt>rate:"), "a claim that holds needs no explanation");
        // A claim not settled is judged, does not hold, has its own class and explains itself.
        let open = Claim::mean_bound("open", "≤ 0.7", &[0.4, 0.5, 0.6], crate::verdict::Bound::AtMost(0.7), "");
        let mut r = Report::new("c");
        r.section("Verdicts").claims("seed", &[Claim::value("rate", 10.5, 10.0, "Mbit/s", 0.1, "e"), open]);
        let html = ok(r.to_html());
        assert!(html.contains("1 of 2 claims hold</strong> (1 of the rest not settled: the runs can neither keep nor break their bound, band or margin)."), "{html}");
        assert!(html.contains("<tr class=\"not-settled\">") && html.contains("<dt>open: not settled</dt>\n<dd>The 95 % interval"), "{html}");
    }

    #[test]
    fn same_report_same_bytes() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        assert_eq!(ok(sample(a.path()).to_html()), ok(sample(b.path()).to_html()));
    }
}
