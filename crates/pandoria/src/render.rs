//! A text picture of a position for people: the map in the data file's odd-q rows, then
//! each player's public state. Debug output only; clients draw from views.

use std::fmt::Write as _;

use crate::actions::Action;
use crate::board::CellKind;
use crate::cards::CardId;
use crate::components::Resource;
use crate::events::Event;
use crate::hex::{Axial, Cell};
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
            let tiles: Vec<&str> = p.tiles.iter().map(|&t| self.tile_name(false, t)).collect();
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
        let place = |c: Cell| self.cell_name(c);
        let pay = |p: Option<Resource>| match p {
            Some(r) => format!(" (Market pays with {})", r.name()),
            None => String::new(),
        };
        match *action {
            Action::PlaceTile { tile, at: c, dir } => format!(
                "place tile {} at {} towards d{dir}",
                self.tile_name(false, tile),
                place(c)
            ),
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
            Action::SetResource { resource } => format!("set {}", resource.name()),
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

    /// "col 3 row 5": a cell as the data file's odd-q rows place it.
    pub fn cell_name(&self, cell: Cell) -> String {
        let board = &self.rules().board;
        if board.contains(cell) {
            let (col, row) = board.coord(cell).to_offset();
            format!("col {col} row {row}")
        } else {
            format!("cell {cell}")
        }
    }

    /// The data file's name of a single or a double tile.
    pub fn tile_name(&self, single: bool, tile: u8) -> &str {
        let rules = self.rules();
        let names = if single {
            &rules.single_tile_names
        } else {
            &rules.double_tile_names
        };
        names.get(usize::from(tile)).map_or("", String::as_str)
    }

    /// An event as one sentence for logs and terminal play. It reads only the event and
    /// the rules data (names), never the state, so it tells nothing the event does not
    /// carry (draws stay anonymous, P-Z6).
    pub fn describe_event(&self, event: &Event) -> String {
        let place = |c: Cell| self.cell_name(c);
        let figure = |leader: bool| if leader { "leader" } else { "figure" };
        match *event {
            Event::TurnBegan { seat, turn } => format!("Seat {seat} begins turn {turn}"),
            Event::TilePlaced {
                seat,
                tile,
                at,
                dir,
            } => format!(
                "Seat {seat} places tile {} at {} towards d{dir}",
                self.tile_name(false, tile),
                place(at)
            ),
            Event::CastlePlaced { seat, at } => {
                format!("Seat {seat} places a castle at {}", place(at))
            }
            Event::PlacementImpossible { seat } => {
                format!("Seat {seat} has nowhere to place and skips placing")
            }
            Event::RegionClosed { root } => {
                format!("The region at {} is closed", place(root))
            }
            Event::FigureReturned { seat, at, leader } => format!(
                "Seat {seat}'s {} at {} returns to their reserve",
                figure(leader),
                place(at)
            ),
            Event::FigurePlaced { seat, at, leader } => {
                format!("Seat {seat} puts their {} at {}", figure(leader), place(at))
            }
            Event::FigureMoved { seat, from, to } => format!(
                "Seat {seat} moves the figure at {} to {}",
                place(from),
                place(to)
            ),
            Event::FigureRemoved { seat, at, leader } => format!(
                "Seat {seat}'s {} at {} is removed from the map",
                figure(leader),
                place(at)
            ),
            Event::SpellCast { seat, card, cost } => {
                format!("Seat {seat} casts {} (cost {cost})", self.card_name(card))
            }
            Event::SpellAdopted { seat, from, card } => format!(
                "Seat {seat} adopts seat {from}'s last spell, {}",
                self.card_name(card)
            ),
            Event::CardTaken { seat, card, market } => format!(
                "Seat {seat} takes {} from market slot {market}",
                self.card_name(card)
            ),
            Event::ResourceSet {
                seat,
                resource,
                value,
            } => format!("Seat {seat} sets {} to {value}", resource.name()),
            Event::RageOn { seat, at, weight } => format!(
                "Seat {seat}'s figure at {} rages and counts {weight} in this turn's scoring",
                place(at)
            ),
            Event::TerrainDrawn { seat, single, tile } => format!(
                "Seat {seat} draws tile {} from the {} stack",
                self.tile_name(single, tile),
                if single { "single" } else { "double" }
            ),
            Event::BuildingBuilt {
                seat,
                card,
                slot,
                cost,
            } => format!(
                "Seat {seat} builds {} in slot {slot} (cost {cost})",
                self.card_name(card)
            ),
            Event::MonumentBuilt {
                seat,
                slot,
                value,
                cost,
            } => format!("Seat {seat} raises a monument of {value} on slot {slot} (cost {cost})"),
            Event::RegionScored {
                seat,
                crystal,
                gold,
                wood,
                points,
            } => format!(
                "Seat {seat} earns {crystal} crystal, {gold} gold, {wood} wood and {points} \
                 points from the closed regions"
            ),
            Event::ResourceChanged {
                seat,
                resource,
                value,
            } => format!("Seat {seat} now has {value} {}", resource.name()),
            Event::PointsGained {
                seat,
                points,
                reason,
            } => format!("Seat {seat} scores {points} points for {}", reason.name()),
            Event::CardBought {
                seat,
                card,
                market,
                cost,
            } => format!(
                "Seat {seat} buys {} from market slot {market} (cost {cost})",
                self.card_name(card)
            ),
            Event::MarketRefilled { market, card } => {
                format!("{} fills market slot {market}", self.card_name(card))
            }
            Event::TileDrawn { seat } => format!("Seat {seat} draws a tile"),
            Event::EndTriggered { seat } => {
                format!("Seat {seat} triggers the end of the game")
            }
            Event::FinalScored {
                seat,
                points,
                leftovers,
            } => format!(
                "Seat {seat} scores {points} points at the end ({leftovers} resources left over)"
            ),
            Event::GameOver => "The game is over".into(),
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
