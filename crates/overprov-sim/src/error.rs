//! The one error type of the simulator core.

use std::fmt;

/// Everything that can go wrong before or during a simulation. The binding maps these to
/// Python exceptions in one place (`crates/overprov-py/src/errors.rs`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A configuration value is invalid. `field` is the dotted path (e.g. `ftl.policy`).
    Config { field: String, message: String },
    /// The configuration text could not be parsed (syntax, unknown field, wrong type).
    Parse { field: String, message: String },
    /// An operation was asked of a simulator in a state that does not allow it.
    State(String),
    /// A trace file could not be read or one of its lines is invalid; `line` is 1-based (0: the
    /// file as a whole).
    Trace {
        file: String,
        line: u64,
        message: String,
    },
}

impl Error {
    pub(crate) fn config(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Config {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Config { field, message } => write!(f, "{field}: {message}"),
            Error::Parse { field, message } if field.is_empty() || field == "." => {
                write!(f, "{message}")
            }
            Error::Parse { field, message } => write!(f, "{field}: {message}"),
            Error::State(message) => write!(f, "{message}"),
            Error::Trace {
                file,
                line: 0,
                message,
            } => write!(f, "{file}: {message}"),
            Error::Trace {
                file,
                line,
                message,
            } => write!(f, "{file}:{line}: {message}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
