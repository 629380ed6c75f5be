"""A system call filter (seccomp) for what namespaces leave shared with the rest of the machine.

A bot keeps uid 0 (with no capabilities) and sees the machine's filesystem
read-only. Namespaces and a read-only view leave some ways out, which the
filter closes, in every system call ABI the machine runs (on x86-64 also the
i386 and x32 ones, else a bot could make the calls through ``int 0x80``):

- *Unix sockets in the filesystem*: a read-only mount does not stop
  ``connect`` to a socket file, and a new network namespace does not cover
  them. A bot could reach a tournament's own multiprocessing forkserver (and
  have it run code as root outside the sandbox), ``docker.sock``, the D-Bus
  system bus. So ``socket`` is allowed for the internet families only (in the
  bot's empty network namespace they reach nothing; netlink, whose sockets
  queue messages in kernel memory no memory limit counts, is denied), and
  ``socketpair`` for unix pairs of the connected types only (a datagram pair,
  also one asked for as ``SOCK_RAW``, could ``sendto`` a socket file); i386's
  ``socketcall``, which hides its arguments, is denied. A bot keeps
  ``socketpair(AF_UNIX, SOCK_STREAM)``, which asyncio and multiprocessing use
  (its ``forkserver`` start method, which needs a unix socket, fails; ``fork``
  works).
- *Kernel modules*: for a socket protocol it has not, the kernel looks for a module
  (``net-pf-2-proto-132``: SCTP), and on a kernel that loads modules runs ``modprobe`` as root
  outside the sandbox, loading code no bot needs (a red team's finding); so it does for a socket
  type its family has not (``SOCK_SEQPACKET``, ``SOCK_DCCP``), or a type and protocol that do not
  match (a datagram of TCP). So ``socket`` is allowed with the types and protocols of
  SOCKET_PROTOCOLS only, ``socketpair`` with PAIR_PROTOCOLS; any other fails with
  ``EPROTONOSUPPORT``, what a kernel without the protocol answers and libraries fall back on.
- *The user keyring* of uid 0: a key a bot adds there outlives its game, the
  next bot (or the referee, which shares uid 0) could read it, and
  ``request_key`` may make the kernel start a helper as root outside the
  sandbox: ``add_key``, ``request_key`` and ``keyctl`` are denied (as under
  Docker's default profile).
- *The inotify instances and fanotify groups* of uid 0
  (``fs.inotify.max_user_instances``, ``fs.fanotify.max_user_groups``, 128 on
  most machines): a bot could take them all while it plays, and no process of
  uid 0 on the machine could watch a file: ``inotify_init(1)`` and
  ``fanotify_init`` are denied.
- *New namespaces*, a user namespace above all: uid 0 without capabilities may
  still make one, and in it (with a cgroup and a mount namespace of its own)
  mount the cgroup file systems afresh, writable, and lift its own process and
  memory limits, which it may write as uid 0. So ``unshare`` and ``clone``
  with any ``CLONE_NEW*`` flag are denied, and so is ``setns``; ``clone3``,
  whose flags a filter cannot read, fails with ``ENOSYS``, on which the C
  library falls back to ``clone`` (threads and processes work as before).
- *Locks on the machine's files*: a lock is taken on a file, not on a view of
  it, and a bot sees the machine's files. A read lock on dpkg's lock file
  would stop apt while the bot plays, a ``flock`` another tournament's log;
  and as uid 0, the owner of most files, a bot could take a lease, on which
  any process of the machine that opens the file for writing waits 45
  seconds. So ``flock`` and ``fcntl``'s record locks (``F_SETLK``,
  ``F_SETLKW``, their 64-bit and open-file-description forms) succeed and lock
  nothing, so that programs that lock their own files (SQLite) work, and
  leases (``F_SETLEASE``) and directory notifications (``F_NOTIFY``) fail.
- *The machine's file cache*: ``fadvise(POSIX_FADV_DONTNEED)`` on a file a
  bot can only read still drops that file's cached pages for every process,
  as ``madvise(MADV_PAGEOUT)`` or ``MADV_COLD`` may. A red team's bot dropped
  the cached interpreter and libraries while flooding the disk: an honest bot
  starting in the tournament's other game waited 9 s for its files, idle time
  to its clock. So ``fadvise`` succeeds and does nothing (it is advice), and
  so does ``madvise`` with those two; ``process_madvise``, which gives the
  same advice for a process's own mappings (no capability needed since Linux
  6.13), is denied.
- *Waits no kill ends*: a read with ``O_DIRECT`` waits for the disk
  uninterruptibly, and a kill takes effect only when the disk has served it. A
  red team's bot started 64 reads of 512 MiB each into one shared buffer as its
  game ended: its threads lived on in its cgroup 8 s after ``cgroup.kill`` and
  after the referee, into the next game. So ``open`` and ``openat`` with
  ``O_DIRECT``, and ``fcntl(F_SETFL)`` setting it, fail with ``EINVAL``, as on a
  file system without direct I/O (programs that try it fall back to buffered
  reads, which a kill ends between pages); ``openat2``, whose flags lie in
  memory, fails with ``ENOSYS`` (programs fall back to ``openat``); and
  ``sync`` and ``syncfs``, which wait for the machine's whole write-back, return
  0 undone (a bot's own files are in memory: nothing of its needs writing back);
  so do ``fsync``, ``fdatasync``, ``sync_file_range`` and ``msync``: on a file
  of the machine the bot may only read, they still wrote out (and waited for)
  what other processes had written to it and not yet to the disk, a wait no
  kill ends, and ``sync_file_range`` started that writing without waiting, to
  run on in the opponent's turn (a red team's bot). The same waits behind file
  system commands: ``ioctl(FS_IOC_FIEMAP)``, whose ``FIEMAP_FLAG_SYNC`` lies in
  memory, fails with ``EOPNOTSUPP``, as on a file system without extent maps (a
  red team's bot wrote out 800 MB of others' dirty pages with it, and a child
  in the call outlived its SIGKILL by 0.4 s); btrfs's sync commands and XFS's
  block maps (which write out first) with ``ENOTTY``, as a file system without
  them answers (:data:`REFUSED_IOCTLS`); ``quotactl`` and ``quotactl_fd``
  (``Q_SYNC`` commits the journal of every ext4 of the machine, for anyone) with
  ``ENOSYS``, as on a kernel without quotas.
- *Marks on the machine's inodes*: the kernel keeps some state of a file in its
  inode, shared by every process, and lets anyone who owns the file (a bot, uid
  0, owns most) set it, write access or not. ``fcntl(F_SET_RW_HINT)`` (a
  write-life hint) succeeds and does nothing (a red team's bot wrote a word
  over the hints of 56 files; the other bot of its game, and a bot of a later
  game, read it back); ext4's extent-status cache commands (get, clear,
  precache, ``EXT4_IOC_GETSTATE``) fail with ``ENOTTY`` (its bots passed a word
  through them the same way), and so does ``FS_IOC_GETFSMAP``, the whole disk's
  allocation map; fscrypt's per-file-system keyring fails with ``EOPNOTSUPP``,
  like uid 0's keyring (below).
- *The kernel's log*: ``syslog`` is denied (``EPERM``, what
  ``kernel.dmesg_restrict`` gives): where that is 0, a bot reads the log, and
  writes it by naming a child as it likes and faulting it (a "segfault" line),
  a channel to any later bot.
- *The machine's asynchronous I/O quota* (``fs.aio-max-nr``): one
  ``io_setup`` could take all of it, and no process of the machine could
  then set up a context: ``io_setup`` fails with ``ENOSYS``, as on a kernel
  without it (the C library's POSIX aio uses threads).
- *Core dumps to a helper*: where ``kernel.core_pattern`` pipes cores to a
  program (``|/usr/share/apport/apport``, ``|systemd-coredump``, most
  distributions' default), the kernel starts that program as root, outside
  every namespace and cgroup of the crashing process, for each crash, and
  ignores a core size limit of 0 for pipes; one of 1 byte is its sign not to
  dump (measured on this kernel: a crash with the limit at 0 ran the helper,
  at 1 did not). The sandbox sets ``RLIMIT_CORE`` to 1, and ``setrlimit`` or
  ``prlimit64`` setting it (to 0, say) succeeds and does nothing, so a bot's
  crashes start nothing outside it (``prlimit64`` that also asks for the old
  limit, which a no-op would leave unwritten, fails with ``EPERM``). It
  failed with ``EPERM`` before, and a program built with AddressSanitizer,
  which sets the limit to 0 as it starts (glibc's ``setrlimit`` is
  ``prlimit64`` without the old limit), died at once: "AddressSanitizer
  setrlimit() failed 1".
- *Compiled filters*: socket filters and a bot's own system call filters
  are compiled into one quota for the whole machine (``net.core.bpf_jit_limit``),
  not charged to the bot's memory: a bot that filled it left no process
  without capabilities able to install a filter, the sandbox's own included.
  ``setsockopt`` attaching one and ``seccomp``/``prctl`` installing one are
  denied.
- *Huge pages*: the kernel's huge-page pool is the machine's, and a huge page a
  process takes (``hugetlbfs``) is charged to no memory cgroup: a red team's bot
  under a 64 MiB limit held 512 MiB of huge pages (its memory cgroup counted
  7 MiB), and with a reserved pool took the whole pool from the machine. So
  ``mmap`` (and i386's and arm's ``mmap2``) with ``MAP_HUGETLB``, ``shmget``
  with ``SHM_HUGETLB`` (also through i386's ``ipc``) and ``memfd_create`` with
  ``MFD_HUGETLB`` fail, and i386's old ``mmap``, whose arguments lie in memory a
  filter cannot read, is denied (the C library uses ``mmap2``). Programs that
  try huge pages (glibc's ``malloc`` under its ``hugetlb`` tunable, a JVM with
  ``-XX:+UseLargePages``, PostgreSQL's ``huge_pages = try``) fall back to
  ordinary pages, which the memory limit counts; the machine's ``hugetlbfs``
  mounts, whose files a bot could map privately, are hidden (:mod:`.box`).
- *The machine's file cache, read*: ``mincore`` on a mapping of a file, and ``cachestat``,
  tell which of its pages the cache holds, without reading them; the cache is the machine's,
  and a bot owns most files (uid 0), which is all Linux asks. A red team's bots marked pages of
  a big library by reading them and read the marks back: a bot carried what it had learned into
  its next game, and the two bots of one game passed each other a word. Both fail with
  ``ENOSYS``, as on a kernel without them (a program that checks its own memory with
  ``mincore``, as libunwind does, falls back). This narrows the channel, it does not close it:
  a page fault maps the cached pages around it too (the kernel's fault-around, 64 KiB) without
  reading the others, and the bot's own page table then shows which were cached
  (``/proc/self/pagemap``, its count of minor faults): a reviewer's bot read marks so. A cache
  shared by every process is a channel only a machine (or VM) per bot closes.
- *The machine's memory map, split*: ``memfd_secret`` fails with ``ENOSYS``: each secret page is
  taken out of the kernel's direct map, whose huge pages it splits for good (a red team's bot made
  the map's 4 KiB share grow game after game).
- *The kernel's switches*: ``setsockopt`` of ``UDP_ENCAP`` and ``UDP_GRO`` (at ``IPPROTO_UDP``
  and ``SOL_UDPLITE``) is denied: the first socket to turn one on and the last to turn it off
  patch kernel code with an interrupt to every core (a reviewer's bot sent the other core
  130,015 in 2 s).
- *The machine's IPv6 flow labels*: ``setsockopt(IPPROTO_IPV6, IPV6_FLOWLABEL_MGR)`` is denied;
  the labels are counted for the whole machine (a red team's bot took the share open to processes
  without capabilities, and every other process got ``ENOBUFS`` until its namespace was gone).
- *The machine's socket cookies*: the kernel numbers every socket from one counter for the whole
  machine (its cookie, 64 bits, which ``getsockopt(SOL_SOCKET, SO_COOKIE)`` reads): a red team's
  bot took byte(k) cookies at its k-th move (opening sockets and asking each one's cookie), and the
  other bot of its game, pinned to the same processor, read how far the counter had moved, 11 bytes
  of 11 exactly, and so between two games side by side. So ``getsockopt`` at ``SOL_SOCKET`` of
  ``SO_COOKIE`` and ``SO_NETNS_COOKIE`` (its network namespace's, from a counter of the machine's
  too) fails with ``ENOPROTOOPT``, as on a kernel without the option. Not closed by it: the
  numbers of pipes' and sockets' inodes (``fstat``) come from a counter of the machine's too (see
  docs/security.md, "What it does not stop").
- *Exploit tools*: ``userfaultfd``, ``perf_event_open`` and ``bpf`` are
  denied and io_uring fails with ``ENOSYS`` (programs fall back to plain
  calls), as under Docker's default profile: kernel interfaces a bot has no
  use for, through which many of the kernel's privilege escalations went.

A denied call fails with ``EPERM`` (for huge pages too: it is what the kernel itself gives a user
outside ``vm.hugetlb_shm_group`` for ``SHM_HUGETLB``, every program that tries huge pages falls back
on it as on the ``ENOMEM`` of a machine without a pool, and unlike ``ENOMEM`` it tells the filter's
refusal from the kernel's; direct I/O is refused with ``EINVAL``, which programs take as a file
system without it, a socket's cookie with ``ENOPROTOOPT``, an option the kernel has not); a call
made a no-op returns 0 unmade. The filter is a classic BPF program built once, when this module is
imported, so that :func:`install` can run between ``fork`` and ``exec``. It needs ``no_new_privs``,
which the sandbox sets when it drops the capabilities.
"""

from __future__ import annotations

import ctypes
import errno
import os
import socket
import sys

import attrs

from codecup.sandbox import linux

PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000

# Classic BPF opcodes.
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

# Offsets in struct seccomp_data: the call's number, its ABI, the low 32 bits of its arguments.
_NR, _ARCH = 0, 4
_LOW = 0 if sys.byteorder == "little" else 4
_ARG0, _ARG1, _ARG2, _ARG3 = 16 + _LOW, 24 + _LOW, 32 + _LOW, 40 + _LOW
_ARG4, _ARG5 = 48 + _LOW, 56 + _LOW
_ARG2_HIGH = 32 + 4 - _LOW  # the other half of the third argument (a pointer)
_ARG3_HIGH = 40 + 4 - _LOW  # the other half of the fourth argument (a pointer)
RLIMIT_CORE = 4  # the same number on every Linux ABI
_X32_BIT = 0x40000000
_SOCK_TYPE_MASK = 0xF
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_JA = 0x05  # BPF_JMP | BPF_JA: jumps by its constant, as far as it likes

#: ``CLONE_NEWNS``, ``CLONE_NEWCGROUP``, ``CLONE_NEWUTS``, ``CLONE_NEWIPC``, ``CLONE_NEWUSER``,
#: ``CLONE_NEWPID`` and ``CLONE_NEWNET``: ``unshare`` or ``clone`` with any of them is denied.
#: (``CLONE_NEWTIME``, 0x80, is left out: in ``clone`` that bit belongs to the exit signal, and
#: without a user namespace a time namespace needs a capability the bot has not.)
NAMESPACE_FLAGS = 0x7E020000

#: ``fcntl`` commands denied: ``F_SETLEASE`` and ``F_NOTIFY``.
DENIED_FCNTL = (1024, 1026)
#: ``fcntl`` commands made no-ops: ``F_SETLK``, ``F_SETLKW``, ``F_SETLK64``, ``F_SETLKW64`` (i386 and
#: arm), ``F_OFD_SETLK`` and ``F_OFD_SETLKW``; and ``F_SET_RW_HINT`` (1036), whose write-life hint
#: the kernel keeps in the inode, shared by every process, for anyone who owns the file (uid 0 owns
#: most), write access or not: a red team's bot wrote "FROM-RED-SEAT" in the hints of 56 files of
#: the machine, 2 bits a file, and the other bot of its game read it back, and so did a bot of a
#: later game. ``F_SET_FILE_RW_HINT`` (1038) too, where the kernel has it (before Linux 5.18: a hint
#: of the open file's own; a no-op there and here costs nothing).
NOOP_FCNTL = (6, 7, 13, 14, 37, 38, 1036, 1038)

#: ``madvise`` advice made a no-op: ``MADV_COLD`` and ``MADV_PAGEOUT``, which take pages of the
#: machine's file cache (of files every process reads) out of memory, as ``fadvise`` may; and
#: ``MADV_WILLNEED``, which on a file starts reads that run on after the bot's answer, in its
#: opponent's turn, with no task of the bot's waiting for them (so its tree stops at once), as
#: ``readahead`` does, made a no-op too: a red team's bot slowed its opponent's reads of a file
#: from 7 ms to 168 ms that way.
NOOP_ADVICE = (3, 20, 21)

#: The socket families a bot may create: in its empty network namespace they reach nothing.
#: Not netlink: its sockets queue messages in kernel memory that no memory limit counts, up to
#: 8 MiB a socket (a red team's bot held 2.1 GiB under a 128 MiB limit with ``NETLINK_USERSOCK``
#: messages between its own sockets; the routing protocol's replies to a bot's own requests pinned
#: 335 MiB in 50 sockets). The C library does without it: ``getaddrinfo`` then assumes both
#: address families, ``getifaddrs`` fails.
ALLOWED_FAMILIES = (int(socket.AF_INET), int(socket.AF_INET6))
IPPROTO_ICMP = 1
IPPROTO_TCP = 6
IPPROTO_UDP = 17
IPPROTO_ICMPV6 = 58
#: The (type, protocol) pairs ``socket`` may ask for, per family of ALLOWED_FAMILIES and type
#: (``type & 0xF``, as the kernel reads it; the high bits are ``SOCK_NONBLOCK`` and
#: ``SOCK_CLOEXEC``): a stream of TCP, a datagram of UDP or the family's ICMP (ping sockets), each
#: by its number or the default (0); and ``SOCK_RAW`` with those protocols, which the kernel
#: refuses (``EPERM``) without ``CAP_NET_RAW``, which no bot has. For a pair it has no
#: entry for, the kernel looks for a module (``net-pf-2-proto-132-type-1``: SCTP; 33: DCCP; 115:
#: L2TP; ``net-pf-2-proto-0-type-5`` for ``SOCK_SEQPACKET``, ``-type-6`` for ``SOCK_DCCP``; and
#: a mismatch as a datagram of TCP too), and on a kernel that loads modules runs ``modprobe`` as
#: root outside the sandbox, loading code no honest bot needs, through which many of the kernel's
#: privilege escalations went (a red team's finding, and a reviewer's for the types). Any other
#: pair is refused with ``EPROTONOSUPPORT``, what a kernel without the protocol answers: libraries
#: take it for "not there" and fall back (Go's Multipath TCP probe, 262, stops trying on it and
#: uses TCP).
SOCKET_PROTOCOLS = {
    int(socket.AF_INET): {
        int(socket.SOCK_STREAM): (0, IPPROTO_TCP),
        int(socket.SOCK_DGRAM): (0, IPPROTO_UDP, IPPROTO_ICMP),
        int(socket.SOCK_RAW): (0, IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMP),
    },
    int(socket.AF_INET6): {
        int(socket.SOCK_STREAM): (0, IPPROTO_TCP),
        int(socket.SOCK_DGRAM): (0, IPPROTO_UDP, IPPROTO_ICMPV6),
        int(socket.SOCK_RAW): (0, IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMPV6),
    },
}
#: ``setsockopt(SOL_SOCKET, ...)`` options denied: a socket filter, classic or eBPF
#: (``SO_ATTACH_FILTER``, ``SO_ATTACH_BPF``, ``SO_ATTACH_REUSEPORT_CBPF`` and ``_EBPF``). Each filter
#: is compiled to machine code that counts against the machine's one quota for such code
#: (``net.core.bpf_jit_limit``), not against the bot's memory limit: a red team's bot filled it
#: with 8,057 filters, and then no process without capabilities could install a system call
#: filter, the sandbox's own included, so the bots of every referee starting then ran unfiltered.
SOL_SOCKET = 1
DENIED_SOCKET_OPTIONS = (26, 50, 51, 52)
#: ``getsockopt(SOL_SOCKET, ...)`` options refused with ``ENOPROTOOPT`` (an option the kernel has
#: not): ``SO_COOKIE`` and ``SO_NETNS_COOKIE``. Both are numbers from one counter for the whole
#: machine (a socket's cookie is taken at its first asking, a network namespace's as it is made): a
#: red team's bot took byte(k) cookies at its k-th move, and the other bot of the game, pinned to
#: the same processor, read the counter's advance at its own move: 11 bytes of 11, exact, also
#: between two games side by side. No honest bot needs either (they name sockets to eBPF programs
#: and the kernel's socket diagnostics, which a bot cannot use). ``SO_INCOMING_CPU`` and
#: ``SO_INCOMING_NAPI_ID`` stay: a processor's number and a device queue's id in the bot's own
#: empty namespace, which no bot moves for another.
DENIED_SOCKET_READS = (57, 71)
#: ``setsockopt(IPPROTO_IPV6, IPV6_FLOWLABEL_MGR, ...)`` denied: IPv6 flow labels come out of one
#: count for the whole machine, every network namespace's (4,096, three quarters of it open to
#: processes without capabilities). A red team's bot held 3,062 of them from 5 processes: every
#: other process of the machine, the opponent's and the next games' bots too, got "No buffer space
#: available" until the kernel cleaned up the bot's namespace, after its game.
IPPROTO_IPV6 = 41
IPV6_FLOWLABEL_MGR = 32
#: ``setsockopt(IPPROTO_UDP or SOL_UDPLITE, UDP_ENCAP or UDP_GRO, ...)`` denied: the first socket of
#: the machine to turn either on, and the last to turn it off (at close), flips a switch of the
#: whole kernel's, patching its code with an interrupt to every core. A reviewer's bot, opening and
#: closing such sockets in a loop, sent the other core 130,015 interrupts in 2 s (the time-stamping
#: switch, flipped the same way, is held on by the referee instead: :mod:`.netstamp`).
SOL_UDPLITE = 136  # and IPPROTO_UDP, above
DENIED_UDP_OPTIONS = (100, 104)  # UDP_ENCAP, UDP_GRO
#: ``seccomp(SECCOMP_SET_MODE_FILTER)`` and ``prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)``: a bot's
#: own system call filters are compiled into the same quota.
SECCOMP_SET_MODE_FILTER = 1
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
#: Huge pages come out of the machine's one pool and are charged to no memory cgroup (a red team's
#: bot held 512 MiB of them under a 64 MiB limit): ``mmap``/``mmap2`` with ``MAP_HUGETLB`` (in its
#: fourth argument), ``shmget`` with ``SHM_HUGETLB`` (its third; in i386's ``ipc`` multiplexer,
#: whose ``SHMGET`` call it is in the low 16 bits of the first argument, the fourth) and
#: ``memfd_create`` with ``MFD_HUGETLB`` (its second) are denied. Each is its value in every ABI.
MAP_HUGETLB = 0x40000
SHM_HUGETLB = 0o4000
MFD_HUGETLB = 0x4
IPC_SHMGET = 23
_IPC_CALL_MASK = 0xFFFF  # the kernel reads the call from the low half (the high half: a version)
#: The types of ``socketpair(AF_UNIX, ...)`` a bot may make: connected ones. Not ``SOCK_DGRAM``,
#: whose pair can ``sendto`` a socket file of the machine, nor ``SOCK_RAW``, which the kernel
#: makes a datagram pair; no other family (the kernel would look it up, loading its module).
PAIR_TYPES = (int(socket.SOCK_STREAM), int(socket.SOCK_SEQPACKET))
#: The protocols of ``socketpair(AF_UNIX, ...)``: the default and ``PF_UNIX`` (1), which the
#: kernel takes as the same, loading no module, and course templates ask for
#: (``#define PIPE(fd) socketpair(AF_UNIX, SOCK_STREAM, PF_UNIX, fd)``: a reviewer's bot was
#: refused it while the filter took 0 only).
PAIR_PROTOCOLS = (0, int(socket.AF_UNIX))
#: The calls that write back or wait for the disk, made no-ops (see the module's "Waits no kill ends").
SYNC_CALLS = ("sync", "syncfs", "fsync", "fdatasync", "sync_file_range", "msync")
#: ``fcntl``'s ``F_SETFL``: refused (``EINVAL``) when it asks for ``O_DIRECT`` (see ``Abi.o_direct``).
F_SETFL = 4
#: ``ioctl`` commands refused, each with what a file system without it answers (``ENOTTY``: tmpfs's
#: for a command it has not; ``EOPNOTSUPP``: for ``FS_IOC_FIEMAP`` on a file system without extent
#: maps, and for fscrypt's on ext4 without encryption), on which programs fall back. Each acts on
#: the machine's shared inode or disk for any caller, with no write access or capability:
#:
#: - ``FS_IOC_FIEMAP`` (0xC020660B): with ``FIEMAP_FLAG_SYNC``, a flag in memory the filter cannot
#:   read, it is ``fsync`` again on a file the bot may only read: a red team's bot wrote out 800 MB
#:   of others' dirty pages with it, and a child in the call outlived its SIGKILL by 0.4 s
#:   (a program that looks for a file's holes has ``lseek``'s ``SEEK_DATA`` and ``SEEK_HOLE``).
#: - ext4's extent-status cache, a channel like the page cache's: ``EXT4_IOC_GET_ES_CACHE``
#:   (0xC020662A) tells whether a file's extents are cached, ``EXT4_IOC_CLEAR_ES_CACHE`` (0x6628,
#:   for the file's owner) clears them, ``EXT4_IOC_PRECACHE_EXTENTS`` (0x6612) caches them and
#:   ``EXT4_IOC_GETSTATE`` (0x40046629) tells that mark: a red team's bots passed "ES-CACHE" between
#:   the seats of a game and into the next game.
#: - ``FS_IOC_GETFSMAP`` (0xC0C0583B): the whole disk's allocation map, every file's blocks (XFS
#:   asks ``CAP_SYS_ADMIN`` for it, ext4 nothing).
#: - fscrypt's keyring of each file system (``FS_IOC_ADD_ENCRYPTION_KEY``, ``_REMOVE_``,
#:   ``_REMOVE_..._ALL_USERS``, ``FS_IOC_GET_ENCRYPTION_KEY_STATUS``): where a file system has
#:   encryption, a key a bot adds there outlives its game and another bot reads its status, as uid
#:   0's keyring, which the filter denies.
#: - btrfs's ``BTRFS_IOC_SYNC`` (0x9408), ``BTRFS_IOC_START_SYNC`` and ``BTRFS_IOC_WAIT_SYNC``:
#:   ``syncfs`` and a wait for the file system's transaction commit, for anyone.
#: - XFS's ``XFS_IOC_GETBMAP``, ``GETBMAPA`` and ``GETBMAPX``: a block map that first writes out the
#:   file's dirty pages and waits, as ``FIEMAP_FLAG_SYNC`` does.
#:
#: Each struct is the same size in every ABI, so each number is the same (i386's too).
REFUSED_IOCTLS: tuple[tuple[int, int], ...] = (
    (0xC020660B, errno.EOPNOTSUPP),  # FS_IOC_FIEMAP
    (0xC020662A, errno.ENOTTY),  # EXT4_IOC_GET_ES_CACHE
    (0x6628, errno.ENOTTY),  # EXT4_IOC_CLEAR_ES_CACHE
    (0x6612, errno.ENOTTY),  # EXT4_IOC_PRECACHE_EXTENTS
    (0x40046629, errno.ENOTTY),  # EXT4_IOC_GETSTATE
    (0xC0C0583B, errno.ENOTTY),  # FS_IOC_GETFSMAP
    (0xC0506617, errno.EOPNOTSUPP),  # FS_IOC_ADD_ENCRYPTION_KEY
    (0xC0406618, errno.EOPNOTSUPP),  # FS_IOC_REMOVE_ENCRYPTION_KEY
    (0xC0406619, errno.EOPNOTSUPP),  # FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS
    (0xC080661A, errno.EOPNOTSUPP),  # FS_IOC_GET_ENCRYPTION_KEY_STATUS
    (0x9408, errno.ENOTTY),  # BTRFS_IOC_SYNC
    (0x80089418, errno.ENOTTY),  # BTRFS_IOC_START_SYNC
    (0x40089416, errno.ENOTTY),  # BTRFS_IOC_WAIT_SYNC
    (0xC0205826, errno.ENOTTY),  # XFS_IOC_GETBMAP
    (0xC020582C, errno.ENOTTY),  # XFS_IOC_GETBMAPA
    (0xC0205838, errno.ENOTTY),  # XFS_IOC_GETBMAPX: _IOWR('X', 56, struct getbmap), 32 bytes
)
#: ``preadv2``'s ``RWF_NOWAIT`` (in its sixth argument; x32's, whose position is one 64-bit
#: argument, in its fifth: see ``Abi.preadv2``): on data not in the cache the
#: kernel starts the read and returns ``EAGAIN`` at once, so no task of the bot waits for it and
#: the disk reads on in its opponent's turn, as with ``readahead`` (a red team's bot slowed its
#: opponent's 8 MiB reads from about 10 ms to 167 ms). Refused with ``EOPNOTSUPP``, as for a file
#: that cannot read without waiting: programs then read as usual.
RWF_NOWAIT = 0x8


def _calls(**numbers: int) -> tuple[tuple[str, int], ...]:
    return tuple(numbers.items())


# Calls that fail with ENOSYS, as on a kernel without them, so that programs fall back
# (numbered alike in every ABI): clone3, whose flags are in memory a filter cannot read
# (the C library then uses clone), and io_uring (libuv, for one, then uses threads). Each ABI
# adds io_setup (its own number): the kernel's asynchronous I/O contexts come out of one
# quota for the whole machine (fs.aio-max-nr, 65,536 events), which one call could take; the
# C library's POSIX aio uses threads, not these.
# openat2 too, whose flags are in memory as well (the C library's open uses openat, and programs
# that try openat2 fall back to it).
# And the page cache's probes, which read which pages of a file the machine's cache holds without
# reading them: cachestat (here), and each ABI's mincore (its own number). A red team's bots marked
# pages of a big library by reading them and read the marks back: a bot carried what it had
# learned into its next game, and two bots of one game passed each other a word (narrowed, not
# closed: see "The machine's file cache, read" above).
# And quotactl_fd (here; each ABI's quotactl has its own number): Q_SYNC commits the journal of
# every ext4 of the machine and writes it out, for anyone (a red team's bot did it in a loop).
# And memfd_secret: each secret page is taken out of the kernel's direct map of memory, splitting
# its huge pages for good (a red team's bot, mapping and unmapping 960 KiB of it, made the
# machine's 4 KiB share of the map grow game after game, and it never shrinks back).
_MISSING = _calls(
    clone3=435, io_uring_setup=425, io_uring_enter=426, io_uring_register=427, openat2=437, cachestat=451,
    memfd_secret=447, quotactl_fd=443,
)  # fmt: skip


@attrs.frozen
class Abi:
    """One system call ABI: its audit architecture and the numbers of the calls the filter checks."""

    arch: int  # AUDIT_ARCH_*
    calls: tuple[tuple[str, int], ...]  # (name, number) of each call denied outright
    socket: int  # socket(2): allowed for ALLOWED_FAMILIES, with their SOCKET_PROTOCOLS, only
    socketpair: int  # socketpair(2): allowed for AF_UNIX pairs of PAIR_TYPES and PAIR_PROTOCOLS only
    clone: int  # clone(2): denied with NAMESPACE_FLAGS (its first argument)
    unshare: int  # unshare(2): the same
    fcntl: tuple[int, ...]  # fcntl(2) (and fcntl64): DENIED_FCNTL denied, NOOP_FCNTL made no-ops
    flock: int  # flock(2): made a no-op
    setrlimit: int  # setrlimit(2): made a no-op for RLIMIT_CORE (its first argument)
    prlimit: int  # prlimit64(2): RLIMIT_CORE (its second argument) given a new limit: see program()
    fadvise: tuple[int, ...]  # fadvise64(2) (and fadvise64_64): made a no-op
    madvise: int  # madvise(2): made a no-op for NOOP_ADVICE (its third argument)
    readahead: int  # readahead(2): made a no-op
    setsockopt: tuple[int, ...]  # setsockopt(2): denied for DENIED_SOCKET_OPTIONS at SOL_SOCKET, for
    # IPV6_FLOWLABEL_MGR at IPPROTO_IPV6 and DENIED_UDP_OPTIONS at IPPROTO_UDP and SOL_UDPLITE
    getsockopt: tuple[int, ...]  # getsockopt(2): ENOPROTOOPT for DENIED_SOCKET_READS at SOL_SOCKET
    seccomp: int  # seccomp(2): denied for SECCOMP_SET_MODE_FILTER (its first argument)
    prctl: int  # prctl(2): denied for PR_SET_SECCOMP with SECCOMP_MODE_FILTER
    mmap: int  # mmap(2), mmap2 where the ABI has it (i386, arm): denied with MAP_HUGETLB
    shmget: int  # shmget(2): denied with SHM_HUGETLB
    memfd_create: int  # memfd_create(2): denied with MFD_HUGETLB
    openat: int  # openat(2): refused (EINVAL) with o_direct (its third argument)
    o_direct: int  # O_DIRECT in this ABI
    sync: tuple[int, ...]  # the SYNC_CALLS, in their order (arm: sync_file_range2): made no-ops
    preadv2: tuple[tuple[int, int], ...]  # preadv2(2) (x86-64: and x32's own), the argument of its flags
    ioctl: tuple[int, ...]  # ioctl(2) (x86-64: and x32's own): REFUSED_IOCTLS (its second argument) refused
    open: int | None = None  # open(2) where the ABI has it: refused with o_direct (its second argument)
    ipc: int | None = None  # i386's ipc(2) multiplexer: its SHMGET denied with SHM_HUGETLB
    missing: tuple[tuple[str, int], ...] = _MISSING  # (name, number) of each call that gets ENOSYS
    mask: int = 0xFFFFFFFF  # applied to the call number first (x86-64: folds x32 onto x86-64)

    @property
    def denied(self) -> tuple[int, ...]:
        """The numbers of the calls denied outright."""
        return tuple(number for _, number in self.calls)

    def number(self, name: str) -> int:
        """The number of the call ``name`` in this ABI (one the filter checks)."""
        checked = {"socket": self.socket, "socketpair": self.socketpair, "clone": self.clone}
        checked |= {"unshare": self.unshare, "flock": self.flock, "fcntl": self.fcntl[0]}
        checked |= {"setrlimit": self.setrlimit, "prlimit64": self.prlimit}
        checked |= {"fadvise64": self.fadvise[0], "madvise": self.madvise, "readahead": self.readahead}
        checked |= {"setsockopt": self.setsockopt[0], "seccomp": self.seccomp, "prctl": self.prctl}
        checked["getsockopt"] = self.getsockopt[0]
        checked |= {"mmap": self.mmap, "shmget": self.shmget, "memfd_create": self.memfd_create}
        checked |= {"openat": self.openat, **dict(zip(SYNC_CALLS, self.sync, strict=True))}
        checked |= {"preadv2": self.preadv2[0][0], "ioctl": self.ioctl[0]}
        if self.ipc is not None:
            checked["ipc"] = self.ipc
        if self.open is not None:
            checked["open"] = self.open
        return {**dict(self.calls), **dict(self.missing), **checked}[name]


# The calls denied outright, per ABI (keyrings, inotify, fanotify, joining namespaces, the kernel
# interfaces most used by exploits that a bot has no use for, and syslog: the kernel's log, which
# only kernel.dmesg_restrict keeps from uid 0 without capabilities, and which a bot writes by naming
# a child as it likes and faulting it, a "segfault" line: a channel where dmesg_restrict is 0).
_DENIED_X86_64 = _calls(
    add_key=248, request_key=249, keyctl=250, inotify_init=253, inotify_init1=294, setns=308,
    fanotify_init=300, userfaultfd=323, perf_event_open=298, bpf=321, process_madvise=440, syslog=103,
)  # fmt: skip
_DENIED_I386 = _calls(
    add_key=286, request_key=287, keyctl=288, inotify_init=291, inotify_init1=332, setns=346,
    fanotify_init=338, userfaultfd=374, perf_event_open=336, bpf=357, process_madvise=440, syslog=103,
)  # fmt: skip
_DENIED_ARM = _calls(
    add_key=309, request_key=310, keyctl=311, inotify_init=316, inotify_init1=360, setns=375,
    fanotify_init=367, userfaultfd=388, perf_event_open=364, bpf=386, process_madvise=440, syslog=103,
)  # fmt: skip
_DENIED_AARCH64 = _calls(
    add_key=217, request_key=218, keyctl=219, inotify_init1=26, fanotify_init=262, setns=268,
    userfaultfd=282, perf_event_open=241, bpf=280, process_madvise=440, syslog=116,
)  # fmt: skip

# The ABIs each machine runs, native first (aarch64 has no inotify_init, only inotify_init1). Only
# i386 has an old mmap (90) and an ipc multiplexer (117): arm's are of its old ABI, which aarch64
# does not run.
# fmt: off
ABIS: dict[str, tuple[Abi, ...]] = {
    "x86_64": (
        Abi(0xC000003E, _DENIED_X86_64, 41, 53, clone=56, unshare=272, fcntl=(72,), flock=73,
            setrlimit=160, prlimit=302, fadvise=(221,), madvise=28, readahead=187,
            setsockopt=(54, 541), getsockopt=(55, 542), seccomp=317, prctl=157, mmap=9, shmget=29,
            memfd_create=319,
            openat=257, o_direct=0o40000, sync=(162, 306, 74, 75, 277, 26), open=2,
            preadv2=((327, 5), (546, 4)),  # x32's: preadv64v2(fd, iov, count, pos, flags)
            ioctl=(16, 514),  # x32's own: 514
            missing=(*_MISSING, ("io_setup", 206), ("io_setup_x32", 543), ("mincore", 27), ("quotactl", 179)),
            mask=~_X32_BIT & 0xFFFFFFFF),
        Abi(0x40000003, (*_DENIED_I386, ("socketcall", 102), ("old_mmap", 90)), 359, 360, clone=120,
            unshare=310, fcntl=(55, 221), flock=143, setrlimit=75, prlimit=340, fadvise=(250, 272),
            madvise=219, readahead=225, setsockopt=(366,), getsockopt=(365,), seccomp=354, prctl=172,
            mmap=192, shmget=395, memfd_create=356, ipc=117,
            openat=295, o_direct=0o40000, sync=(36, 344, 118, 148, 314, 144), open=5,
            preadv2=((378, 5),), ioctl=(54,),
            missing=(*_MISSING, ("io_setup", 245), ("mincore", 218), ("quotactl", 131))),
    ),
    "aarch64": (
        Abi(0xC00000B7, _DENIED_AARCH64, 198, 199, clone=220, unshare=97, fcntl=(25,), flock=32,
            setrlimit=164, prlimit=261, fadvise=(223,), madvise=233, readahead=213,
            setsockopt=(208,), getsockopt=(209,), seccomp=277, prctl=167, mmap=222, shmget=194,
            memfd_create=279,
            openat=56, o_direct=0o200000, sync=(81, 267, 82, 83, 84, 227),
            preadv2=((286, 5),), ioctl=(29,),
            missing=(*_MISSING, ("io_setup", 0), ("mincore", 232), ("quotactl", 60))),
        Abi(0x40000028, _DENIED_ARM, 281, 288, clone=120, unshare=337, fcntl=(55, 221), flock=143,
            setrlimit=75, prlimit=369, fadvise=(270,), madvise=220, readahead=225,
            setsockopt=(294,), getsockopt=(295,), seccomp=383, prctl=172, mmap=192, shmget=307,
            memfd_create=385,
            openat=322, o_direct=0o200000, sync=(36, 373, 118, 148, 341, 144), open=5,
            preadv2=((392, 5),), ioctl=(54,),
            missing=(*_MISSING, ("io_setup", 243), ("mincore", 219), ("quotactl", 131))),
    ),
}
# fmt: on
#: What the filter closes, in a few words (for ``codecup doctor`` and the records).
SUMMARY = (
    "no unix sockets of the machine, no kernel keyrings, no inotify or fanotify, no new namespaces, "
    "no io_uring or kernel aio, no locks on the machine's files, no core dumps to a helper, "
    "no dropping or probing of the machine's file cache, no direct I/O or sync (waits no kill ends), "
    "no write hints or extent-cache marks on the machine's files, no quotactl or kernel log, "
    "no netlink or compiled filters (kernel memory no limit counts), no socket protocols a module brings, "
    "no IPv6 flow labels or secret memory, no socket cookies (a counter of the machine's), "
    "no huge pages (the machine's pool, which no memory limit counts)"
)

Instruction = tuple[int, int, int, int]  # code, jump if true, jump if false, constant
_DENY: Instruction = (_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.EPERM)
_Item = tuple[int, str | int, str | int, int | str] | str  # an instruction with labels, or a label
_RETURNS = (
    "noop", "nosys", "einval", "eopnotsupp", "enotty", "eprotonosupport", "enoprotoopt", "allow", "deny",
)  # fmt: skip
"""The labels of the filter's answers: each ABI's block has its own (:func:`_own_returns`)."""
_IOCTL_ANSWERS = {errno.ENOTTY: "enotty", errno.EOPNOTSUPP: "eopnotsupp"}  # REFUSED_IOCTLS' errnos' labels


def _own_returns(block: list[_Item], i: int) -> list[_Item]:
    """ABI ``i``'s block, its jumps to an answer (:data:`_RETURNS`) made to its own copy at its end:
    a conditional jump reaches 255 instructions at most, and the blocks grow with what they check."""

    def own(label: str | int) -> str | int:
        return f"{label}_{i}" if label in _RETURNS else label

    renamed: list[_Item] = [
        item if isinstance(item, str) else (item[0], own(item[1]), own(item[2]), item[3]) for item in block
    ]
    results = {
        "noop": SECCOMP_RET_ERRNO | 0,  # the call is not made and returns 0
        "nosys": SECCOMP_RET_ERRNO | errno.ENOSYS,
        "einval": SECCOMP_RET_ERRNO | errno.EINVAL,
        "eopnotsupp": SECCOMP_RET_ERRNO | errno.EOPNOTSUPP,
        "enotty": SECCOMP_RET_ERRNO | errno.ENOTTY,
        "eprotonosupport": SECCOMP_RET_ERRNO | errno.EPROTONOSUPPORT,
        "enoprotoopt": SECCOMP_RET_ERRNO | errno.ENOPROTOOPT,
        "allow": SECCOMP_RET_ALLOW,
        "deny": SECCOMP_RET_ERRNO | errno.EPERM,
    }
    for label in _RETURNS:
        renamed += [f"{label}_{i}", (_RET_K, 0, 0, results[label])]
    return renamed


def _one_of(values: tuple[int, ...], then: str, otherwise: str) -> list[_Item]:
    """Jumps to ``then`` where the loaded word is one of ``values``, else to ``otherwise`` (labels of
    conditional jumps, which :func:`_own_returns` makes the block's own, unlike a ``ja``'s)."""
    *first, last = values
    return [*((_JEQ_K, then, 0, value) for value in first), (_JEQ_K, then, otherwise, last)]


def _socket_types(label: str, family: int) -> list[_Item]:
    """From the label ``type{label}``: ``socket``'s type (its low 4 bits) and protocol checked
    against ``family``'s :data:`SOCKET_PROTOCOLS`; any other is ``EPROTONOSUPPORT``."""
    kinds = SOCKET_PROTOCOLS[family]
    items: list[_Item] = [
        f"type{label}",
        (_LD_W_ABS, 0, 0, _ARG1),
        (_AND_K, 0, 0, _SOCK_TYPE_MASK),
        *_one_of_each(tuple((kind, f"protocol{label}_{kind}") for kind in kinds), "eprotonosupport"),
    ]
    for kind, protocols in kinds.items():
        items += [
            f"protocol{label}_{kind}",
            (_LD_W_ABS, 0, 0, _ARG2),
            *_one_of(protocols, "allow", "eprotonosupport"),
        ]
    return items


def _one_of_each(cases: tuple[tuple[int, str], ...], otherwise: str) -> list[_Item]:
    """Jumps to the label of the case whose value the loaded word is, else to ``otherwise``."""
    *first, (value, then) = cases
    return [*((_JEQ_K, label, 0, case) for case, label in first), (_JEQ_K, then, otherwise, value)]


def _assemble(items: list[_Item]) -> list[Instruction]:
    """Resolve the labels (strings) of forward jumps into offsets (the constant of a ``ja``)."""
    where: dict[str, int] = {}
    count = 0
    for item in items:
        if isinstance(item, str):
            where[item] = count
        else:
            count += 1
    code: list[Instruction] = []
    for item in items:
        if isinstance(item, str):
            continue
        op, jt, jf, k = item
        here = len(code) + 1
        offsets = [where[j] - here if isinstance(j, str) else j for j in (jt, jf)]
        assert all(0 <= o < 256 for o in offsets), "a jump out of reach"
        constant = where[k] - here if isinstance(k, str) else k
        assert op == _JA or not isinstance(k, str), "a label where a constant is meant"
        code.append((op, offsets[0], offsets[1], constant))
    return code


def program(abis: tuple[Abi, ...]) -> list[Instruction]:
    """The filter as ``(code, jt, jf, k)`` instructions: per ABI, the calls denied outright fail
    with ``EPERM``, ``socket`` outside ALLOWED_FAMILIES (within them, a type and protocol not of
    SOCKET_PROTOCOLS fail with ``EPROTONOSUPPORT``), ``socketpair``
    but of PAIR_TYPES (of them, a protocol not of PAIR_PROTOCOLS: ``EPROTONOSUPPORT``) and
    ``clone`` or ``unshare`` with NAMESPACE_FLAGS too, ``fcntl`` with
    DENIED_FCNTL, ``prlimit64`` setting RLIMIT_CORE and asking for the old limit, and ``mmap``, ``shmget`` (or
    i386's ``ipc`` SHMGET) and ``memfd_create`` asking for huge pages; ``open``, ``openat`` and
    ``fcntl(F_SETFL)`` with ``O_DIRECT`` fail with ``EINVAL``; ``setrlimit``, and ``prlimit64`` not
    asking for the old limit, setting RLIMIT_CORE, ``flock``, ``fcntl`` with NOOP_FCNTL,
    ``sync``, ``syncfs``, ``fsync``, ``fdatasync``, ``sync_file_range`` and ``msync`` return 0 unmade;
    ``ioctl`` with REFUSED_IOCTLS fails with each one's ``ENOTTY`` or ``EOPNOTSUPP``;
    ``preadv2`` with RWF_NOWAIT fails with ``EOPNOTSUPP``, ``getsockopt`` of DENIED_SOCKET_READS at
    ``SOL_SOCKET`` with ``ENOPROTOOPT``; the ABI's ``missing`` calls get ``ENOSYS``,
    and everything else is allowed; an ABI the machine does not run gets ``ENOSYS``."""
    items: list[_Item] = []
    for i, abi in enumerate(abis):
        # another ABI's calls: on to the next block, past this one, however long
        items += [(_LD_W_ABS, 0, 0, _ARCH), (_JEQ_K, 1, 0, abi.arch), (_JA, 0, 0, f"abi{i + 1}")]
        block: list[_Item] = [(_LD_W_ABS, 0, 0, _NR)]
        if abi.mask != 0xFFFFFFFF:
            block.append((_AND_K, 0, 0, abi.mask))
        block += [(_JEQ_K, "deny", 0, number) for number in abi.denied]
        block += [
            (_JEQ_K, f"ns{i}", 0, abi.clone),
            (_JEQ_K, f"ns{i}", 0, abi.unshare),
            *((_JEQ_K, "nosys", 0, number) for _, number in abi.missing),
            *((_JEQ_K, f"fcntl{i}", 0, number) for number in abi.fcntl),
            (_JEQ_K, "noop", 0, abi.flock),
            (_JEQ_K, "noop", 0, abi.readahead),
            *((_JEQ_K, "noop", 0, number) for number in abi.fadvise),
            *((_JEQ_K, "noop", 0, number) for number in abi.sync),
            *((_JEQ_K, f"preadv2{i}_{flags}", 0, number) for number, flags in abi.preadv2),
            *((_JEQ_K, f"ioctl{i}", 0, number) for number in abi.ioctl),
            (_JEQ_K, f"openat{i}", 0, abi.openat),
            *(() if abi.open is None else ((_JEQ_K, f"open{i}", 0, abi.open),)),
            (_JEQ_K, f"madvise{i}", 0, abi.madvise),
            (_JEQ_K, f"setrlimit{i}", 0, abi.setrlimit),
            (_JEQ_K, f"prlimit{i}", 0, abi.prlimit),
            *((_JEQ_K, f"sockopt{i}", 0, number) for number in abi.setsockopt),
            *((_JEQ_K, f"getsockopt{i}", 0, number) for number in abi.getsockopt),
            (_JEQ_K, f"seccomp{i}", 0, abi.seccomp),
            (_JEQ_K, f"prctl{i}", 0, abi.prctl),
            (_JEQ_K, f"mmap{i}", 0, abi.mmap),
            (_JEQ_K, f"shmget{i}", 0, abi.shmget),
            (_JEQ_K, f"memfd{i}", 0, abi.memfd_create),
            *(() if abi.ipc is None else ((_JEQ_K, f"ipc{i}", 0, abi.ipc),)),
            (_JEQ_K, f"socket{i}", 0, abi.socket),
            (_JEQ_K, f"pair{i}", "allow", abi.socketpair),
            f"socket{i}",  # socket(family, type, protocol)
            (_LD_W_ABS, 0, 0, _ARG0),
            *((_JEQ_K, f"type{i}_{family}", 0, family) for family in ALLOWED_FAMILIES),
            _DENY,
            *(item for family in ALLOWED_FAMILIES for item in _socket_types(f"{i}_{family}", family)),
            f"pair{i}",  # socketpair(family, type, protocol, fds)
            (_LD_W_ABS, 0, 0, _ARG0),
            (_JEQ_K, 0, "deny", int(socket.AF_UNIX)),
            (_LD_W_ABS, 0, 0, _ARG1),
            (_AND_K, 0, 0, _SOCK_TYPE_MASK),
            *((_JEQ_K, f"pair_protocol{i}", 0, kind) for kind in PAIR_TYPES),
            _DENY,
            f"pair_protocol{i}",
            (_LD_W_ABS, 0, 0, _ARG2),
            *_one_of(PAIR_PROTOCOLS, "allow", "eprotonosupport"),
            f"ns{i}",
            (_LD_W_ABS, 0, 0, _ARG0),
            (_JSET_K, "deny", "allow", NAMESPACE_FLAGS),
            f"setrlimit{i}",
            (_LD_W_ABS, 0, 0, _ARG0),
            (_JEQ_K, "noop", "allow", RLIMIT_CORE),
            f"prlimit{i}",  # prlimit64(pid, resource, new, old): reading the limit is fine
            (_LD_W_ABS, 0, 0, _ARG1),
            (_JEQ_K, 0, "allow", RLIMIT_CORE),
            (_LD_W_ABS, 0, 0, _ARG2),
            (_JEQ_K, 0, f"prlimit_old{i}", 0),
            (_LD_W_ABS, 0, 0, _ARG2_HIGH),
            (_JEQ_K, "allow", f"prlimit_old{i}", 0),
            # Setting it: a no-op where the old limit is not asked for (glibc's setrlimit), else
            # denied (a no-op would leave the old limit unwritten, the caller reading garbage).
            f"prlimit_old{i}",
            (_LD_W_ABS, 0, 0, _ARG3),
            (_JEQ_K, 0, "deny", 0),
            (_LD_W_ABS, 0, 0, _ARG3_HIGH),
            (_JEQ_K, "noop", "deny", 0),
            f"sockopt{i}",  # setsockopt(fd, level, option, value, length)
            (_LD_W_ABS, 0, 0, _ARG1),
            (_JEQ_K, f"solsocket{i}", 0, SOL_SOCKET),
            (_JEQ_K, f"udpopt{i}", 0, IPPROTO_UDP),
            (_JEQ_K, f"udpopt{i}", 0, SOL_UDPLITE),
            (_JEQ_K, 0, "allow", IPPROTO_IPV6),
            (_LD_W_ABS, 0, 0, _ARG2),
            (_JEQ_K, "deny", "allow", IPV6_FLOWLABEL_MGR),
            f"udpopt{i}",
            (_LD_W_ABS, 0, 0, _ARG2),
            *((_JEQ_K, "deny", 0, option) for option in DENIED_UDP_OPTIONS),
            (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
            f"solsocket{i}",
            (_LD_W_ABS, 0, 0, _ARG2),
            *((_JEQ_K, "deny", 0, option) for option in DENIED_SOCKET_OPTIONS),
            (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
            f"getsockopt{i}",  # getsockopt(fd, level, option, value, length)
            (_LD_W_ABS, 0, 0, _ARG1),
            (_JEQ_K, 0, "allow", SOL_SOCKET),
            (_LD_W_ABS, 0, 0, _ARG2),
            *_one_of(DENIED_SOCKET_READS, "enoprotoopt", "allow"),
            f"seccomp{i}",
            (_LD_W_ABS, 0, 0, _ARG0),
            (_JEQ_K, "deny", "allow", SECCOMP_SET_MODE_FILTER),
            f"prctl{i}",
            (_LD_W_ABS, 0, 0, _ARG0),
            (_JEQ_K, 0, "allow", PR_SET_SECCOMP),
            (_LD_W_ABS, 0, 0, _ARG1),
            (_JEQ_K, "deny", "allow", SECCOMP_MODE_FILTER),
            f"mmap{i}",  # mmap(addr, length, prot, flags, fd, offset)
            (_LD_W_ABS, 0, 0, _ARG3),
            (_JSET_K, "deny", "allow", MAP_HUGETLB),
            f"shmget{i}",  # shmget(key, size, shmflg)
            (_LD_W_ABS, 0, 0, _ARG2),
            (_JSET_K, "deny", "allow", SHM_HUGETLB),
            f"memfd{i}",  # memfd_create(name, flags)
            (_LD_W_ABS, 0, 0, _ARG1),
            (_JSET_K, "deny", "allow", MFD_HUGETLB),
            *(
                ()
                if abi.ipc is None
                else (
                    f"ipc{i}",  # ipc(call, first, second, third, ptr, fifth): SHMGET's shmflg is third
                    (_LD_W_ABS, 0, 0, _ARG0),
                    (_AND_K, 0, 0, _IPC_CALL_MASK),
                    (_JEQ_K, 0, "allow", IPC_SHMGET),
                    (_LD_W_ABS, 0, 0, _ARG3),
                    (_JSET_K, "deny", "allow", SHM_HUGETLB),
                )
            ),
            f"openat{i}",  # openat(dirfd, path, flags, mode)
            (_LD_W_ABS, 0, 0, _ARG2),
            (_JSET_K, "einval", "allow", abi.o_direct),
            *(
                ()
                if abi.open is None
                else (
                    f"open{i}",  # open(path, flags, mode)
                    (_LD_W_ABS, 0, 0, _ARG1),
                    (_JSET_K, "einval", "allow", abi.o_direct),
                )
            ),
            *(
                item
                for _, flags in abi.preadv2  # preadv2(fd, iov, count, pos_low, pos_high, flags)
                for item in (
                    f"preadv2{i}_{flags}",
                    (_LD_W_ABS, 0, 0, _ARG4 if flags == 4 else _ARG5),
                    (_JSET_K, "eopnotsupp", "allow", RWF_NOWAIT),
                )
            ),
            f"ioctl{i}",  # ioctl(fd, command, argument): the kernel reads the command as an unsigned int
            (_LD_W_ABS, 0, 0, _ARG1),
            *((_JEQ_K, _IOCTL_ANSWERS[answer], 0, command) for command, answer in REFUSED_IOCTLS),
            (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
            f"madvise{i}",
            (_LD_W_ABS, 0, 0, _ARG2),
            *((_JEQ_K, "noop", 0, advice) for advice in NOOP_ADVICE),
            (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
            f"fcntl{i}",
            (_LD_W_ABS, 0, 0, _ARG1),
            *((_JEQ_K, "deny", 0, command) for command in DENIED_FCNTL),
            *((_JEQ_K, "noop", 0, command) for command in NOOP_FCNTL),
            (_JEQ_K, 0, "allow", F_SETFL),
            (_LD_W_ABS, 0, 0, _ARG2),
            (_JSET_K, "einval", "allow", abi.o_direct),
        ]
        items += [*_own_returns(block, i), f"abi{i + 1}"]
    items.append((_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS))  # an ABI the machine does not run
    return _assemble(items)


GROUP_CALLS: dict[int, tuple[int, int]] = {
    0xC000003E: (109, 112),  # x86-64 (and x32, folded onto it): setpgid, setsid
    0x40000003: (57, 66),  # i386
    0xC00000B7: (154, 157),  # aarch64
    0x40000028: (57, 66),  # arm
}
"""Per ABI, the numbers of ``setpgid`` and ``setsid``: the calls by which a process leaves its
process group (see :func:`group_program`)."""


def group_program(abis: tuple[Abi, ...]) -> list[Instruction]:
    """A second filter, for a bot without a pid namespace or without a cgroup, which is frozen
    (without a cgroup) and killed (without a pid namespace, also after its cgroup's kill) as its
    process group: ``setsid`` and ``setpgid`` fail with ``EPERM``, so that no process of the bot
    leaves the group. A red team's ``setsid`` child computed in the opponent's time (5.2 s of
    processor in 5.5 s), and one that cleared its environment outlived the run. Installed before
    the main filter, which refuses any filter after it."""
    items: list[_Item] = []
    for i, abi in enumerate(abis):
        setpgid, setsid = GROUP_CALLS[abi.arch]
        items += [(_LD_W_ABS, 0, 0, _ARCH), (_JEQ_K, 1, 0, abi.arch), (_JA, 0, 0, f"abi{i + 1}")]
        items.append((_LD_W_ABS, 0, 0, _NR))
        if abi.mask != 0xFFFFFFFF:
            items.append((_AND_K, 0, 0, abi.mask))
        items += [(_JEQ_K, "deny", 0, setpgid), (_JEQ_K, "deny", "allow", setsid), f"abi{i + 1}"]
    items += ["allow", (_RET_K, 0, 0, SECCOMP_RET_ALLOW), "deny", _DENY]
    return _assemble(items)


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _build(code: list[Instruction]) -> tuple[ctypes.Array[_SockFilter], _SockFprog]:
    instructions = (_SockFilter * len(code))(*(_SockFilter(*insn) for insn in code))
    return instructions, _SockFprog(len(code), instructions)


_MACHINE_ABIS = ABIS.get(os.uname().machine) if linux.IS_LINUX else None
_FILTER = _build(program(_MACHINE_ABIS)) if _MACHINE_ABIS else None
_GROUP_FILTER = _build(group_program(_MACHINE_ABIS)) if _MACHINE_ABIS else None


def available() -> bool:
    """True when this machine's system call ABIs are known, so the filter can be built."""
    return _FILTER is not None


def install(keep_group: bool = False) -> None:
    """Deny the calls to this process and everything it will run (needs ``no_new_privs``);
    ``keep_group``: and leaving its process group (:func:`group_program`)."""
    if _FILTER is None or _GROUP_FILTER is None:
        raise OSError(errno.ENOSYS, f"no system call filter for {os.uname().machine}")
    if keep_group:  # first: the main filter refuses every filter after it
        linux.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(_GROUP_FILTER[1]))
    linux.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(_FILTER[1]))
