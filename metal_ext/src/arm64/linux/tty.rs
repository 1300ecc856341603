//! The machine's terminal when it has one (`Config::tty`): Linux's line discipline between the
//! keys the user types and the programs reading /dev/tty. It keeps termios (canonical or raw
//! input, echo, the special characters), edits the line being typed, turns ^C ^Z ^\ into signals
//! for the foreground process group, and turns "\n" into "\r\n" on the way out. The ioctls that
//! reach it are in syscalls/tty_ioctl.rs; the signals it asks for are sent by the machine.

use std::collections::VecDeque;

use super::machine::Machine;
use super::signals::{SIGINT, SIGQUIT, SIGTSTP, SIGWINCH};

// termios flags (asm-generic values, as on AArch64)
pub const ICRNL: u32 = 0o400;
const INLCR: u32 = 0o100;
const IGNCR: u32 = 0o200;
const ISTRIP: u32 = 0o40;
const IXON: u32 = 0o2000;
const IUTF8: u32 = 0o40000;
pub const OPOST: u32 = 1;
pub const ONLCR: u32 = 4;
const OCRNL: u32 = 0o10;
pub const ISIG: u32 = 1;
pub const ICANON: u32 = 2;
pub const ECHO: u32 = 0o10;
const ECHOE: u32 = 0o20;
const ECHOK: u32 = 0o40;
const ECHONL: u32 = 0o100;
const NOFLSH: u32 = 0o200;
const ECHOCTL: u32 = 0o1000;
const ECHOKE: u32 = 0o4000;
const IEXTEN: u32 = 0o100000;
const B38400: u32 = 0o17;
const CS8: u32 = 0o60;
const CREAD: u32 = 0o200;
const HUPCL: u32 = 0o2000;

// c_cc indices
const VINTR: usize = 0;
const VQUIT: usize = 1;
const VERASE: usize = 2;
const VKILL: usize = 3;
const VEOF: usize = 4;
pub const VTIME: usize = 5;
pub const VMIN: usize = 6;
const VSUSP: usize = 10;
const VEOL: usize = 11;
const VREPRINT: usize = 12;
const VWERASE: usize = 14;
const VLNEXT: usize = 15;
const VEOL2: usize = 16;
pub const NCCS: usize = 19;

/// The longest line canonical input holds (Linux's N_TTY_BUF_SIZE less one).
const MAX_LINE: usize = 4095;

/// struct termios as TCGETS and TCSETS carry it (36 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Termios {
    pub iflag: u32,
    pub oflag: u32,
    pub cflag: u32,
    pub lflag: u32,
    pub line: u8,
    pub cc: [u8; NCCS],
}

impl Default for Termios {
    /// What a new Linux terminal starts with (`stty sane`).
    fn default() -> Self {
        let mut cc = [0u8; NCCS];
        for (i, c) in [(VINTR, 3), (VQUIT, 28), (VERASE, 127), (VKILL, 21), (VEOF, 4), (VMIN, 1), (8, 17), (9, 19),
            (VSUSP, 26), (VREPRINT, 18), (13, 15), (VWERASE, 23), (VLNEXT, 22)]
        {
            cc[i] = c;
        }
        Termios {
            iflag: ICRNL | IXON,
            oflag: OPOST | ONLCR,
            cflag: B38400 | CS8 | CREAD | HUPCL,
            lflag: ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
            line: 0,
            cc,
        }
    }
}

impl Termios {
    pub fn to_bytes(self) -> Vec<u8> {
        let mut b = [self.iflag, self.oflag, self.cflag, self.lflag].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>();
        b.push(self.line);
        b.extend(self.cc);
        b
    }

    pub fn from_bytes(b: &[u8]) -> Self {
        let word = |i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
        Termios { iflag: word(0), oflag: word(1), cflag: word(2), lflag: word(3), line: b[16], cc: b[17..36].try_into().unwrap() }
    }
}

#[derive(Clone, Debug)]
pub struct Tty {
    pub termios: Termios,
    pub rows: u16,
    pub cols: u16,
    /// Input a read may take: finished lines in canonical mode (an empty one is an end of file
    /// typed with ^D on an empty line), one growing run of bytes in raw mode.
    pub ready: VecDeque<Vec<u8>>,
    /// The line being typed (canonical mode).
    pub line: Vec<u8>,
    /// ^V was typed: the next character is taken as it is.
    literal_next: bool,
    /// The session it is the controlling terminal of, and its foreground process group.
    pub session: u32,
    pub foreground: u32,
    /// The user has closed the terminal: reads find end of file.
    pub hung_up: bool,
}

impl Tty {
    pub fn new(rows: u16, cols: u16, session: u32) -> Self {
        Tty {
            termios: Termios::default(),
            rows,
            cols,
            ready: VecDeque::new(),
            line: vec![],
            literal_next: false,
            session,
            foreground: session,
            hung_up: false,
        }
    }

    fn lflag(&self, f: u32) -> bool {
        self.termios.lflag & f != 0
    }

    pub fn canonical(&self) -> bool {
        self.lflag(ICANON)
    }

    /// Whether a read would find something (or end of file).
    pub fn readable(&self) -> bool {
        self.hung_up || self.ready.iter().any(|l| !l.is_empty() || self.canonical())
    }

    /// Bytes ready to read (FIONREAD).
    pub fn available(&self) -> usize {
        self.ready.iter().map(Vec::len).sum()
    }

    /// What a read of at most `len` bytes gets now; None: nothing yet.
    pub fn read(&mut self, len: usize) -> Option<Vec<u8>> {
        if self.canonical() {
            let Some(first) = self.ready.front_mut() else { return self.hung_up.then(Vec::new) };
            let n = len.min(first.len());
            let out: Vec<u8> = first.drain(..n).collect();
            if first.is_empty() {
                self.ready.pop_front();
            }
            return Some(out);
        }
        let mut out = vec![];
        while out.len() < len {
            let Some(first) = self.ready.front_mut() else { break };
            let n = (len - out.len()).min(first.len());
            out.extend(first.drain(..n));
            if first.is_empty() {
                self.ready.pop_front();
            }
        }
        (!out.is_empty() || self.hung_up).then_some(out)
    }

    /// Bytes a program writes, as the terminal shows them.
    pub fn output(&self, data: &[u8], shown: &mut Vec<u8>) {
        let post = self.termios.oflag & OPOST != 0;
        for &c in data {
            match c {
                b'\n' if post && self.termios.oflag & ONLCR != 0 => shown.extend(b"\r\n"),
                b'\r' if post && self.termios.oflag & OCRNL != 0 => shown.push(b'\n'),
                _ => shown.push(c),
            }
        }
    }

    fn echo(&self, c: u8, shown: &mut Vec<u8>) {
        if !self.lflag(ECHO) {
            return;
        }
        if self.lflag(ECHOCTL) && (c < 0x20 && c != b'\t' && c != b'\n' || c == 0x7f) {
            shown.extend([b'^', c ^ 0x40]);
        } else {
            self.output(&[c], shown);
        }
    }

    /// Columns a character of the line took when echoed (control characters show as ^X).
    fn width(&self, c: u8) -> usize {
        if self.lflag(ECHOCTL) && (c < 0x20 && c != b'\t' || c == 0x7f) {
            2
        } else {
            (c & 0xc0 != 0x80) as usize // a UTF-8 continuation byte takes no column of its own
        }
    }

    /// Erases the last character of the line (all its UTF-8 bytes), on the screen too.
    fn erase_char(&mut self, shown: &mut Vec<u8>) -> bool {
        let Some(mut c) = self.line.pop() else { return false };
        let mut cols = self.width(c);
        while c & 0xc0 == 0x80 && self.termios.iflag & IUTF8 != 0 {
            match self.line.pop() {
                Some(p) => {
                    c = p;
                    cols += self.width(p);
                }
                None => break,
            }
        }
        if self.lflag(ECHO) && self.lflag(ECHOE) {
            for _ in 0..cols {
                shown.extend(b"\x08 \x08");
            }
        }
        true
    }

    fn finish_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        self.ready.push_back(line);
    }

    /// Keys typed by the user: edits the line, echoes, and returns the signals (SIGINT, SIGTSTP,
    /// SIGQUIT) to send to the foreground process group.
    pub fn input(&mut self, keys: &[u8], shown: &mut Vec<u8>) -> Vec<u32> {
        let mut signals = vec![];
        for &key in keys {
            let mut c = if self.termios.iflag & ISTRIP != 0 { key & 0x7f } else { key };
            if self.literal_next {
                self.literal_next = false;
                if self.canonical() && self.line.len() < MAX_LINE {
                    self.line.push(c);
                    self.echo(c, shown);
                }
                continue;
            }
            match c {
                b'\r' if self.termios.iflag & IGNCR != 0 => continue,
                b'\r' if self.termios.iflag & ICRNL != 0 => c = b'\n',
                b'\n' if self.termios.iflag & INLCR != 0 => c = b'\r',
                _ => {}
            }
            let cc = self.termios.cc;
            let special = |i: usize| cc[i] != 0 && c == cc[i];
            if self.lflag(ISIG) && (special(VINTR) || special(VQUIT) || special(VSUSP)) {
                signals.push(if special(VINTR) {
                    SIGINT
                } else if special(VQUIT) {
                    SIGQUIT
                } else {
                    SIGTSTP
                });
                if !self.lflag(NOFLSH) {
                    self.line.clear();
                    self.ready.clear();
                }
                self.echo(c, shown);
                continue;
            }
            if !self.canonical() {
                match self.ready.back_mut() {
                    Some(run) => run.push(c),
                    None => self.ready.push_back(vec![c]),
                }
                self.echo(c, shown);
                continue;
            }
            let extended = self.lflag(IEXTEN);
            if special(VERASE) {
                self.erase_char(shown);
            } else if extended && special(VWERASE) {
                while self.line.last().is_some_and(|&b| b == b' ' || b == b'\t') && self.erase_char(shown) {}
                while self.line.last().is_some_and(|&b| b != b' ' && b != b'\t') && self.erase_char(shown) {}
            } else if special(VKILL) {
                if self.lflag(ECHOKE) {
                    while self.erase_char(shown) {}
                } else {
                    self.line.clear();
                    self.echo(c, shown);
                    if self.lflag(ECHOK) {
                        self.output(b"\n", shown);
                    }
                }
            } else if special(VEOF) {
                self.finish_line(); // an empty line here is the end of file
            } else if extended && special(VLNEXT) {
                self.literal_next = true;
                if self.lflag(ECHO) && self.lflag(ECHOCTL) {
                    shown.extend(b"^\x08");
                }
            } else if extended && special(VREPRINT) {
                self.echo(c, shown);
                self.output(b"\n", shown);
                let line = self.line.clone();
                for b in line {
                    self.echo(b, shown);
                }
            } else if c == b'\n' || special(VEOL) || special(VEOL2) {
                self.line.push(c);
                if self.lflag(ECHO) || (c == b'\n' && self.lflag(ECHONL)) {
                    self.output(&[c], shown);
                }
                self.finish_line();
            } else if self.line.len() < MAX_LINE {
                self.line.push(c);
                self.echo(c, shown);
            }
        }
        signals
    }

    /// New termios (TCSETS): leaving canonical mode hands the half-typed line to readers.
    pub fn set_termios(&mut self, t: Termios, flush: bool) {
        if flush {
            self.ready.clear();
            self.line.clear();
        }
        let was_canonical = self.canonical();
        self.termios = t;
        if was_canonical && !self.canonical() && !self.line.is_empty() {
            self.finish_line();
        }
        if !self.canonical() {
            // Raw readers take bytes, not lines: join what is waiting into one run.
            let all: Vec<u8> = self.ready.drain(..).flatten().collect();
            if !all.is_empty() {
                self.ready.push_back(all);
            }
        }
    }
}

/// The machine's side: keys from the user, the window's size, hanging up.
impl Machine {
    /// Keys the user typed; false when the machine has no terminal.
    pub fn type_keys(&mut self, keys: &[u8]) -> bool {
        let Some(tty) = self.tty.as_mut() else { return false };
        let mut shown = vec![];
        let signals = tty.input(keys, &mut shown);
        let group = tty.foreground;
        self.terminal.stdout.extend(shown);
        for sig in signals {
            self.signal_group_from_outside(group, sig);
        }
        self.events += 1;
        true
    }

    /// The window's new size; the foreground process group hears of a change (SIGWINCH).
    pub fn resize_terminal(&mut self, rows: u16, cols: u16) -> bool {
        let Some(tty) = self.tty.as_mut() else { return false };
        if (tty.rows, tty.cols) != (rows, cols) {
            (tty.rows, tty.cols) = (rows, cols);
            let group = tty.foreground;
            self.signal_group_from_outside(group, SIGWINCH);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(tty: &mut Tty, keys: &[u8]) -> (Vec<u8>, Vec<u32>) {
        let mut shown = vec![];
        let signals = tty.input(keys, &mut shown);
        (shown, signals)
    }

    #[test]
    fn a_canonical_line_is_edited_echoed_and_read_whole() {
        let mut tty = Tty::new(24, 80, 1);
        let (shown, _) = typed(&mut tty, b"ecko\x7f\x7fho hi");
        assert_eq!(shown, b"ecko\x08 \x08\x08 \x08ho hi");
        assert!(!tty.readable(), "no whole line yet");
        let (shown, _) = typed(&mut tty, b"\r");
        assert_eq!(shown, b"\r\n", "Enter is CR, taken as NL and echoed as CR NL");
        assert_eq!(tty.read(100).unwrap(), b"echo hi\n");
        typed(&mut tty, b"\x04");
        assert_eq!(tty.read(100).unwrap(), b"", "^D on an empty line: end of file");
    }

    #[test]
    fn control_keys_become_signals_and_flush_the_line() {
        let mut tty = Tty::new(24, 80, 1);
        let (shown, signals) = typed(&mut tty, b"sleep 100\x03");
        assert_eq!(signals, vec![SIGINT]);
        assert!(shown.ends_with(b"^C") && tty.line.is_empty());
        assert_eq!(typed(&mut tty, b"\x1a").1, vec![SIGTSTP]);
        assert_eq!(typed(&mut tty, b"\x1c").1, vec![SIGQUIT]);
    }

    #[test]
    fn raw_mode_hands_over_every_key_as_it_comes() {
        let mut tty = Tty::new(24, 80, 1);
        typed(&mut tty, b"ab");
        let mut raw = tty.termios;
        raw.lflag &= !(ICANON | ECHO);
        tty.set_termios(raw, false);
        let (shown, _) = typed(&mut tty, b"\x1b[A:");
        assert!(shown.is_empty(), "no echo");
        assert_eq!(tty.read(2).unwrap(), b"ab");
        assert_eq!(tty.read(100).unwrap(), b"\x1b[A:");
        assert!(tty.read(100).is_none());
    }

    #[test]
    fn word_and_line_erase_and_utf8() {
        let mut tty = Tty::new(24, 80, 1);
        typed(&mut tty, "é\x7f".as_bytes());
        assert_eq!(tty.line, [0xc3], "without IUTF8 (Linux's default) an erase takes one byte");
        typed(&mut tty, b"\x15");
        tty.termios.iflag |= IUTF8; // stty iutf8
        typed(&mut tty, "one two é\x7f".as_bytes());
        assert_eq!(tty.line, b"one two ");
        typed(&mut tty, b"\x17");
        assert_eq!(tty.line, b"one ");
        typed(&mut tty, b"\x15x\r");
        assert_eq!(tty.read(10).unwrap(), b"x\n");
    }

    #[test]
    fn output_turns_newlines_into_cr_nl_and_termios_round_trips() {
        let tty = Tty::new(24, 80, 1);
        let mut shown = vec![];
        tty.output(b"a\nb", &mut shown);
        assert_eq!(shown, b"a\r\nb");
        let t = Termios::default();
        assert_eq!(Termios::from_bytes(&t.to_bytes()), t);
        assert_eq!(t.to_bytes().len(), 36);
    }

    /// Random keys, termios and reads: no panic, reads never exceed what was asked, and the line
    /// being typed stays within its limit.
    #[test]
    fn random_keys_and_modes_never_break_the_discipline() {
        let mut next = crate::arm64::linux::random_ops::below(0x7e57_u64);
        for _ in 0..300 {
            let mut tty = Tty::new(24, 80, 1);
            for _ in 0..100 {
                match next(4) {
                    0 => {
                        let keys: Vec<u8> = (0..next(40)).map(|_| next(256) as u8).collect();
                        let mut shown = vec![];
                        tty.input(&keys, &mut shown);
                    }
                    1 => {
                        let mut t = tty.termios;
                        t.lflag ^= 1 << next(16);
                        t.iflag ^= 1 << next(16);
                        t.cc[next(NCCS as u64) as usize] = next(256) as u8;
                        tty.set_termios(t, next(2) == 0);
                    }
                    _ => {
                        let len = next(10) as usize;
                        if let Some(data) = tty.read(len) {
                            assert!(data.len() <= len);
                        }
                    }
                }
                assert!(tty.line.len() <= MAX_LINE);
            }
        }
    }
}
