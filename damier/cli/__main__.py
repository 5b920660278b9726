"""``python -m damier.cli``: the ``damier`` command."""

from damier.cli import main

main()
