//! Native core of ncpu_nb, exposed to Python as `ncpu_nb._metal`.
use pyo3::prelude::*;

pub mod arm64;
pub mod ncpu;

#[pymodule]
fn _metal(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    ncpu::python::register(m)?;
    arm64::python_core::register(m)?;
    arm64::python_machine::register(m)?;
    Ok(())
}
