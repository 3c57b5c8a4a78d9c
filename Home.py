"""RAG Memory Workbench: the entry point (`streamlit run Home.py`). The app shell is components/app_shell.py."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the entry point guarantees no model-hub traffic

from components.app_shell import main  # noqa: E402

if __name__ == "__main__":
    main()
