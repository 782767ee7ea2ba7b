//! Protocol sessions with the `chimera` binary: UCI, XBoard, USI and UCCI
//! scripts, bad input answered by error lines, and `chimera bench`.

use chimera::builtin;
use chimera::position::Position;
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const USER_INI: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/user_variants.ini");

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run chimera")
}

/// Waits for the process to exit (killing it after `limit`); returns stdout and stderr.
fn collect(mut child: Child, limit: Duration) -> (String, String) {
    let t0 = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chimera did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut out = String::new();
    let mut err = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(!err.contains("panicked"), "chimera panicked:\n{err}");
    (out, err)
}

/// Feeds a whole script, closes stdin, and returns stdout.
fn session(args: &[&str], script: &str) -> String {
    let mut child = spawn(args);
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    collect(child, Duration::from_secs(60)).0
}

fn bestmove(out: &str) -> &str {
    let line = out.lines().rev().find(|l| l.starts_with("bestmove ")).unwrap_or_else(|| panic!("no bestmove:\n{out}"));
    line.split_whitespace().nth(1).unwrap()
}

fn legal_in(variant: &str, fen: Option<&str>, moves: &[&str], m: &str) -> bool {
    let v = Arc::new(builtin::variant(variant).unwrap());
    let mut p = match fen {
        Some(f) => Position::from_fen(v, f).unwrap(),
        None => Position::start(v),
    };
    for x in moves {
        let mv = p.parse_move(x).unwrap();
        p.make(mv);
    }
    p.parse_move(m).is_ok()
}

/// A move with ranks counted from 0 (XBoard on 10 ranks, UCCI) in the core's notation.
fn zero_based_to_core(m: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in m.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(&(digits.parse::<u32>().unwrap() + 1).to_string());
            digits.clear();
        }
        if c != ' ' {
            out.push(c);
        }
    }
    out
}

#[test]
fn uci_handshake_and_search() {
    let out = session(&["uci"], "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 4\n");
    let lines: Vec<&str> = out.lines().collect();
    let ok = lines.iter().position(|l| *l == "uciok").expect("uciok");
    assert!(lines[..ok].iter().any(|l| l.starts_with("id name Chimera")), "{out}");
    assert!(lines[..ok]
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant type combo") && l.contains("var xiangqi")));
    assert!(lines.contains(&"readyok"), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ") && l.contains(" score cp ") && l.contains(" pv ")));
    assert!(legal_in("chess", None, &["e2e4", "e7e5"], bestmove(&out)), "{out}");
}

#[test]
fn uci_finds_a_mate() {
    let out = session(&["uci"], "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3\n");
    assert!(out.contains("score mate 1"), "{out}");
    assert_eq!(bestmove(&out), "a1a8");
}

#[test]
fn uci_variant_switch_and_variant_file() {
    let out =
        session(&["uci"], "setoption name UCI_Variant value xiangqi\nposition startpos moves h3e3\ngo nodes 3000\n");
    assert!(legal_in("xiangqi", None, &["h3e3"], bestmove(&out)), "{out}");
    let script = format!(
        "setoption name VariantPath value {USER_INI}\nsetoption name UCI_Variant value cannons\nposition startpos\ngo depth 2\nd\n"
    );
    let out = session(&["uci"], &script);
    assert!(out.contains("info string loaded variants:") && out.contains("cannons"), "{out}");
    assert!(!out.contains("error"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ") && !l.contains("(none)")), "{out}");
}

#[test]
fn bad_input_gets_error_lines_and_the_engine_goes_on() {
    let script = "uci\nfoo bar\nposition fen not/a/fen w - - 0 1\nposition startpos moves e2e4 e2e4\n\
                  setoption name Nonsense value 3\nsetoption name Hash value lots\nsetoption name UCI_Variant value nonesuch\n\
                  go depth x\ngo sideways 3 depth 2\nisready\nd\n";
    let out = session(&["uci"], script);
    let errors = out.lines().filter(|l| l.starts_with("info string error: ")).count();
    assert_eq!(errors, 8, "{out}");
    assert!(out.contains("readyok"), "{out}");
    // the bad position commands changed nothing: still the start position
    assert!(out.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn isready_and_stop_are_answered_during_a_search() {
    let mut child = spawn(&["uci"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"uci\nposition startpos\ngo infinite\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(b"isready\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    stdin.write_all(b"stop\nquit\n").unwrap();
    drop(stdin);
    let (out, _) = collect(child, Duration::from_secs(20));
    let ready = out.find("readyok").expect("readyok");
    let best = out.find("bestmove").expect("bestmove");
    assert!(ready < best, "isready is answered while searching:\n{out}");
}

/// Fuzz finding 21 (protocol target): in Clobber every move captures, so the
/// quiescence search of depth 1 is a search of the rest of the game, and
/// depth 1 could not be interrupted: `go movetime` and `stop` got no
/// `bestmove`. A time limit and `stop` now interrupt depth 1 too (a legal
/// move is played).
#[test]
fn time_limits_and_stop_interrupt_even_the_first_iteration() {
    let out =
        session(&["uci"], "uci\nsetoption name UCI_Variant value clobber10\nposition startpos\ngo movetime 100\n");
    assert!(legal_in("clobber10", None, &[], bestmove(&out)), "{out}");
    let mut child = spawn(&["uci"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"uci\nsetoption name UCI_Variant value clobber10\nposition startpos\ngo infinite\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(b"stop\nquit\n").unwrap();
    drop(stdin);
    let (out, _) = collect(child, Duration::from_secs(20));
    assert!(legal_in("clobber10", None, &[], bestmove(&out)), "{out}");
}

/// Finding 21, the rest: a depth-only search in Clobber (`go depth N`, or
/// XBoard's `sd N` with no clock) never ended, because every move captures
/// and the capture search below depth 1 was the rest of the game.
#[test]
fn depth_only_searches_end_where_every_move_captures() {
    let out = session(&["uci"], "uci\nsetoption name UCI_Variant value clobber10\nposition startpos\ngo depth 4\n");
    assert!(out.contains("info depth 4 "), "{out}");
    assert!(legal_in("clobber10", None, &[], bestmove(&out)), "{out}");
    let out = session(&["xboard"], "xboard\nprotover 2\nnew\nvariant clobber10\nsd 3\ngo\nping 1\n");
    let mv = out.lines().find_map(|l| l.strip_prefix("move ")).unwrap_or_else(|| panic!("no move:\n{out}"));
    assert!(legal_in("clobber10", None, &[], &zero_based_to_core(mv)), "{mv}\n{out}");
    assert!(out.contains("pong 1"), "{out}");
}

/// Chess960 castling through the protocols: UCI_Chess960 turns it on for
/// orthodox chess (castling is then the king's move onto its rook, as in
/// Fairy-Stockfish), and XBoard's fischerandom writes it O-O / O-O-O.
#[test]
fn chess960_castling_in_uci_and_xboard() {
    let fen = "4k3/8/8/8/8/8/8/1KR5 w C - 0 1";
    let script = format!(
        "uci\nsetoption name UCI_Chess960 value true\nposition fen {fen} moves b1c1\nd\n\
         setoption name UCI_Chess960 value false\nposition fen {fen} moves b1c1\nsetoption name UCI_Chess960 value maybe\n"
    );
    let out = session(&["uci"], &script);
    assert!(out.contains("option name UCI_Chess960 type check default false"), "{out}");
    // the castled position: king g1, rook f1
    assert!(out.contains("4k3/8/8/8/8/8/8/5RK1 b - - 1 1"), "{out}");
    // without Chess960 the right is refused (the king is not on its home file)
    assert!(out.contains("error"), "{out}");
    assert!(out.contains("must be true or false"), "{out}");
    let script = "xboard\nprotover 2\nnew\nvariant fischerandom\nforce\n\
                  setboard rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\nusermove O-O-O\nusermove O-O\nusermove O-O\nping 1\n";
    let out = session(&["xboard"], script);
    assert!(out.contains("fischerandom"), "{out}");
    // White's O-O-O (king b1-c1, rook a1-d1) and Black's O-O are legal; a
    // second castling by White is not
    let illegal: Vec<&str> = out.lines().filter(|l| l.starts_with("Illegal move")).collect();
    assert_eq!(illegal.len(), 1, "{out}");
    assert!(illegal[0].contains("O-O"), "{out}");
    assert!(out.contains("pong 1"), "{out}");
}

#[test]
fn protocol_is_detected_from_the_first_command() {
    let out = session(&[], "uci\nisready\n");
    assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
    let out = session(&["engine"], "xboard\nprotover 2\nping 1\n");
    assert!(out.contains("feature done=1") && out.contains("pong 1"), "{out}");
    let out = session(&["engine"], "hello\nusi\n");
    assert!(out.starts_with("error: the first command must be"), "{out}");
    assert!(out.contains("usiok"), "{out}");
}

#[test]
fn xboard_session() {
    let script = "xboard\nprotover 2\nnew\nvariant xiangqi\nsd 3\npost\nusermove h2e2\nping 9\n";
    let out = session(&["xboard"], script);
    let features: String = out.lines().filter(|l| l.starts_with("feature")).collect();
    for f in ["setboard=1", "usermove=1", "highlight=1", "done=1", "xiangqi", "normal", "lion", "janggi"] {
        assert!(features.contains(f), "{f}: {features}");
    }
    let mv = out.lines().find_map(|l| l.strip_prefix("move ")).expect("a move");
    // XBoard counts Xiangqi ranks from 0
    assert!(legal_in("xiangqi", None, &["h3e3"], &zero_based_to_core(mv)), "{mv}\n{out}");
    assert!(out.lines().any(|l| l.starts_with("3 ")), "thinking output:\n{out}");
    assert!(out.contains("pong 9"), "{out}");
}

#[test]
fn xboard_errors_and_highlights() {
    let script = "xboard\nprotover 2\nnew\nforce\nfrobnicate\nusermove e2e5\nusermove e2e4\nlift g8\nlift e7\n\
                  variant mightylion\nsetboard 4k3/8/4p3/3l4/3n4/3L4/8/4K3 w - - 0 1\nlift d3\nput d4\nsetboard 9/9\nvariant janggi\nping 2\n";
    let out = session(&["xboard"], script);
    assert!(out.contains("Error (unknown command): frobnicate"), "{out}");
    assert!(out.contains("Illegal move") && out.contains("e2e5"), "{out}");
    // after 1. e4 the black knight on g8 may go to f6 and h6
    assert!(out.contains("highlight 8/8/5Y1Y/8/8/8/8/8"), "{out}");
    // the black pawn e7: e6 and e5
    assert!(out.contains("highlight 8/8/4Y3/4Y3/8/8/8/8"), "{out}");
    // the Lion: the knight on d4 is a first leg (cyan), the Lion behind it a capture
    let lion = out.lines().find(|l| l.starts_with("highlight") && l.contains('C')).expect("lion highlight");
    assert_eq!(lion, "highlight 8/8/8/1YYRYY2/1YYCYY2/1YYYYY2/1YYYYY2/1YYY1Y2", "{out}");
    assert!(out.contains("tellusererror Illegal position"), "{out}");
    // janggi is unknown to XBoard: setup and piece commands
    assert!(out.lines().any(|l| l.starts_with("setup (") && l.contains("9x10+0_fairy")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("piece N& ")), "{out}");
    assert!(out.contains("pong 2"), "{out}");
}

#[test]
fn usi_session() {
    let out = session(
        &["usi"],
        "usi\nisready\nusinewgame\nposition sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f\ngo btime 0 wtime 0 byoyomi 300\n",
    );
    assert!(out.contains("usiok") && out.contains("readyok"), "{out}");
    let m = bestmove(&out);
    // USI coordinates: a digit file and a letter rank, then the same or a drop
    let b = m.as_bytes();
    assert!(b.len() >= 4 && b[0].is_ascii_digit() && b[1].is_ascii_lowercase(), "{m}");
    let out = session(&["usi"], "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo depth 3\n");
    assert_eq!(bestmove(&out), "G*5b", "{out}");
    assert!(out.contains("score mate 1"), "{out}");
}

#[test]
fn ucci_session() {
    let out = session(
        &["ucci"],
        "ucci\nisready\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1 moves h2e2\ngo depth 3\n",
    );
    assert!(out.contains("ucciok") && out.contains("readyok"), "{out}");
    let m = bestmove(&out);
    let core = zero_based_to_core(m);
    assert!(legal_in("xiangqi", None, &["h3e3"], &core), "{m}\n{out}");
    let out = session(&["ucci"], "position fen bogus\nquit\n");
    assert!(out.contains("info error:") && out.contains("bye"), "{out}");
}

#[test]
fn bench_prints_the_totals() {
    let child = spawn(&["bench", "2"]);
    let (out, _) = collect(child, Duration::from_secs(60));
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(lines[n - 2].starts_with("Nodes searched: "), "{out}");
    assert!(lines[n - 1].starts_with("Nodes/second: "), "{out}");
    let nodes: u64 = lines[n - 2]["Nodes searched: ".len()..].parse().unwrap();
    assert!(nodes > 100);
    // deterministic
    let (again, _) = collect(spawn(&["bench", "2"]), Duration::from_secs(60));
    assert!(again.contains(lines[n - 2]), "{again}");
    let (_, err) = collect(spawn(&["bench", "0"]), Duration::from_secs(10));
    assert!(err.starts_with("error: bench DEPTH"), "{err}");
}

#[test]
fn xboard_second_leg_survives_the_lift_after_put() {
    // XBoard, after the user drops the Lion on a locust victim, sends `put`
    // and then `lift` from that square: both must show the second leg
    let script = "xboard\nprotover 2\nvariant mightylion\nforce\n\
                  setboard 4k3/8/4p3/3l4/3n4/3L4/8/4K3 w - - 0 1\nlift d3\nput d4\nlift d4\nlift e1\nping 3\n";
    let out = session(&["xboard"], script);
    let hl: Vec<&str> = out.lines().filter(|l| l.starts_with("highlight ")).collect();
    assert_eq!(hl.len(), 4, "{out}");
    // the second leg from d4: around it, capturing the Lion on d5
    assert!(hl[1].contains('R') && hl[1] != hl[0], "{out}");
    assert_eq!(hl[1], hl[2], "the lift after the put keeps the second-leg markers: {out}");
    // a new lift starts afresh: the king's moves (e2 is guarded by the knight)
    assert_eq!(hl[3], "highlight 8/8/8/8/8/8/3Y1Y2/3Y1Y2", "{out}");
    assert!(out.contains("pong 3"), "{out}");
}

#[test]
fn result_command_referees_game_ends() {
    let run = |args: &[&str]| {
        let (out, err) = collect(spawn(args), Duration::from_secs(20));
        (out.trim().to_string(), err)
    };
    assert_eq!(run(&["result", "--variant", "chess", "--moves", "f2f3 e7e5 g2g4 d8h4"]).0, "0-1 checkmate");
    assert_eq!(run(&["result", "--variant", "chess", "--moves", "e2e4"]).0, "*");
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    assert_eq!(run(&["result", "--variant", "chess", "--moves", shuffle]).0, "1/2-1/2 repetition");
    // Xiangqi: a stalemated side loses
    let (out, _) = run(&["result", "--variant", "xiangqi", "--fen", "3k5/R8/9/9/9/9/9/9/4R4/4K4 b - - 0 1"]);
    assert_eq!(out, "1-0 stalemate");
    let (_, err) = run(&["result", "--variant", "chess", "--moves", "e2e5"]);
    assert!(err.starts_with("error: --moves: move 1"), "{err}");
    // Makruk counting: pyffish's is_optional_game_end is false at the first
    // position (128 of 128 plies counted) and a draw at the second (130 of 128),
    // two positions of a Chimera-Fairy-Max game (docs/games/match-fairymax-makruk.pgn, game 8)
    let (out, _) = run(&["result", "--variant", "makruk", "--fen", "8/1km5/8/3S4/1n1MKN2/8/1mm5/8 w - 128 128 126"]);
    assert_eq!(out, "*");
    let (out, _) = run(&["result", "--variant", "makruk", "--fen", "8/1km5/n7/2MS4/4KN2/8/1mm5/8 w - 128 130 127"]);
    assert_eq!(out, "1/2-1/2 counting rule");
}

/// The `info ... multipv K ... pv M ...` lines of one depth: (K, first move).
fn multipv_lines(out: &str, depth: u32) -> Vec<(u32, String)> {
    out.lines()
        .filter(|l| l.starts_with(&format!("info depth {depth} ")))
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let k = w.iter().position(|&x| x == "multipv")?;
            let p = w.iter().position(|&x| x == "pv")?;
            Some((w[k + 1].parse().ok()?, w.get(p + 1)?.to_string()))
        })
        .collect()
}

#[test]
fn uci_multipv_reports_distinct_lines_and_searchmoves_restricts_the_root() {
    let out = session(&["uci"], "uci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 4\n");
    assert!(out.contains("option name MultiPV type spin"), "{out}");
    let lines = multipv_lines(&out, 4);
    let ks: Vec<u32> = lines.iter().map(|l| l.0).collect();
    assert_eq!(ks, vec![1, 2, 3], "{out}");
    let mut firsts: Vec<&str> = lines.iter().map(|l| l.1.as_str()).collect();
    assert_eq!(bestmove(&out), firsts[0]);
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different moves: {out}");
    // searchmoves: only the listed moves; with MultiPV above their number, one line each
    let out =
        session(&["uci"], "uci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 4 searchmoves a2a3 h2h4\n");
    let mut firsts: Vec<String> = multipv_lines(&out, 4).into_iter().map(|l| l.1).collect();
    firsts.sort();
    assert_eq!(firsts, vec!["a2a3", "h2h4"], "{out}");
    assert!(["a2a3", "h2h4"].contains(&bestmove(&out)), "{out}");
    // a bad move in searchmoves is an error line, the others still count
    let out = session(&["uci"], "uci\nposition startpos\ngo depth 3 searchmoves e2e5 g1h3\n");
    assert!(out.contains("info string error: go searchmoves: 'e2e5'"), "{out}");
    assert_eq!(bestmove(&out), "g1h3", "{out}");
}

#[test]
fn ucci_banmoves_keeps_the_engine_off_the_banned_moves() {
    let start = "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n";
    let first = session(&["ucci"], &format!("ucci\n{start}go depth 4\n"));
    let best = bestmove(&first).to_string();
    let out = session(&["ucci"], &format!("ucci\n{start}banmoves {best}\ngo depth 4\n"));
    assert_ne!(bestmove(&out), best, "{out}");
    // a new position lifts the ban
    let out = session(&["ucci"], &format!("ucci\n{start}banmoves {best}\n{start}go depth 4\n"));
    assert_eq!(bestmove(&out), best, "{out}");
    let out = session(&["ucci"], &format!("ucci\n{start}banmoves {best} z9z9\ngo depth 4\n"));
    assert!(out.contains("info error: banmoves: 'z9z9'"), "{out}");
    assert_eq!(bestmove(&out), best, "a bad list bans nothing: {out}");
}

#[test]
fn xboard_analyze_mode_with_exclude_and_include() {
    let mut child = spawn(&["xboard"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"xboard\nprotover 2\nnew\nforce\npost\nanalyze\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // only one move left to analyse
    stdin.write_all(b"exclude all\ninclude g2g4\n").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    stdin.write_all(b"exclude e2e9\nexit\nquit\n").unwrap();
    drop(stdin);
    let (out, _) = collect(child, Duration::from_secs(20));
    assert!(out.contains("analyze=1") && out.contains("exclude=1"), "{out}");
    let thinking: Vec<&str> =
        out.lines().filter(|l| l.split_whitespace().next().is_some_and(|w| w.parse::<u32>().is_ok())).collect();
    let last = thinking.last().unwrap_or_else(|| panic!("no thinking output:\n{out}"));
    assert_eq!(last.split_whitespace().nth(4), Some("g2g4"), "{out}");
    assert!(thinking.iter().any(|l| l.split_whitespace().nth(4) != Some("g2g4")), "before the exclusion: {out}");
    assert!(!out.lines().any(|l| l.starts_with("move ")), "analysis plays no move: {out}");
    assert!(out.contains("Error (illegal move"), "{out}");
}

#[test]
fn uci_ponder_holds_the_move_until_ponderhit_or_stop() {
    for (finish, name) in [("ponderhit", "ponderhit"), ("stop", "stop")] {
        let mut child = spawn(&["uci"]);
        let mut stdin = child.stdin.take().unwrap();
        // 300 ms on the clock: a normal search would answer within about 100 ms
        stdin.write_all(b"uci\nposition startpos moves e2e4\ngo ponder wtime 300 btime 300\n").unwrap();
        std::thread::sleep(Duration::from_millis(1200));
        stdin.write_all(b"isready\n").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        stdin.write_all(format!("{finish}\n").as_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(500));
        stdin.write_all(b"quit\n").unwrap();
        drop(stdin);
        let (out, _) = collect(child, Duration::from_secs(20));
        assert!(out.contains("option name Ponder type check"), "{out}");
        let ready = out.find("readyok").unwrap_or_else(|| panic!("{name}: no readyok:\n{out}"));
        let best = out.find("bestmove ").unwrap_or_else(|| panic!("{name}: no bestmove:\n{out}"));
        assert!(best > ready, "{name}: the move came before {name}:\n{out}");
        assert!(legal_in("chess", None, &["e2e4"], bestmove(&out)), "{out}");
    }
}

/// A running engine whose output is read line by line while it runs, for
/// sessions that must not close the input (at the end of the input the
/// engine stops an unlimited search by itself).
struct Live {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    /// Every line read so far.
    seen: Vec<String>,
}

impl Live {
    fn new(args: &[&str]) -> Live {
        let mut child = spawn(args);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Live { child, stdin, lines: rx, seen: Vec::new() }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Reads until a line starting with `prefix`; fails after `limit`.
    /// Returns the lines read, that one included.
    fn until(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
        let t0 = Instant::now();
        let mut got = Vec::new();
        loop {
            let left = limit.saturating_sub(t0.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(_) => panic!("no '{prefix}' within {limit:?}; so far:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// Sends `quit` and waits (at most `limit`) for the process to exit.
    fn quit(mut self, limit: Duration) {
        self.send("quit\n");
        self.stdin = None;
        let t0 = Instant::now();
        while self.child.try_wait().expect("wait").is_none() {
            assert!(t0.elapsed() < limit, "no exit within {limit:?} of quit:\n{}", self.seen.join("\n"));
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(tag: &str, text: &str) -> TempFile {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let path = std::env::temp_dir().join(format!("chimera-engine-test-{}-{nanos}-{tag}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `go perft` ran on the input thread: a deep one could not be stopped and
/// `isready` and `quit` were not read until it ended (perft 12 of chess
/// takes days). It now runs like a search.
#[test]
fn perft_runs_like_a_search_and_can_be_stopped() {
    let child = spawn(&["uci"]);
    let mut child = child;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"uci\nposition startpos\ngo perft 12\nisready\nstop\nisready\ngo perft 3\n").unwrap();
    drop(stdin);
    let (out, _) = collect(child, Duration::from_secs(20));
    assert_eq!(out.matches("readyok").count(), 2, "{out}");
    assert!(out.contains("info string perft stopped"), "{out}");
    // the perft after it runs to the end
    assert!(out.lines().any(|l| l == "Nodes searched: 8902"), "{out}");
    assert_eq!(out.matches("Nodes searched:").count(), 1, "a stopped perft gives no total: {out}");
    // quit ends a running perft at once
    let mut live = Live::new(&["uci"]);
    live.send("uci\ngo perft 12\nisready\n");
    live.until("readyok", Duration::from_secs(10));
    live.quit(Duration::from_secs(10));
}

/// A `go` with a bad number printed an error and then searched without a
/// limit. Times in milliseconds with decimals are rounded; anything else
/// bad refuses the whole command, answered at once with a legal move.
#[test]
fn go_with_bad_numbers_is_refused_and_answered_at_once() {
    let mut live = Live::new(&["uci"]);
    live.send("uci\nposition startpos\n");
    live.until("uciok", Duration::from_secs(10));
    for go in ["go movetime 1.5", "go wtime 1000.5 btime 1000.5 winc 0.4 binc 0.4"] {
        live.send(&format!("{go}\n"));
        let got = live.until("bestmove ", Duration::from_secs(10));
        assert!(!got.iter().any(|l| l.contains("error")), "{go}: {got:?}");
        let m = got.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        assert!(legal_in("chess", None, &[], &m), "{go}: {got:?}");
    }
    for go in ["go depth", "go depth 2.5", "go nodes many", "go wtime 1000 btime", "go movetime inf"] {
        live.send(&format!("{go}\n"));
        let got = live.until("bestmove ", Duration::from_secs(10));
        assert!(got[0].starts_with("info string error: go: "), "{go}: {got:?}");
        let m = got.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        assert!(legal_in("chess", None, &[], &m), "{go}: {got:?}");
    }
    // no legal move: bestmove (none)
    live.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth x\n");
    let got = live.until("bestmove ", Duration::from_secs(10));
    assert_eq!(got.last().unwrap(), "bestmove (none)", "{got:?}");
    live.quit(Duration::from_secs(10));
    // USI and UCCI answer in their own forms
    let mut usi = Live::new(&["usi"]);
    usi.send("usi\nposition startpos\ngo byoyomi x\n");
    let got = usi.until("bestmove ", Duration::from_secs(10));
    assert!(got.iter().any(|l| l.starts_with("info string error: go: ")), "{got:?}");
    assert_ne!(got.last().unwrap(), "bestmove resign", "{got:?}");
    usi.quit(Duration::from_secs(10));
    let mut ucci = Live::new(&["ucci"]);
    ucci.send("ucci\nposition startpos\ngo time 1.5.5\n");
    let got = ucci.until("bestmove ", Duration::from_secs(10));
    assert!(got.iter().any(|l| l.starts_with("info error: go: ")), "{got:?}");
    ucci.quit(Duration::from_secs(10));
}

impl Live {
    /// The lines that arrive within `wait`.
    fn during(&mut self, wait: Duration) -> Vec<String> {
        let t0 = Instant::now();
        let mut got = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(wait.saturating_sub(t0.elapsed())) {
            self.seen.push(l.clone());
            got.push(l);
        }
        got
    }
}

/// Clock values past u64 saturate instead of failing to parse (UCI) or
/// wrapping round to a tiny clock (UCCI seconds times 1000, XBoard
/// centiseconds times 10): the engine thinks on a huge clock.
#[test]
fn huge_clock_values_saturate() {
    let mut live = Live::new(&["uci"]);
    live.send("uci\nposition startpos\ngo wtime 99999999999999999999999 btime 99999999999999999999999\n");
    let got = live.during(Duration::from_millis(1500));
    assert!(!got.iter().any(|l| l.contains("error") || l.starts_with("bestmove")), "{got:?}");
    live.send("stop\n");
    live.until("bestmove ", Duration::from_secs(10));
    live.quit(Duration::from_secs(10));
    let mut ucci = Live::new(&["ucci"]);
    ucci.send("ucci\nposition startpos\ngo time 18446744073709552\n");
    let got = ucci.during(Duration::from_millis(1500));
    assert!(!got.iter().any(|l| l.contains("error") || l.starts_with("bestmove")), "{got:?}");
    ucci.send("stop\n");
    ucci.until("bestmove ", Duration::from_secs(10));
    ucci.quit(Duration::from_secs(10));
    let mut xb = Live::new(&["xboard"]);
    xb.send("xboard\nprotover 2\nnew\ntime 1844674407370955162\notim 1844674407370955162\ngo\n");
    let got = xb.during(Duration::from_millis(1500));
    assert!(!got.iter().any(|l| l.starts_with("move ") || l.starts_with("Error")), "{got:?}");
    xb.send("?\n");
    xb.until("move ", Duration::from_secs(10));
    xb.quit(Duration::from_secs(10));
}

/// `setoption name Hash value 65536`, the advertised maximum, aborted the
/// process when the memory was not there. Now the table that cannot be
/// had is an error line, and the old table stays.
#[test]
fn a_hash_size_that_cannot_be_allocated_is_an_error_not_an_abort() {
    // a spin value past u64 is clamped like any value out of range
    let script = "uci\nsetoption name Hash value 65536\nsetoption name Move Overhead value 99999999999999999999\n\
                  isready\nposition startpos\ngo depth 3\n";
    let (out, err) = collect(
        {
            let mut c = spawn(&["uci"]);
            c.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
            c
        },
        Duration::from_secs(30),
    );
    assert!(out.contains("readyok"), "{out}\n{err}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}\n{err}");
    for l in out.lines().filter(|l| l.contains("error")) {
        assert!(l.starts_with("info string error: Hash: cannot allocate"), "{l}");
    }
    let out = session(&["xboard"], "xboard\nprotover 2\nmemory 99999999999999999999\nnew\nsd 2\ngo\nping 1\n");
    assert!(out.contains("pong 1") && out.contains("move "), "{out}");
    for l in out.lines().filter(|l| l.starts_with("Error")) {
        assert!(l.starts_with("Error (cannot allocate 65536 MiB"), "{l}");
    }
    let out = session(&["ucci"], "ucci\nsetoption hashsize 65536\nisready\n");
    assert!(out.contains("readyok"), "{out}");
}

/// With many threads the clock started only when the main thread began
/// searching, after every helper had been set up and had started taking
/// the processor: `Threads 256` on a 3-second clock answered after 10 s.
#[test]
fn the_clock_starts_at_go_even_with_many_threads() {
    let mut live = Live::new(&["uci"]);
    live.send("uci\nsetoption name Threads value 256\nposition startpos\nisready\n");
    live.until("readyok", Duration::from_secs(10));
    let t0 = Instant::now();
    // the hard limit of this clock is about 0.4 s
    live.send("go wtime 3000 btime 3000\n");
    live.until("bestmove ", Duration::from_secs(30));
    assert!(t0.elapsed() < Duration::from_secs(6), "answered after {:?}", t0.elapsed());
    live.quit(Duration::from_secs(10));
}

/// A `VariantPath` (or `--variant-file`) naming a FIFO blocked the input
/// loop; /dev/zero read without end. Only regular files up to 16 MiB are
/// read.
#[cfg(unix)]
#[test]
fn variant_files_must_be_small_regular_files() {
    let fifo = TempFile::new("fifo", "");
    std::fs::remove_file(&fifo.0).unwrap();
    let made = Command::new("mkfifo").arg(&fifo.0).status().expect("mkfifo");
    assert!(made.success());
    let script = format!("uci\nsetoption name VariantPath value {}\nisready\n", fifo.path());
    let mut c = spawn(&["uci"]);
    c.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let (out, _) = collect(c, Duration::from_secs(10));
    assert!(out.contains("info string error: cannot read") && out.contains("not a regular file"), "{out}");
    assert!(out.contains("readyok"), "{out}");
    let (_, err) = collect(spawn(&["show", "--variant-file", fifo.path()]), Duration::from_secs(10));
    assert!(err.contains("not a regular file"), "{err}");
    // too big: a sparse file of 17 MiB
    let big = TempFile::new("big.toml", "");
    std::fs::OpenOptions::new().write(true).open(&big.0).unwrap().set_len(17 << 20).unwrap();
    let out = session(&["uci"], &format!("uci\nsetoption name VariantPath value {}\nisready\n", big.path()));
    assert!(out.contains("larger than 16 MiB"), "{out}");
    let (_, err) = collect(spawn(&["show", "--variant-file", big.path()]), Duration::from_secs(10));
    assert!(err.contains("larger than 16 MiB"), "{err}");
    for dev in ["/dev/zero", "/dev/stdin"] {
        let out = session(&["uci"], &format!("uci\nsetoption name VariantPath value {dev}\nisready\n"));
        assert!(out.contains("not a regular file") && out.contains("readyok"), "{dev}: {out}");
    }
}

/// Text from the user that the engine prints (a variant name from a file,
/// an unknown command quoted in an error) could carry control characters:
/// a name holding a line break injected a whole protocol line. They are
/// now written escaped.
#[test]
fn control_characters_from_the_user_are_escaped() {
    let toml = "name = \"evil\\nreadyok\\nbestmove e2e4\"\nfiles = 8\nranks = 8\n\
                start_fen = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n\
                [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n";
    let file = TempFile::new("evil.toml", toml);
    let script = format!("uci\nsetoption name VariantPath value {}\nuci\nfoo\x1b[2Jbar\x07\n", file.path());
    let out = session(&["uci"], &script);
    assert!(!out.lines().any(|l| l == "readyok" || l.starts_with("bestmove")), "{out}");
    assert!(out.contains("evil\\nreadyok\\nbestmove e2e4"), "{out}");
    assert!(out.contains("unknown command 'foo\\x1b[2Jbar\\x07'"), "{out}");
    assert!(!out.bytes().any(|b| b < 0x20 && b != b'\n'), "{out:?}");
}

/// A 16x15 board with 62 amazons (queen + knight): the capture search
/// below depth 1 visited millions of nodes, and a node limit could not
/// interrupt depth 1, so `go nodes 100` took as long as `go depth 1`
/// (minutes on a slow machine).
#[test]
fn node_limits_end_quickly_on_a_board_full_of_amazons() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/amazonswarm.toml");
    let mut live = Live::new(&["uci"]);
    live.send(&format!(
        "uci\nsetoption name VariantPath value {path}\nsetoption name UCI_Variant value amazonswarm\nposition startpos\nisready\n"
    ));
    live.until("readyok", Duration::from_secs(10));
    let t0 = Instant::now();
    live.send("go nodes 100\n");
    live.until("bestmove ", Duration::from_secs(30));
    assert!(t0.elapsed() < Duration::from_secs(3), "go nodes 100 took {:?}", t0.elapsed());
    let t0 = Instant::now();
    live.send("go depth 1\n");
    live.until("bestmove ", Duration::from_secs(30));
    // (the node counts of depth 1 are checked exactly in the search's unit tests)
    assert!(t0.elapsed() < Duration::from_secs(8), "go depth 1 took {:?}", t0.elapsed());
    live.quit(Duration::from_secs(10));
}

/// `force` while the engine thinks stops the search and discards its move:
/// it was played on the engine's board (and announced) before.
#[test]
fn xboard_force_while_thinking_plays_nothing() {
    let out = session(&["xboard"], "xboard\nprotover 2\nnew\nst 30\ngo\nforce\nusermove e2e4\nping 1\n");
    assert!(out.contains("pong 1"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("move ")), "{out}");
    assert!(!out.contains("Illegal move"), "e2e4 is White's move on the unchanged board: {out}");
}

/// `setoption name VariantPath` built every section of a variants.ini,
/// tables and all: a file of 100 one-line children of a 16x15 parent cost
/// about 0.9 s and 11 MB per section before the engine could answer. The
/// definitions are now read at load and each variant is compiled when it is
/// chosen; a section that cannot be compiled is an error when it is chosen,
/// and the engine goes on.
#[test]
fn a_variant_file_is_compiled_one_chosen_section_at_a_time() {
    let mut ini = String::from(
        "[huge:chess]\nmaxFile = 16\nmaxRank = 15\ncastling = false\n\
         archbishop = a\nchancellor = c\namazon = m\ncustomPiece1 = w:mNN\ncustomPiece2 = x:mRcpR\n\
         startFen = rnbqkbnrcamwxnbr/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/\
         PPPPPPPPPPPPPPPP/RNBQKBNRCAMWXNBR w - - 0 1\n",
    );
    for i in 0..100 {
        ini.push_str(&format!("[child{i}:huge]\nstalemateValue = loss\n"));
    }
    let file = TempFile::new("many.ini", &ini);
    let t0 = Instant::now();
    let out = session(&["uci"], &format!("uci\nsetoption name VariantPath value {}\nisready\n", file.path()));
    let load = t0.elapsed();
    assert!(out.contains("info string loaded variants: ") && out.contains("child42"), "{out}");
    // before: about 90 s of compiling; now the text only (a generous bound for a loaded machine)
    assert!(load < Duration::from_secs(20), "loading took {load:?}");
    ini.push_str("[broken:chess]\ncustomPiece1 = y:xN\n");
    let with_broken = TempFile::new("broken.ini", &ini);
    let script = format!(
        "uci\nsetoption name VariantPath value {}\nsetoption name UCI_Variant value broken\nisready\n\
         setoption name UCI_Variant value child42\nposition startpos\ngo depth 1\n",
        with_broken.path()
    );
    let out = session(&["uci"], &script);
    assert!(out.contains("info string error: broken: ") && out.contains("readyok"), "{out}");
    let m = bestmove(&out);
    assert!(m.len() >= 4 && m != "(none)", "{out}");
}

#[test]
fn xboard_offers_the_options_and_the_variants_of_a_loaded_file() {
    let script = format!(
        "xboard\nprotover 2\noption Hash=8\noption Threads=2\noption MultiPV=2\noption Clear Hash\noption Bogus=1\n\
         option VariantPath={USER_INI}\nvariant cannons\nsd 2\ngo\n"
    );
    let out = session(&["xboard"], &script);
    for f in [
        "Hash -spin",
        "Threads -spin",
        "MultiPV -spin",
        "Move Overhead -spin",
        "VariantPath -file",
        "Clear Hash -button",
    ] {
        assert!(out.lines().any(|l| l.starts_with("feature option=\"") && l.contains(f)), "{f}:\n{out}");
    }
    assert_eq!(out.lines().filter(|l| l.starts_with("Error")).count(), 1, "{out}");
    assert!(out.contains("Error (unknown option 'Bogus')"), "{out}");
    // after VariantPath the variants are announced again, the file's among them
    let lists: Vec<&str> = out.lines().filter(|l| l.starts_with("feature variants=")).collect();
    assert!(lists.len() == 2 && !lists[0].contains("cannons") && lists[1].contains("cannons"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("move ")), "{out}");
    // --variant-file: the file's variants from the first command on
    let out = session(&["xboard", "--variant-file", USER_INI], "xboard\nprotover 2\nvariant cannons\nsd 2\ngo\n");
    assert!(out.lines().any(|l| l.starts_with("feature variants=") && l.contains("cannons")), "{out}");
    assert!(!out.contains("Error") && out.lines().any(|l| l.starts_with("move ")), "{out}");
    let (_, err) = collect(spawn(&["uci", "--variant-file", "/nonexistent.ini"]), Duration::from_secs(10));
    assert!(err.starts_with("error: cannot read"), "{err}");
}

/// A 16×16 variant (more than 255 squares) in a file of its own.
fn wide_variant_file(tag: &str) -> std::path::PathBuf {
    let empty = ["16"; 12].join("/");
    let text = format!(
        "name = \"wide16\"\nfiles = 16\nranks = 16\nstart_fen = \"1nbqk11/pppp12/{empty}/PPPP12/1NBQK11 w - - 0 1\"\n\n\
         [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fmWfcF\"\n\n\
         [[piece]]\nname = \"knight\"\nletter = \"n\"\nbetza = \"N\"\n\n\
         [[piece]]\nname = \"bishop\"\nletter = \"b\"\nbetza = \"B\"\n\n\
         [[piece]]\nname = \"queen\"\nletter = \"q\"\nbetza = \"Q\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n"
    );
    let path = std::env::temp_dir().join(format!("chimera-engine-test-{}-{tag}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// A session that loads a variant of more than 255 squares goes on in the
/// wide build: the options set before it (MultiPV) still hold, the lines
/// before it are not answered twice, and the moves are the wide variant's.
#[test]
fn a_session_choosing_a_large_board_goes_on_in_the_wide_build() {
    let path = wide_variant_file("uci");
    let p = path.display();
    let out = session(
        &["uci"],
        &format!(
            "uci\nsetoption name MultiPV value 2\nisready\nsetoption name VariantPath value {p}\n\
             setoption name UCI_Variant value wide16\nisready\nposition startpos moves d1p13\nd\ngo depth 2\n"
        ),
    );
    assert_eq!(out.matches("uciok").count(), 1, "{out}");
    assert_eq!(out.matches("readyok").count(), 2, "{out}");
    assert!(out.contains("info string loaded variants: wide16"), "{out}");
    assert!(out.lines().any(|l| l.contains(" multipv 2 ")), "MultiPV carried over:\n{out}");
    assert!(out.contains("Fen: 1nbqk11/pppp12/16/15Q/"), "{out}");
    // Black's reply is a move of one of its pieces on the 16x16 board
    let m = bestmove(&out);
    assert!(["a16", "b16", "c16", "d16", "e16", "a15", "b15", "c15", "d15"].iter().any(|s| m.starts_with(s)), "{m}");

    // XBoard: the variant chosen after VariantPath, then a move and a search
    let out = session(
        &["xboard"],
        &format!("xboard\nprotover 2\noption VariantPath={p}\nnew\nvariant wide16\nsd 2\nforce\nusermove d1p13\ngo\n",),
    );
    assert_eq!(out.matches("feature done=1").count(), 1, "{out}");
    assert!(out.contains("setup (PNB.QKpnb.qk) 16x16+0_fairy 1nbqk11/"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("move ")), "{out}");
    let _ = std::fs::remove_file(path);
}

/// A session that goes from a small variant to Tenjiku Shogi (the wide
/// build) and back to small ones (the narrow build again), twice: each
/// search answers with a legal move of the variant chosen, the options set
/// at the start hold through every hand-over, and the replayed lines are
/// not answered again.
#[test]
fn a_session_goes_wide_and_back_as_the_variant_changes() {
    let tenjiku = "setoption name UCI_Variant value tenjikushogi\nisready\nposition startpos\ngo depth 1\n";
    let script = format!(
        "uci\nsetoption name MultiPV value 2\nposition startpos moves e2e4\ngo depth 2\n{tenjiku}\
         setoption name UCI_Variant value xiangqi\nisready\nposition startpos moves h3e3\ngo depth 2\n{tenjiku}\
         setoption name UCI_Variant value chess\nposition startpos moves d2d4\ngo depth 2\n"
    );
    let out = session(&["uci"], &script);
    assert_eq!(out.matches("uciok").count(), 1, "{out}");
    assert_eq!(out.matches("readyok").count(), 3, "{out}");
    let best: Vec<&str> =
        out.lines().filter(|l| l.starts_with("bestmove ")).map(|l| l.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(best.len(), 5, "{out}");
    assert!(legal_in("chess", None, &["e2e4"], best[0]), "{}", best[0]);
    assert!(legal_in("xiangqi", None, &["h3e3"], best[2]), "{}", best[2]);
    assert!(legal_in("chess", None, &["d2d4"], best[4]), "{}", best[4]);
    // Tenjiku's first moves are White's, on ranks 1-5 of the 16x16 board
    for m in [best[1], best[3]] {
        let v = std::sync::Arc::new(wide_core::builtin::variant("tenjikushogi").unwrap());
        let mut p = wide_core::position::Position::start(v);
        assert!(p.parse_move(m).is_ok(), "{m} in Tenjiku");
    }
    // the last search runs to its depth (the others are stopped by the line
    // that changes the variant, as a GUI would not send it during a search)
    let last = &out[out.rfind("readyok").unwrap()..];
    assert!(last.lines().any(|l| l.contains("depth 2 ") && l.contains(" multipv 2 ")), "MultiPV carried over:\n{out}");
}
