//! The `chimera` command: legal moves, perft and board display for any variant.
//!
//! Output contract (scripts depend on it):
//! - `moves` prints one legal move per line in Fairy-Stockfish's UCI notation;
//! - `perft` prints `move: count` lines and, as the last line of stdout,
//!   `Nodes searched: N`;
//! - an error is one line on stderr starting with `error: `, and the exit
//!   status is 2;
//! - `bench` prints one line per position and, last, `Nodes searched: N` and
//!   `Nodes/second: N`;
//! - `result` prints one line: `*` while the game goes on, else the result
//!   (`1-0`, `0-1`, `1/2-1/2`) and why, as a match referee needs it.
//!
//! `uci`, `xboard`, `usi` and `ucci` run the engine in that protocol on
//! stdin/stdout; `engine`, or no command at all with input that is not a
//! terminal, detects the protocol from the first command.
//!
//! The commands are compiled twice ([`narrow`], [`wide`]): a variant whose
//! board fits in 255 squares runs on one-byte squares, a larger one (up to
//! 36×36) on two-byte squares, chosen from the definition before the
//! command runs.
// the two instances include the same commands.rs on purpose
#![allow(clippy::duplicate_mod)]

mod narrow;
mod wide;

use narrow::commands::Failure;
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

/// Runs one command in the instance that can hold its variant: `variants`
/// (which lists them all), `--wide`, and a variant the narrow build cannot
/// read go to [`wide`] (which also names the problem of a definition neither
/// reads, with the real limits), everything else to [`narrow`].
fn run(args: &[String]) -> Result<(), Failure> {
    let listing = args.first().is_some_and(|c| c == "variants");
    let asked = args.iter().any(|a| a == "--wide");
    if listing || asked || !narrow::commands::reads_variant(args) {
        return wide::commands::run(args).map_err(from_wide);
    }
    let mut r = narrow::commands::run(args);
    // a protocol session chose a variant of more than 255 squares: it goes
    // on in the wide build, and back in the narrow one when it chooses a
    // small built-in variant again, as often as it changes
    while let Err(Failure::Wider(p)) = r {
        let p = wide::commands::Passed { protocol: p.protocol, files: p.files, setup: p.setup, line: p.line };
        r = match wide::commands::resume(p) {
            Err(wide::commands::Failure::Narrower(p)) => {
                let p = narrow::commands::Passed { protocol: p.protocol, files: p.files, setup: p.setup, line: p.line };
                narrow::commands::resume(p)
            }
            other => other.map_err(from_wide),
        };
    }
    r
}

/// The wide build's failure as the narrow one's type.
fn from_wide(e: wide::commands::Failure) -> Failure {
    match e {
        wide::commands::Failure::Usage(s) => Failure::Usage(s),
        wide::commands::Failure::BrokenPipe => Failure::BrokenPipe,
        // the wide build holds every variant: it never passes a session on that way
        wide::commands::Failure::Wider(_) => Failure::Usage("a session passed on twice".into()),
        wide::commands::Failure::Narrower(_) => Failure::Usage("a session passed back outside a hand-over".into()),
    }
}

/// Turns the process arguments into strings, rejecting ones that are not UTF-8.
fn utf8_args(args: impl Iterator<Item = OsString>) -> Result<Vec<String>, String> {
    args.map(|a| a.into_string().map_err(|a| format!("argument {a:?} is not valid UTF-8"))).collect()
}

fn main() -> ExitCode {
    let result = utf8_args(std::env::args_os().skip(1)).map_err(Failure::from).and_then(|args| run(&args));
    match result {
        Ok(()) | Err(Failure::BrokenPipe) | Err(Failure::Wider(_)) | Err(Failure::Narrower(_)) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => {
            let _ = writeln!(io::stderr(), "error: {e}");
            ExitCode::from(2)
        }
    }
}
