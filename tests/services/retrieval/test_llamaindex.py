"""The retrieval pieces through LlamaIndex's own interfaces, on the real embedded PostgreSQL."""

from __future__ import annotations

import json

import pytest
from llama_index.core import VectorStoreIndex
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeRelationship, NodeWithScore, QueryBundle, RelatedNodeInfo, TextNode
from llama_index.core.vector_stores.types import (
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
)

from services.errors import ValidationFailed
from services.retrieval.llamaindex_adapter import (
    AskRetriever,
    ChunkVectorStore,
    GraphWalkRetriever,
    KeywordRetriever,
    LLMReranker,
    MMRPostprocessor,
    SemanticRetriever,
    WorkbenchEmbedding,
)
from services.settings import Settings
from services.stores import chunk_store
from services.stores.llm import LLMClient
from tests.utils.fake_openai import FakeOpenAI

PASSAGES = {
    "otters": ("Sea otters hold hands while they sleep so they do not drift apart.", {"year": 2001, "kind": "animal"}),
    "bridges": ("The Golden Gate Bridge opened in 1937 and is painted International Orange.", {"year": 1937,
                                                                                              "kind": "structure"}),
    "tides": ("Spring tides happen near full and new moons, when the sun and moon align.", {"year": 1990,
                                                                                             "kind": "nature"}),
}


@pytest.fixture
def index(services, collection):
    store = ChunkVectorStore(collection=collection, collections=services.collections, documents=services.documents,
                             deletion=services.deletion)
    embed = WorkbenchEmbedding(services.embedder)
    nodes = [TextNode(text=text, metadata={"title": ref.capitalize(), **meta}, embedding=embed.get_text_embedding(text),
                      relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=ref)})  # one source document each
             for ref, (text, meta) in PASSAGES.items()]
    assert store.add(nodes) == [n.node_id for n in nodes]
    return VectorStoreIndex.from_vector_store(store, embed_model=embed), store, nodes


def test_a_vector_store_index_retrieves_from_the_collection(services, collection, index):
    idx, store, nodes = index
    found = idx.as_retriever(similarity_top_k=2).retrieve("Which animals sleep holding hands?")
    assert found[0].node.node_id == nodes[0].node_id and found[0].node.metadata["title"] == "Otters"
    assert services.collections.get(collection).document_count == 3  # one document per ref_doc_id
    hybrid = idx.as_retriever(similarity_top_k=1, vector_store_query_mode="hybrid").retrieve("International Orange")
    assert hybrid[0].node.metadata["title"] == "Bridges"


def test_keyword_mode_and_metadata_filters(services, index):
    _, store, _ = index
    keyword = store.query(VectorStoreQuery(query_str="moon", mode=VectorStoreQueryMode.TEXT_SEARCH, similarity_top_k=3))
    assert [n.metadata["title"] for n in keyword.nodes] == ["Tides"]
    embed = WorkbenchEmbedding(services.embedder)
    filters = MetadataFilters(filters=[MetadataFilter(key="year", value=1950, operator=FilterOperator.LT)])
    older = store.query(VectorStoreQuery(query_embedding=embed.get_query_embedding("animals"), similarity_top_k=3,
                                         filters=filters))
    assert {n.metadata["title"] for n in older.nodes} == {"Bridges"}
    with pytest.raises(ValidationFailed, match="not supported"):
        store.query(VectorStoreQuery(query_embedding=[0.0] * services.embedder.dim, filters=MetadataFilters(
            filters=[MetadataFilter(key="kind", value=["a"], operator=FilterOperator.ANY)])))


def test_delete_removes_the_source_document(services, collection, index):
    _, store, _ = index
    store.delete("otters")
    titles = {d.title for d in services.documents.list(collection_id=services.collections.get(collection).id)}
    assert titles == {"Bridges", "Tides"}


def test_the_retrievers_are_llamaindex_retrievers(services, zorbex):
    name, _ = zorbex
    semantic = SemanticRetriever(services.search, collections=[name], limit=3)
    keyword = KeywordRetriever(services.search, collections=[name], limit=3)
    walk = GraphWalkRetriever(services.ask.retriever.core, collections=[name], limit=3)
    ask = AskRetriever(services.ask.retriever, collections=[name], limit=3)
    for retriever in (semantic, keyword, walk, ask):
        assert isinstance(retriever, BaseRetriever)
        nodes = retriever.retrieve("Who founded Zorbex?")
        assert nodes and all(isinstance(n, NodeWithScore) for n in nodes)
        assert any("Ivana Petrova founded Zorbex" in n.node.get_content() for n in nodes), retriever


def test_the_retrievers_give_the_cores_rankings_as_nodes(services, zorbex):
    """Each LlamaIndex retriever returns what the app's own paths get from the core, in the same order with the
    same scores: Search's modes, the walk's list and Ask's context."""
    name, _ = zorbex
    question = "What does the founder of Zorbex grow in summer?"
    for mode, retriever in (("semantic", SemanticRetriever), ("keyword", KeywordRetriever)):
        hits = services.search.search(question, collections=[name], mode=mode, threshold=-1, limit=5).hits
        nodes = retriever(services.search, collections=[name], limit=5).retrieve(question)
        assert [(n.node.node_id, n.score) for n in nodes] == [(str(h.chunk_id), h.score) for h in hits]
    context = services.ask.retriever.gather(question, [name], limit=3, threshold=-1).chunks
    nodes = AskRetriever(services.ask.retriever, collections=[name], limit=3).retrieve(question)
    assert [(n.node.node_id, n.score) for n in nodes] == [(str(c.chunk_id), c.score) for c in context]
    walk_only = services.ask.retriever.gather(question, [name], limit=50, threshold=-1, retrievers=("graph",))
    walked = GraphWalkRetriever(services.ask.retriever.core, collections=[name], limit=50).retrieve(question)
    assert [n.node.node_id for n in walked] == [str(c.chunk_id) for c in walk_only.chunks]
    assert "Hobby" in [n.node.metadata["title"] for n in walked]  # the second hop, which the question never names


def test_mmr_postprocessor_demotes_a_near_duplicate(services, collection):
    """Two copies of one passage and another: MMR keeps one copy and the other passage."""
    from services.ingest.requests import text_request

    texts = {"A": "Ivana Petrova grows tomatoes in her garden every summer.",
             "A copy": "Ivana Petrova grows tomatoes in her garden every summer!",
             "B": "Zorbex sells robotic lawn mowers across Europe."}
    for title, text in texts.items():
        services.ingestion.run(text_request(collection, title=title, text=text))
    hits = services.search.search("Ivana's tomatoes", collections=[collection], mode="semantic", threshold=-1).hits
    nodes = [NodeWithScore(node=TextNode(id_=str(h.chunk_id), text=h.text, metadata={"chunk_id": h.chunk_id,
                                                                                    "title": h.title}), score=1.0)
             for h in sorted(hits, key=lambda h: h.title)]

    def vectors(ids: list[int]):
        with services.engine.connect() as conn:
            return chunk_store.vectors(conn, ids)

    out = MMRPostprocessor(services.embedder, vectors, top_n=2, lam=0.5).postprocess_nodes(
        nodes, query_bundle=QueryBundle("Ivana's tomatoes"))
    assert [n.node.metadata["title"] for n in out] == ["A", "B"]


def test_llm_reranker_reorders_by_the_models_ranking(services):
    nodes = [NodeWithScore(node=TextNode(id_=str(i), text=t, metadata={"title": f"P{i}"}), score=1.0 - i / 10)
             for i, t in enumerate(["Weather report.", "Ivana grows tomatoes.", "Risotto recipe."])]
    answer = json.dumps({"ranking": [{"passage": 2, "relevance": 9}, {"passage": 3, "relevance": 1}]})
    with FakeOpenAI(lambda messages, request: answer) as server:
        rerank = LLMReranker(LLMClient(Settings(openai_base_url=server.base_url, llm_model="fake-chat")), top_n=3)
        out = rerank.postprocess_nodes(nodes, query_bundle=QueryBundle("What does Ivana grow?"))
        prompt = server.requests[-1]["body"]["messages"][-1]["content"]
    assert [n.node.node_id for n in out] == ["1", "2", "0"]  # what the model left out keeps its place, last
    assert "[2] (P1) Ivana grows tomatoes." in prompt and "What does Ivana grow?" in prompt


def test_llm_reranker_keeps_the_fused_order_when_the_model_fails(services):
    nodes = [NodeWithScore(node=TextNode(id_=str(i), text=f"passage {i}"), score=1.0) for i in range(3)]
    with FakeOpenAI(lambda messages, request: "this is not JSON") as server:
        rerank = LLMReranker(LLMClient(Settings(openai_base_url=server.base_url, llm_model="fake-chat")), top_n=2)
        out = rerank.postprocess_nodes(nodes, query_bundle=QueryBundle("anything"))
    assert [n.node.node_id for n in out] == ["0", "1"]


def test_ask_with_an_llm_reranks_the_fused_candidates(services, zorbex):
    """Ask's retriever sends its fused top candidates to the LLM and keeps the LLM's order."""
    from services.retrieval.retriever import GraphAwareRetriever

    name, _ = zorbex

    def respond(messages, request):
        system = messages[0]["content"]
        if "rank passages" in system:  # put the Hobby passage first
            passages = messages[-1]["content"].split("\n\n")
            hobby = next(i for i, p in enumerate(passages[1:], start=1) if "tomatoes" in p)
            return json.dumps({"ranking": [{"passage": hobby, "relevance": 10}]})
        return "{}"

    with FakeOpenAI(respond) as server:
        llm = LLMClient(Settings(openai_base_url=server.base_url, llm_model="fake-chat"))
        base = services.ask.retriever
        retriever = GraphAwareRetriever(core=base.core, llm=llm, weights=base.weights)
        result = retriever.gather("Who founded Zorbex?", [name], limit=3, threshold=-1)
    assert result.reranked_by == "llm" and result.chunks[0].title == "Hobby"
    assert len(result.chunks) == 3
