//! Thin PyO3 binding of overprov-sim (`overprov._core`); no simulation logic lives here.
//! Configuration crosses as JSON text and reports come back as JSON text, so the Rust types stay
//! the single definition of both.

mod device;
mod errors;
mod trace;

use overprov_sim::config::ValidConfig;
use overprov_sim::host::Run;
use overprov_sim::round::RoundRequest;
use pyo3::prelude::*;

/// A configuration parsed and validated once (`overprov_sim::config::ValidConfig`): a
/// `Simulator` built from it neither parses nor validates it again.
#[pyclass(module = "overprov._core", name = "Config", frozen)]
struct PyConfig {
    inner: ValidConfig,
}

#[pymethods]
impl PyConfig {
    /// Parse and validate `config_json` (the SimConfig as JSON); errors name the field.
    #[new]
    fn new(py: Python<'_>, config_json: &str) -> PyResult<Self> {
        let inner = ValidConfig::from_json(config_json).map_err(|e| errors::to_py(py, e))?;
        Ok(PyConfig { inner })
    }

    /// The resolved configuration and geometry as JSON text: `{"config", "geometry",
    /// "op_ratio", "spare_factor"}`.
    fn resolved_json(&self) -> String {
        let (config, geometry) = (self.inner.config(), self.inner.geometry());
        let out = serde_json::json!({
            "config": config,
            "geometry": geometry,
            "op_ratio": geometry.op_ratio(),
            "spare_factor": geometry.spare_factor(),
        });
        out.to_string()
    }
}

/// A configuration as a simulator takes it: a validated `Config`, or JSON text.
#[derive(FromPyObject)]
enum ConfigArg<'py> {
    Valid(PyRef<'py, PyConfig>),
    Json(String),
}

impl ConfigArg<'_> {
    fn valid(self) -> overprov_sim::Result<ValidConfig> {
        match self {
            ConfigArg::Valid(c) => Ok(c.inner.clone()),
            ConfigArg::Json(text) => ValidConfig::from_json(&text),
        }
    }
}

/// A simulated drive (or an array of drives, or several jobs: `overprov_sim::host::Run`)
/// running precondition → warm-up → measurement.
#[pyclass(module = "overprov._core", name = "Simulator")]
struct PySimulator {
    inner: Run,
}

#[pymethods]
impl PySimulator {
    /// Build a fresh drive from `config`: a `Config` (validated before), or the SimConfig as
    /// JSON text (validated here).
    #[new]
    fn new(py: Python<'_>, config: ConfigArg<'_>) -> PyResult<Self> {
        let inner = config
            .valid()
            .and_then(Run::from_valid)
            .map_err(|e| errors::to_py(py, e))?;
        Ok(PySimulator { inner })
    }

    /// Run up to `budget` host page writes with the GIL released; True when the run is done.
    fn step(&mut self, py: Python<'_>, budget: u64) -> PyResult<bool> {
        let inner = &mut self.inner;
        py.detach(|| inner.step(budget))
            .map_err(|e| errors::to_py(py, e))
    }

    /// (host pages written so far, host pages planned in all).
    fn progress(&self) -> (u64, u64) {
        self.inner.progress()
    }

    /// The current phase: precondition, warmup, measure or done.
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase().name()
    }

    /// Discard logical pages `start .. start+count`.
    fn trim(&mut self, py: Python<'_>, start: u64, count: u64) -> PyResult<()> {
        self.inner
            .trim_range(start, count)
            .map_err(|e| errors::to_py(py, e))
    }

    /// One profiler round on the simulated drive (see `overprov_sim::Simulator::run_round`): the round as
    /// JSON (`overprov_sim::round::RoundRequest`); returns its figures as JSON text. The GIL is
    /// released while it runs.
    fn run_round(&mut self, py: Python<'_>, round_json: &str) -> PyResult<String> {
        let round = RoundRequest::from_json(round_json).map_err(|e| errors::to_py(py, e))?;
        let inner = &mut self.inner;
        let figures = py
            .detach(|| inner.run_round(&round))
            .map_err(|e| errors::to_py(py, e))?;
        Ok(serde_json::to_string(&figures).unwrap_or_default())
    }

    /// The run's counters so far (`overprov_sim::ftl::Counters`: host, GC and wear-levelling
    /// pages, erases, victims, trimmed pages), as the report's `totals` gives them, without
    /// building the report: what a profiler round reads.
    fn totals(&self) -> PyResult<std::collections::BTreeMap<String, u64>> {
        let value = serde_json::to_value(self.inner.totals())
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        let fields = value.as_object().into_iter().flatten();
        Ok(fields
            .filter_map(|(k, v)| Some((k.clone(), v.as_u64()?)))
            .collect())
    }

    /// The report so far, as JSON text.
    fn report_json(&self) -> String {
        serde_json::to_string(&self.inner.report())
            .unwrap_or_else(|e| format!("{{\"error\": \"report could not be serialised: {e}\"}}"))
    }
}

/// The default configuration as JSON text (every field, with its default).
#[pyfunction]
fn default_config_json() -> String {
    overprov_sim::config::defaults_json()
}

/// The names each enum field of the configuration accepts (`{"ftl.policy": [...], ...}`), for
/// the command line's choices.
#[pyfunction]
fn choices() -> std::collections::BTreeMap<&'static str, Vec<String>> {
    overprov_sim::config::choices().into_iter().collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", overprov_sim::VERSION)?;
    m.add_class::<PyConfig>()?;
    m.add_class::<PySimulator>()?;
    m.add_function(wrap_pyfunction!(default_config_json, m)?)?;
    m.add_function(wrap_pyfunction!(choices, m)?)?;
    trace::register(m)?;
    device::register(m)?;
    Ok(())
}
