//! The nCPU teaching machine's fast mode: exact integer ALU, many lanes at once.
pub mod alu;
pub mod exec;
pub mod python;
