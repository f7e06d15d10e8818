//! Valley of the Kings (Tom Cleaver, AEG; premium edition: base, Afterlife, Last Rites,
//! pharaohs, 2–6 players), rules-exact, on the tabletop Game contract.
//! Rules: `shared/rules/valley_of_the_kings.md` (ids K-*); card data: `data/valley.toml`,
//! where card actions are lists of effect primitives (spec §6) and every unverified field
//! is flagged provisional (K-A20).
//!
//! ```
//! use engine::{playout::random_action, rng_from_seed, Game, NoEvents};
//! use valley::{Valley, ValleyConfig};
//!
//! let mut game = Valley::new(&ValleyConfig::default(), 7).unwrap();
//! let mut rng = rng_from_seed(7);
//! let mut legal = Vec::new();
//! while let Some(action) = random_action(&game, &mut rng, &mut legal) {
//!     game.apply(action, &mut NoEvents).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! ```

#![forbid(unsafe_code)]

pub mod actions;
mod barriers;
mod checks;
pub mod data;
mod effects;
mod encoding;
mod evaluation;
pub mod events;
mod explain;
mod fault;
mod fitted;
pub mod pyramid;
mod render;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod tables;
mod turn;
pub mod view;

#[cfg(test)]
mod tests;

pub use actions::{Action, Slot};
pub use data::{CardId, Rules, StarterType};
pub use events::Event;
pub use state::{Phase, Valley, ValleyConfig};
pub use view::View;

use engine::{ConfigOption, EventSink, Game, Outcome, Refusal, Rng, Seat, SetupError};

impl Game for Valley {
    const RULES: &'static [&'static str] = rules::RULES;

    fn rule_of(&self, action: &Self::Action) -> &'static str {
        explain::rule_of(self, action)
    }

    fn explain(&self, seat: Seat, action: &Self::Action) -> Option<Refusal> {
        explain::explain(self, seat, action)
    }

    type Config = ValleyConfig;
    type Action = Action;
    type View = View;
    type Event = Event;

    const NAME: &'static str = "valley";

    // K-G5.
    const TIEBREAKS: &'static [&'static str] = &["tomb cards, negated (fewer cards win)"];

    // All but the seat's own: `seats` holds its hand and the known top of its deck,
    // `legal` its options when it decides.
    const PUBLIC_VIEW_MEMBERS: &'static [&'static str] = &[
        "active",
        "start_seat",
        "to_move",
        "phase",
        "crumble_pending",
        "frames",
        "turn",
        "pyramid",
        "stock_size",
        "stock_contents",
        "stock_level_ii",
        "boneyard",
        "provisional_data",
    ];

    fn new(config: &ValleyConfig, seed: u64) -> Result<Self, SetupError> {
        Valley::setup(config, seed)
    }

    fn load_data(config: &mut ValleyConfig, text: &str) -> Result<(), SetupError> {
        config.rules = state::RulesRef::load(text).map_err(|e| SetupError::Data(e.to_string()))?;
        Ok(())
    }

    fn components(config: &ValleyConfig) -> Option<serde_json::Value> {
        serde_json::to_value(tables::Tables::of(&config.rules)).ok()
    }

    fn provisional_data(config: &ValleyConfig) -> &[String] {
        config.provisional_data()
    }

    fn config_options() -> Vec<ConfigOption> {
        use serde_json::Value;
        vec![
            ConfigOption::players(state::MIN_PLAYERS, state::MAX_PLAYERS, 4),
            // K-S1; 5-6 players always play the premium mix (K-SC2), so the choice is
            // offered for 2-4 only.
            ConfigOption::choice(
                "pool",
                "the box whose level II/III cards form the pyramid's stock",
                [Value::Null]
                    .into_iter()
                    .chain(["base", "afterlife", "last_rites", "premium"].map(Value::from)),
                Value::Null,
            )
            .only_with(2..=4),
            // K-S3.
            ConfigOption::choice(
                "starters",
                "the starter decks",
                [Value::Null, Value::from("base"), Value::from("last_rites")],
                Value::Null,
            ),
            ConfigOption::flag("pharaohs", "play with the pharaoh module", false),
        ]
    }

    fn config(&self) -> &ValleyConfig {
        &self.config
    }

    fn seats(&self) -> usize {
        usize::from(self.n)
    }

    fn to_move(&self) -> Option<Seat> {
        self.decider()
    }

    fn action_count(config: &ValleyConfig) -> Option<usize> {
        Some(encoding::action_count(config))
    }

    fn action_index(config: &ValleyConfig, action: &Action) -> Option<usize> {
        encoding::action_index(config, action)
    }

    fn action_at(config: &ValleyConfig, index: usize) -> Option<Action> {
        encoding::action_at(config, index)
    }

    fn observation_len(config: &ValleyConfig) -> Option<usize> {
        Some(encoding::observation_len(config))
    }

    fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        self.encode_observation(seat, out);
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.push_legal(out);
    }

    fn apply_unchecked(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        self.apply_decision(action, events);
    }

    fn view(&self, seat: Option<Seat>) -> View {
        self.build_view(seat)
    }

    fn determinize(&self, seat: Option<Seat>, rng: &mut Rng) -> Self {
        self.resample(seat, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    // 4-player round robin of 2026-11-29, 200 games, `hard` the raced rollout with the
    // fitted weights that read the cards entombing more (docs/bots.md, "The levels rated").
    const LEVEL_RATINGS: &'static [(&'static str, f64)] =
        &[("easy", 672.0), ("medium", 780.0), ("hard", 996.0)];

    fn turns(&self) -> u32 {
        self.turns_begun
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        self.evaluation(seat)
    }

    const EVALUATION_FEATURES: &'static [&'static str] = &evaluation::FEATURES;
    const FITTED_WEIGHTS: &'static [f64] = &fitted::WEIGHTS;

    fn evaluation_features(&self, seat: Seat, out: &mut [f64]) {
        self.features(seat, out)
    }

    fn weighed_features(&self, seat: Seat, weights: &[f64], out: &mut [f64]) {
        self.features_for(seat, weights, out)
    }

    fn evaluate_fast(&self, seat: Seat) -> f64 {
        self.evaluate_weighted(seat, &fitted::FAST_WEIGHTS)
    }

    fn render_view(&self, seat: Option<Seat>) -> String {
        self.render(seat)
    }

    /// Draws, reveals, looks, reshuffles, stock cards turned into the pyramid, and hand
    /// cards the others could not be sure of (K-Z12): see `barriers.rs`.
    fn reveals(&self, event: &Event) -> bool {
        self.event_reveals(event)
    }

    fn describe_event(&self, event: &Event) -> String {
        describe_event(&self.config.rules, event)
    }

    fn describe_action(&self, action: &Action) -> String {
        let name = |c: CardId| card_name(&self.config.rules, c);
        let at = |s: Slot| {
            let c = self.pyramid_card(s).map_or("empty", name);
            format!("{} ({c})", slot_name(s))
        };
        match *action {
            Action::BeginPurchase { slot } => format!("buy {}", at(slot)),
            Action::Pay { card } => format!("pay with {}", name(card)),
            Action::PlayAction { card } => format!("play the action of {}", name(card)),
            Action::Entomb { card } => format!("entomb {}", name(card)),
            Action::UsePharaoh => "use the pharaoh".into(),
            Action::EndPlay => "end play".into(),
            Action::Sacrifice { slot } => format!("sacrifice {}", at(slot)),
            Action::CrumbleFrom { slot } => format!("crumble from {}", at(slot)),
            Action::React { card } => format!("react with {}", name(card)),
            Action::Decline => "decline to react".into(),
            Action::Choose { card } => format!("choose {}", name(card)),
            Action::ChooseSlot { slot } => format!("choose {}", at(slot)),
            Action::Accept => "accept".into(),
            Action::Skip => "skip".into(),
            Action::Done => "done".into(),
        }
    }
}

/// The name of a card kind, as printed.
fn card_name(rules: &Rules, card: CardId) -> &str {
    rules
        .cards
        .get(usize::from(card))
        .map_or("?", |c| c.name.as_str())
}

/// A pyramid slot as the rules name it (K-Z9): B0 B1 B2, M0 M1, T.
fn slot_name(slot: Slot) -> &'static str {
    ["B0", "B1", "B2", "M0", "M1", "T"]
        .get(usize::from(slot))
        .copied()
        .unwrap_or("?")
}

/// "1 card", "3 cards".
fn cards(n: u8) -> String {
    engine::text::count(n, "card", "cards")
}

/// An event as one sentence for logs and terminal play. It reads only the event and the
/// card names, so it tells nothing the event does not carry (draws stay counts, K-Z14).
fn describe_event(rules: &Rules, event: &Event) -> String {
    let name = |c: CardId| card_name(rules, c);
    match *event {
        Event::TurnStarted { seat } => format!("Seat {seat} starts a turn"),
        Event::Drew { seat, count } => format!("Seat {seat} draws {}", cards(count)),
        Event::Reshuffled { seat, count } => format!(
            "Seat {seat} shuffles a discard pile of {} into a new deck",
            cards(count)
        ),
        Event::PurchaseBegun { seat, card, slot } => format!(
            "Seat {seat} begins to buy {} from pyramid slot {}",
            name(card),
            slot_name(slot)
        ),
        Event::Paid { seat, card, gold } => {
            format!("Seat {seat} pays with {} ({gold} gold)", name(card))
        }
        Event::Bought {
            seat,
            card,
            slot,
            paid,
            lost,
        } => format!(
            "Seat {seat} buys {} from pyramid slot {} for {paid} gold{}",
            name(card),
            slot_name(slot),
            if lost > 0 {
                format!(", losing {lost} surplus gold")
            } else {
                String::new()
            }
        ),
        Event::ActionPlayed { seat, card } => {
            format!("Seat {seat} plays the action of {}", name(card))
        }
        Event::PharaohUsed { seat } => format!("Seat {seat} uses their pharaoh"),
        Event::Entombed { seat, card } => format!("Seat {seat} entombs {}", name(card)),
        Event::Crumbled { from, to } => format!(
            "The pyramid crumbles: the card in slot {} falls into slot {}",
            slot_name(from),
            slot_name(to)
        ),
        Event::Sacrificed { seat, card } => {
            format!("Seat {seat} sacrifices {} to the boneyard", name(card))
        }
        Event::Taken { seat, card } => format!("Seat {seat} takes {}", name(card)),
        Event::Revealed { seat, card } => {
            format!("Seat {seat} reveals {} from their deck", name(card))
        }
        Event::Looked { seat, count } => format!(
            "Seat {seat} looks at the top {} of their deck",
            cards(count)
        ),
        Event::Discarded { seat, card } => format!("Seat {seat} discards {}", name(card)),
        Event::Given { from, to, card } => {
            format!("Seat {from} gives {} to seat {to}", name(card))
        }
        Event::Reserved { seat, slot } => {
            format!("Seat {seat} reserves pyramid slot {}", slot_name(slot))
        }
        Event::Executed { seat, card } => {
            format!("Seat {seat} carries out the action of {}", name(card))
        }
        Event::PartSkipped { seat } => {
            format!("Part of seat {seat}'s action cannot be carried out and is skipped")
        }
        Event::Reacted { seat, card } => format!("Seat {seat} reacts with {}", name(card)),
        Event::Declined { seat } => format!("Seat {seat} declines to react"),
        Event::Refilled { slot, card } => format!(
            "{} is laid into pyramid slot {}",
            name(card),
            slot_name(slot)
        ),
        Event::Arranged { seat } => format!("Seat {seat} puts a looked-at card back"),
        Event::PlayEnded { seat } => format!("Seat {seat} ends play and discards"),
        Event::TurnEnded { seat } => format!("Seat {seat} ends the turn"),
        Event::GameOver => "The game is over".into(),
    }
}
