//! Invariants over random games (proptest): cards are conserved across every zone, the
//! pyramid stays supported, hands stay canonical, views never show other hands, and a game
//! is a pure function of (config, seed, actions).

use engine::playout::random_action;
use engine::{rng_from_seed, Game, NoEvents};
use proptest::prelude::*;
use valley::{StarterType, Valley, ValleyConfig};

fn config(players: u8, pool: usize, last_rites_starters: bool, pharaohs: bool) -> ValleyConfig {
    let pool = ["base", "afterlife", "last_rites", "premium"][pool];
    ValleyConfig {
        players,
        pool: Some(if players > 4 { "premium" } else { pool }.into()),
        starters: last_rites_starters.then_some(StarterType::LastRites),
        pharaohs,
        ..ValleyConfig::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_invariants(
        seed in any::<u64>(),
        players in 2u8..=6,
        pool in 0usize..4,
        lr in any::<bool>(),
        pharaohs in any::<bool>(),
    ) {
        // rule K-Z11, K-Z2, K-G6, K-Z13
        let config = config(players, pool, lr, pharaohs);
        let mut g = Valley::new(&config, seed).expect("valid config");
        let cards = g.all_cards();
        let mut rng = rng_from_seed(seed);
        let mut side = rng_from_seed(!seed);
        let mut buf = Vec::new();
        let mut steps = 0u32;
        while let Some(a) = random_action(&g, &mut rng, &mut buf) {
            g.apply(a, &mut NoEvents).expect("a listed action applies");
            steps += 1;
            prop_assert!(steps < 50_000, "the game ends");
            prop_assert_eq!(g.all_cards(), cards.clone(), "cards are conserved");
            prop_assert!(g.phase() == valley::Phase::Over || g.pyramid_supported() || crumble_pending(&g));
            for s in 0..players {
                let hand = &g.zones(s).hand;
                prop_assert!(hand.windows(2).all(|w| w[0] <= w[1]), "canonical hand order");
            }
            if steps.is_multiple_of(97) {
                let v = g.view(Some(0));
                prop_assert!(v.seats.iter().skip(1).all(|s| s.hand.is_none()));
                let d = g.determinize(Some(0), &mut side);
                prop_assert_eq!(d.all_cards(), cards.clone());
                prop_assert_eq!(d.view(Some(0)), v);
            }
        }
        prop_assert!(g.outcome().is_some());
        // Determinism: the same seed and choices replay to the same state.
        let mut h = Valley::new(&config, seed).expect("valid config");
        let mut rng = rng_from_seed(seed);
        while let Some(a) = random_action(&h, &mut rng, &mut buf) {
            h.apply_unchecked(a, &mut NoEvents);
        }
        prop_assert_eq!(h, g);
    }
}

fn crumble_pending(g: &Valley) -> bool {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    legal
        .iter()
        .any(|a| matches!(a, valley::Action::CrumbleFrom { .. }))
}
