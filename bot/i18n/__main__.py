"""``python -m bot.i18n extract|update|compile|check``: see :mod:`bot.i18n.catalogues`."""

import sys

from bot.i18n.catalogues import main

raise SystemExit(main(sys.argv[1:]))
