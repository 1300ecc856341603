//! System calls: the number in x8 and arguments in x0..x5 become a call of one of the handlers,
//! grouped by area. Unknown numbers fail with ENOSYS (and are recorded by the machine).

pub mod epoll;
pub mod files;
pub mod memory;
pub mod misc;
pub mod names;
pub mod net;
pub mod outcome;
pub mod poll;
pub mod process;
pub mod read_write;
pub mod signal;
pub mod terminal;
pub mod time;

use super::errno::*;
use super::machine::Machine;

pub use names::name;
pub use outcome::Outcome;
use outcome::{value, Flow};

pub fn dispatch(m: &mut Machine, tid: u32, nr: u64, a: [u64; 6]) -> Outcome {
    use files as f;
    let r: Flow = match nr {
        5..=16 => f::xattr(m, tid, nr, a),
        17 => f::getcwd(m, tid, a),
        23 => f::dup(m, tid, a),
        24 => f::dup3(m, tid, a),
        25 => f::fcntl(m, tid, a),
        29 => f::ioctl(m, tid, a),
        33 => f::mknodat(m, tid, a),
        34 => f::mkdirat(m, tid, a),
        35 => f::unlinkat(m, tid, a),
        36 => f::symlinkat(m, tid, a),
        37 => f::linkat(m, tid, a),
        38 => f::renameat(m, tid, [a[0], a[1], a[2], a[3], 0, 0]),
        43 => f::statfs(m, tid, a, false),
        44 => f::statfs(m, tid, a, true),
        45 => f::truncate(m, tid, a),
        46 => f::ftruncate(m, tid, a),
        48 | 439 => f::faccessat(m, tid, a),
        49 => f::chdir(m, tid, a),
        50 => f::fchdir(m, tid, a),
        52 => f::fchmod(m, tid, a),
        53 => f::fchmodat(m, tid, a),
        54 => f::fchownat(m, tid, a),
        55 => f::fchown(m, tid, a),
        56 => f::openat(m, tid, a),
        57 => f::close(m, tid, a),
        59 => f::pipe2(m, tid, a),
        61 => f::getdents64(m, tid, a),
        62 => read_write::lseek(m, tid, a),
        63 => read_write::read(m, tid, a),
        64 => read_write::write(m, tid, a),
        65 => read_write::readv(m, tid, a),
        66 => read_write::writev(m, tid, a),
        67 => read_write::pread64(m, tid, a),
        68 => read_write::pwrite64(m, tid, a),
        71 => read_write::sendfile(m, tid, a),
        72 => poll::pselect6(m, tid, a),
        73 => poll::ppoll(m, tid, a),
        78 => f::readlinkat(m, tid, a),
        79 => f::newfstatat(m, tid, a),
        80 => f::fstat(m, tid, a),
        81..=83 | 267 => Ok(value(0)), // sync, fsync, fdatasync, syncfs: nothing is cached
        213 | 223 => Ok(value(0)),      // readahead, fadvise64: advice only
        32 => f::flock(m, tid, a),
        88 => f::utimensat(m, tid, a),
        276 => f::renameat(m, tid, a),
        291 => f::statx(m, tid, a),

        214 => memory::brk(m, tid, a),
        215 => memory::munmap(m, tid, a),
        216 => memory::mremap(m, tid, a),
        222 => memory::mmap(m, tid, a),
        226 => memory::mprotect(m, tid, a),
        227 | 232 | 233 => Ok(value(0)), // msync, mincore-free madvise: no effect on private memory

        93 => process::exit(m, tid, a),
        94 => process::exit_group(m, tid, a),
        96 => process::set_tid_address(m, tid, a),
        98 => process::futex(m, tid, a),
        99 => Ok(value(0)), // set_robust_list: lists are only walked when a thread dies holding locks
        124 => Ok(value(0)), // sched_yield
        220 => process::clone(m, tid, a),
        221 => process::execve(m, tid, a),
        260 => process::wait4(m, tid, a),
        172 => Ok(value(m.thread(tid).pid as u64)),
        173 => Ok(value(m.process_of(tid).ppid as u64)),
        178 => Ok(value(tid as u64)),
        154 => process::setpgid(m, tid, a),
        155 => process::getpgid(m, tid, a),
        156 => Ok(value(m.process_of(tid).sid as u64)),
        157 => process::setsid(m, tid),

        129 => signal::kill(m, tid, a),
        130 => signal::tkill(m, tid, a[0] as i32, a[1]),
        131 => signal::tkill(m, tid, a[1] as i32, a[2]),
        132 => signal::sigaltstack(m, tid, a),
        133 => signal::rt_sigsuspend(m, tid, a),
        134 => signal::rt_sigaction(m, tid, a),
        135 => signal::rt_sigprocmask(m, tid, a),
        136 => signal::rt_sigpending(m, tid, a),
        137 => signal::rt_sigtimedwait(m, tid, a),
        139 => signal::rt_sigreturn(m, tid),

        101 => time::nanosleep(m, tid, a[0]),
        102 => time::getitimer(m, tid, a),
        103 => time::setitimer(m, tid, a),
        113 => time::clock_gettime(m, tid, a),
        114 => time::clock_getres(m, tid, a),
        115 => time::clock_nanosleep(m, tid, a),
        153 => time::times(m, tid, a),
        165 => time::getrusage(m, tid, a),
        169 => time::gettimeofday(m, tid, a),

        160 => misc::uname(m, tid, a),
        166 => misc::umask(m, tid, a),
        167 => misc::prctl(m, tid, a),
        174..=177 => Ok(value(0)), // getuid, geteuid, getgid, getegid: the guest runs as root
        148 | 150 => misc::getres_ids(m, tid, a),
        143..=151 => Ok(value(0)), // the set*id family: root may stay root
        158 => misc::getgroups(m, tid, a),
        163 => misc::getrlimit(m, tid, [0, a[0], 0, a[1], 0, 0]),
        179 => misc::sysinfo(m, tid, a),
        261 => misc::getrlimit(m, tid, a),
        123 => misc::sched_getaffinity(m, tid, a),
        122 => Ok(value(0)), // sched_setaffinity: there is one CPU
        140 => Ok(value(0)), // setpriority: the scheduler has no priorities
        141 => Ok(value(20)), // getpriority: nice 0, in the kernel's 40 - nice encoding
        168 => misc::getcpu(m, tid, a),
        278 => misc::getrandom(m, tid, a),
        // Sockets: the machine's own, on its own loopback (socket.rs); nothing reaches the host.
        198 => net::socket(m, tid, a),
        199 => net::socketpair(m, tid, a),
        200 => net::bind(m, tid, a),
        201 => net::listen(m, tid, a),
        202 => net::accept4(m, tid, [a[0], a[1], a[2], 0, 0, 0]),
        242 => net::accept4(m, tid, a),
        203 => net::connect(m, tid, a),
        204 => net::getsockname(m, tid, a),
        205 => net::getpeername(m, tid, a),
        206 => net::sendto(m, tid, a),
        207 => net::recvfrom(m, tid, a),
        208 => net::setsockopt(m, tid, a),
        209 => net::getsockopt(m, tid, a),
        210 => net::shutdown(m, tid, a),
        211 => net::sendmsg(m, tid, a),
        212 => net::recvmsg(m, tid, a),
        20 => epoll::epoll_create1(m, tid, a),
        21 => epoll::epoll_ctl(m, tid, a),
        22 => epoll::epoll_pwait(m, tid, a),
        116 => Err(EPERM), // syslog: the machine has no kernel log
        // Not offered, and glibc copes: rseq is optional, clone3 falls back to clone.
        293 | 435 => Err(ENOSYS),
        _ => {
            m.unknown_syscalls.insert(nr);
            Err(ENOSYS)
        }
    };
    // Closing a descriptor, exiting or unlinking may have let go of a nameless file's last use.
    if m.vfs.has_orphans() {
        let files = &m.files;
        m.vfs.collect_orphans(|ino| files.uses_inode(ino));
    }
    match r {
        Ok(o) => o,
        Err(e) => Outcome::Return(-(e.0 as i64)),
    }
}

/// Whether the call a thread is blocked in with `Wait::Poll` can finish now: the call is read
/// back from the thread's registers, as the `svc` that runs again will read it.
pub fn poll_ready(m: &Machine, tid: u32) -> bool {
    let cpu = &m.thread(tid).cpu;
    let a = [cpu.x[0], cpu.x[1], cpu.x[2], cpu.x[3], cpu.x[4], cpu.x[5]];
    match cpu.x[8] {
        22 => epoll::epoll_ready(m, tid, a),
        73 => poll::ppoll_ready(m, tid, a),
        _ => poll::pselect6_ready(m, tid, a),
    }
}
