//! Boots real guest programs: start-up, output, memory limits, signals.

use super::*;
use crate::arm64::linux::errno::ENOMEM;

fn program(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../programs/arm64/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

pub fn boot(exe: Vec<u8>, exe_path: &str, argv: &[&str]) -> Machine {
    Machine::boot(config(exe, exe_path, argv, vec![], Limits::default())).unwrap()
}

/// What `boot` boots, with host folders mounted (host, guest path, writable) and under `limits`.
fn config(exe: Vec<u8>, exe_path: &str, argv: &[&str], mounts: Vec<(String, String, bool)>, limits: Limits) -> Config {
    Config {
        exe,
        exe_path: exe_path.into(),
        argv: argv.iter().map(|a| a.as_bytes().to_vec()).collect(),
        envp: vec![b"PATH=/bin:/usr/bin:/sbin:/usr/sbin".to_vec()],
        files: vec![],
        mounts,
        cwd: "/".into(),
        stdin: vec![],
        stdin_closed: true,
        deterministic: true,
        limits,
        tty: None,
    }
}

/// `boot` with `dir` mounted read-only (or rw) at /mnt, under `limits`.
fn boot_mounted(dir: &std::path::Path, writable: bool, limits: Limits) -> Machine {
    let mounts = vec![(dir.display().to_string(), "/mnt".to_string(), writable)];
    Machine::boot(config(program("c/bin/hello"), "/bin/hello", &["hello"], mounts, limits)).unwrap()
}

#[test]
fn hello_prints_and_exits() {
    let mut m = boot(program("c/bin/hello"), "/bin/hello", &["hello"]);
    assert_eq!(m.run(50_000_000), Stop::Exited, "{:?}", m.faults);
    assert_eq!(String::from_utf8_lossy(&m.terminal.stdout), std::fs::read_to_string(format!("{}/../programs/arm64/c/expected/hello.out", env!("CARGO_MANIFEST_DIR"))).unwrap());
    assert_eq!(m.exit_status, Some(0));
}

/// Makes the current thread of `m` execute one system call, as its `svc` would.
pub fn call(m: &mut Machine, nr: u64, args: [u64; 6]) -> i64 {
    let tid = m.focus().unwrap();
    let t = m.thread_mut(tid);
    t.cpu.x[8] = nr;
    t.cpu.x[..6].copy_from_slice(&args);
    t.cpu.pc += 4;
    m.syscall(tid);
    m.threads[&tid].cpu.x[0] as i64
}

#[test]
fn guest_memory_is_bounded() {
    let mut m = boot(program("c/bin/hello"), "/bin/hello", &["hello"]);
    const MMAP: u64 = 222;
    let anonymous = |len: u64| [0, len, 3, 0x22, u64::MAX, 0];
    assert_eq!(call(&mut m, MMAP, anonymous(2 << 30)), -(ENOMEM.0 as i64));
    // Near the machine's allowance, one more page fits and two do not.
    let tid = m.focus().unwrap();
    let others: u64 = m.spaces.iter().map(|(_, s)| s.mapped).sum::<u64>() - m.space_of(tid).mapped;
    m.space_of_mut(tid).mapped = m.limits.memory - others - 4096;
    assert_eq!(call(&mut m, MMAP, anonymous(8192)), -(ENOMEM.0 as i64));
    let page = call(&mut m, MMAP, anonymous(4096));
    assert!(page > 0);
    assert_eq!(call(&mut m, MMAP, anonymous(4096)), -(ENOMEM.0 as i64));
    assert_eq!(call(&mut m, 215, [page as u64, 4096, 0, 0, 0, 0]), 0); // munmap gives it back
    assert!(call(&mut m, MMAP, anonymous(4096)) > 0);
}

/// A folder of host files for one test, made afresh.
fn host_folder(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("machine-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Opens `path` read-only in the current thread of `m` (its path written below the stack pointer).
fn open(m: &mut Machine, path: &str) -> i64 {
    let tid = m.focus().unwrap();
    let at = m.threads[&tid].cpu.sp() - 4096;
    m.write_guest(tid, at, format!("{path}\0").as_bytes()).unwrap();
    call(m, 56, [-100i64 as u64, at, 0, 0, 0, 0]) // openat(AT_FDCWD, path, O_RDONLY)
}

#[test]
fn mmap_of_a_host_file_reads_only_the_mapped_range() {
    let dir = host_folder("mmap-offset");
    let file = std::fs::File::create(dir.join("sparse")).unwrap();
    let far: u64 = 1 << 40;
    file.set_len(far + 8192).unwrap();
    std::os::unix::fs::FileExt::write_at(&file, b"far bytes", far).unwrap();
    let mut m = boot_mounted(&dir, false, Limits::default());
    let fd = open(&mut m, "/mnt/sparse");
    assert!(fd >= 0, "openat: {fd}");
    // A terabyte into the file: only the page asked for is read (it used to allocate the offset).
    let page = call(&mut m, 222, [0, 4096, 1, 2, fd as u64, far]); // mmap(PROT_READ, MAP_PRIVATE)
    assert!(page > 0, "mmap: {page}");
    let tid = m.focus().unwrap();
    assert_eq!(m.read_guest(tid, page as u64, 9).unwrap(), b"far bytes");
    // Past the end of the file the mapping reads as zeros.
    let tail = call(&mut m, 222, [0, 8192, 1, 2, fd as u64, far + 4096]);
    assert_eq!(m.read_guest(tid, tail as u64, 8192).unwrap(), vec![0; 8192]);
    // A mapping that does not fit the machine's memory fails before anything is read.
    let mut m = boot_mounted(&dir, false, Limits { memory: 16 << 20, ..Limits::default() });
    let fd = open(&mut m, "/mnt/sparse");
    assert_eq!(call(&mut m, 222, [0, 512 << 20, 1, 2, fd as u64, 0]), -(ENOMEM.0 as i64));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A 2 GiB sparse copy of BusyBox in `dir`: a few MB on disk, 2 GiB to read.
fn sparse_busybox(dir: &std::path::Path) {
    let file = std::fs::File::create(dir.join("busybox")).unwrap();
    std::os::unix::fs::FileExt::write_at(&file, &program("busybox/busybox"), 0).unwrap();
    file.set_len(2 << 30).unwrap();
    let mut perms = file.metadata().unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    file.set_permissions(perms).unwrap();
}

#[test]
fn execve_refuses_an_executable_larger_than_the_machine_holds() {
    let dir = host_folder("exec-sparse");
    sparse_busybox(&dir);
    let mut m = boot_mounted(&dir, true, Limits { memory: 64 << 20, ..Limits::default() });
    let tid = m.focus().unwrap();
    let at = m.threads[&tid].cpu.sp() - 4096;
    m.write_guest(tid, at, b"/mnt/busybox\0").unwrap();
    let argv = at + 64; // a NULL-terminated argv naming the path
    m.write_u64(tid, argv, at).unwrap();
    m.write_u64(tid, argv + 8, 0).unwrap();
    // It used to read all 2 GiB into host memory, and run it.
    assert_eq!(call(&mut m, 221, [at, argv, argv + 8, 0, 0, 0]), -(ENOMEM.0 as i64)); // execve
    assert_eq!(m.process_of(tid).exe, "/bin/hello", "the old program goes on");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_dynamic_loader_larger_than_the_machine_holds_is_refused_before_it_is_read() {
    let dir = host_folder("interp-sparse");
    sparse_busybox(&dir);
    let mounts = vec![(dir.display().to_string(), "/mnt".to_string(), true)];
    let exe = crate::arm64::linux::elf::tests::with_interpreter(b"/mnt/busybox\0");
    let limits = Limits { memory: 64 << 20, ..Limits::default() };
    let Err(e) = Machine::boot(config(exe, "/bin/dynamic", &["dynamic"], mounts, limits)) else {
        panic!("booted with a 2 GiB dynamic loader")
    };
    assert_eq!(e.to_string(), "cannot load the executable: dynamic loader /mnt/busybox: cannot be read (errno 12)");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn sigtimedwait_takes_a_pending_signal() {
    let mut m = boot(program("c/bin/hello"), "/bin/hello", &["hello"]);
    let tid = m.focus().unwrap();
    let sp = m.threads[&tid].cpu.sp();
    let (set, info) = (sp - 256, sp - 128);
    m.write_u64(tid, set, bit(SIGUSR1)).unwrap();
    m.thread_mut(tid).sigmask = bit(SIGUSR1);
    m.signal_process(tid, SigInfo { signo: SIGUSR1, code: SI_USER, pid: 42, ..SigInfo::default() });
    assert_eq!(call(&mut m, 137, [set, info, 0, 8, 0, 0]), SIGUSR1 as i64);
    assert_eq!(m.read_guest(tid, info + 16, 4).unwrap(), 42u32.to_le_bytes());
    assert!(m.threads[&tid].pending.is_empty());
}

#[test]
fn busybox_echo() {
    let mut m = boot(program("busybox/busybox"), "/bin/busybox", &["echo", "hi", "there"]);
    assert_eq!(m.run(50_000_000), Stop::Exited, "{:?}", m.faults);
    assert_eq!(m.terminal.stdout, b"hi there\n");
    assert_eq!(m.exit_status, Some(0));
}

/// `sh -i` on a terminal: keys typed, the shell's job control (^Z stops cat, fg continues it),
/// SIGTTIN for a background reader, and the window size.
#[test]
fn an_interactive_shell_on_the_terminal_has_job_control() {
    let mut m = Machine::boot(Config {
        exe: program("busybox/busybox"),
        exe_path: "/bin/busybox".into(),
        argv: vec![b"sh".to_vec(), b"-i".to_vec()],
        envp: vec![b"PATH=/bin:/usr/bin".to_vec(), b"PS1=$ ".to_vec()],
        files: vec![],
        mounts: vec![],
        cwd: "/".into(),
        stdin: vec![],
        stdin_closed: false,
        deterministic: true,
        limits: Limits::default(),
        tty: Some((24, 80)),
    })
    .unwrap();
    let typed = |m: &mut Machine, keys: &[u8]| {
        assert!(m.type_keys(keys));
        assert_eq!(m.run(500_000_000), Stop::Stdin, "{:?}", m.faults);
        String::from_utf8_lossy(&std::mem::take(&mut m.terminal.stdout)).replace("\x1b[6n", "")
    };
    assert!(typed(&mut m, b"").ends_with("$ "), "no 'job control turned off': the shell has its terminal");
    assert_eq!(typed(&mut m, b"stty size\r"), "stty size\r\n24 80\r\n$ ");
    assert_eq!(typed(&mut m, b"cat\r"), "cat\r\n");
    assert_eq!(typed(&mut m, b"\x1a"), "^Z[1]+  Stopped                    cat\r\n$ ");
    assert_eq!(typed(&mut m, b"fg\r"), "fg\r\ncat\r\n");
    assert_eq!(typed(&mut m, b"hi\r"), "hi\r\nhi\r\n");
    assert_eq!(typed(&mut m, b"\x04"), "$ ");
    assert_eq!(typed(&mut m, b"cat &\r"), "cat &\r\n$ ");
    assert!(typed(&mut m, b"jobs\r").contains("Stopped (tty input)        cat"));
    assert!(m.resize_terminal(30, 100));
    assert!(typed(&mut m, b"kill %1; stty size\r").contains("30 100\r\n"));
}

#[test]
fn socket_and_pipe_buffers_share_the_machine_s_memory() {
    let (mmap, write, close, pipe2, socketpair, epoll_create1, epoll_ctl) = (222, 64, 57, 59, 199, 20, 21);
    let (enobufs, eagain, nonblock) = (105, 11, 0o4000);
    let mut m = boot(program("c/bin/hello"), "/bin/hello", &["hello"]);
    let tid = m.focus().unwrap();
    let anonymous = |len: u64| [0, len, 3, 0x22, u64::MAX, 0];
    let buf = call(&mut m, mmap, anonymous(65536)) as u64;
    m.limits.memory = m.mapped_total() + (1 << 20); // a mebibyte for everything else
    let mut fds = vec![];
    let mut refusals = vec![];
    for i in 0..16 {
        let made = if i % 2 == 0 { call(&mut m, socketpair, [1, 1 | nonblock, 0, buf, 0, 0]) } else { call(&mut m, pipe2, [buf, nonblock, 0, 0, 0, 0]) };
        assert_eq!(made, 0);
        let pair = m.read_guest(tid, buf, 8).unwrap();
        let (r, w) = (u32::from_le_bytes(pair[..4].try_into().unwrap()), u32::from_le_bytes(pair[4..].try_into().unwrap()));
        fds.extend([r, w]);
        let refused = loop {
            let n = call(&mut m, write, [w as u64, buf, 65536, 0, 0, 0]);
            if n < 0 {
                break -n;
            }
        };
        if refused != eagain {
            refusals.push(refused);
        }
        assert!(m.files.net.memory.used() <= 1 << 20, "the buffers stay within the machine's memory");
    }
    assert!(refusals.contains(&enobufs) && refusals.contains(&(ENOMEM.0 as i64)), "{refusals:?}: a full machine refuses sockets ENOBUFS, pipes ENOMEM");
    assert_eq!(call(&mut m, mmap, anonymous(65536)), -(ENOMEM.0 as i64), "guest pages share the limit");
    let ep = call(&mut m, epoll_create1, [0; 6]);
    assert_eq!(call(&mut m, epoll_ctl, [ep as u64, 1, fds[0] as u64, buf, 0, 0]), -(ENOMEM.0 as i64));
    for fd in fds {
        assert_eq!(call(&mut m, close, [fd as u64, 0, 0, 0, 0, 0]), 0);
    }
    assert_eq!(m.files.net.memory.used(), 0, "closing gives every buffer back");
    assert!(call(&mut m, mmap, anonymous(65536)) > 0);
}
