//! The statistics of uniformly random games, shared by `tabletop simulate` and the Python
//! package's `tabletop.ray.simulate`: both play seed ranges with [`play_range`] and merge
//! the parts with [`Stats::merge`] in range order, so the summary is the same whichever
//! way the games were split (threads, or Ray tasks on several machines).
//!
//! Game `i` is set up with seed `S + i` and its moves are drawn from an RNG seeded with
//! `(S + i) ^ MOVE_SEED_MIX`, so every game is reproducible on its own. Every statistic is
//! accumulated in integers, so that merging is exact.

use std::fmt::Write as _;
use std::ops::Range;

use engine::{playout, Game, Outcome};
use serde::{Deserialize, Serialize};

/// Mixed into a game's seed to seed its move RNG (distinct from the setup RNG).
pub const MOVE_SEED_MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// A game still running after this many actions is abandoned and counted as truncated
/// (a safety net: games end by their rules, a turn cap or a stall rule long before).
pub const MAX_ACTIONS_PER_GAME: u64 = 10_000_000;

/// Plays games `range` (game `i` with seed `seed + i`) uniformly at random and counts
/// them; `tick(n)` is told every few games how many more have finished (progress bars).
/// The error is the message of a game that cannot be set up.
pub fn play_range<G: Game>(
    config: &G::Config,
    seed: u64,
    range: Range<u64>,
    seats: usize,
    mut tick: impl FnMut(u64),
) -> Result<Stats, String> {
    const TICK: u64 = 16;
    let mut stats = Stats::new(seats);
    let mut buf: Vec<G::Action> = Vec::with_capacity(64);
    let mut unreported = 0;
    for i in range {
        let game_seed = seed.wrapping_add(i);
        let mut state =
            G::new(config, game_seed).map_err(|e| format!("game {i} (seed {game_seed}): {e}"))?;
        let mut rng = engine::rng_from_seed(game_seed ^ MOVE_SEED_MIX);
        let actions = playout::random_playout(&mut state, &mut rng, &mut buf, MAX_ACTIONS_PER_GAME);
        stats.add(actions, state.turns(), state.outcome().as_ref());
        unreported += 1;
        if unreported == TICK {
            tick(unreported);
            unreported = 0;
        }
    }
    tick(unreported);
    Ok(stats)
}

/// The note a report prints when fewer workers than requested were used for `games`
/// games (at most one per game), or `None`.
pub fn threads_note(requested: u64, games: u64, used: u64) -> Option<String> {
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    (requested > used).then(|| {
        format!(
            "note: --threads {requested} but {games} game{}: {used} thread{} used (at most \
             one per game)",
            plural(games),
            plural(used)
        )
    })
}

/// How a run was split and how long it took: the only parts of a [`Summary`] that are not
/// a function of the games played.
#[derive(Debug, Clone, Copy)]
pub struct RunShape {
    pub seed: u64,
    /// Workers used: at most one per game.
    pub threads: u64,
    /// Workers asked for.
    pub threads_requested: u64,
    pub seconds: f64,
}

/// Sum, minimum and maximum of integers.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Dist {
    n: u64,
    sum: i128,
    min: i64,
    max: i64,
}

impl Default for Dist {
    fn default() -> Self {
        Dist {
            n: 0,
            sum: 0,
            min: i64::MAX,
            max: i64::MIN,
        }
    }
}

impl Dist {
    fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    fn merge(&mut self, o: &Dist) {
        self.n += o.n;
        self.sum += o.sum;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    fn summary(&self) -> Option<DistSummary> {
        (self.n > 0).then(|| DistSummary {
            mean: self.sum as f64 / self.n as f64,
            min: self.min,
            max: self.max,
        })
    }
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct DistSummary {
    pub mean: f64,
    pub min: i64,
    pub max: i64,
}

/// Everything counted over a range of games, in integers so that merging is exact. It
/// serializes (JSON) so that a part played elsewhere (a Ray task) can be sent back.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stats {
    games: u64,
    actions: u64,
    truncated: u64,
    /// Games abandoned at `MAX_ACTIONS_PER_GAME` (no outcome at all); also truncated.
    unfinished: u64,
    turns: Dist,
    actions_per_game: Dist,
    /// Over every seat of every game that ended by the rules.
    score: Dist,
    winner_score: Dist,
    /// Category name and total points, in order of first appearance.
    categories: Vec<(String, i64)>,
    /// `wins[seat][k - 1]`: games that `seat` won sharing the victory with `k` winners.
    wins: Vec<Vec<u64>>,
}

impl Stats {
    pub fn new(seats: usize) -> Self {
        Stats {
            games: 0,
            actions: 0,
            truncated: 0,
            unfinished: 0,
            turns: Dist::default(),
            actions_per_game: Dist::default(),
            score: Dist::default(),
            winner_score: Dist::default(),
            categories: Vec::new(),
            wins: vec![vec![0; seats]; seats],
        }
    }

    fn add(&mut self, actions: u64, turns: u32, outcome: Option<&Outcome>) {
        self.games += 1;
        self.actions += actions;
        self.turns.add(i64::from(turns));
        self.actions_per_game
            .add(i64::try_from(actions).unwrap_or(i64::MAX));
        let Some(outcome) = outcome else {
            self.truncated += 1;
            self.unfinished += 1;
            return;
        };
        if outcome.truncated {
            self.truncated += 1;
            return;
        }
        for seat in &outcome.seats {
            self.score.add(i64::from(seat.score));
            for line in &seat.breakdown {
                match self
                    .categories
                    .iter_mut()
                    .find(|(name, _)| *name == line.category)
                {
                    Some((_, total)) => *total += i64::from(line.points),
                    None => self
                        .categories
                        .push((line.category.clone(), i64::from(line.points))),
                }
            }
        }
        let winners = outcome.seats.iter().filter(|s| s.rank == 1).count();
        if let Some(best) = outcome.seats.iter().find(|s| s.rank == 1) {
            self.winner_score.add(i64::from(best.score));
        }
        for seat in outcome.seats.iter().filter(|s| s.rank == 1) {
            if let Some(row) = self.wins.get_mut(usize::from(seat.seat)) {
                if let Some(count) = row.get_mut(winners - 1) {
                    *count += 1;
                }
            }
        }
    }

    /// Adds the games of `o`: the parts of a run merged in range order.
    pub fn merge(&mut self, o: Stats) {
        self.games += o.games;
        self.actions += o.actions;
        self.truncated += o.truncated;
        self.unfinished += o.unfinished;
        self.turns.merge(&o.turns);
        self.actions_per_game.merge(&o.actions_per_game);
        self.score.merge(&o.score);
        self.winner_score.merge(&o.winner_score);
        for (name, points) in o.categories {
            match self.categories.iter_mut().find(|(n, _)| *n == name) {
                Some((_, total)) => *total += points,
                None => self.categories.push((name, points)),
            }
        }
        for (mine, theirs) in self.wins.iter_mut().zip(o.wins) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// The number of games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The number of actions applied over the games counted.
    pub fn actions(&self) -> u64 {
        self.actions
    }

    /// The report of the merged run; `provisional_data` is how many entries of the
    /// component data in use are placeholders.
    pub fn summary(&self, game: &'static str, run: RunShape, provisional_data: usize) -> Summary {
        let seconds = run.seconds;
        let scored = self.games - self.truncated;
        let seat_results = self.score.n.max(1) as f64;
        let per_second = |x: u64| {
            if seconds > 0.0 {
                x as f64 / seconds
            } else {
                0.0
            }
        };
        Summary {
            game,
            players: self.wins.len(),
            seed: run.seed,
            threads: run.threads,
            threads_requested: run.threads_requested,
            games: self.games,
            actions: self.actions,
            seconds,
            games_per_s: per_second(self.games),
            actions_per_s: per_second(self.actions),
            truncated: self.truncated,
            unfinished: self.unfinished,
            scored_games: scored,
            turns: self.turns.summary(),
            actions_per_game: self.actions_per_game.summary(),
            score: self.score.summary(),
            winner_score: self.winner_score.summary().map(|d| d.mean),
            categories: Categories(
                self.categories
                    .iter()
                    .map(|(name, total)| (name.clone(), *total as f64 / seat_results))
                    .collect(),
            ),
            // No scored game: no shares at all rather than a row of zeros.
            wins_by_seat: (scored > 0).then(|| {
                self.wins
                    .iter()
                    .map(|row| {
                        let shares: f64 = row
                            .iter()
                            .enumerate()
                            .map(|(k, &n)| n as f64 / (k + 1) as f64)
                            .sum();
                        shares / scored as f64
                    })
                    .collect()
            }),
            provisional_data,
        }
    }
}

/// Category means, serialized as a JSON object in breakdown order.
#[derive(Debug)]
pub struct Categories(Vec<(String, f64)>);

impl Serialize for Categories {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// The result of `simulate`, as printed by `--json`.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub game: &'static str,
    pub players: usize,
    pub seed: u64,
    /// Threads used: at most one per game.
    pub threads: u64,
    /// `--threads` as given.
    pub threads_requested: u64,
    pub games: u64,
    pub actions: u64,
    pub seconds: f64,
    pub games_per_s: f64,
    pub actions_per_s: f64,
    /// Games that ended by a turn cap, a stall or the safety limit; not in the scores.
    pub truncated: u64,
    /// Truncated games abandoned at the safety limit without any outcome.
    pub unfinished: u64,
    /// Games that ended by the rules: the score, category and win statistics.
    pub scored_games: u64,
    pub turns: Option<DistSummary>,
    pub actions_per_game: Option<DistSummary>,
    /// Over every seat of every scored game.
    pub score: Option<DistSummary>,
    /// Mean score of the winner of each scored game.
    pub winner_score: Option<f64>,
    /// Mean points per seat in each score category, over scored games.
    pub categories: Categories,
    /// Share of the scored games won by each seat position (shared wins split); null
    /// when no game was scored.
    pub wins_by_seat: Option<Vec<f64>>,
    /// How many component data entries are provisional placeholders (0: all confirmed).
    pub provisional_data: usize,
}

impl Summary {
    /// The aligned human-readable report.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = self.write_table(&mut out);
        out
    }

    fn write_table(&self, o: &mut String) -> std::fmt::Result {
        let last_seed = self.seed.wrapping_add(self.games.saturating_sub(1));
        writeln!(
            o,
            "{}: {} games, {} players, seeds {}..={}, {} thread{}",
            self.game,
            self.games,
            self.players,
            self.seed,
            last_seed,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )?;
        if let Some(note) = threads_note(self.threads_requested, self.games, self.threads) {
            writeln!(o, "  {note}")?;
        }
        if self.provisional_data > 0 {
            writeln!(
                o,
                "  note: {} component data entries are provisional placeholders, so scores are \
                 not yet those of the printed game (see README)",
                self.provisional_data
            )?;
        }
        writeln!(o)?;
        writeln!(o, "  {:<20}{:>10}", "games", self.games)?;
        writeln!(o, "  {:<20}{:>10}", "actions", self.actions)?;
        writeln!(o, "  {:<20}{:>10.3}", "seconds", self.seconds)?;
        writeln!(o, "  {:<20}{:>10.1}", "games/s", self.games_per_s)?;
        writeln!(o, "  {:<20}{:>10.0}", "actions/s", self.actions_per_s)?;
        writeln!(
            o,
            "  {:<20}{:>10}   (turn cap, stall or safety limit; not in scores or wins)",
            "truncated", self.truncated
        )?;
        if self.unfinished > 0 {
            writeln!(
                o,
                "  {:<20}{:>10}   (abandoned after {MAX_ACTIONS_PER_GAME} actions)",
                "unfinished", self.unfinished
            )?;
        }
        writeln!(o)?;
        writeln!(
            o,
            "  {:<20}{:>10}{:>8}{:>8}   (all {} games)",
            "per game", "mean", "min", "max", self.games
        )?;
        for (name, d) in [("turns", &self.turns), ("actions", &self.actions_per_game)] {
            if let Some(d) = d {
                writeln!(o, "  {name:<20}{:>10.1}{:>8}{:>8}", d.mean, d.min, d.max)?;
            }
        }
        writeln!(o)?;
        match &self.score {
            None => writeln!(
                o,
                "  no scored games: every game was truncated (turn cap, stall or safety \
                 limit), so there are no scores, categories or wins"
            )?,
            Some(d) => {
                writeln!(
                    o,
                    "  {:<20}{:>10}{:>8}{:>8}   ({} scored games, truncated excluded)",
                    "scores", "mean", "min", "max", self.scored_games
                )?;
                writeln!(
                    o,
                    "  {:<20}{:>10.2}{:>8}{:>8}",
                    "score (all seats)", d.mean, d.min, d.max
                )?;
                if let Some(w) = self.winner_score {
                    writeln!(o, "  {:<20}{:>10.2}", "winner score", w)?;
                }
                writeln!(o)?;
                writeln!(o, "  {:<20}{:>10}", "category", "mean/seat")?;
                for (name, mean) in &self.categories.0 {
                    writeln!(o, "  {name:<20}{mean:>10.2}")?;
                }
                writeln!(o)?;
                writeln!(o, "  {:<20}{:>10}", "wins by seat", "share")?;
                for (seat, share) in self.wins_by_seat.iter().flatten().enumerate() {
                    writeln!(o, "  {:<20}{:>9.1}%", format!("seat {seat}"), share * 100.0)?;
                }
            }
        }
        Ok(())
    }
}
