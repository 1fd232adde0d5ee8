"""``python -m conformance.cli``, as ``euchre-spec``."""

import sys

from conformance.cli.app import main

sys.exit(main())
