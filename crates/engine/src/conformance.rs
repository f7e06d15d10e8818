//! The conformance suite every game runs (board-game-rs style): generic checks of the
//! contract over random games. A game's tests call [`check_game`] for each config it
//! supports; a failure panics with the seed and the step, so it can be replayed.

use std::collections::HashSet;

use rand::seq::SliceRandom;

mod spaces;

use crate::playout::random_action;
use crate::{rng_from_seed, ActionErrorKind, Game, Observed, ObservedView, Rng, Seat, ViewPrint};

/// How much of the suite to run.
#[derive(Debug, Clone)]
pub struct Suite {
    /// Seeds of the random games to play.
    pub seeds: std::ops::Range<u64>,
    /// A random game that has not ended after this many actions fails the suite.
    pub max_actions: u64,
    /// Every how many steps the expensive per-state checks run (1 = every step).
    pub deep_check_every: u64,
}

impl Default for Suite {
    fn default() -> Self {
        Self {
            seeds: 0..20,
            max_actions: 100_000,
            deep_check_every: 1,
        }
    }
}

/// Runs every check on `config` for every seed of the suite.
pub fn check_game<G: Game>(config: &G::Config, suite: &Suite) {
    let rules: HashSet<_> = G::RULES.iter().collect();
    assert!(
        !G::RULES.is_empty() && rules.len() == G::RULES.len(),
        "{}: Game::RULES must list the spec's rule ids, each once",
        G::NAME
    );
    assert!(
        G::EVALUATION_FEATURES.len() <= crate::MAX_EVALUATION_FEATURES,
        "{}: at most {} evaluation features",
        G::NAME,
        crate::MAX_EVALUATION_FEATURES
    );
    assert!(
        G::FITTED_WEIGHTS.is_empty() || G::FITTED_WEIGHTS.len() == G::EVALUATION_FEATURES.len(),
        "{}: one fitted weight per evaluation feature",
        G::NAME
    );
    for seed in suite.seeds.clone() {
        check_one_game::<G>(config, seed, suite);
    }
    spaces::check_bijection::<G>(config);
    spaces::check_index_fast_path::<G>(config, suite.seeds.start);
}

fn check_one_game<G: Game>(config: &G::Config, seed: u64, suite: &Suite) {
    let start = G::new(config, seed).expect("config of the suite must be valid");
    assert_eq!(
        start,
        G::new(config, seed).expect("valid config"),
        "seed {seed}: new(config, seed) is not deterministic"
    );
    let mut state = start.clone();
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    let mut legal = Vec::new();
    let mut history: Vec<G::Action> = Vec::new();
    // Actions seen legal at some point; the ones not legal now are illegal candidates.
    let mut seen_actions: Vec<G::Action> = Vec::new();
    let mut seen_set = HashSet::new();
    let mut step = 0u64;
    // The undo check replays every move on samples, so it runs on one game of each call.
    let check_undo = seed == suite.seeds.start;
    let mut non_barriers = 0u64;
    let mut variety = spaces::Variety::default();
    loop {
        legal.clear();
        state.legal_actions(&mut legal);
        let mover = state.to_move();
        assert_eq!(
            mover.is_none(),
            legal.is_empty(),
            "seed {seed} step {step}: to_move is {mover:?} but {} legal actions",
            legal.len()
        );
        let unique: HashSet<_> = legal.iter().collect();
        assert_eq!(
            unique.len(),
            legal.len(),
            "seed {seed} step {step}: duplicate legal actions {legal:?}"
        );
        for a in &legal {
            if seen_set.insert(*a) {
                seen_actions.push(*a);
            }
        }
        if step.is_multiple_of(suite.deep_check_every) {
            check_state(&state, &legal, &seen_actions, seed, step, &mut rng);
            for seat in 0..state.seats() as Seat {
                assert!(
                    state.evaluate_fitted(seat).is_finite(),
                    "seed {seed} step {step}: seat {seat}'s fitted evaluation is not finite"
                );
            }
            spaces::check_spaces(&state, &legal, seed, step, &mut rng);
            variety.record(&state);
        }
        let Some(mover) = mover else {
            let outcome = state
                .outcome()
                .unwrap_or_else(|| panic!("seed {seed}: game over without outcome"));
            // Bots read `evaluate` as the points a seat ends with: at the end it is exact.
            for result in &outcome.seats {
                for value in [
                    state.evaluate(result.seat),
                    state.evaluate_fitted(result.seat),
                ] {
                    assert_eq!(
                        value,
                        f64::from(result.score),
                        "seed {seed}: seat {} evaluates to other than its final score",
                        result.seat
                    );
                }
            }
            break;
        };
        assert!(
            usize::from(mover) < state.seats(),
            "seed {seed} step {step}: to_move {mover} is not a seat"
        );
        assert!(
            state.outcome().is_none(),
            "seed {seed} step {step}: outcome before the end"
        );
        assert!(
            step < suite.max_actions,
            "seed {seed}: random play did not end within {} actions",
            suite.max_actions
        );
        let action = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
        let mut events = Vec::new();
        let before = state.clone();
        state
            .apply(action, &mut events)
            .unwrap_or_else(|e| panic!("seed {seed} step {step}: legal {action:?} refused: {e}"));
        check_spectator_view_after(&state, &before, seed, step);
        if !events.iter().any(|e| before.reveals(e)) {
            non_barriers += 1;
            if check_undo && step.is_multiple_of(suite.deep_check_every) {
                check_no_barrier(&before, action, &state, seed, step);
            }
        }
        history.push(action);
        step += 1;
    }
    // A game that called every move a barrier would pass the undo check trivially, and
    // its players could never take anything back.
    assert!(
        non_barriers > 0,
        "seed {seed}: every move of a random game is an undo barrier (Game::reveals)"
    );
    variety.check::<G>(config, seed);
    check_replay(config, seed, &history, &state);
    assert!(
        state.apply(history[0], &mut Vec::new()).map_err(|e| e.kind)
            == Err(ActionErrorKind::GameOver),
        "seed {seed}: a finished game must refuse actions with GameOver"
    );
}

/// Per-state checks: legal actions apply, illegal ones change nothing, hidden information
/// stays hidden under determinization.
fn check_state<G: Game>(
    state: &G,
    legal: &[G::Action],
    seen_actions: &[G::Action],
    seed: u64,
    step: u64,
    rng: &mut Rng,
) {
    for a in legal {
        assert!(
            state.is_legal(a),
            "seed {seed} step {step}: listed {a:?} but is_legal says no"
        );
        let mut copy = state.clone();
        copy.apply(*a, &mut Vec::new())
            .unwrap_or_else(|e| panic!("seed {seed} step {step}: legal {a:?} refused: {e}"));
    }
    for a in seen_actions.iter().filter(|a| !legal.contains(a)) {
        let mut copy = state.clone();
        let mut events = Vec::new();
        assert!(
            copy.apply(*a, &mut events).is_err(),
            "seed {seed} step {step}: illegal {a:?} was accepted"
        );
        assert!(
            events.is_empty(),
            "seed {seed} step {step}: refused {a:?} emitted events"
        );
        assert_eq!(
            &copy, state,
            "seed {seed} step {step}: refused {a:?} changed the state"
        );
    }
    check_view_parts(state, seed, step);
    check_explain(state, legal, seen_actions, seed, step, rng);
    let observers = (0..state.seats() as Seat).map(Some).chain([None]);
    for observer in observers {
        let view = state.view(observer);
        for _ in 0..2 {
            let sample = state.determinize(observer, rng);
            assert_eq!(
                sample.view(observer),
                view,
                "seed {seed} step {step}: determinize({observer:?}) changed what {observer:?} sees"
            );
            if observer.is_some() && observer == state.to_move() {
                let mut sampled_legal = Vec::new();
                sample.legal_actions(&mut sampled_legal);
                assert_eq!(
                    sampled_legal, legal,
                    "seed {seed} step {step}: the mover's options depend on hidden information"
                );
            }
        }
    }
}

/// "Why not?" agrees with the legal actions, cites rules of the game's spec, and tells a
/// seat nothing its view does not: every legal action is explained as legal by the rule it
/// follows; every seen action not legal now, and every action asked for by a seat that is
/// not to move, is refused with a rule of [`Game::RULES`]; and a seat's answers are the
/// same in a determinization of its view.
fn check_explain<G: Game>(
    state: &G,
    legal: &[G::Action],
    seen_actions: &[G::Action],
    seed: u64,
    step: u64,
    rng: &mut Rng,
) {
    let cites = |rule: &str, what: &str, a: &G::Action| {
        assert!(
            G::RULES.contains(&rule),
            "seed {seed} step {step}: {what} {a:?} cites {rule}, not a rule of {}",
            G::NAME
        );
    };
    let mover = state.to_move();
    for a in legal {
        let seat = mover.expect("legal actions only while someone is to move");
        assert_eq!(
            state.explain(seat, a),
            None,
            "seed {seed} step {step}: legal {a:?} explained as refused"
        );
        cites(state.rule_of(a), "legal", a);
        for other in (0..state.seats() as Seat).filter(|&s| s != seat) {
            let refusal = state.explain(other, a).unwrap_or_else(|| {
                panic!("seed {seed} step {step}: seat {other} may take {a:?} out of turn")
            });
            cites(refusal.rule, "out-of-turn", a);
        }
    }
    let asker = mover.unwrap_or(0);
    let illegal: Vec<&G::Action> = seen_actions.iter().filter(|a| !legal.contains(a)).collect();
    let refusals: Vec<_> = illegal
        .iter()
        .map(|a| {
            let refusal = state.explain(asker, a).unwrap_or_else(|| {
                panic!("seed {seed} step {step}: illegal {a:?} explained as legal")
            });
            cites(refusal.rule, "refused", a);
            refusal
        })
        .collect();
    let sample = state.determinize(Some(asker), rng);
    for (a, refusal) in illegal.iter().zip(&refusals) {
        assert_eq!(
            sample.explain(asker, a).as_ref(),
            Some(refusal),
            "seed {seed} step {step}: why {a:?} is refused depends on what seat {asker} cannot see"
        );
    }
}

/// Views are structs, recorded member by member (so that the server patches them member
/// by member); each member's JSON, and each element's of a member that is a sequence, is
/// written as the view's JSON has it; members with equal records have equal JSON; and every
/// member the game calls public is a member of its view, recorded alike for every seat and
/// the spectator (the server records it once per position).
fn check_view_parts<G: Game>(state: &G, seed: u64, step: u64) {
    let observers: Vec<Option<Seat>> = (0..state.seats() as Seat).map(Some).chain([None]).collect();
    let views: Vec<Observed<G::View>> = observers
        .iter()
        .map(|&o| Observed::new(state.view(o)))
        .collect();
    let jsons: Vec<serde_json::Value> = views.iter().map(|v| v.json()).collect();
    for ((view, json), observer) in views.iter().zip(&jsons).zip(&observers) {
        let print = view.print();
        assert!(
            print.is_split(),
            "a view is a struct, so that the server patches it member by member"
        );
        for member in print.members() {
            assert_eq!(
                view.member_json(member.key, None),
                [json[member.key].clone()],
                "seed {seed} step {step}: member {:?} of {observer:?}'s view",
                member.key
            );
            if let Some(elements) = member.elements() {
                let indices: Vec<usize> = (0..elements.len()).collect();
                assert_eq!(
                    Some(&view.member_json(member.key, Some(&indices))),
                    json[member.key].as_array(),
                    "seed {seed} step {step}: the elements of {:?} in {observer:?}'s view",
                    member.key
                );
            }
        }
    }
    let (spectator, spectator_json) = (&views[views.len() - 1], &jsons[jsons.len() - 1]);
    for ((seat_view, json), observer) in views.iter().zip(&jsons).zip(&observers) {
        for member in seat_view.print().members() {
            let other = spectator.print().member(member.key);
            if other.is_some_and(|o| o.bytes == member.bytes) {
                assert_eq!(
                    json[member.key], spectator_json[member.key],
                    "seed {seed} step {step}: {:?} is recorded alike for {observer:?} and \
                     the spectator, but written differently",
                    member.key
                );
            }
        }
        if let Some(seat) = *observer {
            let own = ViewPrint::of(&state.own_view(seat));
            for member in seat_view.print().members() {
                if !G::PUBLIC_VIEW_MEMBERS.contains(&member.key) {
                    assert_eq!(
                        own.member(member.key).map(|m| m.bytes),
                        Some(member.bytes),
                        "seed {seed} step {step}: own_view({seat}) differs from view({seat}) \
                         in {:?}, which is not public",
                        member.key
                    );
                }
            }
        }
        for &member in G::PUBLIC_VIEW_MEMBERS {
            let public = spectator.print().member(member);
            assert!(public.is_some(), "{member:?} is not a member of the view");
            assert_eq!(
                seat_view.print().member(member).map(|m| m.bytes),
                public.map(|m| m.bytes),
                "seed {seed} step {step}: public member {member:?} differs for {observer:?}"
            );
        }
    }
}

/// [`Game::spectator_view_after`] leaves out only public members, and only ones the action
/// left alike; every other member is the spectator's view's.
fn check_spectator_view_after<G: Game>(state: &G, before: &G, seed: u64, step: u64) {
    let mut unchanged = Vec::new();
    let partial = ViewPrint::of(&state.spectator_view_after(before, &mut unchanged));
    let (was, now) = (
        ViewPrint::of(&before.view(None)),
        ViewPrint::of(&state.view(None)),
    );
    for key in &unchanged {
        assert!(
            G::PUBLIC_VIEW_MEMBERS.contains(key),
            "seed {seed} step {step}: spectator_view_after left out {key:?}, which is not public"
        );
        assert_eq!(
            now.member(key).map(|m| m.bytes),
            was.member(key).map(|m| m.bytes),
            "seed {seed} step {step}: spectator_view_after left out {key:?}, which the action \
             changed"
        );
    }
    for member in now.members() {
        if !unchanged.contains(&member.key) {
            assert_eq!(
                partial.member(member.key).map(|m| m.bytes),
                Some(member.bytes),
                "seed {seed} step {step}: member {:?} of spectator_view_after is not view(None)'s",
                member.key
            );
        }
    }
}

/// How many samples of each viewer's knowledge a move that is no barrier is replayed on.
const UNDO_SAMPLES: u64 = 2;

/// A move the game calls no undo barrier ([`Game::reveals`] false for all its events)
/// shows no viewer anything new: for every viewer, the same action is legal in samples
/// of what that viewer could see before it (`determinize`), and leaves that viewer's view
/// as the real move left it. So undoing it would take back nothing the viewer could not
/// have had, whatever it could not see. Samples come from their own RNG, so the check
/// does not change the random games the rest of the suite plays.
fn check_no_barrier<G: Game>(before: &G, action: G::Action, after: &G, seed: u64, step: u64) {
    let mut rng = rng_from_seed(seed.rotate_left(32) ^ step ^ 0x0bad_d0d0);
    let observers = (0..before.seats() as Seat).map(Some).chain([None]);
    for viewer in observers {
        let view = after.view(viewer);
        for k in 0..UNDO_SAMPLES {
            let mut sample = before.determinize(viewer, &mut rng);
            sample.apply(action, &mut Vec::new()).unwrap_or_else(|e| {
                panic!(
                    "seed {seed} step {step}: {action:?} is no undo barrier, but sample {k} of \
                     what {viewer:?} could see refuses it, so making it showed {viewer:?} \
                     something: {e}"
                )
            });
            assert!(
                sample.view(viewer) == view,
                "seed {seed} step {step}: {action:?} is no undo barrier, but it shows \
                 {viewer:?} something that sample {k} of what {viewer:?} could see before \
                 does not (Game::reveals)"
            );
        }
    }
}

fn check_replay<G: Game>(config: &G::Config, seed: u64, history: &[G::Action], end: &G) {
    let (replayed, _) = crate::replay::<G>(config, seed, history)
        .unwrap_or_else(|e| panic!("seed {seed}: replay failed: {e}"));
    assert_eq!(&replayed, end, "seed {seed}: replay differs from the game");
    assert_eq!(
        format!("{replayed:?}"),
        format!("{end:?}"),
        "seed {seed}: replay is not byte-identical"
    );
}

/// Pearson's chi-squared test that [`random_action`] picks uniformly among the legal
/// actions of the states along a random game. Fails at significance 0.001.
pub fn check_uniform_random_choice<G: Game>(config: &G::Config, seed: u64, states: usize) {
    let mut state = G::new(config, seed).expect("valid config");
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    let mut legal = Vec::new();
    let mut tested = 0;
    while tested < states {
        legal.clear();
        state.legal_actions(&mut legal);
        if legal.is_empty() {
            break;
        }
        if legal.len() >= 2 {
            let k = legal.len();
            let draws = 200 * k;
            let mut counts = vec![0u64; k];
            for _ in 0..draws {
                let a = random_action(&state, &mut rng, &mut buf).expect("not over");
                let i = legal
                    .iter()
                    .position(|l| *l == a)
                    .expect("random action is legal");
                counts[i] += 1;
            }
            let expected = draws as f64 / k as f64;
            let chi2: f64 = counts
                .iter()
                .map(|&c| (c as f64 - expected).powi(2) / expected)
                .sum();
            let critical = chi_squared_critical_0_001(k - 1);
            assert!(
                chi2 < critical,
                "random choice not uniform over {k} actions: chi2 {chi2:.1} >= {critical:.1}"
            );
            tested += 1;
        }
        let a = *legal.choose(&mut rng).expect("non-empty");
        state.apply_unchecked(a, &mut crate::NoEvents);
    }
    assert!(tested > 0, "no state with a choice was found");
}

/// Upper 0.001 quantile of chi-squared with `df` degrees of freedom (Wilson–Hilferty).
fn chi_squared_critical_0_001(df: usize) -> f64 {
    let df = df as f64;
    let z = 3.090_232; // standard normal upper 0.001 quantile
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Checks that `determinize(seat, rng)` depends only on `view(seat)` and `rng`, which fair
/// bots need (`docs/bots.md`): along random games from `seeds`, every `stride` actions,
/// the seat to move gets a resampled twin of the state (same view, hidden part drawn
/// anew), and the original and the twin must give equal samples for equal RNG seeds.
/// Not part of [`check_game`]: a game opts in by calling it from its tests.
pub fn check_fair_determinization<G: Game>(
    config: &G::Config,
    seeds: std::ops::Range<u64>,
    stride: u64,
) {
    let mut buf = Vec::new();
    for seed in seeds {
        let mut state = G::new(config, seed).expect("the config sets up a game");
        let mut rng = rng_from_seed(seed ^ 0xFA1);
        let mut step = 0u64;
        while let Some(action) = random_action(&state, &mut rng, &mut buf) {
            if step.is_multiple_of(stride) {
                let seat = state.to_move();
                let twin = state.determinize(seat, &mut rng_from_seed(step ^ seed));
                assert!(
                    twin.view(seat) == state.view(seat),
                    "{}: a determinization changed the view of seat {seat:?}",
                    G::NAME
                );
                for k in 0..2 {
                    let a = state.determinize(seat, &mut rng_from_seed(k));
                    let b = twin.determinize(seat, &mut rng_from_seed(k));
                    assert!(
                        a == b,
                        "{}: seed {seed}, step {step}: two states with the same view of seat \
                         {seat:?} give different samples for the same RNG",
                        G::NAME
                    );
                }
            }
            state.apply_unchecked(action, &mut crate::NoEvents);
            step += 1;
        }
    }
}

/// Checks that [`Game::describe_event`] gives a sentence for every event of random games
/// from `seeds`: non-empty and without a `{`, so no event falls back to its JSON. Not part
/// of [`check_game`], whose games may keep the default; a game opts in from its tests.
pub fn check_event_sentences<G: Game>(config: &G::Config, seeds: std::ops::Range<u64>) {
    let mut buf = Vec::new();
    let mut events = Vec::new();
    let mut described = 0u64;
    for seed in seeds {
        let mut state = G::new(config, seed).expect("the config sets up a game");
        let mut rng = rng_from_seed(seed ^ 0xE7E);
        while let Some(action) = random_action(&state, &mut rng, &mut buf) {
            events.clear();
            state.apply_unchecked(action, &mut events);
            for event in &events {
                let sentence = state.describe_event(event);
                assert!(
                    !sentence.trim().is_empty() && !sentence.contains('{'),
                    "{}: seed {seed}: {event:?} is described as {sentence:?}, not a sentence",
                    G::NAME
                );
                described += 1;
            }
        }
    }
    assert!(described > 0, "{}: the games emitted no event", G::NAME);
}

/// A game's evaluation features are its heuristic's own quantities: weighted with
/// `heuristic_weights` (the heuristic's weights) they give `Game::evaluate` back, at every
/// position of random games from `seeds`, for every seat.
pub fn check_features_give_the_heuristic<G: Game>(
    config: &G::Config,
    seeds: std::ops::Range<u64>,
    heuristic_weights: &[f64],
) {
    assert_eq!(
        heuristic_weights.len(),
        G::EVALUATION_FEATURES.len(),
        "one weight per feature"
    );
    let mut checked = 0;
    for seed in seeds {
        let mut state = G::new(config, seed).expect("a valid config");
        let mut rng = rng_from_seed(seed);
        let mut buf = Vec::new();
        while let Some(action) = random_action(&state, &mut rng, &mut buf) {
            for seat in 0..state.seats() as Seat {
                let heuristic = state.evaluate(seat);
                let weighted = state.evaluate_weighted(seat, heuristic_weights);
                assert!(
                    (heuristic - weighted).abs() < 1e-9,
                    "seed {seed}: seat {seat} evaluates to {heuristic}, its weighted features to {weighted}"
                );
                checked += 1;
            }
            state.apply_unchecked(action, &mut crate::NoEvents);
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

/// Checks [`Game::config_options`]: `players` comes first, every default is one of its
/// choices, and every choice of every option starts a game at every player count the option
/// applies to (the other options at their defaults), with that many seats. A server builds
/// its "new game" form from these options, so none may offer a value that cannot start.
pub fn check_config_options<G: Game>() {
    use serde_json::{Map, Value};
    let options = G::config_options();
    let players = options
        .first()
        .filter(|o| o.key == "players")
        .unwrap_or_else(|| panic!("{}: the first config option must be players", G::NAME));
    for option in &options {
        assert!(
            option.accepts(&option.default),
            "{}: the default of {} is not one of its choices",
            G::NAME,
            option.key
        );
    }
    for count in players.choices.iter().filter_map(Value::as_u64) {
        let count = u8::try_from(count).expect("player counts fit a seat");
        for option in &options[1..] {
            if !option.players.is_empty() && !option.players.contains(&count) {
                continue;
            }
            for choice in &option.choices {
                let mut json = Map::new();
                json.insert("players".into(), Value::from(count));
                json.insert(option.key.into(), choice.clone());
                let config: G::Config =
                    serde_json::from_value(Value::Object(json)).unwrap_or_else(|e| {
                        panic!("{}: {}={choice} is not a config: {e}", G::NAME, option.key)
                    });
                let game = G::new(&config, 1).unwrap_or_else(|e| {
                    panic!(
                        "{}: {count} players with {}={choice} does not start: {e}",
                        G::NAME,
                        option.key
                    )
                });
                assert_eq!(game.seats(), usize::from(count), "{}", G::NAME);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn chi_squared_critical_values_match_tables() {
        // Tables: df 1 → 10.83, df 10 → 29.59, df 50 → 86.66.
        assert!((super::chi_squared_critical_0_001(10) - 29.59).abs() < 0.3);
        assert!((super::chi_squared_critical_0_001(50) - 86.66).abs() < 0.3);
    }
}
