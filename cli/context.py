"""The CLI's services container: the process-wide one of :mod:`services.process` (re-exported here)."""

from services.process import close_services, get_services, get_settings, set_services

__all__ = ["close_services", "get_services", "get_settings", "set_services"]
