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

/// A whole number as the protocols send them: digits with an optional sign.
/// A negative number reads as 0 and one past `u64` as `u64::MAX`, so that a
/// clock or a limit too big to hold saturates instead of wrapping round.
pub fn parse_count(s: &str) -> Option<u64> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// A time in milliseconds: a whole number as [`parse_count`] reads it, or
/// a decimal one (some GUIs send `1000.5`), rounded to the nearest
/// millisecond and saturating like it. `inf`, `NaN` and the like are refused.
pub fn parse_millis(s: &str) -> Option<u64> {
    if let Some(n) = parse_count(s) {
        return Some(n);
    }
    let plain = s.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    let x: f64 = s.parse().ok().filter(|x: &f64| plain && x.is_finite())?;
    // float to integer casts saturate (negative to 0)
    Some(x.round() as u64)
}

/// The longest input line read, in bytes (a `position ... moves` line of about
/// a million moves). A longer line is answered with an error and skipped, so
/// that a runaway client cannot make the engine buffer without bound.
pub const MAX_LINE: usize = 8 << 20;

/// Runs a session until `quit` or the end of the input. At the end of the
/// input a running search is allowed to finish (an infinite one is stopped),
/// so that a script piping commands gets its answer. Returns false if the
/// input held no command at all.
pub fn run(input: impl BufRead, out: Out, protocol: Option<Protocol>) -> bool {
    serve(input, out.clone(), protocol, Engine::new(out))
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
    let mut engine = Engine::new(out.clone());
    for f in files {
        engine.registry.load_file(f)?;
    }
    Ok(serve(input, out, protocol, engine))
}

fn serve(input: impl BufRead, out: Out, protocol: Option<Protocol>, mut engine: Engine) -> bool {
    let mut saw = false;
    let mut session = protocol.map(|p| Session::new(p, &mut engine));
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut input).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // skip the rest of the line
            loop {
                buf.clear();
                match (&mut input).take(1 << 16).read_until(b'\n', &mut buf) {
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
                Some(p) => session = Some(Session::new(p, &mut engine)),
                None => {
                    out.line(&format!(
                        "error: the first command must be uci, xboard, usi or ucci, not '{}'",
                        line.split_whitespace().next().unwrap_or("")
                    ));
                    continue;
                }
            }
        }
        if let Some(s) = session.as_mut() {
            if s.handle(&mut engine, line) == Flow::Quit {
                return true;
            }
        }
    }
    engine.finish();
    saw
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};
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
    fn bad_position_keeps_the_old_one() {
        let out = session(
            "position startpos moves e2e4\nposition fen nonsense\nposition startpos moves e2e5\nd\n",
            Some(Protocol::Uci),
        );
        assert_eq!(out.matches("info string error").count(), 2, "{out}");
        assert!(out.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{out}");
    }
}
