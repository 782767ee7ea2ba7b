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
use crate::protocol::parse_count;
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

/// XBoard's piece slots for a `fairy` parent, in its order.
const XBOARD_SLOTS: &str = "PNBRQFEACWMOHIJGDVLSUK";

/// The XBoard name of a variant.
pub fn xboard_name(name: &str) -> String {
    match name {
        "chess" => "normal".into(),
        "mightylion" => "lion".into(),
        "chushogi" => "chu".into(),
        "washogi" => "wa-shogi".into(),
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
                match Game::from_fen(v, ev, &rest) {
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

    /// For a variant XBoard does not know: `setup` and `piece` commands.
    fn announce_variant(&self, e: &Engine) {
        let g = e.game();
        let v = g.variant.clone();
        drop(g);
        let xb = xboard_name(v.name());
        if XBOARD_KNOWN.contains(&xb.as_str()) {
            return;
        }
        let geo = v.geometry();
        let pieces = &v.def.pieces;
        // map each piece letter to an XBoard slot: its own letter if XBoard has
        // a slot with that letter, else a free slot; the royal piece gets K
        let mut slots: Vec<Option<char>> = vec![None; XBOARD_SLOTS.len()];
        let king_slot = XBOARD_SLOTS.len() - 1;
        let mut unplaced = Vec::new();
        for p in pieces.iter().filter(|p| !p.promoted && !p.tilde) {
            let l = p.letter.to_ascii_uppercase();
            let own = XBOARD_SLOTS.find(l);
            if p.royal && slots[king_slot].is_none() {
                slots[king_slot] = Some(l);
            } else if let Some(i) = own.filter(|&i| slots[i].is_none() && i != king_slot) {
                slots[i] = Some(l);
            } else {
                unplaced.push(l);
            }
        }
        for l in unplaced {
            if let Some(i) = (0..king_slot).find(|&i| slots[i].is_none()) {
                slots[i] = Some(l);
            }
        }
        let white: String = slots.iter().map(|s| s.unwrap_or('.')).collect();
        let table = format!("{white}{}", white.to_ascii_lowercase());
        let holdings = if v.def.rules.drops.is_some() {
            pieces.iter().filter(|p| !p.promoted && !p.tilde && !p.royal).count()
        } else {
            0
        };
        let parent = if v.def.rules.drops.is_some() { "crazyhouse" } else { "fairy" };
        e.out
            .line(&format!("setup ({table}) {}x{}+{}_{} {}", geo.width, geo.height, holdings, parent, v.def.start_fen));
        for p in pieces.iter().filter(|p| !p.promoted && !p.tilde) {
            e.out.line(&format!("piece {}& {}", p.letter.to_ascii_uppercase(), p.betza.text));
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
            let expected = timeman::game_moves_left(&g);
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
            colours[t.square as usize] = Some(c);
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
            colours[t.square as usize] = Some(if t.kinds & kind::CAPTURE != 0 { 'R' } else { 'Y' });
        }
        e.out.line(&format!("highlight {}", colour_fen(&geo, &colours)));
    }
}

/// A board of colour letters written like a FEN's board field.
fn colour_fen(geo: &chimera::square::Geometry, colours: &[Option<char>]) -> String {
    let mut s = String::new();
    for rank in (0..geo.height as i32).rev() {
        let mut empty = 0;
        for file in 0..geo.width as i32 {
            let sq = geo.square(file, rank).expect("on the board");
            match colours[sq as usize] {
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

    #[test]
    fn names_round_trip() {
        assert_eq!(xboard_name("chess"), "normal");
        assert_eq!(engine_name("normal"), "chess");
        assert_eq!(engine_name("lion"), "mightylion");
        assert_eq!(engine_name("10x8_capablanca"), "capablanca");
        assert_eq!(engine_name("janggi"), "janggi");
        assert_eq!(engine_name("chu"), "chushogi");
        assert_eq!(xboard_name("chushogi"), "chu");
    }

    #[test]
    fn colour_fen_runs() {
        let geo = chimera::square::Geometry::new(8, 8).unwrap();
        let mut c = vec![None; 64];
        c[geo.parse_square("e3").unwrap() as usize] = Some('Y');
        c[geo.parse_square("e4").unwrap() as usize] = Some('Y');
        c[geo.parse_square("f3").unwrap() as usize] = Some('R');
        assert_eq!(colour_fen(&geo, &c), "8/8/8/8/4Y3/4YR2/8/8");
    }
}
