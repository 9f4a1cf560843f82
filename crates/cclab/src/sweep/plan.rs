//! Sweep plans: a base scenario, the parameters to vary and the seeds, expanded into runs,
//! each validated like a scenario file before anything runs.

use super::keypath::KeyPath;
use crate::scenario::Scenario;
use crate::UserError;
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::{Spanned, Table, Value};

/// The plan's own top-level keys; every other key belongs to the inline base scenario.
const PLAN_KEYS: [&str; 5] = ["base", "grid", "list", "seeds", "out"];

#[derive(Deserialize)]
struct SweepKeys {
    base: Option<Spanned<String>>,
    #[serde(default)]
    grid: BTreeMap<String, Spanned<Vec<Spanned<Value>>>>,
    #[serde(default)]
    list: Vec<BTreeMap<String, Spanned<Value>>>,
    seeds: Option<Spanned<Value>>,
    out: Option<String>,
}

/// One parameter value the plan sets: `"link.rate" = "10mbit"`.
#[derive(Debug)]
struct Setting {
    key: KeyPath,
    value: Value,
    /// Where the plan says it: `grid."link.rate"` or `list[2]."link.rate"`.
    origin: String,
    /// `plan.toml:LINE:COL`.
    at: String,
}

/// One simulation: a parameter combination and a seed.
#[derive(Debug)]
pub struct Run {
    /// Identifies the parameter combination (not the seed): a hash of its settings.
    pub id: String,
    /// The value of each swept parameter, as the CSV shows it ("" where the run leaves the
    /// parameter as the base scenario has it).
    pub cells: Vec<String>,
    pub seed: u64,
    pub scenario: Scenario,
    /// How many flows the scenario resolves to (rows per run in the CSV).
    pub flows: usize,
}

#[derive(Debug)]
pub struct Plan {
    /// The plan file as the user named it.
    pub file: String,
    pub out: PathBuf,
    /// The swept parameters' key paths: the CSV's parameter columns.
    pub params: Vec<String>,
    /// In plan order: [[list]] entries, then the grid (first key outermost), then seeds.
    pub runs: Vec<Run>,
    pub combinations: usize,
    pub seeds: usize,
    /// A hash of the base scenario and the parameter combinations (not the seeds: adding
    /// seeds extends a finished sweep).
    pub fingerprint: String,
}

impl Plan {
    pub fn load(path: &Path) -> Result<Plan, UserError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: cannot read the plan: {e}"))?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let plan = Plan::from_text(&text, &file, dir, path.with_extension("csv"))?;
        if plan.out.is_dir() {
            return Err(format!("{file}: out: `{}` is a directory; give the results file a name (like results.csv)", plan.out.display()).into());
        }
        if crate::output::same_file(&plan.out, path) {
            return Err(format!("{file}: out: `{}` is this plan file; give the results another path", plan.out.display()).into());
        }
        Ok(plan)
    }

    /// A plan from its TOML text: `file` names it in errors, relative paths in it (`base`,
    /// `out`, traces) are taken from `dir`, and `default_out` is where its rows go when it sets
    /// no `out`.
    pub fn from_text(text: &str, file: &str, dir: &Path, default_out: PathBuf) -> Result<Plan, UserError> {
        let toml_err = |e: toml::de::Error| format!("{}: {}", at(&file, &text, e.span()), e.message().replace('\n', " "));
        let mut inline: Table = toml::from_str(&text).map_err(toml_err)?;
        let keys: SweepKeys = serde_path_to_error::deserialize(toml::Deserializer::new(&text)).map_err(|e| {
            // A spanned key's path ends in serde's internal field name: the key is what precedes it.
            let path = e.path().to_string().replace(".$__serde_spanned_private_value", "");
            format!("{}: {path}: {}", at(&file, &text, e.inner().span()), e.inner().message().replace('\n', " "))
        })?;
        if keys.out.as_ref().is_some_and(|o| o.trim().is_empty()) {
            return Err(format!("{file}: out: empty; give the results file a name (like results.csv)").into());
        }
        for k in PLAN_KEYS {
            inline.remove(k);
        }
        let base = Value::Table(base_scenario(&file, &text, dir, keys.base.as_ref(), inline)?);
        Scenario::from_value(&base).map_err(|e| {
            let hint = if !e.contains(['.', '[']) && e.contains("unknown field") { "; a plan's own keys are base, grid, list, seeds, out" } else { "" };
            format!("{file}: base scenario: {e}{hint}")
        })?;
        let seeds = seeds(&file, &text, keys.seeds.as_ref(), base.get("seed").and_then(Value::as_integer))?;

        let mut grid: Vec<Vec<Setting>> = Vec::new();
        let mut grid_keys: Vec<(&String, &Spanned<Vec<Spanned<Value>>>)> = keys.grid.iter().collect();
        grid_keys.sort_by_key(|(_, v)| v.span().start);
        for (k, values) in grid_keys {
            let origin = format!("grid.\"{k}\"");
            if values.get_ref().is_empty() {
                return Err(format!("{}: {origin}: give at least one value", at(&file, &text, Some(values.span()))).into());
            }
            let axis = values.get_ref().iter().map(|v| setting(&file, &text, k, v, origin.clone())).collect::<Result<_, _>>()?;
            grid.push(axis);
        }
        let mut entries: Vec<Vec<Setting>> = Vec::new();
        for (i, entry) in keys.list.iter().enumerate() {
            let mut items: Vec<(&String, &Spanned<Value>)> = entry.iter().collect();
            items.sort_by_key(|(_, v)| v.span().start);
            let settings: Vec<Setting> =
                items.into_iter().map(|(k, v)| setting(&file, &text, k, v, format!("list[{i}].\"{k}\""))).collect::<Result<_, _>>()?;
            if let Some(s) = settings.iter().find(|s| keys.grid.contains_key(s.key.as_str())) {
                return Err(format!("{}: {}: also swept in [grid]; give it in one place", s.at, s.origin).into());
            }
            entries.push(settings);
        }
        if entries.is_empty() {
            entries.push(Vec::new());
        }
        let mut params: Vec<String> = grid.iter().map(|axis| axis[0].key.as_str().to_string()).collect();
        for s in entries.iter().flatten() {
            if !params.iter().any(|p| p == s.key.as_str()) {
                params.push(s.key.as_str().to_string());
            }
        }

        let mut runs = Vec::new();
        let mut ids = HashSet::new();
        let mut combinations = 0;
        for entry in &entries {
            for mut combo in product(&grid) {
                combo.extend(entry);
                combinations += 1;
                let cells: Vec<String> = params.iter().map(|p| combo.iter().find(|s| s.key.as_str() == p).map_or(String::new(), |s| cell(&s.value))).collect();
                let canonical: Vec<String> = combo.iter().map(|s| format!("{}={}", s.key.as_str(), s.value)).collect();
                let id = fnv64(&canonical.join("\n"));
                let describe = || if canonical.is_empty() { "the base scenario".to_string() } else { canonical.join(", ") };
                if !ids.insert(id.clone()) {
                    return Err(format!("{file}: two runs have the same parameters ({}); remove the repeated [[list]] entry", describe()).into());
                }
                let mut value = base.clone();
                for s in &combo {
                    s.key.set(&mut value, s.value.clone()).map_err(|e| format!("{}: {}: {e}", s.at, s.origin))?;
                }
                for &seed in &seeds {
                    let mut value = value.clone();
                    value.as_table_mut().expect("the base scenario is a table").insert("seed".into(), Value::Integer(seed as i64));
                    let blame = |e: String| match combo.iter().find(|s| e.split(": ").next().is_some_and(|k| s.key.covers(k))) {
                        Some(s) => format!("{}: {} = {}: {e}", s.at, s.origin, s.value),
                        None => format!("{file}: the run with {}: {e}", describe()),
                    };
                    let mut scenario = Scenario::from_value(&value).map_err(blame)?;
                    scenario.rebase_paths(dir);
                    let flows = scenario.resolve().map_err(blame)?.flows.len();
                    runs.push(Run { id: id.clone(), cells: cells.clone(), seed, scenario, flows });
                }
            }
        }
        let mut identity = format!("{base}\n{}\n", params.join("\n"));
        for r in runs.iter().step_by(seeds.len()) {
            identity.push_str(&r.id);
            identity.push('\n');
        }
        Ok(Plan {
            out: keys.out.map_or(default_out, |o| dir.join(o)),
            file: file.to_string(),
            params,
            runs,
            combinations,
            seeds: seeds.len(),
            fingerprint: fnv64(&identity),
        })
    }

    /// `run 1a2b.. seed 3: link.rate = 10mbit, flows[0].cc = reno`.
    pub fn describe(&self, run: &Run) -> String {
        let set: Vec<String> =
            self.params.iter().zip(&run.cells).filter(|(_, c)| !c.is_empty()).map(|(p, c)| format!("{p} = {c}")).collect();
        let what = if set.is_empty() { "the base scenario".to_string() } else { set.join(", ") };
        format!("run {} seed {}: {what}", run.id, run.seed)
    }
}

/// The base scenario as a TOML table: the file `base` names (its trace path made relative to
/// the plan) with the plan's inline scenario keys over it, or the inline keys alone.
fn base_scenario(file: &str, text: &str, dir: &Path, base: Option<&Spanned<String>>, inline: Table) -> Result<Table, String> {
    let Some(base) = base else { return Ok(inline) };
    let rel = Path::new(base.get_ref());
    let path = dir.join(rel);
    let shown = path.display().to_string();
    let btext = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: base: cannot read `{shown}`: {e}", at(file, text, Some(base.span()))))?;
    Scenario::from_toml(&btext, &shown)?;
    let mut table: Table = toml::from_str(&btext).map_err(|e| format!("{shown}: {}", e.message()))?;
    if let Some(Value::String(trace)) = table.get_mut("link").and_then(|l| l.get_mut("trace")) {
        if Path::new(trace.as_str()).is_relative() {
            *trace = rel.parent().unwrap_or(Path::new("")).join(&*trace).display().to_string();
        }
    }
    merge(&mut table, inline);
    Ok(table)
}

/// `over`'s keys replace `into`'s; tables present in both merge key by key.
fn merge(into: &mut Table, over: Table) {
    for (k, v) in over {
        match (into.get_mut(&k), v) {
            (Some(Value::Table(a)), Value::Table(b)) => merge(a, b),
            (_, v) => {
                into.insert(k, v);
            }
        }
    }
}

fn setting(file: &str, text: &str, key: &str, v: &Spanned<Value>, origin: String) -> Result<Setting, String> {
    let at = at(file, text, Some(v.span()));
    let key = KeyPath::parse(key).map_err(|e| format!("{at}: {origin}: {e}"))?;
    if key.as_str() == "seed" {
        return Err(format!("{at}: {origin}: sweep seeds with `seeds = [1, 2, 3]` or `seeds = 5`"));
    }
    Ok(Setting { key, value: v.get_ref().clone(), origin, at })
}

/// The most seeds a plan may ask for: far more runs than a machine finishes, and small enough
/// that expanding the plan cannot exhaust memory.
const MAX_SEEDS: i64 = 100_000;

/// `seeds = 5` (1..=5) or `seeds = [1, 7, 9]`; without it, the base scenario's seed or 1.
fn seeds(file: &str, text: &str, v: Option<&Spanned<Value>>, base: Option<i64>) -> Result<Vec<u64>, String> {
    let Some(v) = v else { return Ok(vec![base.map_or(1, |s| s.max(0) as u64)]) };
    let bad = || format!("{}: seeds: give a count (`seeds = 5` means 1 to 5) or a list of distinct non-negative integers (`seeds = [1, 2, 3]`)", at(file, text, Some(v.span())));
    let list: Vec<u64> = match v.get_ref() {
        Value::Integer(n) if *n > MAX_SEEDS => {
            return Err(format!("{}: seeds: {n} is more than the {MAX_SEEDS} allowed", at(file, text, Some(v.span()))))
        }
        Value::Integer(n) if *n >= 1 => (1..=*n as u64).collect(),
        Value::Array(a) if !a.is_empty() => a.iter().map(|s| s.as_integer().and_then(|n| u64::try_from(n).ok()).ok_or_else(bad)).collect::<Result<_, _>>()?,
        _ => return Err(bad()),
    };
    if list.iter().collect::<HashSet<_>>().len() != list.len() {
        return Err(bad());
    }
    Ok(list)
}

/// Every combination of one setting from each axis; the last axis varies fastest.
fn product(axes: &[Vec<Setting>]) -> Vec<Vec<&Setting>> {
    let mut out: Vec<Vec<&Setting>> = vec![Vec::new()];
    for axis in axes {
        out = out.into_iter().flat_map(|pre| axis.iter().map(move |s| [pre.clone(), vec![s]].concat())).collect();
    }
    out
}

/// A parameter's value in the CSV: strings as they are, anything else as TOML.
fn cell(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `file:line:col` of a byte offset, or `file` without one.
fn at(file: &str, text: &str, span: Option<Range<usize>>) -> String {
    let Some(span) = span else { return file.to_string() };
    let before = &text[..span.start.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{file}:{line}:{col}")
}

/// FNV-1a, 64 bits, in hex: stable across builds and platforms.
fn fnv64(s: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}
