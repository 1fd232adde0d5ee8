"""``python -m conformance``: the ``euchre-spec`` command."""

import sys

from conformance.cli import main

sys.exit(main())
