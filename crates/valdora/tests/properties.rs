//! Invariants over thousands of random games (proptest): every state along every game.

use engine::{rng_from_seed, Game, NoEvents};
use proptest::prelude::*;
use valdora::books::BookKind;
use valdora::{Color, Item, Side, Valdora, ValdoraConfig};

const CARDS: [usize; 2] = [36, 54];

fn check_invariants(g: &Valdora, start: &Valdora) -> Result<(), TestCaseError> {
    let rules = g.rules();
    // V-C2: every gem is on a road space, in the discard area or on equipment.
    prop_assert_eq!(g.gem_totals(), rules.gems);
    let seats = g.seats() as u8;
    let mut equipment_owned = 0;
    let mut commissions_held = 0;
    let mut craftsmen = g.craftsmen_supply();
    let mut bonus = u32::from(g.bonus_supply());
    for s in 0..seats {
        let p = g.player(s);
        // V-C3: coins within 0..=6.
        prop_assert!(p.coins <= 6, "seat {} has {} coins", s, p.coins);
        // V-C5: one item per type, one gem per card, only gems the card accepts.
        prop_assert!(p.owns(Item::GoldPan));
        for item in Item::ALL {
            if let Some(gem) = p.gems[item.index()] {
                prop_assert!(
                    p.owns(item) && item.accepts(gem),
                    "{:?} carries {:?}",
                    item,
                    gem
                );
            }
        }
        equipment_owned += (p.owned & !Item::GoldPan.bit()).count_ones() as usize;
        // V-A1: at most three incomplete commissions.
        prop_assert!(p.incomplete.len() <= 3);
        commissions_held += p.incomplete.len() + g.completed_by(s).count();
        for c in Color::ALL {
            craftsmen[c.index()] += p.craftsmen[c.index()];
        }
        bonus += u32::from(p.bonus_tiles);
    }
    // Craftsmen, bonus tiles and workshops are conserved.
    prop_assert_eq!(craftsmen, start.craftsmen_supply());
    prop_assert_eq!(bonus, 13);
    for c in Color::ALL {
        if let Some(owner) = g.workshop_owner(c) {
            prop_assert!(g.player(owner).craftsmen[c.index()] >= rules.workshop_needed[c.index()]);
        }
    }
    // Cards are conserved: in the books, bought as equipment, or held/completed.
    let in_books = |kind: BookKind| -> usize {
        (0..4u8)
            .filter(|&b| BookKind::of_book(b) == kind)
            .map(|b| g.book(b).pile(Side::Left).len() + g.book(b).pile(Side::Right).len())
            .sum()
    };
    prop_assert_eq!(in_books(BookKind::Equipment) + equipment_owned, CARDS[0]);
    prop_assert_eq!(in_books(BookKind::Commission) + commissions_held, CARDS[1]);
    Ok(())
}

fn play_random_game(players: u8, seed: u64) -> Result<(), TestCaseError> {
    let config = ValdoraConfig {
        players,
        random_start_player: true,
        ..ValdoraConfig::default()
    };
    let start = Valdora::new(&config, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut g = start.clone();
    let mut rng = rng_from_seed(seed.rotate_left(17));
    let mut buf = Vec::new();
    while let Some(action) = engine::playout::random_action(&g, &mut rng, &mut buf) {
        g.apply(action, &mut NoEvents)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_invariants(&g, &start)?;
    }
    let outcome = g.outcome().expect("over");
    prop_assert!(!outcome.truncated, "random play ended by the rules");
    prop_assert_eq!(outcome.seats.len(), usize::from(players));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_in_random_games(players in 3u8..=5, seed in any::<u64>()) {
        play_random_game(players, seed)?;
    }
}
