//! Runs a protocol session on a line-oriented input, detecting the protocol
//! from the first command when it is not given.

use crate::game::{Engine, Out};
use crate::uci::{Dialect, Flow, UciSession};
use crate::xboard::XboardSession;
use std::io::{BufRead, Read};

/// A protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (chess and Fairy-Stockfish's variants).
    Uci,
    /// XBoard / CECP v2.
    Xboard,
    /// USI (Shogi).
    Usi,
    /// UCCI (Xiangqi).
    Ucci,
}

impl Protocol {
    /// The protocol a first command belongs to, if it names one.
    pub fn detect(first: &str) -> Option<Protocol> {
        match first.split_whitespace().next()? {
            "uci" => Some(Protocol::Uci),
            "xboard" | "protover" => Some(Protocol::Xboard),
            "usi" => Some(Protocol::Usi),
            "ucci" => Some(Protocol::Ucci),
            _ => None,
        }
    }
}

enum Session {
    Uci(UciSession),
    Xboard(XboardSession),
}

impl Session {
    fn new(p: Protocol, e: &mut Engine) -> Session {
        match p {
            Protocol::Uci => Session::Uci(UciSession::new(Dialect::Uci, e)),
            Protocol::Usi => Session::Uci(UciSession::new(Dialect::Usi, e)),
            Protocol::Ucci => Session::Uci(UciSession::new(Dialect::Ucci, e)),
            Protocol::Xboard => Session::Xboard(XboardSession::new()),
        }
    }

    fn handle(&mut self, e: &mut Engine, line: &str) -> Flow {
        match self {
            Session::Uci(s) => s.handle(e, line),
            Session::Xboard(s) => s.handle(e, line),
        }
    }
}

pub use crate::numbers::{parse_count, parse_millis};

/// The longest input line read, in bytes (a `position ... moves` line of about
/// a million moves). A longer line is answered with an error and skipped, so
/// that a runaway client cannot make the engine buffer without bound.
pub const MAX_LINE: usize = 8 << 20;

/// Runs a session until `quit` or the end of the input. At the end of the
/// input a running search is allowed to finish (an infinite one is stopped),
/// so that a script piping commands gets its answer. Returns false if the
/// input held no command at all.
pub fn run(input: impl BufRead, out: Out, protocol: Option<Protocol>) -> bool {
    let mut input = input;
    let engine = Engine::new(out.clone());
    let session = protocol.map(|p| (p, None));
    match serve(&mut input, out, session, engine, None) {
        Ending::Done(saw) => saw,
        // not asked for: serve hands over only with a log
        Ending::Wider(_) | Ending::Narrower(_) => true,
    }
}

/// Like [`run`], with the variants of user files (Chimera's TOML or
/// variants.ini) loaded first, as `VariantPath` loads them, so that a GUI can
/// choose them at once (`variant NAME`, `UCI_Variant`). A file that cannot be
/// loaded is an error before the session starts.
pub fn run_with_files(
    input: impl BufRead,
    out: Out,
    protocol: Option<Protocol>,
    files: &[String],
) -> Result<bool, String> {
    let mut input = input;
    match run_or_hand_over_inner(&mut input, out, protocol, files, false)? {
        Ending::Done(saw) => Ok(saw),
        Ending::Wider(_) | Ending::Narrower(_) => Ok(true),
    }
}

/// How a session that may hand over to the wide build ended.
pub enum Ending {
    /// `quit` or the end of the input; false if the input held no command.
    Done(bool),
    /// A line chose a variant (or loaded a file) whose board this build
    /// cannot hold: the caller goes on with [`resume`] of `chimera-engine-wide`.
    Wider(Handover),
    /// In a session the narrow build handed over, a line chose a built-in
    /// variant the narrow build holds again (and the session has loaded no
    /// file): the caller goes on with [`resume`] of `chimera-engine`, which
    /// is faster on small boards.
    Narrower(Handover),
}

/// A session to go on in the other build: `chimera-engine` (boards of at
/// most 255 squares) hands it to `chimera-engine-wide` (up to 36×36) when a
/// line chooses a larger variant, so that one engine process serves every
/// variant and the small ones keep their speed until then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handover {
    /// The protocol.
    pub protocol: Protocol,
    /// The variant files the session was started with.
    pub files: Vec<String>,
    /// The lines so far that set the session up (handshakes, options, new
    /// games: no searches or positions), replayed without their answers.
    pub setup: Vec<String>,
    /// The line that chose the variant, handled as if it came now.
    pub line: String,
}

/// The most set-up lines, and bytes, a session keeps for a hand-over; lines
/// beyond them are not replayed (a client that sends that many options is
/// not a GUI).
const MAX_SETUP_LINES: usize = 2048;
const MAX_SETUP_BYTES: usize = 1 << 20;

/// Like [`run_with_files`], but a line that chooses a variant this build
/// cannot hold (a board of more than 255 squares: `variant NAME`,
/// `setoption name UCI_Variant value NAME`, a `VariantPath` file with such a
/// variant) ends the session with [`Ending::Wider`] before it is handled,
/// the input left at the next line. In the wide build no line does.
pub fn run_or_hand_over(
    input: &mut impl BufRead,
    out: Out,
    protocol: Option<Protocol>,
    files: &[String],
) -> Result<Ending, String> {
    run_or_hand_over_inner(input, out, protocol, files, true)
}

fn run_or_hand_over_inner(
    input: &mut impl BufRead,
    out: Out,
    protocol: Option<Protocol>,
    files: &[String],
    hand_over: bool,
) -> Result<Ending, String> {
    let mut engine = Engine::new(out.clone());
    for f in files {
        engine.registry.load_file(f)?;
    }
    let mut log = Log { files: files.to_vec(), setup: Vec::new(), bytes: 0 };
    let session = protocol.map(|p| (p, None));
    Ok(serve(input, out, session, engine, if hand_over && !chimera::width::WIDE { Some(&mut log) } else { None }))
}

/// Goes on with a session another build handed over: its files loaded, its
/// set-up lines replayed with the output muted, then its last line handled
/// and the rest of the input served, until the session ends or hands over
/// again: the wide build back to the narrow one when a small built-in
/// variant is chosen ([`Ending::Narrower`]), the narrow one to the wide one
/// as at the start ([`Ending::Wider`]). An error only if the files cannot
/// be loaded here either (the error is the same as a start with them).
pub fn resume(input: &mut impl BufRead, out: Out, h: Handover) -> Result<Ending, String> {
    let mut engine = Engine::new(out.clone());
    for f in &h.files {
        engine.registry.load_file(f)?;
    }
    let mut session = Session::new(h.protocol, &mut engine);
    out.set_muted(true);
    for line in &h.setup {
        session.handle(&mut engine, line);
    }
    engine.stop();
    out.set_muted(false);
    let mut log = Log { files: h.files, bytes: h.setup.iter().map(|l| l.len()).sum(), setup: h.setup };
    log.keep(&h.line);
    if session.handle(&mut engine, &h.line) == Flow::Quit {
        return Ok(Ending::Done(true));
    }
    Ok(match serve(input, out, Some((h.protocol, Some(session))), engine, Some(&mut log)) {
        Ending::Done(_) => Ending::Done(true),
        other => other,
    })
}

/// What a session keeps for a hand-over.
struct Log {
    files: Vec<String>,
    setup: Vec<String>,
    bytes: usize,
}

impl Log {
    /// Keeps a line that sets the session up (see [`Handover::setup`]).
    fn keep(&mut self, line: &str) {
        let cmd = line.split_whitespace().next().unwrap_or("");
        let setup = matches!(
            cmd,
            "uci"
                | "usi"
                | "ucci"
                | "setoption"
                | "ucinewgame"
                | "usinewgame"
                | "debug"
                | "register"
                | "xboard"
                | "protover"
                | "accepted"
                | "rejected"
                | "new"
                | "variant"
                | "random"
                | "level"
                | "st"
                | "sd"
                | "nps"
                | "post"
                | "nopost"
                | "hard"
                | "easy"
                | "memory"
                | "cores"
                | "option"
                | "egtpath"
                | "name"
                | "rating"
                | "ics"
                | "computer"
        );
        if setup && self.setup.len() < MAX_SETUP_LINES && self.bytes + line.len() <= MAX_SETUP_BYTES {
            self.bytes += line.len();
            self.setup.push(line.to_string());
        }
    }
}

/// Whether the session of `log` may go back to the narrow build when `line`
/// chooses a variant there: only in the wide build, only for a built-in
/// variant whose board the narrow build holds, and only if the session has
/// loaded no variant file (the narrow build might not read it).
fn chooses_narrow(p: Protocol, e: &Engine, log: &Log, line: &str) -> bool {
    if !chimera::width::WIDE || !log.files.is_empty() || log.setup.iter().any(|l| loads_file(l)) || loads_file(line) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let name = match (p, words.as_slice()) {
        (Protocol::Xboard, ["variant", name, ..]) => crate::xboard::engine_name(name),
        (Protocol::Uci | Protocol::Usi | Protocol::Ucci, ["setoption", args @ ..]) => {
            let (name, value) = crate::uci::option_name_value(args);
            match name.to_ascii_lowercase().as_str() {
                "uci_variant" | "usi_variant" => value.trim().to_string(),
                _ => return false,
            }
        }
        _ => return false,
    };
    e.registry.fits_narrow(&name)
}

/// Whether a line loads a variant file (`VariantPath`, in any protocol).
fn loads_file(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    (l.starts_with("setoption") || l.starts_with("option")) && l.contains("variantpath")
}

/// Whether `line` chooses a variant, or loads a file, that this build cannot
/// hold for the size of its board.
fn chooses_too_large(p: Protocol, e: &Engine, line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match (p, words.as_slice()) {
        (Protocol::Xboard, ["variant", name, ..]) => e.registry.too_large(&crate::xboard::engine_name(name)),
        (Protocol::Xboard, ["option", ..]) => {
            let arg = line.trim_start()["option".len()..].trim();
            match arg.split_once('=') {
                Some((n, path)) if n.trim().eq_ignore_ascii_case("variantpath") && !path.trim().is_empty() => {
                    crate::game::Registry::file_too_large(path.trim())
                }
                _ => false,
            }
        }
        (Protocol::Uci | Protocol::Usi | Protocol::Ucci, ["setoption", args @ ..]) => {
            let (name, value) = crate::uci::option_name_value(args);
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "uci_variant" | "usi_variant" => e.registry.too_large(value),
                "variantpath" if !value.is_empty() && value != "<empty>" => {
                    crate::game::Registry::file_too_large(value)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

fn serve(
    input: &mut impl BufRead,
    out: Out,
    session: Option<(Protocol, Option<Session>)>,
    mut engine: Engine,
    mut log: Option<&mut Log>,
) -> Ending {
    let mut saw = false;
    let mut protocol = session.as_ref().map(|s| s.0);
    let mut session = session.map(|(p, s)| s.unwrap_or_else(|| Session::new(p, &mut engine)));
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut *input).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // skip the rest of the line
            loop {
                buf.clear();
                match (&mut *input).take(1 << 16).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if buf.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
            saw = true;
            out.line(&format!("error: input line longer than {MAX_LINE} bytes ignored"));
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        saw = true;
        if session.is_none() {
            match Protocol::detect(line) {
                Some(p) => {
                    protocol = Some(p);
                    session = Some(Session::new(p, &mut engine));
                }
                None => {
                    out.line(&format!(
                        "error: the first command must be uci, xboard, usi or ucci, not '{}'",
                        line.split_whitespace().next().unwrap_or("")
                    ));
                    continue;
                }
            }
        }
        if let (Some(log), Some(p)) = (log.as_deref_mut(), protocol) {
            if chooses_too_large(p, &engine, line) {
                // as the line would here: XBoard's `variant` drops a search's
                // move, a UCI search still answers `bestmove`
                if p == Protocol::Xboard {
                    engine.abandon();
                } else {
                    engine.stop();
                }
                let (files, setup) = (std::mem::take(&mut log.files), std::mem::take(&mut log.setup));
                return Ending::Wider(Handover { protocol: p, files, setup, line: line.to_string() });
            }
            if chooses_narrow(p, &engine, log, line) {
                if p == Protocol::Xboard {
                    engine.abandon();
                } else {
                    engine.stop();
                }
                let (files, setup) = (std::mem::take(&mut log.files), std::mem::take(&mut log.setup));
                return Ending::Narrower(Handover { protocol: p, files, setup, line: line.to_string() });
            }
            log.keep(line);
        }
        if let Some(s) = session.as_mut() {
            if s.handle(&mut engine, line) == Flow::Quit {
                return Ending::Done(true);
            }
        }
    }
    engine.finish();
    Ending::Done(saw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Read, Write};
    use std::sync::{Arc, Mutex};

    /// A writer tests can read back.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str, p: Option<Protocol>) -> String {
        let buf = Buf::default();
        run(Cursor::new(input.to_string()), Out::new(Box::new(buf.clone())), p);
        let bytes = buf.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn numbers_saturate_and_times_may_have_decimals() {
        assert_eq!(parse_count("42"), Some(42));
        assert_eq!(parse_count("+7"), Some(7));
        assert_eq!(parse_count("-5"), Some(0));
        assert_eq!(parse_count("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_count("99999999999999999999999"), Some(u64::MAX));
        for bad in ["", "-", "1.5", "x", "1e3", "0x10", "١٢"] {
            assert_eq!(parse_count(bad), None, "{bad}");
        }
        assert_eq!(parse_millis("1000.5"), Some(1001));
        assert_eq!(parse_millis("1.4"), Some(1));
        assert_eq!(parse_millis("-3.5"), Some(0));
        assert_eq!(parse_millis("1e400"), None);
        assert_eq!(parse_millis("1e30"), Some(u64::MAX));
        for bad in ["inf", "NaN", "infinity", "1.5.5", "", "."] {
            assert_eq!(parse_millis(bad), None, "{bad}");
        }
    }

    #[test]
    fn detects_uci_and_answers() {
        let out = session("uci\nisready\nposition startpos moves e2e4\ngo depth 2\n", None);
        assert!(out.contains("uciok"), "{out}");
        assert!(out.contains("readyok"), "{out}");
        assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    }

    #[test]
    fn unknown_first_line_is_an_error_then_detection_goes_on() {
        let out = session("hello\nxboard\nprotover 2\nping 7\n", None);
        assert!(out.starts_with("error: the first command must be"), "{out}");
        assert!(out.contains("feature done=1"), "{out}");
        assert!(out.contains("pong 7"), "{out}");
    }

    #[test]
    fn eval_explains_the_static_evaluation() {
        let out = session(
            "uci\nsetoption name UCI_Variant value xiangqi\nposition startpos moves h3e3\neval\nisready\n",
            None,
        );
        assert!(out.lines().any(|l| l.starts_with("mobility.")), "{out}");
        assert!(out.lines().any(|l| l.starts_with("sum ") && l.ends_with("(White's side)")), "{out}");
        assert!(out.lines().any(|l| l.starts_with("evaluation ") && l.ends_with("(Black, to move)")), "{out}");
        assert!(out.contains("readyok"), "{out}");
    }

    #[test]
    fn overlong_lines_are_refused_and_the_session_goes_on() {
        let long = "x".repeat(MAX_LINE + 10);
        let out = session(&format!("uci\n{long}\nisready\n"), None);
        assert!(out.contains(&format!("error: input line longer than {MAX_LINE} bytes ignored")), "{}", &out[..200]);
        assert!(out.contains("readyok"), "{out}");
        // a line of exactly the limit is read
        let fen_line = format!("position startpos moves{}", " ".repeat(MAX_LINE - 24));
        assert_eq!(fen_line.len() + 1, MAX_LINE);
        let out = session(&format!("uci\n{fen_line}\nd\n"), None);
        assert!(!out.contains("longer than"), "{out}");
        assert!(out.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "{out}");
    }

    #[test]
    fn a_large_board_ends_the_session_for_the_wide_build() {
        let empty = ["16"; 14].join("/");
        let text = format!(
            "name = \"big\"\nfiles = 16\nranks = 16\nstart_fen = \"k15/{empty}/K15 w - - 0 1\"\n\n\
             [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n"
        );
        let path = std::env::temp_dir().join(format!("chimera-protocol-test-{}.toml", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let script = format!(
            "uci\nsetoption name Hash value 8\nposition startpos moves e2e4\ngo depth 1\n\
             setoption name VariantPath value {}\nisready\n",
            path.display()
        );
        let buf = Buf::default();
        let mut input = Cursor::new(script);
        let ending = run_or_hand_over(&mut input, Out::new(Box::new(buf.clone())), None, &[]).unwrap();
        let _ = std::fs::remove_file(&path);
        match ending {
            Ending::Wider(_) if chimera::width::WIDE => panic!("the wide build handed a session over"),
            Ending::Wider(h) => {
                assert_eq!(h.protocol, Protocol::Uci);
                // searches and positions are not replayed
                assert_eq!(h.setup, vec!["uci".to_string(), "setoption name Hash value 8".to_string()]);
                assert!(h.line.starts_with("setoption name VariantPath value "), "{}", h.line);
                // the input is left at the next line
                let mut rest = String::new();
                input.read_to_string(&mut rest).unwrap();
                assert_eq!(rest, "isready\n");
            }
            // the wide build holds the board itself
            Ending::Done(saw) => assert!(chimera::width::WIDE && saw),
            Ending::Narrower(_) => panic!("a session started here handed back"),
        }
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(out.contains("uciok") && out.contains("bestmove"), "{out}");
        assert_eq!(out.contains("loaded variants: big"), chimera::width::WIDE, "{out}");
    }

    #[test]
    fn the_wide_build_hands_a_session_back_for_a_small_variant() {
        assert_eq!(
            crate::game::NARROW_SQUARES,
            if chimera::width::WIDE { 255 } else { chimera::width::MAX_BOARD_SQUARES }
        );
        let tenjiku = "setoption name UCI_Variant value tenjikushogi".to_string();
        let h = Handover {
            protocol: Protocol::Uci,
            files: Vec::new(),
            setup: vec!["uci".to_string(), "setoption name Hash value 8".to_string()],
            line: tenjiku.clone(),
        };
        let buf = Buf::default();
        let script = "isready
setoption name UCI_Variant value minishogi
position startpos
go depth 1
";
        let mut input = Cursor::new(script);
        let ending = resume(&mut input, Out::new(Box::new(buf.clone())), h.clone()).unwrap();
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        if !chimera::width::WIDE {
            // the narrow build cannot choose Tenjiku: it says so and goes on
            assert!(matches!(ending, Ending::Done(true)), "{out}");
            return;
        }
        match ending {
            Ending::Narrower(back) => {
                assert_eq!(back.setup, vec!["uci".to_string(), "setoption name Hash value 8".to_string(), tenjiku]);
                assert_eq!(back.line, "setoption name UCI_Variant value minishogi");
                let mut rest = String::new();
                input.read_to_string(&mut rest).unwrap();
                assert_eq!(rest, "position startpos\ngo depth 1\n");
            }
            _ => panic!("no hand-back:\n{out}"),
        }
        // the replayed lines are not answered again; isready is
        assert!(!out.contains("uciok") && out.contains("readyok"), "{out}");
        // a session that loaded a file stays wide (the narrow build might not read it)
        let with_file = Handover { files: vec!["/nonexistent.toml".to_string()], ..h.clone() };
        let mut input = Cursor::new("setoption name UCI_Variant value chess\nquit\n");
        assert!(resume(&mut input, Out::new(Box::new(Buf::default())), with_file).is_err());
        let loaded =
            Handover { setup: vec!["uci".into(), "setoption name VariantPath value /x.ini".into()], ..h.clone() };
        let mut input = Cursor::new("setoption name UCI_Variant value chess\nquit\n");
        assert!(matches!(resume(&mut input, Out::new(Box::new(Buf::default())), loaded).unwrap(), Ending::Done(true)));
        // XBoard's variant command hands back too
        let xb = Handover {
            protocol: Protocol::Xboard,
            files: Vec::new(),
            setup: vec!["xboard".into(), "protover 2".into(), "new".into()],
            line: "variant tenjiku".into(),
        };
        let mut input = Cursor::new("variant normal\nquit\n");
        match resume(&mut input, Out::new(Box::new(Buf::default())), xb).unwrap() {
            Ending::Narrower(back) => assert_eq!(back.line, "variant normal"),
            _ => panic!("no XBoard hand-back"),
        }
    }

    #[test]
    fn bad_position_keeps_the_old_one() {
        let out = session(
            "position startpos moves e2e4\nposition fen nonsense\nposition startpos moves e2e5\nd\n",
            Some(Protocol::Uci),
        );
        assert_eq!(out.matches("info string error").count(), 2, "{out}");
        assert!(out.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{out}");
    }
}
