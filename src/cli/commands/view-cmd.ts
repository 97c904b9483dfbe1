import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { exportGraph, EXPORT_FORMATS, renderDot, renderGraphml, renderMermaid, renderNeo4j, type ExportFormat } from '../../graph/export.js';
import { findRoot } from '../../repo/root.js';
import { CgError, errorMessage } from '../../errors.js';
import { openIndex } from '../repo.js';
import { parseIntInRange, usageError } from '../args.js';

export function registerView(program: Command): void {
  program
    .command('view')
    .description('a local web page over the index (127.0.0.1 only): the repository map, a symbol\'s neighbourhood, a change\'s impact and a query\'s answer as interactive graphs, with search')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free port)', '7777')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .addHelpText('after', '\nExamples:\n  $ cg view                 # then open http://127.0.0.1:7777/\n  $ cg view --port 0        # any free port (printed)')
    .action(async (opts: { port: string; repo?: string }) => {
      const port = parseIntInRange('--port', opts.port, 0, 65535);
      const { startView } = await import('../../view/server.js');
      const v = await startView(findRoot(opts.repo ?? process.cwd()), { port });
      process.stdout.write(`cg view: serving ${v.url} (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => void v.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });

  program
    .command('export')
    .description('the graph for other tools: files or definitions and the edges between them, as DOT, GraphML, Mermaid, JSON or Neo4j CSV')
    .option('--format <format>', EXPORT_FORMATS.join(' | '), 'json')
    .option('--level <level>', 'file (files, edges summed between them) or symbol (definitions and their edges)', 'file')
    .option('--edges <kinds>', 'edge kinds, comma-separated (default: every kind but contains)')
    .option('--out <path>', 'write to this file (for neo4j: this folder, nodes.csv and relationships.csv) instead of standard output')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .addHelpText('after', '\nExamples:\n  $ cg export --format dot | dot -Tsvg > graph.svg\n  $ cg export --format graphml --level symbol --out graph.graphml\n'
      + '  cg export --format neo4j --out neo4j-import/   # then neo4j-admin database import full --nodes=nodes.csv --relationships=relationships.csv')
    .action((opts: { format: string; level: string; edges?: string; out?: string; repo?: string }) => {
      if (!(EXPORT_FORMATS as readonly string[]).includes(opts.format)) throw usageError(`Unknown --format "${opts.format}"`, `Use one of: ${EXPORT_FORMATS.join(', ')}.`);
      if (opts.level !== 'file' && opts.level !== 'symbol') throw usageError(`Unknown --level "${opts.level}"`, 'Use file or symbol.');
      const format = opts.format as ExportFormat;
      if (format === 'neo4j' && !opts.out) throw usageError('--format neo4j writes two files', 'Pass --out FOLDER.');
      const { db } = openIndex(opts.repo);
      try {
        const g = exportGraph(db, opts.level as 'file' | 'symbol', opts.edges?.split(',').map((k) => k.trim()).filter(Boolean));
        try {
          if (format === 'neo4j') {
            fs.mkdirSync(opts.out!, { recursive: true });
            for (const [name, text] of Object.entries(renderNeo4j(g))) fs.writeFileSync(path.join(opts.out!, name), text);
            process.stderr.write(`cg export: ${g.nodes.length} nodes, ${g.edges.length} edges written to ${opts.out}/nodes.csv and relationships.csv\n`);
            return;
          }
          const text = format === 'dot' ? renderDot(g) : format === 'graphml' ? renderGraphml(g) : format === 'mermaid' ? renderMermaid(g) : JSON.stringify(g, null, 2);
          if (opts.out) fs.writeFileSync(opts.out, `${text}\n`);
          else process.stdout.write(`${text}\n`);
        } catch (err) {
          throw new CgError('io', `Cannot write ${opts.out}: ${errorMessage(err)}`, 'Check that the folder exists and is writable.');
        }
      } finally {
        db.close();
      }
    });
}
