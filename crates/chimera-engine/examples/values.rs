//! Prints the piece values the evaluation derives for variants:
//! `cargo run -p chimera-engine --example values -- chess xiangqi`.
use chimera::builtin;
use chimera_engine::eval::EvalTables;
use std::sync::Arc;

fn main() {
    for name in std::env::args().skip(1) {
        let v = match builtin::variant(&name) {
            Ok(v) => Arc::new(v),
            Err(e) => {
                eprintln!("error: {e}");
                continue;
            }
        };
        let t = EvalTables::new(&v);
        let vals: Vec<String> = v
            .def
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}{}={}", if p.promoted { "+" } else { "" }, p.letter, t.type_value(i)))
            .collect();
        println!("{name}: {}", vals.join(" "));
    }
}
