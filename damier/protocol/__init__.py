"""The text engine protocol: ``damier engine khet`` speaks it on stdin/stdout (``engine``), and the ``ext:``
agent drives any program that speaks it (``external``). See ``docs/protocol.md``."""
