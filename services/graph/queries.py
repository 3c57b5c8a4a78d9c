"""Every Cypher statement the workbench runs, in the openCypher subset FalkorDB and Neo4j both accept.

All values are parameters. The only interpolated pieces are integers validated
by the caller (hop counts and limits), because Cypher cannot parameterise them.

Model: ``(:Entity {collection_id, key, name, type})`` and
``(:Entity)-[:FACT {id, collection_id, relation, document_id, chunk_id, sentence,
valid_from, valid_until, stated_on, status, date_source, valid_from_precision, valid_until_precision,
stated_on_precision}]->(:Entity)``. A date's precision (year, month or day) is absent on facts stored before it
was kept (services/graph/temporal.py).

A FACT only ever joins two Entity nodes, so statements that find facts by an indexed property of the
fact (id, document_id, chunk_id) leave its ends unlabelled: with ``(a:Entity)`` FalkorDB scanned every
entity and probed the fact index from each, 260 ms a statement on the 233 State of the Union addresses'
graph against 0.3 ms (``GRAPH.EXPLAIN``: "Node By Label Scan" under "Edge By Index Scan").
"""

from __future__ import annotations

INDEXES = [
    "CREATE INDEX FOR (e:Entity) ON (e.collection_id)",
    "CREATE INDEX FOR (e:Entity) ON (e.key)",
    "CREATE INDEX FOR (e:Entity) ON (e.name_key)",
    "CREATE INDEX FOR (e:Entity) ON (e.alias_keys)",
    "CREATE INDEX FOR ()-[r:FACT]-() ON (r.id)",
    "CREATE INDEX FOR ()-[r:FACT]-() ON (r.document_id)",
    "CREATE INDEX FOR ()-[r:FACT]-() ON (r.chunk_id)",
    "CREATE INDEX FOR (n:DiagramNode) ON (n.diagram_id)",
    "CREATE INDEX FOR (n:DiagramNode) ON (n.document_id)",
    "CREATE INDEX FOR ()-[r:FLOWS_TO]-() ON (r.diagram_id)",
]

CREATE_DIAGRAM_NODES = """
UNWIND $rows AS row
CREATE (:DiagramNode {diagram_id: row.diagram_id, collection_id: row.collection_id, document_id: row.document_id,
                      node_id: row.node_id, text: row.text, kind: row.kind})
"""

CREATE_DIAGRAM_EDGES = """
UNWIND $rows AS row
MATCH (a:DiagramNode {diagram_id: row.diagram_id, node_id: row.source})
MATCH (b:DiagramNode {diagram_id: row.diagram_id, node_id: row.target})
CREATE (a)-[:FLOWS_TO {diagram_id: row.diagram_id, collection_id: row.collection_id, document_id: row.document_id,
                       label: row.label}]->(b)
"""

DELETE_DOCUMENT_DIAGRAMS = "MATCH (n:DiagramNode {document_id: $document_id}) DETACH DELETE n"

DELETE_COLLECTION_DIAGRAMS = "MATCH (n:DiagramNode {collection_id: $collection_id}) DETACH DELETE n"

# The retrieval query from the design: a diagram's subgraph by id.
DIAGRAM = """
MATCH (n {diagram_id: $id})
OPTIONAL MATCH (n)-[r {diagram_id: $id}]->(m)
RETURN n.node_id AS id, n.text AS text, n.kind AS kind, r.label AS label, m.node_id AS target
"""

MERGE_ENTITIES = """
UNWIND $rows AS row
MERGE (e:Entity {collection_id: row.collection_id, key: row.key})
ON CREATE SET e.name = row.name
SET e.type = row.type, e.name_key = row.name_key, e.stated = row.stated, e.aliases = row.aliases,
    e.alias_keys = row.alias_keys
"""

# The collection's entities a document's names may join: by key, name key or a stated alias. Three index
# lookups (alias_keys is an array property: FalkorDB's range index answers "k IN e.alias_keys"); one query
# with OR scanned the collection's entities, 5-8 ms a document at 4k entities and growing with them.
_EXISTING_FIELDS = """e.key AS key, e.name AS name, e.name_key AS name_key, e.type AS type, e.stated AS stated,
       e.aliases AS aliases, e.alias_keys AS alias_keys"""
EXISTING_ENTITIES = f"""
UNWIND $keys AS k
MATCH (e:Entity {{key: k}}) WHERE e.collection_id = $collection_id
RETURN {_EXISTING_FIELDS}
UNION
UNWIND $keys AS k
MATCH (e:Entity {{name_key: k}}) WHERE e.collection_id = $collection_id
RETURN {_EXISTING_FIELDS}
UNION
UNWIND $keys AS k
MATCH (e:Entity) WHERE k IN e.alias_keys AND e.collection_id = $collection_id
RETURN {_EXISTING_FIELDS}
"""

CREATE_FACTS = """
UNWIND $rows AS row
MATCH (a:Entity {collection_id: row.collection_id, key: row.source})
MATCH (b:Entity {collection_id: row.collection_id, key: row.target})
CREATE (a)-[:FACT {id: row.id, collection_id: row.collection_id, relation: row.relation,
                   document_id: row.document_id, chunk_id: row.chunk_id, sentence: row.sentence,
                   valid_from: row.valid_from, valid_until: row.valid_until, stated_on: row.stated_on,
                   valid_from_precision: row.valid_from_precision, valid_until_precision: row.valid_until_precision,
                   stated_on_precision: row.stated_on_precision, raw: row.raw, text_until: row.valid_until,
                   status: CASE WHEN row.valid_until IS NULL THEN 'current' ELSE 'superseded' END,
                   date_source: row.date_source, exclusive: row.exclusive}]->(b)
RETURN count(*) AS n
"""

# Which of these fact ids a collection holds (a write that took fewer rows than it was given is checked by id).
FACT_IDS = """
MATCH ()-[r:FACT]->() WHERE r.collection_id = $collection_id AND r.id IN $ids
RETURN r.id AS id
"""

DOCUMENT_FACT_SLOTS = """
MATCH (a)-[r:FACT {document_id: $document_id}]->(b)
RETURN DISTINCT r.relation AS relation, a.key AS source, b.key AS target, r.collection_id AS collection_id,
       r.exclusive AS exclusive
"""

DOCUMENT_ENTITY_KEYS = """
MATCH (a)-[r:FACT {document_id: $document_id}]->(b)
RETURN collect(DISTINCT a.key) + collect(DISTINCT b.key) AS keys, min(r.collection_id) AS collection_id
"""

DOCUMENT_FACT_LINKS = """
MATCH (a)-[r:FACT {document_id: $document_id}]->(b)
RETURN a.key AS source, b.key AS target, r.chunk_id AS chunk_id, a.name AS source_name, a.type AS source_type,
       b.name AS target_name, b.type AS target_type
"""

DELETE_DOCUMENT_FACTS = "MATCH ()-[r:FACT {document_id: $document_id}]->() DELETE r"

DELETE_ORPHANS = """
UNWIND $keys AS k
MATCH (e:Entity {collection_id: $collection_id, key: k})
OPTIONAL MATCH (e)-[r]-()
WITH e, count(r) AS degree
WHERE degree = 0
DELETE e
"""

DELETE_COLLECTION = "MATCH (e:Entity {collection_id: $collection_id}) DETACH DELETE e"

CHAIN_BY_OBJECT = """
MATCH (a:Entity)-[r:FACT {collection_id: $collection_id, relation: $relation}]->(b:Entity {collection_id: $collection_id, key: $key})
RETURN r.id AS id, coalesce(r.valid_from, r.stated_on) AS valid_from, a.key AS other, r.text_until AS text_until,
       CASE WHEN r.valid_from IS NULL THEN r.stated_on_precision ELSE r.valid_from_precision END AS precision
"""

CHAIN_BY_SUBJECT = """
MATCH (a:Entity {collection_id: $collection_id, key: $key})-[r:FACT {collection_id: $collection_id, relation: $relation}]->(b:Entity)
RETURN r.id AS id, coalesce(r.valid_from, r.stated_on) AS valid_from, b.key AS other, r.text_until AS text_until,
       CASE WHEN r.valid_from IS NULL THEN r.stated_on_precision ELSE r.valid_from_precision END AS precision
"""

SET_VALIDITY = """
UNWIND $rows AS row
MATCH ()-[r:FACT {id: row.id}]->()
SET r.valid_until = row.valid_until, r.status = row.status, r.valid_until_precision = row.precision
"""

FIND_ENTITIES = """
MATCH (e:Entity)
WHERE e.collection_id IN $collection_ids AND (e.key CONTAINS $needle OR toLower(e.name) CONTAINS $needle
      OR any(a IN coalesce(e.alias_keys, []) WHERE a CONTAINS $needle))
OPTIONAL MATCH (e)-[r:FACT]-()
WITH e, count(r) AS degree
RETURN e.collection_id AS collection_id, e.key AS key, e.name AS name, e.type AS type, e.aliases AS aliases, degree
ORDER BY degree DESC, e.name LIMIT $limit
"""

ENTITIES_BY_KEYS = """
MATCH (e:Entity)
WHERE e.collection_id IN $collection_ids AND e.key IN $keys
OPTIONAL MATCH (e)-[r:FACT]-()
WITH e, count(r) AS degree
RETURN e.collection_id AS collection_id, e.key AS key, e.name AS name, e.type AS type, e.aliases AS aliases, degree
"""

ENTITIES_FROM_CHUNKS = """
MATCH (a)-[r:FACT]->(b)
WHERE r.chunk_id IN $chunk_ids
RETURN a.key AS a, b.key AS b, r.chunk_id AS chunk_id
"""

FACT_FIELDS = """
a.key AS source_key, a.name AS source, a.type AS source_type,
b.key AS target_key, b.name AS target, b.type AS target_type,
r.id AS id, r.relation AS relation, r.document_id AS document_id, r.chunk_id AS chunk_id,
r.sentence AS sentence, r.valid_from AS valid_from, r.valid_until AS valid_until, r.raw AS raw, r.stated_on AS stated_on,
r.status AS status, r.date_source AS date_source, r.collection_id AS collection_id, r.exclusive AS exclusive,
r.valid_from_precision AS valid_from_precision, r.valid_until_precision AS valid_until_precision,
r.stated_on_precision AS stated_on_precision
"""


def neighbourhood(depth: int) -> str:
    """Facts on paths of up to ``depth`` hops from the entity (``depth`` is validated by the caller).

    Filters sit on ``WITH`` and the endpoints come from ``startNode``/``endNode``:
    FalkorDB ignores a ``WHERE`` attached to a re-``MATCH`` of a bound relationship.
    """
    return f"""
MATCH p = (s:Entity {{collection_id: $collection_id, key: $key}})-[:FACT*1..{int(depth)}]-(m:Entity)
UNWIND relationships(p) AS r
WITH DISTINCT r
WHERE ($relations IS NULL OR r.relation IN $relations)
  AND ($status IS NULL OR r.status = $status)
  AND ($from IS NULL OR coalesce(r.valid_until, '9999-12-31') > $from)
  AND ($until IS NULL OR coalesce(r.valid_from, r.stated_on) IS NULL OR coalesce(r.valid_from, r.stated_on) <= $until)
WITH r, startNode(r) AS a, endNode(r) AS b
RETURN {FACT_FIELDS}
LIMIT $limit
"""


# Starts from the entity (the key index), not from every fact: "a.key = $key OR b.key = $key"
# made both engines scan all facts (~200 ms at 100k facts, against under 1 ms; docs/benchmarks.md).
FACTS_OF_ENTITY = f"""
MATCH (e:Entity {{key: $key}})-[r:FACT]-(:Entity)
WHERE e.collection_id IN $collection_ids AND r.collection_id IN $collection_ids
  AND ($from IS NULL OR coalesce(r.valid_until, '9999-12-31') > $from)
  AND ($until IS NULL OR coalesce(r.valid_from, r.stated_on) IS NULL OR coalesce(r.valid_from, r.stated_on) <= $until)
WITH DISTINCT r
WITH r, startNode(r) AS a, endNode(r) AS b
RETURN {FACT_FIELDS}
ORDER BY coalesce(r.valid_from, r.stated_on), r.id
LIMIT $limit
"""

FACTS_BETWEEN = f"""
MATCH (x:Entity {{collection_id: $collection_id, key: $a}})-[r:FACT]-(y:Entity {{collection_id: $collection_id, key: $b}})
WITH DISTINCT r
WITH r, startNode(r) AS a, endNode(r) AS b
RETURN {FACT_FIELDS}
ORDER BY coalesce(r.valid_from, r.stated_on), r.id
LIMIT $limit
"""

FACTS_BY_IDS = f"""
MATCH (a)-[r:FACT]->(b)
WHERE r.id IN $ids
RETURN {FACT_FIELDS}
"""

# How many documents state a fact about each entity (its document frequency; services/graph/generic.py).
DOCUMENT_FREQUENCIES = """
MATCH (e:Entity {collection_id: $collection_id})-[r:FACT]-()
WHERE e.key IN $keys
RETURN e.key AS key, count(DISTINCT r.document_id) AS documents
"""

RELATION_TYPES = """
MATCH ()-[r:FACT]->()
WHERE r.collection_id IN $collection_ids
RETURN r.relation AS relation, count(*) AS n ORDER BY n DESC LIMIT $limit
"""

COUNTS = """
MATCH (e:Entity) WHERE e.collection_id IN $collection_ids
WITH count(e) AS entities
OPTIONAL MATCH ()-[r:FACT]->() WHERE r.collection_id IN $collection_ids
RETURN entities, count(r) AS facts
"""

# Backup (services/backup/export.py): a collection's graph in pages, each ordered on every
# returned field so consecutive pages neither repeat nor skip a row.
EXPORT_ENTITIES = """
MATCH (e:Entity {collection_id: $collection_id})
RETURN e.key AS key, e.name AS name, e.type AS type, e.name_key AS name_key, e.stated AS stated,
       e.aliases AS aliases, e.alias_keys AS alias_keys
ORDER BY key, name, type SKIP $skip LIMIT $limit
"""

EXPORT_FACTS = """
MATCH (a:Entity)-[r:FACT {collection_id: $collection_id}]->(b:Entity)
RETURN r.id AS id, a.key AS source, b.key AS target, r.relation AS relation, r.document_id AS document_id,
       r.chunk_id AS chunk_id, r.sentence AS sentence, r.valid_from AS valid_from, r.valid_until AS valid_until,
       r.raw AS raw, r.stated_on AS stated_on, r.text_until AS text_until, r.status AS status,
       r.date_source AS date_source, r.exclusive AS exclusive, r.added_by AS added_by, r.note AS note,
       r.added_at AS added_at, r.valid_from_precision AS valid_from_precision,
       r.valid_until_precision AS valid_until_precision, r.stated_on_precision AS stated_on_precision
ORDER BY id, source, target SKIP $skip LIMIT $limit
"""

EXPORT_DIAGRAM_NODES = """
MATCH (n:DiagramNode {collection_id: $collection_id})
RETURN n.diagram_id AS diagram_id, n.document_id AS document_id, n.node_id AS node_id, n.text AS text, n.kind AS kind
ORDER BY diagram_id, node_id, document_id, text, kind SKIP $skip LIMIT $limit
"""

EXPORT_DIAGRAM_EDGES = """
MATCH (a:DiagramNode)-[r:FLOWS_TO {collection_id: $collection_id}]->(b:DiagramNode)
RETURN r.diagram_id AS diagram_id, r.document_id AS document_id, a.node_id AS source, b.node_id AS target,
       r.label AS label
ORDER BY diagram_id, source, target, label, document_id SKIP $skip LIMIT $limit
"""

# Restore (services/backup/restore.py): facts keep their validity instead of starting 'current'.
# Entities use MERGE_ENTITIES, diagrams CREATE_DIAGRAM_NODES / CREATE_DIAGRAM_EDGES.
RESTORE_FACTS = """
UNWIND $rows AS row
MATCH (a:Entity {collection_id: row.collection_id, key: row.source})
MATCH (b:Entity {collection_id: row.collection_id, key: row.target})
CREATE (a)-[:FACT {id: row.id, collection_id: row.collection_id, relation: row.relation,
                   document_id: row.document_id, chunk_id: row.chunk_id, sentence: row.sentence,
                   valid_from: row.valid_from, valid_until: row.valid_until, status: row.status,
                   raw: row.raw, stated_on: row.stated_on, text_until: row.text_until,
                   date_source: row.date_source, exclusive: row.exclusive, added_by: row.added_by, note: row.note,
                   added_at: row.added_at, valid_from_precision: row.valid_from_precision,
                   valid_until_precision: row.valid_until_precision, stated_on_precision: row.stated_on_precision}]->(b)
RETURN count(*) AS n
"""
