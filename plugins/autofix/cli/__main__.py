"""``python -m autofix.cli``: the ``autofix`` command."""

import sys

from autofix.cli import main

sys.exit(main())
