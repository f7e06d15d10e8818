//! `tabletop play GAME`: a human in the terminal against bots.
//!
//! The human's view is drawn as text (`Game::render_view`), the legal actions are
//! numbered with `Game::describe_action`, and every action's events are printed as a log
//! of sentences (`Game::describe_event`).
//! Input is one line per decision, so a pipe can drive it; end of input leaves the game.
//!
//! With `--server URL` the same screen is played on a game server (`crate::remote`, which
//! builds on this module; this one never calls it): the pieces of the screen (seat checks,
//! bot assignment, the action list, the prompt, move lines, the outcome) are the functions
//! here, shared by both paths.

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
    /// Where to save the game's record at the end (default: a new file in the system's
    /// temporary directory); `tabletop replay FILE` replays it.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

/// Plays the game here (`--server` games are `crate::remote::run`'s, which main.rs picks).
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A number from the list shown, 1-based.
    Pick(usize),
    /// Draw the table again.
    View,
    /// List the commands.
    Help,
    /// Back from the second step of a two-step choice.
    Back,
    Quit,
}

/// The commands of `tabletop play`, shown for `?` or `help`.
pub const HELP: &str = "Commands:
  NUMBER     choose the action with that number (an entry marked '…' asks a second question)
  v, view    draw the table again
  b, back    back to the whole list from a second question
  ?, help    this list
  q, quit    leave the game (the record so far is saved)";

/// One line of the list of legal actions.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry<A> {
    Single(A, String),
    /// Actions that share their first step (a placement's cell), each with its second.
    Group(String, Vec<(A, String)>),
}

/// The legal actions as a person picks them: an action alone, or grouped under its first
/// step when several legal actions share it (`Game::describe_action_steps`), so that a
/// hundred placements read as a few cells and then a direction. Order is kept: a group
/// stands where its first action stood.
fn menu<G: Game>(state: &G, legal: &[G::Action]) -> Vec<Entry<G::Action>> {
    let steps: Vec<Option<(String, String)>> = legal
        .iter()
        .map(|a| state.describe_action_steps(a))
        .collect();
    let shared = |first: &str| {
        steps
            .iter()
            .filter(|s| s.as_ref().is_some_and(|(f, _)| f == first))
            .count()
            > 1
    };
    let mut entries: Vec<Entry<G::Action>> = Vec::new();
    for (&action, step) in legal.iter().zip(&steps) {
        match step {
            Some((first, second)) if shared(first) => {
                let group = entries.iter_mut().find_map(|e| match e {
                    Entry::Group(f, members) if f == first => Some(members),
                    _ => None,
                });
                match group {
                    Some(members) => members.push((action, second.clone())),
                    None => {
                        entries.push(Entry::Group(first.clone(), vec![(action, second.clone())]))
                    }
                }
            }
            _ => entries.push(Entry::Single(action, state.describe_action(&action))),
        }
    }
    entries
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
        data_toml: None,
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
    let mut played: Vec<G::Action> = Vec::new();
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
                match choose(&menu(&state, &legal), input, out)? {
                    Choice::Action(a) => (a, format!("seat {seat} (you)")),
                    Choice::View => {
                        show_table = true;
                        continue;
                    }
                    Choice::Quit => {
                        writeln!(out, "{LEFT}")?;
                        save_record::<G>(args, &config, seed, &played, out)?;
                        return Ok(());
                    }
                    Choice::EndOfInput => {
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
        played.push(action);
        // Told as the human's seat is told them (V-I1: another seat's completed commission
        // is not named).
        let sentences: Vec<String> = events
            .iter()
            .map(|e| match state.event_seen_by(e, Some(human)) {
                Some(told) => state.describe_event(&told),
                None => state.describe_event(e),
            })
            .collect();
        write_move(out, &who, Some(&text), &sentences)?;
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
        let mut table = String::new();
        // Writing to a String cannot fail.
        let _ = crate::replay::write_outcome(&mut table, &outcome, G::TIEBREAKS, Some(human));
        write!(out, "Final scores by category:\n{table}")?;
    }
    save_record::<G>(args, &config, seed, &played, out)?;
    Ok(())
}

/// Saves `{game, config, seed, actions}` (and the data file, if any) where `--record`
/// says, or in a new file of the temporary directory, and tells the command that replays
/// it. A record that cannot be written is said, not fatal: the game is over either way.
fn save_record<G: Game>(
    args: &PlayArgs,
    config: &G::Config,
    seed: u64,
    played: &[G::Action],
    out: &mut impl Write,
) -> Result<(), PlayError> {
    let record = match crate::replay::record::<G>(config, seed, played, args.data.as_deref()) {
        Ok(record) => record,
        Err(e) => {
            writeln!(out, "The record of this game cannot be written: {e}")?;
            return Ok(());
        }
    };
    let path = match &args.record {
        Some(path) => path.clone(),
        None => default_record_path(G::NAME, seed),
    };
    match std::fs::write(&path, record.to_string() + "\n") {
        Ok(()) => writeln!(
            out,
            "The record of this game is saved in {0}; replay it with: tabletop replay {0}",
            path.display()
        )?,
        Err(e) => writeln!(
            out,
            "The record of this game cannot be saved in {}: {e}",
            path.display()
        )?,
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
         'v' to see the table again, '?' for help, 'q' to leave."
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

/// `<tmp>/tabletop-valdora-seed-4-<time>-<pid>.json`: a new name for every game, so that
/// two games never overwrite each other's record.
fn default_record_path(game: &str, seed: u64) -> PathBuf {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    std::env::temp_dir().join(format!(
        "tabletop-{game}-seed-{seed}-{millis}-{}.json",
        std::process::id()
    ))
}

/// What the human chose from the list.
enum Choice<A> {
    Action(A),
    View,
    Quit,
    EndOfInput,
}

/// Shows the list and asks until an action is chosen (two questions for a group), or the
/// human asks for the table, leaves, or the input ends. Help is answered here.
fn choose<A: Copy>(
    entries: &[Entry<A>],
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Choice<A>, PlayError> {
    loop {
        for (i, entry) in entries.iter().enumerate() {
            match entry {
                Entry::Single(_, text) => writeln!(out, "  {:>3}) {text}", i + 1)?,
                Entry::Group(first, members) => {
                    writeln!(out, "  {:>3}) {first} … ({} choices)", i + 1, members.len())?
                }
            }
        }
        let members = loop {
            match ask(entries.len(), input, out)? {
                None => return Ok(Choice::EndOfInput),
                Some(Answer::Pick(n)) => match &entries[n - 1] {
                    Entry::Single(action, _) => return Ok(Choice::Action(*action)),
                    Entry::Group(first, members) => {
                        writeln!(out, "{first}:")?;
                        break members;
                    }
                },
                Some(Answer::View) => return Ok(Choice::View),
                Some(Answer::Quit) => return Ok(Choice::Quit),
                Some(Answer::Help) => writeln!(out, "{HELP}")?,
                Some(Answer::Back) => writeln!(out, "This is the whole list already.")?,
            }
        };
        for (i, (_, second)) in members.iter().enumerate() {
            writeln!(out, "  {:>3}) {second}", i + 1)?;
        }
        loop {
            match ask(members.len(), input, out)? {
                None => return Ok(Choice::EndOfInput),
                Some(Answer::Pick(n)) => return Ok(Choice::Action(members[n - 1].0)),
                Some(Answer::View) => return Ok(Choice::View),
                Some(Answer::Quit) => return Ok(Choice::Quit),
                Some(Answer::Help) => writeln!(out, "{HELP}")?,
                Some(Answer::Back) => break,
            }
        }
    }
}

/// Asks until the answer is a number from 1 to `choices`, a command, or the end of
/// input (`None`).
pub fn ask(
    choices: usize,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Option<Answer>, PlayError> {
    loop {
        write!(out, "your choice (1-{choices}, ? for help): ")?;
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
                "That line is not text (invalid UTF-8): type a number from 1 to {choices}, or ? for help."
            )?;
            continue;
        };
        let answer = line.trim();
        match answer {
            "q" | "quit" | "exit" => return Ok(Some(Answer::Quit)),
            "v" | "view" => return Ok(Some(Answer::View)),
            "?" | "h" | "help" => return Ok(Some(Answer::Help)),
            "b" | "back" => return Ok(Some(Answer::Back)),
            _ => {}
        }
        match answer.parse::<usize>() {
            Ok(n) if (1..=choices).contains(&n) => return Ok(Some(Answer::Pick(n))),
            _ => writeln!(
                out,
                "{:?} is not an action: type a number from 1 to {choices}, or ? for help.",
                games::clip(answer, 40),
            )?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pandoria::{Action as PandoriaAction, Pandoria, PandoriaConfig};

    fn start() -> (Pandoria, Vec<PandoriaAction>) {
        let game = Pandoria::new(&PandoriaConfig::default(), 3).expect("valid config");
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        (game, legal)
    }

    /// Runs `choose` on typed lines; returns the choice and what was printed.
    fn answer(entries: &[Entry<PandoriaAction>], lines: &str) -> (Choice<PandoriaAction>, String) {
        let mut input = std::io::Cursor::new(lines.as_bytes().to_vec());
        let mut out = Vec::new();
        let choice = match choose(entries, &mut input, &mut out) {
            Ok(choice) => choice,
            Err(_) => panic!("writing to a Vec cannot fail"),
        };
        (choice, String::from_utf8_lossy(&out).into_owned())
    }

    #[test]
    fn placements_are_grouped_by_cell_and_every_action_is_offered_once() {
        let (game, legal) = start();
        let entries = menu(&game, &legal);
        assert!(
            entries.len() * 2 < legal.len(),
            "{} entries for {} actions",
            entries.len(),
            legal.len()
        );
        let mut offered: Vec<PandoriaAction> = Vec::new();
        for entry in &entries {
            match entry {
                Entry::Single(action, text) => {
                    assert_eq!(*text, game.describe_action(action));
                    offered.push(*action);
                }
                Entry::Group(first, members) => {
                    assert!(members.len() > 1, "a group of one is listed alone");
                    for (action, second) in members {
                        assert_eq!(
                            game.describe_action_steps(action),
                            Some((first.clone(), second.clone()))
                        );
                        offered.push(*action);
                    }
                }
            }
        }
        assert_eq!(offered.len(), legal.len());
        assert!(legal.iter().all(|a| offered.contains(a)));
    }

    #[test]
    fn a_grouped_placement_is_chosen_by_cell_then_direction() {
        let (game, legal) = start();
        let entries = menu(&game, &legal);
        let (index, members) = entries
            .iter()
            .enumerate()
            .find_map(|(i, e)| match e {
                Entry::Group(_, members) => Some((i, members)),
                _ => None,
            })
            .expect("a group");
        let (choice, printed) = answer(&entries, &format!("{}\n2\n", index + 1));
        assert!(matches!(choice, Choice::Action(a) if a == members[1].0));
        assert!(
            printed.contains(&format!("  2) {}", members[1].1)),
            "{printed}"
        );
        assert!(printed.contains("choices)"), "{printed}");

        // Back from the second question to the whole list, then a single action.
        let single = entries
            .iter()
            .position(|e| matches!(e, Entry::Single(..)))
            .expect("a single action");
        let (choice, _) = answer(&entries, &format!("{}\nb\n{}\n", index + 1, single + 1));
        let Entry::Single(expected, _) = &entries[single] else {
            unreachable!()
        };
        assert!(matches!(choice, Choice::Action(a) if a == *expected));
    }

    #[test]
    fn help_lists_the_commands_and_the_list_is_asked_again() {
        let (game, legal) = start();
        let entries = menu(&game, &legal);
        for help in ["?", "help"] {
            let (choice, printed) = answer(&entries, &format!("{help}\nv\n"));
            assert!(matches!(choice, Choice::View));
            for command in ["NUMBER", "v, view", "b, back", "?, help", "q, quit"] {
                assert!(printed.contains(command), "{command}: {printed}");
            }
        }
        let (choice, printed) = answer(&entries, "0\nq\n");
        assert!(matches!(choice, Choice::Quit));
        assert!(printed.contains("\"0\" is not an action"), "{printed}");
        let (choice, _) = answer(&entries, "");
        assert!(matches!(choice, Choice::EndOfInput));
    }
}
