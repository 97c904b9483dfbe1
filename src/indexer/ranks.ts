import type Database from 'better-sqlite3';
import { RankGraph } from '../graph/pagerank.js';
import { callGraph, fileGraph } from '../store/graph-data.js';
import type { IndexWriter } from '../store/writer.js';

/** Recomputes PageRank over the call graph (symbols) and the call+import graph (files). */
export function refreshRanks(db: Database.Database, writer: IndexWriter): void {
  const calls = callGraph(db);
  const files = fileGraph(db);
  writer.setPageranks(new RankGraph(calls.nodes, calls.edges).pagerank(), new RankGraph(files.nodes, files.edges).pagerank());
}
