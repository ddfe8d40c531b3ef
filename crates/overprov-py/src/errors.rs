//! The one place Rust errors become Python exceptions: the classes live in the Python package
//! (`overprov.errors`) so Python code catches one hierarchy whether an error began in Rust or not.

use overprov_sim::Error;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

fn python_class<'py>(py: Python<'py>, name: &str) -> Option<Bound<'py, PyAny>> {
    py.import("overprov.errors").ok()?.getattr(name).ok()
}

/// Convert a simulator error: configuration problems and bad trace input →
/// `overprov.errors.ConfigError`
/// (a `ValueError`), state errors → `overprov.errors.OverprovError`.
pub fn to_py(py: Python<'_>, err: Error) -> PyErr {
    let message = err.to_string();
    let class = match err {
        Error::Config { .. } | Error::Parse { .. } | Error::Trace { .. } => "ConfigError",
        _ => "OverprovError",
    };
    match python_class(py, class) {
        Some(cls) => match cls.call1((message.clone(),)) {
            Ok(instance) => PyErr::from_value(instance),
            Err(_) => PyRuntimeError::new_err(message),
        },
        None if class == "ConfigError" => PyValueError::new_err(message),
        None => PyRuntimeError::new_err(message),
    }
}
