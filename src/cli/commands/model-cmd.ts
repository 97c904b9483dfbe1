import type { Command } from 'commander';
import { loadConfig, MODEL_DTYPES, type ModelDtype } from '../../config/config.js';
import { pullModel, type PullResult } from '../../vectors/hub.js';
import { modelSpecFromConfig, modelStatus, modelsDir, unavailableError, type ModelSpec, type ModelStatus } from '../../vectors/model.js';
import { emit } from '../output.js';
import { examples, REPO_FLAG, repoRoot, usageError } from '../args.js';

interface ModelOpts {
  repo?: string;
  dtype?: string;
  json?: boolean;
}

export function registerModel(program: Command): void {
  const model = program
    .command('model')
    .description('the embedding model: whether it is on this machine (status), and downloading a hub model (pull)');
  model
    .command('status')
    .description('the configured embedding model (or ID): available locally?, dimensions, where it lives. Exit 5 when it is not available')
    .argument('[id]', 'a model id instead of the configured one (cg/glove-100d or a hub id such as jinaai/jina-embeddings-v2-base-code)')
    .option(REPO_FLAG, 'read the configuration of this repository (default: the one containing the current directory)')
    .option('--dtype <dtype>', `weights to look for: ${MODEL_DTYPES.join(', ')}`)
    .option('--json', 'print JSON: {id, builtin, available, dir, dtype, pooling, normalize, dims, missing, bytes, key, modelsDir, hint?}')
    .addHelpText('after', examples(['cg model status', 'cg model status jinaai/jina-embeddings-v2-base-code --dtype q8 --json']))
    .action((id: string | undefined, opts: ModelOpts) => {
      const status = modelStatus(specFor(id, opts));
      const out: ModelStatus & { modelsDir: string; hint?: string } = { ...status, modelsDir: modelsDir() };
      if (!status.available) out.hint = unavailableError(specFor(id, opts), status.missing).hint;
      emit(opts, out, renderStatus);
      if (!status.available) process.exitCode = unavailableError(specFor(id, opts)).exitCode;
    });
  model
    .command('pull')
    .description('download a hub model into the local models folder (needs internet access; exit 5 when the hub cannot be reached)')
    .argument('[id]', 'the model to download (default: the configured one)')
    .option(REPO_FLAG, 'read the configuration of this repository (default: the one containing the current directory)')
    .option('--dtype <dtype>', `which weights to download: ${MODEL_DTYPES.join(', ')} (default fp32)`)
    .option('--json', 'print JSON: {id, dir, files, bytes, dims, durationMs, alreadyPresent}')
    .addHelpText('after', examples(['cg model pull jinaai/jina-embeddings-v2-base-code', 'HF_ENDPOINT=https://mirror.example/ cg model pull --dtype q8']))
    .action(async (id: string | undefined, opts: ModelOpts) => {
      const progress = pullProgress(!opts.json);
      try {
        emit(opts, await pullModel(specFor(id, opts), { onProgress: progress.update }), renderPull);
      } finally {
        progress.done();
      }
    });
}

/** The configured model, or the one named on the command line with the configured pooling. */
function specFor(id: string | undefined, opts: ModelOpts): ModelSpec {
  const cfg = loadConfig(repoRoot(opts)).embeddings;
  const configured = modelSpecFromConfig(cfg);
  const spec: ModelSpec = id && id !== cfg.model ? { id, pooling: cfg.pooling, normalize: cfg.normalize } : configured;
  if (opts.dtype !== undefined) {
    if (!(MODEL_DTYPES as readonly string[]).includes(opts.dtype)) {
      throw usageError(`Unknown --dtype "${opts.dtype}"`, `Use one of: ${MODEL_DTYPES.join(', ')}.`);
    }
    spec.dtype = opts.dtype as ModelDtype;
  }
  return spec;
}

function renderStatus(s: ModelStatus & { hint?: string }): string {
  const out = [`Model: ${s.id}${s.builtin ? ' (built in, offline)' : ''}`];
  out.push(`Available: ${s.available ? `yes, ${(s.bytes / 1e6).toFixed(1)} MB` : `no (missing ${s.missing.join(', ')})`}`);
  out.push(`Location: ${s.dir}`);
  out.push(`Dimensions: ${s.dims ?? 'unknown until it is downloaded'}; pooling ${s.pooling}${s.normalize ? ', normalised' : ''}; weights ${s.dtype}`);
  if (s.hint) out.push(`To get it: ${s.hint}`);
  return out.join('\n');
}

function renderPull(r: PullResult): string {
  const size = `${(r.bytes / 1e6).toFixed(1)} MB, ${r.dims} dimensions`;
  return r.alreadyPresent ? `${r.id} is already available in ${r.dir} (${size}); nothing to download.`
    : `Downloaded ${r.id} into ${r.dir} (${size}) in ${(r.durationMs / 1000).toFixed(1)} s.`;
}

/** One line on stderr per file while it downloads, when stderr is a terminal. */
function pullProgress(enabled: boolean): { update(p: { file: string; loaded: number; total: number }): void; done(): void } {
  const tty = enabled && process.stderr.isTTY;
  let last = 0;
  let shown = false;
  return {
    update(p) {
      const now = Date.now();
      if (!tty || now - last < 100) return;
      last = now;
      const pct = p.total ? ` ${Math.round((p.loaded / p.total) * 100)}%` : '';
      process.stderr.write(`\r\x1b[2KDownloading ${p.file}: ${(p.loaded / 1e6).toFixed(1)} MB${pct}`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[2K');
    },
  };
}
