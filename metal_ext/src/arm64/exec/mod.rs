//! Fetch, decode and execute one A64 instruction at a time.
//!
//! The integer, branch, system and load/store instructions (exclusives, LSE atomics, literals
//! and vector structures included) are decoded once into the shared form (`arm64::decode`) and
//! executed from it; SIMD&FP data processing (`simd_fp`) decodes its own fields.
//! `step` keeps the contract that a failed instruction changes nothing.

pub mod alu;
mod atomics;
mod branch_system;
pub mod code_cache;
pub(crate) mod decoded;
mod exception;
mod guest_memory;
mod integer;
mod interpreter;
pub mod jit;
mod load_store;
pub mod simd_fp;
mod simd_structures;

pub use exception::Exception;
pub use interpreter::{execute_word, step};

#[cfg(test)]
mod tests;
