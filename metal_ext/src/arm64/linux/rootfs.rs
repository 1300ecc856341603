//! The guest's initial filesystem: the directories a Linux system has, /etc, /dev, /proc, a
//! writable /tmp, the executable itself and (for BusyBox) a symlink per applet.

use std::sync::Arc;

use super::inode::{Device, Node, Timespec};
use super::vfs::Vfs;

pub const HOSTNAME: &str = "ncpu";

/// Applet paths of the shipped BusyBox, generated once from the binary itself.
const BUSYBOX_APPLETS: &str = include_str!("busybox_applets.txt");
pub const BUSYBOX_PATH: &str = "/bin/busybox";

fn text(s: &str) -> Node {
    Node::File(Arc::new(s.as_bytes().to_vec()))
}

/// Builds the tree; `exe` is installed at `exe_path`, then the caller's extra files. A path of
/// the caller's that cannot be made is reported with its errno.
pub fn build(exe_path: &str, exe: Arc<Vec<u8>>, extra: &[(String, Vec<u8>, u32)], boot: Timespec) -> Result<Vfs, String> {
    let mut v = Vfs::new();
    v.now = boot;
    const BUILT_IN: &str = "the built-in tree is well formed";
    for dir in ["/bin", "/sbin", "/usr/bin", "/usr/sbin", "/etc", "/dev", "/root", "/home", "/var", "/mnt"] {
        v.mkdir_all(dir).expect(BUILT_IN);
    }
    let tmp = v.mkdir_all("/tmp").expect(BUILT_IN);
    v.inode_mut(tmp).mode = 0o1777;
    v.install("/proc", Node::Proc, 0o555).expect(BUILT_IN);
    v.install("/etc/passwd", text("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n"), 0o644).expect(BUILT_IN);
    v.install("/etc/group", text("root:x:0:\nnogroup:x:65534:\n"), 0o644).expect(BUILT_IN);
    v.install("/etc/hostname", text(&format!("{HOSTNAME}\n")), 0o644).expect(BUILT_IN);
    v.install("/etc/hosts", text(&format!("127.0.0.1\tlocalhost\n127.0.1.1\t{HOSTNAME}\n")), 0o644).expect(BUILT_IN);
    v.install("/etc/shells", text("/bin/sh\n/bin/ash\n"), 0o644).expect(BUILT_IN);
    v.install(
        "/etc/motd",
        text("Welcome to the ncpu_nb Metal machine: an AArch64 Linux user-mode machine in Rust.\n"),
        0o644,
    )
    .expect(BUILT_IN);
    for (name, dev, mode) in [
        ("null", Device::Null, 0o666),
        ("zero", Device::Zero, 0o666),
        ("full", Device::Full, 0o666),
        ("random", Device::Random, 0o666),
        ("urandom", Device::Urandom, 0o666),
        ("tty", Device::Tty, 0o666),
        ("fb0", Device::Framebuffer, 0o666),
    ] {
        v.install(&format!("/dev/{name}"), Node::Device(dev), mode).expect(BUILT_IN);
    }
    for (i, name) in ["stdin", "stdout", "stderr"].iter().enumerate() {
        v.install(&format!("/dev/{name}"), Node::Symlink(format!("/proc/self/fd/{i}")), 0o777).expect(BUILT_IN);
    }
    v.install("/dev/fd", Node::Symlink("/proc/self/fd".into()), 0o777).expect(BUILT_IN);
    let at = |path: &str, e: super::errno::Errno| format!("cannot place a file at {path:?} (errno {})", e.0);
    v.install(exe_path, Node::File(exe), 0o755).map_err(|e| at(exe_path, e))?;
    if exe_path == BUSYBOX_PATH {
        for line in BUSYBOX_APPLETS.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let path = format!("/{line}");
            if path != BUSYBOX_PATH {
                v.install(&path, Node::Symlink(BUSYBOX_PATH.into()), 0o777).expect(BUILT_IN);
            }
        }
    }
    for (path, data, mode) in extra {
        v.install(path, Node::File(Arc::new(data.clone())), mode & 0o7777).map_err(|e| at(path, e))?;
    }
    Ok(v)
}
