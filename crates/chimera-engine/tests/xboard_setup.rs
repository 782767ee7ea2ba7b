//! The `setup` and `piece` commands the XBoard protocol sends for variants
//! XBoard does not know: exact lines for small variants (derived by hand from
//! XBoard 4.9's piece slots, see `setup_lines`), and for every built-in
//! variant the checks XBoard itself makes when it reads a piece-to-char table.

use chimera::builtin;
use chimera::variant::Variant;
use chimera_engine::game::Out;
use chimera_engine::protocol::{self, Protocol};
use chimera_engine::xboard::{setup_lines, xboard_name};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A writer the test can read back.
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

/// The lines an XBoard session answers to `script`, without the `feature` lines.
fn session(script: &str) -> Vec<String> {
    let buf = Buf::default();
    protocol::run(script.as_bytes(), Out::new(Box::new(buf.clone())), Some(Protocol::Xboard));
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    text.lines().filter(|l| !l.starts_with("feature ")).map(str::to_string).collect()
}

#[test]
fn minishogi_gets_a_shogi_parent_with_promoted_slots() {
    // Minishogi's types, in its file's order: b r s p g +p +s +b +r k; drops
    // and '+' promotions, so XBoard's `shogi` rules (zone: the far third, one
    // rank on five; captured pieces go to the hand unpromoted).
    // - k is royal: the King's slot, last.
    // - p (fW) has no move from the last rank but has from the one before:
    //   it must promote on the last rank, and it is the nifu type: the Pawn's
    //   slot 0.
    // - b, r, s promote and can move everywhere: slots 2 3 5 6 7 8; the
    //   letters of XBoard's own Shogi table put B on 2, R on 3, S on 5.
    // - g does not promote: a slot from 9 (which XBoard never promotes); its
    //   own letter's slot is 9.
    // - the promoted types go to XBoard's default partner of their base,
    //   slot + 11: +p 11, +b 13, +r 14, +s 16, each written ^X.
    // So the white half is P.BR.S...G.^P.^B^R.^SK; 5 holdings (P B R S G).
    let out = session("xboard\nprotover 2\nvariant minishogi\nquit\n");
    let expected = [
        "setup (P.BR.S...G.^P.^B^R.^SKp.br.s...g.^p.^b^r.^sk) 5x5+5_shogi rbsgk/4p/5/P4/KGSBR[-] w 0 1",
        "piece B& B",
        "piece R& R",
        "piece S& FfW",
        "piece P& fW",
        "piece G& WfF",
        "piece +P& WfF",
        "piece +S& WfF",
        "piece +B& BW",
        "piece +R& RF",
        "piece K& K",
    ];
    assert_eq!(out, expected);
}

#[test]
fn los_alamos_gets_the_table_of_the_protocol_example() {
    // XBoard's protocol description gives this very line for Los Alamos
    // chess: P N R Q in their own slots 0 1 3 4, no Bishop (slot 2 empty),
    // at least five slots before the King's; no drops, no '+' types: `fairy`.
    let out = session("xboard\nprotover 2\nvariant losalamos\nquit\n");
    assert_eq!(out[0], "setup (PN.RQKpn.rqk) 6x6+0_fairy rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1");
    assert_eq!(&out[1..], ["piece P& fmWfcF", "piece N& N", "piece R& R", "piece Q& Q", "piece K& K"]);
}

#[test]
fn variants_xboard_knows_get_no_setup() {
    // XBoard plays shogi, chu and lion by its own rules and ignores a setup there
    let out = session("xboard\nprotover 2\nvariant shogi\nvariant chu\nvariant lion\nvariant normal\nping 1\nquit\n");
    assert_eq!(out, ["pong 1"]);
}

const TINY_CHU: &str = r#"
name = "tinychu"
files = 6
ranks = 6
start_fen = "xgk1ln/pppppp/6/6/PPPPPP/NL1KGX w - - 0 1"

[zones]
camp = "a5-f6"

[[piece]]
name = "pawn"
letter = "p"
betza = "fW"
promotion = { zone = "camp", to = "+p", style = "chu" }

[[piece]]
name = "gold"
letter = "g"
betza = "WfF"

[[piece]]
name = "phoenix"
letter = "x"
betza = "WA"
promotion = { zone = "camp", to = "+x", style = "chu" }

[[piece]]
name = "lance"
letter = "l"
betza = "fR"
promotion = { zone = "camp", to = "+l", style = "chu" }

[[piece]]
name = "knight"
letter = "n"
betza = "N"

[[piece]]
name = "tokin"
letter = "+p"
betza = "WfF"

[[piece]]
name = "queen"
letter = "+x"
betza = "Q"

[[piece]]
name = "white horse"
letter = "+l"
betza = "vRfB"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true
"#;

#[test]
fn a_shogi_variant_without_drops_gets_a_chu_parent() {
    // '+' promotions without drops: XBoard's `chu` rules. Slots from the
    // letters of XBoard's own Chu table: P 0, X 7, G 9, L 18; its N is the
    // Lion's slot 21, which XBoard's chu rules treat as a Lion, so this
    // Knight takes the first free slot, 1. The promoted types go where
    // XBoard's Chu table has them: +L 34, +X 51, +P 55. No holdings.
    let v = Variant::from_toml(TINY_CHU, "tinychu.toml").unwrap();
    let lines = setup_lines(&v);
    let white =
        format!("PN{}X.G{}L{}^L{}^X{}^PK", ".".repeat(5), ".".repeat(8), ".".repeat(15), ".".repeat(16), ".".repeat(3));
    assert_eq!(
        lines[0],
        format!("setup ({white}{}) 6x6+0_chu xgk1ln/pppppp/6/6/PPPPPP/NL1KGX w - - 0 1", white.to_ascii_lowercase())
    );
    assert_eq!(
        &lines[1..],
        [
            "piece P& fW",
            "piece G& WfF",
            "piece X& WA",
            "piece L& fR",
            "piece N& N",
            "piece +P& WfF",
            "piece +X& Q",
            "piece +L& vRfB",
            "piece K& K"
        ]
    );
}

/// A piece-to-char table read as XBoard 4.9 reads it: tokens `.`, `X`, `^X`,
/// where a letter may carry a dress mark (`X'`, `^X!`); the white half
/// first, the King's slot last in each half. Returns the
/// white half's tokens, or why XBoard would reject the table.
fn read_table(t: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut it = t.chars().peekable();
    while let Some(c) = it.next() {
        let mut token = match c {
            '^' => format!("^{}", it.next().filter(|c| c.is_ascii_alphabetic()).ok_or("^ without a letter")?),
            c if c == '.' || c.is_ascii_alphabetic() => c.to_string(),
            c => return Err(format!("'{c}' in the table")),
        };
        if c != '.' {
            if let Some(d) = it.next_if(|&d| d == '\'' || d == '!') {
                token.push(d);
            }
        }
        tokens.push(token);
    }
    let n = tokens.len();
    if n % 2 != 0 || !(12..=132).contains(&n) {
        return Err(format!("{n} slots: XBoard takes an even number from 12 to 132"));
    }
    let (white, black) = tokens.split_at(n / 2);
    for (w, b) in white.iter().zip(black) {
        if w.to_ascii_lowercase() != *b || *w != w.to_ascii_uppercase() {
            return Err(format!("white {w} against black {b}"));
        }
    }
    Ok(white.to_vec())
}

#[test]
fn every_builtin_variant_gets_a_table_xboard_accepts() {
    for name in builtin::playable_names() {
        let v = builtin::variant(name).unwrap();
        let lines = setup_lines(&v);
        let Some(setup) = lines.first() else {
            continue; // a variant XBoard knows
        };
        let rest = setup.strip_prefix("setup (").unwrap_or_else(|| panic!("{name}: {setup}"));
        let (table, rest) = rest.split_once(") ").unwrap();
        let white = read_table(table).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (size, fen) = rest.split_once(' ').unwrap();
        let geo = v.geometry();
        let (dims, parent) = size.split_once('_').unwrap();
        let (wh, holdings) = dims.split_once('+').unwrap();
        assert_eq!(wh, format!("{}x{}", geo.width, geo.height), "{name}");
        assert!(["fairy", "crazyhouse", "shogi", "chu"].contains(&parent), "{name}: {parent}");
        assert_eq!(fen, v.def.start_fen, "{name}");
        // each id once; each promoted slot's base is in the table
        let plain: Vec<String> = white.iter().filter(|t| *t != "." && !t.starts_with('^')).cloned().collect();
        for (i, c) in plain.iter().enumerate() {
            assert!(!plain[i + 1..].contains(c), "{name}: {c} twice");
        }
        for t in white.iter().filter(|t| t.starts_with('^')) {
            assert!(plain.contains(&t[1..].to_string()), "{name}: {t} without its base");
        }
        // every piece of the start position is in the table: X as an id, +X as ^X
        let board = fen.split([' ', '[']).next().unwrap();
        let mut chars = board.chars().peekable();
        while let Some(c) = chars.next() {
            let promoted = c == '+';
            let c = if promoted { chars.next().unwrap() } else { c };
            if !c.is_ascii_alphabetic() {
                continue;
            }
            let mut id = c.to_ascii_uppercase().to_string();
            if let Some(d) = chars.next_if(|&d| d == '\'' || d == '!') {
                id.push(d);
            }
            if promoted {
                assert!(white.contains(&format!("^{id}")), "{name}: +{id} has no slot");
            } else {
                assert!(plain.contains(&id), "{name}: {id} has no slot");
            }
        }
        // the holdings hold every unpromoted type (XBoard numbers them in slot order)
        let want = if v.def.rules.drops.is_some() {
            plain.len() - usize::from(white.last() != Some(&".".to_string()))
        } else {
            0
        };
        assert_eq!(holdings, want.to_string(), "{name}");
        // one piece line per table entry, promoted ones as +X
        let pieces: Vec<String> =
            lines[1..].iter().map(|l| l.split(' ').nth(1).unwrap().trim_end_matches('&').to_string()).collect();
        let entries = white.iter().filter(|t| *t != ".").count();
        assert_eq!(pieces.len(), entries, "{name}: {pieces:?}");
        for p in &pieces {
            let token = p.replace('+', "^");
            assert!(white.contains(&token), "{name}: piece {p} not in the table");
        }
        assert_ne!(xboard_name(name), "", "{name}");
    }
}

#[test]
fn setboard_takes_the_fen_xboard_writes_for_an_engine_defined_variant() {
    // XBoard writes the Wa Shogi start position (its `chu` parent) with a
    // castling field and no en-passant field; the variant's own FEN has
    // neither. The position is taken (no error) and the engine plays from it.
    let start = "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH";
    let out =
        session(&format!("xboard\nprotover 2\nvariant wa-shogi\nforce\nsetboard {start} w - 0 1\nping 1\nquit\n"));
    assert_eq!(
        out.iter().filter(|l| !l.starts_with("setup ") && !l.starts_with("piece ")).collect::<Vec<_>>(),
        ["pong 1"]
    );
    // a FEN that is wrong in any reading is still refused, with the first reading's error
    let out = session("xboard\nprotover 2\nvariant minishogi\nsetboard rbsgk/4p/5/P4[-] w - 0 1\nping 1\nquit\n");
    assert!(
        out.iter().any(|l| l.starts_with("tellusererror Illegal position: bad FEN") && l.contains("w - 0 1")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l == "Error (bad FEN): rbsgk/4p/5/P4[-] w - 0 1"), "{out:?}");
}
