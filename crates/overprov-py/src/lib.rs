//! Thin PyO3 binding of overprov-sim; no simulation logic lives here.
use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", overprov_sim::VERSION)?;
    Ok(())
}
