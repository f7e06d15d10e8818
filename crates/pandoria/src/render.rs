//! A text picture of a position for people: the map in the data file's odd-q rows, then
//! each player's public state. Debug output only; clients draw from views.

use std::fmt::Write as _;

use crate::actions::Action;
use crate::board::CellKind;
use crate::cards::CardId;
use crate::components::Resource;
use crate::hex::Axial;
use crate::state::{Pandoria, NO_CARD};
use crate::turn::cards_of;
use engine::Seat;

impl Pandoria {
    /// The map, three characters per cell, odd columns shifted half a row down:
    /// `F2` a forest hex with 2 symbols (lower case once closed), `#0` a castle of seat 0,
    /// `~~` a lake, `S ` a ship, `f>` a forest exit, `..` an empty field cell; a figure
    /// shows as `*` (or `L` for a leader) followed by its seat instead.
    pub fn render(&self) -> String {
        let rules = self.rules();
        let board = &rules.board;
        let mut out = String::new();
        let rows = rules.map_rows.len() as i8;
        let cols = rules
            .map_rows
            .iter()
            .map(|r| r.chars().count())
            .max()
            .unwrap_or(0) as i8;
        for row in 0..rows {
            for half in 0..2i8 {
                let mut line = String::new();
                for col in 0..cols {
                    if (col & 1) != half {
                        line.push_str("   ");
                        continue;
                    }
                    let Some(cell) = board.cell_at(Axial::from_offset(col, row)) else {
                        line.push_str("   ");
                        continue;
                    };
                    let text = match self.figure_at(cell) {
                        Some((seat, leader)) => format!("{}{seat}", if leader { 'L' } else { '*' }),
                        None => self.cell_text(cell),
                    };
                    let _ = write!(line, "{text:<3}");
                }
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
        for (seat, p) in self.players[..usize::from(self.seats)].iter().enumerate() {
            let slots: Vec<String> = (0..p.slots.len())
                .map(|s| match (p.slots[s], p.monuments[s]) {
                    (_, m) if m > 0 => format!("monument {m}"),
                    (NO_CARD, _) => "-".into(),
                    (c, _) => format!("{:?}", rules.cards[usize::from(c)].building),
                })
                .collect();
            let _ = writeln!(
                out,
                "seat {seat} {:?}{}: {} points, crystal {} gold {} wood {}, reserve {} figures{}, {} castles, {} cards, buildings [{}]",
                p.realm,
                if p.side_b { " (B)" } else { " (A)" },
                p.score(),
                p.resources[Resource::Crystal.index()],
                p.resources[Resource::Gold.index()],
                p.resources[Resource::Wood.index()],
                p.figures,
                if p.leader_in_reserve { " + leader" } else { "" },
                p.castles,
                p.hand_len(),
                slots.join(", ")
            );
        }
        let market: Vec<String> = self.market.iter().map(|&c| self.card_name(c)).collect();
        let _ = writeln!(
            out,
            "turn {} seat {} {:?}; market [{}]; deck {}, double stack {}, monuments {:?}",
            self.turns,
            self.current,
            self.phase,
            market.join(", "),
            self.deck.len(),
            self.double_stack.len(),
            self.monuments.as_slice()
        );
        out
    }

    /// The public picture of [`Pandoria::render`] plus what only `seat` knows: its hand
    /// and its held tiles (terminal play).
    pub fn render_for(&self, seat: Option<Seat>) -> String {
        let mut out = self.render();
        if let Some(p) = seat.and_then(|s| self.players.get(usize::from(s))) {
            let tiles: Vec<String> = p
                .tiles
                .iter()
                .map(|&t| {
                    let names = &self.rules().double_tile_names;
                    names.get(usize::from(t)).cloned().unwrap_or_default()
                })
                .collect();
            let _ = writeln!(out, "your hand: [{}]", self.card_names(p.hand).join("; "));
            let _ = writeln!(out, "your tiles: [{}]", tiles.join(", "));
        }
        out
    }

    fn cell_text(&self, cell: u8) -> String {
        let board = &self.rules().board;
        if let Some(hex) = self.map.land(cell) {
            let mut letter = hex.terrain.letter();
            if self.map.in_closed_region(cell) {
                letter = letter.to_ascii_lowercase();
            }
            return format!("{letter}{}", hex.symbols);
        }
        if let Some(owner) = self.map.castle(cell) {
            return format!("#{owner}");
        }
        match board.kind(cell) {
            CellKind::Lake => "~~".into(),
            CellKind::Ship => "S".into(),
            CellKind::Exit(t) => format!("{}>", t.letter().to_ascii_lowercase()),
            _ => "..".into(),
        }
    }

    /// "Bank 2 / Conjure 8 (D17)": a card in words.
    pub fn card_name(&self, card: CardId) -> String {
        let rules = self.rules();
        match rules.cards.get(usize::from(card)) {
            Some(c) => format!(
                "{:?} {} / {:?} {} ({})",
                c.spell,
                c.spell_value,
                c.building,
                c.building_value,
                rules.card_names[usize::from(card)]
            ),
            None => "-".into(),
        }
    }

    /// English for the CLI and logs (never for game logic).
    pub fn describe(&self, action: &Action) -> String {
        let at = |c: u8| {
            let (col, row) = self.rules().board.coord(c).to_offset();
            format!("col {col} row {row}")
        };
        let on_board = |c: u8| self.rules().board.contains(c);
        let place = |c: u8| {
            if on_board(c) {
                at(c)
            } else {
                format!("cell {c}")
            }
        };
        let pay = |p: Option<Resource>| match p {
            Some(r) => format!(" (Market pays with {r:?})"),
            None => String::new(),
        };
        match *action {
            Action::PlaceTile { tile, at: c, dir } => {
                let name = self
                    .rules()
                    .double_tile_names
                    .get(usize::from(tile))
                    .cloned()
                    .unwrap_or_default();
                format!("place tile {name} at {} towards d{dir}", place(c))
            }
            Action::PlaceCastle { at: c } => format!("place a castle at {}", place(c)),
            Action::PlaceFigure { at: c, leader } => format!(
                "put {} at {}",
                if leader { "the leader" } else { "a figure" },
                place(c)
            ),
            Action::RemoveFigure { at: c } => format!("take back the figure at {}", place(c)),
            Action::CastSpell { card, pay: p } => {
                format!("cast {}{}", self.card_name(card), pay(p))
            }
            Action::Build { card, slot, pay: p } => {
                format!("build {} in slot {slot}{}", self.card_name(card), pay(p))
            }
            Action::Monument { slot, pay: p } => {
                format!("raise a monument on slot {slot}{}", pay(p))
            }
            Action::MoveFigure { from, to } => format!("move {} to {}", place(from), place(to)),
            Action::TakeCard { market } => format!("take market card {market}"),
            Action::AdoptFrom { seat } => format!("adopt seat {seat}'s last spell"),
            Action::SetResource { resource } => format!("set {resource:?}"),
            Action::RageOn { at: c } => format!("rage on the figure at {}", place(c)),
            Action::DrawFrom { single } => {
                format!(
                    "draw from the {} stack",
                    if single { "single" } else { "double" }
                )
            }
            Action::PlaceDrawn { at: c, dir } => {
                format!("place the drawn tile at {} d{dir}", place(c))
            }
            Action::Buy { market, pay: p } => format!("buy market card {market}{}", pay(p)),
            Action::Skip => "skip".into(),
            Action::Done => "done".into(),
        }
    }

    /// The names of the cards of a hand set, for logs.
    pub fn card_names(&self, set: u64) -> Vec<String> {
        cards_of(set).map(|c| self.card_name(c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use engine::Game;

    use crate::state::{Pandoria, PandoriaConfig};

    #[test]
    fn a_seat_sees_its_own_hand_and_tiles_and_nobody_else_does() {
        // rule P-Z6: hands and held tiles are private.
        let g = Pandoria::new(&PandoriaConfig::default(), 3).expect("valid");
        let mine = g.render_view(Some(0));
        let hand = g.card_names(g.players[0].hand);
        assert!(!hand.is_empty());
        assert!(
            hand.iter().all(|card| mine.contains(card.as_str())),
            "{mine}"
        );
        assert!(mine.contains("your tiles: [D"), "{mine}");
        let theirs = g.render_view(Some(1));
        assert!(
            hand.iter().all(|card| !theirs.contains(card.as_str())),
            "{theirs}"
        );
        let spectator = g.render_view(None);
        assert!(!spectator.contains("your hand"), "{spectator}");
        assert_eq!(spectator, g.render());
    }
}
