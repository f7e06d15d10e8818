//! `tabletop._native`: the project's games as a Python extension module (PyO3). The
//! pure-Python package `tabletop` (python/tabletop) re-exports it and adds the
//! PettingZoo, Gymnasium and Ray layers. docs/python.md says why it is built this way.

// PyO3's macros expand to unsafe code (the C API), so `forbid` cannot hold here; `deny`
// still refuses any unsafe block written by hand in this crate.
#![deny(unsafe_code)]

mod batch;
mod convert;
mod errors;
mod game;
mod table;

use std::path::PathBuf;

use pyo3::prelude::*;

use crate::convert::to_json;
use crate::errors::Context;
use crate::game::{PyBot, PyGame};
use crate::table::NewGame;

/// The names of every game.
#[pyfunction]
fn games() -> Vec<&'static str> {
    tabletop::games::names()
}

/// A new game: `name` (case-insensitive), the player count, the seed all chance is drawn
/// from, a config dict merged into the game's defaults, and optionally the path of a
/// corrected component data file.
#[pyfunction]
#[pyo3(signature = (name, players=4, seed=0, config=None, data=None))]
fn new_game(
    name: &str,
    players: Option<u64>,
    seed: u64,
    config: Option<&Bound<'_, PyAny>>,
    data: Option<PathBuf>,
) -> PyResult<PyGame> {
    let config = config
        .filter(|c| !c.is_none())
        .map(to_json)
        .transpose()
        .map_err(|why| errors::raise("malformed", format!("config: {why}"), Context::Setup))?;
    let settings = NewGame {
        players,
        seed,
        config: config.as_ref(),
        data: data.as_deref(),
    };
    let table = table::open(name, &settings)
        .map_err(|e| errors::raise("unknown_game", e.to_string(), Context::Setup))?
        .map_err(|e| errors::from_engine(e, Context::Setup))?;
    Ok(PyGame::new(table))
}

/// The game of a record (as `Game.record()` or the engine protocol writes it), replayed.
#[pyfunction]
fn replay(record: &Bound<'_, PyAny>) -> PyResult<PyGame> {
    let record = to_json(record)
        .map_err(|why| errors::raise("malformed", format!("record: {why}"), Context::Setup))?;
    let table = table::replay(&record)
        .map_err(|e| errors::raise("unknown_game", e.to_string(), Context::Setup))?
        .map_err(|e| errors::from_engine(e, Context::Action))?;
    Ok(PyGame::new(table))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(batch::simulate_part, m)?)?;
    m.add_function(wrap_pyfunction!(batch::simulate_summary, m)?)?;
    m.add_function(wrap_pyfunction!(batch::arena_part, m)?)?;
    m.add_function(wrap_pyfunction!(batch::arena_report, m)?)?;
    Ok(())
}
