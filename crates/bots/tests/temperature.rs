//! ISMCTS turns evaluations into win chances at its game's own temperature unless the
//! spec names one (issue 29: Pandoria's search wins more at a third of Valdora's).

use bots::BotSpec;
use engine::playout::random_playout;
use engine::Game;
use pandoria::{Pandoria, PandoriaConfig};

/// Every decision of a 60-iteration search, at positions along a random Pandoria game.
fn decisions(spec: &str) -> Vec<pandoria::Action> {
    let spec: BotSpec = spec.parse().expect("spec");
    let mut game = Pandoria::new(&PandoriaConfig::default(), 11).expect("valid");
    let mut rng = engine::rng_from_seed(11);
    let mut out = Vec::new();
    while game.to_move().is_some() && out.len() < 12 {
        let mut bot = spec.build::<Pandoria>(5);
        out.extend(bot.choose(&game));
        random_playout(&mut game, &mut rng, &mut Vec::new(), 6);
    }
    out
}

#[test]
fn the_search_reads_its_games_temperature_unless_told_another() {
    assert_eq!(Pandoria::EVALUATION_TEMPERATURE, 8.0);
    let default = decisions("ismcts:iters=60");
    assert_eq!(default.len(), 12);
    assert_eq!(default, decisions("ismcts:iters=60:temperature=8"));
    assert_ne!(default, decisions("ismcts:iters=60:temperature=0.01"));
}
