#!/usr/bin/env node
// "Who calls this" checked against a compiler: the TypeScript compiler's own resolution of every call in
// a TypeScript repository (or Jedi's for Python, --lang python, eval/tools/python-calls.py; go/types' for Go,
// --lang go, eval/tools/go-calls) is the truth,
// and each tool's call graph is scored against it.
//
//   - Truth: every call, `new` and JSX element of the repository's .ts/.tsx files, resolved by the
//     type checker (TypeScript 5's JavaScript API: the package's 7.x, which cg builds with, has none) to
//     the declaration it reaches: a function, method or class of the repository; a variable or property
//     holding a value (a tool that links there is right, but recall does not ask for it); a parameter;
//     something outside it (the language's library, a dependency); or nothing (an `any`-typed receiver,
//     a missing dependency).
//   - A tool's answer is its caller → callee pairs, each a definition with a file and a line range (cg:
//     `calls` edges between symbols; @optave/codegraph: `calls` edges between nodes; neither records more
//     for the other to be compared on). A pair is right when some call in the caller's lines, to the
//     callee's name, reaches the callee (its lines hold the declaration; a constructor counts as its class);
//     wrong when the checker sends every such call elsewhere (another definition, or outside the
//     repository) or there is no such call; unverifiable when the checker resolves none of them.
//   - Precision = right / (right + wrong); recall = the in-repository calls the checker resolves for
//     which the tool has a pair whose caller holds the call's line and whose callee is the target.
//   cg's pairs are also split by the confidence cg gave them (its resolution tier).
//
// Only calls written in TypeScript files and reaching definitions in them are scored (a .js caller or
// callee is left out for both tools). Each tool indexes its own fresh clone of the same commit.
//
//   npm i --prefix /tmp/ts5 typescript@5       # the compiler, outside the project
//   node eval/call-graph-truth.mjs --repo /path/to/git/repo [--typescript /tmp/ts5/node_modules/typescript]
//        [--optave /tmp/optave/node_modules/.bin/codegraph] [--base OTHER_CG_CHECKOUT] [--label NAME] [--samples 12]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: opt } = parseArgs({
  options: {
    repo: { type: 'string' }, lang: { type: 'string', default: 'typescript' }, go: { type: 'string', default: 'go' },
    also: { type: 'string' },
    typescript: { type: 'string', default: '/tmp/ts5/node_modules/typescript' },
    optave: { type: 'string' }, base: { type: 'string' }, label: { type: 'string' }, samples: { type: 'string', default: '12' },
    out: { type: 'string', default: path.join(here, 'results', 'call-graph-truth.json') },
  },
});
if (!opt.repo) {
  console.error('usage: node eval/call-graph-truth.mjs --repo GIT_REPO [--lang typescript|python] [--typescript DIR] [--optave BIN] [--label NAME]');
  process.exit(2);
}
if (!['typescript', 'python', 'go'].includes(opt.lang)) throw new Error(`--lang is typescript, python or go, not ${opt.lang}`);
const ts = opt.lang === 'typescript' ? createRequire(import.meta.url)(path.resolve(opt.typescript)) : null;
if (ts && !/^5\./.test(ts.version)) throw new Error(`TypeScript 5 is needed for its checker API (found ${ts.version})`);
const label = opt.label ?? path.basename(path.resolve(opt.repo));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-calltruth-'));
const clone = (name) => {
  const dir = path.join(scratch, name);
  execFileSync('git', ['clone', '-q', '--shared', path.resolve(opt.repo), dir]);
  return dir;
};

// ---- the truth ---------------------------------------------------------------------------------------

const truthDir = clone('truth');
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: truthDir, encoding: 'utf8' }).trim();
// The files scored: the language's (a call from or to another language's file is left out for every tool).
const scoredFiles = execFileSync('git', ['ls-files', '-z'], { cwd: truthDir, encoding: 'utf8' }).split('\0')
  .filter((f) => (opt.lang === 'python' ? /\.py$/.test(f) : opt.lang === 'go' ? /\.go$/.test(f)
    : /\.(ts|tsx|mts|cts)$/.test(f) && !f.endsWith('.d.ts')));
const scored = new Set(scoredFiles);

function compilerOptions() {
  const cfg = path.join(truthDir, 'tsconfig.json');
  const base = {
    target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.Preserve, allowJs: false, skipLibCheck: true, noEmit: true, strict: false,
    allowImportingTsExtensions: true, resolveJsonModule: true, types: [],
  };
  if (!fs.existsSync(cfg)) return base;
  const parsed = ts.getParsedCommandLineOfConfigFile(cfg, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const o = parsed?.options ?? {};
  // The repository's path aliases and JSX settings; module resolution that maps `./a.js` to `a.ts`.
  return { ...base, paths: o.paths, baseUrl: o.baseUrl, jsxImportSource: o.jsxImportSource, jsx: o.jsx ?? base.jsx };
}

const t0 = performance.now();
const sites = opt.lang === 'python' ? pythonSites() : opt.lang === 'go' ? goSites() : typescriptSites(); // {file, line, name, target}

/**
 * Go: every call resolved by go/types (eval/tools/go-calls, built here with --go; Debian's golang-1.19-go).
 * --also FOLDER: files there count as the repository's (a copy of Go's own net/http: the importer reads GOROOT's).
 */
function goSites() {
  const bin = path.join(scratch, 'go-calls');
  const env = { ...process.env, GO111MODULE: 'off', GOFLAGS: '', GOCACHE: path.join(scratch, 'gocache') };
  execFileSync(opt.go, ['build', '-o', bin, '.'], { cwd: path.join(here, 'tools', 'go-calls'), env, stdio: 'inherit' });
  // A module's own packages import each other by the module's path: a GOPATH whose src/<module> is the tree.
  let also = opt.also ? path.resolve(opt.also) : null;
  const mod = /^module\s+(\S+)/m.exec(fs.existsSync(path.join(truthDir, 'go.mod')) ? fs.readFileSync(path.join(truthDir, 'go.mod'), 'utf8') : '');
  if (mod && !also) {
    also = path.join(scratch, 'gopath', 'src', mod[1]);
    fs.mkdirSync(path.dirname(also), { recursive: true });
    fs.symlinkSync(truthDir, also);
    env.GOPATH = path.join(scratch, 'gopath');
  }
  const out = execFileSync(bin, [...(also ? ['-also', also] : []), truthDir],
    { input: scoredFiles.join('\n'), encoding: 'utf8', maxBuffer: 1 << 30, env });
  return out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Python: every call resolved by Jedi (eval/tools/python-calls.py; Debian's python3-jedi). */
function pythonSites() {
  const out = execFileSync('python3', [path.join(here, 'tools', 'python-calls.py'), truthDir],
    { input: scoredFiles.join('\n'), encoding: 'utf8', maxBuffer: 1 << 30 });
  return out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

function typescriptSites() {
  // The TypeScript compiler's checker over every .ts/.tsx file of the repository.
  const program = ts.createProgram(scoredFiles.map((f) => path.join(truthDir, f)), compilerOptions());
  const checker = program.getTypeChecker();
  const rel = (file) => path.relative(truthDir, file).split(path.sep).join('/');
  const lineOf = (sf, pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;

  /** The name a declaration is called by (an arrow function takes its variable's or property's). */
  function declName(d) {
    if (d.name && ts.isIdentifier(d.name)) return d.name.text;
    if (d.name && (ts.isStringLiteral(d.name) || ts.isPrivateIdentifier(d.name))) return d.name.text.replace(/^#/, '');
    if (ts.isConstructorDeclaration(d)) return 'constructor';
    const p = d.parent;
    if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name && ts.isIdentifier(p.name)) return p.name.text;
    return null;
  }

  /** A function, method, class or constructor, or a variable or property initialised with a function or class. */
  function isDefinition(d) {
    if (ts.isFunctionLike(d) && !ts.isFunctionTypeNode(d) && !ts.isCallSignatureDeclaration(d) && !ts.isConstructSignatureDeclaration(d)) return true;
    if (ts.isClassLike(d)) return true;
    if ((ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d) || ts.isPropertyAssignment(d)) && d.initializer) {
      const init = ts.skipPartiallyEmittedExpressions(d.initializer);
      return ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init);
    }
    return false;
  }

  /** Where a call goes: {file, line, name, ctorOf} of a repository declaration, 'external', or null (unresolved). */
  function target(node) {
    // The declaration the called name stands for (`c.text` is the property `text = (…) => …` even when
    // its type is an interface's call signature); the resolved signature's when that is not a definition
    // (overloads, a function-typed parameter's declared type).
    const callee = ts.isJsxOpeningLikeElement(node) ? node.tagName : ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
    let sym = callee && checker.getSymbolAtLocation(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    let decl = sym?.valueDeclaration ?? sym?.declarations?.[0];
    if (!decl || !(isDefinition(decl) || ts.isParameter(decl) || ts.isVariableDeclaration(decl) || ts.isBindingElement(decl))) {
      try {
        decl = checker.getResolvedSignature(node)?.declaration ?? decl;
      } catch {
        /* keep the symbol's */
      }
    }
    if (decl && ts.isJSDocSignature?.(decl)) decl = undefined;
    if (!decl) return null;
    // An import the checker could not follow (a package that is not installed): unresolved.
    if (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isNamespaceImport(decl) || ts.isImportEqualsDeclaration(decl)) return null;
    const sf = decl.getSourceFile?.();
    if (!sf) return 'external'; // a declaration the checker made up (a JSX intrinsic element)
    const file = rel(sf.fileName);
    if (file.startsWith('..') || file.includes('node_modules/') || sf.isDeclarationFile && !scored.has(file)) return 'external';
    if (!scored.has(file)) return 'other'; // a .js or .d.ts file of the repository: not scored
    const at = decl.name ?? decl;
    const line = lineOf(sf, at.getStart(sf));
    // A parameter, a variable or a property that holds a value (`export const upgradeWebSocket = define(…)`):
    // a tool that links the call to a definition there is right, but a tool is not asked to find it (recall).
    if (!isDefinition(decl)) {
      if (ts.isParameter(decl) || ts.isBindingElement(decl)) return 'value';
      const name = declName(decl);
      return name ? { file, line, lines: [line], name, ctorOf: null, value: true } : 'value';
    }
    const ctorOf = ts.isConstructorDeclaration(decl) ? declName(decl.parent) : ts.isClassLike(decl) ? declName(decl) : null;
    // Overloads: the signatures and the implementation are one function.
    const lines = (sym?.declarations ?? [decl]).filter((d) => d.getSourceFile?.() === sf).map((d) => lineOf(sf, (d.name ?? d).getStart(sf)));
    return { file, line, lines: lines.length ? lines : [line], name: declName(decl), ctorOf };
  }

  /** The name written at a call: `f()`, `a.b.f()`, `new F()`, `<F />`, html`…`. */
  function calledName(node) {
    const e = ts.isJsxOpeningLikeElement(node) ? node.tagName : ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
    if (!e) return null;
    if (ts.isIdentifier(e)) return e.text;
    if (ts.isPropertyAccessExpression(e)) return e.name.text.replace(/^#/, '');
    return null;
  }

  const sites = [];
  for (const sf of program.getSourceFiles()) {
    const file = rel(sf.fileName);
    if (!scored.has(file)) continue;
    const visit = (node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isJsxOpeningLikeElement(node) || ts.isTaggedTemplateExpression(node)) {
        const name = calledName(node);
        if (name && !(ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword)) {
          sites.push({ file, line: lineOf(sf, node.getStart(sf)), name, target: target(node) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return sites;
}
const truthMs = Math.round(performance.now() - t0);
const sitesByFile = new Map();
for (const s of sites) (sitesByFile.get(s.file) ?? sitesByFile.set(s.file, []).get(s.file)).push(s);
const inRepo = sites.filter((s) => s.target && typeof s.target === 'object' && !s.target.value);
const count = (what) => sites.filter((s) => (what === 'value' ? s.target === 'value' || s.target?.value : s.target === what)).length;
console.error(`truth: ${scoredFiles.length} files, ${sites.length} calls (${inRepo.length} into the repository's definitions, `
  + `${count('value')} of parameters or variables, ${count('external')} outside, ${count('other')} into .js files, ${count(null)} unresolved) in ${truthMs} ms`);

// ---- scoring ---------------------------------------------------------------------------------------

/** The call reaches this callee: its lines hold the declaration's name, and its name is the target's (a class for its constructor). */
function reaches(t, callee) {
  if (!t || typeof t !== 'object' || t.file !== callee.file) return false;
  if (t.ctorOf && (callee.name === t.ctorOf || callee.name === 'constructor') && t.line >= callee.start - 1 && t.line <= callee.end) return true;
  return t.name === callee.name && t.lines.some((l) => l >= callee.start && l <= callee.end);
}

/** Scores a tool's pairs: [{caller: {file, start, end}, callee: {file, start, end, name}, confidence?}]. */
function score(pairs) {
  const out = { pairs: pairs.length, scored: 0, right: 0, wrong: 0, unverifiable: 0, skipped: 0, wrongSamples: [] };
  const byConfidence = new Map();
  const found = new Set();
  for (const p of pairs) {
    if (!scored.has(p.caller.file) || !scored.has(p.callee.file)) { out.skipped++; continue; }
    p.callee.name = p.callee.name.replace(/^#/, ''); // `this.#add()`: the checker's name is `add`
    const inCaller = (sitesByFile.get(p.caller.file) ?? []).filter((s) => s.line >= p.caller.start && s.line <= p.caller.end);
    const named = inCaller.filter((s) => s.name === p.callee.name || (s.target?.ctorOf && s.target.ctorOf === p.callee.name));
    // A call written under another name (`import { serveStatic as base }`) counts when it reaches the callee.
    const hits = inCaller.filter((s) => reaches(s.target, p.callee));
    for (const s of hits) found.add(s);
    const verdict = hits.length ? 'right' : named.length && named.every((s) => s.target === null) ? 'unverifiable' : 'wrong';
    out[verdict]++;
    if (verdict !== 'unverifiable') out.scored++;
    if (p.confidence !== undefined) {
      const k = String(p.confidence >= 0.9 ? '≥0.9' : p.confidence >= 0.75 ? '0.75-0.9' : p.confidence >= 0.5 ? '0.5-0.75' : '<0.5');
      const b = byConfidence.get(k) ?? byConfidence.set(k, { right: 0, wrong: 0, unverifiable: 0 }).get(k);
      b[verdict]++;
    }
    if (verdict === 'wrong' && out.wrongSamples.length < 4000) {
      const why = named.length ? named.map((s) => (s.target === 'external' ? 'outside' : s.target === 'other' ? 'a .js file' : s.target === 'value' ? 'a parameter or variable'
        : s.target ? `${s.target.file}:${s.target.line} ${s.target.name}` : 'unresolved')).join(', ') : 'no such call';
      out.wrongSamples.push(`${p.confidence ?? ''} ${p.caller.file}:${p.caller.start} -> ${p.callee.file}:${p.callee.start} ${p.callee.name}  (checker: ${why})`);
    }
  }
  out.precision = out.scored ? round(out.right / out.scored) : null;
  // Recall over the calls: the tool has a pair from a definition holding the call to its target.
  const pairsByFile = new Map();
  for (const p of pairs) (pairsByFile.get(p.caller.file) ?? pairsByFile.set(p.caller.file, []).get(p.caller.file)).push(p);
  let recalled = 0;
  const missedSamples = [];
  for (const s of inRepo) {
    const ok = found.has(s) || (pairsByFile.get(s.file) ?? []).some((p) => s.line >= p.caller.start && s.line <= p.caller.end && reaches(s.target, p.callee));
    if (ok) recalled++;
    else if (missedSamples.length < 400) missedSamples.push(`${s.file}:${s.line} ${s.name} -> ${s.target.file}:${s.target.line} ${s.target.name}`);
  }
  out.recall = round(recalled / Math.max(1, inRepo.length));
  out.recalled = recalled;
  out.byConfidence = Object.fromEntries([...byConfidence].map(([k, b]) => [k, { ...b, precision: round(b.right / Math.max(1, b.right + b.wrong)) }]));
  out.missedSamples = missedSamples;
  return out;
}
const round = (x) => Math.round(x * 1000) / 1000;

// ---- the tools -------------------------------------------------------------------------------------

const results = {};
const cgSides = [['cg', path.join(here, '..')]];
if (opt.base) cgSides.push(['cg-base', path.resolve(opt.base)]);
for (const [name, checkout] of cgSides) {
  const dir = clone(name);
  const t = performance.now();
  execFileSync(process.execPath, [path.join(checkout, 'bin', 'cg.js'), 'index', '-q'], { cwd: dir, stdio: 'ignore' });
  const buildMs = Math.round(performance.now() - t);
  const db = new Database(path.join(dir, '.codegraph', 'builds', fs.readFileSync(path.join(dir, '.codegraph', 'CURRENT'), 'utf8').trim(), 'index.db'), { readonly: true });
  const pairs = db.prepare(`SELECT DISTINCT fs.path AS cf, s.start_line AS cs, s.end_line AS ce, fd.path AS df, d.start_line AS ds, d.end_line AS de, d.name AS dn, MAX(e.confidence) AS c
    FROM edges e JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id JOIN files fs ON fs.id = s.file_id JOIN files fd ON fd.id = d.file_id
    WHERE e.kind = 'calls' GROUP BY e.src_id, e.dst_id`).all()
    .map((r) => ({ caller: { file: r.cf, start: r.cs, end: r.ce }, callee: { file: r.df, start: r.ds, end: r.de, name: r.dn }, confidence: r.c }));
  db.close();
  results[name] = { buildMs, ...score(pairs) };
}
if (opt.optave) {
  const dir = clone('optave');
  const t = performance.now();
  execFileSync(path.resolve(opt.optave), ['build', '--no-incremental', dir], { cwd: dir, stdio: 'ignore' });
  const buildMs = Math.round(performance.now() - t);
  const db = new Database(path.join(dir, '.codegraph', 'graph.db'), { readonly: true });
  const pairs = db.prepare(`SELECT DISTINCT s.file AS cf, s.line AS cs, COALESCE(s.end_line, s.line) AS ce, d.file AS df, d.line AS ds, COALESCE(d.end_line, d.line) AS de, d.name AS dn
    FROM edges e JOIN nodes s ON s.id = e.source_id JOIN nodes d ON d.id = e.target_id WHERE e.kind = 'calls'`).all()
    .map((r) => ({ caller: { file: r.cf, start: r.cs, end: r.ce }, callee: { file: r.df, start: r.ds, end: r.de, name: r.dn.split('.').pop() } }));
  db.close();
  results.optave = { buildMs, ...score(pairs) };
}

const summary = Object.fromEntries(Object.entries(results).map(([k, r]) => [k, { pairs: r.pairs, precision: r.precision, recall: r.recall, right: r.right, wrong: r.wrong, unverifiable: r.unverifiable, skipped: r.skipped }]));
console.log(JSON.stringify({ label, commit, summary, byConfidence: Object.fromEntries(cgSides.map(([k]) => [k, results[k].byConfidence])) }, null, 2));
const n = Number(opt.samples);
for (const [k, r] of Object.entries(results)) {
  console.log(`\n${k}: wrong (first ${n})`); for (const s of r.wrongSamples.slice(0, n)) console.log(`  ${s}`);
  console.log(`${k}: missed (first ${n})`); for (const s of r.missedSamples.slice(0, n)) console.log(`  ${s}`);
}
saveResult(opt.out, label, {
  date: new Date().toISOString(), repo: path.basename(path.resolve(opt.repo)), commit, lang: opt.lang,
  checker: ts ? `typescript ${ts.version}` : opt.lang === 'go' ? execFileSync(opt.go, ['version'], { encoding: 'utf8' }).trim()
    : `jedi ${execFileSync('python3', ['-c', 'import jedi; print(jedi.__version__)'], { encoding: 'utf8' }).trim()}`,
  truth: { files: scoredFiles.length, calls: sites.length, intoRepository: inRepo.length, values: count('value'), outside: count('external'),
    intoJs: count('other'), unresolved: count(null), ms: truthMs },
  tools: Object.fromEntries(Object.entries(results).map(([k, r]) => [k, { ...r, wrongSamples: r.wrongSamples.slice(0, 40), missedSamples: r.missedSamples.slice(0, 40) }])),
});
fs.rmSync(scratch, { recursive: true, force: true });
