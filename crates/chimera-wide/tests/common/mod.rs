//! Helpers shared by the wide build's Tenjiku tests.

use chimera::variant::Variant;
use std::sync::Arc;

/// HaChu 0.21's moves for the four Tenjiku pieces it simplifies (the Fire
/// Demon, the Vice General, the Free Eagle and the Heavenly Tetrarchs), by
/// piece id, promoted forms included (variants/tenjikushogi.toml).
pub const HACHU_MOVES: [(&str, &str); 7] =
    [("d!", "BvR"), ("+w!", "BvR"), ("v!", "B"), ("+b!", "B"), ("q'", "Q"), ("+q", "Q"), ("+c!", "BvRsR2")];

/// The built-in Tenjiku definition with the pieces HaChu simplifies moving
/// as HaChu makes them move, and without passive burning (HaChu's is faulty:
/// docs/plans/tenjiku.md).
pub fn hachu_flavour() -> Arc<Variant> {
    let mut text = chimera::builtin::source("tenjikushogi").unwrap().replace("burns_passively = true\n", "");
    for (id, betza) in HACHU_MOVES {
        let key = format!("letter = \"{id}\"\nbetza = \"");
        let at = text.find(&key).unwrap_or_else(|| panic!("no piece {id}")) + key.len();
        let end = at + text[at..].find('"').unwrap();
        text.replace_range(at..end, betza);
    }
    Arc::new(Variant::from_toml(&text, "tenjiku-hachu.toml").unwrap())
}
