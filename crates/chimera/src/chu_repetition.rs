//! Chu Shogi's repetition rule (`[rules] repetition = "repeater_loses"`).
//!
//! In Chu Shogi a move may not bring back a position that stood before with
//! the same side to move: the side that makes such a move loses. A side that
//! was in check before its move may repeat; the checking side then has to
//! vary, so that a perpetual check loses for the checker. This is the rule of
//! H. G. Muller's Chu Shogi pages and of the descriptions of the Japanese
//! association's rules; HaChu 0.21 (option "Allow repeats" off) refuses every
//! repeating move at the root, also one made out of check.
//!
//! Positions before the last irreversible move (a capture, a promotion, a
//! Pawn or Lance move) cannot come back, so only the reversible window is
//! searched. The function works on the hashes a game keeps; the game-end
//! code calls it after each move.

/// Whether the last move of a game repeated a position and so loses for the
/// side that made it.
///
/// - `hashes`: the hash of every position of the game, oldest first; the last
///   one is the position after the move.
/// - `reversible`: plies since the last irreversible move (the last position
///   counts 0); positions further back are not compared.
/// - `mover_was_in_check`: whether the side that made the last move was in
///   check before it (then the repetition is allowed).
///
/// ```
/// use chimera::chu_repetition::repeater_loses;
/// // positions A B C D A: the last move brought A back with the same side to move
/// assert!(repeater_loses(&[1, 2, 3, 4, 1], 4, false));
/// assert!(!repeater_loses(&[1, 2, 3, 4, 1], 4, true)); // made out of check
/// assert!(!repeater_loses(&[1, 2, 3, 4, 1], 3, false)); // A was before an irreversible move
/// assert!(!repeater_loses(&[1, 2, 3, 1], 3, false)); // the other side was to move in A
/// ```
pub fn repeater_loses(hashes: &[u64], reversible: usize, mover_was_in_check: bool) -> bool {
    if mover_was_in_check {
        return false;
    }
    let Some((&now, before)) = hashes.split_last() else { return false };
    let window = reversible.min(before.len());
    // the same side is to move 2, 4, ... plies back
    (2..=window).step_by(2).any(|back| before[before.len() - back] == now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_positions_with_the_same_side_to_move_count() {
        // 1 ply back: the other side was to move there
        assert!(!repeater_loses(&[7, 7], 1, false));
        // 2 plies back: a pass and a pass back
        assert!(repeater_loses(&[7, 8, 7], 2, false));
        // 3 plies back: the other side to move
        assert!(!repeater_loses(&[7, 1, 2, 7], 3, false));
        assert!(repeater_loses(&[7, 1, 2, 3, 4, 5, 7], 6, false));
    }

    #[test]
    fn the_window_and_check_exempt() {
        assert!(!repeater_loses(&[7, 1, 2, 3, 7], 3, false));
        assert!(repeater_loses(&[7, 1, 2, 3, 7], 4, false));
        assert!(repeater_loses(&[7, 1, 2, 3, 7], 400, false));
        assert!(!repeater_loses(&[7, 1, 2, 3, 7], 4, true));
        assert!(!repeater_loses(&[], 4, false));
        assert!(!repeater_loses(&[7], 4, false));
    }
}
