//! The commands of the `chimera` binary, compiled twice (see `main.rs`): over
//! `chimera` and `chimera-engine` for boards of at most 255 squares, and
//! over `chimera-wide` and `chimera-engine-wide` for larger ones. `lib` and
//! `engine` name the two crates of the instance.

use super::{engine, lib};
use engine::bench;
use engine::game::{Game, Out};
use engine::protocol::{self, Protocol};
use engine::rules::GameEnd;
use lib::builtin;
use lib::highlight::kind_names;
use lib::loader::{definition, Format, LoadError};
use lib::perft;
use lib::position::{Position, Validation};
use lib::san::Notation;
use lib::square::Color;
use lib::variant::Variant;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::sync::Arc;
use std::time::Instant;

/// The help text printed by `chimera help`.
const USAGE: &str = "\
usage:
  chimera moves    --variant V [--variant-file PATH] [--fen FEN] [--moves \"m1 m2 ...\"]
                   [--from SQ [--via SQ]]
  chimera perft    --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"] [--reference] DEPTH
  chimera show     --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"]
  chimera result   --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"]
  chimera pgn      --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"]
  chimera pgn      --read FILE|- [--variant V] [--variant-file PATH]
  (moves, perft, show and result also take --permissive; every command
  that loads a variant takes --wide)
  chimera variants
  chimera uci | xboard | usi | ucci [--variant-file PATH]
                                     the engine, in that protocol on stdin/stdout
  chimera engine                     the engine, protocol detected from the first command
  chimera bench [DEPTH]              search benchmark (fixed positions, one thread)
  chimera soak-worker                batch mode for scripts/soak.py (lines on stdin, see below)
  chimera help

Moves are written in Fairy-Stockfish's UCI notation: e2e4, e7e8q, a passing
general e2e2, a two-leg move d4e5,e5f6. --moves also reads the variant's own
notation as pyffish writes it: SAN (Nf3, O-O, exd5, e8=Q), the shogi
notations (P-7f, P-76), WXF (C2=5), the Janggi notation and Thai SAN. With
--variant-file, --variant may be left out.

moves --from SQ highlights: it prints the squares the piece on SQ may reach,
one per line with their kinds (move, capture, promotion, victim, second-leg,
castle, pass, en-passant); --via SQ then lists the second-leg targets after
capturing the locust victim on that square. perft --reference tests legality
by the reference method (slow; for comparison). result prints `*` while the
game goes on, else `1-0`, `0-1` or `1/2-1/2` and the reason: mate, stalemate,
a variant's own ending, threefold repetition (perpetual check loses where
the variant says so; Janggi counts points), the 50-move rule or a dead
position (neither side has mating material), as the engine scores them.

pgn writes the game of --moves as PGN (Variant tag, FEN tag if not the start
position, the result as result computes it); pgn --read checks every game of
a PGN file (- for stdin) and prints one line per game: `N<TAB>ok<TAB>FEN<TAB>
MOVES` (the final FEN, the UCI moves) or `N<TAB>error<TAB>MESSAGE`; if a game
has an error, the last line is an `error: ` line on stderr (exit status 2).
See docs/pgn.md.

A FEN must describe a position the variant can have: the right number of
royal pieces, no royals attacking each other. --permissive (or
--no-validate) accepts any position the reader can represent, for analysis.

Boards of up to 16x15 (255 squares) run on one-byte squares; larger ones, up
to 36x36, on the wide build (two-byte squares), picked from the definition.
Files beyond z are named aa to aj. --wide runs a small board on the wide
build too (the same moves and counts, somewhat slower), to compare the two.

soak-worker reads lines `VARIANT<TAB>FEN<TAB>MOVE` (MOVE may be empty) and
answers each with one line `ok<TAB>FEN-AFTER<TAB>MOVES`: the FEN after MOVE
(the FEN itself when MOVE is empty) and the legal moves of that position
rebuilt from its FEN (no move history), space separated; or
`error<TAB>MESSAGE`. It also checks the hash after MOVE against the hash from
scratch, that unmaking MOVE restores the hash and the FEN, and that the FEN
after MOVE reads back to itself.";

/// The help of one command (`chimera CMD --help`).
fn command_help(cmd: &str) -> Option<&'static str> {
    Some(match cmd {
        "moves" => {
            "\
usage: chimera moves --variant V [--variant-file PATH] [--fen FEN] [--moves \"m1 m2 ...\"]
                     [--from SQ [--via SQ]] [--permissive]
Prints the legal moves of the position, one per line, in Fairy-Stockfish's UCI
notation (e2e4, e7e8q, P@e5, h2c2+, d4e5,e5f6). --moves plays moves first
(UCI, SAN, the shogi notations, WXF, Janggi or Thai notation). --from SQ
prints the squares the piece on SQ may reach, with their kinds; --via SQ the
second-leg targets after capturing the locust victim on SQ."
        }
        "perft" => {
            "\
usage: chimera perft --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"]
                     [--reference] [--permissive] DEPTH
Counts the leaf nodes of the legal-move tree to DEPTH (1 to 20): one line
`move: count` per legal move, then `Nodes searched: N`. --reference tests
legality by the slow reference method, for comparison."
        }
        "show" => {
            "\
usage: chimera show --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"] [--permissive]
Prints the board (promoted pieces as +B), the side to move, the hands where
pieces can be held, and the FEN."
        }
        "result" => {
            "\
usage: chimera result --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"] [--permissive]
Prints `*` while the game goes on, else `1-0`, `0-1` or `1/2-1/2` and why
(mate, stalemate, a variant's own ending, repetition, the 50-move rule, a
dead position), as the engine scores the game."
        }
        "pgn" => {
            "\
usage: chimera pgn --variant V [--variant-file PATH] [--fen FEN] [--moves \"...\"] [--permissive]
       chimera pgn --read FILE|- [--variant V] [--variant-file PATH]
Writes the game of --moves as PGN: the Seven Tag Roster, Variant, SetUp and
FEN if the game does not start at the start position, the moves in the
variant's notation (SAN; the shogi notation for shogi variants), wrapped at 80
columns, and the result as `chimera result` finds it (with the reason as a
comment). --read checks every game of a PGN file (- for stdin): one line per
game, `N<TAB>ok<TAB>FINAL-FEN<TAB>UCI-MOVES` or `N<TAB>error<TAB>MESSAGE`; a
game without a Variant tag is --variant's (default chess). If any game has an
error, an `error: ` line follows on stderr and the exit status is 2. Limits:
16 MiB of text, 20000 moves a game, variations 64 deep. See docs/pgn.md."
        }
        "variants" => {
            "\
usage: chimera variants
Lists the built-in variants, one per line: the name, a tab, a description."
        }
        "uci" | "xboard" | "usi" | "ucci" | "engine" => {
            "\
usage: chimera uci | xboard | usi | ucci | engine
Runs the engine on stdin/stdout in that protocol (engine: detected from the
first command). Variants: UCI_Variant, XBoard `variant`, and VariantPath for a
user's file. See docs/engine.md."
        }
        "bench" => {
            "\
usage: chimera bench [DEPTH]
Searches fixed positions of several variants to DEPTH (default 13) on one
thread; prints the nodes per position, then `Nodes searched: N` and
`Nodes/second: N`."
        }
        "soak-worker" => {
            "\
usage: chimera soak-worker
Batch mode for scripts/soak.py: reads `VARIANT<TAB>FEN<TAB>MOVE` lines on
stdin, answers `ok<TAB>FEN-AFTER<TAB>MOVES` or `error<TAB>MESSAGE` (see
chimera help)."
        }
        "tune" => {
            "\
usage: chimera tune --variant V --data FILE [--iterations N] [--k K] [--reg R] [--squares]
                    [--fitted-tempo] [--start FILE|builtin] [--only KEYS] [--out FILE]
       chimera tune --variant V --data FILE --measure-tempo
Fits the variant's evaluation weights to labelled positions (lines
`FEN;RESULT`, RESULT White's score: 1, 0.5, 0) by the Texel method: fits K,
then minimises the mean squared error of sigmoid(eval) against the results by
gradient descent (N steps, default 1000), starting from the derived defaults
(or from a weights file over them, --start FILE; --start builtin: the weights
the engine uses for the variant), with a ridge penalty R (default 0.0001)
toward the start; --squares fits the
piece-square weights too, for the middlegame and apart for the endgame
(else they stay 0). The tempo written is the one
at which the evaluation agrees on average with the evaluation after the best
quiet move (half the mean gain of that move over the data's positions);
--fitted-tempo keeps the fitted one. --only KEYS fits only the weights named
(keys separated by commas, a prefix ending in '*' names every key it begins:
`--only en_prise_*,threat`); the others, the tempo too unless named, keep the
start's values. Prints K and the error before and after
(on the fitted positions and on those held out: every tenth game when the
data marks its games with `# game` comment lines, as selfplay writes them,
otherwise every tenth position), and writes
the weights file to --out (default V.weights.txt). --measure-tempo fits
nothing: it prints the consistent tempo of the variant's own weights over the
data's positions. See docs/strength.md (Tuning)."
        }
        "selfplay" => {
            "\
usage: chimera selfplay --variant V [--games N] [--nodes N] [--random-plies N]
                        [--seed S] [--max-plies N] [--untuned] [--out FILE]
Plays N games (default 100) of the engine against itself at --nodes nodes a
move (default 3000), each from --random-plies random plies (default 8), and
writes the quiet positions (not in check, the move played neither a capture
nor a promotion) labelled with the game's result, `FEN;RESULT`, to --out
(default stdout): the data of `chimera tune`. --untuned plays with the derived
default weights instead of the variant's tuned ones."
        }
        "help" => "usage: chimera help   (or chimera CMD --help)",
        _ => return None,
    })
}

/// The commands `chimera` knows, for the "unknown command" message.
const COMMANDS: &str =
    "moves, perft, show, result, pgn, variants, uci, xboard, usi, ucci, engine, bench, tune, selfplay, soak-worker, help";

/// The largest perft depth accepted.
const MAX_DEPTH: usize = 20;

/// Why a run failed.
pub(crate) enum Failure {
    /// A user error: printed as one `error: ...` line, exit status 2.
    Usage(String),
    /// Stdout was closed early (e.g. piped into `head`): exit quietly.
    BrokenPipe,
    /// Not a failure: a protocol session chose a variant too large for this
    /// build, and goes on in the other one ([`resume`]). Only the narrow
    /// build passes sessions on this way.
    #[allow(dead_code)]
    Wider(Passed),
    /// Not a failure: a session the narrow build passed on chose a small
    /// built-in variant again, and goes back to the narrow build. Only the
    /// wide build passes sessions on this way.
    #[allow(dead_code)]
    Narrower(Passed),
}

/// A protocol session passed from one build to the other (the fields of
/// [`protocol::Handover`], whose type differs between the builds).
pub(crate) struct Passed {
    /// The protocol's first command (`uci`, `xboard`, `usi`, `ucci`).
    pub(crate) protocol: &'static str,
    /// The variant files the session started with.
    pub(crate) files: Vec<String>,
    /// The set-up lines to replay unanswered.
    pub(crate) setup: Vec<String>,
    /// The line that chose the variant.
    pub(crate) line: String,
}

/// A protocol session's end: over, or passed to the other build.
fn session_end(e: protocol::Ending) -> Result<bool, Failure> {
    let passed = |h: protocol::Handover| Passed {
        protocol: match h.protocol {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
            Protocol::Usi => "usi",
            Protocol::Ucci => "ucci",
        },
        files: h.files,
        setup: h.setup,
        line: h.line,
    };
    match e {
        protocol::Ending::Done(saw) => Ok(saw),
        protocol::Ending::Wider(h) => Err(Failure::Wider(passed(h))),
        protocol::Ending::Narrower(h) => Err(Failure::Narrower(passed(h))),
    }
}

/// Goes on with a protocol session the other build passed on; ends with
/// [`Failure::Wider`] or [`Failure::Narrower`] if it is passed on again.
#[allow(dead_code)]
pub(crate) fn resume(p: Passed) -> Result<(), Failure> {
    let protocol = Protocol::detect(p.protocol).ok_or("no protocol to resume")?;
    let h = protocol::Handover { protocol, files: p.files, setup: p.setup, line: p.line };
    session_end(protocol::resume(&mut io::stdin().lock(), Out::stdout(), h)?)?;
    Ok(())
}

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure::Usage(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Self {
        Failure::Usage(s.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Usage(format!("cannot write the output: {e}"))
        }
    }
}

/// The options shared by the commands, as given on the command line.
struct Options {
    /// `--variant NAME`: a built-in variant, or the name the variant file must define.
    variant: Option<String>,
    /// `--variant-file PATH`: a user definition in TOML.
    variant_file: Option<String>,
    /// `--fen FEN`: the position, instead of the variant's start position.
    fen: Option<String>,
    /// `--moves "m1 m2 ..."`: moves played from the position before the command runs.
    moves: Option<String>,
    /// `--from SQ`: highlight the targets of the piece on this square.
    from: Option<String>,
    /// `--via SQ`: with `--from`, the second-leg targets after this locust victim.
    via: Option<String>,
    /// `--reference`: perft with the reference legality test.
    reference: bool,
    /// `--read FILE`: `pgn` reads the games of this PGN file (`-`: stdin).
    read: Option<String>,
    /// `--permissive`: accept a FEN whose position the variant cannot reach
    /// (any number of royal pieces, touching royals), for analysis.
    permissive: bool,
    /// `--help` (or `-h`) after the command: print the command's help.
    help: bool,
    /// The arguments that are not options (perft's DEPTH).
    positional: Vec<String>,
}

/// Reads the options that follow the command name.
fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        variant: None,
        variant_file: None,
        fen: None,
        moves: None,
        from: None,
        via: None,
        reference: false,
        read: None,
        permissive: false,
        help: false,
        positional: Vec::new(),
    };
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
            "--from" => o.from = Some(value("--from")?),
            "--via" => o.via = Some(value("--via")?),
            "--reference" => o.reference = true,
            "--read" => o.read = Some(value("--read")?),
            "--permissive" | "--no-validate" => o.permissive = true,
            // read by main.rs, which picks the build before the command runs
            "--wide" => {}
            "--help" | "-h" => o.help = true,
            s if s.starts_with("--") => return Err(format!("unknown option '{s}' (see 'chimera help')")),
            _ => o.positional.push(a.clone()),
        }
        i += 1;
    }
    Ok(o)
}

/// Fails if a command that takes no positional arguments was given one.
fn no_positional(o: &Options) -> Result<(), String> {
    match o.positional.first() {
        Some(a) => Err(format!("unexpected argument '{a}'")),
        None => Ok(()),
    }
}

/// Builds the variant named by `--variant-file` or `--variant`.
fn load_variant(o: &Options) -> Result<Arc<Variant>, String> {
    if let Some(path) = &o.variant_file {
        let text =
            engine::files::read_text_file(path).map_err(|e| format!("cannot read variant file '{path}': {e}"))?;
        let def = match definition(&text, path, Format::of_path(path), o.variant.as_deref()) {
            Ok(d) => d,
            Err(LoadError::SeveralVariants(names)) => {
                return Err(format!(
                    "{path} is a variants.ini file: name one of its variants with --variant ({})",
                    names.join(", ")
                ))
            }
            Err(LoadError::OtherName { defined, wanted }) => {
                return Err(format!("variant file '{path}' defines '{defined}', not '{wanted}'"))
            }
            Err(e) => return Err(e.to_string()),
        };
        return Variant::new(def).map(Arc::new).map_err(|e| e.to_string());
    }
    let name = o.variant.as_deref().ok_or("--variant is required (see 'chimera variants')")?;
    builtin::variant(name).map(Arc::new).map_err(|e| e.to_string())
}

/// The position of `--fen` (or the start position), checked as strictly as
/// `--permissive` says.
fn initial_position(o: &Options, v: Arc<Variant>) -> Result<Position, String> {
    let level = if o.permissive { Validation::Permissive } else { Validation::Strict };
    match &o.fen {
        Some(f) => Position::from_fen_with(v, f, level).map_err(|e| e.to_string()),
        None => Ok(Position::start(v)),
    }
}

/// Reads one move of `--moves`: Fairy-Stockfish's UCI text first, then the
/// variant's default notation (SAN, LAN, the shogi notations, Thai: `Nf3`,
/// `O-O`, `exd5`, `P-7f`), then WXF and the Janggi notation (`C2=5`).
fn read_move(pos: &mut Position, text: &str) -> Result<lib::moves::Move, String> {
    match pos.parse_move(text) {
        Ok(m) => Ok(m),
        Err(uci) => pos
            .parse_san(text, Notation::Default)
            .or_else(|san| {
                [Notation::XiangqiWxf, Notation::Janggi]
                    .into_iter()
                    .find_map(|n| pos.parse_san(text, n).ok())
                    .ok_or(san)
            })
            .map_err(|san| match san.kind {
                // a text that names no move in either notation: the UCI reader's words
                lib::san::SanErrorKind::NoSuchMove | lib::san::SanErrorKind::BadMove(_) => {
                    format!("'{}': {} (position: {})", uci.text, uci.message, uci.fen)
                }
                _ => san.to_string(),
            }),
    }
}

/// Sets up the position from `--fen` (or the start position) and plays
/// `--moves`. A move that cannot be played after the game has ended says so.
fn load_position(o: &Options) -> Result<Position, String> {
    let v = load_variant(o)?;
    let start = initial_position(o, v.clone())?;
    let mut pos = start.clone();
    if let Some(ms) = &o.moves {
        let mut played = Vec::new();
        for (i, text) in ms.split_whitespace().enumerate() {
            match read_move(&mut pos, text) {
                Ok(m) => {
                    pos.make(m);
                    played.push(m);
                }
                Err(e) => {
                    // only now is the game replayed with its history, to name the end
                    let ev = Arc::new(engine::eval::EvalTables::new(&v));
                    let mut game = Game::at(v.clone(), ev, start.clone());
                    for &m in &played {
                        game.play(m);
                    }
                    return Err(match game.end() {
                        Some(end) => {
                            format!("--moves: move {}: '{text}': the game is over ({})", i + 1, end_line(&end))
                        }
                        None => format!("--moves: move {}: {e}", i + 1),
                    });
                }
            }
        }
    }
    Ok(pos)
}

/// A finished game's result line: `1-0 mate`, `1/2-1/2 stalemate`, ...
fn end_line(end: &GameEnd) -> String {
    match end {
        GameEnd::WhiteWins(why) => format!("1-0 {why}"),
        GameEnd::BlackWins(why) => format!("0-1 {why}"),
        GameEnd::Draw(why) => format!("1/2-1/2 {why}"),
    }
}

/// Reads perft's DEPTH argument.
fn parse_depth(positional: &[String]) -> Result<usize, String> {
    let d = match positional {
        [d] => d,
        [] => return Err("perft needs a DEPTH".into()),
        more => return Err(format!("unexpected argument '{}'", more[1])),
    };
    let depth: usize = d.parse().map_err(|_| format!("DEPTH must be a number from 1 to {MAX_DEPTH}, not '{d}'"))?;
    if depth == 0 || depth > MAX_DEPTH {
        return Err(format!("DEPTH must be from 1 to {MAX_DEPTH}, not {depth}"));
    }
    Ok(depth)
}

/// Runs one command; `args` are the arguments after the program name.
pub(crate) fn run(args: &[String]) -> Result<(), Failure> {
    if args.is_empty() && !io::stdin().is_terminal() {
        // started by a GUI or a script: the first command names the protocol
        let ending = protocol::run_or_hand_over(&mut io::stdin().lock(), Out::stdout(), None, &[])?;
        if session_end(ending)? {
            return Ok(());
        }
    }
    let cmd = args.first().map(String::as_str).unwrap_or("help");
    if matches!(cmd, "--version" | "-V" | "version") {
        writeln!(io::stdout(), "chimera {}", env!("CARGO_PKG_VERSION"))?;
        return Ok(());
    }
    if matches!(cmd, "tune" | "selfplay") && !args[1..].iter().any(|a| a == "--help" || a == "-h") {
        return tune_commands(cmd, &args[1..]);
    }
    let o = parse_options(&args[args.len().min(1)..])?;
    let mut out = io::stdout().lock();
    if o.help {
        let text = command_help(cmd)
            .ok_or_else(|| format!("unknown command '{cmd}' (commands: {COMMANDS}; see 'chimera help')"))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    match cmd {
        "moves" => {
            no_positional(&o)?;
            let mut pos = load_position(&o)?;
            let mut text = String::new();
            if let Some(from) = &o.from {
                let g = pos.geometry();
                let square = |name: &str, opt: &str| {
                    g.parse_square(name).ok_or_else(|| format!("{opt}: '{name}' is not a square of this board"))
                };
                let sq = square(from, "--from")?;
                let code = pos.piece_at(sq);
                match (!code.is_empty()).then_some(code.color()) {
                    None => return Err(format!("--from: {from} is empty").into()),
                    Some(c) if c != pos.side_to_move() => {
                        let (whose, mover) =
                            if pos.side_to_move() == Color::White { ("Black", "White") } else { ("White", "Black") };
                        return Err(format!("--from: the piece on {from} is {whose}'s, and {mover} is to move").into());
                    }
                    Some(_) => {}
                }
                let targets = match &o.via {
                    Some(via) => pos.second_leg_targets(sq, square(via, "--via")?),
                    None => pos.legal_targets(sq),
                };
                for t in targets {
                    text.push_str(&format!("{} {}\n", g.square_name(t.square), kind_names(t.kinds).join(",")));
                }
            } else {
                if o.via.is_some() {
                    return Err("--via needs --from".to_string().into());
                }
                for m in pos.legal_moves() {
                    text.push_str(&pos.move_text(m));
                    text.push('\n');
                }
            }
            out.write_all(text.as_bytes())?;
        }
        "perft" => {
            let depth = parse_depth(&o.positional)?;
            let mut pos = load_position(&o)?;
            let t0 = Instant::now();
            let split =
                if o.reference { perft::divide_reference(&mut pos, depth) } else { perft::divide(&mut pos, depth) };
            let elapsed = t0.elapsed();
            let mut total = 0;
            let mut text = String::new();
            for (m, n) in split {
                text.push_str(&format!("{}: {}\n", pos.move_text(m), n));
                total += n;
            }
            text.push_str(&format!("Nodes searched: {total}\n"));
            out.write_all(text.as_bytes())?;
            out.flush()?;
            // timing is informational: a closed stderr must not fail the run
            let _ = writeln!(
                io::stderr(),
                "time {:.3} s, {:.0} nodes/s",
                elapsed.as_secs_f64(),
                total as f64 / elapsed.as_secs_f64().max(1e-9)
            );
        }
        "show" => {
            no_positional(&o)?;
            let pos = load_position(&o)?;
            write!(out, "{}", pos.board_text())?;
            writeln!(out, "fen: {}", pos.fen())?;
        }
        "result" => {
            no_positional(&o)?;
            let v = load_variant(&o)?;
            let ev = Arc::new(engine::eval::EvalTables::new(&v));
            let pos = initial_position(&o, v.clone())?;
            let mut game = Game::at(v, ev, pos);
            if let Some(ms) = &o.moves {
                for (i, text) in ms.split_whitespace().enumerate() {
                    let m = read_move(&mut game.pos, text).map_err(|e| format!("--moves: move {}: {e}", i + 1))?;
                    game.play(m);
                }
            }
            let line = match game.end() {
                None => "*".to_string(),
                Some(end) => end_line(&end),
            };
            writeln!(out, "{line}")?;
        }
        "pgn" => {
            no_positional(&o)?;
            drop(out);
            return match &o.read {
                Some(path) => pgn_read(&o, path),
                None => pgn_write(&o),
            };
        }
        "variants" => {
            for n in builtin::names() {
                let v = builtin::variant(n).map_err(|e| e.to_string())?;
                writeln!(out, "{n}\t{}", v.def.description)?;
            }
        }
        "help" | "--help" | "-h" => writeln!(out, "{USAGE}")?,
        "uci" | "xboard" | "usi" | "ucci" | "engine" => {
            no_positional(&o)?;
            drop(out);
            let protocol = Protocol::detect(cmd);
            // --variant-file: its variants are there from the start, as after VariantPath
            let files: Vec<String> = o.variant_file.iter().cloned().collect();
            let ending = protocol::run_or_hand_over(&mut io::stdin().lock(), Out::stdout(), protocol, &files)?;
            session_end(ending)?;
            return Ok(());
        }
        "bench" => {
            let depth = match o.positional.as_slice() {
                [] => bench::DEFAULT_DEPTH,
                [d] => d
                    .parse::<i32>()
                    .ok()
                    .filter(|d| (1..=30).contains(d))
                    .ok_or_else(|| format!("bench DEPTH must be a number from 1 to 30, not '{d}'"))?,
                more => return Err(format!("unexpected argument '{}'", more[1]).into()),
            };
            let mut i = 0;
            let n = bench::POSITIONS.len();
            let (nodes, time) = bench::run(depth, &mut |l| {
                i += 1;
                let _ = writeln!(out, "Position {i}/{n} {} ({}): {} nodes, best {}", l.variant, l.fen, l.nodes, l.best);
            })?;
            let ms = time.as_millis().max(1);
            writeln!(out, "===========================")?;
            writeln!(out, "Total time (ms): {ms}")?;
            writeln!(out, "Nodes searched: {nodes}")?;
            writeln!(out, "Nodes/second: {}", nodes as u128 * 1000 / ms)?;
        }
        "soak-worker" => {
            no_positional(&o)?;
            drop(out);
            soak_worker()?;
            return Ok(());
        }
        other => return Err(format!("unknown command '{other}' (commands: {COMMANDS}; see 'chimera help')").into()),
    }
    out.flush()?;
    Ok(())
}

/// `chimera pgn` without `--read`: the game of `--moves` as PGN.
fn pgn_write(o: &Options) -> Result<(), Failure> {
    let v = load_variant(o)?;
    let start = initial_position(o, v.clone())?;
    // the moves as `--moves` reads them, and the game over as `result` finds it
    let pos = load_position(o)?;
    let ev = Arc::new(engine::eval::EvalTables::new(&v));
    let mut game = Game::at(v, ev, start.clone());
    let mut record = lib::pgn::Game::new(start);
    if let Some(ms) = &o.moves {
        for (i, text) in ms.split_whitespace().enumerate() {
            let m = read_move(&mut game.pos, text).map_err(|e| format!("--moves: move {}: {e}", i + 1))?;
            record.push(m).map_err(|e| format!("--moves: move {}: {e}", i + 1))?;
            game.play(m);
        }
    }
    debug_assert_eq!(record.final_position().fen(), pos.fen());
    if let Some(end) = game.end() {
        let (outcome, why) = match &end {
            GameEnd::WhiteWins(w) => (lib::pgn::Outcome::WhiteWins, w.to_string()),
            GameEnd::BlackWins(w) => (lib::pgn::Outcome::BlackWins, w.to_string()),
            GameEnd::Draw(w) => (lib::pgn::Outcome::Draw, w.to_string()),
        };
        record.result = outcome;
        match record.line.moves.last_mut() {
            Some(m) => m.comments.push(why),
            None => record.line.comments.push(why),
        }
    }
    io::stdout().lock().write_all(record.to_pgn().as_bytes())?;
    Ok(())
}

/// `chimera pgn --read FILE`: checks every game, one line per game.
fn pgn_read(o: &Options, path: &str) -> Result<(), Failure> {
    let mut bytes = Vec::new();
    let limit = lib::pgn::MAX_INPUT as u64 + 1;
    let read = if path == "-" {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("cannot read '{path}': {e}"))?;
    if bytes.len() > lib::pgn::MAX_INPUT {
        return Err(format!("'{path}' is longer than {} bytes, the most PGN text read", lib::pgn::MAX_INPUT).into());
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("'{path}' is not UTF-8 text: {e}"))?;
    // a game without a Variant tag is --variant's; a Variant tag naming the
    // variant of --variant-file is that file's
    let own = if o.variant.is_some() || o.variant_file.is_some() { Some(load_variant(o)?) } else { None };
    let mut built: std::collections::HashMap<&'static str, Arc<Variant>> = std::collections::HashMap::new();
    let mut lookup = |tag: Option<&str>| -> Result<Arc<Variant>, String> {
        match (tag, &own) {
            (None, Some(v)) => return Ok(v.clone()),
            (Some(t), Some(v)) if t.eq_ignore_ascii_case(v.name()) => return Ok(v.clone()),
            _ => {}
        }
        let name = match tag {
            None => "chess",
            Some(t) => {
                lib::pgn::variant_name(t).ok_or_else(|| builtin::LookupError::Unknown(t.to_string()).to_string())?
            }
        };
        // built once per variant, not once per game
        if let Some(v) = built.get(name) {
            return Ok(Arc::clone(v));
        }
        let v = builtin::variant(name).map(Arc::new).map_err(|e| e.to_string())?;
        built.insert(name, v.clone());
        Ok(v)
    };
    let games = lib::pgn::read_games_with(&text, &mut lookup);
    if games.is_empty() {
        return Err(format!("'{path}' holds no game").into());
    }
    let mut out = io::stdout().lock();
    let (mut bad, mut first) = (0, None);
    for (i, g) in games.iter().enumerate() {
        match g {
            Ok(g) => writeln!(out, "{}\tok\t{}\t{}", i + 1, g.final_position().fen(), g.uci_moves().join(" "))?,
            Err(e) => {
                bad += 1;
                first.get_or_insert(e.clone());
                writeln!(out, "{}\terror\t{}", i + 1, e.to_string().replace(['\t', '\n'], " "))?;
            }
        }
    }
    out.flush()?;
    match first {
        None => Ok(()),
        Some(e) => Err(format!("{bad} of {} games could not be read; the first: {e}", games.len()).into()),
    }
}

/// One request of `soak-worker`: `VARIANT<TAB>FEN<TAB>MOVE`; the answer line
/// without its newline.
fn soak_answer(variants: &mut std::collections::HashMap<String, Arc<Variant>>, line: &str) -> Result<String, String> {
    let mut f = line.split('\t');
    let (name, fen, mv) = (f.next().unwrap_or(""), f.next().unwrap_or(""), f.next().unwrap_or("").trim());
    let v = match variants.get(name) {
        Some(v) => v.clone(),
        None => {
            let v = Arc::new(builtin::variant(name).map_err(|e| e.to_string())?);
            variants.insert(name.to_string(), v.clone());
            v
        }
    };
    let mut pos = Position::from_fen(v, fen).map_err(|e| e.to_string())?;
    let mut out_fen = pos.fen();
    if !mv.is_empty() {
        let m = pos.parse_move(mv).map_err(|e| e.to_string())?;
        let (hash, before) = (pos.hash(), pos.fen());
        let undo = pos.make(m);
        if pos.hash() != pos.compute_hash() {
            return Err(format!("incremental hash differs from the hash from scratch after {mv}"));
        }
        let after = pos.clone();
        pos.unmake(m, &undo);
        if pos.hash() != hash || pos.fen() != before {
            return Err(format!("unmaking {mv} does not restore the position"));
        }
        // the legal moves of the position as a FEN-only reference sees it: rebuilt
        // from its FEN, so without the one move of history (Janggi's bikjang, passes)
        let fen = after.fen();
        out_fen = fen.clone();
        pos = Position::from_fen(after.variant().clone(), &fen).map_err(|e| format!("own FEN after {mv}: {e}"))?;
        // Fairy-Stockfish's gating FENs leave the castling field empty when the
        // only gates left are unusable (an empty hand): that reads back as '-'
        let unusable_gates = pos.variant().def.rules.gating && fen.replacen("  ", " - ", 1) == pos.fen();
        if pos.fen() != fen && !unusable_gates {
            return Err(format!("the FEN after {mv} is not a fixed point: {fen} reads back as {}", pos.fen()));
        }
    }
    let mut s = out_fen;
    s.push('\t');
    for (i, m) in pos.legal_moves().into_iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&pos.move_text(m));
    }
    Ok(s)
}

/// `chimera soak-worker`: answers `VARIANT<TAB>FEN<TAB>MOVE` lines on stdin
/// (see the usage text), flushing after each answer.
fn soak_worker() -> Result<(), Failure> {
    let mut variants = std::collections::HashMap::new();
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("cannot read stdin: {e}"))?;
        match soak_answer(&mut variants, line.trim_end_matches(['\r', '\n'])) {
            Ok(s) => writeln!(out, "ok\t{s}")?,
            Err(e) => writeln!(out, "error\t{}", e.replace(['\t', '\n'], " "))?,
        }
        out.flush()?;
    }
    Ok(())
}

/// `chimera tune` and `chimera selfplay` (see their usage texts): their own
/// options, the work in `engine::tune` and `engine::selfplay`.
fn tune_commands(cmd: &str, args: &[String]) -> Result<(), Failure> {
    let mut opts = std::collections::HashMap::new();
    let mut untuned = false;
    let mut squares = false;
    let mut fitted_tempo = false;
    let mut measure_tempo = false;
    let known: &[&str] = if cmd == "tune" {
        &["--variant", "--data", "--iterations", "--k", "--reg", "--start", "--out", "--only"]
    } else {
        &["--variant", "--games", "--nodes", "--random-plies", "--seed", "--max-plies", "--out"]
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if cmd == "selfplay" && a == "--untuned" {
            untuned = true;
        } else if cmd == "tune" && a == "--squares" {
            squares = true;
        } else if cmd == "tune" && a == "--fitted-tempo" {
            fitted_tempo = true;
        } else if cmd == "tune" && a == "--measure-tempo" {
            measure_tempo = true;
        } else if known.contains(&a) {
            let v = args.get(i + 1).ok_or_else(|| format!("{a} needs a value"))?;
            opts.insert(a, v.clone());
            i += 1;
        } else {
            return Err(format!("unknown option '{a}' (see 'chimera {cmd} --help')").into());
        }
        i += 1;
    }
    let number = |name: &str, default: u64, max: u64| -> Result<u64, String> {
        match opts.get(name) {
            None => Ok(default),
            Some(t) => t
                .parse::<u64>()
                .ok()
                .filter(|&n| n >= 1 && n <= max)
                .ok_or_else(|| format!("{name} must be a number from 1 to {max}, not '{t}'")),
        }
    };
    let name = opts.get("--variant").ok_or("--variant is required (see 'chimera variants')")?;
    let v = Arc::new(builtin::variant(name).map_err(|e| e.to_string())?);
    let mut err = io::stderr().lock();
    if cmd == "selfplay" {
        use engine::selfplay::{selfplay, SelfplayOptions};
        let o = SelfplayOptions {
            games: number("--games", 100, 1_000_000)? as usize,
            nodes: number("--nodes", 3000, 100_000_000)?,
            random_plies: match opts.get("--random-plies") {
                Some(t) => t
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= 100)
                    .ok_or_else(|| format!("--random-plies must be a number from 0 to 100, not '{t}'"))?,
                None => 8,
            },
            seed: number("--seed", 1, u64::MAX)?,
            max_plies: number("--max-plies", 300, 10_000)? as usize,
            ..SelfplayOptions::default()
        };
        let ev =
            Arc::new(if untuned { engine::eval::EvalTables::untuned(&v) } else { engine::eval::EvalTables::new(&v) });
        let mut sink: Box<dyn Write> = match opts.get("--out") {
            Some(path) => Box::new(io::BufWriter::new(
                std::fs::File::create(path).map_err(|e| format!("cannot create '{path}': {e}"))?,
            )),
            None => Box::new(io::BufWriter::new(io::stdout().lock())),
        };
        let stats = selfplay(&v, &ev, &o, &mut *sink, &mut |n, r, plies| {
            let _ = writeln!(err, "game {n}: {r} in {plies} plies");
        })?;
        sink.flush()?;
        let [w, d, b] = stats.results;
        writeln!(
            io::stderr(),
            "{} games (+{w} ={d} -{b} for White, {} adjudicated), {} positions",
            stats.games,
            stats.adjudicated,
            stats.positions
        )?;
        return Ok(());
    }
    use engine::tune::{parse_data, tune, TuneOptions};
    let data_path = opts.get("--data").ok_or("--data FILE is required")?;
    let text =
        engine::files::read_text_file(data_path).map_err(|e| format!("cannot read data file '{data_path}': {e}"))?;
    let data = parse_data(&v, &text)?;
    if measure_tempo {
        let ev = engine::eval::EvalTables::new(&v);
        let mut out = io::stdout().lock();
        writeln!(out, "tempo of the weights: {}", ev.tempo())?;
        match engine::tune::consistent_tempo(&ev, data.iter().map(|s| &s.pos)) {
            Some((t, n)) => writeln!(out, "consistent tempo: {t} ({n} of {} positions with a quiet move)", data.len())?,
            None => writeln!(out, "consistent tempo: none (no position out of check has a quiet move)")?,
        }
        return Ok(());
    }
    let k = match opts.get("--k") {
        Some(t) => Some(
            t.parse::<f64>()
                .ok()
                .filter(|k| k.is_finite() && *k > 0.0 && *k <= 100.0)
                .ok_or_else(|| format!("--k must be a number above 0, at most 100, not '{t}'"))?,
        ),
        None => None,
    };
    let mut o = TuneOptions {
        iterations: number("--iterations", 1000, 1_000_000)? as usize,
        k,
        squares,
        fitted_tempo,
        ..TuneOptions::default()
    };
    if let Some(t) = opts.get("--only") {
        let patterns: Vec<String> = t.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
        if patterns.is_empty() {
            return Err("--only needs weight keys or prefixes ending in '*', separated by commas".into());
        }
        o.only = Some(patterns);
    }
    if let Some(t) = opts.get("--reg") {
        o.reg = t
            .parse::<f64>()
            .ok()
            .filter(|r| r.is_finite() && *r >= 0.0 && *r <= 1.0)
            .ok_or_else(|| format!("--reg must be a number from 0 to 1, not '{t}'"))?;
    }
    let mut start = engine::eval::EvalTables::default_params(&v);
    let start_from = match opts.get("--start").map(String::as_str) {
        None => "the derived defaults".to_string(),
        Some("builtin") => {
            let text = engine::params::builtin_weights(&v.def.name)
                .ok_or_else(|| format!("--start builtin: variant {} has no weights file in use", v.def.name))?;
            start.apply_text(&v, text).map_err(|e| format!("built-in weights of {}: {e}", v.def.name))?;
            "the weights in use".to_string()
        }
        Some(path) => {
            let text =
                engine::files::read_text_file(path).map_err(|e| format!("cannot read weights file '{path}': {e}"))?;
            start.apply_text(&v, &text).map_err(|e| format!("weights file '{path}': {e}"))?;
            format!("'{path}'")
        }
    };
    let t0 = Instant::now();
    let r = tune(&v, &data, &start, &o, &mut |it, e| {
        let _ = writeln!(err, "iteration {it}: model error {e:.6}");
    })?;
    let out_path = opts.get("--out").cloned().unwrap_or_else(|| format!("{}.weights.txt", v.def.name));
    let tempo_line = match r.tempo {
        (f, Some((t, n))) => {
            format!("tempo {t}: one-ply consistent over {n} positions with a quiet move (the fit gave {f})")
        }
        (f, None) if fitted_tempo => format!("tempo {f}: fitted (--fitted-tempo)"),
        (f, None)
            if o.only
                .as_ref()
                .is_some_and(|p| engine::tune::only_mask(&v, p).is_ok_and(|m| !m[engine::params::TEMPO])) =>
        {
            format!("tempo {f}: kept from the start (--only does not name it)")
        }
        (f, None) => format!("tempo {f}: fitted (no position with a quiet move to measure the consistent one)"),
    };
    let held_what = if engine::tune::games_marked(&data) { "every tenth game" } else { "every tenth position" };
    let header = vec![
        format!(
            "chimera evaluation weights for {}: `chimera tune --variant {} --iterations {} --reg {}{}{}{}`, from {start_from}",
            v.def.name,
            v.def.name,
            o.iterations,
            o.reg,
            if o.squares { " --squares" } else { "" },
            if o.fitted_tempo { " --fitted-tempo" } else { "" },
            o.only.as_ref().map(|p| format!(" --only {}", p.join(","))).unwrap_or_default()
        ),
        format!(
            "on {} positions ({} fitted, {} held out: {held_what}), K {:.4}; error {:.6} -> {:.6} (held out {:.6} -> {:.6})",
            data.len(),
            r.counts.0,
            r.counts.1,
            r.k,
            r.before.0,
            r.after.0,
            r.before.1,
            r.after.1
        ),
        tempo_line.clone(),
    ];
    std::fs::write(&out_path, r.params.to_text(&v, &header)).map_err(|e| format!("cannot write '{out_path}': {e}"))?;
    let mut out = io::stdout().lock();
    writeln!(out, "positions: {} fitted, {} held out ({held_what})", r.counts.0, r.counts.1)?;
    writeln!(out, "K: {:.4}", r.k)?;
    writeln!(out, "start: {start_from}")?;
    writeln!(out, "error before: {:.6} (held out {:.6})", r.before.0, r.before.1)?;
    writeln!(out, "error after:  {:.6} (held out {:.6})", r.after.0, r.after.1)?;
    writeln!(out, "{tempo_line}")?;
    writeln!(out, "time: {:.1} s", t0.elapsed().as_secs_f64())?;
    writeln!(out, "weights written to {out_path}")?;
    Ok(())
}

/// Whether this instance can read the definition of the variant the
/// arguments name (`--variant`, `--variant-file`), or they name none: a
/// cheap test (the definition is read, not compiled) that picks the
/// instance before the command runs.
// main.rs asks the narrow instance only
#[allow(dead_code)]
pub(crate) fn reads_variant(args: &[String]) -> bool {
    let Ok(o) = parse_options(&args[args.len().min(1)..]) else { return true };
    if let Some(path) = &o.variant_file {
        let Ok(text) = engine::files::read_text_file(path) else { return true };
        let format = Format::of_path(path);
        return match o.variant.as_deref() {
            Some(name) => definition(&text, path, format, Some(name)).is_ok(),
            // the engine's sessions load every variant of the file
            None => !lib::loader::definitions(&text, path, format).is_err_and(|e| e.is_too_large()),
        };
    }
    match &o.variant {
        Some(name) => builtin::definition(name).is_ok(),
        None => true,
    }
}
