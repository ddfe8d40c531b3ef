//! Binding of `overprov_sim::device::Device`: a simulated drive the host drives request by
//! request (`overprov._core.Device`), for the emulated block device (`overprov.emulate`).

use overprov_sim::config::from_json;
use overprov_sim::device::{Command, Device};
use pyo3::prelude::*;

use crate::errors;

#[pyclass(module = "overprov._core", name = "Device")]
struct PyDevice {
    inner: Device,
}

#[pymethods]
impl PyDevice {
    /// Validate `config_json` (a SimConfig with timing enabled) and build a fresh drive.
    #[new]
    fn new(py: Python<'_>, config_json: &str) -> PyResult<Self> {
        let config = from_json(config_json).map_err(|e| errors::to_py(py, e))?;
        let inner = Device::new(config).map_err(|e| errors::to_py(py, e))?;
        Ok(PyDevice { inner })
    }

    /// Submit `command` ("write", "read", "trim", "flush") on logical pages
    /// `lpn .. lpn + pages` at host time `t_ns`; returns the completion time (ns).
    fn submit(
        &mut self,
        py: Python<'_>,
        command: &str,
        lpn: u64,
        pages: u64,
        t_ns: u64,
    ) -> PyResult<u64> {
        let command = Command::parse(command).map_err(|e| errors::to_py(py, e))?;
        self.inner
            .submit(command, lpn, pages, t_ns)
            .map_err(|e| errors::to_py(py, e))
    }

    /// The SMART-like counters as JSON text (`overprov_sim::device::DeviceCounters`).
    fn counters_json(&self) -> String {
        serde_json::to_string(&self.inner.counters()).unwrap_or_default()
    }

    /// The timing report (IOPS and latency in simulated time) as JSON text.
    fn timed_report_json(&self) -> String {
        serde_json::to_string(&self.inner.timed_report()).unwrap_or_default()
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDevice>()
}
