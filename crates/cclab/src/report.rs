//! `report.html`: one self-contained file (CSS, script and images inline, no URL anywhere, a
//! Content-Security-Policy that forbids fetching anything) holding an experiment's or a run's
//! description, parameters, tables, plots, and our figures beside the seed's with a mark where
//! they differ by more than the stated tolerance.
//!
//! Once the page has loaded, an inline script sets `data-images` (the number of `<img>`
//! elements) and `data-images-loaded` (those that decoded) on `<body>`, so that a headless
//! browser's DOM dump shows whether every image is there.

use crate::experiment::Comparison;
use crate::plot::PlotFiles;
use crate::UserError;
use base64::Engine as _;
use std::fmt::Write as _;
use std::path::Path;

#[derive(Clone, Debug, PartialEq)]
enum Block {
    Text(String),
    Code(String),
    Table { title: String, header: Vec<String>, rows: Vec<Vec<String>> },
    Image { caption: String, mime: &'static str, bytes: Vec<u8> },
    Comparisons(Vec<Comparison>),
}

/// A headed part of the report; blocks appear in the order they are added.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    heading: String,
    blocks: Vec<Block>,
}

/// The report, built up and then written with [`Report::write`].
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    title: String,
    description: String,
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

impl Section {
    /// A paragraph (blank lines start new paragraphs).
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.blocks.push(Block::Text(text.to_string()));
        self
    }

    /// Preformatted text, e.g. a scenario file.
    pub fn code(&mut self, text: &str) -> &mut Self {
        self.blocks.push(Block::Code(text.to_string()));
        self
    }

    pub fn table(&mut self, title: &str, header: &[impl AsRef<str>], rows: &[Vec<String>]) -> &mut Self {
        self.blocks.push(Block::Table {
            title: title.to_string(),
            header: header.iter().map(|h| h.as_ref().to_string()).collect(),
            rows: rows.to_vec(),
        });
        self
    }

    /// Inlines a PNG or SVG file (read now).
    pub fn image(&mut self, caption: &str, path: &Path) -> Result<&mut Self, UserError> {
        let mime = mime_of(path).ok_or_else(|| UserError(format!("{}: not a .png or .svg image", path.display())))?;
        let bytes = std::fs::read(path).map_err(|e| UserError(format!("{}: {e}", path.display())))?;
        Ok(self.image_bytes(caption, mime, bytes))
    }

    /// Inlines an image already in memory; `mime` is `image/png` or `image/svg+xml`.
    pub fn image_bytes(&mut self, caption: &str, mime: &'static str, bytes: Vec<u8>) -> &mut Self {
        self.blocks.push(Block::Image { caption: caption.to_string(), mime, bytes });
        self
    }

    /// Each plot's PNG, captioned with its title.
    pub fn plots(&mut self, plots: &[PlotFiles]) -> Result<&mut Self, UserError> {
        for p in plots {
            self.image(&p.title, &p.png)?;
        }
        Ok(self)
    }

    /// Ours beside the seed's: ✓ within tolerance, ✗ on a highlighted row when not.
    pub fn comparisons(&mut self, cs: &[Comparison]) -> &mut Self {
        self.blocks.push(Block::Comparisons(cs.to_vec()));
        self
    }
}

impl Report {
    pub fn new(title: &str) -> Report {
        Report { title: title.to_string(), description: String::new(), parameters: Vec::new(), sections: Vec::new() }
    }

    /// What the experiment or run is (blank lines start new paragraphs).
    pub fn description(&mut self, text: &str) -> &mut Self {
        self.description = text.to_string();
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

    pub fn to_html(&self) -> String {
        let mut h = String::with_capacity(1 << 16);
        let _ = write!(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n{CSP}\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n", esc(&self.title), esc(&self.title));
        paragraphs(&mut h, &self.description);
        if !self.parameters.is_empty() {
            h.push_str("<h2>Parameters</h2>\n<table class=\"parameters\">\n");
            for (k, v) in &self.parameters {
                let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
            }
            h.push_str("</table>\n");
        }
        for s in &self.sections {
            let _ = writeln!(h, "<section>\n<h2>{}</h2>", esc(&s.heading));
            for b in &s.blocks {
                block(&mut h, b);
            }
            h.push_str("</section>\n");
        }
        let _ = write!(h, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
        h
    }

    pub fn write(&self, path: &Path) -> Result<(), UserError> {
        std::fs::write(path, self.to_html()).map_err(|e| UserError(format!("{}: {e}", path.display())))
    }
}

/// Nothing may be fetched: images are data URIs, style and script are inline.
const CSP: &str = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">";

const CSS: &str = "
body { font-family: 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif; max-width: 1240px; margin: 2em auto; padding: 0 1em; color: #1a1a1a; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.3em; }
h2 { font-size: 1.3em; margin-top: 1.8em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.8em 0 1.2em; font-size: 0.92em; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
thead th, table.parameters th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.differs td { background: #fde2e2; }
td.mark { text-align: center; font-weight: bold; }
tr.agrees td.mark { color: #1b7f2a; }
tr.differs td.mark { color: #c0161b; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9em; }
pre { background: #f7f7f7; border: 1px solid #e3e3e3; padding: 0.7em; overflow-x: auto; font-size: 0.85em; }
";

const SCRIPT: &str = "
window.addEventListener('load', function () {
  var imgs = document.images, loaded = 0;
  for (var i = 0; i < imgs.length; i++) {
    if (imgs[i].complete && imgs[i].naturalWidth > 0) loaded++;
  }
  document.body.setAttribute('data-images', String(imgs.length));
  document.body.setAttribute('data-images-loaded', String(loaded));
});
";

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn paragraphs(h: &mut String, text: &str) {
    for p in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let _ = writeln!(h, "<p>{}</p>", esc(p));
    }
}

/// Four significant digits, no exponent, no trailing zeros (tables and plots' ticks).
pub fn num(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let decimals = (3 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Per-row extras of a table: a class for the `<tr>` and a trailing cell written as it is.
type RowExtra<'a> = &'a dyn Fn(usize) -> (&'static str, &'static str);

fn table(h: &mut String, title: &str, header: &[String], rows: &[Vec<String>], extra: RowExtra) {
    h.push_str("<table>\n");
    if !title.is_empty() {
        let _ = writeln!(h, "<caption>{}</caption>", esc(title));
    }
    h.push_str("<thead><tr>");
    for c in header {
        let _ = write!(h, "<th>{}</th>", esc(c));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for (i, r) in rows.iter().enumerate() {
        let (class, last) = extra(i);
        if class.is_empty() {
            h.push_str("<tr>");
        } else {
            let _ = write!(h, "<tr class=\"{class}\">");
        }
        for c in r {
            let numeric = c.trim_start_matches(['-', '+', '±']).starts_with(|ch: char| ch.is_ascii_digit());
            let _ = write!(h, "<td{}>{}</td>", if numeric { " class=\"num\"" } else { "" }, esc(c));
        }
        let _ = writeln!(h, "{last}</tr>");
    }
    h.push_str("</tbody>\n</table>\n");
}

const AGREES: (&str, &str) = ("agrees", "<td class=\"mark\" title=\"within tolerance\">✓</td>");
const DIFFERS: (&str, &str) = ("differs", "<td class=\"mark\" title=\"differs by more than the tolerance\">✗</td>");

fn comparisons(h: &mut String, cs: &[Comparison]) {
    let agree = cs.iter().filter(|c| c.within()).count();
    let _ = writeln!(
        h,
        "<p class=\"verdict\"><strong>{agree} of {} within tolerance.</strong> ✓ within tolerance; ✗ differs from the seed by more than the tolerance (highlighted).</p>",
        cs.len()
    );
    let header: Vec<String> = ["metric", "ours", "seed", "difference", "tolerance", "agrees"].iter().map(|s| s.to_string()).collect();
    let rows: Vec<Vec<String>> = cs
        .iter()
        .map(|c| {
            let unit = if c.unit.is_empty() { String::new() } else { format!(" {}", c.unit) };
            let (diff, tolerance) = if c.seed == 0.0 {
                (format!("{}{unit}", num(c.ours - c.seed)), format!("±{}{unit}", num(c.tolerance)))
            } else {
                (format!("{:+.1} %", (c.ours - c.seed) / c.seed * 100.0), format!("±{} %", num(c.tolerance * 100.0)))
            };
            vec![c.metric.clone(), format!("{}{unit}", num(c.ours)), format!("{}{unit}", num(c.seed)), diff, tolerance]
        })
        .collect();
    table(h, "ours beside the seed's", &header, &rows, &|i| if cs[i].within() { AGREES } else { DIFFERS });
}

fn block(h: &mut String, b: &Block) {
    match b {
        Block::Text(t) => paragraphs(h, t),
        Block::Code(t) => {
            let _ = writeln!(h, "<pre>{}</pre>", esc(t));
        }
        Block::Table { title, header, rows } => table(h, title, header, rows, &|_| ("", "")),
        Block::Image { caption, mime, bytes } => {
            let data = base64::engine::general_purpose::STANDARD.encode(bytes);
            let _ = writeln!(
                h,
                "<figure>\n<img src=\"data:{mime};base64,{data}\" alt=\"{}\">\n<figcaption>{}</figcaption>\n</figure>",
                esc(caption),
                esc(caption)
            );
        }
        Block::Comparisons(cs) => comparisons(h, cs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::DelayPoint;

    fn comparison(ours: f64, seed: f64) -> Comparison {
        Comparison { metric: format!("m{ours}"), ours, seed, tolerance: 0.1, unit: "Mbit/s".into() }
    }

    fn ok<T>(r: Result<T, UserError>) -> T {
        r.unwrap_or_else(|e| panic!("{}", e.0))
    }

    fn sample(dir: &Path) -> Report {
        let pts = [DelayPoint { label: "reno".into(), throughput_mbps: 30.0, delay_p95_ms: 180.0 }];
        let plot = ok(crate::plot::throughput_delay(dir, "td", "T & D", ("throughput (Mbit/s)", "p95 delay (ms)"), &pts));
        let mut r = Report::new("A <report>");
        r.description("First.\n\nSecond & last.").parameter("rate", "40 Mbit/s").parameter("seed", 1);
        r.section("Tables").text("Some text.").table("t", &["a", "b"], &[vec!["1".into(), "<x>".into()]]);
        ok(ok(r.section("Plots").plots(std::slice::from_ref(&plot))).image("the SVG", &plot.svg));
        r.section("Seed").comparisons(&[comparison(10.5, 10.0), comparison(12.0, 10.0)]);
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
        let html = r.to_html();
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
        let html = sample(dir.path()).to_html();
        assert!(html.contains("<title>A &lt;report&gt;</title>"));
        assert!(html.contains("<p>First.</p>\n<p>Second &amp; last.</p>"));
        assert!(html.contains("<tr><th>seed</th><td>1</td></tr>"));
        assert!(html.contains("<td class=\"num\">1</td><td>&lt;x&gt;</td>"));
        assert!(html.contains("<figcaption>T &amp; D</figcaption>"));
        assert!(!html.contains("<x>"));
    }

    #[test]
    fn comparisons_are_marked_by_tolerance() {
        let mut r = Report::new("c");
        r.section("Seed").comparisons(&[comparison(10.5, 10.0), comparison(12.0, 10.0), comparison(0.05, 0.0)]);
        let html = r.to_html();
        let rows: Vec<&str> = html.lines().filter(|l| l.starts_with("<tr class=")).collect();
        assert_eq!(rows.len(), 3, "{html}");
        assert!(rows[0].starts_with("<tr class=\"agrees\">") && rows[0].contains("✓") && !rows[0].contains("✗"), "{}", rows[0]);
        assert!(rows[0].contains("+5.0 %") && rows[0].contains("±10 %"), "{}", rows[0]);
        assert!(rows[1].starts_with("<tr class=\"differs\">") && rows[1].contains("✗") && !rows[1].contains("✓"), "{}", rows[1]);
        assert!(rows[1].contains("+20.0 %"), "{}", rows[1]);
        assert!(rows[2].starts_with("<tr class=\"agrees\">"), "absolute tolerance when the seed's value is 0: {}", rows[2]);
        assert!(html.contains("2 of 3 within tolerance"));
        assert!(html.contains("tr.differs td { background"));
    }

    #[test]
    fn numbers_have_four_significant_digits() {
        assert_eq!(num(38.2756), "38.28");
        assert_eq!(num(0.012345), "0.01235");
        assert_eq!(num(12345.6), "12346");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(10.0), "10");
        assert_eq!(num(10.5), "10.5");
    }

    #[test]
    fn same_report_same_bytes() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        assert_eq!(sample(a.path()).to_html(), sample(b.path()).to_html());
    }
}
