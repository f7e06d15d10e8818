//! Type erasure: any [`Game`] driven through JSON values, for the engine line protocol,
//! the server and anything else that picks a game by name at run time.

use std::any::Any;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::view_parts::{to_json, Observed, ObservedView};
use crate::{ActionErrorKind, Explanation, Game, Outcome, Seat, SetupError};

mod spaces;
use spaces::Scratch;

/// Why a JSON-level request failed. `kind` is stable and machine-readable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message}")]
pub struct GameError {
    pub kind: GameErrorKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameErrorKind {
    /// The JSON does not describe an action/config of this game.
    Malformed,
    /// A well-formed action that is not legal now.
    Illegal,
    GameOver,
    NotYourTurn,
    /// The config or data file cannot start a game.
    Setup,
    /// A seat number outside the table.
    BadSeat,
    /// The game has no fixed action space or observation tensor ([`crate::encoding`]).
    NoSpaces,
    /// An action index outside `0..action_count`, or an action with no index.
    IndexOutOfRange,
    /// An observation buffer whose length is not `observation_len`.
    BadBuffer,
}

impl GameError {
    pub fn new(kind: GameErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

impl From<SetupError> for GameError {
    fn from(e: SetupError) -> Self {
        GameError::new(GameErrorKind::Setup, e.to_string())
    }
}

impl From<crate::ActionError> for GameError {
    fn from(e: crate::ActionError) -> Self {
        let kind = match e.kind {
            ActionErrorKind::GameOver => GameErrorKind::GameOver,
            ActionErrorKind::Illegal => GameErrorKind::Illegal,
            ActionErrorKind::NotYourTurn => GameErrorKind::NotYourTurn,
        };
        GameError::new(kind, e.message)
    }
}

/// One event of an action: its JSON (ids and numbers, for clients) and its sentence (for
/// logs and terminals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedEvent {
    pub event: Value,
    pub text: String,
    /// When not every viewer may keep this event ([`Game::event_seen_by`]): what each is
    /// told, the seats in order and then the spectator. `None`: everyone is told `event`.
    #[serde(skip)]
    pub seen_by: Option<Vec<LoggedEvent>>,
    /// Whether this event showed some viewer something new or drew chance
    /// ([`Game::reveals`]): the move that emitted it is an undo barrier. Not written to
    /// the wire (clients are told the events, the server decides on undo); an event read
    /// back from JSON counts as a barrier, the conservative side.
    #[serde(skip, default = "barrier_by_default")]
    pub reveals: bool,
}

fn barrier_by_default() -> bool {
    true
}

impl LoggedEvent {
    /// Whether the move that emitted `events` (all of one action's events) is an undo
    /// barrier: some event of it revealed information or drew chance ([`Game::reveals`]).
    /// A seat may take back only its own moves made since the last barrier. A move with
    /// no events is no barrier.
    pub fn is_barrier(events: &[LoggedEvent]) -> bool {
        events.iter().any(|e| e.reveals)
    }

    /// The event as `viewer` (`None`: the spectator) is told it.
    pub fn for_viewer(&self, viewer: Option<Seat>) -> &LoggedEvent {
        let Some(forms) = &self.seen_by else {
            return self;
        };
        let index = viewer.map_or(forms.len().saturating_sub(1), usize::from);
        forms.get(index).unwrap_or(self)
    }
}

/// A game of any kind, driven through JSON.
pub trait DynGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn to_move(&self) -> Option<Seat>;
    /// The legal actions, each as the JSON that [`DynGame::apply_json`] accepts back, with
    /// a short description and the rule it follows.
    fn legal_actions_json(&self) -> Vec<OfferedAction>;
    /// The canonical JSON of a new action: what the game reads in `action`, written back.
    /// An action naming a field the game does not read (at any depth) is `malformed`, so
    /// that what is stored and broadcast is only ever what the game understood.
    fn canonical_action(&self, action: &Value) -> Result<Value, GameError>;
    /// Applies one new action, checked as [`DynGame::canonical_action`] checks it; returns
    /// the events it caused.
    fn apply_json(&mut self, action: &Value) -> Result<Vec<Value>, GameError>;
    /// Applies one action as it was stored or recorded; returns the events it caused with
    /// their sentences, and whether each revealed anything ([`LoggedEvent::is_barrier`]
    /// tells whether the move is an undo barrier). Fields the game does not read are ignored here, so that games
    /// stored before actions were checked for them still replay: new actions go through
    /// [`DynGame::canonical_action`] first.
    fn apply_logged(&mut self, action: &Value) -> Result<Vec<LoggedEvent>, GameError>;
    /// [`DynGame::apply_logged`] on a copy: the position after the action and its events,
    /// this one unchanged. One copy where cloning and then applying makes two (the
    /// position before is what judges the reveals).
    fn play_logged(
        &self,
        action: &Value,
    ) -> Result<(Box<dyn DynGame>, Vec<LoggedEvent>), GameError>;
    fn view_json(&self, seat: Option<Seat>) -> Result<Value, GameError>;
    /// The views of several observers of one position (`None`: the spectator), each with
    /// its record ([`crate::ViewPrint`]), to be compared part by part with the views sent
    /// before (the server's per-move patches). The game's public members
    /// ([`Game::PUBLIC_VIEW_MEMBERS`]) are recorded and written once, from the spectator's
    /// view. Given the position this one was reached from by one action, with the
    /// spectator's view observed of it, the public members the action left alike are
    /// taken from that view rather than built again ([`Game::spectator_view_after`]).
    fn observe(
        &self,
        observers: &[Option<Seat>],
        before: Option<(&dyn DynGame, &PublicView)>,
    ) -> Result<Observation, GameError>;
    fn outcome(&self) -> Option<Outcome>;
    /// "Why not?" for a well-formed action sent on behalf of `seat` ([`Game::explain`]):
    /// legal or refused, with the rule. A malformed action or a seat outside the table is
    /// an error, as in [`DynGame::apply_json`].
    fn why(&self, seat: Seat, action: &Value) -> Result<Explanation, GameError>;
    /// The ids of the game's numbered rules ([`Game::RULES`]).
    fn rules(&self) -> &'static [&'static str];
    /// `(config, seed, actions)`: everything needed to replay this game.
    fn record(&self) -> Value;
    /// The position as text for `seat`'s terminal (`Game::render_view`).
    fn render_text(&self, seat: Option<Seat>) -> String;
    /// An independent copy (to try an action before it is stored).
    fn box_clone(&self) -> Box<dyn DynGame>;
    /// For code that knows the concrete game (bots): downcast to `ErasedGame<G>`.
    fn as_any(&self) -> &dyn Any;

    // ----- fixed spaces for learning code ([`crate::encoding`]) ------------------------

    /// The size of the fixed action space of this game's config; `None` when it has none.
    fn action_count(&self) -> Option<usize>;
    /// The index of an action (JSON, as [`DynGame::apply_json`] takes it), legal now or not.
    fn action_index(&self, action: &Value) -> Result<usize, GameError>;
    /// The action (JSON) at `index` of the fixed action space.
    fn action_at(&self, index: usize) -> Result<Value, GameError>;
    /// Appends the indices of the legal actions (allocation-free when `out` has capacity).
    fn legal_indices(&self, out: &mut Vec<usize>) -> Result<(), GameError>;
    /// Applies the action at `index` if legal; typed error (and nothing changed) otherwise.
    fn apply_index(&mut self, index: usize) -> Result<(), GameError>;
    /// The length of a seat's observation tensor; `None` when the game encodes none.
    fn observation_len(&self) -> Option<usize>;
    /// Writes `seat`'s observation ([`Game::observe_into`]) into `out`, which must be
    /// exactly [`DynGame::observation_len`] long.
    fn observe_into(&self, seat: Seat, out: &mut [f32]) -> Result<(), GameError>;
}

/// A legal action as [`DynGame::legal_actions_json`] offers it.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferedAction {
    /// The JSON that [`DynGame::apply_json`] accepts back.
    pub action: Value,
    /// A short description ([`Game::describe_action`]).
    pub description: String,
    /// The rule it follows ([`Game::rule_of`]): the link into a rules panel.
    pub rule: &'static str,
}

/// The views [`DynGame::observe`] built of one position.
pub struct Observation {
    /// One for each observer asked for, in order.
    pub views: Vec<Box<dyn ObservedView>>,
    /// The spectator's view, when the seats' views took their public members from it: kept
    /// by whoever observes the next position too, and handed back to [`DynGame::observe`]
    /// with this position.
    pub public: Option<PublicView>,
}

/// The spectator's view of a position with its record ([`Observation::public`]), of
/// whichever game.
#[derive(Clone)]
pub struct PublicView(Arc<dyn Any + Send + Sync>);

/// A [`Game`] plus the record of how it got here.
#[derive(Debug, Clone)]
pub struct ErasedGame<G: Game> {
    state: G,
    seed: u64,
    actions: Vec<G::Action>,
    /// The legal actions listed for the index fast path, kept so that listing them
    /// allocates only once per game.
    scratch: Scratch<G::Action>,
}

/// A replayable record of a game: the triple a game is a pure function of.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameRecord<C, A> {
    pub game: String,
    pub config: C,
    pub seed: u64,
    pub actions: Vec<A>,
}

impl<G: Game> ErasedGame<G> {
    pub fn new(config: &G::Config, seed: u64) -> Result<Self, GameError> {
        Ok(Self {
            state: G::new(config, seed)?,
            seed,
            actions: Vec::new(),
            scratch: Scratch::new(),
        })
    }

    /// A config from JSON (missing fields take their defaults), playing on the corrected
    /// component data `data` (the TOML text of a data file; `None`: the shipped data).
    pub fn config_from_json(config: &Value, data: Option<&str>) -> Result<G::Config, GameError> {
        let mut config: G::Config = serde_json::from_value(config.clone()).map_err(|e| {
            GameError::new(
                GameErrorKind::Malformed,
                format!("bad {} config: {e}", G::NAME),
            )
        })?;
        if let Some(text) = data {
            G::load_data(&mut config, text).map_err(|e| {
                GameError::new(GameErrorKind::Setup, format!("{} data: {e}", G::NAME))
            })?;
        }
        Ok(config)
    }

    pub fn state(&self) -> &G {
        &self.state
    }

    /// A sample of the positions `seat` cannot tell from this one ([`Game::determinize`],
    /// drawn with `seed`), for search. It has no actions: replaying this game's would give
    /// back the true position, the very hidden information the sample stands in for, so
    /// its [`DynGame::record`] is not a record of anything played.
    pub fn determinized(&self, seat: Option<Seat>, seed: u64) -> Self {
        let mut rng = crate::rng_from_seed(seed);
        Self {
            state: self.state.determinize(seat, &mut rng),
            seed,
            actions: Vec::new(),
            scratch: Scratch::new(),
        }
    }

    /// `event` with its sentence, and each viewer's form of it when some may not keep it;
    /// `reveals` is [`Game::reveals`] judged on the position before the action.
    fn logged(&self, event: &G::Event, reveals: bool) -> LoggedEvent {
        let plain = |event: &G::Event| LoggedEvent {
            event: to_json(event),
            text: self.state.describe_event(event),
            seen_by: None,
            reveals,
        };
        let viewers = || {
            (0..self.state.seats())
                .map(|seat| Some(seat as Seat))
                .chain([None])
        };
        let told = |viewer| self.state.event_seen_by(event, viewer);
        let mut logged = plain(event);
        // Nearly every event is told alike to all: its forms are made only when not.
        if viewers().any(|viewer| told(viewer).is_some()) {
            logged.seen_by = Some(
                viewers()
                    .map(|viewer| told(viewer).map_or_else(|| plain(event), |form| plain(&form)))
                    .collect(),
            );
        }
        logged
    }

    pub fn actions(&self) -> &[G::Action] {
        &self.actions
    }

    /// Replays `(config, seed, actions)`, the actions given as JSON, with each action's
    /// events (which tell the barriers, [`LoggedEvent::is_barrier`]).
    pub fn replay_json(
        config: &G::Config,
        seed: u64,
        actions: &[Value],
    ) -> Result<(Self, Vec<Vec<LoggedEvent>>), GameError> {
        let mut game = Self::new(config, seed)?;
        let mut log = Vec::with_capacity(actions.len());
        for (i, action) in actions.iter().enumerate() {
            let events = game
                .apply_logged(action)
                .map_err(|e| GameError::new(e.kind, format!("action #{i}: {}", e.message)))?;
            log.push(events);
        }
        Ok((game, log))
    }

    /// `seat`'s view, or the spectator's; an error for a seat outside the table.
    fn checked_view(&self, seat: Option<Seat>) -> Result<G::View, GameError> {
        if let Some(s) = seat {
            self.check_seat(s)?;
        }
        Ok(self.state.view(seat))
    }

    /// The spectator's view, observed, taking the public members the last action left
    /// alike from the one of `before` when that is this game's position before it.
    fn spectator_after(&self, before: Option<(&dyn DynGame, &PublicView)>) -> Observed<G::View> {
        let before = before.and_then(|(game, public)| {
            let game = game.as_any().downcast_ref::<Self>()?;
            let view = public.0.clone().downcast::<Observed<G::View>>().ok()?;
            (game.actions.len() + 1 == self.actions.len()).then_some((game, view))
        });
        let Some((game, view)) = before else {
            return Observed::new(self.state.view(None));
        };
        let mut unchanged = Vec::new();
        let spectator = self.state.spectator_view_after(&game.state, &mut unchanged);
        // Only public members may be taken over (a seat's own members are its own).
        unchanged.retain(|key| G::PUBLIC_VIEW_MEMBERS.contains(key));
        Observed::sharing(spectator, &unchanged, &view)
    }

    /// `seat`'s [`Game::own_view`]; an error for a seat outside the table.
    fn own_view(&self, seat: Seat) -> Result<G::View, GameError> {
        self.check_seat(seat)?;
        Ok(self.state.own_view(seat))
    }

    fn check_seat(&self, seat: Seat) -> Result<(), GameError> {
        if usize::from(seat) < self.state.seats() {
            return Ok(());
        }
        Err(GameError::new(
            GameErrorKind::BadSeat,
            format!(
                "seat {seat} does not exist; this game has seats 0..{}",
                self.state.seats()
            ),
        ))
    }

    /// Applies a typed action, checking it, and records it.
    pub fn apply(&mut self, action: G::Action) -> Result<Vec<G::Event>, GameError> {
        let mut events = Vec::new();
        self.state.apply(action, &mut events)?;
        self.actions.push(action);
        Ok(events)
    }
}

fn parse_action<G: Game>(action: &Value) -> Result<G::Action, GameError> {
    // Read from the value where it is, rather than from a copy of it.
    G::Action::deserialize(action).map_err(|e| {
        GameError::new(
            GameErrorKind::Malformed,
            format!("not a {} action: {e}", G::NAME),
        )
    })
}

/// A new action: read as [`parse_action`] reads it, and refused when the JSON sent names a
/// field that the action, written back, does not have. serde's `deny_unknown_fields` does
/// not cover every shape (an internally tagged unit variant such as `{"type":"skip"}`
/// takes any other field), so the check compares with what the game read instead.
fn parse_new_action<G: Game>(action: &Value) -> Result<(G::Action, Value), GameError> {
    let parsed = parse_action::<G>(action)?;
    let canonical = to_json(&parsed);
    if let Some(path) = unread_field(action, &canonical, String::new()) {
        return Err(GameError::new(
            GameErrorKind::Malformed,
            format!(
                "not a {} action: unknown field {path:?} (send an action as `legal` lists it)",
                G::NAME
            ),
        ));
    }
    Ok((parsed, canonical))
}

/// The path of the first field of `sent` that `read` (its canonical form) lacks, if any.
/// Only fields count: a field left out that the canonical form writes (a `null` option),
/// or the order of a set's elements, is no unknown field.
fn unread_field(sent: &Value, read: &Value, path: String) -> Option<String> {
    match (sent, read) {
        (Value::Object(sent), Value::Object(read)) => sent.iter().find_map(|(key, value)| {
            let path = format!("{path}/{key}");
            match read.get(key) {
                None => Some(path),
                Some(read) => unread_field(value, read, path),
            }
        }),
        (Value::Array(sent), Value::Array(read)) if sent.len() == read.len() => sent
            .iter()
            .zip(read)
            .enumerate()
            .find_map(|(i, (sent, read))| unread_field(sent, read, format!("{path}/{i}"))),
        // A list the game read as another length (a set given with repeats): objects in it
        // cannot be matched to what was read, so they are refused.
        (Value::Array(sent), _) => sent
            .iter()
            .any(|v| v.is_object())
            .then(|| format!("{path}/0")),
        // An object the game read as something else: its fields were not read.
        (Value::Object(_), _) => Some(path),
        _ => None,
    }
}

impl<G: Game> DynGame for ErasedGame<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn seats(&self) -> usize {
        self.state.seats()
    }

    fn to_move(&self) -> Option<Seat> {
        self.state.to_move()
    }

    fn legal_actions_json(&self) -> Vec<OfferedAction> {
        let mut legal = Vec::new();
        self.state.legal_actions(&mut legal);
        legal
            .iter()
            .map(|a| OfferedAction {
                action: to_json(a),
                description: self.state.describe_action(a),
                rule: self.state.rule_of(a),
            })
            .collect()
    }

    fn canonical_action(&self, action: &Value) -> Result<Value, GameError> {
        Ok(parse_new_action::<G>(action)?.1)
    }

    fn apply_json(&mut self, action: &Value) -> Result<Vec<Value>, GameError> {
        let (action, _) = parse_new_action::<G>(action)?;
        Ok(self.apply(action)?.iter().map(to_json).collect())
    }

    fn apply_logged(&mut self, action: &Value) -> Result<Vec<LoggedEvent>, GameError> {
        let action = parse_action::<G>(action)?;
        // Whether an event revealed anything is judged on the position it was applied to.
        let before = self.state.clone();
        let events = self.apply(action)?;
        Ok(events
            .iter()
            .map(|e| self.logged(e, before.reveals(e)))
            .collect())
    }

    fn play_logged(
        &self,
        action: &Value,
    ) -> Result<(Box<dyn DynGame>, Vec<LoggedEvent>), GameError> {
        let action = parse_action::<G>(action)?;
        let mut next = self.clone();
        let events = next.apply(action)?;
        let logged = events
            .iter()
            .map(|e| next.logged(e, self.state.reveals(e)))
            .collect();
        Ok((Box::new(next), logged))
    }

    fn view_json(&self, seat: Option<Seat>) -> Result<Value, GameError> {
        Ok(to_json(&self.checked_view(seat)?))
    }

    fn observe(
        &self,
        observers: &[Option<Seat>],
        before: Option<(&dyn DynGame, &PublicView)>,
    ) -> Result<Observation, GameError> {
        let seats = observers.iter().filter(|o| o.is_some()).count();
        if G::PUBLIC_VIEW_MEMBERS.is_empty() || seats < 2 {
            let views = observers
                .iter()
                .map(|&o| {
                    Ok(Box::new(Observed::new(self.checked_view(o)?)) as Box<dyn ObservedView>)
                })
                .collect::<Result<_, GameError>>()?;
            return Ok(Observation {
                views,
                public: None,
            });
        }
        // Public members are alike in every view (the conformance suite checks it): they
        // are recorded and written once, in the spectator's view, for every seat.
        let spectator = Arc::new(self.spectator_after(before));
        let views = observers
            .iter()
            .map(|&observer| {
                let view: Box<dyn ObservedView> = match observer {
                    None => Box::new(spectator.clone()),
                    Some(seat) => Box::new(Observed::sharing(
                        self.own_view(seat)?,
                        G::PUBLIC_VIEW_MEMBERS,
                        &spectator,
                    )),
                };
                Ok(view)
            })
            .collect::<Result<_, GameError>>()?;
        Ok(Observation {
            views,
            public: Some(PublicView(spectator)),
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    fn why(&self, seat: Seat, action: &Value) -> Result<Explanation, GameError> {
        self.check_seat(seat)?;
        let (action, _) = parse_new_action::<G>(action)?;
        Ok(match self.state.explain(seat, &action) {
            None => Explanation {
                legal: true,
                rule: self.state.rule_of(&action),
                reason: None,
            },
            Some(refusal) => Explanation {
                legal: false,
                rule: refusal.rule,
                reason: Some(refusal.reason),
            },
        })
    }

    fn rules(&self) -> &'static [&'static str] {
        G::RULES
    }

    fn record(&self) -> Value {
        to_json(&GameRecord {
            game: G::NAME.to_string(),
            config: self.state.config().clone(),
            seed: self.seed,
            actions: self.actions.clone(),
        })
    }

    fn render_text(&self, seat: Option<Seat>) -> String {
        self.state.render_view(seat)
    }

    fn box_clone(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn action_count(&self) -> Option<usize> {
        G::action_count(self.state.config())
    }

    fn action_index(&self, action: &Value) -> Result<usize, GameError> {
        self.index_of(action)
    }

    fn action_at(&self, index: usize) -> Result<Value, GameError> {
        Ok(to_json(&self.typed_action_at(index)?))
    }

    fn legal_indices(&self, out: &mut Vec<usize>) -> Result<(), GameError> {
        self.push_legal_indices(out)
    }

    fn apply_index(&mut self, index: usize) -> Result<(), GameError> {
        self.apply_at(index)
    }

    fn observation_len(&self) -> Option<usize> {
        G::observation_len(self.state.config())
    }

    fn observe_into(&self, seat: Seat, out: &mut [f32]) -> Result<(), GameError> {
        self.observe_checked(seat, out)
    }
}

/// The events of each action of a game, in order.
pub type EventLog<G> = Vec<Vec<<G as Game>::Event>>;

/// Replays a record: the game after all its actions, with every action's events. Which
/// moves were undo barriers is judged on the position before each ([`Game::reveals`]), so
/// callers who need it replay through [`ErasedGame::replay_json`].
pub fn replay<G: Game>(
    config: &G::Config,
    seed: u64,
    actions: &[G::Action],
) -> Result<(G, EventLog<G>), GameError> {
    let mut state = G::new(config, seed)?;
    let mut log = Vec::with_capacity(actions.len());
    for (i, action) in actions.iter().enumerate() {
        let mut events = Vec::new();
        state.apply(*action, &mut events).map_err(|e| {
            GameError::new(
                GameErrorKind::Illegal,
                format!("action #{i}: {}", e.message),
            )
        })?;
        log.push(events);
    }
    Ok((state, log))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::unread_field;

    #[test]
    fn a_field_the_game_did_not_read_is_found_at_any_depth() {
        let read = json!({"type": "build", "card": 3, "pay": null, "at": {"q": 1, "r": 2}});
        for (sent, unread) in [
            (json!({"type": "build", "card": 3}), None),
            (json!({"type": "build", "card": 3, "pay": null}), None),
            (json!({"type": "build", "card": 3, "x": "…"}), Some("/x")),
            (
                json!({"type": "build", "card": 3, "at": {"q": 1, "r": 2, "s": 0}}),
                Some("/at/s"),
            ),
            (json!({"type": "build", "card": {"id": 3}}), Some("/card")),
        ] {
            assert_eq!(
                unread_field(&sent, &read, String::new()).as_deref(),
                unread,
                "{sent}"
            );
        }
        // A set in another order or with repeats names no field.
        let read = json!({"type": "complete", "pay_from": ["bag", "cart"]});
        for sent in [
            json!({"type": "complete", "pay_from": ["cart", "bag"]}),
            json!({"type": "complete", "pay_from": ["cart", "bag", "bag"]}),
        ] {
            assert_eq!(unread_field(&sent, &read, String::new()), None, "{sent}");
        }
        let sent = json!({"type": "complete", "pay_from": [{"x": 1}]});
        assert_eq!(
            unread_field(&sent, &read, String::new()).as_deref(),
            Some("/pay_from/0")
        );
    }
}
