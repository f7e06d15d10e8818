//! The fixed action space and observation (docs/contract.md, "Action space and
//! observations"): the documented sizes.

use crate::state::{Mode, Pandoria, PandoriaConfig};
use engine::Game;

#[test]
fn sizes_are_the_documented_ones() {
    for (players, mode, teams) in [
        (2, Mode::Full, false),
        (3, Mode::Beginner, false),
        (4, Mode::Full, true),
    ] {
        let config = PandoriaConfig {
            players,
            mode,
            teams,
            ..PandoriaConfig::default()
        };
        let rules = &config.rules;
        let (n, t, c) = (
            rules.board.len(),
            rules.double_tiles.len(),
            rules.cards.len(),
        );
        let p = usize::from(players);
        // docs/contract.md: 6TN + N² + 11N + 24C + 51 actions; 47 + P + 4C + N(10 + 2P)
        // + P(28 + T + 9C) observation values.
        let actions = 6 * t * n + n * n + 11 * n + 24 * c + 51;
        let observation = 47 + p + 4 * c + n * (10 + 2 * p) + p * (28 + t + 9 * c);
        assert_eq!(Pandoria::action_count(&config), Some(actions));
        assert_eq!(Pandoria::observation_len(&config), Some(observation));
        eprintln!(
            "pandoria {players}p N = {n} T = {t} C = {c}: {actions} actions, \
             observation {observation}"
        );
    }
}
