//! The collector of AF_UNIX sockets held only in flight, as Linux's unix_gc: a socket sent
//! (SCM_RIGHTS) over its own connection, or a ring of sockets each waiting in the next one's
//! queue, keeps a reference to itself after every descriptor is closed, and nothing else would
//! ever free it.

use std::collections::HashMap;

use super::fd::{FileKind, Files};

impl Files {
    /// Frees the socket descriptions that only descriptions in flight reach. A candidate is a
    /// socket description all of whose references are in flight; a candidate lives if it waits in
    /// the queue of a socket that is not a candidate, or of a live candidate; the rest are garbage,
    /// and the descriptions in their queues are released.
    pub fn collect_cycles(&mut self) {
        self.net.gc_pending = false;
        let mut in_flight: HashMap<usize, u32> = HashMap::new();
        for &c in &self.net.carriers {
            for d in self.net.own_rights(c) {
                *in_flight.entry(d).or_default() += 1;
            }
        }
        // Candidate socket → its description (and so for the connections a candidate listener
        // has not accepted: they belong to its description).
        let mut owner: HashMap<usize, usize> = HashMap::new();
        let mut candidates = vec![];
        for (&d, &n) in &in_flight {
            if let FileKind::Socket(s) = self.open[d].kind {
                if self.open[d].refs == n {
                    candidates.push((d, s));
                    owner.insert(s, d);
                    for &p in self.net.sockets[s].queue.iter().flatten() {
                        owner.insert(p, d);
                    }
                }
            }
        }
        let mut live: Vec<usize> = vec![];
        for &c in &self.net.carriers {
            if !owner.contains_key(&c) {
                live.extend(self.net.own_rights(c));
            }
        }
        let mut alive = std::collections::HashSet::new();
        while let Some(d) = live.pop() {
            let FileKind::Socket(s) = self.open[d].kind else { continue };
            if owner.contains_key(&s) && alive.insert(d) {
                live.extend(self.net.rights_in(s));
            }
        }
        let mut freed = vec![];
        for (d, s) in candidates {
            if !alive.contains(&d) {
                freed.extend(self.net.take_rights(s));
            }
        }
        self.drop_refs(freed);
        self.net.gc_floor = self.net.in_flight;
        self.net.gc_pending = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arm64::linux::errno::SysResult;
    use crate::arm64::linux::fd::{FdTable, OpenFile, O_RDWR};
    use crate::arm64::linux::socket::{Kind, Sent, CAPACITY, DATAGRAM_OVERHEAD, IN_FLIGHT_COST};

    fn socketpair(files: &mut Files, table: &mut FdTable, kind: Kind) -> (i32, i32) {
        let (a, b) = files.net.pair(kind, 1);
        let fa = files.add(OpenFile::new(FileKind::Socket(a), O_RDWR, "socket:".into()));
        let fb = files.add(OpenFile::new(FileKind::Socket(b), O_RDWR, "socket:".into()));
        (files.install(table, fa, 0, false).unwrap(), files.install(table, fb, 0, false).unwrap())
    }

    fn socket_of(files: &Files, table: &FdTable, fd: i32) -> usize {
        let FileKind::Socket(s) = files.open[table.get(fd).unwrap().file].kind else { panic!("not a socket") };
        s
    }

    /// sendmsg with SCM_RIGHTS, as syscalls/net.rs does it: the passed descriptions are retained,
    /// and those the send did not take are released.
    fn send_fds(files: &mut Files, table: &FdTable, via: i32, data: &[u8], fds: &[i32]) -> SysResult<Sent> {
        let mut rights: Vec<usize> = fds.iter().map(|&fd| table.get(fd).unwrap().file).collect();
        for &f in &rights {
            files.retain(f);
        }
        let sent = files.net.send(socket_of(files, table, via), data, None, &mut rights);
        for f in rights {
            files.release(f);
        }
        sent
    }

    /// recvmsg: the passed descriptions are installed in `table` (their travelling reference
    /// released), or dropped when the table is full.
    fn recv_fds(files: &mut Files, table: &mut FdTable, via: i32, len: usize) {
        let s = socket_of(files, table, via);
        if let Ok(Some(r)) = files.net.recv(s, len, false) {
            for f in r.rights {
                let _ = files.install(table, f, 0, false);
                files.release(f);
            }
        }
    }

    fn assert_nothing_left(files: &Files) {
        assert_eq!(files.open.iter().count(), 0, "every description is freed");
        assert_eq!(files.net.sockets.iter().count(), 0, "every socket is freed");
        assert_eq!((files.net.in_flight, files.net.carriers.len(), files.references), (0, 0, 0));
        assert_eq!(files.net.memory.used(), 0, "every charge is given back");
    }

    #[test]
    fn a_chain_of_100000_sockets_each_inside_the_next_is_freed_without_recursion() {
        let mut files = Files::default();
        let mut table = FdTable::default();
        let mut held: Option<i32> = None;
        for _ in 0..100_000 {
            let (x, y) = socketpair(&mut files, &mut table, Kind::Stream);
            if let Some(prev) = held {
                assert!(matches!(send_fds(&mut files, &table, x, b"x", &[prev]), Ok(Sent::Bytes(1))));
                files.close(&mut table, prev).unwrap();
            }
            files.close(&mut table, x).unwrap();
            held = Some(y);
        }
        assert_eq!(files.net.in_flight, 99_999, "the chain lives: its head is held");
        files.close(&mut table, held.unwrap()).unwrap();
        assert_nothing_left(&files);
    }

    #[test]
    fn a_full_socket_sent_over_its_own_connection_is_collected() {
        let mut files = Files::default();
        files.net.memory.limit = 64 << 20;
        let mut table = FdTable::default();
        for _ in 0..6000 {
            let (a, b) = socketpair(&mut files, &mut table, Kind::Stream);
            send_fds(&mut files, &table, a, b"x", &[b]).unwrap();
            while let Ok(Sent::Bytes(_)) = send_fds(&mut files, &table, a, &[7; 65536], &[]) {}
            assert!(files.net.memory.used() >= CAPACITY as u64, "the queue is charged");
            files.close(&mut table, a).unwrap();
            files.close(&mut table, b).unwrap();
            assert_nothing_left(&files);
        }
    }

    #[test]
    fn a_ring_of_sockets_in_flight_is_collected_when_its_last_descriptor_closes() {
        let mut files = Files::default();
        let mut table = FdTable::default();
        let pairs: Vec<(i32, i32)> = (0..3).map(|_| socketpair(&mut files, &mut table, Kind::Dgram)).collect();
        for i in 0..3 {
            // b of pair i waits in the queue of b of pair i+1: a ring of three.
            let next = pairs[(i + 1) % 3];
            send_fds(&mut files, &table, next.0, b"", &[pairs[i].1]).unwrap();
        }
        files.close_all(&mut table);
        assert_nothing_left(&files);
    }

    #[test]
    fn empty_datagrams_queue_only_up_to_linux_s_limit() {
        let mut files = Files::default();
        let mut table = FdTable::default();
        let (a, _b) = socketpair(&mut files, &mut table, Kind::Dgram);
        let queued = (0..10_000).take_while(|_| matches!(send_fds(&mut files, &table, a, b"", &[]), Ok(Sent::Bytes(0)))).count();
        assert_eq!(queued, 278, "Linux queues 278 empty datagrams on a socketpair");
        assert_eq!(files.net.memory.used(), (278 * DATAGRAM_OVERHEAD) as u64);
    }

    /// What the queues hold, counted from scratch: the charge the table keeps must equal it.
    fn charged_from_scratch(files: &Files) -> u64 {
        let mut total = 0;
        for (_, k) in files.net.sockets.iter() {
            total += k.stream_in.len() + k.dgrams_in.iter().map(|(d, ..)| d.len() + DATAGRAM_OVERHEAD).sum::<usize>();
            let carried = k.rights.iter().map(|(_, r)| r.len()).sum::<usize>() + k.dgrams_in.iter().map(|(.., r)| r.len()).sum::<usize>();
            total += carried * IN_FLIGHT_COST;
        }
        total as u64
    }

    /// Random socketpairs, sends with descriptors (sockets passed inside themselves, chains and
    /// rings among them), receives, closes, forks and exits, seeded: after every step the charged
    /// kernel memory is what the queues hold and stays under the limit, and once every process
    /// has exited, nothing is left.
    #[test]
    fn random_scm_rights_traffic_stays_in_its_memory_and_leaves_nothing() {
        let mut next = crate::arm64::linux::random_ops::below(0x1f1a_u64);
        for round in 0..40 {
            let mut files = Files::default();
            files.net.memory.limit = 1 << 20;
            let mut tables = vec![FdTable::default()];
            for _ in 0..400 {
                let t = next(tables.len() as u64) as usize;
                let fds: Vec<i32> = tables[t].fds.keys().copied().collect();
                let pick = |k: u64| fds.get(k as usize % fds.len().max(1)).copied();
                match (next(9), pick(next(1024))) {
                    (0 | 1, _) if fds.len() < 60 => {
                        socketpair(&mut files, &mut tables[t], [Kind::Stream, Kind::Dgram][next(2) as usize]);
                    }
                    (2 | 3, Some(via)) => {
                        let passed: Vec<i32> = (0..next(4)).filter_map(|_| pick(next(1024))).collect();
                        let data = vec![1u8; [0, 1, 1000, 100_000][next(4) as usize]];
                        drop(send_fds(&mut files, &tables[t], via, &data, &passed)); // refusals are fine
                    }
                    (4, Some(via)) => recv_fds(&mut files, &mut tables[t], via, next(200_000) as usize),
                    (5 | 6, Some(fd)) => files.close(&mut tables[t], fd).unwrap(),
                    (7, _) if tables.len() < 4 => {
                        let child = files.fork_table(&tables[t]);
                        tables.push(child);
                    }
                    (8, _) if tables.len() > 1 => {
                        let mut gone = tables.swap_remove(t);
                        files.close_all(&mut gone);
                    }
                    _ => {}
                }
                let used = files.net.memory.used();
                assert!(used <= files.net.memory.limit, "round {round}: {used} bytes charged past the limit");
                assert_eq!(used, charged_from_scratch(&files), "round {round}: the charge is what the queues hold");
            }
            for mut table in tables {
                files.close_all(&mut table);
            }
            assert_nothing_left(&files);
        }
    }
}
