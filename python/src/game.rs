//! `tabletop.Game` and `tabletop.Bot`: one game of any kind, driven with the JSON-
//! compatible values of the engine protocol, and a bot that plays its seats.

use std::sync::Mutex;

use bots::BotSpec;
use engine::{OfferedAction, Seat};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use serde_json::Value;

use crate::convert::{from_json, to_json};
use crate::errors::{self, from_engine, Context};
use crate::table::{SeatBot, Table};

/// One game: `tabletop.new_game(...)` or `tabletop.replay(record)` makes one.
#[pyclass(module = "tabletop._native", name = "Game")]
pub struct PyGame {
    table: Box<dyn Table>,
    /// The legal indices listed last: kept so that listing them allocates once a game.
    indices: Vec<usize>,
    /// A sample from `determinize`: it has no record (its actions would replay the true
    /// position).
    determinized: bool,
}

impl PyGame {
    pub fn new(table: Box<dyn Table>) -> Self {
        Self::wrap(table, false)
    }

    fn wrap(table: Box<dyn Table>, determinized: bool) -> Self {
        PyGame {
            table,
            indices: Vec::new(),
            determinized,
        }
    }

    pub fn table(&self) -> &dyn Table {
        &*self.table
    }

    pub fn table_mut(&mut self) -> &mut dyn Table {
        &mut *self.table
    }

    /// Lists the legal indices into `self.indices`.
    fn list_legal(&mut self) -> PyResult<()> {
        self.indices.clear();
        self.table
            .game()
            .legal_indices(&mut self.indices)
            .map_err(|e| from_engine(e, Context::Action))
    }
}

fn no_spaces(game: &str, what: &str) -> PyErr {
    errors::raise(
        "no_spaces",
        format!("{game} has no fixed {what}"),
        Context::Action,
    )
}

fn bad_buffer(message: String) -> PyErr {
    errors::raise("bad_buffer", message, Context::Action)
}

/// A seat number from Python (`None`: the spectator); a number that is no seat of the
/// table is `BadSeat`.
pub fn seat_arg(seat: Option<i64>, seats: usize) -> PyResult<Option<Seat>> {
    let Some(seat) = seat else { return Ok(None) };
    match Seat::try_from(seat) {
        Ok(s) if usize::from(s) < seats => Ok(Some(s)),
        _ => Err(errors::raise(
            "bad_seat",
            format!("seat {seat} does not exist; this game has seats 0..{seats}"),
            Context::Action,
        )),
    }
}

/// A Python value as an action's JSON; a value that is not JSON-compatible is malformed.
pub fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<Value> {
    to_json(action).map_err(|why| {
        errors::raise(
            "malformed",
            format!("not an action: {why}"),
            Context::Action,
        )
    })
}

#[pymethods]
impl PyGame {
    /// The game's canonical name (`valdora`, `valley`, `pandoria`).
    #[getter]
    fn name(&self) -> &'static str {
        self.table.game().name()
    }

    /// The number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.table.game().seats()
    }

    /// The seat to decide, or None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<Seat> {
        self.table.game().to_move()
    }

    /// Whether the game is over (no seat to move).
    #[getter]
    fn is_over(&self) -> bool {
        self.table.game().to_move().is_none()
    }

    /// Whether this is a sample from `determinize` (which has no record).
    #[getter]
    fn determinized(&self) -> bool {
        self.determinized
    }

    /// The legal actions of the seat to move, each as the value `apply` takes back.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for offered in self.table.game().legal_actions_json() {
            list.append(from_json(py, &offered.action)?)?;
        }
        Ok(list)
    }

    /// The legal actions with a short description and the rule each follows:
    /// `[{"action": …, "description": "…", "rule": "V-T3"}, …]`.
    fn describe_legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for OfferedAction {
            action,
            description,
            rule,
        } in self.table.game().legal_actions_json()
        {
            let item = PyDict::new(py);
            item.set_item("action", from_json(py, &action)?)?;
            item.set_item("description", description)?;
            item.set_item("rule", rule)?;
            list.append(item)?;
        }
        Ok(list)
    }

    /// Applies `action` (a value as `legal_actions` lists it); returns the events it
    /// caused. A refused action raises (`MalformedAction`, `IllegalAction`, `GameOver`,
    /// `NotYourTurn`) and leaves the game exactly as it was.
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action = action_arg(action)?;
        let events = self
            .table
            .game_mut()
            .apply_json(&action)
            .map_err(|e| from_engine(e, Context::Action))?;
        from_json(py, &Value::Array(events))
    }

    /// What `seat` may see (None: a spectator), as a dict.
    #[pyo3(signature = (seat=None))]
    fn view<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let seat = seat_arg(seat, self.seats())?;
        let view = self
            .table
            .game()
            .view_json(seat)
            .map_err(|e| from_engine(e, Context::Action))?;
        from_json(py, &view)
    }

    /// A sample of the positions `seat` cannot tell from this one (hidden cards and
    /// draws redrawn with `seed`), for search. It has no record.
    #[pyo3(signature = (seat, seed=0))]
    fn determinize(&self, seat: Option<i64>, seed: u64) -> PyResult<PyGame> {
        let seat = seat_arg(seat, self.seats())?;
        Ok(PyGame::wrap(self.table.determinize(seat, seed), true))
    }

    /// The outcome once the game is over (scores, breakdowns, ranks), else None.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let outcome = self.table.game().outcome();
        from_json(py, &serde_json::to_value(outcome).unwrap_or(Value::Null))
    }

    /// `{"game", "config", "seed", "actions"}`: everything that replays this game
    /// (`tabletop.replay`, `tabletop replay FILE`).
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.determinized {
            return Err(errors::raise(
                "no_record",
                "a determinized game is a sample, not a game that was played: it has no record",
                Context::Action,
            ));
        }
        from_json(py, &self.table.game().record())
    }

    /// The position as text for `seat`'s terminal (None: a spectator).
    #[pyo3(signature = (seat=None))]
    fn render(&self, seat: Option<i64>) -> PyResult<String> {
        let seat = seat_arg(seat, self.seats())?;
        Ok(self.table.game().render_text(seat))
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        PyGame::wrap(self.table.box_clone(), self.determinized)
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// Pickled as its record (for Ray and multiprocessing): unpickling replays it.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let replay = py.import("tabletop._native")?.getattr("replay")?;
        let record = self.record(py)?;
        PyTuple::new(py, [replay, PyTuple::new(py, [record])?.into_any()])
    }

    // ----- the fixed action space and observation tensors (learning code) -------------

    /// The size of the fixed action space: actions are the indices `0..action_count`.
    #[getter]
    fn action_count(&self) -> PyResult<usize> {
        self.table
            .game()
            .action_count()
            .ok_or_else(|| no_spaces(self.table.game().name(), "action space"))
    }

    /// The length of a seat's observation tensor.
    #[getter]
    fn observation_len(&self) -> PyResult<usize> {
        self.table
            .game()
            .observation_len()
            .ok_or_else(|| no_spaces(self.table.game().name(), "observation tensor"))
    }

    /// The index of `action` (a value as `legal_actions` lists it), legal now or not.
    fn action_index(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        let action = action_arg(action)?;
        self.table
            .game()
            .action_index(&action)
            .map_err(|e| from_engine(e, Context::Action))
    }

    /// The action at `index` of the action space, as `apply` takes it.
    fn action_at<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        let action = self
            .table
            .game()
            .action_at(index)
            .map_err(|e| from_engine(e, Context::Action))?;
        from_json(py, &action)
    }

    /// The indices of the legal actions, ascending as the engine lists them.
    fn legal_indices<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.list_legal()?;
        let indices: Vec<i64> = self.indices.iter().map(|&i| i as i64).collect();
        Ok(PyArray1::from_vec(py, indices))
    }

    /// The legal actions as a mask over the action space (1: legal), written into `out`
    /// (an int8 array `action_count` long) when given, else into a new array.
    #[pyo3(signature = (out=None))]
    fn legal_mask<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray1<i8>>>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let count = self.action_count()?;
        self.list_legal()?;
        let out = out.unwrap_or_else(|| PyArray1::zeros(py, count, false));
        {
            let mut view = out.try_readwrite()?;
            let mask = view
                .as_slice_mut()
                .map_err(|e| bad_buffer(format!("out: {e}")))?;
            if mask.len() != count {
                return Err(bad_buffer(format!(
                    "out is {} long; the action space is {count}",
                    mask.len()
                )));
            }
            mask.fill(0);
            for &i in &self.indices {
                if let Some(slot) = mask.get_mut(i) {
                    *slot = 1;
                }
            }
        }
        Ok(out)
    }

    /// Applies the action at `index` (the fast path: no JSON). An index outside the
    /// space raises `MalformedAction`, one not legal now `IllegalAction`; either changes
    /// nothing.
    fn apply_index(&mut self, index: usize) -> PyResult<()> {
        self.table
            .game_mut()
            .apply_index(index)
            .map_err(|e| from_engine(e, Context::Action))
    }

    /// What `seat` may know as a float32 array in [0, 1] (docs/contract.md, "Action space
    /// and observations"), written into `out` (`observation_len` long) when given.
    #[pyo3(signature = (seat, out=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
        out: Option<Bound<'py, PyArray1<f32>>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let length = self.observation_len()?;
        let seat = seat_arg(Some(seat), self.seats())?.unwrap_or_default();
        let out = out.unwrap_or_else(|| PyArray1::zeros(py, length, false));
        {
            let mut view = out.try_readwrite()?;
            let buffer = view
                .as_slice_mut()
                .map_err(|e| bad_buffer(format!("out: {e}")))?;
            self.table
                .game()
                .observe_into(seat, buffer)
                .map_err(|e| from_engine(e, Context::Action))?;
        }
        Ok(out)
    }

    fn __repr__(&self) -> String {
        let game = self.table.game();
        match game.to_move() {
            Some(seat) => format!(
                "<tabletop.Game {} seats={} to_move={seat}>",
                game.name(),
                game.seats()
            ),
            None => format!(
                "<tabletop.Game {} seats={} over>",
                game.name(),
                game.seats()
            ),
        }
    }
}

/// A bot of the project (`random`, `greedy`, `ismcts:iters=1000`, … as `tabletop arena`
/// takes them) for one kind of game; it decides only from what the seat to move may know.
#[pyclass(module = "tabletop._native", name = "Bot")]
pub struct PyBot {
    bot: Mutex<Box<dyn SeatBot>>,
    spec: String,
}

#[pymethods]
impl PyBot {
    /// A bot for games of `game`'s kind, built from `spec` and seeded with `seed`.
    #[new]
    #[pyo3(signature = (game, spec="greedy", seed=0))]
    fn new(game: &PyGame, spec: &str, seed: u64) -> PyResult<Self> {
        let parsed: BotSpec = spec
            .parse()
            .map_err(|e: bots::BotError| errors::raise("setup", e.0, Context::Setup))?;
        Ok(PyBot {
            bot: Mutex::new(game.table.bot(&parsed, seed)),
            spec: parsed.to_string(),
        })
    }

    /// The bot's action for the seat to move in `game` (not applied).
    fn choose<'py>(&self, py: Python<'py>, game: &PyGame) -> PyResult<Bound<'py, PyAny>> {
        let action = self.lock()?.choose(game.table()).map_err(bot_error)?;
        from_json(py, &action)
    }

    /// Plays the seat to move in `game`: the action chosen and applied, returned.
    fn play<'py>(&self, py: Python<'py>, game: &mut PyGame) -> PyResult<Bound<'py, PyAny>> {
        let action = self.lock()?.play(game.table_mut()).map_err(bot_error)?;
        from_json(py, &action)
    }

    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    fn __repr__(&self) -> String {
        format!("<tabletop.Bot {}>", self.spec)
    }
}

impl PyBot {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn SeatBot>>> {
        self.bot
            .lock()
            .map_err(|_| errors::raise("bot", "the bot failed earlier", Context::Action))
    }
}

fn bot_error(e: engine::GameError) -> PyErr {
    from_engine(e, Context::Action)
}
