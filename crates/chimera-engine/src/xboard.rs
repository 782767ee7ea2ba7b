//! XBoard / CECP version 2.
//!
//! Variant names are XBoard's where XBoard has the variant (`normal` for
//! chess, `lion` for Mighty Lion Chess), Fairy-Stockfish's otherwise. For a
//! variant XBoard does not know, the reply to `variant` is a `setup` command
//! with the board size, the holdings size, the piece letters and the start
//! position, and one `piece` command per piece type with its XBetza moves.
//! With `feature highlight=1`, `lift SQ` is answered by `highlight` with the
//! legal targets of the piece (yellow: move, red: capture, magenta:
//! promotion, cyan: the first leg of a multi-leg move), and `put SQ` on a cyan
//! square by the second-leg targets.

use crate::game::{Engine, Game};
use crate::notation::{self, Style};
use crate::numbers::parse_count;
use crate::rules::GameEnd;
use crate::search::{Limits, Report, Score};
use crate::timeman::{self, Budget, Clock};
use crate::uci::Flow;
use chimera::highlight::kind;
use chimera::square::{Color, Square};
use std::time::Duration;

/// The variants XBoard knows by name (its own rules and board size).
const XBOARD_KNOWN: &[&str] = &[
    "normal",
    "nocastle",
    "fischerandom",
    "caparandom",
    "crazyhouse",
    "giveaway",
    "suicide",
    "shatranj",
    "courier",
    "capablanca",
    "gothic",
    "janus",
    "knightmate",
    "shogi",
    "xiangqi",
    "makruk",
    "asean",
    "grand",
    "lion",
    "chu",
    "seirawan",
    "atomic",
    "3check",
];

/// The XBoard name of a variant.
pub fn xboard_name(name: &str) -> String {
    match name {
        "chess" => "normal".into(),
        "mightylion" => "lion".into(),
        "chushogi" => "chu".into(),
        "washogi" => "wa-shogi".into(),
        // HaChu's names
        "shoshogi" => "sho".into(),
        "daishogi" => "dai".into(),
        "cashewshogi" => "cashew-shogi".into(),
        "macadamiashogi" => "macadamia-shogi".into(),
        "tenjikushogi" => "tenjiku".into(),
        n => n.into(),
    }
}

/// The engine's name of an XBoard variant name (a board-size prefix such as
/// `10x8_` is dropped).
pub fn engine_name(xb: &str) -> String {
    let base = match xb.split_once('_') {
        Some((size, rest)) if size.contains('x') && size.bytes().next().is_some_and(|b| b.is_ascii_digit()) => rest,
        _ => xb,
    };
    match base {
        "normal" => "chess".into(),
        "lion" => "mightylion".into(),
        "chu" => "chushogi".into(),
        "wa-shogi" => "washogi".into(),
        "sho" => "shoshogi".into(),
        "dai" => "daishogi".into(),
        "cashew-shogi" => "cashewshogi".into(),
        "macadamia-shogi" => "macadamiashogi".into(),
        "tenjiku" => "tenjikushogi".into(),
        n => n.into(),
    }
}

/// An XBoard session.
pub struct XboardSession {
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    post: bool,
    /// Centiseconds on the engine's clock.
    my_time: Option<u64>,
    /// Moves per session (0: all), base and increment, from `level`.
    mps: u32,
    inc_ms: u64,
    st: Option<u64>,
    sd: Option<i32>,
    lifted: Option<Square>,
    /// The locust victim the lifted piece was put on (the first leg of a
    /// two-leg move), while the second leg is being chosen.
    victim: Option<Square>,
    /// In analyze mode: the engine searches without end and plays nothing.
    analyzing: bool,
}

impl Default for XboardSession {
    fn default() -> Self {
        Self::new()
    }
}

impl XboardSession {
    /// A new session (engine plays Black, as after `new`).
    pub fn new() -> XboardSession {
        XboardSession {
            engine_side: Some(Color::Black),
            post: false,
            my_time: None,
            mps: 0,
            inc_ms: 0,
            st: None,
            sd: None,
            lifted: None,
            victim: None,
            analyzing: false,
        }
    }

    fn error(&self, e: &Engine, kind: &str, cmd: &str) {
        e.out.line(&format!("Error ({kind}): {cmd}"));
    }

    /// Handles one input line.
    pub fn handle(&mut self, e: &mut Engine, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return Flow::Continue };
        let arg = words.get(1).copied().unwrap_or("");
        let rest = words[1..].join(" ");
        let before = self.snapshot(e);
        match cmd {
            "xboard" | "accepted" | "rejected" | "hard" | "easy" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "." | "hover" | "otim" => {}
            "analyze" => {
                e.abandon();
                self.engine_side = None;
                self.analyzing = true;
                self.analyze(e);
            }
            "exit" => {
                e.abandon();
                self.analyzing = false;
            }
            "exclude" | "include" => self.exclude(e, cmd == "exclude", arg),
            "protover" => self.features(e),
            "new" => {
                e.abandon();
                e.clear_hash();
                let _ = e.set_variant("chess");
                self.engine_side = Some(Color::Black);
                self.sd = None;
                self.st = None;
            }
            "variant" => {
                e.abandon();
                let name = engine_name(arg);
                match e.set_variant(&name) {
                    Ok(()) => self.announce_variant(e),
                    Err(m) => self.error(e, "unknown variant", &format!("{arg}: {m}")),
                }
            }
            // the move of a search these interrupt is not played
            "force" => {
                e.abandon();
                self.engine_side = None;
            }
            "go" => {
                e.stop();
                self.engine_side = Some(e.game().pos.side_to_move());
                self.think(e);
            }
            "playother" => {
                e.abandon();
                self.engine_side = Some(e.game().pos.side_to_move().flip());
            }
            "white" | "black" => {
                e.abandon();
                self.engine_side = Some(if cmd == "white" { Color::Black } else { Color::White });
            }
            "usermove" => self.usermove(e, arg),
            "?" => e.stop(),
            "ping" => e.out.line(&format!("pong {arg}")),
            "result" => {
                e.abandon();
                self.engine_side = None;
            }
            "setboard" => {
                e.abandon();
                let (v, ev) = {
                    let g = e.game();
                    (g.variant.clone(), g.ev.clone())
                };
                match xboard_fen(v, ev, &rest) {
                    Ok(g) => e.set_game(g),
                    Err(m) => {
                        e.out.line(&format!("tellusererror Illegal position: {m}"));
                        self.error(e, "bad FEN", &rest);
                    }
                }
            }
            "undo" | "remove" => {
                e.abandon();
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    if !e.game().undo() {
                        self.error(e, "no move to take back", cmd);
                        break;
                    }
                }
            }
            "level" => self.level(e, &words[1..]),
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 => self.st = Some((s * 1000.0) as u64),
                _ => self.error(e, "bad number", line),
            },
            "sd" => match arg.parse::<i32>() {
                Ok(d) if d > 0 => self.sd = Some(d.min(98)),
                _ => self.error(e, "bad number", line),
            },
            // a clock too big for u64 saturates
            "time" => match parse_count(arg) {
                Some(t) => self.my_time = Some(t),
                None => self.error(e, "bad number", line),
            },
            "post" => self.post = true,
            "nopost" => self.post = false,
            "memory" => match parse_count(arg) {
                Some(mb) => {
                    if let Err(m) = e.set_hash(usize::try_from(mb).unwrap_or(usize::MAX)) {
                        self.error(e, &m, line);
                    }
                }
                None => self.error(e, "bad number", line),
            },
            "cores" => match parse_count(arg) {
                Some(n) => e.threads = n.clamp(1, 256) as usize,
                None => self.error(e, "bad number", line),
            },
            // the raw text: a file name may hold several spaces in a row
            "option" => self.option(e, line.trim_start()["option".len()..].trim()),
            "lift" => self.lift(e, arg),
            "put" => self.put(e, arg),
            "quit" => {
                e.stop();
                return Flow::Quit;
            }
            _ => {
                // a move without "usermove" (protocol version 1 style)
                let looks_like_move = cmd.len() >= 4
                    && cmd.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'@')
                    && cmd.bytes().any(|b| b.is_ascii_digit() || b == b'@');
                let legal = looks_like_move && {
                    let mut g = e.game();
                    notation::move_in(&mut g.pos, cmd, Style::Xboard).is_ok()
                };
                if legal {
                    self.usermove(e, cmd);
                } else {
                    self.error(e, "unknown command", cmd);
                }
            }
        }
        // a new position: exclusions lapse, an analysis restarts on it
        let moved = matches!(cmd, "setboard" | "new" | "variant") || self.snapshot(e) != before;
        if moved {
            e.excluded.clear();
            if self.analyzing {
                self.analyze(e);
            }
        }
        Flow::Continue
    }

    fn features(&self, e: &Engine) {
        // the built-in "normal" is chess under another name, which XBoard calls normal
        let names = Self::variant_names(e);
        let version = env!("CARGO_PKG_VERSION");
        e.out.line(&format!(
            "feature myname=\"Chimera {version}\" setboard=1 usermove=1 ping=1 playother=1 sigint=0 sigterm=0 \
             reuse=1 analyze=1 exclude=1 colors=0 san=0 time=1 draw=0 highlight=1 memory=1 smp=1 debug=1"
        ));
        e.out.line(&format!("feature variants=\"{}\"", names.join(",")));
        // the engine's options, as XBoard shows them in its options dialog
        e.out.line(&format!("feature option=\"Hash -spin {} 1 65536\"", e.hash_mb));
        e.out.line(&format!("feature option=\"Threads -spin {} 1 256\"", e.threads));
        e.out.line(&format!("feature option=\"MultiPV -spin {} 1 256\"", e.multipv));
        e.out.line(&format!("feature option=\"Move Overhead -spin {} 0 5000\"", e.overhead_ms));
        e.out.line("feature option=\"VariantPath -file \"");
        e.out.line("feature option=\"Clear Hash -button\"");
        e.out.line("feature done=1");
    }

    /// The variant names for `feature variants`, XBoard's where it has them.
    fn variant_names(e: &Engine) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for n in e.registry.names() {
            let x = xboard_name(&n);
            if !names.contains(&x) {
                names.push(x);
            }
        }
        names
    }

    /// `option NAME=VALUE` (or `option NAME` for a button), for the options of
    /// `feature option`. After VariantPath the list of variants is sent again,
    /// so that XBoard offers the file's variants.
    fn option(&mut self, e: &mut Engine, arg: &str) {
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (arg.trim(), ""),
        };
        let number = |v: &str| -> Result<usize, String> {
            parse_count(v)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                .ok_or_else(|| format!("option '{name}' needs a number, not '{v}'"))
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "hash" => number(value).and_then(|n| e.set_hash(n).map_err(|m| format!("Hash: {m}"))),
            "threads" => number(value).map(|n| e.threads = n.clamp(1, 256)),
            "multipv" => number(value).map(|n| e.multipv = n.clamp(1, 256)),
            "move overhead" => number(value).map(|n| e.overhead_ms = n.min(5000) as u64),
            "clear hash" => {
                e.clear_hash();
                Ok(())
            }
            "variantpath" if value.is_empty() => Ok(()),
            "variantpath" => e.registry.load_file(value).map(|loaded| {
                e.out.line(&format!("# loaded variants: {}", loaded.join(", ")));
                e.out.line(&format!("feature variants=\"{}\"", Self::variant_names(e).join(",")));
            }),
            _ => Err(format!("unknown option '{name}'")),
        };
        if let Err(m) = result {
            self.error(e, &m, arg);
        }
    }

    /// For a variant XBoard does not know: `setup` and `piece` commands
    /// (see [`setup_lines`]).
    fn announce_variant(&self, e: &Engine) {
        let v = e.game().variant.clone();
        for l in setup_lines(&v) {
            e.out.line(&l);
        }
    }

    fn level(&mut self, e: &Engine, args: &[&str]) {
        let (Some(mps), Some(base), Some(inc)) = (args.first(), args.get(1), args.get(2)) else {
            return self.error(e, "level needs MPS BASE INC", &args.join(" "));
        };
        let base_ok = base.split(':').all(|p| p.parse::<u32>().is_ok());
        match (mps.parse::<u32>(), inc.parse::<f64>()) {
            (Ok(m), Ok(i)) if base_ok && i >= 0.0 => {
                self.mps = m;
                self.inc_ms = (i * 1000.0) as u64;
            }
            _ => self.error(e, "bad level", &args.join(" ")),
        }
    }

    fn usermove(&mut self, e: &mut Engine, text: &str) {
        e.stop();
        let played = {
            let mut g = e.game();
            match notation::move_in(&mut g.pos, text, Style::Xboard) {
                Ok(m) => {
                    g.play(m);
                    Ok(())
                }
                Err(m) => Err(m),
            }
        };
        if let Err(reason) = played {
            e.out.line(&format!("Illegal move ({reason}): {text}"));
            return;
        }
        self.lifted = None;
        self.victim = None;
        if self.analyzing {
            return; // the analysis restarts on the new position (see `handle`)
        }
        let end = e.game().end();
        if let Some(end) = end {
            e.out.line(&result_line(end));
            return;
        }
        if self.engine_side == Some(e.game().pos.side_to_move()) {
            self.think(e);
        }
    }

    /// What identifies the game's position for analysis: its hash and length.
    fn snapshot(&self, e: &Engine) -> (u64, usize) {
        let g = e.game();
        (g.pos.hash(), g.played.len())
    }

    /// Analyze mode: an endless search of the current position, thinking
    /// output always on, no move played; the exclusions apply.
    fn analyze(&mut self, e: &mut Engine) {
        let limits = Limits { excluded: e.excluded.clone(), ..Limits::default() };
        let out = e.out.clone();
        e.start(limits, true, Box::new(move |r: &Report, pos| out.line(&thinking_line(r, pos))), Box::new(|_, _| {}));
    }

    /// `exclude MOVE`, `include MOVE`, `exclude all`, `include all` (analyze mode).
    fn exclude(&mut self, e: &mut Engine, exclude: bool, text: &str) {
        e.stop();
        if text == "all" {
            e.excluded.clear();
            if exclude {
                let mut g = e.game();
                let all = g.pos.legal_moves();
                drop(g);
                e.excluded = all;
            }
        } else {
            let parsed = {
                let mut g = e.game();
                notation::move_in(&mut g.pos, text, Style::Xboard)
            };
            match parsed {
                Ok(m) => {
                    e.excluded.retain(|&x| x != m);
                    if exclude {
                        e.excluded.push(m);
                    }
                }
                Err(m) => self.error(e, &format!("illegal move ({m})"), text),
            }
        }
        if self.analyzing {
            self.analyze(e);
        }
    }

    fn think(&mut self, e: &mut Engine) {
        let mut limits = Limits { depth: self.sd, ..Limits::default() };
        let overhead = Duration::from_millis(e.overhead_ms);
        if let Some(st) = self.st {
            limits = limits.with_budget(Budget::fixed(Duration::from_millis(st), overhead));
        } else if let Some(cs) = self.my_time {
            let g = e.game();
            let played = g.played.len() as u32 / 2;
            let movestogo = (self.mps > 0).then(|| self.mps - played % self.mps);
            let clock = Clock {
                time: Duration::from_millis(cs.saturating_mul(10)),
                inc: Duration::from_millis(self.inc_ms),
                movestogo,
                byoyomi: Duration::ZERO,
            };
            let expected = g.moves_left();
            drop(g);
            limits = limits.with_budget(timeman::budget(&clock, overhead, expected));
        } else if self.sd.is_none() {
            limits.soft = Some(Duration::from_secs(5));
            limits.hard = Some(Duration::from_secs(5));
        }
        let post = self.post;
        let out = e.out.clone();
        let out2 = e.out.clone();
        e.start(
            limits,
            false,
            Box::new(move |r: &Report, pos| {
                if post {
                    out.line(&thinking_line(r, pos));
                }
            }),
            Box::new(move |r, g| {
                let Some(m) = r.best else {
                    if let Some(end) = g.end() {
                        out2.line(&result_line(end));
                    }
                    return;
                };
                let text = notation::move_out(&g.pos, m, Style::Xboard);
                g.play(m);
                out2.line(&format!("move {text}"));
                if let Some(end) = g.end() {
                    out2.line(&result_line(end));
                }
            }),
        );
    }

    fn square(e: &Engine, text: &str) -> Option<Square> {
        let g = e.game().pos.geometry();
        g.parse_square(&notation::to_core_text(&g, text.trim_end_matches(','), Style::Xboard))
    }

    fn lift(&mut self, e: &mut Engine, text: &str) {
        let Some(sq) = Self::square(e, text) else {
            return self.error(e, "bad square", text);
        };
        if self.lifted.is_some() && self.victim == Some(sq) {
            // XBoard lifts the piece again from the victim's square after the
            // first leg: the second-leg targets stay
            return self.second_leg(e, sq);
        }
        self.victim = None;
        self.lifted = Some(sq);
        let mut g = e.game();
        let geo = g.pos.geometry();
        let targets = g.pos.legal_targets(sq);
        drop(g);
        let mut colours = vec![None; geo.squares()];
        for t in targets {
            let c = if t.kinds & kind::VICTIM != 0 {
                'C'
            } else if t.kinds & kind::PROMOTION != 0 {
                'M'
            } else if t.kinds & (kind::CAPTURE | kind::EN_PASSANT) != 0 {
                'R'
            } else if t.kinds & (kind::MOVE | kind::CASTLE | kind::PASS) != 0 {
                'Y'
            } else {
                continue; // reached only through a victim: shown after `put` on it
            };
            colours[t.square.index()] = Some(c);
        }
        e.out.line(&format!("highlight {}", colour_fen(&geo, &colours)));
    }

    fn put(&mut self, e: &mut Engine, text: &str) {
        let Some(sq) = Self::square(e, text) else {
            return self.error(e, "bad square", text);
        };
        self.second_leg(e, sq);
    }

    /// Highlights the second-leg targets after the lifted piece's first leg
    /// to `sq`; nothing when `sq` is not a locust victim.
    fn second_leg(&mut self, e: &mut Engine, sq: Square) {
        let Some(from) = self.lifted else { return };
        let mut g = e.game();
        let geo = g.pos.geometry();
        let second = g.pos.second_leg_targets(from, sq);
        drop(g);
        if second.is_empty() {
            self.victim = None;
            return;
        }
        self.victim = Some(sq);
        let mut colours = vec![None; geo.squares()];
        for t in second {
            colours[t.square.index()] = Some(if t.kinds & kind::CAPTURE != 0 { 'R' } else { 'Y' });
        }
        e.out.line(&format!("highlight {}", colour_fen(&geo, &colours)));
    }
}

/// XBoard 4.9 has 66 piece types per colour ("slots", each with its own
/// image); a `setup` command's piece-to-char table gives the letter of each
/// slot, in slot order, the King's slot last.
const SLOTS: usize = 66;
/// The King's slot.
const KING_SLOT: usize = SLOTS - 1;
/// The Lion's slot, which XBoard's `chu` rules treat as a Chu Shogi Lion.
const LION_SLOT: usize = 21;
/// Under XBoard's `shogi` rules only the slots below the Wazir's (9) may
/// promote; the Pawn's (0) and the Queen's (4, Shogi's Lance) must promote on
/// the last rank, the Knight's (1) on the last two.
const SHOGI_PROMOTING: &[usize] = &[2, 3, 5, 6, 7, 8];
/// The first slot that never promotes under XBoard's `shogi` rules (the Wazir's).
const SHOGI_PLAIN: usize = 9;
/// XBoard pairs slot `i` with the promoted slot `i + 11` unless the table
/// says otherwise (its Shogi table follows this).
const DEFAULT_PARTNER: usize = 11;
/// XBoard's own letters of its first slots (a `fairy` game).
const FAIRY_LETTERS: &str = "PNBRQFEACWMOHIJGDVLSU";
/// XBoard's own letters in its `shogi` table: Lance in the Queen's slot,
/// Silver in the Ferz's, Gold in the Wazir's.
const SHOGI_LETTERS: &str = "PNBRLS...G";
/// XBoard's own `chu` table: the slots of its unpromoted pieces...
const CHU_LETTERS: &[(usize, char)] = &[
    (0, 'P'),
    (2, 'B'),
    (3, 'R'),
    (4, 'Q'),
    (5, 'S'),
    (6, 'E'),
    (7, 'X'),
    (8, 'O'),
    (9, 'G'),
    (13, 'H'),
    (14, 'D'),
    (18, 'L'),
    (19, 'I'),
    (21, 'N'),
    (22, 'V'),
    (36, 'C'),
    (40, 'A'),
    (42, 'F'),
    (43, 'T'),
    (61, 'M'),
];
/// ... and of its promoted ones, by the letter of the piece they promote from.
const CHU_PROMOTED: &[(usize, char)] = &[
    (17, 'D'),
    (20, 'H'),
    (31, 'T'),
    (34, 'L'),
    (41, 'A'),
    (46, 'F'),
    (47, 'G'),
    (48, 'M'),
    (50, 'E'),
    (51, 'X'),
    (52, 'O'),
    (53, 'I'),
    (55, 'P'),
    (57, 'B'),
    (58, 'R'),
    (62, 'S'),
    (63, 'C'),
    (64, 'V'),
];

/// The XBoard variant whose rules an engine-defined variant inherits (the
/// `_PARENT` of `setup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parent {
    /// No drops, chess-style promotions (or none).
    Fairy,
    /// Drops, chess-style promotions.
    Crazyhouse,
    /// Drops and Shogi promotions (`+`): XBoard's zone is the far third of
    /// the board (three ranks on eight), captured pieces go to the hand
    /// unpromoted.
    Shogi,
    /// Shogi promotions without drops, or with more promoting types than
    /// XBoard's `shogi` slots hold: XBoard's zone is the far third, any piece
    /// with a promoted partner may promote.
    Chu,
}

impl Parent {
    fn name(self) -> &'static str {
        match self {
            Parent::Fairy => "fairy",
            Parent::Crazyhouse => "crazyhouse",
            Parent::Shogi => "shogi",
            Parent::Chu => "chu",
        }
    }

    /// XBoard's own letter for an unpromoted piece in `slot` under this parent.
    fn letter(self, slot: usize) -> Option<char> {
        let from = |s: &str| s.chars().nth(slot).filter(|&c| c != '.');
        match self {
            Parent::Fairy | Parent::Crazyhouse => from(FAIRY_LETTERS),
            Parent::Shogi => from(SHOGI_LETTERS),
            Parent::Chu => CHU_LETTERS.iter().find(|&&(s, _)| s == slot).map(|&(_, c)| c),
        }
    }
}

/// What a slot of the piece-to-char table holds: a piece id, its letter
/// uppercase and its dress mark (`'`, `!`; 0 for none), which XBoard 4.9
/// reads as a suffix of the letter (`L'`, `^L!`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// An unpromoted piece.
    Piece(char, u8),
    /// The promoted form of that piece (`+X` in FENs).
    Promoted(char, u8),
}

/// The `setup` and `piece` commands that make XBoard show a variant it does
/// not know (nothing for the variants it knows, such as `shogi` or `chu`,
/// whose rules and board XBoard has itself; it would ignore a `setup` there).
///
/// Everything is derived from the variant's definition: the board size; the
/// holdings (one per unpromoted type, drop variants only); the parent, whose
/// rules XBoard applies (see [`Parent`]); a piece-to-char table that puts
/// each piece type in one of XBoard's slots (its own letter's slot under the
/// parent where it is free; a dressed id keeps its mark, `L'`, `^L!`) and each promoted type (`+X`) in a slot marked
/// `^X`, XBoard's promoted partner of X; the start position; and one
/// `piece ID& XBETZA` line per type (`piece +X& ...` for a promoted one), so
/// that XBoard's move generator moves each piece as the engine does.
pub fn setup_lines(v: &chimera::variant::Variant) -> Vec<String> {
    let xb = xboard_name(v.name());
    if XBOARD_KNOWN.contains(&xb.as_str()) {
        return Vec::new();
    }
    let pieces = &v.def.pieces;
    let drops = v.def.rules.drops.is_some();
    // each '+' type with the type that promotes to it
    let promoted: Vec<(usize, usize)> = (0..pieces.len())
        .filter(|&t| pieces[t].promoted && !pieces[t].tilde)
        .filter_map(|t| {
            let base = pieces.iter().position(|p| {
                !p.promoted
                    && p.promotion.as_ref().is_some_and(|pr| {
                        pr.choices.contains(&t) || pr.choices_black.as_ref().is_some_and(|c| c.contains(&t))
                    })
            });
            base.map(|b| (t, b))
        })
        .collect();
    let mut parent = match (promoted.is_empty(), drops) {
        (true, false) => Parent::Fairy,
        (true, true) => Parent::Crazyhouse,
        (false, true) => Parent::Shogi,
        (false, false) => Parent::Chu,
    };
    let mut table = assign_slots(v, parent, &promoted);
    if table.is_none() && parent == Parent::Shogi {
        parent = Parent::Chu;
        table = assign_slots(v, parent, &promoted);
    }
    let Some(table) = table else {
        return vec![format!("tellusererror {}: more piece types than XBoard's {} slots", v.name(), SLOTS)];
    };
    // the table up to the last slot used, then the King's; at least 5 slots
    // before it (XBoard wants 12 letters or more)
    let last = (0..KING_SLOT).rev().find(|&i| table[i].is_some()).map_or(0, |i| i + 1).max(5);
    let mut white = String::new();
    for s in table[..last].iter().chain(std::iter::once(&table[KING_SLOT])) {
        match s {
            None => white.push('.'),
            Some(Slot::Piece(c, d)) => white += &chimera::variant::token_text(*c, 0, *d),
            Some(Slot::Promoted(c, d)) => {
                white.push('^');
                white += &chimera::variant::token_text(*c, 0, *d);
            }
        }
    }
    let holdings =
        if drops { table[..KING_SLOT].iter().filter(|s| matches!(s, Some(Slot::Piece(..)))).count() } else { 0 };
    let geo = v.geometry();
    let mut lines = vec![format!(
        "setup ({white}{}) {}x{}+{}_{} {}",
        white.to_ascii_lowercase(),
        geo.width,
        geo.height,
        holdings,
        parent.name(),
        v.def.start_fen
    )];
    for (i, p) in pieces.iter().enumerate().filter(|(_, p)| !p.tilde && p.letter.is_ascii_alphabetic()) {
        let plus = if p.promoted { "+" } else { "" };
        if p.promoted && !promoted.iter().any(|&(t, _)| t == i) {
            continue; // a promoted type nothing promotes to has no slot
        }
        lines.push(format!(
            "piece {plus}{}& {}",
            chimera::variant::token_text(p.letter.to_ascii_uppercase(), 0, p.dress),
            p.betza.text
        ));
    }
    lines
}

/// Puts every piece type of `v` in a slot under `parent`'s rules (see
/// [`setup_lines`]); `None` when some type finds no slot it may have.
fn assign_slots(
    v: &chimera::variant::Variant,
    parent: Parent,
    promoted: &[(usize, usize)],
) -> Option<Vec<Option<Slot>>> {
    use chimera::compile::code_of;
    let pieces = &v.def.pieces;
    let geo = v.geometry();
    let mut table: Vec<Option<Slot>> = vec![None; SLOTS];
    let mut slot_of: Vec<Option<usize>> = vec![None; pieces.len()];
    let promotes = |t: usize| promoted.iter().any(|&(_, b)| b == t);
    // White's unpromoted piece `t` has no move from rank `r` (counted from
    // its far side: 0 is the last rank) on the middle file
    let stuck = |t: usize, r: u8| -> bool {
        let Some(rank) = (geo.height as i32 - 1).checked_sub(r as i32) else { return false };
        let Some(sq) = geo.square(geo.width as i32 / 2, rank) else { return false };
        let code = code_of(t, Color::White).index();
        v.tables.promo.get(code).and_then(|p| p.as_ref()).is_some_and(|p| p.stuck.get(sq.index()) == Some(&true))
    };
    let no_doubled = |t: usize| v.def.rules.drops.as_ref().is_some_and(|d| d.no_doubled.contains(&t));
    let lion = |t: usize| v.lion.get(code_of(t, Color::White).index()) == Some(&true);
    let drops = v.def.rules.drops.is_some();
    let mut king_taken = false;
    // a wall (`*`) is XBoard's own dark square, not a piece
    let unpromoted: Vec<usize> = (0..pieces.len())
        .filter(|&t| !pieces[t].promoted && !pieces[t].tilde && pieces[t].letter.is_ascii_alphabetic())
        .collect();
    // the types with the fewest possible slots choose first
    let mut order: Vec<(usize, Vec<usize>)> = Vec::new();
    for &t in &unpromoted {
        if pieces[t].royal && !king_taken {
            king_taken = true;
            table[KING_SLOT] = Some(Slot::Piece(pieces[t].letter.to_ascii_uppercase(), pieces[t].dress));
            slot_of[t] = Some(KING_SLOT);
            continue;
        }
        let allowed: Vec<usize> = match parent {
            Parent::Shogi if promotes(t) => {
                if stuck(t, 1) {
                    vec![1]
                } else if stuck(t, 0) {
                    if no_doubled(t) {
                        vec![0]
                    } else {
                        vec![4, 0]
                    }
                } else {
                    SHOGI_PROMOTING.to_vec()
                }
            }
            Parent::Shogi => (SHOGI_PLAIN..KING_SLOT).collect(),
            Parent::Chu if lion(t) => {
                std::iter::once(LION_SLOT).chain((0..KING_SLOT).filter(|&s| s != LION_SLOT)).collect()
            }
            // with drops, not the Pawn's slot: XBoard would refuse its drops on the first rank
            Parent::Chu => (0..KING_SLOT).filter(|&s| s != LION_SLOT && !(drops && s == 0)).collect(),
            Parent::Fairy | Parent::Crazyhouse => (0..KING_SLOT).collect(),
        };
        order.push((t, allowed));
    }
    order.sort_by_key(|(_, a)| a.len());
    // first every type whose letter has a slot of its own it may have, then
    // the others in the first free slot they may have
    for own_letters in [true, false] {
        for (t, allowed) in &order {
            let (letter, dress) = (pieces[*t].letter.to_ascii_uppercase(), pieces[*t].dress);
            if slot_of[*t].is_some() {
                continue;
            }
            let mut free = allowed.iter().copied().filter(|&s| table[s].is_none());
            let s = if own_letters {
                // a dressed id (`L'`) is not the piece of its letter's slot
                match free.find(|&s| dress == 0 && parent.letter(s) == Some(letter)) {
                    Some(s) => s,
                    None => continue,
                }
            } else {
                free.next()?
            };
            table[s] = Some(Slot::Piece(letter, dress));
            slot_of[*t] = Some(s);
        }
    }
    for &(t, b) in promoted {
        let (letter, dress) = (pieces[b].letter.to_ascii_uppercase(), pieces[b].dress);
        let base = slot_of[b]?;
        let own = match parent {
            Parent::Chu if dress == 0 => CHU_PROMOTED.iter().find(|&&(_, c)| c == letter).map(|&(s, _)| s),
            Parent::Chu => None,
            _ => Some(base + DEFAULT_PARTNER),
        };
        let usable = |s: usize| s < KING_SLOT && s != LION_SLOT && table[s].is_none();
        // a variant without Lions (in the Lion-trading sense) may fill the
        // Lion's slot last, so that 65 types and the King fit (Tenjiku
        // Shogi); XBoard applies Chu Shogi's Lion-capture rules to the piece
        // there, which the variant does not have
        let lion_free = parent == Parent::Chu && !v.lion.iter().any(|&l| l) && table[LION_SLOT].is_none();
        let s = own
            .filter(|&s| usable(s))
            .or_else(|| (SHOGI_PLAIN..KING_SLOT).find(|&s| usable(s)))
            .or_else(|| lion_free.then_some(LION_SLOT))?;
        table[s] = Some(Slot::Promoted(letter, dress));
        slot_of[t] = Some(s);
    }
    Some(table)
}

/// A game from a FEN as XBoard writes it. Under some parents XBoard writes
/// a castling field but no en-passant field (`... w - 0 1` in a `chu`
/// game), or neither where the variant's own FEN has a castling field; when
/// the FEN as given is refused, these two readings are tried, and the first
/// error is the one reported.
fn xboard_fen(
    v: std::sync::Arc<chimera::variant::Variant>,
    ev: std::sync::Arc<crate::eval::EvalTables>,
    fen: &str,
) -> Result<Game, String> {
    let first = match Game::from_fen(v.clone(), ev.clone(), fen) {
        Ok(g) => return Ok(g),
        Err(m) => m,
    };
    let f: Vec<&str> = fen.split_whitespace().collect();
    let numeric = |s: &&str| s.bytes().all(|b| b.is_ascii_digit());
    if f.len() >= 4 && f[2] == "-" && numeric(&f[3]) {
        // a castling field, no en-passant field: add one
        let with_ep = [&f[..3], &["-"], &f[3..]].concat().join(" ");
        if let Ok(g) = Game::from_fen(v.clone(), ev.clone(), &with_ep) {
            return Ok(g);
        }
        // or no castling field either, as the variant writes its FENs
        let without = [&f[..2], &f[3..]].concat().join(" ");
        if let Ok(g) = Game::from_fen(v, ev, &without) {
            return Ok(g);
        }
    }
    Err(first)
}

/// A board of colour letters written like a FEN's board field.
fn colour_fen(geo: &chimera::square::Geometry, colours: &[Option<char>]) -> String {
    let mut s = String::new();
    for rank in (0..geo.height as i32).rev() {
        let mut empty = 0;
        for file in 0..geo.width as i32 {
            let sq = geo.square(file, rank).expect("on the board");
            match colours[sq.index()] {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// The result command for a finished game.
pub fn result_line(end: GameEnd) -> String {
    match end {
        GameEnd::WhiteWins(why) => format!("1-0 {{White wins: {why}}}"),
        GameEnd::BlackWins(why) => format!("0-1 {{Black wins: {why}}}"),
        GameEnd::Draw(why) => format!("1/2-1/2 {{Draw: {why}}}"),
    }
}

/// A thinking-output line: depth, score, time in centiseconds, nodes, PV.
fn thinking_line(r: &Report, pos: &chimera::position::Position) -> String {
    let score = match Score::of(r.score) {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100000 + n,
        Score::Mate(n) => -100000 + n,
    };
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &m in &r.pv {
        pv.push(notation::move_out(&p, m, Style::Xboard));
        p.make(m);
    }
    format!("{} {} {} {} {}", r.depth, score, r.elapsed.as_millis() / 10, r.nodes, pv.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tenjiku Shogi (wide build only) has 65 types besides the King: every
    /// slot of XBoard's table, the Lion's too, holds one, and every type gets
    /// its `piece` line.
    #[test]
    fn tenjiku_fills_every_slot() {
        if !chimera::width::WIDE {
            return;
        }
        let v = chimera::builtin::variant("tenjikushogi").unwrap();
        let lines = setup_lines(&v);
        let setup = lines[0].strip_prefix("setup (").unwrap_or_else(|| panic!("{}", lines[0]));
        let (table, rest) = setup.split_once(") ").unwrap();
        assert!(rest.starts_with("16x16+0_chu "), "{rest}");
        // White's half: slots are '.', or a letter with an optional '^'
        // before and dress mark after
        let white = &table[..table.len() / 2];
        let mut slots = 0;
        let mut chars = white.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '^' {
                continue;
            }
            assert!(c.is_ascii_uppercase(), "an empty slot in {white}");
            if chars.peek().is_some_and(|&d| d == '\'' || d == '!') {
                chars.next();
            }
            slots += 1;
        }
        assert_eq!(slots, SLOTS, "{white}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("piece ")).count(), v.def.pieces.len(), "one per type");
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(xboard_name("chess"), "normal");
        assert_eq!(engine_name("normal"), "chess");
        assert_eq!(engine_name("lion"), "mightylion");
        assert_eq!(engine_name("10x8_capablanca"), "capablanca");
        assert_eq!(engine_name("janggi"), "janggi");
        assert_eq!(engine_name("chu"), "chushogi");
        assert_eq!(xboard_name("chushogi"), "chu");
        for (ours, hachu) in [
            ("shoshogi", "sho"),
            ("daishogi", "dai"),
            ("cashewshogi", "cashew-shogi"),
            ("macadamiashogi", "macadamia-shogi"),
        ] {
            assert_eq!((xboard_name(ours), engine_name(hachu)), (hachu.to_string(), ours.to_string()));
            assert!(chimera::builtin::variant(ours).is_ok());
        }
        // Tenjiku Shogi's 16x16 board needs the wide build: the narrow one
        // refuses the board by its size
        assert_eq!((xboard_name("tenjikushogi"), engine_name("tenjiku")), ("tenjiku".into(), "tenjikushogi".into()));
        let tenjiku = chimera::builtin::variant("tenjikushogi");
        if chimera::width::WIDE {
            assert!(tenjiku.is_ok());
        } else {
            assert!(tenjiku.is_err_and(|e| e.is_too_large()));
        }
    }

    #[test]
    fn colour_fen_runs() {
        let geo = chimera::square::Geometry::new(8, 8).unwrap();
        let mut c = vec![None; 64];
        c[geo.parse_square("e3").unwrap().index()] = Some('Y');
        c[geo.parse_square("e4").unwrap().index()] = Some('Y');
        c[geo.parse_square("f3").unwrap().index()] = Some('R');
        assert_eq!(colour_fen(&geo, &c), "8/8/8/8/4Y3/4YR2/8/8");
    }
}
