//! Key paths into a scenario's TOML (`link.rate`, `defaults.rtt`, `flows[0].cc`,
//! `flows[1].cc.beta`) and setting a value at one.

use toml::Value;

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A parsed key path: table keys separated by dots, each followed by any number of `[N]`
/// array indices.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyPath {
    text: String,
    steps: Vec<Step>,
}

impl KeyPath {
    pub fn parse(s: &str) -> Result<KeyPath, String> {
        let bad = || format!("`{s}` is not a key path like link.rate, defaults.rtt or flows[0].cc");
        let mut steps = Vec::new();
        for part in s.split('.') {
            let (name, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                return Err(bad());
            }
            steps.push(Step::Key(name.to_string()));
            while !rest.is_empty() {
                let close = rest.find(']').ok_or_else(bad)?;
                let index = rest[1..close].parse::<usize>().map_err(|_| bad())?;
                steps.push(Step::Index(index));
                rest = &rest[close + 1..];
                if !rest.is_empty() && !rest.starts_with('[') {
                    return Err(bad());
                }
            }
        }
        Ok(KeyPath { text: s.to_string(), steps })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether `path` (a scenario error's key, like `flows[0].cc`) is this key or lies below it.
    pub fn covers(&self, path: &str) -> bool {
        path.strip_prefix(self.text.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
    }

    /// Sets `value` at this path below `root`, creating missing tables on the way. An array
    /// index must name an existing element.
    pub fn set(&self, root: &mut Value, value: Value) -> Result<(), String> {
        let mut cur = root;
        let mut at = String::new();
        for (i, step) in self.steps.iter().enumerate() {
            let next = self.steps.get(i + 1);
            let shown = if at.is_empty() { "the scenario".to_string() } else { format!("`{at}`") };
            let slot = match (step, cur) {
                (Step::Key(k), Value::Table(t)) => {
                    if next.is_none() {
                        t.insert(k.clone(), value);
                        return Ok(());
                    }
                    if !t.contains_key(k) && matches!(next, Some(Step::Index(_))) {
                        return Err(format!("`{at}{}{k}` is not in the base scenario", if at.is_empty() { "" } else { "." }));
                    }
                    t.entry(k.clone()).or_insert_with(|| Value::Table(toml::Table::new()))
                }
                (Step::Index(n), Value::Array(a)) => {
                    let len = a.len();
                    let slot = a.get_mut(*n).ok_or_else(|| format!("{shown} has {len} entries in the base scenario; there is no [{n}]"))?;
                    if next.is_none() {
                        *slot = value;
                        return Ok(());
                    }
                    slot
                }
                (Step::Key(_), other) => return Err(format!("{shown} is {} in the base scenario, not a table", article(other))),
                (Step::Index(_), other) => return Err(format!("{shown} is {} in the base scenario, not an array", article(other))),
            };
            match step {
                Step::Key(k) if at.is_empty() => at.push_str(k),
                Step::Key(k) => at = format!("{at}.{k}"),
                Step::Index(n) => at = format!("{at}[{n}]"),
            }
            cur = slot;
        }
        unreachable!("a key path has at least one step")
    }
}

fn article(v: &Value) -> String {
    match v.type_str() {
        t @ ("integer" | "array") => format!("an {t}"),
        t => format!("a {t}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(base: &str, path: &str, v: Value) -> Result<String, String> {
        let mut root = Value::Table(toml::from_str(base).unwrap());
        KeyPath::parse(path)?.set(&mut root, v)?;
        Ok(root.to_string())
    }

    #[test]
    fn paths_parse_and_reject_nonsense() {
        assert!(KeyPath::parse("flows[0].cc.beta").is_ok());
        assert!(KeyPath::parse("a[1][2]").is_ok());
        for bad in ["", "link..rate", ".rate", "flows[x].cc", "flows[0", "flows[0]x", "li nk", "[0]"] {
            assert!(KeyPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn setting_edits_nested_tables_and_array_elements() {
        let base = "[link]\nrate = \"10mbit\"\n[[flows]]\ncc = \"reno\"\n[[flows]]\ncc = \"bbr\"\n";
        let s = set(base, "link.rate", "40mbit".into()).unwrap();
        assert!(s.contains("rate = \"40mbit\""), "{s}");
        let s = set(base, "flows[1].cc", "cubic".into()).unwrap();
        assert!(s.contains("{ cc = \"reno\" }, { cc = \"cubic\" }"), "{s}");
        let s = set(base, "defaults.rtt", "20ms".into()).unwrap();
        assert!(s.contains("defaults = { rtt = \"20ms\" }"), "{s}");
    }

    #[test]
    fn impossible_paths_say_why() {
        let base = "[link]\nrate = \"10mbit\"\n[[flows]]\ncc = \"reno\"\n";
        assert!(set(base, "flows[3].cc", "x".into()).unwrap_err().contains("has 1 entries"));
        assert!(set(base, "link.rate.x", "x".into()).unwrap_err().contains("`link.rate` is a string"));
        assert!(set(base, "link[0]", "x".into()).unwrap_err().contains("not an array"));
        assert!(set("", "flows[0].cc", "x".into()).unwrap_err().contains("`flows` is not in the base scenario"));
        let p = KeyPath::parse("flows[0]").unwrap();
        assert!(p.covers("flows[0].cc") && p.covers("flows[0]") && !p.covers("flows[01]") && !p.covers("flows"));
    }
}
