//! Python values to JSON and back: actions, configs and views cross as the
//! JSON-compatible values of the engine protocol (None, bool, int, float, str, list,
//! dict with str keys).

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Nesting deeper than this is refused: no action, config or record of ours comes near it,
/// and a cycle (a list that contains itself) would otherwise recurse without end.
const MAX_DEPTH: usize = 64;

/// `value` as JSON; the error says which part is not JSON-compatible.
pub fn to_json(value: &Bound<'_, PyAny>) -> Result<Value, String> {
    to_json_at(value, 0)
}

fn to_json_at(value: &Bound<'_, PyAny>, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested deeper than {MAX_DEPTH} levels"));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    // bool before int: Python's bool is an int.
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = value.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(format!("the integer {value} does not fit in 64 bits"));
    }
    if let Ok(f) = value.cast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| format!("{value} is not a finite number"));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Value::String(
            s.to_str().map_err(|e| e.to_string())?.to_owned(),
        ));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return list.iter().map(|v| to_json_at(&v, depth + 1)).collect();
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return tuple.iter().map(|v| to_json_at(&v, depth + 1)).collect();
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in dict.iter() {
            let key = k
                .cast::<PyString>()
                .map_err(|_| format!("a dict key must be a str, not {}", type_name(&k)))?;
            let key = key.to_str().map_err(|e| e.to_string())?.to_owned();
            map.insert(key, to_json_at(&v, depth + 1)?);
        }
        return Ok(Value::Object(map));
    }
    Err(format!(
        "a {} is not a JSON-compatible value (None, bool, int, float, str, list, dict)",
        type_name(value)
    ))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "value".to_owned(), |n| n.to_string())
}

/// `value` as a Python object: dicts, lists, str, int, float, bool and None.
pub fn from_json<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(from_json(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, from_json(py, v)?)?;
            }
            dict.into_any()
        }
    })
}
