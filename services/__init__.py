"""Plain-Python services behind the Streamlit app, the CLI and the MCP server.

Nothing in this package may import streamlit (a test enforces it).
"""
