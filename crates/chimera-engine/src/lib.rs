//! The Chimera engine: search and evaluation for any variant Chimera's core
//! can generate moves for, and the protocols that connect it to GUIs and
//! match runners.
//!
//! - [`eval`]: an evaluation derived from the variant's move tables alone;
//! - [`search`]: iterative deepening PVS with a lockless shared table
//!   ([`tt`]) and Lazy SMP threads;
//! - [`timeman`]: the time a move may take, from the clock;
//! - [`rules`]: repetition, perpetual check and the n-move rule;
//! - [`game`]: the state shared by the protocols, the search thread;
//! - [`uci`] (UCI, USI, UCCI) and [`xboard`] (CECP v2), with the notations in
//!   [`notation`]; [`protocol`] runs a session and detects the protocol;
//! - [`bench`]: a fixed search benchmark;
//! - [`files`]: reading the files a user names, within limits.
//!
//! ```
//! use std::sync::Arc;
//! use chimera::{builtin, position::Position};
//! use chimera_engine::{eval::EvalTables, search, tt::Tt};
//! let v = Arc::new(builtin::variant("chess").unwrap());
//! let ev = Arc::new(EvalTables::new(&v));
//! let pos = Position::from_fen(v, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let shared = Arc::new(search::Shared::new(Arc::new(Tt::new(1))));
//! let limits = search::Limits { depth: Some(3), ..Default::default() };
//! let r = search::search(&pos, &[], &ev, &shared, limits, 1, &mut |_| {});
//! assert_eq!(pos.move_text(r.best.unwrap()), "a1a8");
//! ```
#![warn(missing_docs)]

pub mod bench;
pub mod eval;
pub mod files;
pub mod game;
pub mod notation;
pub mod numbers;
pub mod params;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod see;
pub mod selfplay;
pub mod timeman;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod xboard;
