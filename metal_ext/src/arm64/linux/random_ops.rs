//! The seeded generator of the random-operation tests (xorshift64): the same sequence every run.

/// A function that gives the next number below its argument, from `seed` (not zero).
pub fn below(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}
