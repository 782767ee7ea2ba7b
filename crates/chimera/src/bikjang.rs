//! Bikjang (Janggi), a rule component: when the two generals face each
//! other on a file or rank with nothing between, the side to move may leave
//! them so (a pass is always allowed then, even in check), and if they
//! still face each other after the reply the game ends (a draw, or scored
//! by material in some rule sets: [`crate::counting`]). The state is one
//! flag in [`Position`] (`prev_facing`), set by make's hook and restored
//! by unmake; positions with facing royals are left to the reference
//! legality test. The flying-general rule of Xiangqi reads the same test
//! ([`Position::royals_face`]) as an attack.

use crate::position::Position;
use crate::square::Color;

impl Position {
    /// True if a royal piece of `c` sees an enemy royal along its file or rank with nothing between.
    pub fn royals_face(&self, c: Color) -> bool {
        let g = self.geometry();
        let royal = &self.variant().royal;
        // the royals still to find (the scan stops after the last)
        let mut left: u32 = self.variant().royal_codes[c.index()].iter().map(|&k| self.count(k) as u32).sum();
        for &sq in self.pieces(c) {
            if left == 0 {
                break;
            }
            if !royal[self.board[sq]] {
                continue;
            }
            left -= 1;
            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let (mut f, mut r) = (g.file_of(sq) + df, g.rank_of(sq) + dr);
                while let Some(s) = g.square(f, r) {
                    let code = self.board[s];
                    if !code.is_empty() {
                        if code.color() != c && royal[code] {
                            return true;
                        }
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        false
    }

    /// Whether bikjang applies to the side to move now: the variant has the
    /// rule and the royals face each other.
    #[inline]
    pub(crate) fn bikjang_now(&self) -> bool {
        self.variant().def.rules.bikjang && self.royals_face(self.side)
    }

    /// Whether the game has ended by bikjang: the royals faced each other
    /// before the last move and still do.
    #[inline]
    pub(crate) fn bikjang_twice(&self) -> bool {
        self.variant().def.rules.bikjang && self.prev_facing && self.royals_face(self.side)
    }

    /// Make's hook, before the move is played: whether the royals face each
    /// other in the position the move leaves.
    #[inline]
    pub(crate) fn note_facing(&mut self) {
        self.prev_facing = self.royals_face(self.side);
    }
}
