//! Pandoria (Jeffrey D. Allers & Bernd Eisenstein, Irongames 2018), rules-exact, on the
//! tabletop Game contract. Rules: `shared/rules/pandoria.md` (ids P-*); data:
//! `data/pandoria.toml`; notes and open work: `docs/pandoria.md`.
//!
//! ```
//! use engine::{playout::random_action, rng_from_seed, Game, NoEvents};
//! use pandoria::{Pandoria, PandoriaConfig};
//!
//! let mut game = Pandoria::new(&PandoriaConfig::default(), 7).unwrap();
//! let mut rng = rng_from_seed(7);
//! let mut legal = Vec::new();
//! while let Some(action) = random_action(&game, &mut rng, &mut legal) {
//!     game.apply(action, &mut NoEvents).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! ```

#![forbid(unsafe_code)]

pub mod actions;
pub mod board;
pub mod cards;
pub mod components;
mod costs;
pub mod data;
mod encoding;
mod evaluation;
pub mod events;
mod explain;
mod fault;
mod fitted;
pub mod hex;
pub mod map;
pub mod render;
pub mod rules;
pub mod scoring;
pub mod spells;
pub mod state;
pub mod tables;
pub mod turn;
pub mod view;

#[cfg(test)]
mod tests;

pub use actions::{Action, TileId};
pub use data::Rules;
pub use events::Event;
pub use state::{Mode, Pandoria, PandoriaConfig, Phase};
pub use view::View;

use engine::{ConfigOption, EventSink, Game, Outcome, Refusal, Rng, Seat, SetupError};

impl Game for Pandoria {
    const RULES: &'static [&'static str] = rules::RULES;

    fn rule_of(&self, action: &Self::Action) -> &'static str {
        explain::rule_of(self, action)
    }

    fn explain(&self, seat: Seat, action: &Self::Action) -> Option<Refusal> {
        explain::explain(self, seat, action)
    }

    type Config = PandoriaConfig;
    type Action = Action;
    type View = View;
    type Event = Event;

    const NAME: &'static str = "pandoria";

    // P-E4, P-E6.
    const TIEBREAKS: &'static [&'static str] =
        &["resources left over (more wins; teams: both members')"];

    // All but the seat's own: `players` holds its hand (P-Z2).
    const PUBLIC_VIEW_MEMBERS: &'static [&'static str] = &[
        "current",
        "to_move",
        "phase",
        "cells",
        "market",
        "monuments",
        "deck_size",
        "double_stack_size",
        "removed_tiles",
        "single_tiles_left",
        "placed",
        "closed_this_turn",
        "end_triggered",
        "turn",
        "pending",
        "rage",
        "mode",
        "teams",
        "start_seat",
        "provisional_data",
    ];

    fn new(config: &PandoriaConfig, seed: u64) -> Result<Self, SetupError> {
        Pandoria::setup(config, seed)
    }

    fn load_data(config: &mut PandoriaConfig, text: &str) -> Result<(), SetupError> {
        config.rules = state::RulesRef::load(text).map_err(|e| SetupError::Data(e.to_string()))?;
        Ok(())
    }

    fn components(config: &PandoriaConfig) -> Option<serde_json::Value> {
        serde_json::to_value(tables::Tables::of(&config.rules)).ok()
    }

    fn provisional_data(config: &PandoriaConfig) -> &[String] {
        &config.rules.provisional
    }

    fn config_options() -> Vec<ConfigOption> {
        vec![
            // P-SC2.
            ConfigOption::players(state::MIN_PLAYERS, state::MAX_PLAYERS, 4),
            // P-SC1.
            ConfigOption::choice(
                "mode",
                "full game (realm abilities) or beginner game (start buildings)",
                ["full", "beginner"].map(serde_json::Value::from),
                serde_json::Value::from("full"),
            ),
            // P-SC2, P-E5.
            ConfigOption::flag("teams", "two teams: seats 1 and 3 against 2 and 4", false)
                .only_with([4]),
        ]
    }

    fn config(&self) -> &PandoriaConfig {
        &self.config
    }

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    /// P-SC6: always the active seat until the game is over.
    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.current)
    }

    fn action_count(config: &PandoriaConfig) -> Option<usize> {
        Some(encoding::action_count(config))
    }

    fn action_index(config: &PandoriaConfig, action: &Action) -> Option<usize> {
        encoding::action_index(config, action)
    }

    fn action_at(config: &PandoriaConfig, index: usize) -> Option<Action> {
        encoding::action_at(config, index)
    }

    fn observation_len(config: &PandoriaConfig) -> Option<usize> {
        Some(encoding::observation_len(config))
    }

    fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        self.encode_observation(seat, out);
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.push_legal(out);
    }

    fn is_legal(&self, action: &Action) -> bool {
        self.check_legal(action)
    }

    fn apply_unchecked(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        self.apply_action(action, events);
    }

    fn view(&self, seat: Option<Seat>) -> View {
        self.build_view(seat, true)
    }

    fn own_view(&self, seat: Seat) -> View {
        self.build_view(Some(seat), false)
    }

    fn determinize(&self, seat: Option<Seat>, rng: &mut Rng) -> Self {
        self.resample(seat, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    // 4-player round robin of 2026-11-28, `hard` the raced rollout (docs/bots.md, "The
    // levels rated").
    const LEVEL_RATINGS: &'static [(&'static str, f64)] =
        &[("easy", 713.0), ("medium", 1038.0), ("hard", 1189.0)];

    fn turns(&self) -> u32 {
        self.turns
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        self.evaluation(seat)
    }

    // Pandoria's scores run about a third of Valdora's, and the search wins more when a
    // lead counts for as much (docs/bots.md, "Temperature").
    const EVALUATION_TEMPERATURE: f64 = 8.0;
    const EVALUATION_FEATURES: &'static [&'static str] = &evaluation::FEATURES;
    const FITTED_WEIGHTS: &'static [f64] = &fitted::WEIGHTS;

    fn evaluation_features(&self, seat: Seat, out: &mut [f64]) {
        self.features(seat, out)
    }

    fn render_view(&self, seat: Option<Seat>) -> String {
        self.render_for(seat)
    }

    fn describe_action(&self, action: &Action) -> String {
        self.describe(action)
    }

    fn describe_action_steps(&self, action: &Action) -> Option<(String, String)> {
        self.describe_steps(action)
    }

    /// Undo barriers: what leaves a private hand unknown (a double tile, P-Z2; a card not
    /// publicly known, P-Z3), what is drawn or turned from a hidden stack or the deck
    /// (P-Z5: P-T10, P-T11, P-SP13), and the end (P-E4). The board, the market, the
    /// monuments, figures, resources and scores are public (P-Z1, P-Z4), so placing or
    /// removing figures, casting or building with a known card, buying or acquiring from
    /// the face-up market, building monuments and scoring show nothing. The RNG is not
    /// used after setup (P-Z8).
    fn reveals(&self, event: &Event) -> bool {
        match *event {
            Event::TilePlaced { .. }
            | Event::TerrainDrawn { .. }
            | Event::TileDrawn { .. }
            | Event::MarketRefilled { .. }
            | Event::GameOver => true,
            Event::SpellCast { seat, card, .. } | Event::BuildingBuilt { seat, card, .. } => {
                self.player(seat).known & cards::card_bit(card) == 0
            }
            Event::TurnBegan { .. }
            | Event::CastlePlaced { .. }
            | Event::PlacementImpossible { .. }
            | Event::RegionClosed { .. }
            | Event::FigureReturned { .. }
            | Event::FigurePlaced { .. }
            | Event::FigureMoved { .. }
            | Event::FigureRemoved { .. }
            | Event::SpellAdopted { .. }
            | Event::CardTaken { .. }
            | Event::ResourceSet { .. }
            | Event::RageOn { .. }
            | Event::MonumentBuilt { .. }
            | Event::RegionScored { .. }
            | Event::ResourceChanged { .. }
            | Event::PointsGained { .. }
            | Event::CardBought { .. }
            | Event::EndTriggered { .. }
            | Event::FinalScored { .. } => false,
        }
    }

    fn describe_event(&self, event: &Event) -> String {
        Pandoria::describe_event(self, event)
    }
}
