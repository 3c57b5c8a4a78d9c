"""Streamlit building blocks shared by the pages. Imports services, never pages."""
