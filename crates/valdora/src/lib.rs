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
mod evaluation;
pub mod events;
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

use engine::{EventSink, Game, Outcome, Rng, Seat, SetupError};

use components::Face;

impl Game for Valdora {
    type Config = ValdoraConfig;
    type Action = Action;
    type View = View;
    type Event = Event;

    const NAME: &'static str = "valdora";

    fn new(config: &ValdoraConfig, seed: u64) -> Result<Self, SetupError> {
        Valdora::setup(config, seed)
    }

    fn load_data(config: &mut ValdoraConfig, text: &str) -> Result<(), SetupError> {
        config.rules = state::RulesRef::load(text).map_err(|e| SetupError::Data(e.to_string()))?;
        Ok(())
    }

    fn provisional_data(config: &ValdoraConfig) -> &[String] {
        &config.rules.0.provisional
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

    fn apply_unchecked(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        self.apply_action(action, events);
    }

    fn view(&self, seat: Option<Seat>) -> View {
        self.build_view(seat)
    }

    fn determinize(&self, _seat: Option<Seat>, rng: &mut Rng) -> Self {
        self.resample(rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn turns(&self) -> u32 {
        self.turn_number()
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        self.evaluation(seat)
    }

    fn render_view(&self, seat: Option<Seat>) -> String {
        self.render(seat)
    }

    fn describe_action(&self, action: &Action) -> String {
        let rules = self.rules();
        let me = self.player(self.current);
        let item = |i: Item| rules.item_names[i.index()].clone();
        let book = || rules.board.book_at(me.space).unwrap_or(0);
        let face = |side: Side| {
            self.book(book())
                .visible(rules, books::BookKind::of_book(book()), side)
                .map(|f| describe_face(rules, &f))
                .unwrap_or_default()
        };
        match *action {
            Action::Move { to } => {
                let name = &rules.board.names[usize::from(to)];
                let spend = rules.board.reach_plain(me.space) & 1 << to == 0;
                format!(
                    "move to {name} ({}){}",
                    kind_name(rules.board.kind(to)),
                    if spend { ", spending provisions" } else { "" }
                )
            }
            Action::Pass => "pass (no action)".into(),
            Action::TakeProvisions => "take provisions".into(),
            Action::RefillSilver => "refill silver to 6 coins".into(),
            Action::Turn { from } => format!("turn a page from the {from:?} pile"),
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
                    format!(" for {cost} coins")
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
                let pay: Vec<String> = pay_from.iter().map(item).collect();
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

fn kind_name(kind: board::SpaceKind) -> String {
    use board::SpaceKind::*;
    match kind {
        EquipmentCity => "equipment city".into(),
        CommissionCity => "commission city".into(),
        HarbourCity { .. } => "harbour city".into(),
        Road => "road".into(),
        SilverMine => "silver mine".into(),
        PatronHouse(c) => format!("{} patron", c.name()),
        Harbour { ships } => format!("harbour, {ships} ship(s)"),
    }
}

/// A face in words, for the terminal and logs.
pub fn describe_face(rules: &Rules, face: &Face) -> String {
    match face {
        Face::Equipment(e) if e.load_cost > 0 => {
            format!(
                "{} (load {})",
                rules.item_names[e.item.index()],
                e.load_cost
            )
        }
        Face::Equipment(e) => rules.item_names[e.item.index()].clone(),
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
