"""``python -m shared.cli``: the ``ledpanel`` command."""

import sys

from shared.cli import main

sys.exit(main())
