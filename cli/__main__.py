"""``python -m cli`` runs the ``rag`` command line."""

from cli.main import main

main()
