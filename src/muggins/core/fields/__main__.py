"""``python -m muggins.core.fields [--check]``: regenerate (or check) every part generated from the field tables."""

import sys

from muggins.core.fields import main

sys.exit(main())
