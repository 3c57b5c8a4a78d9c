"""The ``rag`` command line and the MCP server: thin adapters over ``services``.

Every command maps to one or two service calls (see ``cli/main.py`` for the
command tree). The services container is built lazily, once per process, by
:func:`cli.context.get_services`; tests and embedders hand in their own with
:func:`cli.context.set_services`.
"""
