//! The bots on a game small enough to know the answer: two-seat Nim (take 1 to 3 stones;
//! whoever takes the last stone wins). The winning move leaves a multiple of 4.

use bots::{Bot, BotSpec};
use engine::{rank_by, EventSink, Game, Outcome, Rng, Seat, SeatResult, SetupError};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
struct NimConfig {
    stones: u8,
}

#[derive(Debug, Clone, PartialEq)]
struct Nim {
    config: NimConfig,
    stones: u8,
    to_move: Seat,
    winner: Option<Seat>,
}

impl Game for Nim {
    type Config = NimConfig;
    type Action = u8;
    type View = (u8, Seat);
    type Event = u8;
    const NAME: &'static str = "nim";
    const RULES: &'static [&'static str] = &["N-1"];

    fn rule_of(&self, _take: &u8) -> &'static str {
        "N-1"
    }
    fn explain(&self, seat: Seat, take: &u8) -> Option<engine::Refusal> {
        let allowed =
            self.to_move() == Some(seat) && (1..=3).contains(take) && *take <= self.stones;
        (!allowed).then(|| engine::Refusal::new("N-1", "take_one_to_three"))
    }

    fn new(config: &NimConfig, _seed: u64) -> Result<Self, SetupError> {
        Ok(Nim {
            config: *config,
            stones: config.stones,
            to_move: 0,
            winner: None,
        })
    }
    fn config_options() -> Vec<engine::ConfigOption> {
        vec![engine::ConfigOption::players(2, 2, 2)]
    }
    fn config(&self) -> &NimConfig {
        &self.config
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<Seat> {
        self.winner.is_none().then_some(self.to_move)
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        if self.winner.is_none() {
            out.extend((1..=3).filter(|&n| n <= self.stones));
        }
    }
    fn apply_unchecked(&mut self, take: u8, events: &mut impl EventSink<u8>) {
        self.stones -= take;
        events.emit(take);
        if self.stones == 0 {
            self.winner = Some(self.to_move);
        }
        self.to_move = 1 - self.to_move;
    }
    fn view(&self, _seat: Option<Seat>) -> (u8, Seat) {
        (self.stones, self.to_move)
    }
    fn determinize(&self, _seat: Option<Seat>, _rng: &mut Rng) -> Self {
        self.clone()
    }
    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner?;
        let keys = [i32::from(winner == 0), i32::from(winner == 1)];
        let ranks = rank_by(&keys);
        Some(Outcome {
            seats: (0..2)
                .map(|s| SeatResult {
                    seat: s,
                    score: keys[usize::from(s)],
                    rank: ranks[usize::from(s)],
                    breakdown: Vec::new(),
                    tiebreaks: Vec::new(),
                    team: None,
                })
                .collect(),
            truncated: false,
        })
    }
    fn turns(&self) -> u32 {
        u32::from(self.config.stones - self.stones)
    }
}

fn choice(spec: &str, stones: u8, seed: u64) -> u8 {
    let spec: BotSpec = spec.parse().expect("valid spec");
    let game = Nim::new(&NimConfig { stones }, 0).expect("valid");
    spec.build::<Nim>(seed).choose(&game).expect("not over")
}

#[test]
fn ismcts_finds_the_winning_move() {
    for stones in [5u8, 6, 7, 9, 10, 11] {
        for seed in 0..3 {
            for spec in [
                "ismcts:iters=3000:step=action:rollout=full:c=0.7",
                "ismcts:iters=3000:step=action:rollout=20:c=0.7:temperature=5:threads=2",
                "ismcts:iters=3000:step=turn:plans=3:replies=3:rollout=full",
            ] {
                assert_eq!(
                    choice(spec, stones, seed),
                    stones % 4,
                    "{spec}, {stones} stones, seed {seed}"
                );
            }
        }
    }
}

#[test]
fn greedy_takes_the_last_stones_when_it_can() {
    for stones in 1..=3u8 {
        assert_eq!(choice("greedy", stones, 1), stones);
        assert_eq!(choice("greedy:lookahead=ply", stones, 1), stones);
    }
}

#[test]
fn every_bot_only_plays_legal_moves_to_the_end() {
    for spec in [
        "random",
        "greedy",
        "ismcts:iters=200",
        "ismcts:iters=200:step=turn:rollout=0",
        "rollout:samples=20",
    ] {
        let spec: BotSpec = spec.parse().expect("valid");
        let mut g = Nim::new(&NimConfig { stones: 21 }, 0).expect("valid");
        let mut bots: Vec<Box<dyn Bot<Nim>>> = vec![spec.build(1), spec.build(2)];
        while let Some(seat) = g.to_move() {
            let a = bots[usize::from(seat)].choose(&g).expect("not over");
            g.apply(a, &mut engine::NoEvents).expect("legal");
        }
        assert!(g.outcome().is_some());
    }
}

/// Whether the seat that leaves `stones` stones wins when both seats then play as
/// greedy's turn search does in Nim: take the last stones when it can, otherwise the
/// first of the equally valued moves (take 1).
fn leaving_wins_under_greedy(mut stones: u8) -> bool {
    let mut leaver_to_move = false;
    while stones > 0 {
        stones -= if stones <= 3 { stones } else { 1 };
        leaver_to_move = !leaver_to_move;
    }
    // The seat that took the last stone is the one that moved last.
    !leaver_to_move
}

/// Policy rollout improves on its base policy: whenever one of its first moves wins the
/// game when greedy plays both seats from there, it plays such a move. Greedy alone sees
/// no value in a move that does not take the last stone, so it often does not.
#[test]
fn rollout_plays_a_move_that_wins_under_greedy_when_there_is_one() {
    let mut greedy_missed = 0;
    for stones in 4..=21u8 {
        let winning: Vec<u8> = (1..=3)
            .filter(|&take| leaving_wins_under_greedy(stones - take))
            .collect();
        if winning.is_empty() {
            continue;
        }
        let chosen = choice("rollout:samples=3:candidates=3:turns=100", stones, 0);
        assert!(
            winning.contains(&chosen),
            "{stones} stones: took {chosen}, winning under greedy: {winning:?}"
        );
        if !winning.contains(&choice("greedy", stones, 0)) {
            greedy_missed += 1;
        }
    }
    assert!(
        greedy_missed > 0,
        "the test cannot tell rollout from greedy"
    );
}

/// Racing (`prune=Z`) drops a candidate once it is clearly behind the leader, and stops
/// once one is left. Nim hides nothing, so every sample of a candidate is the same game:
/// where a single move wins under greedy, the others lose in every sample and are
/// dropped at the first look (eight samples); where two moves win alike, neither is
/// dropped and every sample is played.
#[test]
fn racing_drops_the_candidates_behind_and_stops_when_one_is_left() {
    use bots::{RolloutBot, Stop};
    let spec = |prune: &str| {
        let text = format!("rollout:samples=40:candidates=3:turns=100{prune}");
        match text.parse::<BotSpec>().expect("valid spec") {
            BotSpec::Rollout(config) => config,
            other => panic!("{other} is not a rollout"),
        }
    };
    let (mut single, mut tied) = (0, 0);
    for stones in 4..=21u8 {
        let winning = (1..=3)
            .filter(|&take| leaving_wins_under_greedy(stones - take))
            .count();
        let game = Nim::new(&NimConfig { stones }, 0).expect("valid");
        let mut raced = RolloutBot::<Nim>::new(spec(":prune=2"), 1);
        let chosen = raced.decide(&game, &Stop::never()).expect("not over");
        let samples = raced.last_search().iterations;
        let mut unraced = RolloutBot::<Nim>::new(spec(""), 1);
        assert_eq!(unraced.decide(&game, &Stop::never()), Some(chosen));
        assert_eq!(unraced.last_search().iterations, 40, "{stones} stones");
        match winning {
            1 => {
                single += 1;
                assert_eq!(samples, 8, "{stones} stones: one winning move");
            }
            2 | 3 => {
                tied += 1;
                assert_eq!(samples, 40, "{stones} stones: {winning} winning moves");
            }
            _ => {}
        }
    }
    assert!(single > 0 && tied > 0, "both cases are met");
}
