//! The state the protocols share: the variants known (built-in and loaded
//! from files), the game being played, the options, the output, and the
//! search running on its own thread.

use crate::eval::EvalTables;
use crate::rules::{GameEnd, HistEntry};
use crate::search::{self, GameMemory, Limits, Report, SearchResult, Shared};
use crate::tt::Tt;
use chimera::builtin;
use chimera::moves::Move;
use chimera::position::{Position, Undo};
use chimera::variant::{Variant, VariantDef};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Where protocol lines go: whole lines, flushed at once, from any thread.
/// It can be muted, for lines a session replays after a hand-over
/// ([`crate::protocol::resume`]) that were answered once already.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>, Arc<AtomicBool>);

impl Out {
    /// Lines to standard output.
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    /// Lines to any writer (for tests).
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)), Arc::new(AtomicBool::new(false)))
    }

    /// Drops every line from now on (`true`), or writes them again.
    pub fn set_muted(&self, muted: bool) {
        self.1.store(muted, Ordering::Relaxed);
    }

    /// Writes one line, its control characters escaped ([`escape_controls`]):
    /// whatever text from the user it quotes, it stays one line and cannot
    /// pass for another protocol line. A closed output is ignored: the engine
    /// keeps running until its input ends.
    pub fn line(&self, s: &str) {
        if self.1.load(Ordering::Relaxed) {
            return;
        }
        let s = escape_controls(s);
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = w.write_all(s.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }
}

/// `s` with its control characters written out: `\n`, `\r`, `\t` and `\\`
/// as in Rust, the other C0 controls and DEL as `\x1b`, the C1 controls as
/// `\u{85}`. A backslash is doubled only in a text that has control
/// characters, so that text without them is unchanged.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x80 && c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A game: the variant, the position, and the positions played so far.
#[derive(Clone)]
pub struct Game {
    /// The variant.
    pub variant: Arc<Variant>,
    /// Its evaluation tables.
    pub ev: Arc<EvalTables>,
    /// The current position.
    pub pos: Position,
    /// One entry per position from the first one to the current one.
    pub hist: Vec<HistEntry>,
    /// The moves played, to take them back.
    pub played: Vec<(Move, Undo)>,
}

impl Game {
    /// The number of moves the side to move expects still to play
    /// ([`crate::timeman::moves_left`]): from the moves played and the
    /// material of the position.
    pub fn moves_left(&self) -> u32 {
        crate::timeman::moves_left(
            self.played.len().min(u32::MAX as usize) as u32,
            self.ev.material_permille(&self.pos),
        )
    }

    /// The start position of a variant.
    pub fn new(variant: Arc<Variant>, ev: Arc<EvalTables>) -> Game {
        let pos = Position::start(variant.clone());
        Game::at(variant, ev, pos)
    }

    /// A game from a position. The n-move rule counts on from the
    /// position's half-move clock (a FEN's `99` is one ply from the draw).
    pub fn at(variant: Arc<Variant>, ev: Arc<EvalTables>, mut pos: Position) -> Game {
        let rev = pos.halfmove_clock().min(u16::MAX as u32) as u16;
        let hist = vec![HistEntry::of(&mut pos, rev)];
        Game { variant, ev, pos, hist, played: Vec::new() }
    }

    /// A game from a FEN.
    pub fn from_fen(variant: Arc<Variant>, ev: Arc<EvalTables>, fen: &str) -> Result<Game, String> {
        let pos = Position::from_fen(variant.clone(), fen).map_err(|e| e.to_string())?;
        Ok(Game::at(variant, ev, pos))
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let undo = chimera::outcome::play_and_record(&mut self.pos, m, &mut self.hist);
        self.played.push((m, undo));
    }

    /// Reads a move in the core's notation and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        let m = self.pos.parse_move(text).map_err(|e| format!("illegal move '{}': {}", e.text, e.message))?;
        self.play(m);
        Ok(m)
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match self.played.pop() {
            Some((m, u)) => {
                self.pos.unmake(m, &u);
                self.hist.pop();
                true
            }
            None => false,
        }
    }

    /// The legal moves.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        self.pos.legal_moves()
    }

    /// How the game has ended, if it has: mate, stalemate, a variant rule,
    /// threefold repetition (perpetual check loses where the variant says so),
    /// the n-move rule or a dead position; see [`Game::outcome`].
    pub fn end(&mut self) -> Option<GameEnd> {
        self.outcome().map(GameEnd::from)
    }

    /// How the game has ended or may be ended, with its result, its reason
    /// and whether it is claimed or immediate: [`chimera::outcome::game_end`]
    /// on this game's position and history.
    pub fn outcome(&mut self) -> Option<chimera::outcome::GameEnd> {
        chimera::outcome::game_end(&mut self.pos, &self.hist)
    }
}

/// The variants the engine knows: the built-in ones and those loaded from files.
///
/// A variant read from a file is kept as its definition and compiled (move
/// tables, evaluation tables) only when it is first chosen, so a file of many
/// large variants costs the definitions, not the tables of every one.
#[derive(Default)]
pub struct Registry {
    cache: BTreeMap<String, (Arc<Variant>, Arc<EvalTables>)>,
    /// Definitions read from files and not compiled yet.
    pending: BTreeMap<String, VariantDef>,
    user: Vec<String>,
}

impl Registry {
    /// The names of every known variant: built-in ones first, then user ones.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = builtin::names().iter().map(|s| s.to_string()).collect();
        for u in &self.user {
            if !v.contains(u) {
                v.push(u.clone());
            }
        }
        v
    }

    /// A variant and its evaluation tables, by name.
    pub fn get(&mut self, name: &str) -> Result<(Arc<Variant>, Arc<EvalTables>), String> {
        if let Some(e) = self.cache.get(name) {
            return Ok(e.clone());
        }
        let v = match self.pending.get(name) {
            Some(def) => {
                // a user's variant is compiled when first chosen; if that fails it stays
                // pending, so that the error is given again the next time
                let v = Variant::new(def.clone()).map_err(|e| format!("{name}: {e}"))?;
                self.pending.remove(name);
                Arc::new(v)
            }
            None => Arc::new(builtin::variant(name).map_err(|e| e.to_string())?),
        };
        let ev = Arc::new(EvalTables::new(&v));
        self.cache.insert(name.to_string(), (v.clone(), ev.clone()));
        Ok((v, ev))
    }

    /// A variant by name, with Chess960 castling when `chess960` is set (UCI's
    /// `UCI_Chess960`): the same rules, except that castling rights name their
    /// rooks and castling is written as the king's move onto its rook. A
    /// variant without castling is returned unchanged.
    pub fn get_960(&mut self, name: &str, chess960: bool) -> Result<(Arc<Variant>, Arc<EvalTables>), String> {
        let (v, ev) = self.get(name)?;
        if !chess960 || v.def.rules.castling.as_ref().is_none_or(|c| c.chess960) {
            return Ok((v, ev));
        }
        let key = format!("{name}\u{0}960");
        if let Some(e) = self.cache.get(&key) {
            return Ok(e.clone());
        }
        let mut def = v.def.clone();
        if let Some(c) = def.rules.castling.as_mut() {
            c.chess960 = true;
        }
        let v = Arc::new(Variant::new(def).map_err(|e| format!("{name} with Chess960 castling: {e}"))?);
        let ev = Arc::new(EvalTables::new(&v));
        self.cache.insert(key, (v.clone(), ev.clone()));
        Ok((v, ev))
    }

    /// Whether this build cannot hold the variant `name` because its board
    /// is too large: a built-in variant of the wide build (see
    /// [`crate::protocol::Handover`]).
    pub fn too_large(&self, name: &str) -> bool {
        !self.cache.contains_key(name)
            && !self.pending.contains_key(name)
            && builtin::definition(name).err().is_some_and(|e| e.is_too_large())
    }

    /// Whether `name` is a built-in variant (not one of a loaded file) whose
    /// board the narrow build holds (at most [`NARROW_SQUARES`] squares).
    pub fn fits_narrow(&self, name: &str) -> bool {
        !self.pending.contains_key(name)
            && !self.user.iter().any(|u| u == name)
            && builtin::definition(name).is_ok_and(|d| d.geometry.squares() <= NARROW_SQUARES)
    }

    /// Whether this build cannot load the file at `path` because a board in
    /// it is too large (the wide build may).
    pub fn file_too_large(path: &str) -> bool {
        let Ok(text) = crate::files::read_text_file(path) else { return false };
        let format = chimera::loader::Format::of_path(path);
        chimera::loader::definitions(&text, path, format).err().is_some_and(|e| e.is_too_large())
    }

    /// Loads the variants of a file (Chimera's TOML or Fairy-Stockfish's
    /// variants.ini). Returns their names; on any error in a definition
    /// nothing is loaded. The definitions are read and checked here; each
    /// variant's tables are compiled when it is first chosen ([`Registry::get`]),
    /// where an error of the compiler (a piece whose moves cannot be built) is
    /// reported.
    pub fn load_file(&mut self, path: &str) -> Result<Vec<String>, String> {
        let text = crate::files::read_text_file(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        let format = chimera::loader::Format::of_path(path);
        let defs = chimera::loader::definitions(&text, path, format).map_err(|e| e.to_string())?;
        let mut names = Vec::new();
        for d in defs {
            let name = d.name.clone();
            // a variant of the same name loaded before is replaced
            self.cache.retain(|k, _| k != &name && !k.starts_with(&format!("{name}\u{0}")));
            self.pending.insert(name.clone(), d);
            if !self.user.contains(&name) {
                self.user.push(name.clone());
            }
            names.push(name);
        }
        Ok(names)
    }
}

/// The most squares a board of the narrow build (`chimera`) may have: its
/// `width::MAX_BOARD_SQUARES`, known here in the wide build too.
pub const NARROW_SQUARES: usize = 255;

/// A search running on its own thread.
struct Job {
    shared: Arc<Shared>,
    handle: JoinHandle<()>,
    wait_for_stop: bool,
}

/// The engine: options, the game, and the search thread.
pub struct Engine {
    /// Protocol output.
    pub out: Out,
    /// The game, shared with the search thread (which plays its move in XBoard mode).
    pub game: Arc<Mutex<Game>>,
    /// The known variants.
    pub registry: Registry,
    /// The transposition table.
    pub tt: Arc<Tt>,
    /// What the searches of this game learnt (history, evaluation caches),
    /// emptied with the table at a new game.
    pub memory: Arc<GameMemory>,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// Milliseconds kept back per move for communication.
    pub overhead_ms: u64,
    /// Principal variations to report (UCI `MultiPV`).
    pub multipv: usize,
    /// Root moves banned for the next search (UCCI `banmoves`, XBoard `exclude`),
    /// cleared when the position changes.
    pub excluded: Vec<chimera::moves::Move>,
    /// Chess960 castling for every variant that castles (UCI `UCI_Chess960`).
    pub chess960: bool,
    job: Option<Job>,
}

/// Called with each iteration's report, on the search thread.
pub type OnReport = Box<dyn FnMut(&Report, &Position) + Send>;
/// Called with the result on the search thread, with the game locked.
pub type OnDone = Box<dyn FnOnce(&SearchResult, &mut Game) + Send>;

impl Engine {
    /// An engine playing chess from the start position.
    pub fn new(out: Out) -> Engine {
        let mut registry = Registry::default();
        let (v, ev) = registry.get("chess").expect("chess is built in");
        Engine {
            out,
            game: Arc::new(Mutex::new(Game::new(v, ev))),
            registry,
            tt: Arc::new(Tt::new(16)),
            memory: Arc::new(GameMemory::default()),
            threads: 1,
            hash_mb: 16,
            overhead_ms: 30,
            multipv: 1,
            excluded: Vec::new(),
            chess960: false,
            job: None,
        }
    }

    /// Locks the game.
    pub fn game(&self) -> std::sync::MutexGuard<'_, Game> {
        self.game.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Replaces the game (stopping any search first).
    pub fn set_game(&mut self, g: Game) {
        self.stop();
        *self.game() = g;
    }

    /// The current variant's name.
    pub fn variant_name(&self) -> String {
        self.game().variant.name().to_string()
    }

    /// Switches to a variant's start position (with Chess960 castling if
    /// [`Engine::chess960`] is set).
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let (v, ev) = self.registry.get_960(name, self.chess960)?;
        self.set_game(Game::new(v, ev));
        Ok(())
    }

    /// Resizes the table (to 1 to [`crate::tt::MAX_MB`] MiB). If the memory
    /// cannot be had, the error says so and the old table stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.stop();
        let mb = mb.clamp(1, crate::tt::MAX_MB);
        // the new table is made before the old one goes: on failure nothing changed
        let tt = Tt::try_new(mb).map_err(|e| format!("{e}; it stays at {} MiB", self.hash_mb))?;
        self.tt = Arc::new(tt);
        self.hash_mb = mb;
        Ok(())
    }

    /// Empties the table: a new zeroed one, which costs nothing until it is
    /// used (clearing a big table in place would hold up the input for
    /// seconds), or if that memory is not there, the old one cleared in place.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.memory.clear();
        match Tt::try_new(self.hash_mb) {
            Ok(tt) => self.tt = Arc::new(tt),
            Err(_) => self.tt.clear(),
        }
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.handle.is_finished())
    }

    /// Starts a search of the current position. With `wait_for_stop`, the
    /// result is held back until [`Engine::stop`] (UCI `go infinite`).
    pub fn start(&mut self, limits: Limits, wait_for_stop: bool, on_report: OnReport, on_done: OnDone) {
        self.start_search(limits, wait_for_stop, false, on_report, on_done);
    }

    /// Starts a search as [`Engine::start`] does; with `ponder` (UCI `go
    /// ponder`) the time limits wait for [`Engine::ponderhit`] and the result
    /// is held back until then or [`Engine::stop`].
    /// The clock starts now, unless `limits.start` says when it started.
    pub fn start_search(
        &mut self,
        mut limits: Limits,
        wait_for_stop: bool,
        ponder: bool,
        mut on_report: OnReport,
        on_done: OnDone,
    ) {
        self.stop();
        limits.start.get_or_insert_with(web_time::Instant::now);
        let game = self.game.clone();
        let threads = self.threads;
        self.spawn_job(wait_for_stop || ponder, ponder, move |sh| {
            let (pos, hist, ev) = {
                let g = game.lock().unwrap_or_else(|e| e.into_inner());
                // only what repetitions can reach, not the whole game
                (g.pos.clone(), search::relevant_history(&g.hist).to_vec(), g.ev.clone())
            };
            let shown = pos.clone();
            let r = search::search(&pos, &hist, &ev, sh, limits, threads, &mut |rep| on_report(rep, &shown));
            while !sh.released() && (wait_for_stop || sh.pondering()) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            if !sh.abandoned() {
                let mut g = game.lock().unwrap_or_else(|e| e.into_inner());
                on_done(&r, &mut g);
            }
        });
    }

    /// Runs `work` on its own thread as the engine's job (stopping any
    /// running one first), with a fresh [`Shared`] whose stop flag it should
    /// watch. With `wait_for_stop`, [`Engine::finish`] stops it rather than
    /// waiting for it to end.
    pub fn spawn_job(&mut self, wait_for_stop: bool, ponder: bool, work: impl FnOnce(&Arc<Shared>) + Send + 'static) {
        self.stop();
        let shared = Arc::new(Shared::with_memory(self.tt.clone(), self.memory.clone()));
        shared.set_pondering(ponder);
        let sh = shared.clone();
        let handle = std::thread::spawn(move || work(&sh));
        self.job = Some(Job { shared, handle, wait_for_stop });
    }

    /// The opponent played the move the engine pondered on (UCI `ponderhit`):
    /// the running search goes on as a normal one, its time counted from its start.
    pub fn ponderhit(&mut self) {
        if let Some(j) = &self.job {
            j.shared.set_pondering(false);
        }
    }

    /// Stops the search, if any, and throws its result away: the search's
    /// `on_done` is not called (XBoard `force` while thinking).
    pub fn abandon(&mut self) {
        if let Some(j) = self.job.take() {
            j.shared.abandon();
            let _ = j.handle.join();
        }
    }

    /// Stops the search, if any, and waits for it to report its move.
    pub fn stop(&mut self) {
        if let Some(j) = self.job.take() {
            j.shared.release();
            let _ = j.handle.join();
        }
    }

    /// Lets a running search end by itself and waits for it; a search that
    /// would wait for `stop` is stopped.
    pub fn finish(&mut self) {
        if let Some(j) = self.job.take() {
            if j.wait_for_stop {
                j.shared.release();
            }
            let _ = j.handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("bestmove e2e4"), "bestmove e2e4");
        assert_eq!(escape_controls("a\\b"), "a\\b", "no controls: unchanged");
        assert_eq!(escape_controls("x\nreadyok"), "x\\nreadyok");
        assert_eq!(escape_controls("\r\t\u{1b}[2J\u{0}\u{7f}\u{85}\\"), "\\r\\t\\x1b[2J\\x00\\x7f\\u{85}\\\\");
        assert_eq!(escape_controls("é \u{2028}"), "é \u{2028}");
    }

    /// Chu Shogi: the side that repeats a position loses, unless it was in
    /// check; so the checking side of a perpetual check loses.
    #[test]
    fn chu_repetition_loses_for_the_repeater() {
        let v = Arc::new(builtin::variant("chu").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let empty = "12/".repeat(10);
        // Black's Rook b12 and White's King a1 walk back and forth: Black's
        // fourth move brings back the start position with White to move
        let mut g = Game::from_fen(v.clone(), ev.clone(), &format!("1r9k/{empty}K11 w 0 1")).unwrap();
        for m in ["a1a2", "b12b11", "a2a1"] {
            g.play_text(m).unwrap();
            assert_eq!(g.end(), None, "{m}");
        }
        g.play_text("b11b12").unwrap();
        assert_eq!(g.end(), Some(GameEnd::WhiteWins("repetition by the opponent")));
        // Black checks on a12 and b12 in turn; White's King, in check each
        // time, may step back to a1 (the start position again), and Black's
        // next check repeats the position after its first one
        let mut g = Game::from_fen(v, ev, &format!("1r9k/{empty}K11 b 0 1")).unwrap();
        for m in ["b12a12", "a1b1", "a12b12", "b1a1"] {
            g.play_text(m).unwrap();
            assert_eq!(g.end(), None, "{m}");
        }
        g.play_text("b12a12").unwrap();
        assert_eq!(g.end(), Some(GameEnd::WhiteWins("repetition by the opponent")));
    }

    /// The n-move rule counts on from the FEN's half-move clock.
    #[test]
    fn the_n_move_rule_counts_from_the_fen_clock() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let mut g = Game::from_fen(v.clone(), ev.clone(), "k7/8/8/8/8/8/8/6RK w - - 99 80").unwrap();
        assert_eq!(g.end(), None);
        g.play_text("g1g2").unwrap();
        assert_eq!(g.end(), Some(GameEnd::Draw("n-move rule")));
        let mut g = Game::from_fen(v, ev, "k7/8/8/8/8/8/8/6RK w - - 98 80").unwrap();
        g.play_text("g1g2").unwrap();
        assert_eq!(g.end(), None);
    }

    /// Armageddon: a game drawn by repetition is a Black win; the same game
    /// in chess is a draw.
    #[test]
    fn draw_odds_turn_draws_into_wins() {
        let fen = "k7/8/8/8/8/8/8/6RK w - - 0 1";
        for (name, want) in [("chess", GameEnd::Draw("repetition")), ("armageddon", GameEnd::BlackWins("repetition"))] {
            let v = Arc::new(builtin::variant(name).unwrap());
            let ev = Arc::new(EvalTables::new(&v));
            let mut g = Game::from_fen(v, ev, fen).unwrap();
            for m in ["g1g2", "a8b8", "g2g1", "b8a8", "g1g2", "a8b8", "g2g1"] {
                g.play_text(m).unwrap();
                assert_eq!(g.end(), None, "{name} after {m}");
            }
            g.play_text("b8a8").unwrap();
            assert_eq!(g.end(), Some(want), "{name}");
        }
    }
}
