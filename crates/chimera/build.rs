//! Embeds every definition file under `variants/` as a built-in variant.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the variants/ folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out = String::from(
        "/// The embedded definition files: (name, file name, text).\npub const FILES: &[(&str, &str, &str)] = &[\n",
    );
    for n in &names {
        println!("cargo:rerun-if-changed={}", dir.join(format!("{n}.toml")).display());
        writeln!(out, "    ({n:?}, \"variants/{n}.toml\", include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/../../variants/{n}.toml\"))),").unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("builtin_files.rs");
    std::fs::write(dest, out).unwrap();
}
