//! AdvSIMD structure loads and stores (op0 = x1x0, bits 29..28 = 00, SIMD&FP): LD1..LD4 and
//! ST1..ST4 of multiple structures or of one lane, and LD1R..LD4R, each with an optional
//! post-increment.

use super::fields::{sp, zr};
use super::form::{Insn, Structure};

pub(super) fn decode(word: u32) -> Option<Insn> {
    let post = word & (1 << 23) != 0;
    let rm = (word >> 16) & 31;
    if word >> 31 != 0 || (!post && rm != 0) {
        return None;
    }
    let q = word & (1 << 30) != 0;
    let load = word & (1 << 22) != 0;
    let size = ((word >> 10) & 3) as u8;
    let layout = if word & (1 << 24) == 0 {
        // (register repeats, structure elements)
        let (rpt, selem) = match (word >> 12) & 15 {
            0 => (1, 4),
            2 => (4, 1),
            4 => (1, 3),
            6 => (3, 1),
            7 => (1, 1),
            8 => (1, 2),
            10 => (2, 1),
            _ => return None,
        };
        if word & (1 << 21) != 0 || (size == 3 && !q && selem != 1) {
            return None;
        }
        Structure::Multiple { q, scale: size, selem, registers: rpt * selem }
    } else {
        let (q, s) = (q as u8, ((word >> 12) & 1) as u8);
        let opcode = (word >> 13) & 7;
        let selem = (((opcode & 1) << 1) | ((word >> 21) & 1)) as u8 + 1;
        let (scale, index) = match opcode >> 1 {
            0 => (0, q << 3 | s << 2 | size),
            1 if size & 1 == 0 => (1, q << 2 | s << 1 | size >> 1),
            2 if size == 0 => (2, q << 1 | s),
            2 if size == 1 && s == 0 => (3, q),
            3 if load && s == 0 => {
                return Some(structures(word, load, post, Structure::Replicate { q: q == 1, scale: size, selem }))
            }
            _ => return None,
        };
        Structure::Lane { scale, index, selem }
    };
    Some(structures(word, load, post, layout))
}

fn structures(word: u32, load: bool, post: bool, layout: Structure) -> Insn {
    let post = post.then(|| zr(word >> 16));
    Insn::Structures { load, vt: (word & 31) as u8, base: sp(word >> 5), post, layout }
}
