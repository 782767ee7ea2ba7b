//! A protocol session fed command sequences built from the input by a small
//! grammar (the UCI family's and XBoard's commands with fuzzed arguments,
//! plus raw fuzzed lines). Searches are kept short: `go` always carries a
//! small depth, node or time limit, XBoard sessions get `sd 1` after every
//! command that could clear it, and raw lines that would start or configure
//! a search (`go`, `st`, `sd`, `time`, `level`, `setoption`, `memory`,
//! `cores`, `analyze`) are dropped. The session must answer every sequence
//! and end: libFuzzer's -timeout catches a hang.
#![no_main]

use chimera_engine::game::Out;
use chimera_engine::protocol::{run, Protocol};
use chimera_fuzz::Bytes;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

const MOVES: &[&str] = &[
    "e2e4",
    "e7e5",
    "g1f3",
    "b8c6",
    "e2e2",
    "e7e8q",
    "P@e5",
    "d4e5,e5f6",
    "h2e2",
    "h3e3",
    "7g7f",
    "P*5e",
    "8h2b+",
    "@@@@",
    "a1a10",
    "b1c3h",
    "e1g1",
    "e5e5f",
    "i10i9",
    "0000",
    "a0a0",
    "p@a1",
    "e2",
    "",
    "e2e4e5e6",
    "a16p16",
    "O-O",
    "O-O-O",
    "b1c1",
];
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "k7/8/8/8/8/8/8/7K w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/1KR5 w C - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "",
];
const DROP: &[&str] = &["go", "st", "sd", "time", "otim", "level", "setoption", "memory", "cores", "analyze", "perft"];

fn word<'a>(b: &mut Bytes, list: &[&'a str]) -> &'a str {
    list[b.below(list.len())]
}

fn raw(b: &mut Bytes) -> String {
    let n = b.byte() as usize % 48;
    let bytes: Vec<u8> = (0..n).map(|_| b.byte()).collect();
    String::from_utf8_lossy(&bytes).replace(['\n', '\r'], " ")
}

fn moves(b: &mut Bytes) -> String {
    let n = b.byte() as usize % 6;
    (0..n).map(|_| word(b, MOVES)).collect::<Vec<_>>().join(" ")
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let names = chimera::builtin::names();
    let protocol = [None, Some(Protocol::Uci), Some(Protocol::Xboard), Some(Protocol::Usi), Some(Protocol::Ucci)]
        [b.byte() as usize % 5];
    let mut lines: Vec<String> = Vec::new();
    let mut xboard = protocol == Some(Protocol::Xboard);
    for _ in 0..(b.byte() % 24) {
        let line = match b.byte() % 24 {
            0 => "uci".into(),
            1 => {
                xboard = true;
                "xboard".into()
            }
            2 => "isready".into(),
            3 => format!("position startpos moves {}", moves(&mut b)),
            4 => format!("position fen {} moves {}", word(&mut b, FENS), moves(&mut b)),
            5 => format!("position {}", raw(&mut b)),
            6 => match b.byte() % 5 {
                // a depth alone is bounded by the tree, not by time: depth 1
                // of Clobber 10x10 (every move captures) is a search of the
                // rest of the game, so a time limit comes with it
                0 => format!("go depth {} movetime 300", 1 + b.byte() % 2),
                1 => format!("go nodes {}", b.byte() as u32 * 4),
                2 => format!("go movetime {}", b.byte() % 20),
                3 => format!("go wtime {} btime {} winc 0 binc 0", b.byte() % 50, b.byte() % 50),
                _ => "go infinite".into(),
            },
            7 => "stop".into(),
            8 => match b.byte() % 4 {
                0 => format!("setoption name UCI_Chess960 value {}", ["true", "false", "x"][b.below(3)]),
                _ => format!("setoption name UCI_Variant value {}", word(&mut b, &names)),
            },
            9 => format!("variant {}", word(&mut b, &names)),
            10 => "new".into(),
            11 => "force".into(),
            12 => format!("usermove {}", word(&mut b, MOVES)),
            13 => word(&mut b, MOVES).to_string(),
            14 => format!("setboard {}", word(&mut b, FENS)),
            15 => format!("setboard {}", raw(&mut b)),
            16 => ["undo", "remove", "playother", "white", "black", "post", "nopost", "?", "result 1-0"]
                [b.byte() as usize % 9]
                .into(),
            17 => format!("lift {}", raw(&mut b)),
            18 => format!("put {}", raw(&mut b)),
            19 => format!("go perft {}", 1 + b.byte() % 2),
            20 => "d".into(),
            21 => format!("ping {}", b.byte()),
            22 => "ucinewgame".into(),
            _ => {
                let r = raw(&mut b);
                let first = r.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
                if DROP.contains(&first.as_str()) {
                    continue;
                }
                r
            }
        };
        let resets_depth = line.starts_with("new") || line == "xboard";
        lines.push(line);
        if xboard && resets_depth {
            lines.push("sd 1".into());
        }
        if xboard && lines.len() == 1 {
            lines.push("sd 1".into());
        }
    }
    if xboard && !lines.iter().any(|l| l == "sd 1") {
        lines.insert(0, "sd 1".into());
    }
    let input = lines.join("\n") + "\n";
    if std::env::var_os("PRINT_SESSION").is_some() {
        eprintln!("{input}");
    }
    run(Cursor::new(input.into_bytes()), Out::new(Box::new(std::io::sink())), protocol);
});
