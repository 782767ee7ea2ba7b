//! A variant ready to play: its definition ([`crate::definition`], re-exported
//! here), the compiled move tables and the hash keys.
//!
//! ```
//! let v = chimera::variant::Variant::new(chimera::variant::VariantDef::from_toml(r#"
//! name = "tiny"
//! files = 4
//! ranks = 4
//! start_fen = "k3/4/4/3K w - - 0 1"
//! [[piece]]
//! name = "king"
//! letter = "k"
//! betza = "K"
//! royal = true
//! "#, "tiny.toml").unwrap()).unwrap();
//! assert_eq!(v.def.pieces[0].name, "king");
//! ```

pub use crate::definition::*;
use crate::piece::Code;
use crate::square::{Color, Geometry};
use std::fmt;

/// A variant ready to play: its definition, compiled move tables and hash keys.
#[derive(Debug)]
pub struct Variant {
    /// The definition it was compiled from.
    pub def: VariantDef,
    /// The trajectory tables.
    pub tables: crate::compile::Tables,
    /// Per piece code: the piece is royal.
    pub royal: Vec<bool>,
    /// Per colour: the codes of its royal types (their counts on the board
    /// tell how many royals a side has without a scan of its pieces).
    pub royal_codes: [Vec<Code>; 2],
    /// Per piece code: moves of this piece reset the half-move clock (pawns).
    pub pawn: Vec<bool>,
    /// Per piece code: a pawn that can step back to where it came from (a
    /// sideways step), so that only some of its moves reset the n-move count.
    pub pawn_reversible: Vec<bool>,
    /// Per piece code: a Lion under the anti-trading rules.
    pub lion: Vec<bool>,
    /// Per piece code: capturing it on the way lifts the Lion-capture restriction.
    pub bridge: Vec<bool>,
    /// Per piece code: a contagious piece ([`Contagion`]); all false without the rule.
    pub contagious: Vec<bool>,
    /// Per piece code: its rank ([`PieceType::rank`]; 0 for the empty codes).
    pub jump_rank: Vec<u8>,
    /// Per piece code: the lines it captures on by jumping ([`PieceType::jump_capture`]).
    pub jump_lines: Vec<Option<JumpLines>>,
    /// Some piece captures by jumping: the generator adds those captures
    /// after the table walk.
    pub jumpers: bool,
    /// Per piece code: it burns ([`PieceType::burns`]).
    pub burns: Vec<bool>,
    /// Per piece code: it burns passively ([`PieceType::burns_passively`]).
    pub burns_passively: Vec<bool>,
    /// Some piece burns, actively (its moves remove the enemy pieces around
    /// their destination) or passively (an enemy piece that ends its move
    /// next to it is removed). Legality is then decided by the reference
    /// method, which counts a royal next to a square an enemy active burner
    /// can reach as attacked, and refuses a move that burns its side's last
    /// royal.
    pub burners: bool,
    /// Per piece code: captures a contagious piece without turning (royal
    /// pieces and the rule's `immune` types).
    pub contagion_immune: Vec<bool>,
    /// Some piece with locust captures promotes (shogi style, to one type):
    /// the generator adds the promoting twins of its locust moves.
    pub locust_promotion: bool,
    /// Per piece code: its captures of enemy pieces unload (`u`, a swap:
    /// the compiler allows it no other captures of them).
    pub unloads_foes: Vec<bool>,
    /// Per piece code: its captures of friendly pieces unload (`ud`).
    pub unloads_friends: Vec<bool>,
    /// Some piece unloads: the generator turns those captures into swaps
    /// ([`crate::moves::Move::unload`]) after the table walk.
    pub unloaders: bool,
    /// Some rule changes the walk's list after it ([`Variant::jumpers`],
    /// [`Variant::locust_promotion`], [`Variant::unloaders`]): one test for
    /// the variants without any.
    pub after_walk: bool,
    /// Zobrist keys per piece code and square (`code * squares + sq`).
    pub z_piece: Vec<u64>,
    /// Zobrist key for Black to move.
    pub z_side: u64,
    /// Zobrist keys per castling-rights bit.
    pub z_castle: [u64; 4],
    /// Zobrist keys per e.p. square.
    pub z_ep: Vec<u64>,
    /// Zobrist keys per pocket slot: `(code * MAX_POCKET + count)`.
    pub z_pocket: Vec<u64>,
    /// Zobrist keys per gate: `[colour][file]`.
    pub z_gate: [[u64; crate::width::MAX_FILES as usize]; 2],
    /// Zobrist keys per checks still to give: `[colour][count]`.
    pub z_checks: [[u64; 16]; 2],
    /// Per `colour * squares + ep square`: the squares from which a piece of
    /// that colour has an en-passant capture onto it (to decide cheaply
    /// whether a double step creates a usable e.p. square).
    pub ep_sources: Vec<Vec<crate::square::Square>>,
    /// The start position's board, one piece code per square, for virginity.
    pub start_board: Vec<Code>,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An error turning a definition into a playable variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The definition could not be read.
    Definition(VariantError),
    /// A piece's moves could not be compiled.
    Compile(crate::compile::CompileError),
    /// The start position is not valid for the variant.
    StartFen(crate::fen::FenError),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Definition(e) => e.fmt(f),
            BuildError::Compile(e) => e.fmt(f),
            BuildError::StartFen(e) => write!(f, "start_fen: {e}"),
        }
    }
}

impl std::error::Error for BuildError {}

impl From<VariantError> for BuildError {
    fn from(e: VariantError) -> Self {
        BuildError::Definition(e)
    }
}

impl Variant {
    /// Compiles a definition: its tables, keys and per-code facts, and its
    /// start position's board. [`Variant::new`] also reads the whole start
    /// FEN as a position.
    pub(crate) fn compile(def: VariantDef) -> Result<Variant, BuildError> {
        let mut locust_promotion = false;
        for p in &def.pieces {
            let locust = p
                .all_units()
                .any(|u| u.legs.len() > 1 && u.legs[..u.legs.len() - 1].iter().any(|l| l.modality.captures));
            // a locust move that promotes has room for one bit: the piece's
            // one promoted type, shogi style
            let one_way = p.promotion.as_ref().is_none_or(|pr| {
                matches!(pr.style, PromotionStyle::Shogi | PromotionStyle::Chu)
                    && pr.choices.len() == 1
                    && pr.choices_black.as_ref().is_none_or(|b| b.len() == 1)
                    && pr.limits.iter().all(|&l| l == 255)
            });
            if locust && !one_way {
                return Err(BuildError::Compile(crate::compile::CompileError {
                    piece: p.name.clone(),
                    token: p.betza.text.clone(),
                    message: "a piece with locust captures can promote only shogi style (style = \"shogi\" or \"chu\"), to one type"
                        .into(),
                }));
            }
            locust_promotion |= locust && p.promotion.is_some();
        }
        if def.rules.gating && def.pieces.len() > crate::moves::MAX_GATING_TYPES {
            return Err(BuildError::Definition(VariantError {
                file: def.name.clone(),
                line: 0,
                column: 0,
                kind: crate::definition::VariantErrorKind::Invalid,
                message: format!(
                    "gating variants may have at most {} piece types, this one has {}",
                    crate::moves::MAX_GATING_TYPES,
                    def.pieces.len()
                ),
            }));
        }
        if def.geometry.width > 26 && (def.rules.gating || def.rules.initial_rights.is_some()) {
            // the FEN's castling field names open gates and first-move
            // rights by file letters, a to z
            return Err(BuildError::Definition(VariantError {
                file: def.name.clone(),
                line: 0,
                column: 0,
                kind: crate::definition::VariantErrorKind::Invalid,
                message:
                    "gating and initial-move rights need a board of at most 26 files (a file letter each in the FEN)"
                        .into(),
            }));
        }
        if def.rules.castling.as_ref().is_some_and(|c| c.chess960)
            && (def.rules.gating || def.rules.initial_rights.is_some())
        {
            // both would write file letters into the castling field
            return Err(BuildError::Definition(VariantError {
                file: def.name.clone(),
                line: 0,
                column: 0,
                kind: crate::definition::VariantErrorKind::Invalid,
                message: "chess960 castling cannot be combined with gating or initial-move rights yet".into(),
            }));
        }
        let lowest_royal = def.pieces.iter().filter(|p| p.royal).map(|p| p.rank).min();
        if let (Some(j), Some(r)) =
            (def.pieces.iter().filter(|p| p.jump_capture.is_some()).max_by_key(|p| p.rank), lowest_royal)
        {
            if j.rank >= r {
                // a jumping capture would reach a royal: the check test does not follow jumps
                return Err(BuildError::Definition(VariantError {
                    file: def.name.clone(),
                    line: 0,
                    column: 0,
                    kind: crate::definition::VariantErrorKind::Invalid,
                    message: format!(
                        "the jumping piece '{}' (rank {}) must rank below every royal piece (the lowest has rank {r})",
                        j.name, j.rank
                    ),
                }));
            }
        }
        if def.pieces.iter().any(|p| p.burns || p.burns_passively) && def.rules.drops.is_some() {
            // burnt pieces would go to the hand: not modelled
            return Err(BuildError::Definition(VariantError {
                file: def.name.clone(),
                line: 0,
                column: 0,
                kind: crate::definition::VariantErrorKind::Invalid,
                message: "burning pieces cannot be combined with drops yet".into(),
            }));
        }
        let tables = crate::compile::compile(&def).map_err(BuildError::Compile)?;
        let ncodes = 2 * def.pieces.len() + 2;
        let nsq = def.geometry.squares();
        let mut royal = vec![false; ncodes];
        let mut pawn = vec![false; ncodes];
        let mut lion = vec![false; ncodes];
        let mut bridge = vec![false; ncodes];
        let mut contagious = vec![false; ncodes];
        let mut contagion_immune = vec![false; ncodes];
        let mut jump_rank = vec![0u8; ncodes];
        let mut jump_lines = vec![None; ncodes];
        let mut burns = vec![false; ncodes];
        let mut burns_passively = vec![false; ncodes];
        let mut unloads_foes = vec![false; ncodes];
        let mut unloads_friends = vec![false; ncodes];
        for (t, p) in def.pieces.iter().enumerate() {
            // (the compiler allows `u` on one-leg moves only)
            let (foe, friend) = p.all_units().filter(|u| u.legs.len() == 1 && u.legs[0].unload).fold(
                (false, false),
                |(foe, friend), u| {
                    let m = u.legs[0].modality;
                    (foe || m.captures || !m.friend, friend || m.friend)
                },
            );
            for c in [Color::White, Color::Black] {
                let code = (crate::compile::code_of(t, c)).index();
                unloads_foes[code] = foe;
                unloads_friends[code] = friend;
                royal[code] = p.royal;
                jump_rank[code] = p.rank;
                jump_lines[code] = p.jump_capture;
                burns[code] = p.burns;
                burns_passively[code] = p.burns_passively;
                if let Some(rule) = &def.rules.contagion {
                    contagious[code] = rule.pieces.contains(&t);
                    contagion_immune[code] = p.royal || rule.immune.contains(&t);
                }
                pawn[code] = p.pawn;
                if let Some(lt) = &def.rules.lion_trading {
                    lion[code] = lt.lions.contains(&t);
                    bridge[code] = !lt.not_bridges.contains(&t);
                }
            }
        }
        let mut seed = 0x1234_5678_9ABC_DEF0u64;
        let z_piece = (0..ncodes * nsq).map(|_| splitmix(&mut seed)).collect();
        let z_side = splitmix(&mut seed);
        let z_castle = [splitmix(&mut seed), splitmix(&mut seed), splitmix(&mut seed), splitmix(&mut seed)];
        let z_ep = (0..nsq).map(|_| splitmix(&mut seed)).collect();
        let z_pocket = (0..ncodes * MAX_POCKET).map(|_| splitmix(&mut seed)).collect();
        let z_gate = [[0u64; crate::width::MAX_FILES as usize]; 2].map(|row| row.map(|_| splitmix(&mut seed)));
        let z_checks = [[0; 16]; 2].map(|row: [u64; 16]| row.map(|_| splitmix(&mut seed)));
        let royal_codes = [Color::White, Color::Black].map(|c| {
            (0..def.pieces.len()).filter(|&t| def.pieces[t].royal).map(|t| crate::compile::code_of(t, c)).collect()
        });
        let mut v = Variant {
            def,
            tables,
            royal,
            royal_codes,
            pawn,
            pawn_reversible: vec![false; ncodes],
            lion,
            bridge,
            contagious,
            contagion_immune,
            jumpers: jump_lines.iter().any(Option::is_some),
            burners: burns.contains(&true) || burns_passively.contains(&true),
            burns,
            burns_passively,
            jump_rank,
            jump_lines,
            locust_promotion,
            unloaders: unloads_foes.contains(&true) || unloads_friends.contains(&true),
            after_walk: false,
            unloads_foes,
            unloads_friends,
            z_piece,
            z_side,
            z_castle,
            z_ep,
            z_pocket,
            z_gate,
            z_checks,
            ep_sources: Vec::new(),
            start_board: vec![Code::EMPTY; nsq],
        };
        let mut ep_sources = vec![Vec::new(); 2 * nsq];
        for code in (2..ncodes).map(Code::new) {
            for virgin in [false, true] {
                for from in (0..nsq).map(crate::square::Square::new) {
                    for cell in v.tables.list(code, virgin, from).0 {
                        if cell.flags & crate::compile::EP != 0 {
                            let list: &mut Vec<_> = &mut ep_sources[code.color().index() * nsq + cell.to.index()];
                            if !list.contains(&from) {
                                list.push(from);
                            }
                        }
                    }
                }
            }
        }
        v.ep_sources = ep_sources;
        for code in (2..ncodes).map(Code::new) {
            if !v.pawn[code] {
                continue;
            }
            let quiet_back = |from: crate::square::Square, to: crate::square::Square| {
                crate::compile::plain_cells(v.tables.list(code, false, to).0)
                    .any(|c| c.to == from && c.flags & crate::compile::QUIET != 0)
            };
            v.pawn_reversible[code] = (0..nsq).map(crate::square::Square::new).any(|sq| {
                crate::compile::plain_cells(v.tables.list(code, false, sq).0)
                    .any(|c| c.flags & crate::compile::QUIET != 0 && quiet_back(sq, c.to))
            });
        }
        let board = crate::fen::parse_board_field(&v.def, &v.def.start_fen).map_err(BuildError::StartFen)?;
        v.start_board = board;
        v.after_walk = v.jumpers || v.locust_promotion || v.unloaders;
        Ok(v)
    }

    /// Reads and compiles a native (TOML) definition.
    pub fn from_toml(src: &str, file: &str) -> Result<Variant, BuildError> {
        Variant::new(VariantDef::from_toml(src, file)?)
    }

    /// The board.
    pub fn geometry(&self) -> Geometry {
        self.def.geometry
    }

    /// The variant's name.
    pub fn name(&self) -> &str {
        &self.def.name
    }
}
