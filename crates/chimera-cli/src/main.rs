//! The `chimera` command: legal moves, perft and board display for any variant.

use chimera::builtin;
use chimera::perft;
use chimera::position::Position;
use chimera::variant::{Variant, VariantDef};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

const USAGE: &str = "\
usage:
  chimera moves    --variant V [--variant-file PATH] [--fen FEN] [--moves \"m1 m2 ...\"]
  chimera perft    --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"] DEPTH
  chimera show     --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"]
  chimera variants
  chimera help

Moves are written in Fairy-Stockfish's UCI notation: e2e4, e7e8q, a passing
general e2e2, a two-leg move d4e5,e5f6. With --variant-file, --variant may be
left out.";

struct Options {
    variant: Option<String>,
    variant_file: Option<String>,
    fen: Option<String>,
    moves: Option<String>,
    positional: Vec<String>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options { variant: None, variant_file: None, fen: None, moves: None, positional: Vec::new() };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let mut value = |name: &str| -> Result<String, String> {
            i += 1;
            args.get(i).cloned().ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--variant" | "-v" => o.variant = Some(value("--variant")?),
            "--variant-file" => o.variant_file = Some(value("--variant-file")?),
            "--fen" => o.fen = Some(value("--fen")?),
            "--moves" => o.moves = Some(value("--moves")?),
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'")),
            _ => o.positional.push(a.clone()),
        }
        i += 1;
    }
    Ok(o)
}

fn load_variant(o: &Options) -> Result<Arc<Variant>, String> {
    if let Some(path) = &o.variant_file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read variant file '{path}': {e}"))?;
        let def = VariantDef::from_toml(&text, path).map_err(|e| e.to_string())?;
        if let Some(name) = &o.variant {
            if *name != def.name {
                return Err(format!("variant file '{path}' defines '{}', not '{name}'", def.name));
            }
        }
        return Variant::new(def).map(Arc::new).map_err(|e| e.to_string());
    }
    let name = o.variant.as_deref().ok_or("--variant is required (see 'chimera variants')")?;
    builtin::variant(name).map(Arc::new).map_err(|e| e.to_string())
}

fn load_position(o: &Options) -> Result<Position, String> {
    let v = load_variant(o)?;
    let mut pos = match &o.fen {
        Some(f) => Position::from_fen(v, f).map_err(|e| e.to_string())?,
        None => Position::start(v),
    };
    if let Some(ms) = &o.moves {
        for text in ms.split_whitespace() {
            let m = pos.parse_move(text).map_err(|e| e.to_string())?;
            pos.make(m);
        }
    }
    Ok(pos)
}

fn run(args: &[String]) -> Result<(), String> {
    let cmd = args.first().map(String::as_str).unwrap_or("help");
    let o = parse_options(&args[args.len().min(1)..])?;
    match cmd {
        "moves" => {
            if !o.positional.is_empty() {
                return Err(format!("unexpected argument '{}'", o.positional[0]));
            }
            let mut pos = load_position(&o)?;
            let mut out = String::new();
            for m in pos.legal_moves() {
                out.push_str(&pos.move_text(m));
                out.push('\n');
            }
            print!("{out}");
        }
        "perft" => {
            let depth: usize = match o.positional.as_slice() {
                [d] => d.parse().map_err(|_| format!("DEPTH must be a number, not '{d}'"))?,
                [] => return Err("perft needs a DEPTH".into()),
                more => return Err(format!("unexpected argument '{}'", more[1])),
            };
            if depth == 0 || depth > 20 {
                return Err("DEPTH must be from 1 to 20".into());
            }
            let mut pos = load_position(&o)?;
            let t0 = Instant::now();
            let split = perft::divide(&mut pos, depth);
            let elapsed = t0.elapsed();
            let mut total = 0;
            let mut out = String::new();
            for (m, n) in split {
                out.push_str(&format!("{}: {}\n", pos.move_text(m), n));
                total += n;
            }
            print!("{out}");
            println!();
            println!("Nodes searched: {total}");
            eprintln!(
                "time {:.3} s, {:.0} nodes/s",
                elapsed.as_secs_f64(),
                total as f64 / elapsed.as_secs_f64().max(1e-9)
            );
        }
        "show" => {
            let pos = load_position(&o)?;
            print!("{}", pos.board_text());
            println!("fen: {}", pos.fen());
        }
        "variants" => {
            for n in builtin::names() {
                let v = builtin::variant(n).map_err(|e| e.to_string())?;
                println!("{n}\t{}", v.def.description);
            }
        }
        "help" | "--help" | "-h" => println!("{USAGE}"),
        other => return Err(format!("unknown command '{other}'\n{USAGE}")),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
