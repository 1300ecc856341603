//! /dev/fb0: a fixed 320x200 framebuffer of 32-bit XRGB pixels (little-endian: blue, green, red,
//! unused), as Linux's fbdev shows one. The guest draws with write/pwrite/lseek, reads the geometry
//! with FBIOGET_VSCREENINFO / FBIOGET_FSCREENINFO and says a frame is done with FBIOPAN_DISPLAY,
//! which the machine counts; the host reads the pixels and the count. mmap is refused (ENODEV):
//! a mapping here would be a private copy, and drawing into it would show nothing.

use super::errno::{SysResult, EFBIG};

pub const WIDTH: u32 = 320;
pub const HEIGHT: u32 = 200;
pub const BYTES_PER_PIXEL: u32 = 4;
pub const SIZE: usize = (WIDTH * HEIGHT * BYTES_PER_PIXEL) as usize;

pub const FBIOGET_VSCREENINFO: u64 = 0x4600;
pub const FBIOPUT_VSCREENINFO: u64 = 0x4601;
pub const FBIOGET_FSCREENINFO: u64 = 0x4602;
pub const FBIOPAN_DISPLAY: u64 = 0x4606;

#[derive(Clone, Debug, Default)]
pub struct Framebuffer {
    /// The pixels, allocated at the first write (a machine that never draws carries none).
    pixels: Vec<u8>,
    /// Frames the guest has presented (FBIOPAN_DISPLAY calls).
    pub frames: u64,
}

impl Framebuffer {
    /// The whole screen, black where nothing was written.
    pub fn pixels(&self) -> Vec<u8> {
        if self.pixels.is_empty() {
            vec![0; SIZE]
        } else {
            self.pixels.clone()
        }
    }

    /// Up to `len` bytes from `offset`; none past the end, as Linux's fb_read.
    pub fn read(&self, offset: u64, len: usize) -> Vec<u8> {
        let start = (offset as usize).min(SIZE);
        let end = start.saturating_add(len).min(SIZE);
        if self.pixels.is_empty() {
            vec![0; end - start]
        } else {
            self.pixels[start..end].to_vec()
        }
    }

    /// Writes what fits from `offset` and returns how many bytes that was; at or past the end it
    /// fails with EFBIG, as Linux's fb_write.
    pub fn write(&mut self, offset: u64, data: &[u8]) -> SysResult<usize> {
        if data.is_empty() {
            return Ok(0); // at any offset, as Linux's fb_write
        }
        if offset >= SIZE as u64 {
            return Err(EFBIG);
        }
        if self.pixels.is_empty() {
            self.pixels = vec![0; SIZE];
        }
        let start = offset as usize;
        let n = data.len().min(SIZE - start);
        self.pixels[start..start + n].copy_from_slice(&data[..n]);
        Ok(n)
    }

    /// struct fb_var_screeninfo (160 bytes): the visible and virtual resolution, 32 bits per pixel
    /// and where red, green, blue sit in a pixel (bits 16, 8 and 0, 8 bits each; no alpha).
    pub fn var_screeninfo() -> [u8; 160] {
        let mut b = [0u8; 160];
        let words: [(usize, u32); 10] = [
            (0, WIDTH),
            (4, HEIGHT),
            (8, WIDTH),
            (12, HEIGHT),
            (24, BYTES_PER_PIXEL * 8),
            (32, 16), // red: offset, length
            (36, 8),
            (44, 8), // green
            (48, 8),
            (60, 8), // blue length (offset 0)
        ];
        for (at, v) in words {
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// struct fb_fix_screeninfo (80 bytes on a 64-bit guest): the name, the buffer's size, a packed
    /// true-colour layout and the bytes per line.
    pub fn fix_screeninfo() -> [u8; 80] {
        const FB_VISUAL_TRUECOLOR: u32 = 2;
        let mut b = [0u8; 80];
        b[..9].copy_from_slice(b"ncpu-fb0\0");
        b[24..28].copy_from_slice(&(SIZE as u32).to_le_bytes());
        b[36..40].copy_from_slice(&FB_VISUAL_TRUECOLOR.to_le_bytes());
        b[48..52].copy_from_slice(&(WIDTH * BYTES_PER_PIXEL).to_le_bytes());
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arm64::linux::errno::EFBIG;

    #[test]
    fn an_empty_write_far_past_the_end_writes_nothing() {
        let mut fb = Framebuffer::default();
        assert_eq!(fb.write(u64::MAX, &[]), Ok(0));
        assert_eq!(fb.write(SIZE as u64 + 4096, &[]), Ok(0));
        assert_eq!(fb.write(SIZE as u64, &[1]), Err(EFBIG));
    }

    #[test]
    fn reads_black_until_written_and_clips_at_the_end() {
        let mut fb = Framebuffer::default();
        assert_eq!(fb.read(0, 8), vec![0; 8]);
        assert_eq!(fb.write(4, b"abc"), Ok(3));
        assert_eq!(fb.read(2, 6), b"\0\0abc\0");
        assert_eq!(fb.write(SIZE as u64 - 2, b"xyz"), Ok(2)); // what fits
        assert_eq!(fb.read(SIZE as u64 - 2, 10), b"xy");
        assert_eq!(fb.write(SIZE as u64, b"z"), Err(EFBIG));
        assert_eq!(fb.read(SIZE as u64, 10), b"");
        assert_eq!(fb.pixels().len(), SIZE);
    }

    #[test]
    fn screeninfo_says_320x200_xrgb8888() {
        let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        let var = Framebuffer::var_screeninfo();
        assert_eq!((word(&var, 0), word(&var, 4), word(&var, 24)), (320, 200, 32));
        assert_eq!((word(&var, 32), word(&var, 44), word(&var, 56)), (16, 8, 0)); // red, green, blue offsets
        let fix = Framebuffer::fix_screeninfo();
        assert_eq!((word(&fix, 24), word(&fix, 48)), (256_000, 1280));
    }
}
