"""Who may see and change what (issue 32): users, roles per collection, tokens, the audit log.

``principal`` says who acts; ``store`` keeps users, grants, tokens and the audit log in PostgreSQL;
``service`` manages them; ``scope`` is the one place that checks every operation of the app, the CLI
and the MCP server before it reaches the services. Login methods (none, shared password, OIDC) stay in
``services/access.py``. Above every other service package: it wraps them, none of them calls it.

May import: `services.errors`.
"""
