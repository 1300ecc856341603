//! Fetch, decode and execute one A64 instruction at a time.
//!
//! The integer, branch, system and load/store instructions are decoded once into the shared
//! form (`arm64::decode`) and executed from it; the other families (SIMD&FP, exclusives,
//! atomics, literals, structures...) live in their own files and decode their own fields.
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
