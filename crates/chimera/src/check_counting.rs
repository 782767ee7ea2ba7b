//! Check counting (three-check, five-check), a rule component: each side
//! has a number of checks to give, and giving the last one wins. The counts
//! live in [`Position`] (`checks_left`); this module has its hooks: make
//! counts a check, the hash keys the counts, the FEN writes them after the
//! e.p. field (`3+3`, read by [`crate::fen::Setup::parse`]), and the game
//! ends when a side has none left.

use crate::position::Position;
use crate::square::Color;

impl Position {
    /// With check counting, the checks `c` still has to give to win.
    pub fn checks_left(&self, c: Color) -> u8 {
        self.checks_left[c.index()]
    }

    /// With check counting: the side that has given all its checks (and won).
    pub fn checks_given(&self) -> Option<Color> {
        self.variant().def.rules.checks?;
        [Color::White, Color::Black].into_iter().find(|&c| self.checks_left[c.index()] == 0)
    }

    /// Make's hook, after the side to move has changed: if the side that
    /// moved gave check, it has one check fewer to give. Returns the change
    /// of the hash.
    pub(crate) fn count_check(&mut self) -> u64 {
        let mover = self.side.flip();
        if self.checks_left[mover.index()] == 0 || !self.royal_attacked(self.side) {
            return 0;
        }
        let k = &self.variant.z_checks[mover.index()];
        let n = self.checks_left[mover.index()] as usize;
        self.checks_left[mover.index()] -= 1;
        k[n & 15] ^ k[(n - 1) & 15]
    }

    /// The hash keys of both sides' counts.
    pub(crate) fn checks_left_hash(&self) -> u64 {
        let z = &self.variant.z_checks;
        z[0][self.checks_left[0] as usize & 15] ^ z[1][self.checks_left[1] as usize & 15]
    }

    /// Writes the counts as the FEN's check field does: ` W+B`.
    pub(crate) fn write_checks_left(&self, s: &mut String) {
        s.push_str(&format!(" {}+{}", self.checks_left[0], self.checks_left[1]));
    }
}
