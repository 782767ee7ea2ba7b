//! The modules of the core and of the engine import each other without
//! cycles: a module names
//! (`crate::other::...`) only modules below it, so that each can be read,
//! tested and changed from the bottom up. Methods that a higher module adds
//! to a lower type (`impl Position` in `walk.rs` and `movegen.rs`,
//! `Variant::new` in `build_variant.rs`) are not imports and are allowed.
//!
//! The graph is read from the sources: every `crate::name` path outside
//! comments and `#[cfg(test)] mod tests` blocks is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The sources without line comments and without their test modules.
fn code_of(src: &str) -> String {
    let mut out = String::new();
    let mut skip_depth: Option<i32> = None;
    let mut pending_cfg_test = false;
    for line in src.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let t = code.trim();
        if let Some(d) = skip_depth.as_mut() {
            *d += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            if *d <= 0 {
                skip_depth = None;
            }
            continue;
        }
        if t == "#[cfg(test)]" {
            pending_cfg_test = true;
            continue;
        }
        if pending_cfg_test && t.starts_with("mod ") && t.ends_with('{') {
            skip_depth = Some(1);
            pending_cfg_test = false;
            continue;
        }
        pending_cfg_test = false;
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The modules a source names with `crate::module` (including inside
/// `use crate::{a::X, b::Y}` groups).
fn imports(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name: String = part.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if modules.contains(&name) {
                    found.insert(name);
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if modules.contains(&name) {
                found.insert(name);
            }
        }
    }
    found
}

/// A cycle of the graph, if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0 unseen, 1 on the current path, 2 done
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for d in &graph[m] {
            match state.get(d.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|p| p == d).unwrap();
                    let mut cycle = path[start..].to_vec();
                    cycle.push(d.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(d, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if state.get(m.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(m, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn graph_of(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut sources = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            sources.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(m, src)| {
            let mut deps = imports(&code_of(src), &modules);
            deps.remove(m);
            (m.clone(), deps)
        })
        .collect()
}

#[test]
fn core_modules_import_without_cycles() {
    let graph = graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(graph.len() > 20, "the sources were not found: {graph:?}");
    // the reader sees the imports it should (a test of the test)
    assert!(graph["movegen"].contains("walk") && graph["movegen"].contains("check"), "{:?}", graph["movegen"]);
    assert!(graph["compile"].contains("definition"), "{:?}", graph["compile"]);
    if let Some(cycle) = find_cycle(&graph) {
        panic!("the core's modules import in a cycle: {}", cycle.join(" -> "));
    }
}

#[test]
fn engine_modules_import_without_cycles() {
    let graph = graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../chimera-engine/src"));
    assert!(graph.len() > 10, "the sources were not found: {graph:?}");
    assert!(graph["uci"].contains("numbers") && graph["protocol"].contains("uci"), "{:?}", graph["uci"]);
    if let Some(cycle) = find_cycle(&graph) {
        panic!("the engine's modules import in a cycle: {}", cycle.join(" -> "));
    }
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let modules: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let src_a = "use crate::b::X;\n// crate::c in a comment\n#[cfg(test)]\nmod tests {\n    use crate::c::Y;\n}\n";
    let src_b = "use crate::{c::Z, a::W};\n";
    assert_eq!(imports(&code_of(src_a), &modules), ["b".to_string()].into());
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), imports(&code_of(src_a), &modules));
    g.insert("b".to_string(), imports(&code_of(src_b), &modules));
    g.insert("c".to_string(), BTreeSet::new());
    assert_eq!(find_cycle(&g), Some(vec!["a".to_string(), "b".to_string(), "a".to_string()]));
    g.get_mut("b").unwrap().remove("a");
    assert_eq!(find_cycle(&g), None);
}
