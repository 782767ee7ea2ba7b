//! Move and position notations of the protocols, converted to and from the
//! core's notation (Fairy-Stockfish's UCI notation).
//!
//! - UCI: the core's notation itself (`e2e4`, `e7e8q`, `P@e5`, `d4e5,e5f6`).
//! - XBoard: the same, except that on boards of exactly 10 ranks the ranks
//!   are counted from 0 (the CECP rule: Xiangqi `h2e2` is `h3e3` in UCI),
//!   a pass is the null move `@@@@`, and Chess960 castling is `O-O` /
//!   `O-O-O`.
//! - UCCI: ranks always counted from 0 (`h2e2`).
//! - USI: files numbered from the right (9..1), ranks lettered from the top
//!   (a..i), drops with `*` (`7g7f`, `P*5e`, `8h2b+`).

use chimera::moves::{Move, MoveKind};
use chimera::position::Position;
use chimera::square::Geometry;

/// A protocol's notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// UCI (the core's notation).
    Uci,
    /// XBoard / CECP.
    Xboard,
    /// UCCI (Xiangqi).
    Ucci,
    /// USI (Shogi).
    Usi,
}

/// Rewrites each square `[a-p][0-9]+` of `text` with `f(file, rank)`.
fn map_squares(text: &str, f: impl Fn(u8, i32) -> String) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 2);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_lowercase() && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            let mut j = i + 1;
            let mut n = 0i32;
            while j < b.len() && b[j].is_ascii_digit() && n < 1000 {
                n = n * 10 + (b[j] - b'0') as i32;
                j += 1;
            }
            out.push_str(&f(c - b'a', n));
            i = j;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

fn zero_based(style: Style, g: &Geometry) -> bool {
    match style {
        Style::Xboard => g.height == 10,
        Style::Ucci => true,
        _ => false,
    }
}

/// A USI square: file number from the right, rank letter from the top.
fn usi_square(g: &Geometry, file: u8, rank1: i32) -> String {
    let f = g.width as i32 - file as i32;
    let r = g.height as i32 - rank1;
    format!("{}{}", f, (b'a' + r.clamp(0, 25) as u8) as char)
}

/// Writes a move in a protocol's notation.
pub fn move_out(pos: &Position, m: Move, style: Style) -> String {
    let g = pos.geometry();
    if style == Style::Xboard && m.kind() == MoveKind::Pass {
        return "@@@@".to_string();
    }
    if style == Style::Xboard && m.kind() == MoveKind::Castle && pos.chess960() {
        // CECP writes FischerRandom castling as O-O and O-O-O
        return if m.extra() > m.from() { "O-O" } else { "O-O-O" }.to_string();
    }
    let text = pos.move_text(m);
    match style {
        Style::Uci => text,
        Style::Xboard | Style::Ucci => {
            if zero_based(style, &g) {
                map_squares(&text, |f, r| format!("{}{}", (b'a' + f) as char, r - 1))
            } else {
                text
            }
        }
        Style::Usi => map_squares(&text, |f, r| usi_square(&g, f, r)).replace('@', "*"),
    }
}

/// Converts a protocol's move text to the core's notation (not checked).
pub fn to_core_text(g: &Geometry, text: &str, style: Style) -> String {
    match style {
        Style::Uci => text.to_string(),
        Style::Xboard | Style::Ucci => {
            if zero_based(style, g) {
                map_squares(text, |f, r| format!("{}{}", (b'a' + f) as char, r + 1))
            } else {
                text.to_string()
            }
        }
        Style::Usi => {
            // digits then a lowercase letter is a square
            let b = text.as_bytes();
            let mut out = String::new();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_digit() {
                    let mut j = i;
                    let mut n = 0i32;
                    while j < b.len() && b[j].is_ascii_digit() && n < 1000 {
                        n = n * 10 + (b[j] - b'0') as i32;
                        j += 1;
                    }
                    if j < b.len() && b[j].is_ascii_lowercase() {
                        let file = g.width as i32 - n;
                        let rank1 = g.height as i32 - (b[j] - b'a') as i32;
                        if (0..g.width as i32).contains(&file) && rank1 >= 1 {
                            out.push((b'a' + file as u8) as char);
                            out.push_str(&rank1.to_string());
                        } else {
                            out.push('?'); // off the board: the core rejects it
                        }
                        i = j + 1;
                    } else {
                        out.push_str(&text[i..j]);
                        i = j;
                    }
                } else {
                    out.push(if b[i] == b'*' { '@' } else { b[i] as char });
                    i += 1;
                }
            }
            out
        }
    }
}

/// Reads a move in a protocol's notation and checks that it is legal.
pub fn move_in(pos: &mut Position, text: &str, style: Style) -> Result<Move, String> {
    if style == Style::Xboard && text == "@@@@" {
        return pos
            .legal_moves()
            .into_iter()
            .find(|m| m.kind() == MoveKind::Pass)
            .ok_or_else(|| "passing is not legal here".to_string());
    }
    if style == Style::Xboard && matches!(text, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        let kingside = text.len() == 3;
        return pos
            .legal_moves()
            .into_iter()
            .find(|m| m.kind() == MoveKind::Castle && (m.extra() > m.from()) == kingside)
            .ok_or_else(|| format!("{text} is not legal here"));
    }
    let core = to_core_text(&pos.geometry(), text, style);
    // XBoard and USI write a shogi promotion with '+', and XBoard may write a
    // deferral with '='
    let core = core.trim_end_matches('=').to_string();
    pos.parse_move(&core).map_err(|e| e.message)
}

/// Converts an SFEN (`board side hand movenumber`) to the core's FEN.
pub fn sfen_to_fen(sfen: &str) -> Result<String, String> {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    if f.len() < 2 {
        return Err(format!("bad SFEN '{sfen}': expected 'board side hand [move number]'"));
    }
    let side = match f[1] {
        "b" => "w",
        "w" => "b",
        s => return Err(format!("bad SFEN '{sfen}': side to move must be 'b' or 'w', not '{s}'")),
    };
    let mut hand = String::new();
    let h = f.get(2).copied().unwrap_or("-");
    if h != "-" {
        let mut n = 0usize;
        for c in h.chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d as usize;
                if n > 64 {
                    return Err(format!("bad SFEN '{sfen}': a hand count over 64"));
                }
            } else if c.is_ascii_alphabetic() {
                for _ in 0..n.max(1) {
                    hand.push(c);
                }
                n = 0;
            } else {
                return Err(format!("bad SFEN '{sfen}': hand '{h}'"));
            }
        }
    }
    let number = f.get(3).copied().unwrap_or("1");
    if !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad SFEN '{sfen}': move number '{number}'"));
    }
    Ok(format!("{}[{}] {} - - 0 {}", f[0], hand, side, number))
}

/// Converts a UCCI FEN (Xiangqi, `r` or `w` for Red) to the core's FEN.
pub fn ucci_fen(fen: &str) -> String {
    let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(b) = f.first_mut() {
        // some programs write the horse as H and the elephant as E
        *b = b
            .chars()
            .map(|c| match c {
                'h' => 'n',
                'H' => 'N',
                'e' => 'b',
                'E' => 'B',
                c => c,
            })
            .collect();
    }
    if let Some(s) = f.get_mut(1) {
        if s == "r" {
            *s = "w".to_string();
        }
    }
    f.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;
    use std::sync::Arc;

    #[test]
    fn xboard_and_ucci_count_ten_ranks_from_zero() {
        let mut p = Position::start(Arc::new(builtin::variant("xiangqi").unwrap()));
        let m = move_in(&mut p, "h2e2", Style::Xboard).unwrap();
        assert_eq!(p.move_text(m), "h3e3");
        assert_eq!(move_out(&p, m, Style::Xboard), "h2e2");
        assert_eq!(move_out(&p, m, Style::Ucci), "h2e2");
        assert_eq!(move_out(&p, m, Style::Uci), "h3e3");
        let mut c = Position::start(Arc::new(builtin::variant("chess").unwrap()));
        let m = move_in(&mut c, "e2e4", Style::Xboard).unwrap();
        assert_eq!(move_out(&c, m, Style::Xboard), "e2e4");
    }

    #[test]
    fn usi_squares_and_drops() {
        let v = Arc::new(builtin::variant("shogi").unwrap());
        let mut p = Position::start(v.clone());
        let m = move_in(&mut p, "7g7f", Style::Usi).unwrap();
        assert_eq!(p.move_text(m), "c3c4");
        assert_eq!(move_out(&p, m, Style::Usi), "7g7f");
        let fen = sfen_to_fen("4k4/9/9/9/9/9/9/9/4K4 b 2Pg 1").unwrap();
        let mut q = Position::from_fen(v, &fen).unwrap();
        let d = move_in(&mut q, "P*5e", Style::Usi).unwrap();
        assert_eq!(move_out(&q, d, Style::Usi), "P*5e");
        assert!(sfen_to_fen("9/9 x - 1").is_err());
    }

    #[test]
    fn janggi_pass_in_xboard() {
        let mut p = Position::start(Arc::new(builtin::variant("janggi").unwrap()));
        let m = move_in(&mut p, "@@@@", Style::Xboard).unwrap();
        assert_eq!(m.kind(), MoveKind::Pass);
        assert_eq!(move_out(&p, m, Style::Xboard), "@@@@");
    }
}
