import type { RegistryDb } from './db.js';

/**
 * The audit log: one row per registry-mode call, refused ones included (CodeMem Phase 2: agent_id,
 * scope_level, tool_called, result_count, timestamp; plus the outcome and a short detail). The session
 * id itself is never written: the log is for reading who asked what, not for replaying access.
 */
export interface AuditEntry {
  agentId: string;
  scopeLevel: string;
  tool: string;
  outcome: 'ok' | 'denied' | 'error';
  resultCount: number | null;
  detail?: string | null;
}

export function audit(db: RegistryDb, e: AuditEntry, now = Date.now()): void {
  db.prepare(`INSERT INTO audit_log (agent_id, scope_level, tool_called, outcome, result_count, detail, timestamp)
    VALUES (?, ?, ?, ?, ?, ?, ?)`).run(e.agentId, e.scopeLevel, e.tool, e.outcome, e.resultCount, e.detail?.slice(0, 500) ?? null, now);
}

export interface AuditRow {
  id: number;
  agent_id: string;
  scope_level: string;
  tool_called: string;
  outcome: string;
  result_count: number | null;
  detail: string | null;
  timestamp: string;
}

export function readAudit(db: RegistryDb, filter: { agentId?: string; tool?: string; since?: number; limit?: number } = {}): AuditRow[] {
  const rows = db.prepare(`SELECT * FROM audit_log WHERE (? IS NULL OR agent_id = ?) AND (? IS NULL OR tool_called = ?)
      AND timestamp >= ? ORDER BY id DESC LIMIT ?`)
    .all(filter.agentId ?? null, filter.agentId ?? null, filter.tool ?? null, filter.tool ?? null, filter.since ?? 0, filter.limit ?? 100) as
    (Omit<AuditRow, 'timestamp'> & { timestamp: number })[];
  return rows.map((r) => ({ ...r, timestamp: new Date(r.timestamp).toISOString() }));
}
