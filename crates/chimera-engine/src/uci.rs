//! The UCI family: UCI (with Fairy-Stockfish's `UCI_Variant` and
//! `VariantPath`), USI for shogi and UCCI for Xiangqi. They share the command
//! set (`position`, `go`, `stop`, `isready`, `setoption`) and differ in the
//! handshake, the notation, the clock parameters and the output forms.

use crate::game::{Engine, Game};
use crate::notation::{self, Style};
use crate::numbers::{parse_count, parse_millis};
use crate::search::{Limits, Report, Score};
use crate::timeman::{self, Budget, Clock};
use chimera::check::CheckInfo;
use chimera::moves::{Move, MoveList};
use chimera::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// Which member of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI.
    Uci,
    /// USI (Shogi).
    Usi,
    /// UCCI (Xiangqi).
    Ucci,
}

impl Dialect {
    fn style(self) -> Style {
        match self {
            Dialect::Uci => Style::Uci,
            Dialect::Usi => Style::Usi,
            Dialect::Ucci => Style::Ucci,
        }
    }
}

/// A session in one dialect.
pub struct UciSession {
    dialect: Dialect,
    /// UCCI: clock values are milliseconds (else seconds).
    millis: bool,
}

/// What the caller does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Quit.
    Quit,
}

/// The words of a `go` command that end a `searchmoves` list.
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "time",
    "increment",
    "opptime",
    "oppincrement",
    "byoyomi",
    "draw",
    "perft",
];

/// The name and value of a `setoption` line's arguments: UCI and USI write
/// `setoption name N [value V]`, UCCI `setoption N [V]`.
pub(crate) fn option_name_value(args: &[&str]) -> (String, String) {
    if args.first() == Some(&"name") {
        let vpos = args.iter().position(|&w| w == "value");
        let name = args[1..vpos.unwrap_or(args.len())].join(" ");
        let value = vpos.map(|p| args[p + 1..].join(" ")).unwrap_or_default();
        (name, value)
    } else {
        (
            args.first().map(|s| s.to_string()).unwrap_or_default(),
            args.get(1..).map(|a| a.join(" ")).unwrap_or_default(),
        )
    }
}

impl UciSession {
    /// A session; switches the engine to the dialect's default variant.
    pub fn new(dialect: Dialect, engine: &mut Engine) -> UciSession {
        let default = match dialect {
            Dialect::Uci => "chess",
            Dialect::Usi => "shogi",
            Dialect::Ucci => "xiangqi",
        };
        if engine.variant_name() != default {
            // built in, cannot fail
            let _ = engine.set_variant(default);
        }
        UciSession { dialect, millis: false }
    }

    fn error(&self, e: &Engine, msg: &str) {
        match self.dialect {
            Dialect::Ucci => e.out.line(&format!("info error: {msg}")),
            _ => e.out.line(&format!("info string error: {msg}")),
        }
    }

    /// Handles one input line.
    pub fn handle(&mut self, e: &mut Engine, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return Flow::Continue };
        let args = &words[1..];
        match cmd {
            "uci" | "usi" | "ucci" => self.handshake(e),
            "isready" => e.out.line("readyok"),
            "ucinewgame" | "usinewgame" => {
                e.clear_hash();
                let name = e.variant_name();
                let _ = e.set_variant(&name);
            }
            "setoption" => self.setoption(e, args),
            "position" => self.position(e, args),
            "go" => self.go(e, args),
            "stop" => e.stop(),
            "ponderhit" => e.ponderhit(),
            "gameover" => e.stop(),
            "banmoves" => self.banmoves(e, args),
            "quit" => {
                e.stop();
                if self.dialect == Dialect::Ucci {
                    e.out.line("bye");
                }
                return Flow::Quit;
            }
            "d" => {
                let g = e.game();
                let text = g.pos.board_text();
                let fen = g.pos.fen();
                drop(g);
                for l in text.lines() {
                    e.out.line(l);
                }
                e.out.line(&format!("Fen: {fen}"));
            }
            "eval" => {
                let g = e.game();
                let text = g.ev.explain(&g.pos);
                drop(g);
                for l in text.lines() {
                    e.out.line(l);
                }
            }
            _ => self.error(e, &format!("unknown command '{cmd}'")),
        }
        Flow::Continue
    }

    fn handshake(&mut self, e: &mut Engine) {
        let version = env!("CARGO_PKG_VERSION");
        e.out.line(&format!("id name Chimera {version}"));
        e.out.line("id author the Chimera developers");
        match self.dialect {
            Dialect::Uci | Dialect::Usi => {
                let names = e.registry.names();
                let current = e.variant_name();
                let opt = if self.dialect == Dialect::Usi { "USI_Hash" } else { "Hash" };
                e.out.line("option name Threads type spin default 1 min 1 max 256");
                e.out.line(&format!("option name {opt} type spin default {} min 1 max 65536", e.hash_mb));
                e.out.line("option name Clear Hash type button");
                e.out.line(&format!("option name Move Overhead type spin default {} min 0 max 5000", e.overhead_ms));
                e.out.line("option name MultiPV type spin default 1 min 1 max 256");
                let ponder = if self.dialect == Dialect::Usi { "USI_Ponder" } else { "Ponder" };
                e.out.line(&format!("option name {ponder} type check default false"));
                let vars: Vec<String> = names.iter().map(|n| format!("var {n}")).collect();
                e.out.line(&format!("option name UCI_Variant type combo default {current} {}", vars.join(" ")));
                e.out.line("option name VariantPath type string default <empty>");
                if self.dialect == Dialect::Uci {
                    e.out.line("option name UCI_Chess960 type check default false");
                }
                e.out.line(if self.dialect == Dialect::Usi { "usiok" } else { "uciok" });
            }
            Dialect::Ucci => {
                e.out.line("option usemillisec type check default false");
                e.out.line(&format!("option hashsize type spin min 1 max 65536 default {}", e.hash_mb));
                e.out.line("option threads type spin min 1 max 256 default 1");
                e.out.line("ucciok");
            }
        }
    }

    fn setoption(&mut self, e: &mut Engine, args: &[&str]) {
        let (name, value) = option_name_value(args);
        // a spin value out of range is clamped to it, even past u64
        let number = |v: &str| -> Result<usize, String> {
            parse_count(v.trim())
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                .ok_or_else(|| format!("option '{name}' needs a number, not '{v}'"))
        };
        let lname = name.to_ascii_lowercase();
        let result: Result<(), String> = match lname.as_str() {
            "threads" => number(&value).map(|n| e.threads = n.clamp(1, 256)),
            "hash" | "usi_hash" | "hashsize" => {
                number(&value).and_then(|n| e.set_hash(n).map_err(|m| format!("{name}: {m}")))
            }
            "clear hash" => {
                e.clear_hash();
                Ok(())
            }
            "move overhead" => number(&value).map(|n| e.overhead_ms = n.min(5000) as u64),
            "uci_variant" | "usi_variant" => {
                let v = value.trim();
                e.set_variant(v)
            }
            "variantpath" => {
                let path = value.trim();
                if path.is_empty() || path == "<empty>" {
                    Ok(())
                } else {
                    match e.registry.load_file(path) {
                        Ok(names) => {
                            e.out.line(&format!("info string loaded variants: {}", names.join(", ")));
                            Ok(())
                        }
                        Err(m) => Err(m),
                    }
                }
            }
            "usemillisec" => {
                self.millis = value.trim() == "true";
                Ok(())
            }
            "multipv" => number(&value).map(|n| e.multipv = n.clamp(1, 256)),
            "uci_chess960" => match value.trim().to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => {
                    let on = v == "true";
                    if on != e.chess960 {
                        e.chess960 = on;
                        let name = e.variant_name();
                        e.set_variant(&name)
                    } else {
                        Ok(())
                    }
                }
                v => Err(format!("option 'UCI_Chess960' must be true or false, not '{v}'")),
            },
            "usi_ponder" | "ponder" | "batch" | "debug" => Ok(()),
            _ => Err(format!("unknown option '{name}'")),
        };
        if let Err(m) = result {
            self.error(e, &m);
        }
    }

    fn position(&mut self, e: &mut Engine, args: &[&str]) {
        let mpos = args.iter().position(|&w| w == "moves");
        let (setup, moves) = match mpos {
            Some(p) => (&args[..p], &args[p + 1..]),
            None => (args, &args[args.len()..]),
        };
        let (v, ev) = {
            let g = e.game();
            (g.variant.clone(), g.ev.clone())
        };
        let game = match setup.first().copied() {
            Some("startpos") if setup.len() == 1 => Ok(Game::new(v, ev)),
            Some("fen") | Some("sfen") if setup.len() > 1 => {
                let text = setup[1..].join(" ");
                let fen = match (self.dialect, setup[0]) {
                    (_, "sfen") => notation::sfen_to_fen(&text),
                    (Dialect::Ucci, _) => Ok(notation::ucci_fen(&text)),
                    _ => Ok(text),
                };
                fen.and_then(|f| Game::from_fen(v, ev, &f))
            }
            _ => Err("position: expected 'startpos' or 'fen FEN' (or 'sfen SFEN'), then optionally 'moves ...'".into()),
        };
        let mut game = match game {
            Ok(g) => g,
            Err(m) => return self.error(e, &m),
        };
        for (i, text) in moves.iter().enumerate() {
            match notation::move_in(&mut game.pos, text, self.dialect.style()) {
                Ok(m) => game.play(m),
                Err(m) => {
                    return self.error(e, &format!("position: move {} '{text}': {m}; position not changed", i + 1));
                }
            }
        }
        e.set_game(game);
        e.excluded.clear();
    }

    /// UCCI `banmoves m1 m2 ...`: the next searches from this position never play these.
    fn banmoves(&mut self, e: &mut Engine, args: &[&str]) {
        let mut banned = Vec::with_capacity(args.len());
        {
            let mut g = e.game();
            for text in args {
                match notation::move_in(&mut g.pos, text, self.dialect.style()) {
                    Ok(m) => banned.push(m),
                    Err(m) => {
                        drop(g);
                        return self.error(e, &format!("banmoves: '{text}': {m}; nothing banned"));
                    }
                }
            }
        }
        e.excluded = banned;
    }

    /// `go`: a search, or `go perft N`. A bad number refuses the whole
    /// command: an error line, and at once a `bestmove` with the first legal
    /// move (the GUI gets its answer, as after any search), or in a position
    /// without one the dialect's no-move answer.
    fn go(&mut self, e: &mut Engine, args: &[&str]) {
        // the clock runs from the arrival of the command
        let start = Instant::now();
        match self.parse_go(e, args) {
            Ok(Go::Perft(depth)) => self.perft(e, depth),
            Ok(Go::Search { mut limits, wait, ponder }) => {
                limits.start = Some(start);
                self.search(e, limits, wait, ponder);
            }
            Err(m) => {
                self.error(e, &format!("go: {m}; the command is refused"));
                e.stop();
                let mut g = e.game();
                let first = g.pos.legal_moves().into_iter().find(|m| !e.excluded.contains(m));
                let line = bestmove_line(self.dialect, &g.pos, first, None);
                drop(g);
                e.out.line(&line);
            }
        }
    }

    /// Reads the parameters of `go`.
    fn parse_go(&mut self, e: &mut Engine, args: &[&str]) -> Result<Go, String> {
        let mut limits = Limits::default();
        let mut times = [None::<u64>; 2];
        let mut incs = [0u64; 2];
        let mut movestogo = None;
        let mut movetime = None;
        let mut byoyomi = 0u64;
        let mut infinite = false;
        let mut ponder = false;
        let stm = e.game().pos.side_to_move();
        // USI names the first player (our White) "b", like its "black" sente
        let (w, b) = if self.dialect == Dialect::Usi { (1, 0) } else { (0, 1) };
        let (me, them) = (stm.index(), stm.flip().index());
        // UCCI's clock is in seconds unless `usemillisec` is on
        let seconds = self.dialect == Dialect::Ucci && !self.millis;
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            if key == "searchmoves" {
                // moves up to the next keyword
                i += 1;
                let mut g = e.game();
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    match notation::move_in(&mut g.pos, args[i], self.dialect.style()) {
                        Ok(m) => limits.root_moves.push(m),
                        Err(m) => {
                            drop(g);
                            self.error(e, &format!("go searchmoves: '{}': {m}; ignored", args[i]));
                            g = e.game();
                        }
                    }
                    i += 1;
                }
                continue;
            }
            match key {
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "draw" => {}
                _ if !GO_KEYWORDS.contains(&key) => {
                    self.error(e, &format!("go: unknown parameter '{key}' ignored"));
                    // with its value, if one follows
                    if args.get(i + 1).is_some_and(|v| parse_millis(v).is_some()) {
                        i += 1;
                    }
                }
                _ => {
                    let Some(&text) = args.get(i + 1) else {
                        return Err(format!("'{key}' needs a value"));
                    };
                    let is_time = matches!(
                        key,
                        "wtime"
                            | "btime"
                            | "winc"
                            | "binc"
                            | "movetime"
                            | "byoyomi"
                            | "time"
                            | "increment"
                            | "opptime"
                            | "oppincrement"
                    );
                    let value = if !is_time {
                        parse_count(text).ok_or_else(|| format!("'{key}' needs a whole number, not '{text}'"))?
                    } else if seconds && matches!(key, "time" | "increment" | "opptime" | "oppincrement") {
                        parse_seconds(text).ok_or_else(|| format!("'{key}' needs a time in seconds, not '{text}'"))?
                    } else {
                        parse_millis(text)
                            .ok_or_else(|| format!("'{key}' needs a time in milliseconds, not '{text}'"))?
                    };
                    i += 1;
                    match key {
                        "wtime" => times[w] = Some(value),
                        "btime" => times[b] = Some(value),
                        "winc" => incs[w] = value,
                        "binc" => incs[b] = value,
                        "time" => times[me] = Some(value),
                        "increment" => incs[me] = value,
                        "opptime" => times[them] = Some(value),
                        "oppincrement" => incs[them] = value,
                        "byoyomi" => byoyomi = value,
                        "movetime" => movetime = Some(value),
                        "movestogo" => movestogo = Some(value.clamp(1, u32::MAX as u64) as u32),
                        "depth" => limits.depth = Some(value.clamp(1, 98) as i32),
                        "nodes" => limits.nodes = Some(value.max(1)),
                        "mate" => limits.depth = Some(value.saturating_mul(2).clamp(1, 98) as i32),
                        "perft" => {
                            return match value {
                                1..=12 => Ok(Go::Perft(value as usize)),
                                _ => Err("perft depth must be from 1 to 12".into()),
                            };
                        }
                        _ => unreachable!("every keyword of GO_KEYWORDS that takes a value is handled"),
                    }
                }
            }
            i += 1;
        }
        let overhead = Duration::from_millis(e.overhead_ms);
        if let Some(mt) = movetime {
            limits = limits.with_budget(Budget::fixed(Duration::from_millis(mt), overhead));
        } else if times[me].is_some() || byoyomi > 0 {
            let clock = Clock {
                time: Duration::from_millis(times[me].unwrap_or(0)),
                inc: Duration::from_millis(incs[me]),
                movestogo,
                byoyomi: Duration::from_millis(byoyomi),
            };
            let expected = e.game().moves_left();
            limits = limits.with_budget(timeman::budget(&clock, overhead, expected));
        }
        limits.multipv = e.multipv;
        limits.excluded = e.excluded.clone();
        let unlimited = limits.depth.is_none() && limits.nodes.is_none() && limits.soft.is_none();
        Ok(Go::Search { limits, wait: infinite || unlimited, ponder })
    }

    /// Starts a search; its result is written as `bestmove`.
    fn search(&mut self, e: &mut Engine, limits: Limits, wait: bool, ponder: bool) {
        let dialect = self.dialect;
        let style = dialect.style();
        let out = e.out.clone();
        let out2 = e.out.clone();
        e.start_search(
            limits,
            wait,
            ponder,
            Box::new(move |r: &Report, pos| out.line(&info_line(dialect, r, pos, style))),
            Box::new(move |r, g| out2.line(&bestmove_line(dialect, &g.pos, r.best, r.ponder))),
        );
    }

    /// `go perft N`: runs on the search thread, like a search, so that
    /// `isready` is answered and `stop` or `quit` end it. The count of each
    /// root move is written when it is done; a stopped perft gives no total.
    fn perft(&mut self, e: &mut Engine, depth: usize) {
        let pos = e.game().pos.clone();
        let style = self.dialect.style();
        let out = e.out.clone();
        let info = if self.dialect == Dialect::Ucci { "info" } else { "info string" };
        e.spawn_job(false, false, move |sh| {
            let mut pos = pos;
            let mut lists: Vec<(MoveList, MoveList)> = (0..depth).map(|_| (MoveList::new(), MoveList::new())).collect();
            let mut info_buf = CheckInfo::new();
            let roots = pos.legal_moves();
            let mut total = 0u64;
            for (done, &m) in roots.iter().enumerate() {
                let text = notation::move_out(&pos, m, style);
                let undo = pos.make(m);
                let n = perft_count(&mut pos, depth - 1, &mut lists, &mut info_buf, &sh.stop);
                pos.unmake(m, &undo);
                match n {
                    Some(n) => {
                        out.line(&format!("{text}: {n}"));
                        total += n;
                    }
                    None => {
                        return out.line(&format!(
                            "{info} perft stopped: {total} nodes in {done} of {} root moves",
                            roots.len()
                        ));
                    }
                }
            }
            out.line("");
            out.line(&format!("Nodes searched: {total}"));
        });
    }
}

/// What a `go` asks for.
enum Go {
    /// A search.
    Search { limits: Limits, wait: bool, ponder: bool },
    /// `go perft N`.
    Perft(usize),
}

/// A time in seconds (UCCI), possibly with decimals, in milliseconds;
/// saturating like [`parse_millis`].
fn parse_seconds(s: &str) -> Option<u64> {
    match parse_count(s) {
        Some(n) => Some(n.saturating_mul(1000)),
        None => parse_millis(s).and(s.parse::<f64>().ok()).map(|x| (x * 1000.0).round() as u64),
    }
}

/// The leaves `depth` plies below `pos` (the last ply counted, not played,
/// as the core's perft does), or `None` once `stop` is set.
fn perft_count(
    pos: &mut Position,
    depth: usize,
    lists: &mut [(MoveList, MoveList)],
    info: &mut CheckInfo,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let ((pseudo, legal), rest) = lists.split_first_mut().expect("a list pair per ply");
    pos.generate_legal(pseudo, legal, info);
    if depth == 1 {
        return Some(legal.len() as u64);
    }
    let mut n = 0;
    for m in legal.iter() {
        let undo = pos.make(m);
        let below = perft_count(pos, depth - 1, rest, info, stop);
        pos.unmake(m, &undo);
        n += below?;
    }
    Some(n)
}

/// The `bestmove` line (UCI, USI, UCCI) for a move, or for none: UCI's
/// `bestmove (none)`, USI's `bestmove resign`, UCCI's `nobestmove`.
fn bestmove_line(d: Dialect, pos: &Position, best: Option<Move>, ponder: Option<Move>) -> String {
    let style = d.style();
    match best {
        Some(m) => {
            let mut s = format!("bestmove {}", notation::move_out(pos, m, style));
            if let Some(p) = ponder {
                let mut after = pos.clone();
                after.make(m);
                s.push_str(&format!(" ponder {}", notation::move_out(&after, p, style)));
            }
            s
        }
        None => match d {
            Dialect::Uci => "bestmove (none)".to_string(),
            Dialect::Usi => "bestmove resign".to_string(),
            Dialect::Ucci => "nobestmove".to_string(),
        },
    }
}

/// The `info` line of one iteration.
fn info_line(d: Dialect, r: &Report, pos: &chimera::position::Position, style: Style) -> String {
    let mut p = pos.clone();
    let mut pv = Vec::with_capacity(r.pv.len());
    for &m in &r.pv {
        pv.push(notation::move_out(&p, m, style));
        p.make(m);
    }
    let score = match (d, Score::of(r.score)) {
        (Dialect::Ucci, Score::Cp(c)) => format!("score {c}"),
        (Dialect::Ucci, Score::Mate(n)) => format!("score {}", if n > 0 { 30000 - n } else { -30000 - n }),
        (_, Score::Cp(c)) => format!("score cp {c}"),
        (_, Score::Mate(n)) => format!("score mate {n}"),
    };
    let ms = r.elapsed.as_millis();
    match d {
        Dialect::Ucci => format!("info depth {} {} time {} nodes {} pv {}", r.depth, score, ms, r.nodes, pv.join(" ")),
        _ => format!(
            "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} time {} pv {}",
            r.depth,
            r.seldepth,
            r.multipv,
            score,
            r.nodes,
            r.nps(),
            r.hashfull,
            ms,
            pv.join(" ")
        ),
    }
}
