//! Which of a game's estimates of the final points a bot reads.

use engine::{Game, Seat, MAX_EVALUATION_FEATURES};

/// The estimate a bot's searches score positions with.
// Its largest variant holds its weights inline so that bot configs stay `Copy`; a config
// is built once per bot, so its size costs nothing in the search.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Evaluation {
    /// [`Game::evaluate`]: the game's hand-made points-now-plus-progress estimate.
    #[default]
    Heuristic,
    /// [`Game::evaluate_fitted`]: weights fitted by least squares on simulated games
    /// (`tabletop positions`, `scripts/fit-evaluation`); the heuristic in games without.
    Fitted,
    /// [`Game::evaluate_fast`]: the fitted estimate without its costly features.
    Fast,
    /// [`Game::evaluate_weighted`] with these weights, one per feature (the first `len`):
    /// for trying out weights, as `scripts/tune-evaluation` does.
    Weighted {
        weights: [f64; MAX_EVALUATION_FEATURES],
        len: usize,
    },
}

impl Evaluation {
    /// The estimate of the points `seat` will end with in `state`.
    pub fn of<G: Game>(self, state: &G, seat: Seat) -> f64 {
        match self {
            Evaluation::Heuristic => state.evaluate(seat),
            Evaluation::Fitted => state.evaluate_fitted(seat),
            Evaluation::Fast => state.evaluate_fast(seat),
            Evaluation::Weighted { weights, len } => state.evaluate_weighted(seat, &weights[..len]),
        }
    }

    /// How a bot spec writes it: `heuristic`, `fitted`, `fast`, or the weights separated by `/`.
    pub fn name(self) -> String {
        match self {
            Evaluation::Heuristic => "heuristic".into(),
            Evaluation::Fitted => "fitted".into(),
            Evaluation::Fast => "fast".into(),
            Evaluation::Weighted { weights, len } => weights[..len]
                .iter()
                .map(f64::to_string)
                .collect::<Vec<_>>()
                .join("/"),
        }
    }

    /// The evaluation a bot spec names: `heuristic`, `fitted`, `fast`, or weights (finite
    /// numbers separated by `/`, at most [`MAX_EVALUATION_FEATURES`]).
    pub fn named(name: &str) -> Option<Evaluation> {
        match name {
            "heuristic" => return Some(Evaluation::Heuristic),
            "fitted" => return Some(Evaluation::Fitted),
            "fast" => return Some(Evaluation::Fast),
            _ => {}
        }
        let mut weights = [0.0; MAX_EVALUATION_FEATURES];
        let mut len = 0;
        for text in name.split('/') {
            let w: f64 = text.trim().parse().ok().filter(|w: &f64| w.is_finite())?;
            *weights.get_mut(len)? = w;
            len += 1;
        }
        Some(Evaluation::Weighted { weights, len })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for text in ["heuristic", "fitted", "fast", "1/0.2/-0.5/0"] {
            let evaluation = Evaluation::named(text).expect(text);
            assert_eq!(evaluation.name(), text);
        }
        let Some(Evaluation::Weighted { weights, len }) = Evaluation::named("2/-1.5") else {
            panic!("weights expected")
        };
        assert_eq!(weights[..len], [2.0, -1.5]);
    }

    #[test]
    fn bad_weights_are_refused() {
        let too_many = vec!["1"; MAX_EVALUATION_FEATURES + 1].join("/");
        for text in [
            "",
            "neural",
            "1/x",
            "1//2",
            "NaN",
            "1/inf",
            too_many.as_str(),
        ] {
            assert_eq!(Evaluation::named(text), None, "{text:?}");
        }
    }

    /// Valley's weighted evaluation with its fitted weights is its fitted evaluation, and
    /// a game without features evaluates by its heuristic whatever the weights.
    #[test]
    fn weighted_evaluations_read_the_game() {
        use engine::playout::random_playout;
        let mut valley = valley::Valley::new(&valley::ValleyConfig::default(), 3).expect("valid");
        random_playout(
            &mut valley,
            &mut engine::rng_from_seed(3),
            &mut Vec::new(),
            200,
        );
        let fitted = Evaluation::named(&Evaluation::Fitted.name()).expect("fitted");
        let weights = valley::Valley::FITTED_WEIGHTS
            .iter()
            .map(f64::to_string)
            .collect::<Vec<_>>()
            .join("/");
        let weighted = Evaluation::named(&weights).expect("weights");
        for seat in 0..4 {
            assert_eq!(fitted.of(&valley, seat), weighted.of(&valley, seat));
        }
        let valdora = valdora::Valdora::new(&valdora::ValdoraConfig::default(), 3).expect("valid");
        let heuristic = Evaluation::Heuristic.of(&valdora, 0);
        assert_eq!(
            Evaluation::named("5/5").expect("weights").of(&valdora, 0),
            heuristic
        );
        assert_eq!(Evaluation::Fitted.of(&valdora, 0), heuristic);
        assert_eq!(Evaluation::Fast.of(&valdora, 0), heuristic);
    }
}
