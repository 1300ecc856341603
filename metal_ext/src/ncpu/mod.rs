//! The nCPU teaching machine: many lanes at once, with the exact integer ALU (fast mode) or
//! the trained networks (neural mode).
pub mod alu;
pub mod exec;
pub mod float;
pub mod float_native;
pub mod neural;
pub mod python;
