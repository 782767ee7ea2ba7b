//! Integration tests of the `chimera` binary: the output contract that scripts
//! depend on, and clean one-line errors (never a panic) for bad input.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const XIANGQI_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/xiangqi.toml");

/// The result of one run of the binary.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_output(out: Output) -> Run {
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn chimera(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("run chimera");
    run_output(out)
}

/// Runs a command that must succeed, and returns its stdout.
fn ok(args: &[&str]) -> String {
    let r = chimera(args);
    assert_eq!(r.code, Some(0), "chimera {args:?} failed:\n{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "chimera {args:?}:\n{}", r.stderr);
    r.stdout
}

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

/// Runs a command that must fail cleanly: exit status 2, nothing on stdout, one
/// `error: ` line on stderr that contains every one of `needles`, and no panic.
fn fails(args: &[&str], needles: &[&str]) -> String {
    let r = chimera(args);
    assert!(!r.stderr.contains("panicked"), "chimera {args:?} panicked:\n{}", r.stderr);
    assert_eq!(r.code, Some(2), "chimera {args:?}: exit status; stderr:\n{}", r.stderr);
    assert!(r.stdout.is_empty(), "chimera {args:?} wrote to stdout:\n{}", r.stdout);
    assert!(r.stderr.starts_with("error: "), "chimera {args:?}: stderr:\n{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "chimera {args:?}: want one line:\n{}", r.stderr);
    for n in needles {
        assert!(r.stderr.contains(n), "chimera {args:?}: stderr lacks {n:?}:\n{}", r.stderr);
    }
    r.stderr
}

/// A file under the temp directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(tag: &str, contents: &str) -> TempFile {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!("chimera-cli-test-{}-{n}-{nanos}-{tag}.toml", std::process::id()));
        std::fs::write(&path, contents).expect("write temp file");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A directory under the temp directory, removed with its contents when
/// dropped: for tests whose file must have a given name (error messages
/// quote it).
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!("chimera-cli-test-{}-{nanos}-{tag}", std::process::id()));
        std::fs::create_dir_all(&path).expect("create temp directory");
        TempDir(path)
    }

    /// Writes `contents` to the file `name` in the directory and returns its path.
    fn file(&self, name: &str, contents: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("write temp file");
        path.to_str().expect("temp path is UTF-8").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn xiangqi_text() -> String {
    std::fs::read_to_string(XIANGQI_FILE).expect("read variants/xiangqi.toml")
}

/// Parses perft output: the `move: count` lines and the total on the last line.
fn parse_perft(out: &str) -> (Vec<(String, u64)>, u64) {
    let ls = lines(out);
    let last = ls.last().expect("perft printed nothing");
    let total = last
        .strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("last line is not 'Nodes searched: N': {last:?}"))
        .parse()
        .expect("total is a number");
    let divide = ls[..ls.len() - 1]
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (m, n) = l.split_once(": ").unwrap_or_else(|| panic!("not a 'move: count' line: {l:?}"));
            (m.to_string(), n.parse().unwrap_or_else(|_| panic!("bad count in {l:?}")))
        })
        .collect();
    (divide, total)
}

// ---- moves -------------------------------------------------------------------

#[test]
fn moves_chess_start() {
    let out = ok(&["moves", "--variant", "chess"]);
    let ms = lines(&out);
    assert_eq!(ms.len(), 20, "{out}");
    assert!(ms.contains(&"e2e4") && ms.contains(&"g1f3"), "{out}");
    // the explicit start FEN gives the same list
    assert_eq!(ok(&["moves", "--variant", "chess", "--fen", CHESS_START]), out);
}

#[test]
fn moves_xiangqi_start() {
    let out = ok(&["moves", "--variant", "xiangqi"]);
    assert_eq!(lines(&out).len(), 44, "{out}");
    assert!(lines(&out).contains(&"h3e3"), "{out}");
}

#[test]
fn moves_janggi_start_includes_pass() {
    let out = ok(&["moves", "--variant", "janggi"]);
    assert_eq!(lines(&out).len(), 32, "{out}");
    assert!(lines(&out).contains(&"e2e2"), "the pass e2e2 is missing:\n{out}");
    // after White passes, Black may pass too
    let out = ok(&["moves", "--variant", "janggi", "--moves", "e2e2"]);
    assert!(lines(&out).contains(&"e9e9"), "{out}");
}

#[test]
fn moves_may_be_given_in_san_and_the_variants_notations() {
    // the same line in UCI text and in SAN (with check marks, castling, a capture)
    let uci = ok(&["moves", "--variant", "chess", "--moves", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1 a6b5"]);
    let san = ok(&["moves", "--variant", "chess", "--moves", "e4 e5 Nf3 Nc6 Bb5 a6 O-O axb5"]);
    assert_eq!(san, uci);
    let lan = ok(&["moves", "--variant", "chess", "--moves", "e2-e4 e7-e5 Ng1-f3 Nb8-c6 Bf1-b5 a7-a6 O-O a6xb5"]);
    assert_eq!(lan, uci);
    assert_eq!(ok(&["result", "--variant", "chess", "--moves", "f3 e5 g4 Qh4#"]).trim(), "0-1 checkmate");
    // WXF for xiangqi (pyffish: C2=5 is h3e3), the Janggi notation (H02-83 is b1c3)
    let wxf = ok(&["moves", "--variant", "xiangqi", "--moves", "C2=5"]);
    assert_eq!(wxf, ok(&["moves", "--variant", "xiangqi", "--moves", "h3e3"]));
    let janggi = ok(&["moves", "--variant", "janggi", "--moves", "H02-83"]);
    assert_eq!(janggi, ok(&["moves", "--variant", "janggi", "--moves", "b1c3"]));
    // shogi: Hodges notation (P-7f) as well as its numeric form (P-76)
    let hodges = ok(&["moves", "--variant", "shogi", "--moves", "P-7f"]);
    assert_eq!(hodges, ok(&["moves", "--variant", "shogi", "--moves", "P-76"]));
    assert_eq!(hodges, ok(&["moves", "--variant", "shogi", "--moves", "c3c4"]));
    // errors name the move and the problem
    let r = chimera(&["moves", "--variant", "chess", "--moves", "e4 Zz9"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("move 2") && r.stderr.contains("no piece of this variant is written 'Z'"),
        "{}",
        r.stderr
    );
    let r = chimera(&["moves", "--variant", "chess", "--moves", "d4 d5 Nf3 Nf6 Nd2"]);
    assert!(r.stderr.contains("ambiguous"), "{}", r.stderr);
}

#[test]
fn moves_with_move_list() {
    let out = ok(&["moves", "--variant", "chess", "--moves", "e2e4 e7e5"]);
    let ms = lines(&out);
    assert_eq!(ms.len(), 29, "{out}");
    assert!(ms.contains(&"d1h5") && ms.contains(&"e1e2") && !ms.contains(&"e2e4"), "{out}");
    // extra whitespace is fine, and an empty list is the position itself
    assert_eq!(ok(&["moves", "--variant", "chess", "--moves", "  e2e4\te7e5 "]), out);
    assert_eq!(lines(&ok(&["moves", "--variant", "chess", "--moves", ""])).len(), 20);
}

#[test]
fn moves_from_fen_with_promotions() {
    assert_eq!(lines(&ok(&["moves", "--variant", "chess", "--fen", KIWIPETE])).len(), 48);
    let out = ok(&["moves", "--variant", "chess", "--fen", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"]);
    for m in ["b7b8q", "b7b8r", "b7b8b", "b7b8n"] {
        assert!(lines(&out).contains(&m), "{m} missing:\n{out}");
    }
}

// ---- perft -------------------------------------------------------------------

#[test]
fn perft_chess_depth2_format() {
    let out = ok(&["perft", "--variant", "chess", "2"]);
    assert_eq!(out.lines().last(), Some("Nodes searched: 400"), "{out}");
    let (divide, total) = parse_perft(&out);
    assert_eq!(total, 400);
    assert_eq!(divide.len(), 20, "{out}");
    assert!(divide.iter().all(|(_, n)| *n == 20), "{out}");
    assert!(divide.iter().any(|(m, _)| m == "e2e4"), "{out}");
}

#[test]
fn perft_divide_sums_to_total() {
    for (args, want) in [
        (vec!["perft", "--variant", "chess", "3"], 8902),
        (vec!["perft", "--variant", "chess", "--fen", KIWIPETE, "2"], 2039),
        (vec!["perft", "--variant", "xiangqi", "2"], 1920),
        (vec!["perft", "--variant", "janggi", "2"], 1024),
        (vec!["perft", "--variant", "chess", "--moves", "e2e4 e7e5", "1"], 29),
    ] {
        let out = ok(&args);
        let (divide, total) = parse_perft(&out);
        assert_eq!(total, want, "{args:?}\n{out}");
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), total, "{args:?}\n{out}");
        // the divide lines name exactly the legal moves
        let mut moved: Vec<String> = divide.into_iter().map(|(m, _)| m).collect();
        let mut legal: Vec<String> = {
            let mut margs: Vec<&str> = args[..args.len() - 1].to_vec();
            margs[0] = "moves";
            ok(&margs).lines().map(String::from).collect()
        };
        moved.sort();
        legal.sort();
        assert_eq!(moved, legal, "{args:?}");
    }
}

#[test]
fn perft_with_no_moves_prints_zero() {
    // fool's mate: White is checkmated
    let out = ok(&["perft", "--variant", "chess", "--moves", "f2f3 e7e5 g2g4 d8h4", "1"]);
    assert_eq!(lines(&out), ["Nodes searched: 0"], "{out}");
}

// ---- variant files -----------------------------------------------------------

#[test]
fn variant_file_works_like_builtin() {
    for extra in [&[][..], &["--moves", "h3e3 h10g8"][..], &["--variant", "xiangqi"][..]] {
        let mut a = vec!["moves", "--variant-file", XIANGQI_FILE];
        a.extend_from_slice(extra);
        let mut b = vec!["moves"];
        b.extend_from_slice(extra);
        if !extra.contains(&"--variant") {
            b.extend_from_slice(&["--variant", "xiangqi"]);
        }
        assert_eq!(ok(&a), ok(&b), "{extra:?}");
    }
    assert_eq!(lines(&ok(&["moves", "--variant-file", XIANGQI_FILE])).len(), 44);
    assert_eq!(ok(&["perft", "--variant-file", XIANGQI_FILE, "2"]), ok(&["perft", "--variant", "xiangqi", "2"]));
}

#[test]
fn variant_file_name_mismatch() {
    fails(&["moves", "--variant", "chess", "--variant-file", XIANGQI_FILE], &["xiangqi.toml", "'xiangqi'", "'chess'"]);
}

#[test]
fn variant_file_bad_xbetza() {
    let text = xiangqi_text().replace("betza = \"mRcpR\"", "betza = \"mR%cpR\"");
    assert_ne!(text, xiangqi_text(), "the cannon line moved");
    let f = TempFile::new("bad-betza", &text);
    fails(&["moves", "--variant-file", f.path()], &[f.path(), "XBetza", "mR%cpR"]);
}

#[test]
fn variant_file_unknown_key_names_file_and_line() {
    let mut ls: Vec<String> = xiangqi_text().lines().map(String::from).collect();
    let at = ls.iter().position(|l| l.trim() == "[rules]").expect("[rules] table") + 1;
    ls.insert(at, "frobnicate = true".into());
    let f = TempFile::new("unknown-key", &ls.join("\n"));
    let line = format!("{}:{}:", f.path(), at + 1);
    fails(&["moves", "--variant-file", f.path()], &[&line, "frobnicate"]);
}

#[test]
fn variant_file_missing() {
    let missing = std::env::temp_dir().join(format!("chimera-cli-test-{}-no-such-file.toml", std::process::id()));
    let missing = missing.to_str().unwrap();
    fails(&["moves", "--variant-file", missing], &["cannot read variant file", missing]);
}

#[test]
fn variant_file_not_toml() {
    let f = TempFile::new("garbage", "this is [not toml\n\u{0}\u{ff}");
    fails(&["moves", "--variant-file", f.path()], &[f.path()]);
}

// ---- errors ------------------------------------------------------------------

#[test]
fn bad_fens() {
    let cases: &[(&str, &[&str])] = &[
        ("rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", &["bad FEN", "board", "4 ranks"]),
        ("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["board", "'X' is not a piece"]),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["board", "more than 8 files"]),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["board", "rank 6"]),
        ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["board", "rank 6"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", &["side to move", "'x'"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", &["castling", "'x'"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", &["en passant", "'z9'"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", &["half-move clock", "'x'"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk", &["unexpected text", "junk"]),
        ("garbage", &["bad FEN", "board"]),
        ("", &["bad FEN", "empty"]),
        ("日本語/♔/8/8/8/8/8/8 w - - 0 1", &["bad FEN", "board"]),
    ];
    for (fen, needles) in cases {
        fails(&["moves", "--variant", "chess", "--fen", fen], needles);
    }
    // a xiangqi FEN is not a chess FEN, and chess castling is not xiangqi's
    fails(
        &[
            "moves",
            "--variant",
            "chess",
            "--fen",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ],
        &["bad FEN", "board"],
    );
    fails(
        &[
            "moves",
            "--variant",
            "xiangqi",
            "--fen",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQkq - 0 1",
        ],
        &["castling"],
    );
}

#[test]
fn fen_with_huge_empty_run() {
    fails(
        &["moves", "--variant", "chess", "--fen", "p2147483647/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
        &["board"],
    );
}

#[test]
fn fen_with_huge_counters() {
    let base = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    for fen in [format!("{base} w KQkq - 0 4294967295"), format!("{base} w KQkq - 4294967295 1")] {
        let r = chimera(&["moves", "--variant", "chess", "--fen", &fen, "--moves", "g1f3 g8f6"]);
        assert!(!r.stderr.contains("panicked") && matches!(r.code, Some(0 | 2)), "{fen}:\n{}", r.stderr);
    }
}

#[test]
fn unknown_variant() {
    fails(&["moves", "--variant", "nonesuch"], &["unknown variant 'nonesuch'", "chess"]);
    fails(&["perft", "--variant", "nonesuch", "1"], &["unknown variant 'nonesuch'"]);
    fails(&["moves"], &["--variant is required"]);
}

#[test]
fn illegal_move_in_list_names_index_and_text() {
    fails(&["moves", "--variant", "chess", "--moves", "e2e4 e7e5 e2e4"], &["move 3", "'e2e4'", "not a legal move"]);
    fails(&["moves", "--variant", "chess", "--moves", "e2e5"], &["move 1", "'e2e5'", "not a legal move"]);
    // a janggi pass is not a chess move
    fails(&["moves", "--variant", "chess", "--moves", "e1e1"], &["move 1", "'e1e1'"]);
    fails(&["perft", "--variant", "xiangqi", "--moves", "h3e3 h3e3", "1"], &["move 2", "'h3e3'"]);
}

#[test]
fn unparseable_move_names_index_and_text() {
    fails(&["moves", "--variant", "chess", "--moves", "e2e4 zz"], &["move 2", "'zz'"]);
    // (e2-e4 is LAN and reads as e2e4; e2-e5 is no move)
    fails(&["moves", "--variant", "chess", "--moves", "e2-e5"], &["move 1", "'e2-e5'"]);
    fails(&["moves", "--variant", "chess", "--moves", "e2e4 é"], &["move 2", "'é'"]);
    fails(&["moves", "--variant", "chess", "--moves", "i1i2"], &["move 1", "'i1i2'"]);
    fails(&["moves", "--variant", "chess", "--moves", "e2e4,"], &["move 1"]);
}

#[test]
fn bad_perft_depth() {
    fails(&["perft", "--variant", "chess", "x"], &["DEPTH", "'x'"]);
    fails(&["perft", "--variant", "chess", "-1"], &["DEPTH", "'-1'"]);
    fails(&["perft", "--variant", "chess", "0"], &["DEPTH", "1 to 20"]);
    fails(&["perft", "--variant", "chess", "21"], &["DEPTH", "21"]);
    fails(&["perft", "--variant", "chess", "99999999999999999999999"], &["DEPTH"]);
    fails(&["perft", "--variant", "chess"], &["perft needs a DEPTH"]);
    fails(&["perft", "--variant", "chess", "1", "2"], &["unexpected argument '2'"]);
}

#[test]
fn unknown_command_and_options() {
    fails(&["frobnicate"], &["unknown command 'frobnicate'"]);
    fails(&["moves", "--variant", "chess", "--frob"], &["unknown option '--frob'"]);
    fails(&["moves", "--variant"], &["--variant needs a value"]);
    fails(&["moves", "--variant", "chess", "--fen"], &["--fen needs a value"]);
    fails(&["moves", "--variant", "chess", "stray"], &["unexpected argument 'stray'"]);
    fails(&["show", "--variant", "chess", "stray"], &["unexpected argument 'stray'"]);
}

#[cfg(unix)]
#[test]
fn non_utf8_argument() {
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["moves", "--variant"])
        .arg(std::ffi::OsStr::from_bytes(b"ch\xffss"))
        .output()
        .unwrap();
    let r = run_output(out);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.starts_with("error: ") && r.stderr.contains("UTF-8"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

#[test]
fn closed_stdout_is_not_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["perft", "--variant", "chess", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let r = run_output(child.wait_with_output().unwrap());
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

// ---- other commands ----------------------------------------------------------

#[test]
fn variants_lists_builtins() {
    let out = ok(&["variants"]);
    for name in ["chess", "xiangqi", "janggi"] {
        assert!(out.lines().any(|l| l.split('\t').next() == Some(name)), "{name} missing:\n{out}");
    }
}

#[test]
fn show_prints_board_and_fen() {
    // as pyffish writes it: no e.p. square, since no e.p. capture is possible
    let out = ok(&["show", "--variant", "chess", "--moves", "e2e4"]);
    assert_eq!(out.lines().last(), Some("fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{out}");
}

#[test]
fn help() {
    for args in [&[][..], &["help"][..], &["--help"][..]] {
        assert!(ok(args).contains("usage:"), "{args:?}");
    }
}

#[test]
fn highlighting_from_a_square() {
    // a Lion with a knight as bridge and a protected enemy Lion behind it
    let fen = "4k3/8/4p3/3l4/3n4/3L4/8/4K3 w - - 0 1";
    let out = ok(&["moves", "--variant", "mightylion", "--fen", fen, "--from", "d3"]);
    let l = lines(&out);
    assert!(l.contains(&"d4 capture,victim"), "{out}");
    assert!(l.contains(&"d5 capture,second-leg"), "{out}");
    assert!(l.contains(&"d3 second-leg,pass"), "{out}");
    let via = ok(&["moves", "--variant", "mightylion", "--fen", fen, "--from", "d3", "--via", "d4"]);
    assert_eq!(lines(&via).len(), 8, "{via}");
    assert!(lines(&via).contains(&"d3 move,second-leg"));
    let pawn = ok(&["moves", "--variant", "chess", "--from", "e2"]);
    assert_eq!(lines(&pawn), vec!["e4 move", "e3 move"]);
    fails(&["moves", "--variant", "chess", "--from", "z9"], &["--from", "'z9'"]);
    fails(&["moves", "--variant", "chess", "--via", "e4"], &["--via needs --from"]);
}

#[test]
fn perft_reference_method_agrees() {
    let fast = ok(&["perft", "--variant", "janggi", "3"]);
    let reference = ok(&["perft", "--variant", "janggi", "--reference", "3"]);
    assert_eq!(parse_perft(&fast).1, 33_000);
    assert_eq!(parse_perft(&reference).1, 33_000);
}

#[test]
fn variants_ini_files() {
    let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/user_variants.ini");
    let out = ok(&["perft", "--variant-file", ini, "--variant", "nightriders", "2"]);
    assert_eq!(parse_perft(&out).1, 576);
    fails(&["moves", "--variant-file", ini], &["--variant", "nightriders"]);
    fails(&["moves", "--variant-file", ini, "--variant", "nosuch"], &["no variant 'nosuch'"]);
    let dir = TempDir::new("ini");
    let bad = dir.file("bad.ini", "[x:chess]\nblastOnCapture = true\n");
    fails(&["moves", "--variant-file", &bad, "--variant", "x"], &["bad.ini:2", "blastOnCapture"]);
}

#[test]
fn variant_file_with_a_bad_start_fen_is_an_error() {
    let dir = TempDir::new("startfen");
    let text = "name = \"x\"\nfiles = 4\nranks = 4\nstart_fen = \"k3/4/4/3K x - - 0 1\"\n[[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n";
    let path = dir.file("badstart.toml", text);
    fails(&["moves", "--variant-file", &path], &["start_fen", "side to move"]);
}

#[test]
fn fens_the_variant_cannot_have_are_refused_unless_permissive() {
    for fen in ["8/8/8/8/8/8/8/8 w - - 0 1", "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1"] {
        let err = fails(&["moves", "--variant", "chess", "--fen", fen], &["bad FEN", "royal pieces", "royal king"]);
        assert_eq!(err.lines().count(), 1, "{err}");
        // analysis may still read them
        ok(&["show", "--variant", "chess", "--permissive", "--fen", fen]);
        ok(&["result", "--variant", "chess", "--no-validate", "--fen", fen]);
    }
    fails(&["show", "--variant", "chess", "--fen", "8/8/8/8/8/8/8/3Kk3 w - - 0 1"], &["attack each other"]);
    // variants without royal pieces take any number of kings
    ok(&["moves", "--variant", "antichess", "--fen", "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1"]);
}

#[test]
fn result_of_dead_positions_and_janggi_counts() {
    let result = |variant: &str, fen: &str, moves: &str| {
        ok(&["result", "--variant", variant, "--fen", fen, "--moves", moves]).trim().to_string()
    };
    assert_eq!(result("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ""), "1/2-1/2 insufficient material");
    assert_eq!(result("chess", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", ""), "1/2-1/2 insufficient material");
    assert_eq!(result("chess", "4k3/8/8/8/8/8/8/4KR2 w - - 0 1", ""), "*");
    // Janggi: two passes end the game; the points decide, Han (Black) adding 1.5
    let kings = "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1";
    assert_eq!(
        result("janggi", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e2e2 d10d10"),
        "0-1 game ended by rule, point count"
    );
    // bikjang: the generals face each other after a pass
    assert_eq!(result("janggi", kings, "e2e2"), "0-1 game ended by rule, point count");
    let rook_vs_soldiers = "3k5/9/9/p1p1p1p1p/9/9/9/9/4K4/R8 w - - 0 1";
    assert_eq!(result("janggi", rook_vs_soldiers, "e2e2 d10d10"), "1-0 game ended by rule, point count");
    // without points in its definition a game ended by rule is drawn
    assert_eq!(result("janggicasual", rook_vs_soldiers, "e2e2 d10d10"), "1/2-1/2 game ended by rule");
    // a threefold repetition is counted too
    let shuffle = "e2e3 d10d9 e3e2 d9d10 e2e3 d10d9 e3e2 d9d10";
    assert_eq!(result("janggi", rook_vs_soldiers, shuffle), "1-0 repetition, point count");
    assert_eq!(result("janggicasual", rook_vs_soldiers, shuffle), "1/2-1/2 repetition");
    // generals alone are no dead position where the points decide: Han wins them
    let generals = "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1";
    assert_eq!(result("janggi", generals, ""), "*");
    assert_eq!(result("janggi", generals, shuffle), "0-1 repetition, point count");
    assert_eq!(result("janggicasual", generals, ""), "1/2-1/2 insufficient material");
}

#[test]
fn version_and_help_for_every_command() {
    assert_eq!(ok(&["--version"]).trim(), format!("chimera {}", env!("CARGO_PKG_VERSION")));
    for cmd in ["moves", "perft", "show", "result", "variants", "uci", "xboard", "bench", "soak-worker", "help"] {
        let out = ok(&[cmd, "--help"]);
        assert!(out.starts_with("usage: chimera"), "{cmd}: {out}");
    }
    fails(&["nonesuch", "--help"], &["unknown command 'nonesuch'"]);
}

#[test]
fn variant_names_in_any_case_and_near_misses() {
    assert_eq!(ok(&["moves", "--variant", "XiangQi"]).lines().count(), 44);
    fails(&["moves", "--variant", "chesss"], &["unknown variant 'chesss' (did you mean 'chess'"]);
    fails(&["moves", "--variant", "janggy"], &["did you mean 'janggi'"]);
}

#[test]
fn from_names_an_empty_square_or_the_other_sides_piece() {
    fails(&["moves", "--variant", "chess", "--from", "e4"], &["--from: e4 is empty"]);
    fails(&["moves", "--variant", "chess", "--from", "e7"], &["the piece on e7 is Black's, and White is to move"]);
}

#[test]
fn a_move_after_the_end_of_the_game_says_the_game_is_over() {
    fails(
        &["moves", "--variant", "chess", "--moves", "f2f3 e7e5 g2g4 d8h4 a2a3"],
        &["move 5: 'a2a3': the game is over (0-1 checkmate)"],
    );
    // an illegal move in a game that goes on is only illegal
    let e = fails(&["moves", "--variant", "chess", "--moves", "e2e4 e2e4"], &["not a legal move"]);
    assert!(!e.contains("game is over"), "{e}");
}

#[test]
fn show_prints_promoted_pieces_hands_and_the_side_to_move() {
    let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1+B5R1/LNSGKGSNL[Pp] b - - 0 1";
    let out = ok(&["show", "--variant", "shogi", "--fen", fen]);
    assert!(out.contains(" 2   . +B  .  .  .  .  .  R  ."), "{out}");
    assert!(out.contains("to move: Black") && out.contains("in hand: White P, Black p"), "{out}");
    let out = ok(&["show", "--variant", "chess"]);
    assert!(out.contains("to move: White") && !out.contains("in hand"), "{out}");
}

#[test]
fn xiangqi_fens_may_write_the_horse_h_and_the_elephant_e() {
    // pyffish reads them (and writes n and b)
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";
    let out = ok(&["show", "--variant", "xiangqi", "--fen", fen]);
    assert_eq!(out.lines().last(), Some("fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"));
    assert_eq!(ok(&["moves", "--variant", "xiangqi", "--fen", fen]).lines().count(), 44);
}

// ---- pgn -----------------------------------------------------------------------

/// Runs `chimera ARGS` with `input` on stdin.
fn chimera_stdin(args: &[&str], input: &str) -> Run {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    run_output(child.wait_with_output().unwrap())
}

#[test]
fn pgn_writes_a_game_with_its_result() {
    let out = ok(&["pgn", "--variant", "chess", "--moves", "f2f3 e7e5 g2g4 Qh4#"]);
    assert!(out.starts_with("[Event \"?\"]\n"), "{out}");
    assert!(out.contains("[Result \"0-1\"]\n[Variant \"chess\"]\n\n1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n"), "{out}");
    assert!(!out.contains("[FEN"), "{out}");
    let out = ok(&["pgn", "--variant", "xiangqi", "--moves", "h3e3"]);
    assert!(out.contains("1. Che3 *"), "{out}");
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
    let out = ok(&["pgn", "--variant", "chess", "--fen", fen, "--moves", "e8d7"]);
    assert!(out.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]")) && out.contains("7... Kd7 *"), "{out}");
    // and reads back
    let r = chimera_stdin(&["pgn", "--read", "-"], &out);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, "1\tok\t8/3k4/8/8/8/8/4P3/4K3 w - - 1 8\te8d7\n");
    fails(&["pgn", "--variant", "chess", "--moves", "e2e4 e2e4"], &["move 2", "e2e4"]);
    fails(&["pgn", "--variant", "chess", "--moves", "f2f3 e7e5 g2g4 d8h4 a2a3"], &["game is over"]);
    fails(&["pgn", "--variant", "nonesuch"], &["unknown variant"]);
    fails(&["pgn", "--variant", "chess", "extra"], &["unexpected argument"]);
}

#[test]
fn pgn_read_checks_every_game() {
    let text =
        "[Event \"a\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 {c} d5 (1... e5) 2. exd5 Qxd5 3. Nc3 Qa5 4. P@b4 *\n\n\
                [Event \"b\"]\n\n1. e4 e5 2. Ke3 1-0\n\n\
                [Event \"c\"]\n[Variant \"shogi\"]\n\n1. P-76 P-34 *\n";
    let file = TempFile::new("games.pgn", text);
    let r = chimera(&["pgn", "--read", file.path()]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let l = lines(&r.stdout);
    assert_eq!(l.len(), 3, "{}", r.stdout);
    assert!(l[0].starts_with("1\tok\t") && l[0].ends_with("\te2e4 d7d5 e4d5 d8d5 b1c3 d5a5 P@b4"), "{}", l[0]);
    assert!(l[1].starts_with("2\terror\tgame 2, line 8, 'Ke3': illegal move at 2. (White to move)"), "{}", l[1]);
    assert!(l[2].starts_with("3\tok\t") && l[2].ends_with("\tc3c4 g7g6"), "{}", l[2]);
    assert!(
        r.stderr.starts_with("error: 1 of 3 games could not be read") && r.stderr.lines().count() == 1,
        "{}",
        r.stderr
    );
    // a game without a Variant tag is --variant's
    let r = chimera_stdin(&["pgn", "--read", "-", "--variant", "xiangqi"], "1. Che3 Hg8 *");
    assert_eq!(r.stdout.lines().next().map(|l| l.ends_with("\th3e3 h10g8")), Some(true), "{}", r.stdout);
    fails(&["pgn", "--read", "/nonexistent/games.pgn"], &["cannot read"]);
    let empty = TempFile::new("empty.pgn", "{only a comment}\n");
    fails(&["pgn", "--read", empty.path()], &["no game"]);
    assert!(ok(&["pgn", "--help"]).contains("--read FILE"));
    assert!(ok(&["help"]).contains("chimera pgn"));
}

#[test]
fn pgn_reads_the_pyffish_reference_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/pgn");
    for v in ["chess", "shogi", "janggi", "seirawan"] {
        let out = ok(&["pgn", "--read", &format!("{dir}/{v}.pgn")]);
        assert!(out.lines().count() >= 6 && out.lines().all(|l| l.contains("\tok\t")), "{v}:\n{out}");
    }
}

/// A 16×16 board with four pawns, a knight, a bishop, a queen and a king a side
/// (more than 255 squares: it runs on the wide build).
fn wide16_text(files: usize, ranks: usize) -> String {
    let pad = |n: usize| if n == 0 { String::new() } else { n.to_string() };
    let empty = vec![files.to_string(); ranks - 4].join("/");
    let fen = format!(
        "1nbqk{}/pppp{}/{empty}/PPPP{}/1NBQK{} w - - 0 1",
        pad(files - 5),
        pad(files - 4),
        pad(files - 4),
        pad(files - 5)
    );
    format!(
        "name = \"wide16\"\nfiles = {files}\nranks = {ranks}\nstart_fen = \"{fen}\"\n\n\
         [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fmWfcF\"\n\n\
         [[piece]]\nname = \"knight\"\nletter = \"n\"\nbetza = \"N\"\n\n\
         [[piece]]\nname = \"bishop\"\nletter = \"b\"\nbetza = \"B\"\n\n\
         [[piece]]\nname = \"queen\"\nletter = \"q\"\nbetza = \"Q\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n"
    )
}

#[test]
fn boards_beyond_255_squares_run_on_the_wide_build() {
    let f = TempFile::new("wide16", &wide16_text(16, 16));
    // by hand: four pawn steps, Nb1a3 Nb1c3, the queen's diagonal d1-p13
    // (12 squares: c2 and d2 hold pawns, e1 the king) and Ke2 Kf1 Kf2
    let out = ok(&["moves", "--variant-file", f.path()]);
    let moves = lines(&out);
    assert_eq!(moves.len(), 4 + 2 + 12 + 3, "{moves:?}");
    for m in ["a2a3", "b1c3", "d1p13", "e1f2"] {
        assert!(moves.contains(&m), "{m} in {moves:?}");
    }
    let fast = ok(&["perft", "--variant-file", f.path(), "3"]);
    let slow = ok(&["perft", "--variant-file", f.path(), "--reference", "3"]);
    assert_eq!(fast, slow);
    assert!(ok(&["show", "--variant-file", f.path()]).contains("a b c d e f g h i j k l m n o p"));
    // files beyond z on 30x20: a queen on a10 reaches ad10 (29 squares along
    // the rank), a11-a20 and a2-a9 (10 + 8), b11-k20 and b9-j1 (10 + 9)
    let f30 = TempFile::new("wide30", &wide16_text(30, 20));
    let fen = format!("2k27/{}/Q29/{}/K29 w - - 0 1", ["30"; 9].join("/"), ["30"; 8].join("/"));
    let out = ok(&["moves", "--variant-file", f30.path(), "--fen", &fen]);
    let moves = lines(&out);
    let queen: Vec<&str> = moves.iter().copied().filter(|m| m.starts_with("a10")).collect();
    assert_eq!(queen.len(), 29 + 10 + 8 + 10 + 9, "{queen:?}");
    for m in ["a10ad10", "a10aa10", "a10z10", "a10k20", "a10j1"] {
        assert!(queen.contains(&m), "{m} in {queen:?}");
    }
    // beyond 36x36: an error that names the wide limits
    let big = TempFile::new("wide37", &wide16_text(37, 8));
    fails(&["moves", "--variant-file", big.path()], &["37x8", "36x36", "1296"]);
}

/// `chimera tune --measure-tempo` reads the positions of a data file and
/// prints the variant's tempo and the consistent one; a fit writes the
/// consistent tempo into the weights file (and the fitted one with
/// `--fitted-tempo`).
#[test]
fn tune_writes_and_measures_the_consistent_tempo() {
    let data = ok(&["selfplay", "--variant", "chess", "--games", "2", "--nodes", "300", "--seed", "3"]);
    assert!(data.lines().count() > 20, "{data}");
    let d = TempFile::new("tempo-data", &data);
    let out = ok(&["tune", "--variant", "chess", "--data", d.path(), "--measure-tempo"]);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("tempo of the weights: "), "{out}");
    let line = out.lines().find(|l| l.starts_with("consistent tempo: ")).unwrap_or_else(|| panic!("{out}"));
    let t: f64 = line["consistent tempo: ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(t > 0.0 && t < 200.0, "{out}");
    let w = TempFile::new("tempo-weights", "");
    let printed = ok(&["tune", "--variant", "chess", "--data", d.path(), "--iterations", "5", "--out", w.path()]);
    let text = std::fs::read_to_string(&w.0).unwrap();
    let tempo_line = text.lines().find(|l| l.starts_with("tempo ")).unwrap_or_else(|| panic!("{text}"));
    let written: f64 = tempo_line[6..].parse().unwrap();
    let note = printed.lines().find(|l| l.contains("one-ply consistent")).unwrap_or_else(|| panic!("{printed}"));
    assert!(note.starts_with(&format!("tempo {written}: ")), "{note} / {tempo_line}");
    assert!(text.contains(&format!("# {note}")), "{text}");
    let printed = ok(&[
        "tune",
        "--variant",
        "chess",
        "--data",
        d.path(),
        "--iterations",
        "5",
        "--fitted-tempo",
        "--out",
        w.path(),
    ]);
    assert!(printed.contains(": fitted (--fitted-tempo)"), "{printed}");
    fails(&["tune", "--variant", "chess", "--data", d.path(), "--tempo"], &["unknown option '--tempo'"]);
}

/// `chimera tune --start` fits from a weights file (or the weights in use)
/// instead of the derived defaults: the error before the fit is the start's,
/// and a bad start is an error that names it.
#[test]
fn tune_starts_from_a_weights_file_or_the_weights_in_use() {
    let data = ok(&["selfplay", "--variant", "chess", "--games", "2", "--nodes", "300", "--seed", "5"]);
    let d = TempFile::new("start-data", &data);
    let w = TempFile::new("start-out", "");
    let before = |out: &str| -> String {
        out.lines().find(|l| l.starts_with("error before: ")).unwrap_or_else(|| panic!("{out}")).to_string()
    };
    let tune = |extra: &[&str]| {
        let mut args = vec!["tune", "--variant", "chess", "--data", d.path(), "--iterations", "2", "--out", w.path()];
        args.extend_from_slice(extra);
        ok(&args)
    };
    let derived = tune(&[]);
    assert!(derived.contains("start: the derived defaults"), "{derived}");
    let in_use = tune(&["--start", "builtin"]);
    assert!(in_use.contains("start: the weights in use"), "{in_use}");
    assert_ne!(before(&derived), before(&in_use));
    // a file giving a pawn of 300: the error before is neither
    let f = TempFile::new("start-weights", "value.p 300\n");
    let from_file = tune(&["--start", f.path()]);
    assert!(from_file.contains(&format!("start: '{}'", f.path())), "{from_file}");
    assert_ne!(before(&from_file), before(&derived));
    assert!(std::fs::read_to_string(&w.0).unwrap().contains("from '"));
    let bad = TempFile::new("start-bad", "value.p 1\nbogus 2\n");
    fails(
        &["tune", "--variant", "chess", "--data", d.path(), "--start", bad.path()],
        &["weights file", "line 2", "unknown weight 'bogus'"],
    );
    let makruk = ok(&["selfplay", "--variant", "makruk", "--games", "1", "--nodes", "200", "--seed", "5"]);
    let m = TempFile::new("start-makruk", &makruk);
    fails(&["tune", "--variant", "makruk", "--data", m.path(), "--start", "builtin"], &["no weights file in use"]);
}
