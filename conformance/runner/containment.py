"""Nothing an engine starts outlives it: each engine runs under a keeper that is its subreaper.

Killing an engine's process group (what the runner did alone before) misses what left the
group: a daemon that double-forks and calls ``setsid()``, a child moved into a process
group of its own. Such a process is orphaned when its parent exits, and Linux hands an
orphan to its nearest living ancestor that is a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``), else to init. So on Linux the runner does not start an
engine directly: it starts this file as a small keeper process (``python -I -S
containment.py FD ARGV...``) that marks itself a subreaper and forks the engine in a
process group of its own. Every descendant of the engine, however it escapes, stays a
descendant of the keeper, which:

- reaps whatever is handed to it (so no zombie piles up, and no ``waitpid`` of the runner's
  is ever taken by a stranger: the runner itself is *not* a subreaper, which matters in a
  pytest process or a ``check -j N`` worker that has children of its own);
- when the engine exits (a crash, a ``bye``), or when the runner asks (SIGTERM: a timeout,
  a restart, the end of the run, the runner's own SIGTERM or Ctrl-C), or when the runner
  is gone (its parent changed; looked at four times a second), kills the engine's process
  group, then every descendant left, stopping each with SIGSTOP before the SIGKILL so that
  none can fork meanwhile, until none is left;
- tells the runner on the pipe FD ``started PID`` once the engine's program is running
  (``error ERRNO`` if it could not be run, so that a missing program is reported as
  before) and, last, ``left N``: how many processes had escaped the engine's process group
  and were still alive when it was gone;
- exits as the engine did (the same code, or killed by the same signal), so the runner's
  report of an exit status is the engine's.

One keeper per engine does the everyday work (orphans of the runner's would have nothing
to say which engine started them, and reaping them with ``waitpid(-1)`` would race the
runner's own ``waitpid`` calls). The keeper costs one small interpreter (about 30 ms and a
few MB) per engine start.

But the keeper is within the engine's reach: an engine (or a daemon of its) can SIGKILL or
SIGSTOP it. So the process that starts engines is a subreaper too (:func:`become_subreaper`):
whatever a dead keeper leaves (the engine, its daemons) is handed to the runner, not to init.
When a keeper has not done its job (no ``left N`` line: killed, or stopped and then killed by
the runner), the runner kills them itself (:func:`sweep`): every process handed to it that is
not in its own session (nothing an engine starts can be: the keeper runs in a session of its
own, and a process can only join a group of its own session), not one of the keepers it
still runs, and started after the failed keeper, with all their descendants. Those outside
the engine's process group are counted as left behind, as the keeper counts them.

Elsewhere (macOS, Windows, or a Python without ``sys.executable``) and when
``EUCHRE_SPEC_CONTAINMENT=group`` is set, the engine is started directly in a session of
its own and its process group is what is killed, as before: a process that leaves the
group is then neither found nor counted (docs/cli.md, "Process containment").

This file is run by path with ``-I -S`` (no site, no user environment) and imports nothing
from the package, so that the keeper starts quickly and behaves the same in any checkout.
"""

from __future__ import annotations

import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
KEEPER = os.path.abspath(__file__)
WATCH = 0.25             # seconds between the keeper's checks that the runner is still there
MAX_ROUNDS = 500         # rounds of stop-and-kill before the keeper gives up on a fork storm
# what the keeper waits for (looked up by name: Windows has no SIGCHLD, and imports this module too)
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGCHLD", "SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))


def available() -> bool:
    """Whether engines can be started under a keeper here (Linux with /proc, a Python
    executable to run it with, and not turned off by ``EUCHRE_SPEC_CONTAINMENT=group``)."""
    return (sys.platform.startswith("linux") and bool(sys.executable) and os.path.isdir("/proc/self")
            and os.environ.get("EUCHRE_SPEC_CONTAINMENT", "") != "group")


def keeper_argv(argv: list[str], report_fd: int) -> list[str]:
    """The command line that runs ``argv`` under a keeper reporting on ``report_fd``."""
    return [sys.executable, "-I", "-S", KEEPER, str(report_fd), *argv]


def die_with_parent() -> None:
    """Have this process sent SIGTERM when its parent dies (Linux; nothing elsewhere): a
    forked ``check -j N`` worker, busy with an engine that does not answer, would not
    otherwise notice before its next message to a parent that was SIGKILLed."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:          # it died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)


_SUBREAPER_OF: int | None = None     # the pid that has made itself a subreaper (a fork must again)


def become_subreaper() -> bool:
    """Make this process the child subreaper of everything it starts (Linux; once per
    process: the mark is not inherited across ``fork``); whether it is one."""
    global _SUBREAPER_OF
    if _SUBREAPER_OF == os.getpid():
        return True
    try:
        import ctypes
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    _SUBREAPER_OF = os.getpid()
    return True


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot, from /proc), or None if it is gone."""
    entry = _stat(pid)
    return entry[4] if entry is not None else None


def process_state(pid: int) -> str | None:
    """The state letter of ``pid`` (``T``: stopped, ``Z``: a zombie), or None if it is gone."""
    entry = _stat(pid)
    return entry[3] if entry is not None else None


def _stat(pid: int) -> tuple[int, int, int, str, int] | None:
    """(parent, process group, session, state letter, start time) of ``pid``, from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()          # the name in (...) may hold anything
    if len(fields) < 20:
        return None
    return (int(fields[1]), int(fields[2]), int(fields[3]), fields[0].decode("ascii", "replace"), int(fields[19]))


def sweep(spared: set[int], since: int, engine_group: int) -> int:
    """In the runner, after a keeper that did not do its job has ended: kill every process
    that was handed to this process (a subreaper) from outside its own session, started at
    or after ``since`` (the keeper's start), and is not in ``spared`` (the keepers of other
    engines still running), with all its descendants, until none is left; reap those that
    are this process's children. How many of them were outside ``engine_group``."""
    me, session = os.getpid(), os.getsid(0)
    counted: set[int] = set()
    for _ in range(MAX_ROUNDS):
        table: dict[int, tuple[int, int, int, str, int]] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                entry = _stat(int(name))
                if entry is not None:
                    table[int(name)] = entry
        children: dict[int, list[int]] = {}
        for pid, entry in table.items():
            children.setdefault(entry[0], []).append(pid)
        roots = [pid for pid in children.get(me, ()) if pid not in spared
                 and table[pid][2] != session and table[pid][4] >= since]
        for pid in roots:
            if table[pid][3] in ("Z", "X"):
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
        living, todo = [], list(roots)
        while todo:
            pid = todo.pop()
            if table[pid][3] not in ("Z", "X"):
                living.append(pid)
            todo.extend(children.get(pid, ()))
        if not living and not any(table[pid][3] in ("Z", "X") for pid in roots):
            break
        counted.update(pid for pid in living if table[pid][1] != engine_group)
        for number in (signal.SIGSTOP, signal.SIGKILL):
            for pid in living:
                try:
                    os.kill(pid, number)
                except OSError:
                    pass
        time.sleep(0.001)
    return len(counted)


# -- in the keeper ------------------------------------------------------------------------------

def _processes() -> dict[int, tuple[int, int, str]]:
    """Every process: pid -> (parent pid, process group, state letter), from /proc."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()     # the name in (...) may hold anything
        if len(fields) >= 3:
            table[int(name)] = (int(fields[1]), int(fields[2]), fields[0].decode("ascii", "replace"))
    return table


def descendants(root: int) -> list[tuple[int, int]]:
    """The living (not zombie) descendants of ``root``: (pid, process group) pairs."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        parent, group, state = table[pid]
        if state not in ("Z", "X"):
            found.append((pid, group))
        todo.extend(children.get(pid, ()))
    return found


def _engine_ended(engine: int) -> bool:
    """Collect every child that has ended but the engine; whether the engine has ended. The
    engine is left unreaped (a zombie) so that its pid, and so its process group's id,
    cannot be taken by another process before the group is killed."""
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return False
        if info is None:
            return False
        if info.si_pid == engine:
            return True
        try:
            os.waitpid(info.si_pid, 0)
        except ChildProcessError:
            pass


def _reap(engine: int, status: int | None) -> int | None:
    """Collect every child that has ended; the engine's wait status once it has."""
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == engine:
            status = code


def _kill_everything(engine: int) -> tuple[int, int]:
    """Kill the engine's group and every other descendant until none is left; how many of
    them had left the group, and the engine's wait status."""
    me = os.getpid()
    status = None
    try:
        os.killpg(engine, signal.SIGKILL)             # (the engine is not reaped yet: see _engine_ended)
    except OSError:
        pass
    try:
        os.kill(engine, signal.SIGKILL)               # (a zombie already, if it ended by itself)
    except OSError:
        pass
    escaped: set[int] = set()
    for _ in range(MAX_ROUNDS):
        status = _reap(engine, status)
        found = descendants(me)
        if not found:
            break
        escaped.update(pid for pid, group in found if group != engine)   # the group's are dying already
        for pid, _ in found:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
        for pid, _ in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.001)
    if status is None:
        try:
            status = os.waitpid(engine, 0)[1]
        except ChildProcessError:
            status = 0
    _reap(engine, status)
    return len(escaped), status


def _exec_engine(argv: list[str], report_fd: int, errors: int) -> None:
    """In the engine's process: a group of its own, the signals as a program expects them
    (Python ignores SIGPIPE and SIGXFSZ, and the keeper blocks some), then the program."""
    try:
        os.setpgid(0, 0)
        for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        os.close(report_fd)
        os.execvp(argv[0], argv)
    except OSError as exc:
        os.write(errors, str(exc.errno or 0).encode())
    finally:
        os._exit(127)


def _exit_like(status: int) -> None:
    """End the keeper as the engine ended: with its code, or by its signal."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))     # the engine's crash, not a core of ours
            signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
            os.kill(os.getpid(), number)
        except (OSError, ValueError):
            pass
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def keep(report_fd: int, argv: list[str]) -> None:
    """The keeper's life: become a subreaper, start the engine, watch, kill, report, exit."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    parent = os.getppid()
    report = os.fdopen(report_fd, "w", buffering=1)
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        report.write(f"nosubreaper {ctypes.get_errno()}\n")      # the group alone, as elsewhere
    errors_read, errors_write = os.pipe2(os.O_CLOEXEC)
    engine = os.fork()
    if engine == 0:
        os.close(errors_read)
        _exec_engine(argv, report_fd, errors_write)
    os.close(errors_write)
    failed = os.read(errors_read, 64)
    os.close(errors_read)
    if failed:
        report.write(f"error {failed.decode()}\n")
        report.close()
        os.waitpid(engine, 0)
        os._exit(127)
    report.write(f"started {engine}\n")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):           # the engine's pipes are its own: the runner sees their end when it ends
        os.dup2(devnull, fd)
    os.close(devnull)
    while True:
        received = signal.sigtimedwait(_SIGNALS, WATCH)
        if _engine_ended(engine):
            break                                     # the engine ended
        if received is not None and received.si_signo != signal.SIGCHLD:
            break                                     # the runner asks: end it now
        if os.getppid() != parent:
            break                                     # the runner is gone
    left, status = _kill_everything(engine)
    report.write(f"left {left}\n")
    report.close()
    _exit_like(status)


if __name__ == "__main__":
    keep(int(sys.argv[1]), sys.argv[2:])
