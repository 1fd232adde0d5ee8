"""Exits at once: before reading anything or saying hello, it writes a complaint to
stderr and exits with status 7.

Expected outcome: ``crash`` for every case, with the exit status and stderr reported."""

import sys

sys.stderr.write("exit_at_once.py: cannot find my configuration file, giving up\n")
sys.exit(7)
