//! The UCI family: UCI (with Fairy-Stockfish's `UCI_Variant` and
//! `VariantPath`), USI for shogi and UCCI for Xiangqi. They share the command
//! set (`position`, `go`, `stop`, `isready`, `setoption`) and differ in the
//! handshake, the notation, the clock parameters and the output forms.

use crate::game::{Engine, Game};
use crate::notation::{self, Style};
use crate::search::{Clock, Limits, Report, Score};
use std::time::Duration;

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
        // UCI/USI: setoption name N [value V]; UCCI: setoption N [V]
        let (name, value) = if args.first() == Some(&"name") {
            let vpos = args.iter().position(|&w| w == "value");
            let name = args[1..vpos.unwrap_or(args.len())].join(" ");
            let value = vpos.map(|p| args[p + 1..].join(" ")).unwrap_or_default();
            (name, value)
        } else {
            (
                args.first().map(|s| s.to_string()).unwrap_or_default(),
                args.get(1..).map(|a| a.join(" ")).unwrap_or_default(),
            )
        };
        let number = |v: &str| -> Result<usize, String> {
            v.trim().parse::<usize>().map_err(|_| format!("option '{name}' needs a number, not '{v}'"))
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

    fn go(&mut self, e: &mut Engine, args: &[&str]) {
        let mut limits = Limits::default();
        let mut times = [None::<u64>; 2];
        let mut incs = [0u64; 2];
        let mut movestogo = None;
        let mut movetime = None;
        let mut byoyomi = 0u64;
        let mut infinite = false;
        let mut ponder = false;
        let stm = e.game().pos.side_to_move();
        let mut i = 0;
        let unit = if self.dialect == Dialect::Ucci && !self.millis { 1000 } else { 1 };
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
            let val = args.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            let takes_value = !matches!(key, "infinite" | "ponder" | "draw");
            if takes_value && val.is_none() {
                self.error(e, &format!("go: '{key}' needs a number"));
                i += 2;
                continue;
            }
            let n = val.unwrap_or(0).max(0) as u64;
            match key {
                // USI names the first player (our White) "b", like its "black" sente
                "wtime" => times[if self.dialect == Dialect::Usi { 1 } else { 0 }] = Some(n),
                "btime" => times[if self.dialect == Dialect::Usi { 0 } else { 1 }] = Some(n),
                "winc" => incs[if self.dialect == Dialect::Usi { 1 } else { 0 }] = n,
                "binc" => incs[if self.dialect == Dialect::Usi { 0 } else { 1 }] = n,
                "time" => times[stm.index()] = Some(n * unit),
                "increment" => incs[stm.index()] = n * unit,
                "opptime" => times[stm.flip().index()] = Some(n * unit),
                "oppincrement" => incs[stm.flip().index()] = n * unit,
                "byoyomi" => byoyomi = n,
                "movestogo" => movestogo = Some(n.max(1) as u32),
                "depth" => limits.depth = Some(n.clamp(1, 98) as i32),
                "nodes" => limits.nodes = Some(n.max(1)),
                "movetime" => movetime = Some(n),
                "mate" => limits.depth = Some((2 * n as i32).clamp(1, 98)),
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "draw" => {}
                "perft" => {
                    self.perft(e, n as usize);
                    return;
                }
                other => self.error(e, &format!("go: unknown parameter '{other}' ignored")),
            }
            i += if takes_value { 2 } else { 1 };
        }
        let overhead = Duration::from_millis(e.overhead_ms);
        if let Some(mt) = movetime {
            let t = Duration::from_millis(mt).saturating_sub(overhead).max(Duration::from_millis(1));
            limits.soft = Some(t);
            limits.hard = Some(t);
        } else if let Some(t) = times[stm.index()] {
            let clock =
                Clock { time: Duration::from_millis(t), inc: Duration::from_millis(incs[stm.index()]), movestogo };
            let (mut soft, mut hard) = clock.budget(overhead);
            if byoyomi > 0 {
                let b = Duration::from_millis(byoyomi);
                soft += b * 7 / 10;
                hard = (hard + b).saturating_sub(overhead).max(soft);
            }
            limits.soft = Some(soft);
            limits.hard = Some(hard);
        } else if byoyomi > 0 {
            let b = Duration::from_millis(byoyomi).saturating_sub(overhead).max(Duration::from_millis(1));
            limits.soft = Some(b * 7 / 10);
            limits.hard = Some(b);
        }
        limits.multipv = e.multipv;
        limits.excluded = e.excluded.clone();
        let unlimited = limits.depth.is_none() && limits.nodes.is_none() && limits.soft.is_none();
        let wait = infinite || unlimited;
        let dialect = self.dialect;
        let style = dialect.style();
        let out = e.out.clone();
        let out2 = e.out.clone();
        e.start_search(
            limits,
            wait,
            ponder,
            Box::new(move |r: &Report, pos| out.line(&info_line(dialect, r, pos, style))),
            Box::new(move |r, g| {
                let line = match r.best {
                    Some(m) => {
                        let mut s = format!("bestmove {}", notation::move_out(&g.pos, m, style));
                        if let Some(p) = r.ponder {
                            let mut after = g.pos.clone();
                            after.make(m);
                            s.push_str(&format!(" ponder {}", notation::move_out(&after, p, style)));
                        }
                        s
                    }
                    None => match dialect {
                        Dialect::Uci => "bestmove (none)".to_string(),
                        Dialect::Usi => "bestmove resign".to_string(),
                        Dialect::Ucci => "nobestmove".to_string(),
                    },
                };
                out2.line(&line);
            }),
        );
    }

    fn perft(&mut self, e: &mut Engine, depth: usize) {
        if !(1..=12).contains(&depth) {
            return self.error(e, "go perft: depth must be from 1 to 12");
        }
        e.stop();
        let mut pos = e.game().pos.clone();
        let split = chimera::perft::divide(&mut pos, depth);
        let mut total = 0;
        for (m, n) in split {
            e.out.line(&format!("{}: {n}", notation::move_out(&pos, m, self.dialect.style())));
            total += n;
        }
        e.out.line("");
        e.out.line(&format!("Nodes searched: {total}"));
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
