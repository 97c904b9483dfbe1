import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startView, type ViewServer } from '../src/view/server.js';
import { ROOT, git, runCg, tempDir } from './helpers.js';

/**
 * `cg view` in a real browser (Debian's Chromium driven by Playwright) on a real repository (this
 * one, cloned at HEAD and indexed): each view is loaded, used as a person would (search, click a node
 * to expand it, click an edge to follow it, submit a query) and compared with the CLI's answer for
 * the same question. A screenshot per view goes to $CG_SCREENS (when set).
 */
const CHROMIUM = process.env.CG_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`test/view.test.ts skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CG_CHROMIUM)`);
}

describe.skipIf(!haveChromium)('cg view in Chromium', () => {
  let root: string;
  let view: ViewServer;
  let browser: Browser;
  let page: Page;
  const screens = process.env.CG_SCREENS;

  beforeAll(async () => {
    root = path.join(tempDir('cg-view-'), 'repo');
    execGit(['clone', '-q', '--no-hardlinks', ROOT, root]);
    // Lexical ranking only, so that the page and the CLI rank with the same evidence without a model load.
    fs.mkdirSync(path.join(root, '.codegraph'), { recursive: true });
    fs.writeFileSync(path.join(root, '.codegraph', 'config.json'), JSON.stringify({ embeddings: { enabled: false } }));
    expect(runCg(['index', '-q'], root, { timeout: 300_000 }).code).toBe(0);
    view = await startView(root, { port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    (page as unknown as { errors: string[] }).errors = errors;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await view?.close();
  });

  function execGit(args: string[]): void {
    git(ROOT, ...args);
  }

  /** Waits until the view at a hash starting with `prefix` has drawn its answer. */
  async function loaded(prefix: string): Promise<void> {
    await page.waitForFunction((p) => { const v = (window as any).cgView; return v?.loaded === true && v.ready === true && String(v.route).startsWith(p); },
      prefix, { timeout: 60_000 });
  }

  async function open(hash: string): Promise<void> {
    await page.goto(`${view.url}#${hash}`);
    await loaded(`#${hash}`);
  }

  async function shot(name: string): Promise<void> {
    if (!screens) return;
    fs.mkdirSync(screens, { recursive: true });
    await page.screenshot({ path: path.join(screens, `${name}.png`) });
  }

  const texts = (sel: string) => page.$$eval(sel, (els) => els.map((e) => (e.querySelector('a') ?? e).textContent!.trim()));

  it('map: the files of `cg map` and the links between them', async () => {
    await open('map');
    const cli = runCg(['map', '--budget', '4000', '--json'], root).json;
    const drawn = await page.evaluate(() => (window as any).cgView.cy.nodes().map((n: any) => n.data('file')));
    expect(drawn).toEqual(cli.files.map((f: any) => f.path));
    expect(await page.$$eval('#files > li', (els) => els.map((e) => e.getAttribute('data-file')))).toEqual(cli.files.map((f: any) => f.path));
    expect(await page.evaluate(() => (window as any).cgView.cy.edges().length)).toBeGreaterThan(0);
    await shot('view-map');
  });

  it('search, then a symbol: its callers and callees are those of `cg refs`; a click expands, an edge click follows', async () => {
    await open('map');
    await page.fill('#search', 'blastRadius');
    await page.waitForSelector('#results li[data-id]');
    await page.click('#results li[data-id]:has-text("function blastRadius")');
    await loaded('#symbol/');
    const refs = runCg(['refs', 'src/graph/blast.ts:blastRadius', '--both', '--json'], root).json;
    expect((await texts('#callers li')).sort()).toEqual([...new Set(refs.callers.filter((c: any) => c.depth === 1).map((c: any) => c.qualifiedName))].sort());
    expect((await texts('#callees li')).sort()).toEqual([...new Set(refs.callees.filter((c: any) => c.depth === 1).map((c: any) => c.qualifiedName))].sort());
    await shot('view-symbol');

    // Expand: a real click on a neighbour's node adds its own neighbours.
    const before = await page.evaluate(() => (window as any).cgView.cy.nodes().length);
    const box = (await page.locator('#graph').boundingBox())!;
    const target = await page.evaluate(() => {
      const cy = (window as any).cgView.cy;
      const n = cy.nodes().filter((x: any) => !x.hasClass('center') && x.data('label') === 'changeTargets')[0] ?? cy.nodes().filter((x: any) => !x.hasClass('center'))[0];
      return n.renderedPosition();
    });
    await page.mouse.click(box.x + target.x, box.y + target.y);
    await page.waitForFunction((n) => (window as any).cgView.cy.nodes().length > n && (window as any).cgView.expanded === 1, before, { timeout: 30_000 });

    // Follow: a click on an edge's middle opens the symbol it points at.
    const edge = await page.evaluate(() => {
      const cy = (window as any).cgView.cy;
      const center = cy.nodes('.center')[0];
      const e = center.outgoers('edge').filter((x: any) => x.data('kind') === 'calls')[0];
      cy.nodes().lock();
      return { mid: e.renderedMidpoint(), target: e.target().data('symbolId'), label: e.target().data('label') };
    });
    await page.mouse.click(box.x + edge.mid.x, box.y + edge.mid.y);
    await loaded(`#symbol/${edge.target}`);
    expect(await page.textContent('#panel h2')).toContain(edge.label);
  }, 120_000);

  it('impact: the dependents of `cg impact`', async () => {
    const id = await page.evaluate(async () => (await (await fetch('/api/search?q=changeTargets')).json()).symbols
      .find((x: any) => x.label === 'changeTargets' && x.kind === 'function').id);
    await open(`impact/${id}`);
    const cli = runCg(['impact', '--symbol', 'src/graph/targets.ts:changeTargets', '--json'], root).json;
    const expected = [...Object.values(cli.direct).flat(), ...cli.transitive].map((d: any) => d.symbol);
    expect((await texts('#dependents li')).sort()).toEqual(expected.sort());
    expect(await page.evaluate(() => (window as any).cgView.cy.nodes().length)).toBe(expected.length + cli.targets.length);
    await shot('view-impact');
  });

  it('query: the places of `cg query`, in its order', async () => {
    await open('query');
    const question = 'which tests cover a changed symbol';
    await page.fill('#query', question);
    await page.click('#query-form button');
    await loaded('#query/');
    const cli = runCg(['query', question, '--json'], root).json;
    const shown = await page.$$eval('#places li', (els) => els.map((e) => e.getAttribute('data-path')));
    expect(shown).toEqual(cli.files.map((f: any) => f.path));
    expect(shown.length).toBeGreaterThan(0);
    await shot('view-query');
    expect((page as unknown as { errors: string[] }).errors).toEqual([]);
  });
});
