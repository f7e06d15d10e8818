//! Invariants over random games in every mode and at every player count: tiles, cards,
//! figures, castles and monuments are conserved; resources stay in 0..=10.

use std::collections::HashSet;

use proptest::prelude::*;

use super::*;
use crate::data::{CARDS, DOUBLE_TILES, SINGLE_TILES};
use crate::events::Event;
use crate::spells::Pending;
use crate::state::{figures_for, MAX_PLAYERS};
use engine::{playout::random_action, rng_from_seed, NoEvents};

fn check_invariants(g: &Pandoria, monuments_at_start: usize) -> Result<(), TestCaseError> {
    let n = usize::from(g.seats);
    // Double tiles.
    let mut tiles = g.double_stack.len() + g.removed.len() + g.placed_doubles.count_ones() as usize;
    let mut singles = g.single_stack.len() + g.placed_singles.count_ones() as usize;
    if let Pending::TerrainPlace { single, .. } = g.turn.pending {
        if single {
            singles += 1;
        } else {
            tiles += 1;
        }
    }
    tiles += g.players[..n].iter().map(|p| p.tiles.len()).sum::<usize>();
    prop_assert_eq!(tiles, DOUBLE_TILES);
    prop_assert_eq!(singles, SINGLE_TILES);
    // Cards: every card in exactly one place.
    let mut seen = 0u64;
    let mut count = 0usize;
    let mut add = |set: u64| {
        count += set.count_ones() as usize;
        seen |= set;
    };
    add(g.deck.iter().fold(0, |s, &c| s | 1 << c));
    add(g
        .market
        .iter()
        .filter(|&&c| c != NO_CARD)
        .fold(0, |s, &c| s | 1 << c));
    for p in &g.players[..n] {
        add(p.hand);
        add(p.spell_pile);
        add(p.covered);
        add(p
            .slots
            .iter()
            .filter(|&&c| c != NO_CARD)
            .fold(0, |s, &c| s | 1 << c));
        prop_assert_eq!(p.known & !p.hand, 0, "known cards are hand cards");
    }
    let beginner_aside = 0; // particular cards never leave the game
    prop_assert_eq!(count + beginner_aside, CARDS, "each card once");
    prop_assert_eq!(seen.count_ones() as usize, CARDS);
    // Figures and castles.
    for (s, p) in g.players[..n].iter().enumerate() {
        let on_board: Vec<bool> = g
            .figures
            .iter()
            .filter_map(|c| {
                g.figure_at(c)
                    .filter(|f| usize::from(f.0) == s)
                    .map(|f| f.1)
            })
            .collect();
        let leaders = on_board.iter().filter(|&&l| l).count() + usize::from(p.leader_in_reserve);
        prop_assert_eq!(leaders, 1);
        prop_assert_eq!(
            on_board.len() - (1 - usize::from(p.leader_in_reserve)) + usize::from(p.figures),
            usize::from(figures_for(g.seats))
        );
        let castles = (0..g.rules().board.len() as Cell)
            .filter(|&c| g.map.castle(c) == Some(s as u8))
            .count();
        prop_assert_eq!(castles + usize::from(p.castles), 2);
        for r in p.resources {
            prop_assert!(r <= 10);
        }
    }
    // Monuments.
    let built: usize = g.players[..n]
        .iter()
        .map(|p| p.monuments.iter().filter(|&&m| m > 0).count())
        .sum();
    prop_assert_eq!(g.monuments.len() + built, monuments_at_start);
    // Figures only where they may stand (P-G3).
    for c in g.figures.iter() {
        prop_assert!(
            g.map.land(c).is_some()
                || g.map.castle(c).is_some()
                || g.rules().board.ships().contains(c)
        );
    }
    prop_assert!(usize::from(MAX_PLAYERS) >= n);
    Ok(())
}

fn config_for(players: u8, beginner: bool, teams: bool) -> PandoriaConfig {
    PandoriaConfig {
        players,
        mode: if beginner { Mode::Beginner } else { Mode::Full },
        teams: teams && players == 4,
        ..PandoriaConfig::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    // rule P-Z1 / P-R6: resources within 0..=10; tiles, cards, figures, castles and
    // monuments conserved in random games of every mode and size.
    #[test]
    fn random_games_conserve_components(seed in any::<u64>(), players in 2u8..=4, beginner in any::<bool>(), teams in any::<bool>()) {
        let mut g = Pandoria::new(&config_for(players, beginner, teams), seed).unwrap();
        let monuments = g.monuments.len();
        let mut rng = rng_from_seed(seed);
        let mut buf = Vec::new();
        let mut steps = 0;
        check_invariants(&g, monuments)?;
        while let Some(a) = random_action(&g, &mut rng, &mut buf) {
            g.apply(a, &mut NoEvents).unwrap();
            steps += 1;
            prop_assert!(steps < 20_000);
            check_invariants(&g, monuments)?;
        }
        prop_assert!(g.outcome().is_some());
    }
}

// rule P-P1: every spell and every building gets played in random games (the fuzz
// reaches all of them), and Adopt copies.
#[test]
fn random_games_reach_every_spell_and_building() {
    let mut spells = HashSet::new();
    let mut buildings = HashSet::new();
    let mut adopted = false;
    for seed in 0..120u64 {
        let config = config_for(2 + (seed % 3) as u8, seed % 4 == 0, false);
        let mut g = Pandoria::new(&config, seed).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut buf = Vec::new();
        let mut events = Vec::new();
        while let Some(a) = random_action(&g, &mut rng, &mut buf) {
            // Bias towards casting and building so coverage comes quickly.
            let preferred = {
                buf.clear();
                g.legal_actions(&mut buf);
                buf.iter()
                    .copied()
                    .find(|x| matches!(x, Action::CastSpell { .. } | Action::Build { .. }))
            };
            let pick = if seed % 2 == 0 {
                preferred.unwrap_or(a)
            } else {
                a
            };
            g.apply(pick, &mut events).unwrap();
        }
        for e in &events {
            match *e {
                Event::SpellCast { card, .. } => {
                    spells.insert(g.rules().cards[usize::from(card)].spell);
                }
                Event::BuildingBuilt { card, .. } => {
                    buildings.insert(g.rules().cards[usize::from(card)].building);
                }
                Event::SpellAdopted { .. } => adopted = true,
                _ => {}
            }
        }
    }
    assert_eq!(spells.len(), 13, "{spells:?}");
    assert_eq!(buildings.len(), 17, "{buildings:?}");
    assert!(adopted);
}
