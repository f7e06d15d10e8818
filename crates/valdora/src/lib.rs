//! Valdora (Michael Schacht, Abacusspiele 2009), rules-exact, on the tabletop Game
//! contract. Rules: `shared/rules/valdora.md` (ids V-*); data: `data/valdora.toml`.
//!
//! ```
//! use engine::{playout::random_action, rng_from_seed, Game, NoEvents};
//! use valdora::{Valdora, ValdoraConfig};
//!
//! let mut game = Valdora::new(&ValdoraConfig::default(), 7).unwrap();
//! let mut rng = rng_from_seed(7);
//! let mut legal = Vec::new();
//! // Uniformly random play; always choosing the first action could pass forever.
//! while let Some(action) = random_action(&game, &mut rng, &mut legal) {
//!     game.apply(action, &mut NoEvents).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! ```

#![forbid(unsafe_code)]

pub mod actions;
pub mod board;
pub mod books;
pub mod components;
pub mod data;
mod encoding;
mod evaluation;
pub mod events;
mod explain;
mod fault;
mod legal;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use actions::{Action, Items};
pub use components::{Color, Gem, Item, Side};
pub use data::Rules;
pub use events::Event;
pub use state::{Ending, Phase, Valdora, ValdoraConfig};
pub use view::View;

use engine::{ConfigOption, EventSink, Game, Outcome, Refusal, Rng, Seat, SetupError};

use components::Face;

/// Turns after which the bots take a game for stalled ([`Game::STALLED_AFTER_TURNS`]):
/// about three times the longest game the levels' tables played to the end by the rules
/// in 1,300 games (3 to 5 `easy`, 3 and 5 `medium`: at most 340 turns, medians 180-250;
/// docs/bots.md, "Levels that end games").
const STALLED_AFTER_TURNS: u32 = 1_000;
use view::Built;

impl Game for Valdora {
    const RULES: &'static [&'static str] = rules::RULES;

    fn rule_of(&self, action: &Self::Action) -> &'static str {
        explain::rule_of(self, action)
    }

    fn explain(&self, seat: Seat, action: &Self::Action) -> Option<Refusal> {
        explain::explain(self, seat, action)
    }

    type Config = ValdoraConfig;
    type Action = Action;
    type View = View;
    type Event = Event;

    const NAME: &'static str = "valdora";

    // V-E3.
    const TIEBREAKS: &'static [&'static str] = &["coins (more wins)"];

    // All but `seat` and `own`, which holds the seat's completed commissions and score:
    // only that seat sees them (V-I1).
    const PUBLIC_VIEW_MEMBERS: &'static [&'static str] = &[
        "players",
        "start_player",
        "current",
        "to_move",
        "turn",
        "phase",
        "end_triggered",
        "spaces",
        "discard",
        "seats",
        "books",
        "craftsmen",
        "clockwise",
        "workshops",
        "bonus_tiles",
        "item_names",
        "provisional_data",
    ];

    fn new(config: &ValdoraConfig, seed: u64) -> Result<Self, SetupError> {
        Valdora::setup(config, seed)
    }

    fn load_data(config: &mut ValdoraConfig, text: &str) -> Result<(), SetupError> {
        config.rules = state::RulesRef::load(text).map_err(|e| SetupError::Data(e.to_string()))?;
        Ok(())
    }

    fn provisional_data(config: &ValdoraConfig) -> &[String] {
        &config.rules.provisional
    }

    fn config_options() -> Vec<ConfigOption> {
        vec![
            // V-C1.
            ConfigOption::players(state::MIN_PLAYERS, state::MAX_PLAYERS, 4),
            ConfigOption::flag(
                "random_start_player",
                "draw the start player at random instead of the first seat",
                false,
            ),
            // V-I1: hidden by default, as in the rulebooks.
            ConfigOption::flag(
                "open_scores",
                "show every seat's completed commissions and points during the game",
                false,
            ),
        ]
    }

    fn config(&self) -> &ValdoraConfig {
        &self.config
    }

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over => None,
            _ => Some(self.current),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.push_legal(out);
    }

    // One check instead of the default's whole list per question (`apply`, "why not?").
    fn is_legal(&self, action: &Action) -> bool {
        self.allows(action)
    }

    fn apply_unchecked(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        self.apply_action(action, events);
    }

    fn view(&self, seat: Option<Seat>) -> View {
        self.build_view(seat, Built::ALL)
    }

    fn own_view(&self, seat: Seat) -> View {
        self.build_view(Some(seat), Built::NONE)
    }

    fn spectator_view_after(&self, before: &Self, unchanged: &mut Vec<&'static str>) -> View {
        let built = Built::changed(before, self);
        built.push_left_out(unchanged);
        self.build_view(None, built)
    }

    fn determinize(&self, _seat: Option<Seat>, rng: &mut Rng) -> Self {
        self.resample(rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    // 4-player round robin of 2026-11-28, `hard` the raced rollout (docs/bots.md, "The
    // levels rated").
    const LEVEL_RATINGS: &'static [(&'static str, f64)] =
        &[("easy", 806.0), ("medium", 961.0), ("hard", 1152.0)];

    fn turns(&self) -> u32 {
        self.turn_number()
    }

    /// V-E1: only a completion can end the game, so seats behind can keep it from ending.
    /// See the constant for the lengths it was chosen from.
    const STALLED_AFTER_TURNS: Option<u32> = Some(STALLED_AFTER_TURNS);

    fn points_now(&self, seat: Seat) -> f64 {
        f64::from(self.score(seat).total())
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        self.evaluation(seat)
    }

    fn render_view(&self, seat: Option<Seat>) -> String {
        self.render(seat)
    }

    fn action_count(_config: &ValdoraConfig) -> Option<usize> {
        Some(encoding::ACTION_COUNT)
    }

    fn action_index(_config: &ValdoraConfig, action: &Action) -> Option<usize> {
        encoding::action_index(action)
    }

    fn action_at(_config: &ValdoraConfig, index: usize) -> Option<Action> {
        encoding::action_at(index)
    }

    fn observation_len(config: &ValdoraConfig) -> Option<usize> {
        Some(encoding::observation_len(config))
    }

    fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        self.encode_observation(seat, out);
    }

    /// V-I1: another seat's completed commission is hidden under its adventurer card; the
    /// others are told that one was completed, not which one nor its points.
    fn event_seen_by(&self, event: &Event, viewer: Option<Seat>) -> Option<Event> {
        match *event {
            Event::CommissionCompleted { seat, .. }
                if viewer != Some(seat) && !self.scores_shown() =>
            {
                Some(Event::CommissionCompletedHidden { seat })
            }
            _ => None,
        }
    }

    /// Undo barriers: a page turn or purchase that shows a book face no one has seen
    /// (V-I2), and the end, which shows every completed commission and score (V-I1,
    /// V-E1). Everything else is public as it happens (V-I1): movement and its fees,
    /// loading, completing a commission the table saw while it was incomplete, returning
    /// one whose faces the table saw when it was bought, provisions, silver, passing.
    /// Valdora draws no chance after setup.
    fn reveals(&self, event: &Event) -> bool {
        match *event {
            Event::PageTurned { book, from, .. } => self.book(book).shows_unseen(from),
            Event::EquipmentBought { book, side, .. }
            | Event::CommissionBought { book, side, .. } => self.book(book).shows_unseen(side),
            Event::GameOver | Event::TurnCapReached { .. } | Event::Stalled => true,
            // The tops after a purchase: what they show new, the purchase event told.
            Event::BookTops { .. }
            | Event::CommissionReturned { .. }
            | Event::TurnBegan { .. }
            | Event::Stuck { .. }
            | Event::Moved { .. }
            | Event::MeetingFee { .. }
            | Event::Passed { .. }
            | Event::ProvisionsTaken { .. }
            | Event::SilverRefilled { .. }
            | Event::Loaded { .. }
            | Event::Unloaded { .. }
            | Event::CommissionCompleted { .. }
            | Event::CommissionCompletedHidden { .. }
            | Event::BonusTile { .. }
            | Event::CraftsmanHired { .. }
            | Event::WorkshopTaken { .. }
            | Event::EndTriggered { .. }
            | Event::ActionEnded { .. } => false,
        }
    }

    fn describe_event(&self, event: &Event) -> String {
        describe_event(self.rules(), event)
    }

    fn describe_action(&self, action: &Action) -> String {
        let rules = self.rules();
        let me = self.player(self.current);
        let item = |i: Item| item_name(rules, i);
        let book = || rules.board.book_at(me.space).unwrap_or(0);
        let face = |side: Side| {
            self.book(book())
                .visible(rules, books::BookKind::of_book(book()), side)
                .map(|f| describe_face(rules, &f))
                .unwrap_or_default()
        };
        match *action {
            Action::Move { to } => {
                let name = space_name(rules, to);
                let spend = rules.board.reach_plain(me.space) & 1 << to == 0;
                let met: Vec<_> = self.pawns_met(to).collect();
                let fee = if met.is_empty() {
                    String::new()
                } else {
                    let seats: Vec<String> = met.iter().map(|s| format!("seat {s}")).collect();
                    format!(
                        ", paying a meeting fee of {} ({})",
                        coins(met.len() as u8),
                        seats.join(", ")
                    )
                };
                format!(
                    "move to {name} ({}){}{fee}",
                    kind_name(rules.board.kind(to)),
                    if spend { ", spending provisions" } else { "" }
                )
            }
            Action::Pass => "pass (no action)".into(),
            Action::TakeProvisions => "take provisions".into(),
            Action::RefillSilver => "refill silver to 6 coins".into(),
            Action::Turn { from } => format!(
                "turn a page from the {from:?} pile ({})",
                match self.page_turn_cost() {
                    0 => "free".to_string(),
                    cost => coins(cost),
                }
            ),
            Action::BuyEquipment { side, gold_from } => {
                format!(
                    "buy {} from the {side:?} pile, paying the gold on the {}",
                    face(side),
                    item(gold_from)
                )
            }
            Action::BuyCommission { side } => {
                format!(
                    "buy commission {} from the {side:?} pile for 1 coin",
                    face(side)
                )
            }
            Action::Return { commission, side } => {
                let f = me
                    .incomplete
                    .get(usize::from(commission))
                    .map(|h| h.face(rules));
                format!(
                    "return {} onto the {side:?} pile",
                    f.map(|f| describe_face(rules, &Face::Commission(f)))
                        .unwrap_or_default()
                )
            }
            Action::Load { gem, onto } => {
                let cost = me.cost_to_load(onto);
                let paid = if cost > 0 {
                    format!(" for {}", coins(cost))
                } else {
                    String::new()
                };
                format!("load {} onto the {}{paid}", gem.name(), item(onto))
            }
            Action::Unload { from } => format!("unload the {}", item(from)),
            Action::Complete {
                commission,
                pay_from,
            } => {
                let f = me
                    .incomplete
                    .get(usize::from(commission))
                    .map(|h| h.face(rules));
                let pay: Vec<&str> = pay_from.iter().map(item).collect();
                let pay = if pay.is_empty() {
                    "a silver coin".to_string()
                } else {
                    pay.join(" + ")
                };
                format!(
                    "complete {} paying with {pay}",
                    f.map(|f| describe_face(rules, &Face::Commission(f)))
                        .unwrap_or_default()
                )
            }
            Action::End => "end the action".into(),
        }
    }
}

/// A kind of space in words ("harbour, 2 ships").
fn kind_name(kind: board::SpaceKind) -> String {
    use board::SpaceKind::*;
    match kind {
        EquipmentCity => "equipment city".into(),
        CommissionCity => "commission city".into(),
        HarbourCity { .. } => "harbour city".into(),
        Road => "road".into(),
        SilverMine => "silver mine".into(),
        PatronHouse { color: c } => format!("{} patron", c.name()),
        Harbour { ships } => format!("harbour, {}", engine::text::count(ships, "ship", "ships")),
    }
}

/// The name of a space on the board.
fn space_name(rules: &Rules, space: board::Space) -> &str {
    rules
        .board
        .names
        .get(usize::from(space))
        .map_or("?", |name| name)
}

/// The name of an equipment item ("cart").
fn item_name(rules: &Rules, item: Item) -> &str {
    &rules.item_names[item.index()]
}

/// The city of a book: books are named by where they lie ("the book at Harbour City").
fn book_city(rules: &Rules, book: u8) -> &str {
    rules
        .board
        .book_city
        .get(usize::from(book))
        .map_or("?", |&city| space_name(rules, city))
}

/// A visible pile top in words, or "empty".
pub(crate) fn top_name(rules: &Rules, top: Option<Face>) -> String {
    top.map_or_else(|| "empty".into(), |f| describe_face(rules, &f))
}

/// "a ruby", "an emerald", "gold".
fn a_gem(gem: Gem) -> String {
    match gem {
        Gem::Gold => gem.name().into(),
        Gem::Amethyst | Gem::Emerald => format!("an {}", gem.name()),
        Gem::Ruby | Gem::Sapphire => format!("a {}", gem.name()),
    }
}

/// "1 coin", "3 coins".
fn coins(n: u8) -> String {
    engine::text::count(n, "coin", "coins")
}

/// An event as one sentence for logs and terminal play. It reads only the event and the
/// rules data (names), so it tells nothing the event does not carry.
fn describe_event(rules: &Rules, event: &Event) -> String {
    let commission =
        |face: components::CommissionFace| describe_face(rules, &Face::Commission(face));
    match *event {
        Event::TurnBegan { seat, turn } => format!("Seat {seat} begins turn {turn}"),
        Event::Stuck { seat } => {
            format!("Seat {seat} cannot reach or afford any space; the turn ends")
        }
        Event::Moved {
            seat,
            from,
            to,
            provisions_spent,
        } => format!(
            "Seat {seat} moves from {} to {} ({}){}",
            space_name(rules, from),
            space_name(rules, to),
            kind_name(rules.board.kind(to)),
            if provisions_spent {
                ", spending provisions"
            } else {
                ""
            }
        ),
        Event::MeetingFee { seat, to, banked } => {
            if banked {
                format!(
                    "Seat {seat} meets seat {to} and pays 1 coin to the bank (seat {to} already has 6)"
                )
            } else {
                format!("Seat {seat} meets seat {to} and pays them 1 coin")
            }
        }
        Event::Passed { seat } => format!("Seat {seat} passes"),
        Event::ProvisionsTaken { seat } => format!("Seat {seat} takes provisions"),
        Event::SilverRefilled { seat } => format!("Seat {seat} refills silver at the mine"),
        Event::PageTurned {
            seat,
            book,
            from,
            cost,
            left,
            right,
        } => format!(
            "Seat {seat} turns a page of the book at {} from the {from:?} pile{}; left shows {}, right shows {}",
            book_city(rules, book),
            if cost > 0 {
                format!(" (pays {})", coins(cost))
            } else {
                String::new()
            },
            top_name(rules, left),
            top_name(rules, right)
        ),
        Event::EquipmentBought {
            seat,
            book,
            side,
            face,
            other_face,
            gold_from,
        } => format!(
            "Seat {seat} buys {} from the {side:?} pile of the book at {}, paying the gold on the {} (the card's other side: {})",
            describe_face(rules, &Face::Equipment(face)),
            book_city(rules, book),
            item_name(rules, gold_from),
            describe_face(rules, &other_face)
        ),
        Event::CommissionBought {
            seat,
            book,
            side,
            face,
            other_face,
        } => format!(
            "Seat {seat} buys commission {} from the {side:?} pile of the book at {} for 1 coin (the card's other side: {})",
            commission(face),
            book_city(rules, book),
            describe_face(rules, &other_face)
        ),
        Event::CommissionReturned {
            seat,
            book,
            side,
            shows,
        } => format!(
            "Seat {seat} returns a commission onto the {side:?} pile of the book at {}, which now shows {}",
            book_city(rules, book),
            describe_face(rules, &shows)
        ),
        Event::BookTops { book, left, right } => format!(
            "The book at {} now shows {} on the left, {} on the right",
            book_city(rules, book),
            top_name(rules, left),
            top_name(rules, right)
        ),
        Event::Loaded {
            seat,
            gem,
            onto,
            cost,
        } => format!(
            "Seat {seat} loads {} onto the {}{}",
            a_gem(gem),
            item_name(rules, onto),
            if cost > 0 {
                format!(" (pays {})", coins(cost))
            } else {
                String::new()
            }
        ),
        Event::Unloaded { seat, gem, from } => format!(
            "Seat {seat} unloads the {} from the {} to the discard area",
            gem.name(),
            item_name(rules, from)
        ),
        Event::CommissionCompleted { seat, face } => {
            format!("Seat {seat} completes commission {}", commission(face))
        }
        Event::CommissionCompletedHidden { seat } => {
            format!("Seat {seat} completes a commission")
        }
        Event::BonusTile { seat } => format!("Seat {seat} takes a bonus tile"),
        Event::CraftsmanHired { seat, color } => {
            format!("Seat {seat} hires a {} craftsman", color.name())
        }
        Event::WorkshopTaken { seat, color } => {
            format!("Seat {seat} takes the {} workshop", color.name())
        }
        Event::EndTriggered { seat } => {
            format!("Seat {seat} triggers the end of the game: the last round has begun")
        }
        Event::ActionEnded { seat } => format!("Seat {seat} ends the action"),
        Event::GameOver => "The game is over".into(),
        Event::TurnCapReached { turns } => {
            format!("The turn cap ends the game after {turns} turns (simulation only)")
        }
        Event::Stalled => "No seat can move any more: the game ends stalled".into(),
    }
}

/// A face in words, for the terminal and logs.
pub fn describe_face(rules: &Rules, face: &Face) -> String {
    match face {
        Face::Equipment(e) if e.load_cost > 0 => {
            format!("{} (load {})", item_name(rules, e.item), e.load_cost)
        }
        Face::Equipment(e) => item_name(rules, e.item).into(),
        Face::Commission(c) => {
            let mut wants: Vec<&str> = Vec::new();
            for g in Gem::ALL {
                for _ in 0..c.wants.gems[g.index()] {
                    wants.push(g.name());
                }
            }
            wants.extend(std::iter::repeat_n(
                "silver coin",
                usize::from(c.wants.coins),
            ));
            format!("[{} {}: {} VP]", c.color.name(), wants.join("+"), c.points)
        }
    }
}
