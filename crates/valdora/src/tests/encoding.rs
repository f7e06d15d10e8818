//! The fixed action space and observation (docs/contract.md, "Action space and
//! observations"): the documented sizes, every well-formed action encoded injectively, and
//! V-I1 (another seat's completed commissions never reach the observation).

use engine::playout::random_action;
use engine::{rng_from_seed, Game, NoEvents};
use proptest::prelude::*;

use super::new_game;
use crate::actions::{Action, Items};
use crate::components::{Gem, Item, Side};
use crate::state::{Valdora, ValdoraConfig};

#[test]
fn sizes_are_the_documented_ones() {
    // docs/contract.md: 486 actions; 291 + 9P + 164P observation values.
    for players in 3..=5u8 {
        let config = ValdoraConfig {
            players,
            ..ValdoraConfig::default()
        };
        let p = usize::from(players);
        assert_eq!(Valdora::action_count(&config), Some(486));
        assert_eq!(
            Valdora::observation_len(&config),
            Some(291 + 9 * p + 164 * p)
        );
        eprintln!(
            "valdora {players}p: {} actions, observation {}",
            486,
            291 + 173 * p
        );
    }
}

fn side(i: u8) -> Side {
    if i.is_multiple_of(2) {
        Side::Left
    } else {
        Side::Right
    }
}

/// Any well-formed action, fields taken from their whole types (many outside the space).
fn any_action() -> impl Strategy<Value = Action> {
    (0u8..12, any::<u8>(), any::<u8>()).prop_map(|(variant, a, b)| {
        let item = Item::ALL[usize::from(a) % 7];
        match variant {
            0 => Action::Move { to: a },
            1 => Action::Pass,
            2 => Action::TakeProvisions,
            3 => Action::RefillSilver,
            4 => Action::End,
            5 => Action::Turn { from: side(a) },
            6 => Action::BuyEquipment {
                side: side(b),
                gold_from: item,
            },
            7 => Action::BuyCommission { side: side(a) },
            8 => Action::Return {
                commission: a,
                side: side(b),
            },
            9 => Action::Load {
                gem: Gem::ALL[usize::from(b) % 5],
                onto: item,
            },
            10 => Action::Unload { from: item },
            _ => Action::Complete {
                commission: a,
                pay_from: Items(b),
            },
        }
    })
}

proptest! {
    #[test]
    fn an_action_with_an_index_decodes_back_to_itself(action in any_action()) {
        let config = ValdoraConfig::default();
        if let Some(index) = Valdora::action_index(&config, &action) {
            prop_assert!(index < 486);
            prop_assert_eq!(Valdora::action_at(&config, index), Some(action));
        }
    }
}

/// V-I1: which commissions another seat completed lies hidden under its adventurer card;
/// changing them (same seat, same count) must not change the observer's observation, while
/// the owner sees its own.
#[test]
fn another_seats_completed_commissions_stay_hidden() {
    let mut rng = rng_from_seed(5);
    let mut legal = Vec::new();
    let mut found = 0;
    for _ in 0..40 {
        let mut game = new_game(4);
        while let Some(action) = random_action(&game, &mut rng, &mut legal) {
            game.apply(action, &mut NoEvents).expect("legal");
            let Some(card) = game
                .completed
                .iter()
                .position(|c| matches!(c, Some((1, _))))
            else {
                continue;
            };
            if game.scores_shown() {
                break;
            }
            let Some(free) = game.completed.iter().position(|c| c.is_none()) else {
                continue;
            };
            let mut other = game.clone();
            other.completed.swap(card, free);
            let len = Valdora::observation_len(game.config()).expect("spaces");
            let (mut a, mut b) = (vec![0.0; len], vec![0.0; len]);
            game.observe_into(0, &mut a);
            other.observe_into(0, &mut b);
            assert_eq!(game.view(Some(0)), other.view(Some(0)));
            assert_eq!(a, b, "seat 0 sees which commissions seat 1 completed");
            found += 1;
            break;
        }
        if found >= 5 {
            break;
        }
    }
    assert!(found > 0, "no position where seat 1 completed a commission");
}
