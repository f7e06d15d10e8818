use std::fmt::Debug;
use std::hash::Hash;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{ActionError, ActionErrorKind, ConfigOption, Outcome, Refusal, Rng, SetupError};

/// A seat at the table: 0-based, in clockwise order.
pub type Seat = u8;

/// Where `apply` reports what happened. `Vec<E>` collects events for logs, clients and
/// replays; [`NoEvents`] drops them so that playouts pay nothing for the log.
pub trait EventSink<E> {
    fn emit(&mut self, event: E);
}

impl<E> EventSink<E> for Vec<E> {
    #[inline]
    fn emit(&mut self, event: E) {
        self.push(event);
    }
}

/// An event sink that discards everything (simulations, search).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoEvents;

impl<E> EventSink<E> for NoEvents {
    #[inline(always)]
    fn emit(&mut self, _event: E) {}
}

/// The most features a fitted evaluation may have (`Game::EVALUATION_FEATURES`).
pub const MAX_EVALUATION_FEATURES: usize = 32;

/// The contract every game implements.
///
/// Invariants the conformance suite ([`crate::conformance`]) checks for every game:
/// - `to_move()` is `None` exactly when the game is over, and then `legal_actions` is empty;
///   otherwise `legal_actions` is non-empty and has no duplicates;
/// - `apply` of a listed action never fails; `apply` of anything else returns an error and
///   leaves the state exactly as it was;
/// - `new(config, seed)` followed by the same actions always gives the same state;
/// - `view(seat)` is unchanged by `determinize(seat, …)`.
pub trait Game: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// Everything that shapes a game besides the seed: player count, variants, data.
    type Config: Clone + Debug + Default + Serialize + DeserializeOwned + Send + Sync;
    /// One atomic decision. Small and `Copy`; its JSON form is what clients send.
    type Action: Copy + Debug + Eq + Hash + Serialize + DeserializeOwned + Send + Sync;
    /// What one seat (or a spectator) may know.
    type View: Clone + Debug + PartialEq + Serialize + Send + Sync + 'static;
    /// What an action did: ids and numbers, never sentences.
    type Event: Clone + Debug + PartialEq + Serialize + Send;

    /// The name the registry, the CLI and the server use ("valdora").
    const NAME: &'static str;

    /// What each of [`crate::SeatResult::tiebreaks`] is, in order, for people reading an
    /// outcome ("coins"). Empty when the game has no tie-break.
    const TIEBREAKS: &'static [&'static str] = &[];

    /// The ids of the numbered rules of the game's spec (`V-C1`, `V-T1`, …), in the spec's
    /// order: what the rules panel shows and what every [`Refusal`] cites (the conformance
    /// suite checks that it cites one of these).
    const RULES: &'static [&'static str];

    /// The start position for `config`; all chance is drawn from `seed`.
    fn new(config: &Self::Config, seed: u64) -> Result<Self, SetupError>;

    /// Makes `config` use a corrected component data file (TOML text) instead of the
    /// shipped one, validating it. Games without data files refuse.
    fn load_data(config: &mut Self::Config, text: &str) -> Result<(), SetupError> {
        let _ = (config, text);
        Err(SetupError::Data(format!(
            "{} has no component data file",
            Self::NAME
        )))
    }

    /// The component data entries of `config` that are placeholders, not verified against
    /// the printed game. Users are told (README, views, CLI). Empty when all is confirmed.
    fn provisional_data(config: &Self::Config) -> &[String] {
        let _ = config;
        &[]
    }

    /// The component tables a client draws from, compiled from `config`'s data (defaults
    /// applied, provisional flags kept, derived geometry included) as JSON of a type the
    /// game exports with ts-rs; `None` for a game whose views carry everything a board draws.
    fn components(config: &Self::Config) -> Option<serde_json::Value> {
        let _ = config;
        None
    }

    /// The config fields a person chooses when starting a game, with their accepted values
    /// (the first is always `players`). Every value they accept must start a game.
    fn config_options() -> Vec<ConfigOption>;

    /// The config this game was created with.
    fn config(&self) -> &Self::Config;

    /// Number of seats at the table.
    fn seats(&self) -> usize;

    /// Who decides next, or `None` once the game is over. The seat may differ from the
    /// seat whose turn it is (reactions).
    fn to_move(&self) -> Option<Seat>;

    /// Appends every legal action of the seat to move to `out` (the caller clears it).
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Whether `action` is legal now. The default lists the legal actions; games may
    /// answer faster.
    fn is_legal(&self, action: &Self::Action) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        legal.contains(action)
    }

    /// Applies an action that `legal_actions` listed. Behaviour for any other action is
    /// unspecified (it may corrupt the state); use [`Game::apply`] for untrusted input.
    fn apply_unchecked(&mut self, action: Self::Action, events: &mut impl EventSink<Self::Event>);

    /// Checked apply: either the action is legal and the state advances, or a typed error
    /// is returned and the state is untouched.
    fn apply(
        &mut self,
        action: Self::Action,
        events: &mut impl EventSink<Self::Event>,
    ) -> Result<(), ActionError> {
        if self.to_move().is_none() {
            return Err(ActionError::new(
                ActionErrorKind::GameOver,
                "the game is over; no action is accepted",
            ));
        }
        if !self.is_legal(&action) {
            return Err(ActionError::new(
                ActionErrorKind::Illegal,
                format!("{action:?} is not legal now"),
            ));
        }
        self.apply_unchecked(action, events);
        Ok(())
    }

    /// The rule `action` follows when it is legal: the link from an offered action into
    /// the rules panel. Judged from the action and the position (a payment follows the
    /// rule of what is being paid for).
    fn rule_of(&self, action: &Self::Action) -> &'static str;

    /// Why `seat` may not take `action` now, or `None` when it may (exactly when it is
    /// `seat`'s decision and [`Game::is_legal`]). The refusal names the first rule the
    /// action breaks, in the order a person checks them: whose decision it is, then the
    /// step of the turn, then the action's own conditions. `action` is any well-formed
    /// action, typically a target the board drew that is not offered now.
    fn explain(&self, seat: Seat, action: &Self::Action) -> Option<Refusal>;

    /// What `seat` may know; `None` is the spectator. Never contains anything the seat
    /// may not know.
    fn view(&self, seat: Option<Seat>) -> Self::View;

    /// The top-level members of [`Game::View`] that are alike in every seat's view and the
    /// spectator's: the public part of a position (OpenSpiel's public observation). The
    /// server records and writes them once per move, from the spectator's view
    /// ([`crate::DynGame::observe`]), and works out their patch once for all watchers. A
    /// member named here that differed by seat would show that seat the spectator's
    /// version, never more; the conformance suite checks that every named member is alike
    /// for all.
    const PUBLIC_VIEW_MEMBERS: &'static [&'static str] = &[];

    /// `seat`'s view, except that the members named in [`Game::PUBLIC_VIEW_MEMBERS`] may
    /// be left empty: the server builds several seats' views of a position at once and
    /// takes those members from the spectator's view. Every other member is
    /// `view(Some(seat))`'s (the conformance suite checks it). A game overrides it to
    /// skip building, for every seat, what every seat sees alike.
    fn own_view(&self, seat: Seat) -> Self::View {
        self.view(Some(seat))
    }

    /// The spectator's view of this position, reached from `before` by one action, except
    /// that members named in [`Game::PUBLIC_VIEW_MEMBERS`] that are alike in
    /// `before.view(None)` may be left empty, each one left so pushed to `unchanged`: the
    /// server takes them from the view it built of `before`. Every other member is
    /// `view(None)`'s, and every member named in `unchanged` is public and alike in both
    /// positions (the conformance suite checks both). A game overrides it to skip
    /// building, move after move, the large parts of its table that most moves leave as
    /// they were.
    fn spectator_view_after(&self, before: &Self, unchanged: &mut Vec<&'static str>) -> Self::View {
        let _ = (before, unchanged);
        self.view(None)
    }

    /// A full state consistent with `view(seat)`, every hidden thing resampled from `rng`.
    fn determinize(&self, seat: Option<Seat>, rng: &mut Rng) -> Self;

    /// Scores, breakdown and ranks once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Turns begun so far (for statistics; a turn may hold many actions).
    fn turns(&self) -> u32;

    /// Turns after which the bots take a running game for stalled. Set by a game whose
    /// end depends on its players (Valdora, V-E1): there the only seats able to end it
    /// may be seats that would lose by ending it, and a bot that ranks a lost ending below
    /// every running position then walks for ever. Far beyond the longest game the bots'
    /// tables play to the end, so it never changes an ordinary game. Past it, the bots
    /// judge every position by [`Game::points_now`], ended or not: ending with more points
    /// beats walking. `None`: the game ends by its rules whatever the players do.
    const STALLED_AFTER_TURNS: Option<u32> = None;

    /// Whether the bots take this running game for stalled ([`Game::STALLED_AFTER_TURNS`]).
    fn stalled(&self) -> bool {
        Self::STALLED_AFTER_TURNS.is_some_and(|turns| self.turns() > turns)
    }

    /// The points `seat` would have if the game ended as it stands (the final score once
    /// it is over). What the bots judge a stalled game by; the default is
    /// [`Game::evaluate`], which games with [`Game::STALLED_AFTER_TURNS`] override.
    fn points_now(&self, seat: Seat) -> f64 {
        self.evaluate(seat)
    }

    /// A heuristic estimate of the points `seat` will end the game with, judged from the
    /// position (bots: greedy's leaf value, ISMCTS's rollout cut-off). Only differences
    /// between seats and between positions matter; the scale is the game's points. Games
    /// override it with points now plus progress; the default is the final score once the
    /// game is over and 0 before, which makes the bots play blind but still legally.
    fn evaluate(&self, seat: Seat) -> f64 {
        self.outcome()
            .and_then(|o| o.seats.iter().find(|r| r.seat == seat).map(|r| r.score))
            .map_or(0.0, f64::from)
    }

    /// The lead in points that a bot counts as e:1 odds of winning when it turns
    /// evaluations into win chances (ISMCTS's rewards): the scale of a game's scores, so
    /// a game whose scores run a third of another's needs about a third of its
    /// temperature. Chosen by arena runs (docs/bots.md, "Temperature").
    const EVALUATION_TEMPERATURE: f64 = 20.0;

    /// The bot levels' ratings in this game (`easy`, `medium`, `hard`): Bradley-Terry on
    /// the Elo scale with random play at 0, measured by a round robin of the arena
    /// (docs/bots.md, "The levels rated"). The server rates people on the same scale and
    /// counts a level at a rated table as an opponent of this fixed rating.
    const LEVEL_RATINGS: &'static [(&'static str, f64)] = &[];

    /// Names of the features [`Game::evaluation_features`] writes, in order (at most
    /// [`MAX_EVALUATION_FEATURES`]). Empty for a game without a fitted evaluation.
    const EVALUATION_FEATURES: &'static [&'static str] = &[];

    /// Weights of the fitted evaluation, one per feature: fitted by least squares on
    /// positions of simulated games against the final scores (`tabletop positions`, then
    /// `scripts/fit-evaluation`). Empty for a game without one.
    const FITTED_WEIGHTS: &'static [f64] = &[];

    /// The features of the position for `seat`, one per name of
    /// [`Game::EVALUATION_FEATURES`], judged from what the state holds (a bot calls it on
    /// its own determinization). `out` has at least that many entries.
    fn evaluation_features(&self, seat: Seat, out: &mut [f64]) {
        let _ = (seat, out);
    }

    /// [`Game::evaluation_features`] for a sum with `weights`: a game may leave a feature
    /// that costs much to compute at 0 where its weight is 0 (missing weights count 0).
    /// The default computes them all.
    fn weighed_features(&self, seat: Seat, weights: &[f64], out: &mut [f64]) {
        let _ = weights;
        self.evaluation_features(seat, out);
    }

    /// The fitted estimate of the points `seat` will end with: the weighted sum of its
    /// features, the final score once the game is over, and [`Game::evaluate`] for a
    /// game without fitted weights. The strongest bots read it (`eval=fitted`).
    fn evaluate_fitted(&self, seat: Seat) -> f64 {
        self.evaluate_weighted(seat, Self::FITTED_WEIGHTS)
    }

    /// The fitted estimate without the features that cost much to compute, for the
    /// positions a search plays many of and needs less exactly (the other seats' turns in
    /// a rollout's samples). [`Game::evaluate_fitted`] in a game without such features.
    fn evaluate_fast(&self, seat: Seat) -> f64 {
        self.evaluate_fitted(seat)
    }

    /// The weighted sum of `seat`'s features with `weights` (one per feature; missing
    /// ones count 0): [`Game::evaluate_fitted`] with other weights, for trying them out.
    /// The final score once the game is over, and [`Game::evaluate`] without weights or
    /// features.
    fn evaluate_weighted(&self, seat: Seat, weights: &[f64]) -> f64 {
        if weights.is_empty() || Self::EVALUATION_FEATURES.is_empty() || self.to_move().is_none() {
            return self.evaluate(seat);
        }
        let mut features = [0.0; MAX_EVALUATION_FEATURES];
        self.weighed_features(seat, weights, &mut features);
        weights.iter().zip(features).map(|(w, x)| w * x).sum()
    }

    /// The position as text for a terminal player (`tabletop play`). The default prints
    /// the view as indented JSON; games override it with something readable.
    fn render_view(&self, seat: Option<Seat>) -> String {
        serde_json::to_string_pretty(&self.view(seat))
            .unwrap_or_else(|e| format!("(the view does not serialize: {e})"))
    }

    /// A short human-readable description of an action for logs and terminal play.
    fn describe_action(&self, action: &Self::Action) -> String {
        format!("{action:?}")
    }

    /// For terminal play, an action a person picks in two steps: `(first, second)`, where
    /// every legal action with the same `first` text is offered as one entry and `second`
    /// tells them apart (Pandoria: a placement's cell, then its direction). `None`, the
    /// default, offers the action on its own. Presentation only: actions stay atomic.
    fn describe_action_steps(&self, action: &Self::Action) -> Option<(String, String)> {
        let _ = action;
        None
    }

    /// What `viewer` (`None`: the spectator) is told of `event`: `None` for the event as it
    /// is, or the form that leaves out what the viewer may not keep knowing. Events are
    /// logged, and a log is read long after the move: a game whose rules hide a part of the
    /// table once it has happened (Valdora's completed commissions, V-I1) says here what
    /// the other seats are told instead. The default tells everyone everything.
    fn event_seen_by(&self, event: &Self::Event, viewer: Option<Seat>) -> Option<Self::Event> {
        let _ = (event, viewer);
        None
    }

    /// Whether `event`, emitted by applying one action to `self`, showed some viewer (a
    /// seat or the spectator) something it did not know, or drew chance: a card turned or
    /// drawn, a tile drawn, a hidden card played, a book face shown for the first time, a
    /// shuffle. A move (one action) is an undo *barrier* when any of its events reveals
    /// ([`crate::LoggedEvent::is_barrier`]): a seat may take back its own moves made since
    /// the last barrier, since undoing them restores nothing anyone could not have had.
    ///
    /// `self` is the position **before** the action, not the one it left: whether a card
    /// played from a hand or a page turned shows anything new depends on what the table
    /// knew before (Valley's hand ∪ deck split, K-Z12; Valdora's seen faces, V-I2), which
    /// the event alone does not say and the position after no longer holds. Events are
    /// judged one by one against that position, which is exact because the reveals that
    /// depend on knowledge are never two in one move. A move that reveals must emit at
    /// least one event that says so (a move with no events is no barrier).
    ///
    /// The default is `true`: every move is a barrier unless a game says otherwise. The
    /// conformance suite checks that a move the game calls no barrier leaves every
    /// viewer's view the same whatever that viewer could not see.
    fn reveals(&self, event: &Self::Event) -> bool {
        let _ = event;
        true
    }

    /// The size of the fixed action space under `config`, or `None`, the default, when the
    /// game has none (the optional extension for learning code, [`crate::encoding`]). When
    /// `Some(n)`, [`Game::action_index`] and [`Game::action_at`] are a bijection between
    /// every action that can ever be legal under `config` and `0..n`.
    fn action_count(config: &Self::Config) -> Option<usize> {
        let _ = config;
        None
    }

    /// The index of `action` in the fixed action space of `config`; `None` for an action
    /// outside it (or when the game has no fixed space).
    fn action_index(config: &Self::Config, action: &Self::Action) -> Option<usize> {
        let _ = (config, action);
        None
    }

    /// The action at `index` of the fixed action space of `config`; `None` outside
    /// `0..action_count(config)`.
    fn action_at(config: &Self::Config, index: usize) -> Option<Self::Action> {
        let _ = (config, index);
        None
    }

    /// The length of a seat's observation tensor under `config`, or `None`, the default,
    /// when the game encodes none.
    fn observation_len(config: &Self::Config) -> Option<usize> {
        let _ = config;
        None
    }

    /// Writes what `seat` may know of this position into `out`, seat-relative (the
    /// observing seat first), each value scaled to about [0, 1]. Called only when
    /// [`Game::observation_len`] is `Some(out.len())` and `seat` is at the table
    /// ([`crate::DynGame::observe_into`] checks both). Must not allocate, and must be equal
    /// on `determinize(Some(seat), …)` (the conformance suite checks it).
    fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        let _ = seat;
        out.fill(0.0);
    }

    /// A short human-readable sentence for an event, for logs and terminal play ("Seat 2
    /// moves to Harbour City"). It says no more than the event carries: games name its
    /// ids from their rules data, never from the state. The default is the event's JSON.
    fn describe_event(&self, event: &Self::Event) -> String {
        serde_json::to_string(event).unwrap_or_else(|_| format!("{event:?}"))
    }
}
