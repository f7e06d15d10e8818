//! `tabletop play GAME --server URL`: the terminal game of `play`, played on a game
//! server. It creates a game (the human in `--seat`, bots in the other seats) or joins a
//! seat with `--game-id` and `--token`, then plays over the game's WebSocket: before each
//! of the human's decisions the table is the server's text view for the human's seat
//! (`GET /api/games/{id}/text`), the actions are the `legal` list of the message, and each
//! update's events are printed as their sentences.
//!
//! The screen is drawn by the same functions as the local game (`crate::play`); only where
//! the position and the moves come from differs.

use std::io::{BufRead, Write};

use engine::{Outcome, Seat};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use hyper::Method;
use serde_json::{json, Value};
use server::protocol::{Created, ErrorKind, GameSummary, LegalAction, SeatInfo, ServerMessage};
use server::store::Status;
use tokio::runtime::Runtime;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, kind_name, ClientError, ServerUrl, Socket};
use crate::play::{self, Answer, PlayArgs, PlayError};
use crate::CliError;

impl From<ClientError> for PlayError {
    fn from(e: ClientError) -> Self {
        PlayError::Cli(CliError::failure(e.to_string()))
    }
}

pub fn run(args: &PlayArgs, url: &str) -> Result<(), CliError> {
    let base = ServerUrl::parse(url).map_err(|e| CliError::usage(e.to_string()))?;
    // One worker reads the socket (and so answers the server's pings) while the main
    // thread waits for the human's line on stdin.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the runtime: {e}")))?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut out = stdout.lock();
    let result = play_remote(&runtime, &base, args, &mut input, &mut out);
    // The socket's reader task is not waited for: the game is left or over.
    runtime.shutdown_background();
    result.or_else(PlayError::into_cli)
}

/// The game played: its id and the human's token.
struct Seating {
    game: String,
    id: String,
    token: String,
}

/// Creates the game: the human in `--seat` under `--name`, the `--bots` in the others.
fn create(rt: &Runtime, base: &ServerUrl, args: &PlayArgs) -> Result<Seating, PlayError> {
    let (game, seats) = client::seat_count(&args.game, args.players)?;
    let human = play::human_seat(args.seat, seats)?;
    let mut bots = play::other_seats(args.bots.clone(), seats)?.into_iter();
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| format!("Player {}", human + 1));
    let seat_requests: Vec<Value> = (0..seats)
        .map(|s| {
            if s == usize::from(human) {
                json!({ "kind": "human", "name": name })
            } else {
                json!({ "kind": "bot", "bot": bots.next() })
            }
        })
        .collect();
    let mut body = json!({ "game": game, "seats": seat_requests });
    if let Some(players) = args.players {
        body["config"] = json!({ "players": players });
    }
    if let Some(seed) = args.seed {
        body["seed"] = Value::from(seed);
    }
    let created: Created =
        rt.block_on(client::call(base, Method::POST, "/api/games", Some(&body)))?;
    let token = created
        .seats
        .iter()
        .find(|s| s.seat == human)
        .and_then(|s| s.token.clone())
        .ok_or_else(|| {
            CliError::failure("the server created the game without a token for your seat")
        })?;
    Ok(Seating {
        game: game.to_string(),
        id: created.id,
        token,
    })
}

/// Joins the seat of an invitation: checks that the game is the one named.
fn join(
    rt: &Runtime,
    base: &ServerUrl,
    args: &PlayArgs,
    id: &str,
    token: &str,
) -> Result<Seating, PlayError> {
    let summary: GameSummary = rt.block_on(client::call(
        base,
        Method::GET,
        &format!("/api/games/{id}"),
        None,
    ))?;
    if !summary.game.eq_ignore_ascii_case(&args.game) {
        return Err(CliError::usage(format!(
            "game {id} is a game of {}, not of {}",
            summary.game, args.game
        ))
        .into());
    }
    Ok(Seating {
        game: summary.game,
        id: id.to_string(),
        token: token.to_string(),
    })
}

/// What the client knows of the game: the last state or update.
struct Table {
    seq: u64,
    status: Status,
    to_move: Option<Seat>,
    legal: Option<Vec<LegalAction>>,
    seats: Vec<SeatInfo>,
    outcome: Option<Value>,
}

impl Table {
    /// The table a state message describes, with the seat the state is for; `None` for
    /// any other message.
    fn from_state(message: &ServerMessage) -> Option<(Option<Seat>, Table)> {
        match message {
            ServerMessage::State {
                seq,
                seat,
                status,
                to_move,
                legal,
                seats,
                outcome,
                ..
            } => Some((
                *seat,
                Table {
                    seq: *seq,
                    status: *status,
                    to_move: *to_move,
                    legal: legal.clone(),
                    seats: seats.clone(),
                    outcome: outcome.clone(),
                },
            )),
            _ => None,
        }
    }

    /// "seat 2 (medium)", "seat 0 (you)", "seat 1 (Alice)": as the local log names seats.
    fn who(&self, seat: Seat, me: Seat) -> String {
        if seat == me {
            return format!("seat {seat} (you)");
        }
        let name = self
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.bot.clone().or_else(|| s.name.clone()))
            .unwrap_or_else(|| "free".to_string());
        format!("seat {seat} ({name})")
    }
}

type Sink = SplitSink<Socket, Message>;
type Inbox = mpsc::UnboundedReceiver<Result<Option<(ServerMessage, usize)>, ClientError>>;

/// The next message from the server, or why there is none.
fn receive(rt: &Runtime, inbox: &mut Inbox) -> Result<ServerMessage, ClientError> {
    match rt.block_on(inbox.recv()) {
        Some(Ok(Some((message, _)))) => Ok(message),
        Some(Err(e)) => Err(e),
        Some(Ok(None)) | None => Err(ClientError::Closed(String::new())),
    }
}

fn play_remote(
    rt: &Runtime,
    base: &ServerUrl,
    args: &PlayArgs,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), PlayError> {
    let seating = match (&args.game_id, &args.token) {
        (Some(id), Some(token)) => join(rt, base, args, id, token)?,
        (None, None) => create(rt, base, args)?,
        // clap requires both together; this is the same message if it ever does not.
        _ => return Err(CliError::usage("--game-id and --token go together").into()),
    };
    let Seating {
        game,
        id,
        mut token,
    } = seating;
    let socket = rt.block_on(client::connect(
        base,
        &id,
        Some(&token),
        args.name.as_deref(),
    ))?;
    let (mut sink, mut stream) = socket.split();
    let (tx, mut inbox) = mpsc::unbounded_channel();
    rt.spawn(async move {
        loop {
            let message = client::next_message(&mut stream).await;
            let last = !matches!(message, Ok(Some(_)));
            if tx.send(message).is_err() || last {
                break;
            }
        }
    });

    // The first answer to hello: the state, or why the seat is refused.
    let first = receive(rt, &mut inbox)?;
    // An invitation is spent by the hello that takes its seat: the state then carries
    // the seat's new token, the only way back to it.
    if let ServerMessage::State {
        token: Some(new_token),
        ..
    } = &first
    {
        token = new_token.clone();
    }
    let (me, mut table) = match (Table::from_state(&first), first) {
        (Some((Some(seat), table)), _) => (seat, table),
        (_, ServerMessage::Error { kind, message, .. }) => {
            return Err(CliError::failure(format!(
                "the server refused the seat ({}): {message}",
                kind_name(kind)
            ))
            .into())
        }
        (_, other) => {
            return Err(ClientError::Message(format!(
                "expected the seat's state after hello, got {other:?}"
            ))
            .into())
        }
    };
    play::write_intro(
        out,
        &game,
        table.seats.len(),
        &format!("game {id} on {base}"),
        me,
    )?;
    writeln!(
        out,
        "Watch it: {} (say hello without a token); summary: {}; record once it is over: {}",
        base.ws(&format!("/api/games/{id}/ws")),
        base.http(&format!("/api/games/{id}")),
        base.http(&format!("/api/games/{id}/record")),
    )?;
    writeln!(
        out,
        "Come back to your seat with: tabletop play {game} --server {base} --game-id {id} --token {token}"
    )?;
    if table.status == Status::Open {
        writeln!(out, "Waiting for the free seats to be taken.")?;
    }

    let mut show_table = true;
    // The seq and description of the action sent and not yet stored.
    let mut pending: Option<(u64, String)> = None;
    // The chat said so far is shown once (a message may come twice).
    let mut chat_shown = std::collections::HashSet::new();
    loop {
        if table.status == Status::Over {
            let text = rt.block_on(client::text(base, &id, &token))?;
            writeln!(out, "\nGame over.\n{text}")?;
            if let Some(outcome) = table.outcome.take() {
                let outcome: Outcome = serde_json::from_value(outcome).map_err(|e| {
                    ClientError::Message(format!("the outcome is not an outcome: {e}"))
                })?;
                play::write_outcome(out, &outcome, me)?;
            }
            writeln!(
                out,
                "Record: {}",
                base.http(&format!("/api/games/{id}/record"))
            )?;
            leave(rt, &mut sink);
            return Ok(());
        }
        let my_decision =
            pending.is_none() && table.status == Status::Running && table.to_move == Some(me);
        if let (true, Some(legal)) = (my_decision, table.legal.as_ref()) {
            if show_table {
                let text = rt.block_on(client::text(base, &id, &token))?;
                writeln!(out, "\n{text}")?;
                show_table = false;
            }
            let descriptions: Vec<String> = legal.iter().map(|a| a.description.clone()).collect();
            play::write_actions(out, &descriptions)?;
            match play::ask(legal.len(), input, out)? {
                Some(Answer::Pick(n)) => {
                    let i = n - 1;
                    let action = &legal[i].action;
                    rt.block_on(sink.send(client::act_message(table.seq, action)))
                        .map_err(ClientError::from)?;
                    pending = Some((table.seq, descriptions[i].clone()));
                }
                Some(Answer::View) => show_table = true,
                // The server's list is one step: there is nothing to go back to.
                Some(Answer::Help) | Some(Answer::Back) => writeln!(out, "{}", play::HELP)?,
                Some(Answer::Quit) => {
                    writeln!(out, "{}", play::LEFT)?;
                    leave(rt, &mut sink);
                    return Ok(());
                }
                None => {
                    writeln!(out, "{}", play::END_OF_INPUT)?;
                    leave(rt, &mut sink);
                    return Ok(());
                }
            }
            continue;
        }
        match receive(rt, &mut inbox)? {
            state @ ServerMessage::State { .. } => {
                // After a stale move: the position as it is; the move sent was not taken.
                pending = None;
                show_table = true;
                if let Some((_, now)) = Table::from_state(&state) {
                    table = now;
                }
            }
            ServerMessage::Update {
                seq,
                seat,
                events,
                to_move,
                legal,
                status,
                outcome,
                ..
            } => {
                let action = if seat == me {
                    pending.take().map(|(_, description)| description)
                } else {
                    // Another seat moved: the table changed under the human's eyes.
                    show_table = true;
                    None
                };
                let sentences: Vec<String> = events.into_iter().map(|e| e.text).collect();
                play::write_move(out, &table.who(seat, me), action.as_deref(), &sentences)?;
                table.seq = seq;
                table.status = status;
                table.to_move = to_move;
                table.legal = legal;
                table.outcome = outcome;
            }
            ServerMessage::Seats {
                seats,
                status,
                event,
                ..
            } => {
                if table.status == Status::Open && status == Status::Running {
                    writeln!(out, "Every seat is taken: the game starts.")?;
                }
                if let Some(event) = event {
                    writeln!(out, "{}", event.sentence(|seat| table.who(seat, me)))?;
                }
                table.seats = seats;
                table.status = status;
            }
            ServerMessage::Chat { messages } => {
                for message in messages.iter().filter(|m| chat_shown.insert(m.id)) {
                    let who = match message.seat {
                        Some(seat) => table.who(seat, me),
                        None => message.name.clone().unwrap_or_else(|| "a spectator".into()),
                    };
                    writeln!(out, "{who} says: {}", message.text)?;
                }
            }
            // Answers a question this client never asks.
            ServerMessage::Why { .. } => {}
            ServerMessage::Error { kind, message, .. } => {
                writeln!(out, "server: {} ({})", message, kind_name(kind))?;
                // A stale move is followed by the state; any other refusal leaves the
                // position as it was, so the human chooses again.
                if kind != ErrorKind::Stale {
                    pending = None;
                }
            }
        }
    }
}

/// Closes the socket: the seat stays the human's, and the game waits for its move.
fn leave(rt: &Runtime, sink: &mut Sink) {
    // A failed close changes nothing for the game: the server drops the connection when
    // it notices.
    let _ = rt.block_on(sink.close());
}
