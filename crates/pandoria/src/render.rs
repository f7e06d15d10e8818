//! A text picture of a position for people: the map in the data file's odd-q rows, then
//! each player's public state. Debug output only; clients draw from views.

use std::fmt::Write as _;

use crate::actions::Action;
use crate::board::CellKind;
use crate::cards::CardId;
use crate::components::Resource;
use crate::events::Event;
use crate::hex::{Axial, Cell, Dir};
use crate::state::{Pandoria, NO_CARD};
use crate::turn::cards_of;
use engine::text::count;
use engine::Seat;

impl Pandoria {
    /// The map in the data file's odd-q grid, labelled with the columns and rows the
    /// actions name ("col 3 row 5"), five characters per cell, odd columns half a row
    /// lower: what lies on the cell (`F2` a forest hex with 2 symbols, lower case once its
    /// region is closed; `#0` a castle of seat 0; `~~` a lake; `S` a ship; `f>` a forest
    /// exit; `..` an empty cell), then the figure on it (`*0`, `L0` a leader), so that a
    /// castle and the figure on it both show. A legend follows the map.
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
        let mut header = String::from("        ");
        for col in 0..cols {
            let _ = write!(header, "{:<5}", format!("c{col}"));
        }
        let _ = writeln!(out, "{}", header.trim_end());
        for row in 0..rows {
            for half in 0..2i8 {
                let mut line = if half == 0 {
                    format!("row {row:<3} ")
                } else {
                    " ".repeat(8)
                };
                for col in 0..cols {
                    if (col & 1) != half {
                        line.push_str("     ");
                        continue;
                    }
                    let Some(cell) = board.cell_at(Axial::from_offset(col, row)) else {
                        line.push_str("     ");
                        continue;
                    };
                    let figure = self
                        .figure_at(cell)
                        .map_or(String::new(), |(seat, leader)| {
                            format!("{}{seat}", if leader { 'L' } else { '*' })
                        });
                    let _ = write!(line, "{:<5}", format!("{}{figure}", self.cell_text(cell)));
                }
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
        let _ = writeln!(out, "{}", map_legend());
        for (seat, p) in self.players[..usize::from(self.seats)].iter().enumerate() {
            let slots: Vec<String> = (0..p.slots.len())
                .map(|s| match (p.slots[s], p.monuments[s]) {
                    (_, m) if m > 0 => format!("{s}: monument {m}"),
                    (NO_CARD, _) => format!("{s}: -"),
                    (c, _) => format!("{s}: {:?}", rules.cards[usize::from(c)].building),
                })
                .collect();
            let _ = writeln!(
                out,
                "seat {seat} {:?}{}: {}, {} crystal, {} gold, {} wood; reserve {}{}, {}, {} in hand; buildings [{}]",
                p.realm,
                if p.side_b { " (B)" } else { " (A)" },
                count(p.score(), "point", "points"),
                p.resources[Resource::Crystal.index()],
                p.resources[Resource::Gold.index()],
                p.resources[Resource::Wood.index()],
                count(p.figures, "figure", "figures"),
                if p.leader_in_reserve { " + leader" } else { "" },
                count(p.castles, "castle", "castles"),
                count(p.hand_len() as i64, "card", "cards"),
                slots.join(", ")
            );
        }
        let _ = writeln!(out, "market (buy for the price in gold):");
        for (slot, &card) in self.market.iter().enumerate() {
            let _ = writeln!(out, "  {slot}) {}", self.card_costs(card));
        }
        let _ = writeln!(
            out,
            "turn {}, seat {} to play ({:?}); deck {}, double-tile stack {}, monuments {:?}",
            self.turns,
            self.current,
            self.phase,
            count(self.deck.len() as i64, "card", "cards"),
            count(self.double_stack.len() as i64, "tile", "tiles"),
            self.monuments.as_slice()
        );
        out
    }

    /// "Bank 2 / Conjure 8 (D17): price 4 gold; spell 3 crystal; building 2 wood": a card
    /// with what buying, casting and building it cost as printed (P-D1).
    pub fn card_costs(&self, card: CardId) -> String {
        match self.rules().cards.get(usize::from(card)) {
            Some(c) => format!(
                "{}: price {} gold; spell {} crystal; building {} wood",
                self.card_name(card),
                c.gold_price,
                c.crystal_cost,
                c.wood_cost
            ),
            None => "-".into(),
        }
    }

    /// A held double tile: its name and both halves' terrain and symbols.
    fn tile_words(&self, tile: u8) -> String {
        let halves = self
            .rules()
            .double_tiles
            .get(usize::from(tile))
            .map(|h| {
                h.iter()
                    .map(|hex| {
                        format!(
                            "{:?} {}",
                            hex.terrain,
                            count(hex.symbols, "symbol", "symbols")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" + ")
            })
            .unwrap_or_default();
        format!("{} ({halves})", self.tile_name(false, tile))
    }

    /// The public picture of [`Pandoria::render`] plus what only `seat` knows: its hand
    /// and its held tiles (terminal play).
    pub fn render_for(&self, seat: Option<Seat>) -> String {
        let mut out = self.render();
        if let Some((seat, p)) = seat.and_then(|s| Some((s, self.players.get(usize::from(s))?))) {
            let _ = writeln!(out, "your hand:");
            for card in cards_of(p.hand) {
                let _ = writeln!(
                    out,
                    "  {} (your spell cost: {} crystal)",
                    self.card_costs(card),
                    self.spell_cost(seat, card)
                );
            }
            let tiles: Vec<String> = p.tiles.iter().map(|&t| self.tile_words(t)).collect();
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
            Action::PlaceTile { .. } | Action::PlaceDrawn { .. } => {
                match self.describe_steps(action) {
                    Some((first, second)) => format!("{first} {second}"),
                    None => self.describe_placement_cell(action),
                }
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
            Action::SetResource { resource } => format!("set {}", resource.name()),
            Action::RageOn { at: c } => format!("rage on the figure at {}", place(c)),
            Action::DrawFrom { single } => {
                format!(
                    "draw from the {} stack",
                    if single { "single" } else { "double" }
                )
            }
            Action::Buy { market, pay: p } => format!("buy market card {market}{}", pay(p)),
            Action::Skip => "skip".into(),
            Action::Done => "done".into(),
        }
    }

    /// A double tile's placement in the two steps a terminal player picks it in: the cell
    /// of its first half, then the direction of the other (`Game::describe_action_steps`).
    /// `None` for every other action, a single tile included (it has no direction).
    pub fn describe_steps(&self, action: &Action) -> Option<(String, String)> {
        let (at, dir) = match *action {
            Action::PlaceTile { at, dir, .. } => (at, dir),
            Action::PlaceDrawn { at, dir }
                if matches!(
                    self.turn.pending,
                    crate::spells::Pending::TerrainPlace { single: false, .. }
                ) =>
            {
                (at, dir)
            }
            _ => return None,
        };
        let other = self
            .rules()
            .board
            .neighbour(at, dir)
            .map_or_else(|| "off the map".to_string(), |c| self.cell_name(c));
        Some((
            self.describe_placement_cell(action),
            format!(
                "towards d{dir} ({}, the other half on {other})",
                direction_name(dir)
            ),
        ))
    }

    /// "place tile D3 at col 3 row 5": a placement without its direction.
    fn describe_placement_cell(&self, action: &Action) -> String {
        match *action {
            Action::PlaceTile { tile, at, .. } => format!(
                "place tile {} at {}",
                self.tile_name(false, tile),
                self.cell_name(at)
            ),
            Action::PlaceDrawn { at, .. } => {
                format!("place the drawn tile at {}", self.cell_name(at))
            }
            _ => String::new(),
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
                "Seat {seat} earns {crystal} crystal, {gold} gold, {wood} wood and {} from the \
                 closed regions",
                count(points, "point", "points")
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
            } => format!(
                "Seat {seat} scores {} for {}",
                count(points, "point", "points"),
                reason.name()
            ),
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
                "Seat {seat} scores {} at the end ({} left over)",
                count(points, "point", "points"),
                count(leftovers, "resource", "resources")
            ),
            Event::GameOver => "The game is over".into(),
        }
    }

    /// The names of the cards of a hand set, for logs.
    pub fn card_names(&self, set: u64) -> Vec<String> {
        cards_of(set).map(|c| self.card_name(c)).collect()
    }
}

/// How to read the map, and the directions the placements name.
fn map_legend() -> String {
    let directions: Vec<String> = (0..6)
        .map(|d| format!("d{d} {}", direction_name(d)))
        .collect();
    format!(
        "legend: F forest, H hill, M mountain, C city, with the number of symbols (lower case: \
         the region is closed); #N castle of seat N; *N figure of seat N, LN its leader; ~~ lake; \
         S ship; f> h> m> c> exits; .. empty cell. Odd columns sit half a row lower; actions \
         name cells \"col C row R\".\ndirections: {}",
        directions.join(", ")
    )
}

/// The compass name of a direction on the drawn map (flat-top hexes, north up; P-G1).
pub fn direction_name(dir: Dir) -> &'static str {
    [
        "south-east",
        "north-east",
        "north",
        "north-west",
        "south-west",
        "south",
    ][usize::from(dir % 6)]
}

#[cfg(test)]
mod tests {
    use engine::Game;

    use super::direction_name;
    use crate::actions::Action;
    use crate::hex::Cell;
    use crate::state::{Pandoria, PandoriaConfig};

    /// The first cell where a castle may be placed now.
    fn first_castle_cell(g: &Pandoria) -> Cell {
        legal(g)
            .into_iter()
            .find_map(|a| match a {
                Action::PlaceCastle { at } => Some(at),
                _ => None,
            })
            .expect("a castle placement")
    }

    fn legal(g: &Pandoria) -> Vec<Action> {
        let mut out = Vec::new();
        g.legal_actions(&mut out);
        out
    }

    #[test]
    fn the_map_is_labelled_like_the_actions_and_has_a_legend() {
        // rule P-G1: cells are named "col C row R" in the odd-q grid of the data file.
        let g = Pandoria::new(&PandoriaConfig::default(), 3).expect("valid");
        let text = g.render_view(Some(0));
        let header = text.lines().next().expect("a header");
        assert!(header.trim_start().starts_with("c0   c1   c2"), "{header}");
        assert!(text.lines().any(|l| l.starts_with("row 0 ")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("row 9 ")), "{text}");
        assert!(text.contains("legend: F forest, H hill, M mountain, C city"));
        assert!(text.contains("#N castle of seat N; *N figure of seat N"));
        assert!(text.contains("directions: d0 south-east, d1 north-east, d2 north"));
        // A cell the actions name is where the labels put it.
        let at = first_castle_cell(&g);
        let (col, row) = g.rules().board.coord(at).to_offset();
        assert_eq!(g.cell_name(at), format!("col {col} row {row}"));
    }

    #[test]
    fn a_castle_and_the_figure_on_it_both_show() {
        // rule P-T1, P-T3a
        let mut g = Pandoria::new(&PandoriaConfig::default(), 3).expect("valid");
        let at = first_castle_cell(&g);
        g.apply(Action::PlaceCastle { at }, &mut engine::NoEvents)
            .expect("legal");
        let before = g.render_view(Some(1));
        assert!(
            before.contains("#0 ") || before.contains("#0\n"),
            "{before}"
        );
        let figure = Action::PlaceFigure { at, leader: false };
        g.apply(figure, &mut engine::NoEvents).expect("legal");
        let after = g.render_view(Some(1));
        assert!(after.contains("#0*0"), "{after}");
    }

    #[test]
    fn held_tiles_market_and_hand_show_terrains_symbols_prices_and_costs() {
        // rule P-D1, P-Z6
        let g = Pandoria::new(&PandoriaConfig::default(), 3).expect("valid");
        let text = g.render_view(Some(0));
        let tile = g.players[0].tiles[0];
        let [a, b] = g.rules().double_tiles[usize::from(tile)];
        let symbols = |n: u8| if n == 1 { "symbol" } else { "symbols" };
        assert!(
            text.contains(&format!(
                "{} ({:?} {} {} + {:?} {} {})",
                g.tile_name(false, tile),
                a.terrain,
                a.symbols,
                symbols(a.symbols),
                b.terrain,
                b.symbols,
                symbols(b.symbols)
            )),
            "{text}"
        );
        for (slot, &card) in g.market.iter().enumerate() {
            let c = &g.rules().cards[usize::from(card)];
            assert!(
                text.contains(&format!(
                    "  {slot}) {}: price {} gold; spell {} crystal; building {} wood",
                    g.card_name(card),
                    c.gold_price,
                    c.crystal_cost,
                    c.wood_cost
                )),
                "{text}"
            );
        }
        assert!(text.contains("(your spell cost: "), "{text}");
    }

    #[test]
    fn a_tile_placement_reads_as_a_cell_then_a_direction() {
        // rule P-T1: the engine's action stays atomic; only its words come in two steps.
        let g = Pandoria::new(&PandoriaConfig::default(), 3).expect("valid");
        let placements: Vec<Action> = legal(&g)
            .into_iter()
            .filter(|a| matches!(a, Action::PlaceTile { .. }))
            .collect();
        assert!(placements.len() > 20);
        for a in &placements {
            let Action::PlaceTile { at, dir, .. } = *a else {
                unreachable!()
            };
            let (first, second) = g.describe_steps(a).expect("two steps");
            assert_eq!(g.describe(a), format!("{first} {second}"));
            assert!(first.ends_with(&g.cell_name(at)), "{first}");
            let other = g.rules().board.neighbour(at, dir).expect("on the map");
            assert!(
                second.starts_with(&format!("towards d{dir} ({}", direction_name(dir)))
                    && second.ends_with(&format!("the other half on {})", g.cell_name(other))),
                "{second}"
            );
        }
        assert!(legal(&g)
            .iter()
            .filter(|a| !matches!(a, Action::PlaceTile { .. }))
            .all(|a| g.describe_steps(a).is_none()));
    }

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
