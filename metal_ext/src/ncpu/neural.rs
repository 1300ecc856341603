//! The neural ALU in the core: the trained cells of `weights/`, evaluated as networks
//! (hidden = relu(W1 x + b1), bit = W2 hidden + b2 > 0), wired as `ncpu_nb/ncpu/neural_alu.py`
//! wires them, except that division subtracts with a ripple chain of full-adder cells (one lane
//! at a time gains nothing from Kogge-Stone's shallow depth; the chain needs a quarter of the
//! cells). No integer arithmetic touches data here: words are only unpacked into bits and packed
//! back, every gate is a cell evaluation. `ncpu-nb verify` checks both wirings against fast mode.

use super::alu::Alu;
use super::float;

pub const MAX_HIDDEN: usize = 8;
type Bits = [bool; 32];

/// One trained cell: up to 4 bits in, up to 3 bits out, one hidden ReLU layer of up to 8 units,
/// stored padded to fixed-size rows (zero weights) so each layer is a few 8-wide vector operations.
#[derive(Clone, Debug)]
pub struct Cell {
    w1: [[f32; MAX_HIDDEN]; 4], // w1[input][unit]
    b1: [f32; MAX_HIDDEN],
    w2: [[f32; MAX_HIDDEN]; 3], // w2[output][unit]
    b2: [f32; 3],
}

impl Cell {
    /// From torch's row-major Linear weights: W1 is [hidden][n_in], W2 is [n_out][hidden].
    pub fn new(n_in: usize, n_out: usize, w1: Vec<f32>, b1: Vec<f32>, w2: Vec<f32>, b2: Vec<f32>) -> Result<Self, String> {
        let hidden = b1.len();
        if hidden == 0 || hidden > MAX_HIDDEN || n_in == 0 || n_in > 4 || n_out == 0 || n_out > 3 {
            return Err(format!("cell shape {}-{}-{} is not supported", n_in, hidden, n_out));
        }
        if w1.len() != hidden * n_in || w2.len() != n_out * hidden || b2.len() != n_out {
            return Err("cell weights do not match its shape".into());
        }
        let mut cell = Cell { w1: [[0.0; MAX_HIDDEN]; 4], b1: [0.0; MAX_HIDDEN], w2: [[0.0; MAX_HIDDEN]; 3], b2: [0.0; 3] };
        for j in 0..hidden {
            cell.b1[j] = b1[j];
            for i in 0..n_in {
                cell.w1[i][j] = w1[j * n_in + i];
            }
            for k in 0..n_out {
                cell.w2[k][j] = w2[k * hidden + j];
            }
        }
        cell.b2[..n_out].copy_from_slice(&b2);
        Ok(cell)
    }

    /// The network's output bits for input bits `x` (unused inputs are false, unused outputs junk).
    #[inline(always)]
    pub fn eval(&self, x: [bool; 4]) -> [bool; 3] {
        let mut h = self.b1;
        for (xi, row) in x.iter().zip(&self.w1) {
            let xi = *xi as u8 as f32;
            for (hj, w) in h.iter_mut().zip(row) {
                *hj += w * xi;
            }
        }
        for v in h.iter_mut() {
            *v = v.max(0.0);
        }
        std::array::from_fn(|k| self.w2[k].iter().zip(&h).fold(self.b2[k], |s, (w, hj)| s + w * hj) > 0.0)
    }
}

/// The four cells, wired into the 32-bit operations.
#[derive(Clone, Debug)]
pub struct NeuralAlu {
    pub logic: Cell,      // (a, b) -> (and, or, xor)
    pub combine: Cell,    // (g_hi, p_hi, g_lo, p_lo) -> (g, p)
    pub full_adder: Cell, // (a, b, c) -> (sum, carry)
    pub mux: Cell,        // (sel, x0, x1) -> x1 if sel else x0
}

fn bits(x: u32) -> Bits {
    std::array::from_fn(|i| x >> i & 1 == 1) // unpacking
}

fn word(b: &Bits) -> u32 {
    b.iter().enumerate().fold(0, |w, (i, &bit)| w | (bit as u32) << i) // packing
}

impl NeuralAlu {
    #[inline]
    fn gate(&self, a: bool, b: bool, which: usize) -> bool {
        self.logic.eval([a, b, false, false])[which]
    }
    fn and(&self, a: bool, b: bool) -> bool {
        self.gate(a, b, 0)
    }
    fn or(&self, a: bool, b: bool) -> bool {
        self.gate(a, b, 1)
    }
    fn xor(&self, a: bool, b: bool) -> bool {
        self.gate(a, b, 2)
    }
    fn not(&self, a: bool) -> bool {
        self.xor(a, true)
    }
    fn select(&self, sel: bool, x0: bool, x1: bool) -> bool {
        self.mux.eval([sel, x0, x1, false])[0]
    }
    fn select_word(&self, sel: bool, x0: &Bits, x1: &Bits) -> Bits {
        std::array::from_fn(|i| self.select(sel, x0[i], x1[i]))
    }
    fn any(&self, b: &[bool]) -> bool {
        b.iter().fold(false, |acc, &x| self.or(acc, x))
    }

    /// Kogge-Stone: (sum, carry out, carry into the top bit).
    fn add_bits(&self, a: &Bits, b: &Bits, carry_in: bool) -> (Bits, bool, bool) {
        let gates: [[bool; 3]; 32] = std::array::from_fn(|i| self.logic.eval([a[i], b[i], false, false]));
        let p: Bits = std::array::from_fn(|i| gates[i][2]);
        let (mut g_all, mut p_all): (Bits, Bits) = (std::array::from_fn(|i| gates[i][0]), p);
        let mut span = 1;
        while span < 32 {
            let (g0, p0) = (g_all, p_all);
            for i in span..32 {
                let o = self.combine.eval([g0[i], p0[i], g0[i - span], p0[i - span]]);
                g_all[i] = o[0];
                p_all[i] = o[1];
            }
            span *= 2;
        }
        let mut into = [false; 32];
        into[0] = carry_in;
        let mut carry_out = false;
        for i in 0..32 {
            let c = self.combine.eval([g_all[i], p_all[i], carry_in, false])[0];
            if i < 31 {
                into[i + 1] = c;
            } else {
                carry_out = c;
            }
        }
        (std::array::from_fn(|i| self.xor(p[i], into[i])), carry_out, into[31])
    }

    fn add(&self, a: &Bits, b: &Bits) -> (Bits, bool, bool) {
        let (s, c, top) = self.add_bits(a, b, false);
        (s, c, self.xor(c, top))
    }

    fn sub(&self, a: &Bits, b: &Bits) -> (Bits, bool, bool) {
        let nb: Bits = std::array::from_fn(|i| self.not(b[i]));
        let (s, c, top) = self.add_bits(a, &nb, true);
        (s, self.not(c), self.xor(c, top)) // CF is the borrow
    }

    fn neg(&self, a: &Bits) -> Bits {
        self.sub(&[false; 32], a).0
    }

    fn shift(&self, a: &Bits, b: &Bits, left: bool, fill: bool) -> Bits {
        let big = self.any(&b[5..31]);
        let amount: [bool; 5] = std::array::from_fn(|k| {
            let low = self.select(big, b[k], true); // above 31 -> 31
            self.select(b[31], low, false) // negative -> 0
        });
        let mut x = *a;
        for (k, &on) in amount.iter().enumerate() {
            let n = 1 << k;
            let moved: Bits = std::array::from_fn(|i| {
                // wiring: where bit i comes from
                if left {
                    if i >= n { x[i - n] } else { fill }
                } else if i + n < 32 {
                    x[i + n]
                } else {
                    fill
                }
            });
            x = self.select_word(on, &x, &moved);
        }
        x
    }

    fn mul(&self, a: &Bits, b: &Bits) -> Bits {
        let mut rows: Vec<Bits> = (0..32)
            .map(|j| std::array::from_fn(|i| i >= j && self.and(a[i - j.min(i)], b[j])))
            .collect();
        while rows.len() > 2 {
            let groups = rows.len() / 3;
            let (mut sums, mut carries) = (Vec::new(), Vec::new());
            for t in 0..groups {
                let (x, y, z) = (&rows[3 * t], &rows[3 * t + 1], &rows[3 * t + 2]);
                let out: [[bool; 3]; 32] = std::array::from_fn(|i| self.full_adder.eval([x[i], y[i], z[i], false]));
                sums.push(std::array::from_fn(|i| out[i][0]));
                carries.push(std::array::from_fn(|i| i > 0 && out[i - 1][1])); // carries move up a bit
            }
            sums.extend(carries);
            sums.extend_from_slice(&rows[3 * groups..]);
            rows = sums;
        }
        self.add_bits(&rows[0], &rows[1], false).0
    }

    fn divmod(&self, a: &Bits, b: &Bits) -> (Bits, Bits) {
        let (sa, sb) = (a[31], b[31]);
        let ua = self.select_word(sa, a, &self.neg(a));
        let ub = self.select_word(sb, b, &self.neg(b));
        let not_ub: Bits = std::array::from_fn(|i| self.not(ub[i]));
        let (mut rem, mut q) = ([false; 32], [false; 32]);
        for i in (0..32).rev() {
            let shifted: Bits = std::array::from_fn(|k| if k == 0 { ua[i] } else { rem[k - 1] });
            // shifted - ub = shifted + !ub + 1, rippled through full adders; a final carry means it fits
            let mut carry = true;
            let diff: Bits = std::array::from_fn(|k| {
                let o = self.full_adder.eval([shifted[k], not_ub[k], carry, false]);
                carry = o[1];
                o[0]
            });
            rem = self.select_word(carry, &shifted, &diff);
            q[i] = carry;
        }
        let q = self.select_word(self.xor(sa, sb), &q, &self.neg(&q));
        let r = self.select_word(sa, &rem, &self.neg(&rem));
        let zero = self.not(self.any(b));
        (self.select_word(zero, &q, &[false; 32]), self.select_word(zero, &r, a))
    }
}

impl Alu for NeuralAlu {
    fn op(&self, op: u8, a: u32, b: u32) -> (u32, bool, bool) {
        let (x, y) = (bits(a), bits(b));
        let plain = |r: Bits| (word(&r), false, false);
        match op {
            0 => (b, false, false),
            1 => {
                let (r, c, v) = self.add(&x, &y);
                (word(&r), c, v)
            }
            2 => {
                let (r, c, v) = self.sub(&x, &y);
                (word(&r), c, v)
            }
            3 => plain(self.mul(&x, &y)),
            4 => plain(self.divmod(&x, &y).0),
            5 => plain(self.divmod(&x, &y).1),
            6 => plain(std::array::from_fn(|i| self.and(x[i], y[i]))),
            7 => plain(std::array::from_fn(|i| self.or(x[i], y[i]))),
            8 => plain(std::array::from_fn(|i| self.xor(x[i], y[i]))),
            9 => plain(self.shift(&x, &y, true, false)),
            10 => plain(self.shift(&x, &y, false, false)),
            11 => plain(self.shift(&x, &y, false, x[31])),
            12 => plain(std::array::from_fn(|i| self.not(x[i]))),
            // the float unit's microprogram, every step an operation of these cells
            op if op >= float::FIRST => float::wired(self, float::BINARY32, op, a, b),
            _ => {
                let (r, c, v) = self.sub(&[false; 32], &x);
                (word(&r), c, v)
            }
        }
    }

    fn is_zero(&self, r: u32) -> bool {
        self.not(self.any(&bits(r))) // ZF: a NOR of the result bits
    }
}
