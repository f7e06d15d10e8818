//! The fixed action space and observation (docs/contract.md, "Action space and
//! observations"): the documented sizes, and K-Z12 (another seat's hidden hand cards never
//! reach the observation).

use engine::playout::random_action;
use engine::{rng_from_seed, Game, NoEvents};

use crate::state::{Valley, ValleyConfig};

#[test]
fn sizes_are_the_documented_ones() {
    // docs/contract.md: 30 + 5K actions; 29 + 10P + 10K + P(7K + 5) observation values.
    for players in 2..=6u8 {
        let config = ValleyConfig {
            players,
            ..ValleyConfig::default()
        };
        let (p, k) = (usize::from(players), config.rules.cards.len());
        assert_eq!(Valley::action_count(&config), Some(30 + 5 * k));
        assert_eq!(
            Valley::observation_len(&config),
            Some(29 + 10 * p + 10 * k + p * (7 * k + 5))
        );
        eprintln!(
            "valley {players}p, K = {k}: {} actions, observation {}",
            30 + 5 * k,
            29 + 10 * p + 10 * k + p * (7 * k + 5)
        );
    }
}

/// K-Z12: two positions that differ only in which unseen cards another seat holds in hand
/// and which lie in its deck give the observer the same observation.
#[test]
fn another_seats_hidden_hand_stays_hidden() {
    let config = ValleyConfig::default();
    let mut rng = rng_from_seed(3);
    let mut legal = Vec::new();
    let mut game = Valley::new(&config, 3).expect("default config");
    let len = Valley::observation_len(&config).expect("spaces");
    let (mut a, mut b) = (vec![0.0; len], vec![0.0; len]);
    let mut compared = 0;
    for _ in 0..400 {
        let Some(action) = random_action(&game, &mut rng, &mut legal) else {
            break;
        };
        game.apply(action, &mut NoEvents).expect("legal");
        let z = &game.seats[1];
        let hidden = z.hand.iter().find(|c| !z.known_in_hand.contains(c));
        let other = z.deck.iter().find(|&&d| Some(&d) != hidden);
        let (Some(&hidden), Some(&other)) = (hidden, other) else {
            continue;
        };
        let mut swapped = game.clone();
        let z = &mut swapped.seats[1];
        z.hand_remove(hidden);
        z.hand_add(other);
        let at = z
            .deck
            .iter()
            .position(|&d| d == other)
            .expect("in the deck");
        z.deck[at] = hidden;
        game.observe_into(0, &mut a);
        swapped.observe_into(0, &mut b);
        assert_eq!(a, b, "seat 0 sees seat 1's hidden hand");
        swapped.observe_into(1, &mut b);
        game.observe_into(1, &mut a);
        assert_ne!(a, b, "seat 1 does not see its own hand");
        compared += 1;
    }
    assert!(compared > 0, "no position to compare");
}
