//! `tabletop play GAME`: a human in the terminal against bots.
//!
//! The human's view is drawn as text (`Game::render_view`), the legal actions are
//! numbered with `Game::describe_action`, and every action's events are printed as a log
//! of sentences (`Game::describe_event`).
//! Input is one line per decision, so a pipe can drive it; end of input leaves the game.
//!
//! With `--server URL` the same screen is played on a game server (`crate::remote`):
//! the pieces of the screen (seat checks, bot assignment, the action list, the prompt,
//! move lines, the outcome) are the functions here, shared by both paths.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use bots::{Bot, BotSpec};
use clap::Args;
use engine::{Game, Outcome, Seat};

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
    /// other seat (e.g. greedy, or ismcts:iters=1000; on a server also easy, medium,
    /// hard).
    #[arg(long, value_delimiter = ',', default_value = "greedy")]
    pub bots: Vec<String>,
    /// Seed of the game (setup and bots); 0 when left out, except on a server, which then
    /// chooses one (a chosen seed is shown to everyone as such).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A corrected component data file for the game (local play only).
    #[arg(long, value_name = "FILE", conflicts_with = "server")]
    pub data: Option<PathBuf>,
    /// Play on the game server at this URL (e.g. http://127.0.0.1:8080) instead of in
    /// this process.
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// With --server: join this existing game instead of creating one (an invitation).
    #[arg(long, value_name = "ID", requires_all = ["server", "token"])]
    pub game_id: Option<String>,
    /// With --game-id: the seat's token from the invitation.
    #[arg(long, value_name = "TOKEN", requires = "game_id")]
    pub token: Option<String>,
    /// With --server: your name at the table (default "Player 1" for seat 0, and so on).
    #[arg(long, requires = "server")]
    pub name: Option<String>,
}

pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    if let Some(url) = &args.server {
        return crate::remote::run(args, url);
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = stdout.lock();
    let result = games::with_game(&args.game, Play(args, &mut input, &mut output))
        .map_err(|e| CliError::usage(e.to_string()))?;
    result.or_else(PlayError::into_cli)
}

/// Why a game in the terminal stopped early: the command failed, or the terminal did.
#[derive(Debug)]
pub enum PlayError {
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

impl PlayError {
    /// The command's error: a reader that went away (`| head`) ends the game quietly.
    pub fn into_cli(self) -> Result<(), CliError> {
        match self {
            PlayError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            PlayError::Io(e) => Err(CliError::failure(format!("terminal: {e}"))),
            PlayError::Cli(e) => Err(e),
        }
    }
}

/// What the human answered.
pub enum Answer {
    /// The index of the chosen action in the list shown.
    Action(usize),
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
    let seed = args.seed.unwrap_or(0);
    let mut state = G::new(&config, seed).map_err(|e| CliError::usage(e.to_string()))?;
    let seats = state.seats();
    let human = human_seat(args.seat, seats)?;
    let specs: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|b| b.parse::<BotSpec>().map_err(|e| CliError::usage(e.0)))
        .collect::<Result<_, _>>()?;
    let specs = other_seats(specs, seats)?;
    // bots[seat]: None for the human.
    let mut others = specs.iter().enumerate().map(|(i, spec)| Seated {
        bot: spec.build(seed.wrapping_add(i as u64 + 1)),
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

    write_intro(out, G::NAME, seats, &format!("seed {seed}"), human)?;
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
                let descriptions: Vec<String> =
                    legal.iter().map(|a| state.describe_action(a)).collect();
                write_actions(out, &descriptions)?;
                match ask(legal.len(), input, out)? {
                    Some(Answer::Action(i)) => (legal[i], format!("seat {seat} (you)")),
                    Some(Answer::View) => {
                        show_table = true;
                        continue;
                    }
                    Some(Answer::Quit) => {
                        writeln!(out, "{LEFT}")?;
                        return Ok(());
                    }
                    None => {
                        writeln!(out, "{END_OF_INPUT}")?;
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
        let sentences: Vec<String> = events.iter().map(|e| state.describe_event(e)).collect();
        write_move(out, &who, Some(&text), &sentences)?;
        if bots[usize::from(seat)].is_some() {
            // The table changed: show it again before the human's next decision.
            show_table = true;
        }
    }
    writeln!(out, "\nGame over.\n{}", state.render_view(Some(human)))?;
    if let Some(outcome) = state.outcome() {
        write_outcome(out, &outcome, human)?;
    }
    Ok(())
}

/// What the game says when the human leaves with 'q' and at the end of input.
pub const LEFT: &str = "You left the game.";
pub const END_OF_INPUT: &str = "\nEnd of input: leaving the game.";

/// The seat `seat` of a game of `seats` seats, or the usage error.
pub fn human_seat(seat: u64, seats: usize) -> Result<Seat, CliError> {
    Seat::try_from(seat)
        .ok()
        .filter(|&s| usize::from(s) < seats)
        .ok_or_else(|| {
            CliError::usage(format!(
                "--seat {seat} is not a seat: this game has seats 0 to {}",
                seats.saturating_sub(1)
            ))
        })
}

/// The bots of the seats other than the human's, in seat order: one bot fills them all,
/// or there is one per seat.
pub fn other_seats<T: Clone>(bots: Vec<T>, seats: usize) -> Result<Vec<T>, CliError> {
    let others = seats.saturating_sub(1);
    match bots.len() {
        1 => Ok(vec![bots[0].clone(); others]),
        n if n == others => Ok(bots),
        n => Err(CliError::usage(format!(
            "--bots lists {n} bots for {others} other seats: give one bot, or one per other seat"
        ))),
    }
}

/// The first lines: the game, where it is played (`at`: a seed, or a server's game), the
/// human's seat and the keys.
pub fn write_intro(
    out: &mut impl Write,
    game: &str,
    seats: usize,
    at: &str,
    human: Seat,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{game}, {seats} players, {at}. You are seat {human}. Type the number of an action, \
         'v' to see the table again, 'q' to leave."
    )
}

/// The legal actions, numbered from 1.
pub fn write_actions(out: &mut impl Write, descriptions: &[String]) -> std::io::Result<()> {
    for (i, d) in descriptions.iter().enumerate() {
        writeln!(out, "  {:>3}) {d}", i + 1)?;
    }
    Ok(())
}

/// One move of the log: who moved, the action when known, and its events' sentences.
pub fn write_move(
    out: &mut impl Write,
    who: &str,
    action: Option<&str>,
    sentences: &[String],
) -> std::io::Result<()> {
    match action {
        Some(text) => writeln!(out, "{who}: {text}")?,
        None => writeln!(out, "{who}:")?,
    }
    for s in sentences {
        writeln!(out, "    · {s}")?;
    }
    Ok(())
}

/// The scores and ranks at the end.
pub fn write_outcome(out: &mut impl Write, outcome: &Outcome, human: Seat) -> std::io::Result<()> {
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
    Ok(())
}

/// Asks until the answer is an action number (from 1 to `actions`), `v`, `q` or end of
/// input (`None`).
pub fn ask(
    actions: usize,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Option<Answer>, PlayError> {
    loop {
        write!(out, "your choice (1-{actions}): ")?;
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
                "That line is not text (invalid UTF-8): type a number from 1 to {actions}, 'v' or \
                 'q'."
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
            Ok(n) if (1..=actions).contains(&n) => return Ok(Some(Answer::Action(n - 1))),
            _ => writeln!(
                out,
                "{:?} is not an action: type a number from 1 to {actions}, 'v' or 'q'.",
                games::clip(answer, 40),
            )?,
        }
    }
}
