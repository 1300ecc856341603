//! Native core of ncpu_nb, exposed to Python as `ncpu_nb._metal`.
use pyo3::prelude::*;

pub mod arm64;
pub mod ncpu;

#[pymodule]
fn _metal(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // An editable install's build keeps overflow checks and debug assertions (metal_ext/Cargo.toml); the
    // bench says so, since such a build runs slower than a release wheel.
    m.add("BUILD_CHECKED", cfg!(debug_assertions))?;
    ncpu::python::register(m)?;
    arm64::python_core::register(m)?;
    arm64::python_machine::register(m)?;
    Ok(())
}
