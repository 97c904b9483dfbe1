import { examples } from '../args.js';
import type { Command } from 'commander';
import { depsReport, type DepPackage, type DepsReport } from '../../deps/report.js';
import { emit, plural } from '../output.js';
import { freshnessLine, openIndexRecovering } from '../repo.js';

export function registerDeps(program: Command): void {
  program
    .command('deps')
    .description('external packages: the versions lockfiles pin and that are installed, the files that import each, and conflicts')
    .option('--conflicts', 'only packages with a conflict (several pinned versions, installed != pinned, different ranges)')
    .option('--package <name>', 'only this package')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .option('--json', 'print JSON: {manifests, packages: [{ecosystem, name, declared, locked, installed, usedBy, conflicts}], conflicts, freshness}')
    .addHelpText('after', examples(['cg deps', 'cg deps --conflicts', 'cg deps --package lodash --json']))
    .action(async (opts: { conflicts?: boolean; package?: string; repo?: string; json?: boolean }) => {
      const { root, db, freshness } = await openIndexRecovering(opts.repo);
      try {
        const report = depsReport(db, root);
        const packages = report.packages.filter((p) => (!opts.conflicts || p.conflicts.length) && (!opts.package || p.name === opts.package));
        emit(opts, { ...report, packages, freshness }, (r) => `${render(r)}\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
}

function render(r: DepsReport): string {
  if (!r.manifests.length) return 'No manifests or lockfiles found (package.json, requirements.txt, go.mod, Cargo.toml, composer.json, pom.xml, Package.swift…).';
  const out = [`${plural(r.packages.length, 'package')} from ${r.manifests.join(', ')}; ${plural(r.conflicts, 'conflict')}`];
  for (const p of r.packages) out.push(line(p), ...p.conflicts.map((c) => `    conflict: ${c}`));
  return out.join('\n');
}

function line(p: DepPackage): string {
  const locked = [...new Set(p.locked.map((l) => l.version))].join(', ') || '-';
  const declared = [...new Set(p.declared.map((d) => d.range ?? '*'))].join(', ') || '-';
  const installed = p.installed ? `, installed ${p.installed}` : '';
  const used = p.usedBy.length ? `used by ${p.usedBy.length} file(s): ${p.usedBy.slice(0, 3).join(', ')}${p.usedBy.length > 3 ? ', …' : ''}` : 'not imported';
  return `  ${p.ecosystem.padEnd(8)} ${p.name}  locked ${locked}, declared ${declared}${installed}; ${used}`;
}
