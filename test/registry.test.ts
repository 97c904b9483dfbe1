import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, runCg, tempDir } from './helpers.js';
import { ADDON, CLIENT, CORE } from './registry-fixtures.js';
import { openRegistry, type RegistryDb } from '../src/registry/db.js';
import { cgHome } from '../src/registry/home.js';
import { addMembers, addProject, listCollections, listProjects, removeProject, requireProject } from '../src/registry/projects.js';
import { loadManifest } from '../src/registry/manifest.js';
import { claimJob, enqueueJob, finishJob, listJobs, resumeInterrupted, MAX_ATTEMPTS } from '../src/registry/jobs.js';
import { indexNow } from '../src/registry/indexing.js';
import { rrfMerge } from '../src/retrieve/rrf.js';
import { IndexPool, federatedImpact, federatedReferences, federatedSearch, federatedSymbols } from '../src/registry/federate.js';
import { collectionMap, collectionMermaid, crossRefs } from '../src/registry/crossrefs/query.js';
import { findStringSites, normalizeRoute, stringValue } from '../src/registry/crossrefs/finder.js';
import { hookMatch, routeMatch } from '../src/registry/crossrefs/match.js';

/**
 * The global registry with real SQLite files under a temporary CG_HOME, real git repositories built
 * by the test, indexed by the real indexer: projects, collections, manifests, the job queue, federated
 * search/symbols/references/impact, and cross-project hooks and routes.
 */
let home: string;
let db: RegistryDb;
const roots: Record<string, string> = {};

beforeAll(async () => {
  home = tempDir('cg-home-');
  db = openRegistry(home);
  for (const [name, files] of Object.entries({ core: CORE, addon: ADDON, client: CLIENT })) {
    roots[name] = makeRepo(files, { commit: true });
    const p = addProject(db, { path: roots[name], name, collection: 'pm' });
    const [job] = await indexNow(db, p, 'incremental');
    expect(job.error).toBeNull();
  }
});

afterAll(() => db?.close());

describe('registry database', () => {
  it('lives in CG_HOME, else the XDG data directory', () => {
    expect(cgHome({ CG_HOME: '/x/y' })).toBe('/x/y');
    expect(cgHome({ XDG_DATA_HOME: '/data' })).toBe('/data/codegrapher');
    expect(cgHome({})).toBe(path.join(os.homedir(), '.local', 'share', 'codegrapher'));
    expect(fs.existsSync(path.join(home, 'registry.db'))).toBe(true);
    expect(fs.statSync(path.join(home, 'registry.db')).mode & 0o077).toBe(0);
  });

  it('records each project with its path, languages, collection, status and symbol count', () => {
    const projects = listProjects(db);
    expect(projects.map((p) => p.name)).toEqual(['addon', 'client', 'core']);
    const core = requireProject(db, 'core');
    expect(core).toMatchObject({ status: 'indexed', languages: ['php'], collections: ['pm'], path: fs.realpathSync(roots.core) });
    expect(core.symbols).toBeGreaterThan(3);
    expect(core.indexedCommit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('refuses the same path twice, a taken name, a bad name and a missing folder', () => {
    expect(() => addProject(db, { path: roots.core, name: 'other' })).toThrow(/already registered as "core"/);
    expect(() => addProject(db, { path: tempDir(), name: 'core' })).toThrow(/already registered/);
    expect(() => addProject(db, { path: tempDir(), name: '../etc' })).toThrow(/not a valid project name/);
    expect(() => addProject(db, { path: '/nonexistent/dir' })).toThrow(/No such directory/);
  });

  it('enforces foreign keys: no edge may point at a symbol or project that is not there', () => {
    const bad = () => db.prepare(`INSERT INTO cross_project_edges (from_project_id, from_symbol_id, to_project_id, to_symbol_id, type, name, from_site)
      VALUES (1, 999999, 2, 999999, 'hooks_into', 'x', 1)`).run();
    expect(bad).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare(`INSERT INTO collection_projects (collection_id, project_id) VALUES (1, 4242)`).run()).toThrow(/FOREIGN KEY/);
  });

  it('loads collections from a YAML manifest, registering projects it gives a path for', () => {
    const other = makeRepo({ 'a.py': 'def a():\n    pass\n' });
    const file = path.join(tempDir(), 'collections.yaml');
    fs.writeFileSync(file, `collections:\n  - name: mixed\n    description: a test\n    projects:\n      - core\n      - { name: extra, path: ${path.relative(path.dirname(file), other)} }\n`);
    const load = loadManifest(db, file);
    expect(load.registered).toEqual(['extra']);
    expect(listCollections(db).find((c) => c.name === 'mixed')).toMatchObject({ projects: ['core', 'extra'], description: 'a test' });
    fs.writeFileSync(file, 'collections:\n  - name: x\n    projcts: []\n');
    expect(() => loadManifest(db, file)).toThrow(/not a collection manifest/);
    removeProject(db, 'extra');
    expect(listCollections(db).find((c) => c.name === 'mixed')!.projects).toEqual(['core']);
  });
});

describe('job queue', () => {
  it('puts jobs a killed process left in progress back, and retries a failing job a bounded number of times', () => {
    const p = addProject(db, { path: makeRepo({ 'b.py': 'x = 1\n' }), name: 'queued' });
    const id = enqueueJob(db, p.id, 'incremental');
    expect(enqueueJob(db, p.id, 'full')).toBe(id);                    // one waiting job per project, upgraded to full
    const job = claimJob(db)!;
    expect(job).toMatchObject({ id, status: 'in_progress', mode: 'full' });
    expect(claimJob(db)).toBeNull();                                   // nothing else waits
    expect(resumeInterrupted(db)).toBe(1);                             // as after kill -9
    for (let i = 1; i < MAX_ATTEMPTS; i++) finishJob(db, claimJob(db)!.id, 'boom');   // the first attempt was the interrupted one
    expect(listJobs(db, { status: ['failed'] }).map((j) => j.id)).toContain(id);
    expect(claimJob(db)).toBeNull();
    removeProject(db, 'queued');
    expect(listJobs(db).some((j) => j.id === id)).toBe(false);         // cascaded
  });
});

describe('reciprocal-rank fusion (Appendix C)', () => {
  it('sums 1/(60 + rank) over lists and keeps one entry per key', () => {
    const fused = rrfMerge([['a', 'b', 'c'], ['b', 'a'], ['d']], (x) => x);
    expect(fused.map((f) => f.item)).toEqual(['a', 'b', 'd', 'c']);
    expect(fused[0].rrf).toBeCloseTo(1 / 61 + 1 / 62, 10);
    expect(fused[3].rrf).toBeCloseTo(1 / 63, 10);
  });
});

describe('federation', () => {
  const pool = new IndexPool();
  afterAll(() => pool.close());
  const projects = () => ['core', 'addon', 'client'].map((n) => requireProject(db, n));

  it('search asks every project and names the project of each result', async () => {
    const res = await federatedSearch(pool, projects(), { query: 'popup settings', limit: 10 });
    expect(res.status).toBe('ok');
    expect(new Set(res.results.map((r) => r.project))).toEqual(new Set(['core', 'addon', 'client']));
    expect(res.results[0].score).toBe(1);
    expect(res.projects.every((p) => p.status === 'ok')).toBe(true);
  });

  it('a project without a usable index is reported while the others answer', async () => {
    const broken = addProject(db, { path: makeRepo({ 'c.py': 'def c():\n    pass\n' }), name: 'unindexed' });
    const res = await federatedSymbols(pool, [...projects(), broken], { query: 'pum_*', limit: 20 });
    expect(res.projects.find((p) => p.project === 'unindexed')).toMatchObject({ status: 'error', error: { code: 'index_missing' } });
    expect(res.symbols.map((s) => `${s.project}:${s.name}`)).toEqual(expect.arrayContaining(['core:pum_init', 'addon:pum_addon_setup']));
    removeProject(db, 'unindexed');
  });

  it('references and impact: within each project, plus the other projects that hook into the symbol', async () => {
    const all = new Set(projects().map((p) => p.id));
    const refs = await federatedReferences(pool, db, projects(), { name: 'pum_init', direction: 'both', depth: 1, hierarchy: false }, all);
    expect(refs.references.map((r) => r.project)).toEqual(['core']);
    expect(refs.references[0].callers.map((c) => c.qualifiedName)).toEqual(['pum_get_popup']);
    expect(refs.cross_project!.incoming.map((e) => `${e.from_project}:${e.from_symbol}:${e.name}`).sort())
      .toEqual(['addon:pum_addon_setup:pum_*_loaded', 'addon:pum_addon_setup:pum_init', 'addon:pum_addon_setup:pum_popup_settings']);
    const noCross = await federatedReferences(pool, db, projects(), { name: 'pum_init', direction: 'both', depth: 1, hierarchy: false }, null);
    expect(noCross.cross_project).toBeNull();
    const impact = await federatedImpact(pool, db, projects(), { name: 'pum_init', depth: 2 }, all);
    expect(impact.affected_files).toEqual(expect.arrayContaining(['core:includes/init.php', 'addon:addon.php']));
    // pum_addon_boot calls pum_addon_setup, which hooks into pum_init: a second-ring dependent in the add-on.
    expect(impact.cross_project!.transitive.map((d) => `${d.project}:${d.symbol}`)).toContain('addon:pum_addon_boot');
  });
});

describe('cross-project references', () => {
  const all = () => new Set(listProjects(db).map((p) => p.id));

  it('links hooks by name and REST routes to the URLs a client in another language calls', () => {
    const hook = crossRefs(db, 'pum_init', 'all', all());
    expect(hook.edges.map((e) => [e.from_project, e.from_symbol, e.kind, e.to_project, e.to_symbol, e.file_path, e.line]))
      .toEqual([['addon', 'pum_addon_setup', 'hooks_into', 'core', 'pum_init', 'addon.php', 3]]);
    expect(hook.sites.map((s) => `${s.project}:${s.role}:${s.call}`).sort()).toEqual(['addon:uses:add_action', 'core:provides:do_action']);
    const route = crossRefs(db, '/wp-json/pum/v1/popups/*', 'depends_on', all());
    // The route's own endpoint symbol (issue 18), the innermost symbol around the registration.
    expect(route.edges.map((e) => [e.from_project, e.from_symbol, e.to_project, e.to_symbol]))
      .toEqual([['client', 'loadPopup', 'core', 'GET /pum/v1/popups/(?P<id>\\d+)']]);
    // A hook fired with a computed part links with a lower confidence.
    const dyn = crossRefs(db, 'pum_popup_loaded', 'hooks_into', all()).edges;
    expect(dyn).toHaveLength(1);
    expect(dyn[0].confidence).toBeLessThan(hook.edges[0].confidence);
  });

  it('maps the projects as a dependency graph, as JSON and Mermaid', () => {
    const map = collectionMap(db, all());
    expect(map.projects.find((p) => p.name === 'addon')!.dependencies).toEqual(['core']);
    expect(map.projects.find((p) => p.name === 'core')!.dependents).toEqual(['addon', 'client']);
    expect(map.graph_json.edges.map((e) => `${e.from}->${e.to}:${e.type}:${e.count}`)).toEqual(['addon->core:hooks_into:3', 'client->core:depends_on:1']);
    expect(collectionMermaid(map)).toMatch(/^flowchart LR\n(.|\n)*-->\|"hooks_into ×3"\|/);
  });

  it('keeps cross-project data inside the projects allowed', () => {
    const coreOnly = new Set([requireProject(db, 'core').id]);
    expect(crossRefs(db, 'pum_init', 'all', coreOnly).edges).toEqual([]);
    expect(collectionMap(db, coreOnly).cross_project_edges).toBe(0);
  });
});

describe('string-literal finder', () => {
  it('reads literal and computed hook names in PHP and wp.hooks JavaScript', () => {
    const php = findStringSites('a.php', `<?php\ndo_action('a_b');\napply_filters( "x_{$t}_y", 1 );\nadd_filter('p_' . $k, 'cb');\n$this->add_action('z');\n`);
    expect(php.map((s) => `${s.role}:${s.name}:${s.confidence}`)).toEqual(['provides:a_b:0.9', 'provides:x_*_y:0.5', 'uses:p_*:0.5', 'uses:z:0.9']);
    const js = findStringSites('a.js', `wp.hooks.addFilter( 'blocks.registerBlockType', 'ns', fn ); doAction('ready');`);
    expect(js.map((s) => `${s.role}:${s.name}`)).toEqual(['uses:blocks.registerBlockType', 'provides:ready']);
    expect(findStringSites('a.php', 'other.do_action("q");')).toEqual([]);
  });

  it('reads routes declared by Express, Flask, FastAPI, Laravel, Django and Go, and URLs called by clients', () => {
    const routes = (file: string, text: string) => findStringSites(file, text).map((s) => `${s.role} ${s.method ?? '-'} ${s.name}`);
    expect(routes('s.js', "app.get('/api/users/:id', auth, (req, res) => {}); router.post('/api/users', create);")).toEqual(['provides GET /api/users/*', 'provides POST /api/users']);
    expect(routes('s.py', "@app.route('/api/items/<int:item_id>', methods=['PUT'])\ndef put(item_id): pass\n@router.get(\"/api/things/{id}\")\ndef g(): pass"))
      .toEqual(['provides PUT /api/items/*', 'provides GET /api/things/*']);
    expect(routes('routes/api.php', "<?php Route::get('users/{user}', [C::class, 'show']);")).toEqual(['provides GET /api/users/*']);
    expect(routes('app/urls.py', "urlpatterns = [path('articles/<slug:slug>/', views.a)]")).toEqual(['provides - /articles/*']);
    expect(routes('m.go', 'r.HandleFunc("/v1/orders/{id}", h)')).toEqual(['provides - /v1/orders/*']);
    expect(routes('c.ts', "axios.post(`${BASE}/api/users`, body); fetch('https://x.io/api/users/' + id + '?a=1'); api.get('/api/items', { params });"))
      .toEqual(['uses POST /*/api/users', 'uses - /*/api/users/*', 'uses GET /api/items']);
    expect(routes('c.py', "requests.get(f'{base}/api/items/{i}')")).toEqual(['uses GET /*/api/items/*']);
    expect(routes('c.js', "apiFetch( { path: '/pum/v1/popups' } ); $.ajax({ url: ajaxurl });")).toEqual(['uses - /wp-json/pum/v1/popups']);
    // TypeScript type arguments before the call, wrapper clients, superagent's del, Flask's tuple of methods.
    expect(routes('a.ts', "this.http.get<{ article: Article }>(`/articles/${slug}`); this.apiService.post('/users', {});"))
      .toEqual(['uses GET /articles/*', 'uses POST /users']);
    expect(routes('agent.js', "requests.del(`/articles/${slug}`); articles.get(slug);")).toEqual(['uses DELETE /articles/*']);
    expect(routes('v.py', "@blueprint.route('/api/articles/<slug>', methods=('DELETE',))\ndef d(slug): pass")).toEqual(['provides DELETE /api/articles/*']);
  });

  it('computes string values and normalises routes', () => {
    expect(stringValue(`'a' . $b . "c{$d}e"`)).toBe('a*c*e');
    expect(stringValue('`/x/${y}/z`')).toBe('/x/*/z');
    expect(stringValue('$only')).toBeNull();
    expect(normalizeRoute('/popups/(?P<id>[\\d]+)/')).toBe('/popups/*');
    expect(normalizeRoute('*users')).toBe('/*/users');
  });

  it('matches hooks and routes with a quality, and refuses vague matches', () => {
    expect(hookMatch('a_b', 'a_b')).toBe(1);
    expect(hookMatch('pum_popup_loaded', 'pum_*_loaded')).toBe(0.6);
    expect(hookMatch('x', 'p*')).toBe(0);
    expect(hookMatch('cmb2_override_*_meta_save', 'cmb2_override_*_meta_save')).toBe(0.6);
    expect(hookMatch('cmb2_override_*_meta_save', 'cmb2_override_*_meta_value')).toBe(0);
    expect(routeMatch('/api/users/*', 'GET', '/api/users/*', 'GET')).toBe(1);
    expect(routeMatch('/api/users/*', 'POST', '/api/users/*', 'GET')).toBe(0);
    expect(routeMatch('/*/users/*', null, '/api/users/*', null)).toBe(0.5);
    expect(routeMatch('/*/v1/users', null, '/api/v1/users', null)).toBe(0.8);
    expect(routeMatch('/api/users', null, '/users', null)).toBe(0.4);
    expect(routeMatch('/articles/*/comments', 'GET', '/api/articles/*/comments', 'GET')).toBe(0.6);   // relative to an API root
    expect(routeMatch('/*/api/v1', null, '/api/v1', null)).toBe(0);         // nothing specific agrees
    expect(routeMatch('/api/orders', null, '/api/users', null)).toBe(0);
  });
});

describe('cg project / collection / query --collection (CLI)', () => {
  it('registers, lists, maps and queries through the real cg process', () => {
    const cliHome = tempDir('cg-home-cli-');
    const env = { ...process.env, CG_HOME: cliHome };
    const a = makeRepo(CORE, { commit: true });
    const b = makeRepo(ADDON, { commit: true });
    expect(runCg(['project', 'add', a, '--name', 'core', '--collection', 'pm', '--json'], a, { env }).json.project.status).toBe('indexed');
    expect(runCg(['project', 'add', b, '--name', 'addon', '--collection', 'pm'], b, { env }).code).toBe(0);
    const list = runCg(['project', 'list', '--json'], a, { env }).json;
    expect(list.projects.map((p: { name: string }) => p.name)).toEqual(['addon', 'core']);
    const map = runCg(['collection', 'map', 'pm', '--format', 'mermaid'], a, { env });
    expect(map.stdout).toContain('hooks_into ×3');
    const q = runCg(['query', '--collection', 'pm', 'popup settings', '--json'], a, { env }).json;
    expect(new Set(q.results.map((r: { project: string }) => r.project))).toEqual(new Set(['core', 'addon']));
    const missing = runCg(['query', '--collection', 'nope', 'x'], a, { env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('No collection is named "nope"');
    expect(runCg(['project', 'remove', 'core'], a, { env }).code).toBe(0);
    expect(runCg(['collection', 'list', '--json'], a, { env }).json.collections[0].projects).toEqual(['addon']);
  });
});
