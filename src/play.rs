//! `tabletop play GAME`: a human in the terminal against bots.
//!
//! The human's view is drawn as text (`Game::render_view`), the legal actions are
//! numbered with `Game::describe_action`, and every action's events are printed as a log
//! of sentences (`Game::describe_event`).
//! Input is one line per decision, so a pipe can drive it; end of input leaves the game.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use bots::{Bot, BotSpec};
use clap::Args;
use engine::{Game, Seat};

use crate::games::{self, ConfigSpec, GameVisitor};
use crate::CliError;

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game to play (e.g. valdora).
    pub game: String,
    /// Number of players (default: the game's default).
    #[arg(long)]
    pub players: Option<u64>,
    /// Your seat (0 is the first seat).
    #[arg(long, default_value_t = 0)]
    pub seat: u64,
    /// The bots in the other seats, in seat order, comma-separated; one name fills every
    /// other seat (e.g. greedy, or ismcts:iters=1000).
    #[arg(long, value_delimiter = ',', default_value = "greedy")]
    pub bots: Vec<String>,
    /// Seed of the game (setup and bots).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A corrected component data file for the game.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
}

pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = stdout.lock();
    let result = games::with_game(&args.game, Play(args, &mut input, &mut output))
        .map_err(|e| CliError::usage(e.to_string()))?;
    match result {
        Err(PlayError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(PlayError::Io(e)) => Err(CliError::failure(format!("terminal: {e}"))),
        Err(PlayError::Cli(e)) => Err(e),
        Ok(()) => Ok(()),
    }
}

#[derive(Debug)]
enum PlayError {
    Cli(CliError),
    Io(std::io::Error),
}

impl From<std::io::Error> for PlayError {
    fn from(e: std::io::Error) -> Self {
        PlayError::Io(e)
    }
}

impl From<CliError> for PlayError {
    fn from(e: CliError) -> Self {
        PlayError::Cli(e)
    }
}

struct Play<'a, R, W>(&'a PlayArgs, &'a mut R, &'a mut W);

impl<R: BufRead, W: Write> GameVisitor for Play<'_, R, W> {
    type Output = Result<(), PlayError>;
    fn visit<G: Game>(self) -> Self::Output {
        play::<G>(self.0, self.1, self.2)
    }
}

/// A bot in its seat, with the name shown in the log.
struct Seated<G: Game> {
    bot: Box<dyn Bot<G>>,
    name: &'static str,
}

/// What the human answered.
enum Answer<A> {
    Action(A),
    /// Draw the table again.
    View,
    Quit,
}

fn play<G: Game>(
    args: &PlayArgs,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), PlayError> {
    let spec = ConfigSpec {
        overrides: None,
        players: args.players,
        turn_cap: None,
        data: args.data.as_deref(),
    };
    let config = games::build_config::<G>(&spec).map_err(|e| CliError::usage(e.message))?;
    let mut state = G::new(&config, args.seed).map_err(|e| CliError::usage(e.to_string()))?;
    let seats = state.seats();
    let human = Seat::try_from(args.seat)
        .ok()
        .filter(|&s| usize::from(s) < seats)
        .ok_or_else(|| {
            CliError::usage(format!(
                "--seat {} is not a seat: this game has seats 0 to {}",
                args.seat,
                seats - 1
            ))
        })?;
    let specs: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|b| b.parse::<BotSpec>().map_err(|e| CliError::usage(e.0)))
        .collect::<Result<_, _>>()?;
    let specs = match specs.len() {
        1 => vec![specs[0]; seats - 1],
        n if n == seats - 1 => specs,
        n => {
            return Err(CliError::usage(format!(
                "--bots lists {n} bots for {} other seats: give one bot, or one per other seat",
                seats - 1
            ))
            .into())
        }
    };
    // bots[seat]: None for the human.
    let mut others = specs.iter().enumerate().map(|(i, spec)| Seated {
        bot: spec.build(args.seed.wrapping_add(i as u64 + 1)),
        name: spec.kind(),
    });
    let mut bots: Vec<Option<Seated<G>>> = (0..seats)
        .map(|s| {
            if s == usize::from(human) {
                None
            } else {
                others.next()
            }
        })
        .collect();

    writeln!(
        out,
        "{}, {seats} players, seed {}. You are seat {human}. Type the number of an action, \
         'v' to see the table again, 'q' to leave.",
        G::NAME,
        args.seed
    )?;
    let provisional = G::provisional_data(&config).len();
    if provisional > 0 {
        writeln!(
            out,
            "Note: {provisional} entries of this game's component data are provisional \
             placeholders, not yet checked against the printed game (see the README)."
        )?;
    }
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut show_table = true;
    while let Some(seat) = state.to_move() {
        let (action, who) = match bots[usize::from(seat)].as_mut() {
            Some(Seated { bot, name }) => {
                let action = bot
                    .choose(&state)
                    .ok_or_else(|| CliError::failure(format!("the {name} bot found no action")))?;
                (action, format!("seat {seat} ({name})"))
            }
            None => {
                legal.clear();
                state.legal_actions(&mut legal);
                if show_table {
                    writeln!(out, "\n{}", state.render_view(Some(human)))?;
                    show_table = false;
                }
                for (i, a) in legal.iter().enumerate() {
                    writeln!(out, "  {:>3}) {}", i + 1, state.describe_action(a))?;
                }
                match ask(&legal, input, out)? {
                    Some(Answer::Action(a)) => (a, format!("seat {seat} (you)")),
                    Some(Answer::View) => {
                        show_table = true;
                        continue;
                    }
                    Some(Answer::Quit) => {
                        writeln!(out, "You left the game.")?;
                        return Ok(());
                    }
                    None => {
                        writeln!(out, "\nEnd of input: leaving the game.")?;
                        return Ok(());
                    }
                }
            }
        };
        let text = state.describe_action(&action);
        events.clear();
        state.apply(action, &mut events).map_err(|e| {
            CliError::failure(format!("{who} chose an action the game refused: {e}"))
        })?;
        writeln!(out, "{who}: {text}")?;
        for e in &events {
            writeln!(out, "    · {}", state.describe_event(e))?;
        }
        if bots[usize::from(seat)].is_some() {
            // The table changed: show it again before the human's next decision.
            show_table = true;
        }
    }
    writeln!(out, "\nGame over.\n{}", state.render_view(Some(human)))?;
    if let Some(outcome) = state.outcome() {
        if outcome.truncated {
            writeln!(out, "(the game did not end by its rules)")?;
        }
        for r in &outcome.seats {
            writeln!(
                out,
                "  seat {}{}: {} points, rank {}",
                r.seat,
                if r.seat == human { " (you)" } else { "" },
                r.score,
                r.rank
            )?;
        }
    }
    Ok(())
}

/// Asks until the answer is an action number, `v`, `q` or end of input (`None`).
fn ask<A: Copy>(
    legal: &[A],
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Option<Answer<A>>, PlayError> {
    loop {
        write!(out, "your choice (1-{}): ", legal.len())?;
        out.flush()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        // A line that is not UTF-8 (a stray key, another encoding) is a wrong answer like
        // any other, not the end of the game.
        let Ok(line) = std::str::from_utf8(&bytes) else {
            writeln!(
                out,
                "That line is not text (invalid UTF-8): type a number from 1 to {}, 'v' or 'q'.",
                legal.len()
            )?;
            continue;
        };
        let answer = line.trim();
        match answer {
            "q" | "quit" | "exit" => return Ok(Some(Answer::Quit)),
            "v" | "view" => return Ok(Some(Answer::View)),
            _ => {}
        }
        match answer.parse::<usize>() {
            Ok(n) if (1..=legal.len()).contains(&n) => {
                return Ok(Some(Answer::Action(legal[n - 1])))
            }
            _ => writeln!(
                out,
                "{:?} is not an action: type a number from 1 to {}, 'v' or 'q'.",
                games::clip(answer, 40),
                legal.len()
            )?,
        }
    }
}
