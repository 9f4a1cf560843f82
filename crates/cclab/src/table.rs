//! Plain tables of strings, for the terminal, CSV files and Markdown.

use std::fmt::Write as _;

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

/// A table of strings with an optional title: shown on the terminal, written as CSV and as
/// Markdown.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Table {
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(title: &str, header: &[&str]) -> Table {
        Table { title: title.to_string(), header: header.iter().map(|s| s.to_string()).collect(), rows: Vec::new() }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Left-aligned columns for the terminal; under a title, indented by two spaces.
    pub fn render_text(&self) -> String {
        let n = self.header.len();
        let widths: Vec<usize> = (0..n)
            .map(|c| self.rows.iter().filter_map(|r| r.get(c)).map(|x| x.chars().count()).chain([self.header[c].chars().count()]).max().unwrap_or(0))
            .collect();
        let (mut out, indent) = if self.title.is_empty() { (String::new(), "") } else { (format!("{}\n", self.title), "  ") };
        let line = |cells: &[String], out: &mut String| {
            let parts: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
            let _ = writeln!(out, "{indent}{}", parts.join("  ").trim_end());
        };
        line(&self.header, &mut out);
        for r in &self.rows {
            line(r, &mut out);
        }
        out
    }

    pub fn to_csv(&self) -> Result<String, String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&self.header).map_err(|e| e.to_string())?;
        for r in &self.rows {
            w.write_record(r).map_err(|e| e.to_string())?;
        }
        String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
    }

    /// The table in GitHub-flavoured Markdown, each cell escaped by [`markdown_cell`].
    pub fn to_markdown(&self) -> String {
        let row = |cells: &[String]| cells.iter().map(|c| markdown_cell(c)).collect::<Vec<_>>().join(" | ");
        let mut s = format!("### {}\n\n| {} |\n|{}|\n", self.title, row(&self.header), vec!["---"; self.header.len()].join("|"));
        for r in &self.rows {
            let _ = writeln!(s, "| {} |", row(r));
        }
        s
    }
}

/// A table cell's text as Markdown needs it: a `|` (as in "|share − ½|") escaped so that it
/// does not end the cell, and line breaks as spaces so that the row stays one line.
pub fn markdown_cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells_keep_their_pipes_inside_the_cell() {
        let t = Table { title: "t".into(), header: vec!["claim".into(), "ours".into()], rows: vec![vec!["|share − ½|".into(), "a\nb".into()]] };
        let md = t.to_markdown();
        let last = md.lines().last().unwrap();
        assert_eq!(last, "| \\|share − ½\\| | a b |");
        // Unescaped pipes delimit exactly the two cells.
        assert_eq!(last.replace("\\|", "").matches('|').count(), 3);
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
}
