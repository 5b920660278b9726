"""``python -m damier``: the ``damier`` command."""

from damier.cli import main

main()
