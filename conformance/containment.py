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

One keeper per engine, rather than the runner as the subreaper of all its engines: orphans
would then be the runner's children with nothing to say which engine (or which test)
started them, and reaping them would race the runner's own ``waitpid`` calls. The keeper
costs one small interpreter (about 30 ms and a few MB) per engine start.

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
