//! The contract's optional extension for learning code: a fixed action space and a flat
//! observation tensor per game and config.
//!
//! It lives as provided methods of [`crate::Game`] (`action_count`, `action_index`,
//! `action_at`, `observation_len`, `observe_into`) whose defaults
//! say "this game has no fixed spaces", rather than as a separate trait: every registered
//! game is an [`crate::ErasedGame`] of some `G: Game`, so [`crate::DynGame`] exposes the
//! spaces of every game with no second registry, no extra bound that a new game could
//! forget, and a typed `no_spaces` error for a game that does not implement them.
//!
//! The spaces depend on the config only (players, mode, component data), never on the
//! position: learning code sees one shape per config. Layouts are documented in
//! `docs/contract.md`, "Action space and observations".
//!
//! This module holds the helpers the games share to build their layouts: [`Features`],
//! a cursor that writes one-hot, scaled and flag features into the caller's buffer, and
//! [`relative_seat`], the seat-relative order learning code expects.

use crate::Seat;

/// `seat` counted from `observer` clockwise: the observer is 0, the next seat 1, …
pub fn relative_seat(seat: Seat, observer: Seat, seats: usize) -> usize {
    (usize::from(seat) + seats - usize::from(observer) % seats) % seats
}

/// The absolute seat that is `offset` seats clockwise of `observer`.
pub fn seat_at_offset(observer: Seat, offset: usize, seats: usize) -> Seat {
    ((usize::from(observer) + offset) % seats) as Seat
}

/// A cursor over an observation buffer: each call writes the next features. The buffer is
/// zeroed once when the cursor is made, so a one-hot writes a single value.
///
/// Writing past the end is ignored rather than a panic (a layout bug must not take down a
/// server); [`Features::written`] lets tests check that a layout fills the buffer exactly.
pub struct Features<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl<'a> Features<'a> {
    pub fn new(out: &'a mut [f32]) -> Self {
        out.fill(0.0);
        Self { out, at: 0 }
    }

    /// How many values were written (or skipped) so far.
    pub fn written(&self) -> usize {
        self.at
    }

    /// `len` values with a 1 at `index` (all zero for `None` or an index past `len`).
    pub fn one_hot(&mut self, index: Option<usize>, len: usize) {
        if let Some(i) = index.filter(|&i| i < len) {
            self.set(self.at + i, 1.0);
        }
        self.at += len;
    }

    /// `value / max`, clamped to [0, 1]: counts divided by their documented maximum.
    pub fn scaled(&mut self, value: f64, max: f64) {
        let v = if max > 0.0 {
            (value / max).clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.set(self.at, v as f32);
        self.at += 1;
    }

    /// 1 for `true`, 0 for `false`.
    pub fn flag(&mut self, on: bool) {
        self.set(self.at, if on { 1.0 } else { 0.0 });
        self.at += 1;
    }

    /// `len` flags, one per bit of `bits` from the lowest.
    pub fn bits(&mut self, bits: u64, len: usize) {
        for i in 0..len {
            self.flag(bits >> i & 1 == 1);
        }
    }

    /// `len` counts, one per kind: each item adds `1 / max` to its kind's value (clamped
    /// to 1); items outside `0..len` are ignored. Counts cards by kind with no buffer.
    pub fn counts(&mut self, items: impl IntoIterator<Item = usize>, len: usize, max: f64) {
        let step = if max > 0.0 { (1.0 / max) as f32 } else { 0.0 };
        for kind in items.into_iter().filter(|&k| k < len) {
            if let Some(slot) = self.out.get_mut(self.at + kind) {
                *slot = (*slot + step).min(1.0);
            }
        }
        self.at += len;
    }

    /// Leaves `len` values at zero (a slot with nothing in it).
    pub fn skip(&mut self, len: usize) {
        self.at += len;
    }

    fn set(&mut self, index: usize, value: f32) {
        if let Some(slot) = self.out.get_mut(index) {
            *slot = value;
        }
    }
}

/// A fixed action space laid out as consecutive blocks, one per kind of action, each a
/// product of small ranges: `offset(block) + mixed-radix(fields)`. Games declare their
/// blocks once and encode and decode through them, so index and action cannot drift.
#[derive(Debug, Clone, Copy)]
pub struct Block {
    /// First index of the block.
    pub offset: usize,
    /// Number of indices in the block.
    pub len: usize,
}

impl Block {
    /// The blocks of `sizes`, laid out one after the other from 0; returns them with the
    /// total.
    pub const fn layout<const N: usize>(sizes: [usize; N]) -> ([Block; N], usize) {
        let mut blocks = [Block { offset: 0, len: 0 }; N];
        let mut at = 0;
        let mut i = 0;
        while i < N {
            blocks[i] = Block {
                offset: at,
                len: sizes[i],
            };
            at += sizes[i];
            i += 1;
        }
        (blocks, at)
    }

    /// Which of `blocks` holds `index`, and the index within it.
    pub fn locate(blocks: &[Block], index: usize) -> Option<(usize, usize)> {
        blocks
            .iter()
            .enumerate()
            .find_map(|(b, block)| block.local(index).map(|local| (b, local)))
    }

    /// The index within the block, if `index` lies in it.
    pub fn local(self, index: usize) -> Option<usize> {
        index
            .checked_sub(self.offset)
            .filter(|&local| local < self.len)
    }

    /// The index of `local` within the block; `None` when it lies outside.
    pub fn at(self, local: usize) -> Option<usize> {
        (local < self.len).then_some(self.offset + local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_seats_put_the_observer_first_and_go_clockwise() {
        assert_eq!(relative_seat(2, 2, 4), 0);
        assert_eq!(relative_seat(3, 2, 4), 1);
        assert_eq!(relative_seat(0, 2, 4), 2);
        assert_eq!(relative_seat(1, 2, 4), 3);
        for observer in 0..5u8 {
            for offset in 0..5 {
                let seat = seat_at_offset(observer, offset, 5);
                assert_eq!(relative_seat(seat, observer, 5), offset);
            }
        }
    }

    #[test]
    fn features_write_in_order_and_zero_the_rest() {
        let mut buf = [7.0f32; 9];
        let mut f = Features::new(&mut buf);
        f.one_hot(Some(1), 3);
        f.scaled(3.0, 6.0);
        f.flag(true);
        f.one_hot(None, 2);
        f.bits(0b10, 2);
        assert_eq!(f.written(), 9);
        assert_eq!(buf, [0.0, 1.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0]);
        let mut counts = [0.0f32; 3];
        let mut f = Features::new(&mut counts);
        f.counts([2, 0, 2, 2, 9], 3, 2.0);
        assert_eq!(counts, [0.5, 0.0, 1.0]);
        // Past the end is ignored, not a panic.
        let mut short = [0.0f32; 1];
        let mut f = Features::new(&mut short);
        f.one_hot(Some(2), 3);
        f.scaled(99.0, 6.0);
        assert_eq!(f.written(), 4);
        assert_eq!(short, [0.0]);
    }

    #[test]
    fn blocks_tile_the_space() {
        let (blocks, total) = Block::layout([3, 1, 4]);
        assert_eq!(total, 8);
        assert_eq!(blocks[2].offset, 4);
        assert_eq!(blocks[1].local(3), Some(0));
        assert_eq!(blocks[1].local(4), None);
        assert_eq!(blocks[0].at(3), None);
        assert_eq!(blocks[2].at(3), Some(7));
        assert_eq!(Block::locate(&blocks, 3), Some((1, 0)));
        assert_eq!(Block::locate(&blocks, 7), Some((2, 3)));
        assert_eq!(Block::locate(&blocks, 8), None);
    }
}
