//! Conformance of the optional fixed spaces ([`crate::encoding`]): index bijection on every
//! legal action, `is_legal` agreeing with the list on the whole space, observations of the
//! right length, finite, equal on determinizations, and the [`DynGame`] fast path
//! (indices, masks, typed errors that change nothing).

use std::collections::HashSet;

use crate::playout::random_action;
use crate::{rng_from_seed, DynGame, ErasedGame, Game, GameErrorKind, Rng, Seat};

/// The whole action space of `config`, index by index: every index decodes to an action
/// that encodes back to it (so no two indices share an action), and the first index past
/// the end decodes to nothing. Exhaustive: spaces are at most some tens of thousands.
pub(super) fn check_bijection<G: Game>(config: &G::Config) {
    let Some(count) = G::action_count(config) else {
        assert!(
            G::action_at(config, 0).is_none(),
            "{}: action_at without an action space",
            G::NAME
        );
        return;
    };
    for index in 0..count {
        let action = G::action_at(config, index).unwrap_or_else(|| {
            panic!(
                "{}: index {index} of 0..{count} decodes to nothing",
                G::NAME
            )
        });
        assert_eq!(
            G::action_index(config, &action),
            Some(index),
            "{}: index {index} decodes to {action:?}, which encodes elsewhere",
            G::NAME
        );
    }
    assert!(
        G::action_at(config, count).is_none(),
        "{}: index {count} lies past the action space but decodes",
        G::NAME
    );
}

/// Per-state checks of the spaces, when the game has them: every legal action has an index
/// in range, unique, that decodes back to it; every seat's observation is finite, of the
/// declared length, and the same in a determinization of that seat's view.
pub(super) fn check_spaces<G: Game>(
    state: &G,
    legal: &[G::Action],
    seed: u64,
    step: u64,
    rng: &mut Rng,
) {
    let config = state.config();
    if let Some(count) = G::action_count(config) {
        let mut indices = HashSet::new();
        for a in legal {
            let index = G::action_index(config, a).unwrap_or_else(|| {
                panic!("seed {seed} step {step}: legal {a:?} has no action index")
            });
            assert!(
                index < count,
                "seed {seed} step {step}: {a:?} has index {index} outside 0..{count}"
            );
            assert!(
                indices.insert(index),
                "seed {seed} step {step}: two legal actions share index {index}"
            );
            assert_eq!(
                G::action_at(config, index).as_ref(),
                Some(a),
                "seed {seed} step {step}: action_at(action_index({a:?})) differs"
            );
        }
        check_is_legal_on_the_space(state, &indices, count, seed, step);
    }
    let Some(len) = G::observation_len(config) else {
        return;
    };
    let mut observed = vec![0.0f32; len];
    let mut sampled = vec![0.0f32; len];
    for seat in 0..state.seats() as Seat {
        state.observe_into(seat, &mut observed);
        if let Some(bad) = observed.iter().position(|v| !v.is_finite()) {
            panic!("seed {seed} step {step}: seat {seat}'s observation[{bad}] is not finite");
        }
        let sample = state.determinize(Some(seat), rng);
        sample.observe_into(seat, &mut sampled);
        if let Some(at) = (0..len).find(|&i| observed[i] != sampled[i]) {
            panic!(
                "seed {seed} step {step}: seat {seat}'s observation[{at}] changes under \
                 determinize ({} vs {}): it shows something the seat may not know",
                observed[at], sampled[at]
            );
        }
    }
}

/// `is_legal` agrees with the list on the whole action space: an action is legal exactly
/// when its index is a legal action's. A game may answer `is_legal` without listing (a check
/// per action), so the two must be compared on the actions that are not listed too.
fn check_is_legal_on_the_space<G: Game>(
    state: &G,
    legal: &HashSet<usize>,
    count: usize,
    seed: u64,
    step: u64,
) {
    for index in 0..count {
        let action = G::action_at(state.config(), index)
            .unwrap_or_else(|| panic!("seed {seed} step {step}: index {index} decodes to nothing"));
        assert_eq!(
            state.is_legal(&action),
            legal.contains(&index),
            "seed {seed} step {step}: is_legal({action:?}) disagrees with legal_actions"
        );
    }
}

/// Collects the distinct observations of seat 0 along a game, so that a game whose
/// encoder writes a constant (and so passes every equality check) fails.
#[derive(Default)]
pub(super) struct Variety {
    seen: HashSet<Vec<u32>>,
}

impl Variety {
    pub(super) fn record<G: Game>(&mut self, state: &G) {
        let Some(len) = G::observation_len(state.config()) else {
            return;
        };
        let mut out = vec![0.0f32; len];
        state.observe_into(0, &mut out);
        self.seen.insert(out.iter().map(|v| v.to_bits()).collect());
    }

    pub(super) fn check<G: Game>(&self, config: &G::Config, seed: u64) {
        if G::observation_len(config).is_some() {
            assert!(
                self.seen.len() > 1,
                "seed {seed}: seat 0's observation never changed during a whole game"
            );
        }
    }
}

/// Plays a random game of `config` through [`DynGame`]'s index fast path: `legal_indices`
/// must be the indices of `legal_actions_json`, `apply_index` of a legal index must play
/// it, and every bad request (an illegal or out-of-range index, a wrong buffer, a seat
/// outside the table) must be a typed error that leaves the record unchanged.
pub(super) fn check_index_fast_path<G: Game>(config: &G::Config, seed: u64) {
    let mut game = ErasedGame::<G>::new(config, seed).expect("config of the suite is valid");
    let Some(count) = game.action_count() else {
        assert_eq!(
            game.legal_indices(&mut Vec::new()).map_err(|e| e.kind),
            Err(GameErrorKind::NoSpaces),
            "a game without an action space must say so"
        );
        return;
    };
    let len = game.observation_len();
    let mut observation = vec![0.0f32; len.unwrap_or(0)];
    let mut rng = rng_from_seed(seed ^ 0x1d5);
    let mut indices = Vec::new();
    let mut typed = Vec::new();
    let mut step = 0u64;
    while game.to_move().is_some() {
        indices.clear();
        game.legal_indices(&mut indices)
            .unwrap_or_else(|e| panic!("seed {seed} step {step}: legal_indices: {e}"));
        let from_json: Vec<usize> = game
            .legal_actions_json()
            .iter()
            .map(|offered| {
                game.action_index(&offered.action)
                    .unwrap_or_else(|e| panic!("seed {seed} step {step}: action_index: {e}"))
            })
            .collect();
        assert_eq!(
            indices, from_json,
            "seed {seed} step {step}: legal_indices differ from the legal actions' indices"
        );
        for &index in &indices {
            let action = game.action_at(index).expect("a legal index decodes");
            assert_eq!(game.action_index(&action).ok(), Some(index));
        }
        refuse_bad_requests(&mut game, &indices, count, &mut observation, seed, step);
        if len.is_some() {
            let seat = game.to_move().expect("the game is not over");
            game.observe_into(seat, &mut observation)
                .unwrap_or_else(|e| panic!("seed {seed} step {step}: observe_into: {e}"));
        }
        // The same choice as a random playout of the typed game, so the two can agree.
        let action = random_action(game.state(), &mut rng, &mut typed).expect("not over");
        let index = G::action_index(config, &action).expect("a legal action has an index");
        game.apply_index(index)
            .unwrap_or_else(|e| panic!("seed {seed} step {step}: apply_index({index}): {e}"));
        step += 1;
    }
    let after = game.record();
    assert_eq!(
        game.apply_index(0).map_err(|e| e.kind),
        Err(GameErrorKind::GameOver),
        "seed {seed}: apply_index after the end must be refused with game_over"
    );
    assert_eq!(game.record(), after);
}

fn refuse_bad_requests<G: Game>(
    game: &mut ErasedGame<G>,
    legal: &[usize],
    count: usize,
    observation: &mut [f32],
    seed: u64,
    step: u64,
) {
    // The state and the count of recorded actions (not the record's JSON: comparing it at
    // every step would make the check quadratic in the game's length).
    let before = (game.state().clone(), game.actions().len());
    let refused = |kind: Option<GameErrorKind>, expected: GameErrorKind, what: &str| {
        assert_eq!(
            kind,
            Some(expected),
            "seed {seed} step {step}: {what} must be refused with {expected:?}"
        );
    };
    refused(
        game.apply_index(count).err().map(|e| e.kind),
        GameErrorKind::IndexOutOfRange,
        "an index past the action space",
    );
    refused(
        game.action_at(count).err().map(|e| e.kind),
        GameErrorKind::IndexOutOfRange,
        "action_at past the action space",
    );
    if let Some(illegal) = (0..count).find(|i| !legal.contains(i)) {
        refused(
            game.apply_index(illegal).err().map(|e| e.kind),
            GameErrorKind::Illegal,
            "an illegal index",
        );
    }
    if game.observation_len().is_some() {
        refused(
            game.observe_into(0, &mut vec![0.0; observation.len() + 1])
                .err()
                .map(|e| e.kind),
            GameErrorKind::BadBuffer,
            "a buffer of the wrong length",
        );
        refused(
            game.observe_into(game.seats() as Seat, observation)
                .err()
                .map(|e| e.kind),
            GameErrorKind::BadSeat,
            "a seat outside the table",
        );
    }
    assert!(
        (game.state(), game.actions().len()) == (&before.0, before.1),
        "seed {seed} step {step}: a refused request changed the game"
    );
}
