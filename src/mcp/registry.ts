import type { z } from 'zod';
import { CgError } from '../errors.js';
import type { Snapshot } from '../store/live.js';

/**
 * The MCP tools as declarations: a name, the spec it follows, a zod schema and a function over the
 * same retrieve/graph/store code the CLI calls. Tools are grouped into toolsets (as the GitHub MCP
 * server does) so a client written from one spec gets that spec's tools, and an agent that asks for
 * nothing gets a small default set it can choose from well. Other parts add their own tools and
 * toolsets with `declareTools` / `declareToolset`; the server serves what the chosen toolsets name.
 */
export interface ToolAnswer {
  /** The JSON answer: structuredContent, and the first text content unless `text` is given. */
  body: Record<string, unknown>;
  /** The first text content when it is not the JSON body: a markdown table, a tree, the spec's bare array. */
  text?: string;
  /** An answer in the PRD's error shape (empty results): the agent should fall back. */
  isError?: boolean;
}

export interface ToolContext {
  snap: Snapshot;
  /** Sends an MCP progress notification when the client asked for them (a no-op otherwise). */
  progress(message: string): void;
  /**
   * The final result the agent receives for an answer (freshness and the text rendering included),
   * so that a tool can fit its whole response into a token budget.
   */
  finish(answer: ToolAnswer): FinishedAnswer;
}

export interface FinishedAnswer {
  texts: string[];
  structured: Record<string, unknown>;
  /** `structured` serialized, where it was already (the text of a JSON answer): counting does not serialize it again. */
  json?: string;
}

/** What a tool can tell while the index is not there yet (being built or restored). */
export interface IndexState {
  state: 'indexing' | 'restoring' | 'unavailable';
  message: string;
  progress?: { phase: string; done: number; total: number };
}

export interface ToolDecl {
  name: string;
  title: string;
  /** Which spec's contract this tool follows (README's contract table). */
  spec: string;
  description: string;
  /** The toolsets that serve it (`all` serves every tool and is not listed). */
  toolsets: readonly string[];
  schema: z.ZodObject;
  run(args: any, ctx: ToolContext): Promise<ToolAnswer> | ToolAnswer;
  /** An answer while there is no index yet; without it the call gets the `indexing` error. */
  whileUnavailable?(args: any, state: IndexState, root: string): ToolAnswer;
}

export interface ToolsetDecl {
  name: string;
  description: string;
}

const toolsets = new Map<string, ToolsetDecl>();
const tools = new Map<string, ToolDecl>();

export const ALL_TOOLSETS = 'all';
export const DEFAULT_TOOLSETS = ['default'];

export function declareToolset(t: ToolsetDecl): void {
  if (t.name === ALL_TOOLSETS) throw new Error(`"${ALL_TOOLSETS}" is implicit`);
  toolsets.set(t.name, t);
}

export function declareTools(decls: ToolDecl[]): void {
  for (const d of decls) {
    if (tools.has(d.name)) throw new Error(`Two tools are named ${d.name}`);
    for (const s of d.toolsets) if (!toolsets.has(s)) throw new Error(`${d.name} names an undeclared toolset ${s}`);
    tools.set(d.name, d);
  }
}

export function listToolsets(): (ToolsetDecl & { tools: string[] })[] {
  const named = [...toolsets.values()].map((t) => ({ ...t, tools: [...tools.values()].filter((d) => d.toolsets.includes(t.name)).map((d) => d.name) }));
  return [...named, { name: ALL_TOOLSETS, description: 'every tool', tools: [...tools.keys()] }];
}

/** The tools of the named toolsets, in declaration order; an unknown name is an error that lists the known ones. */
export function toolsFor(names: readonly string[]): ToolDecl[] {
  const unknown = names.filter((n) => n !== ALL_TOOLSETS && !toolsets.has(n));
  if (unknown.length) {
    throw new CgError('usage', `Unknown toolset${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}`,
      `Use a comma-separated list of: ${[...toolsets.keys(), ALL_TOOLSETS].join(', ')}.`);
  }
  const all = names.includes(ALL_TOOLSETS);
  return [...tools.values()].filter((d) => all || d.toolsets.some((s) => names.includes(s)));
}

/** `--toolsets default,bombe` → ['default', 'bombe'] (spaces and empty items ignored). */
export function parseToolsets(list: string): string[] {
  return [...new Set(list.split(',').map((s) => s.trim()).filter(Boolean))];
}
