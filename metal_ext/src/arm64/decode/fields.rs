//! Register fields as the form names them: which of SP and XZR a field value of 31 means.

use super::form::{Reg, ZR};

pub(crate) fn zr(field: u32) -> Reg {
    if field & 31 == 31 {
        ZR
    } else {
        (field & 31) as Reg
    }
}

pub(crate) fn sp(field: u32) -> Reg {
    (field & 31) as Reg
}
