//! The in-memory tree, path walking, symlinks and mounts, without a machine.

use super::*;
use crate::arm64::linux::procfs::tests::NoProcesses;

fn tree() -> Vfs {
    let mut v = Vfs::new();
    v.install("/bin/busybox", Node::File(Arc::new(b"ELF".to_vec())), 0o755).unwrap();
    v.install("/bin/ls", Node::Symlink("busybox".into()), 0o777).unwrap();
    v.install("/etc/motd", Node::File(Arc::new(b"hi\n".to_vec())), 0o644).unwrap();
    v.install("/loop", Node::Symlink("/loop".into()), 0o777).unwrap();
    v.install("/up", Node::Symlink("../../..".into()), 0o777).unwrap();
    v.mkdir_all("/tmp").unwrap();
    assert_eq!(v.install("/etc/motd/x", Node::Symlink("/".into()), 0o777), Err(ENOTDIR));
    assert_eq!(v.install("/etc", Node::Symlink("/".into()), 0o777), Err(EISDIR));
    assert_eq!(v.install("relative", Node::Symlink("/".into()), 0o777), Err(EINVAL));
    v
}

#[test]
fn resolves_names_dots_and_symlinks() {
    let v = tree();
    let ctx = NoProcesses;
    let w = v.resolve("/", "/bin/./../bin/ls", true, &ctx).unwrap();
    assert_eq!(w.path, "/bin/busybox");
    let w = v.resolve("/bin", "ls", false, &ctx).unwrap();
    assert_eq!(w.path, "/bin/ls");
    assert_eq!(v.stat(&w.loc, &ctx).unwrap().mode & S_IFMT, S_IFLNK);
    assert_eq!(v.resolve("/", "/up", true, &ctx).unwrap().path, "/");
    assert_eq!(v.resolve("/", "/../../etc/motd", true, &ctx).unwrap().path, "/etc/motd");
    assert_eq!(v.resolve("/", "/loop", true, &ctx).unwrap_err(), ELOOP);
    assert_eq!(v.resolve("/", "/etc/motd/x", true, &ctx).unwrap_err(), ENOTDIR);
    assert_eq!(v.resolve("/", "/etc/motd/", true, &ctx).unwrap_err(), ENOTDIR);
    assert_eq!(v.resolve("/", "/nope", true, &ctx).unwrap_err(), ENOENT);
    assert_eq!(v.resolve("/", "", true, &ctx).unwrap_err(), ENOENT);
}

#[test]
fn create_rename_remove() {
    let mut v = tree();
    let ctx = NoProcesses;
    let (tmp, name) = v.resolve_parent("/", "/tmp/a", &ctx).unwrap();
    assert_eq!(name, "a");
    v.create(&tmp.loc, "a", Node::File(Arc::new(vec![1, 2])), 0o644).unwrap();
    assert_eq!(v.create(&tmp.loc, "a", Node::File(Arc::default()), 0o644).unwrap_err(), EEXIST);
    v.create(&tmp.loc, "d", Node::Dir { entries: BTreeMap::new(), parent: 0 }, 0o755).unwrap();
    v.rename(&tmp.loc, "a", &tmp.loc, "b", false).unwrap();
    assert_eq!(v.resolve("/", "/tmp/a", true, &ctx).unwrap_err(), ENOENT);
    assert_eq!(v.stat(&v.resolve("/tmp", "b", true, &ctx).unwrap().loc, &ctx).unwrap().size, 2);
    let d = v.resolve("/", "/tmp/d", true, &ctx).unwrap();
    assert_eq!(v.rename(&Loc::Mem(ROOT), "tmp", &d.loc, "x", false).unwrap_err(), EINVAL);
    assert_eq!(v.remove(&tmp.loc, "d", false).unwrap_err(), EISDIR);
    assert_eq!(v.remove(&tmp.loc, "b", true).unwrap_err(), ENOTDIR);
    v.remove(&tmp.loc, "d", true).unwrap();
    v.remove(&tmp.loc, "b", false).unwrap();
    let names: Vec<String> = v.list(&tmp, &ctx).unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, [".", ".."]);
}

#[test]
fn an_unlinked_file_lives_while_in_use_and_its_number_is_not_reused() {
    let mut v = tree();
    let ctx = NoProcesses;
    let tmp = v.resolve("/", "/tmp", true, &ctx).unwrap();
    let Loc::Mem(x) = v.create(&tmp.loc, "x", Node::File(Arc::new(b"data".to_vec())), 0o644).unwrap() else { panic!() };
    v.remove(&tmp.loc, "x", false).unwrap();
    v.collect_orphans(|ino| ino == x); // still open
    let Loc::Mem(y) = v.create(&tmp.loc, "y", Node::File(Arc::default()), 0o644).unwrap() else { panic!() };
    assert_ne!(x, y, "a live inode's number went to another file");
    v.write_file(x, None, b" more").unwrap();
    assert_eq!(v.stat(&Loc::Mem(x), &ctx).unwrap().nlink, 0);
    assert_eq!(v.stat(&Loc::Mem(y), &ctx).unwrap().size, 0, "writing the unlinked file reached another");
    v.collect_orphans(|_| false); // closed
    assert!(!v.is_live(x) && !v.has_orphans());
}

#[test]
fn in_memory_files_stop_at_the_capacity() {
    let mut v = tree();
    v.file_capacity = v.file_bytes() + 10;
    let ctx = NoProcesses;
    let tmp = v.resolve("/", "/tmp", true, &ctx).unwrap();
    let Loc::Mem(f) = v.create(&tmp.loc, "f", Node::File(Arc::default()), 0o644).unwrap() else { panic!() };
    assert_eq!(v.write_file(f, None, b"0123456").unwrap(), (0, 7));
    assert_eq!(v.write_file(f, None, b"789abc").unwrap(), (7, 10), "a short write: what fits");
    assert_eq!(v.write_file(f, None, b"d").unwrap_err(), ENOSPC);
    assert_eq!(v.write_file(f, Some(1 << 40), b"d").unwrap_err(), ENOSPC, "no host allocation for a far offset");
    assert_eq!(v.write_file(f, Some(0), b"overwrite!").unwrap(), (0, 10), "rewriting takes no room");
    assert_eq!(v.truncate_file(f, 11).unwrap_err(), EFBIG);
    v.truncate_file(f, 4).unwrap();
    v.remove(&tmp.loc, "f", false).unwrap();
    v.collect_orphans(|_| false);
    let Loc::Mem(g) = v.create(&tmp.loc, "g", Node::File(Arc::default()), 0o644).unwrap() else { panic!() };
    assert_eq!(v.write_file(g, None, &[0; 10]).unwrap(), (0, 10), "a removed file's room comes back");
}

#[test]
fn mounts_cannot_be_escaped() {
    let host = std::env::temp_dir().join(format!("vfs-mount-test-{}", std::process::id()));
    let inside = host.join("inside");
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::write(inside.join("file.txt"), b"guest may read").unwrap();
    std::os::unix::fs::symlink("/etc/motd", inside.join("abs")).unwrap();
    std::os::unix::fs::symlink("../../../../../../..", inside.join("rel")).unwrap();
    std::os::unix::fs::symlink(host.join("inside/file.txt"), inside.join("hostabs")).unwrap();
    let mut v = tree();
    v.mount(inside.clone(), "/mnt/data", false).unwrap();
    let ctx = NoProcesses;
    let w = v.resolve("/", "/mnt/data/file.txt", true, &ctx).unwrap();
    assert_eq!(*v.read_file(&w.loc, u64::MAX).unwrap(), b"guest may read");
    // Dot-dot from the mount's root is the guest's /mnt, never the host's parent folder.
    assert_eq!(v.resolve("/mnt/data", "../..", true, &ctx).unwrap().path, "/");
    assert!(matches!(v.resolve("/mnt/data", "..", true, &ctx).unwrap().loc, Loc::Mem(_)));
    // Host symlinks are read as guest paths.
    assert_eq!(v.resolve("/", "/mnt/data/abs", true, &ctx).unwrap().path, "/etc/motd");
    assert_eq!(v.resolve("/", "/mnt/data/rel", true, &ctx).unwrap().path, "/");
    assert_eq!(v.resolve("/", "/mnt/data/hostabs", true, &ctx).unwrap_err(), ENOENT);
    // Read-only by default.
    let dir = v.resolve("/", "/mnt/data", true, &ctx).unwrap();
    assert_eq!(v.create(&dir.loc, "new", Node::File(Arc::default()), 0o644).unwrap_err(), EROFS);
    assert_eq!(v.remove(&dir.loc, "file.txt", false).unwrap_err(), EROFS);
    assert!(inside.join("file.txt").exists());
    std::fs::remove_dir_all(&host).unwrap();
}

/// Random path operations by the guest on a rw mount while the host (another machine sharing
/// the folder) keeps swapping folders for symlinks to the folder around the mount: whatever
/// the interleaving, nothing outside the mount is read, written, created or changed.
#[test]
fn path_operations_under_concurrent_renames_stay_in_the_mount() {
    use crate::arm64::linux::hostfs::tests::while_swapping;
    let base = std::env::temp_dir().join(format!("vfs-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let (mount, outside) = (base.join("mount"), base.join("outside"));
    for d in ["a", "b", "a/c"] {
        std::fs::create_dir_all(mount.join(d)).unwrap();
    }
    // The folder around the mount has the mount's shape, so a walk that left it would find things.
    std::fs::create_dir_all(outside.join("c")).unwrap();
    std::fs::write(outside.join("canary"), b"host secret").unwrap();
    std::fs::write(outside.join("c/canary"), b"host secret").unwrap();
    let before = || {
        use std::os::unix::fs::PermissionsExt;
        let mut names: Vec<_> = [outside.clone(), outside.join("c")]
            .iter()
            .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()))
            .collect();
        names.sort();
        let mode = std::fs::metadata(outside.join("canary")).unwrap().permissions().mode();
        (names, std::fs::read(outside.join("canary")).unwrap(), mode)
    };
    let snapshot = before();
    use std::os::unix::fs::MetadataExt;
    let secrets = ["canary", "c/canary"].map(|f| std::fs::metadata(outside.join(f)).unwrap().ino());
    let mut v = tree();
    v.mount(mount.clone(), "/m", true).unwrap();
    let ctx = NoProcesses;
    let names = ["a", "b", "c", "x", "canary"];
    let mut rng = 0x5eed_u64;
    let mut next = |n: usize| {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (rng >> 33) as usize % n
    };
    while_swapping(&mount, &outside, &["a", "b", "a/c"], || {
        for _ in 0..40_000 {
            // Mostly below the swapped folders, where a walk that followed a swap would land outside.
            let path = match next(3) {
                0 => format!("/m/{}", names[next(5)]),
                1 => format!("/m/{}/{}", ["a", "b"][next(2)], names[next(5)]),
                _ => format!("/m/a/c/{}", names[next(5)]),
            };
            let Ok((dir, name)) = v.resolve_parent("/", &path, &ctx) else { continue };
            let _ = match next(8) {
                0 => v.create(&dir.loc, &name, Node::File(Arc::new(b"guest".to_vec())), 0o4777).map(|_| ()),
                1 => v.create(&dir.loc, &name, Node::Dir { entries: BTreeMap::new(), parent: 0 }, 0o755).map(|_| ()),
                2 => v.remove(&dir.loc, &name, next(2) == 0),
                3 => v.rename(&dir.loc, &name, &dir.loc, names[next(5)], false),
                4 => v.set_attributes(&Loc::Host { mount: 0, rel: PathBuf::from(&path[3..]) }, Some(0o777), (None, None), (None, None)),
                5 => v.resolve("/", &path, false, &ctx).and_then(|w| v.read_file(&w.loc, u64::MAX)).map(|d| assert_ne!(*d, b"host secret")),
                6 => v.link(&Loc::Host { mount: 0, rel: PathBuf::from("a/c") }, &dir.loc, &name),
                _ => v.resolve("/", &path, false, &ctx).and_then(|w| v.list(&w, &ctx)).map(|l| assert!(l.iter().all(|e| !secrets.contains(&e.ino)))),
            };
        }
    });
    assert_eq!(before(), snapshot, "the folder around the mount changed");
    std::fs::remove_dir_all(&base).unwrap();
}
