//! Bots named on the command line: `NAME[:KEY=VALUE]...`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use engine::Game;

use crate::{
    Bot, Budget, Evaluation, GreedyBot, GreedyConfig, Ismcts, IsmctsConfig, Level, Lookahead,
    RandomBot, Rollout, RolloutBot, RolloutConfig, Spread, Step, LEVELS,
};

/// A bot name or parameter that is not accepted; the message lists what is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BotError(pub String);

pub const BOT_NAMES: [&str; 4] = ["random", "greedy", "ismcts", "rollout"];

const GREEDY_PARAMS: &str =
    "lookahead=ply|turn, nodes=N (N >= 1), spread=depth|even, eval=heuristic|fitted|fast|W/W/..., \
     blunders=P (0 <= P <= 1)";
const ISMCTS_PARAMS: &str = "iters=N or ms=N (N >= 1), c=X (X >= 0), step=action|turn, \
     plans=N, replies=N and root_nodes=N (N >= 1, with step=turn), rollout=N|full|greedy, turns=N (N >= 1, \
     with rollout=greedy), nodes=N (N >= 1), temperature=X (X > 0), eval=heuristic|fitted|fast|W/W/..., \
     threads=N (1..=256)";
const ROLLOUT_PARAMS: &str = "samples=N or ms=N (N >= 1), candidates=N, root_nodes=N, nodes=N, \
     turns=N (N >= 1), temperature=X (X > 0), prune=Z (Z > 0), fill=yes|no, switch=Z (Z > 0), \
     eval=heuristic|fitted|fast|W/W/..., others=heuristic|fitted|fast|W/W/..., value=heuristic|fitted|fast|W/W/...";
/// Greedy rollouts: this many turns.
const GREEDY_ROLLOUT_TURNS: u32 = 1;

fn spread(bot: &str, value: &str, accepted: &str) -> Result<Spread, BotError> {
    match value {
        "depth" => Ok(Spread::DepthFirst),
        "even" => Ok(Spread::Even),
        _ => Err(BotError(format!(
            "{bot}: spread={value:?} is not accepted; accepted: {accepted}"
        ))),
    }
}

fn evaluation(bot: &str, value: &str, accepted: &str) -> Result<Evaluation, BotError> {
    Evaluation::named(value).ok_or_else(|| {
        BotError(format!(
            "{bot}: eval={value:?} is not accepted; accepted: {accepted}"
        ))
    })
}

/// `:eval=NAME`, or nothing for the default (so that the default specs read as before).
fn evaluation_suffix(evaluation: Evaluation) -> String {
    if evaluation == Evaluation::default() {
        String::new()
    } else {
        format!(":eval={}", evaluation.name())
    }
}

/// A search budget as a spec writes it: `COUNT_KEY=N`, or `ms=N`.
fn budget_text(budget: Budget, count_key: &str) -> String {
    match budget {
        Budget::Iterations(n) => format!("{count_key}={n}"),
        Budget::Time(d) => format!("ms={}", d.as_millis()),
    }
}

fn spread_name(spread: Spread) -> &'static str {
    match spread {
        Spread::DepthFirst => "depth",
        Spread::Even => "even",
    }
}

/// A parsed bot description: which bot and its parameters.
// A rollout's three evaluations make its variant the largest (weights are held inline so
// that a spec stays `Copy`); a spec is parsed once per bot and copied into it, never in a
// search loop, so the size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BotSpec {
    Random,
    Greedy(GreedyConfig),
    Ismcts(IsmctsConfig),
    Rollout(RolloutConfig),
    /// A level for people: its bot depends on the game ([`Level::bot_for`]).
    Level(&'static Level),
}

impl BotSpec {
    /// A new bot for game `G` whose every random choice comes from `seed`.
    pub fn build<G: Game>(&self, seed: u64) -> Box<dyn Bot<G>> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::<G>::new(seed)),
            BotSpec::Greedy(c) => Box::new(GreedyBot::<G>::new(c, seed)),
            BotSpec::Ismcts(c) => Box::new(Ismcts::<G>::new(c, seed)),
            BotSpec::Rollout(c) => Box::new(RolloutBot::<G>::new(c, seed)),
            BotSpec::Level(level) => level.bot_for(G::NAME).build::<G>(seed),
        }
    }

    /// This spec searching with `budget` (iterations, or samples for a rollout), if it
    /// is a search; other bots are returned as they are.
    pub fn with_budget(self, budget: Budget) -> Self {
        match self {
            BotSpec::Ismcts(c) => BotSpec::Ismcts(IsmctsConfig { budget, ..c }),
            BotSpec::Rollout(c) => BotSpec::Rollout(RolloutConfig { budget, ..c }),
            other => other,
        }
    }

    /// The bot's name without parameters.
    pub fn kind(&self) -> &'static str {
        match self {
            BotSpec::Random => "random",
            BotSpec::Greedy(_) => "greedy",
            BotSpec::Ismcts(_) => "ismcts",
            BotSpec::Rollout(_) => "rollout",
            BotSpec::Level(level) => level.name,
        }
    }
}

fn number<T: FromStr>(bot: &str, key: &str, value: &str, accepted: &str) -> Result<T, BotError> {
    value.parse().map_err(|_| {
        BotError(format!(
            "{bot}: {key}={value:?} is not a valid number; accepted: {accepted}"
        ))
    })
}

fn positive(bot: &str, key: &str, value: &str, accepted: &str) -> Result<u32, BotError> {
    let n: i64 = number(bot, key, value, accepted)?;
    if n < 1 || n > i64::from(u32::MAX) {
        return Err(BotError(format!(
            "{bot}: {key} must be at least 1 (got {n}); accepted: {accepted}"
        )));
    }
    Ok(n as u32)
}

/// A real number, finite and above 0 (a temperature, a racing margin).
fn above_zero(bot: &str, key: &str, value: &str, accepted: &str) -> Result<f64, BotError> {
    let x: f64 = number(bot, key, value, accepted)?;
    if !(x.is_finite() && x > 0.0) {
        return Err(BotError(format!(
            "{bot}: {key} must be > 0; accepted: {accepted}"
        )));
    }
    Ok(x)
}

fn yes_no(bot: &str, key: &str, value: &str, accepted: &str) -> Result<bool, BotError> {
    match value {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(BotError(format!(
            "{bot}: {key}={value:?} is not accepted; accepted: {accepted}"
        ))),
    }
}

/// `ms=N` as a time budget.
fn time_budget(bot: &str, value: &str, accepted: &str) -> Result<Budget, BotError> {
    let ms = positive(bot, "ms", value, accepted)?;
    Ok(Budget::Time(Duration::from_millis(u64::from(ms))))
}

fn rollout(params: &[(&str, &str)]) -> Result<RolloutConfig, BotError> {
    let (bot, p) = ("rollout", ROLLOUT_PARAMS);
    let mut c = RolloutConfig::default();
    let mut budget_set = false;
    for &(k, v) in params {
        match k {
            "samples" | "ms" if budget_set => {
                return Err(BotError(
                    "rollout: give one budget, samples=N or ms=N, not both".into(),
                ))
            }
            "samples" => {
                c.budget = Budget::Iterations(positive(bot, k, v, p)?);
                budget_set = true;
            }
            "ms" => {
                c.budget = time_budget(bot, v, p)?;
                budget_set = true;
            }
            "candidates" => c.candidates = positive(bot, k, v, p)?,
            "root_nodes" => c.root_nodes = positive(bot, k, v, p)?,
            "nodes" => c.turn_nodes = positive(bot, k, v, p)?,
            "turns" => c.turns = Some(positive(bot, k, v, p)?),
            "temperature" => c.temperature = Some(above_zero(bot, k, v, p)?),
            "eval" => c.evaluation = evaluation(bot, v, p)?,
            "others" => c.others = Some(evaluation(bot, v, p)?),
            "value" => c.value = Some(evaluation(bot, v, p)?),
            "prune" => c.prune = Some(above_zero(bot, k, v, p)?),
            "fill" => c.fill = yes_no(bot, k, v, p)?,
            "switch" => c.switch = Some(above_zero(bot, k, v, p)?),
            _ => {
                return Err(BotError(format!(
                    "rollout: unknown parameter {k:?}; accepted: {p}"
                )))
            }
        }
    }
    Ok(c)
}

impl FromStr for BotSpec {
    type Err = BotError;

    fn from_str(text: &str) -> Result<Self, BotError> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or("").to_ascii_lowercase();
        if let Some(level) = Level::named(&name) {
            return match parts.next() {
                None => Ok(BotSpec::Level(level)),
                Some(p) => Err(BotError(format!(
                    "{name}: a level takes no parameters (got {p:?}); it is {}",
                    level.spec
                ))),
            };
        }
        let params: Vec<(&str, &str)> = parts
            .map(|p| {
                p.split_once('=').ok_or_else(|| {
                    BotError(format!(
                        "{name}: parameter {p:?} is not KEY=VALUE (write e.g. ismcts:iters=1000)"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        match name.as_str() {
            "random" => match params.first() {
                None => Ok(BotSpec::Random),
                Some((k, _)) => Err(BotError(format!(
                    "random: unknown parameter {k:?}; random takes no parameters"
                ))),
            },
            "greedy" => {
                let mut c = GreedyConfig::default();
                for (k, v) in params {
                    match k {
                        "lookahead" => {
                            c.lookahead = match v {
                                "ply" => Lookahead::Ply,
                                "turn" => Lookahead::Turn,
                                _ => {
                                    return Err(BotError(format!(
                                        "greedy: lookahead={v:?} is not accepted; accepted: {GREEDY_PARAMS}"
                                    )))
                                }
                            }
                        }
                        "nodes" => c.max_nodes = positive("greedy", k, v, GREEDY_PARAMS)?,
                        "spread" => c.spread = spread("greedy", v, GREEDY_PARAMS)?,
                        "eval" => c.evaluation = evaluation("greedy", v, GREEDY_PARAMS)?,
                        "blunders" => {
                            let p: f64 = number("greedy", k, v, GREEDY_PARAMS)?;
                            if !(0.0..=1.0).contains(&p) {
                                return Err(BotError(format!(
                                    "greedy: blunders must be between 0 and 1; accepted: {GREEDY_PARAMS}"
                                )));
                            }
                            c.blunders = p;
                        }
                        _ => {
                            return Err(BotError(format!(
                                "greedy: unknown parameter {k:?}; accepted: {GREEDY_PARAMS}"
                            )))
                        }
                    }
                }
                Ok(BotSpec::Greedy(c))
            }
            "ismcts" => {
                let mut c = IsmctsConfig::default();
                let mut budget_set = false;
                let (mut greedy, mut turns) = (false, None);
                let mut by_turn = matches!(c.step, Step::Turn { .. });
                let (mut plans, mut replies, mut root_nodes) = (None, None, None);
                for (k, v) in params {
                    let p = ISMCTS_PARAMS;
                    match k {
                        "iters" | "ms" if budget_set => {
                            return Err(BotError(
                                "ismcts: give one budget, iters=N or ms=N, not both".into(),
                            ))
                        }
                        "iters" => {
                            c.budget = Budget::Iterations(positive("ismcts", k, v, p)?);
                            budget_set = true;
                        }
                        "ms" => {
                            c.budget = time_budget("ismcts", v, p)?;
                            budget_set = true;
                        }
                        "c" => {
                            let x: f64 = number("ismcts", k, v, p)?;
                            if !(x.is_finite() && x >= 0.0) {
                                return Err(BotError(format!(
                                    "ismcts: c must be >= 0; accepted: {p}"
                                )));
                            }
                            c.exploration = x;
                        }
                        "rollout" if v == "full" => c.rollout = Rollout::Random(None),
                        "rollout" if v == "greedy" => greedy = true,
                        "rollout" => {
                            let n: i64 = number("ismcts", k, v, p)?;
                            if n < 0 || n > i64::from(u32::MAX) {
                                return Err(BotError(format!(
                                    "ismcts: rollout must be >= 0, full or greedy (got {n}); accepted: {p}"
                                )));
                            }
                            c.rollout = Rollout::Random(Some(n as u32));
                        }
                        "turns" => turns = Some(positive("ismcts", k, v, p)?),
                        "nodes" => c.turn_nodes = positive("ismcts", k, v, p)?,
                        "step" => {
                            by_turn = match v {
                                "action" => false,
                                "turn" => true,
                                _ => {
                                    return Err(BotError(format!(
                                        "ismcts: step={v:?} is not accepted; accepted: {p}"
                                    )))
                                }
                            }
                        }
                        "plans" => plans = Some(positive("ismcts", k, v, p)?),
                        "replies" => replies = Some(positive("ismcts", k, v, p)?),
                        "root_nodes" => root_nodes = Some(positive("ismcts", k, v, p)?),
                        "temperature" => c.temperature = Some(above_zero("ismcts", k, v, p)?),
                        "eval" => c.evaluation = evaluation("ismcts", v, p)?,
                        "threads" => {
                            let n = positive("ismcts", k, v, p)?;
                            if n > 256 {
                                return Err(BotError(format!(
                                    "ismcts: threads must be at most 256; accepted: {p}"
                                )));
                            }
                            c.threads = n as usize;
                        }
                        _ => {
                            return Err(BotError(format!(
                                "ismcts: unknown parameter {k:?}; accepted: {p}"
                            )))
                        }
                    }
                }
                if greedy {
                    c.rollout = Rollout::Greedy {
                        turns: turns.unwrap_or(GREEDY_ROLLOUT_TURNS),
                    };
                } else if turns.is_some() {
                    return Err(BotError(
                        "ismcts: turns applies to rollout=greedy only".into(),
                    ));
                }
                let turn_params = plans.is_some() || replies.is_some() || root_nodes.is_some();
                c.step = match Step::TURN {
                    Step::Turn {
                        plans: p0,
                        replies: r0,
                        root_nodes: n0,
                    } if by_turn => Step::Turn {
                        plans: plans.unwrap_or(p0),
                        replies: replies.unwrap_or(r0),
                        root_nodes: root_nodes.unwrap_or(n0),
                    },
                    _ if turn_params => {
                        return Err(BotError(
                            "ismcts: plans, replies and root_nodes apply to step=turn only".into(),
                        ))
                    }
                    _ => Step::Action,
                };
                Ok(BotSpec::Ismcts(c))
            }
            "rollout" => rollout(&params).map(BotSpec::Rollout),
            _ => Err(BotError(format!(
                "unknown bot {name:?}; known bots: {}; levels: {}",
                BOT_NAMES.join(", "),
                LEVELS.map(|l| l.name).join(", ")
            ))),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => write!(f, "random"),
            BotSpec::Level(level) => write!(f, "{}", level.name),
            BotSpec::Greedy(c) => {
                write!(
                    f,
                    "greedy:lookahead={}:nodes={}:spread={}{}",
                    match c.lookahead {
                        Lookahead::Ply => "ply",
                        Lookahead::Turn => "turn",
                    },
                    c.max_nodes,
                    spread_name(c.spread),
                    evaluation_suffix(c.evaluation)
                )?;
                if c.blunders > 0.0 {
                    write!(f, ":blunders={}", c.blunders)?;
                }
                Ok(())
            }
            BotSpec::Ismcts(c) => {
                write!(f, "ismcts:{}", budget_text(c.budget, "iters"))?;
                write!(f, ":c={}", c.exploration)?;
                match c.step {
                    Step::Action => write!(f, ":step=action")?,
                    Step::Turn {
                        plans,
                        replies,
                        root_nodes,
                    } => write!(
                        f,
                        ":step=turn:plans={plans}:replies={replies}:root_nodes={root_nodes}"
                    )?,
                }
                write!(f, ":nodes={}:rollout=", c.turn_nodes)?;
                match c.rollout {
                    Rollout::Random(Some(n)) => write!(f, "{n}")?,
                    Rollout::Random(None) => write!(f, "full")?,
                    Rollout::Greedy { turns } => write!(f, "greedy:turns={turns}")?,
                }
                if let Some(temperature) = c.temperature {
                    write!(f, ":temperature={temperature}")?;
                }
                write!(
                    f,
                    "{}:threads={}",
                    evaluation_suffix(c.evaluation),
                    c.threads
                )
            }
            BotSpec::Rollout(c) => {
                write!(f, "rollout:{}", budget_text(c.budget, "samples"))?;
                write!(
                    f,
                    ":candidates={}:root_nodes={}:nodes={}",
                    c.candidates, c.root_nodes, c.turn_nodes
                )?;
                if let Some(turns) = c.turns {
                    write!(f, ":turns={turns}")?;
                }
                if let Some(temperature) = c.temperature {
                    write!(f, ":temperature={temperature}")?;
                }
                if let Some(z) = c.prune {
                    write!(f, ":prune={z}")?;
                }
                if c.fill {
                    write!(f, ":fill=yes")?;
                }
                if let Some(z) = c.switch {
                    write!(f, ":switch={z}")?;
                }
                write!(f, "{}", evaluation_suffix(c.evaluation))?;
                if let Some(others) = c.others {
                    write!(f, ":others={}", others.name())?;
                }
                if let Some(value) = c.value {
                    write!(f, ":value={}", value.name())?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_parameters() {
        assert_eq!("random".parse::<BotSpec>(), Ok(BotSpec::Random));
        let BotSpec::Ismcts(c) = "ismcts:iters=50:rollout=full:threads=2".parse().unwrap() else {
            panic!("ismcts expected")
        };
        assert_eq!(
            (c.budget, c.rollout, c.threads),
            (Budget::Iterations(50), Rollout::Random(None), 2)
        );
        let BotSpec::Greedy(g) = "Greedy:lookahead=ply".parse().unwrap() else {
            panic!("greedy expected")
        };
        assert_eq!(g.lookahead, Lookahead::Ply);
        // Display round-trips.
        for text in [
            "ismcts:ms=30:c=1.5",
            "rollout",
            "rollout:samples=40:candidates=6:turns=2:nodes=300:temperature=3:prune=2.5:fill=yes:switch=1:eval=fitted",
            "rollout:ms=100:others=heuristic:value=1/0.5/0",
            "ismcts:rollout=greedy:turns=2:nodes=90",
            "ismcts:eval=fitted:temperature=4",
            "greedy:eval=fitted",
            "greedy:eval=1/0.5/-2",
            "greedy:nodes=100:blunders=0.25",
        ] {
            let spec: BotSpec = text.parse().unwrap();
            assert_eq!(spec.to_string().parse::<BotSpec>(), Ok(spec));
        }
        let BotSpec::Ismcts(c) = "ismcts:nodes=90:rollout=greedy".parse().unwrap() else {
            panic!("ismcts expected")
        };
        assert_eq!(c.turn_nodes, 90);
        assert_eq!(c.evaluation, Evaluation::Heuristic);
        let BotSpec::Greedy(g) = "greedy:eval=fitted".parse().unwrap() else {
            panic!("greedy expected")
        };
        assert_eq!(g.evaluation, Evaluation::Fitted);
        assert_eq!(
            c.rollout,
            Rollout::Greedy {
                turns: GREEDY_ROLLOUT_TURNS
            }
        );
    }

    #[test]
    fn bad_input_lists_what_is_accepted() {
        let err = |s: &str| s.parse::<BotSpec>().unwrap_err().0;
        assert!(err("alphazero").contains("known bots: random, greedy, ismcts, rollout"));
        assert!(err("ismcts:iters=0").contains("at least 1"));
        assert!(err("ismcts:iters=-5").contains("at least 1"));
        assert!(err("ismcts:ms=0").contains("at least 1"));
        assert!(err("ismcts:depth=3").contains("accepted: iters=N"));
        assert!(err("ismcts:iters=10:ms=10").contains("not both"));
        assert!(err("ismcts:iters").contains("KEY=VALUE"));
        assert!(err("greedy:lookahead=far").contains("ply|turn"));
        assert!(err("random:x=1").contains("no parameters"));
        assert!(err("ismcts:temperature=0").contains("> 0"));
        assert!(err("greedy:eval=neural").contains("eval=heuristic|fitted|fast|W/W/..."));
        assert!(err("ismcts:rollout=20:turns=2").contains("rollout=greedy only"));
        assert!(err("ismcts:step=action:plans=3").contains("step=turn only"));
        assert!(err("ismcts:step=round").contains("action|turn"));
        assert!(err("greedy:spread=wide").contains("depth|even"));
        assert!(err("greedy:blunders=1.5").contains("between 0 and 1"));
        assert!(err("greedy:blunders=NaN").contains("between 0 and 1"));
        assert!(err("hard:iters=5").contains("no parameters"));
        assert!(err("expert").contains("levels: easy, medium, hard"));
        assert!(err("ismcts:rollout=greedy:nodes=0").contains("at least 1"));
        assert!(err("rollout:samples=5:ms=5").contains("not both"));
        assert!(err("rollout:plans=3").contains("accepted: samples=N"));
        assert!(err("rollout:candidates=0").contains("at least 1"));
        assert!(err("rollout:prune=0").contains("prune must be > 0"));
        assert!(err("rollout:prune=inf").contains("prune must be > 0"));
        assert!(err("rollout:switch=-1").contains("switch must be > 0"));
        assert!(err("rollout:fill=maybe").contains("accepted: samples=N"));
    }
}
