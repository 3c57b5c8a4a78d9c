"""The MCP server: the workbench's services as tools for AI agents (``rag mcp`` starts it).

A thin adapter over ``services``, like the CLI: ``server.py`` builds the server,
``context.py`` holds what every tool module shares, and each ``*_tools.py``
registers one group of tools.
"""
