// ctest html_report_browser: parperf's HTML report in a real browser (Debian's chromium through
// playwright-core). It measures two real programs with `parperf run`, writes their pages with
// `parperf report --html` and checks what a user does with them: the header, expanding a tree node,
// selecting an interval (the per-processor bars must change), the keyboard, names that are markup
// (they must show as text and run nothing), dark mode, the Functions view of a sampled run (against
// `parperf report --json`), why the run takes its time (the POP factors of a profile-only run, and of
// a traced MPI pipeline with its critical path, and of each phase of a run with MPI_Pcontrol, against `parperf report --json`), and `parperf diff
// --html`. Screenshots are saved in the output directory as test artifacts.
//
// Usage: node report_page.test.mjs PARPERF EXAMPLE HOSTILE MANY_THREADS OUTPUT_DIR [POP_CASES POP_PHASES]
// (POP_CASES, POP_PHASES: tests/scenarios/mpi_programs/pop_cases.c and pop_phases.c built, when the
// build has MPI)
// Exit status 77 (ctest: skipped) when the browser or playwright-core is not installed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [parperf, example, hostile, manyThreads, output, popCases, popPhases] = process.argv.slice(2);
const chromiumPath = process.env.PARPERF_CHROMIUM || '/usr/bin/chromium';

function skip(why) {
  console.log(`SKIPPED: ${why} (scripts/install-browser.sh installs chromium and playwright-core)`);
  process.exit(77);
}
if (!existsSync(chromiumPath)) skip(`no browser at ${chromiumPath}`);
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  skip(`playwright-core is not installed in tests/browser/node_modules (${e.message})`);
}

let failures = 0;
function check(condition, message) {
  if (!condition) {
    failures += 1;
    console.log(`FAILED: ${message}`);
  }
}
const parperfRun = (args) => execFileSync(parperf, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

rmSync(output, { recursive: true, force: true });
mkdirSync(output, { recursive: true });
const exampleRun = join(output, 'example-run');
const hostileRun = join(output, 'hostile-run');
parperfRun(['run', '-q', '-o', exampleRun, '--', example]);
parperfRun(['run', '-q', '-o', hostileRun, '--', hostile, '<b>argument</b>']);
const tracedRun = join(output, 'traced-run');
parperfRun(['run', '-q', '--trace', '-o', tracedRun, '--', example]);
const tracedPage = join(output, 'traced.html');
parperfRun(['report', tracedRun, '--html', tracedPage]);
const manyRun = join(output, 'many-threads-run');
parperfRun(['run', '-q', '-o', manyRun, '--', manyThreads]);
const manyPage = join(output, 'many-threads.html');
parperfRun(['report', manyRun, '--html', manyPage]);
const examplePage = join(output, 'example.html');
const hostilePage = join(output, 'hostile.html');
parperfRun(['report', exampleRun, '--html', examplePage]);
parperfRun(['report', hostileRun, '--html', hostilePage]);
const exampleJson = JSON.parse(parperfRun(['report', exampleRun, '--json']));
// pop_cases.c's pipeline on 4 ranks, traced: "stage" runs one rank after the other and makes the
// critical path; rank 0's "side" (1.5 units) hides behind the 3 later stages, off the path.
let pipelinePage = null, pipelineJson = null;
if (popCases) {
  const pipelineRun = join(output, 'pipeline-run');
  execFileSync(parperf, ['run', '-q', '--np', '4', '--trace', '-o', pipelineRun, '--', popCases, 'pipeline', '20', '2'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' } });
  pipelinePage = join(output, 'pipeline.html');
  parperfRun(['report', pipelineRun, '--html', pipelinePage]);
  pipelineJson = JSON.parse(parperfRun(['report', pipelineRun, '--json']));
} else {
  console.log('NOTE: no MPI program given: the traced run\'s POP factors and critical path are not checked');
}
// pop_phases.c on 2 ranks, traced: two phases between MPI_Pcontrol switches, each with its factors.
let phasesPage = null, phasesJson = null;
if (popPhases) {
  const phasesRun = join(output, 'phases-run');
  execFileSync(parperf, ['run', '-q', '--np', '2', '--trace', '-o', phasesRun, '--', popPhases, '20', '1'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' } });
  phasesPage = join(output, 'phases.html');
  parperfRun(['report', phasesRun, '--html', phasesPage]);
  phasesJson = JSON.parse(parperfRun(['report', phasesRun, '--json']));
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Nothing may be fetched: the page is one file.
  const requests = [];
  context.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

  // ---- the bundled example ----------------------------------------------------------------------
  await page.goto(pathToFileURL(examplePage).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  check(errors.length === 0, `the example's page has script errors: ${errors.join('; ')}`);
  const program = exampleJson.intervals[0];
  const shown = await page.textContent('[data-testid="efficiency"]');
  check(Math.abs(parseFloat(shown) - program.efficiency * 100) <= 0.6,
    `the header shows efficiency "${shown}", the JSON report says ${(program.efficiency * 100).toFixed(1)} %`);
  const header = await page.textContent('header');
  check(header.includes(exampleJson.run.command), `the header does not name the command ${exampleJson.run.command}`);
  for (const finding of exampleJson.summary.slice(0, 3))
    check(header.includes(typeof finding === 'string' ? finding : finding.text), `the header lacks the finding "${finding}"`);

  // Expanding a node: collapse an open interval (its children go), then expand it (they come back).
  const open = page.locator('table.tree tr[aria-expanded="true"]:not([data-index="0"])').first();
  check(await open.count() === 1, 'the example\'s tree opens with no expanded interval below the program');
  if (await open.count()) {
    const index = await open.getAttribute('data-index');
    const level = Number(await open.getAttribute('aria-level'));
    const row = page.locator(`table.tree tr[data-index="${index}"]`);
    const expandedRows = await page.locator('table.tree tbody tr').count();
    await row.locator('[data-toggle]').click();
    check(await row.getAttribute('aria-expanded') === 'false', `clicking the toggle of open interval ${index} did not collapse it`);
    const collapsedRows = await page.locator('table.tree tbody tr').count();
    check(collapsedRows < expandedRows, `collapsing interval ${index} left ${collapsedRows} of ${expandedRows} rows`);
    const started = Date.now();
    await row.locator('[data-toggle]').click();
    check(await row.getAttribute('aria-expanded') === 'true', `clicking the toggle of interval ${index} did not expand it`);
    check(await page.locator('table.tree tbody tr').count() === expandedRows, `expanding interval ${index} did not bring back its child rows`);
    const child = page.locator(`table.tree tr[data-index="${index}"] + tr`);
    check(Number(await child.getAttribute('aria-level')) === level + 1, 'the row after an expanded interval is not its child');
    console.log(`expanding a node took ${Date.now() - started} ms (with the click round trip)`);
  }

  // Selecting intervals: the per-processor bars follow the selection.
  const bars = async () => page.$$eval('#interval-details svg[data-testid="processor-chart"] g.bar', (gs) => gs.map((g) => g.getAttribute('data-values')).join('|'));
  const rows = page.locator('table.tree tbody tr[data-index]');
  const first = await bars();
  check(first.length > 0, 'the selected interval (the program) shows no per-processor bars');
  const programBars = await page.locator('#interval-details svg g.bar').count();
  check(programBars === exampleJson.run.threads, `the example's ${exampleJson.run.threads} threads should give one bar each in the program, got ${programBars}`);
  let changed = false;
  for (let k = 1; k < Math.min(await rows.count(), 6) && !changed; ++k) {
    await rows.nth(k).click();
    changed = (await bars()) !== first;
  }
  check(changed, 'selecting other intervals never changed the per-processor bars');

  // The keyboard: Home selects the first row, ArrowDown the next, ArrowRight/Left expand and collapse.
  await rows.first().focus();
  await page.keyboard.press('Home');
  const selected = () => page.getAttribute('table.tree tr[aria-selected="true"]', 'data-index');
  check(await selected() === '0', 'Home did not select the first interval');
  await page.keyboard.press('ArrowDown');
  check(await selected() !== '0', 'ArrowDown did not move the selection');
  check(await page.evaluate(() => document.activeElement.getAttribute('aria-selected')) === 'true', 'the selected row does not have the keyboard focus');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowLeft');
  check(await page.getAttribute('table.tree tr[data-index="0"]', 'aria-expanded') === 'false', 'ArrowLeft did not collapse the program');
  check(await page.locator('table.tree tbody tr[data-index]').count() === 1, 'collapsing the program left other rows visible');
  await page.keyboard.press('ArrowRight');
  check(await page.getAttribute('table.tree tr[data-index="0"]', 'aria-expanded') === 'true', 'ArrowRight did not expand the program');

  // Sorting a column: Execution, descending.
  await page.click('table.tree th:has-text("Execution")');
  check(await page.getAttribute('table.tree th:has-text("Execution")', 'aria-sort') === 'descending', 'clicking Execution did not sort by it');

  // A processor chart of an interval one processor ran ("initialize", by the main thread) names no
  // slowest and fastest: they would be the same processor.
  await page.locator('table.tree tr', { hasText: '"initialize"' }).first().click();
  const extremes = await page.textContent('#interval-details');
  check(!/slowest: processor (\d+) \([^)]*\), fastest: processor \1 /.test(extremes),
    `"initialize" names one processor both the slowest and the fastest: ${extremes.slice(0, 300)}`);
  // The bars' legend names the losses as the table does: no "OpenMP waiting" beside a desync colour.
  const legendWords = await page.textContent('#interval-details .legend');
  check(!legendWords.includes('OpenMP waiting') && legendWords.includes('desync'),
    `the per-processor legend names a loss the table does not: ${legendWords}`);
  // The Source column: a long path gives way, the line number after it stays in view.
  const sources = await page.$$eval('table.tree tbody td.loc', (tds) => tds.map((td) => {
    const box = td.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(td);
    const rects = [...range.getClientRects()];
    const last = rects.length ? rects[rects.length - 1] : box;
    const line = td.querySelector('.loc-line');
    const end = line ? line.getBoundingClientRect() : last;
    return { text: td.textContent, visible: end.width > 0 && end.right <= box.right + 0.5 && (line !== null || td.scrollWidth <= td.clientWidth) };
  }));
  const cut = sources.filter((c) => /:\d+$/.test(c.text) && !c.visible);
  check(sources.length > 0 && cut.length === 0, `the Source column cuts the line number of ${cut.map((c) => c.text).join(', ')}`);

  await page.screenshot({ path: join(output, 'example.png'), fullPage: false });
  await page.emulateMedia({ colorScheme: 'dark' });
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(background !== 'rgb(255, 255, 255)', `dark mode keeps a white background (${background})`);
  await page.screenshot({ path: join(output, 'example-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // ---- a traced run: the timeline, zoomed to the selected interval ---------------------------------
  await page.goto(pathToFileURL(tracedPage).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  check(await page.locator('#timeline canvas.timeline').count() === 1, 'the traced run\'s page has no timeline');
  const wholeRun = await page.textContent('#timeline .timeline-tools span');
  await page.locator('table.tree tr', { hasText: '"compute"' }).first().click();
  await page.click('#timeline button:has-text("Selected interval")');
  const zoomed = await page.textContent('#timeline .timeline-tools span');
  check(zoomed !== wholeRun, `"Selected interval" did not zoom the timeline to "compute" (still ${zoomed})`);
  await page.click('#timeline button:has-text("Whole run")');
  check(await page.textContent('#timeline .timeline-tools span') === wholeRun, '"Whole run" did not zoom back out');
  check(await page.locator('#wait-states pre').count() === 1, 'the traced run\'s page has no wait states');
  await page.locator('#timeline').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(output, 'traced.png') });

  // ---- 1 000 processors: grouped bars, not a wall of them -------------------------------------------
  await page.goto(pathToFileURL(manyPage).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  await page.locator('table.tree tr', { hasText: '"work"' }).first().click();
  const chart = page.locator('#interval-details svg[data-testid="processor-chart"]');
  const processors = Number(await chart.getAttribute('data-processors'));
  const groups = await chart.locator('g.bar').count();
  check(processors === 1000, `the interval "work" of 1 000 threads shows ${processors} processors`);
  check(groups > 0 && groups <= 64, `1 000 processors should be drawn as at most 64 grouped bars, got ${groups}`);
  check((await page.textContent('#interval-details')).includes('groups of'), 'the grouped bars do not say they are groups');
  await page.screenshot({ path: join(output, 'many-threads.png') });

  // ---- a sampled run: the Functions view of the selected interval, against parperf report --json ----
  check(await page.locator('[data-testid="functions"], [data-testid="functions-none"]').count() === 0,
    'the page of a run recorded without --sample shows a Functions view');
  const sampledRun = join(output, 'sampled-run');
  parperfRun(['run', '-q', '--sample=1000', '--sample-clock=wall', '-o', sampledRun, '--', example]);
  const sampledPage = join(output, 'sampled.html');
  parperfRun(['report', sampledRun, '--html', sampledPage]);
  const sampledJson = JSON.parse(parperfRun(['report', sampledRun, '--json']));
  errors.length = 0;
  await page.goto(pathToFileURL(sampledPage).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  check(errors.length === 0, `the sampled run's page has script errors: ${errors.join('; ')}`);
  const sampledIntervals = sampledJson.samples ? sampledJson.samples.intervals : [];
  check(sampledIntervals.length > 0, 'parperf report --json of the sampled example has no sampled intervals');
  if (sampledIntervals.length) {
    const busiest = sampledIntervals.reduce((a, b) => (b.samples > a.samples ? b : a));
    // Its row in the page: the page's data says which node the tree index is.
    const node = await page.evaluate((index) => {
      const pageData = JSON.parse(document.getElementById('parperf-data').textContent);
      const found = pageData.samples.intervals.find((i) => i.interval === index);
      return found ? found.node : -1;
    }, busiest.interval);
    check(node >= 0, `the page has no node for the sampled interval ${busiest.path.join(' > ')}`);
    for (let k = 0; k < 6 && !(await page.locator(`table.tree tr[data-index="${node}"]`).count()); ++k) {
      const closed = page.locator('table.tree tr[aria-expanded="false"] [data-toggle]');
      if (!(await closed.count())) break;
      await closed.first().click();
    }
    await page.locator(`table.tree tr[data-index="${node}"]`).click();
    const shownFunctions = await page.$$eval('#interval-details [data-testid="functions"] tbody tr',
      (trs) => trs.map((tr) => ({ function: tr.dataset.function, self: Number(tr.dataset.self), inclusive: Number(tr.dataset.inclusive) })));
    const expected = busiest.functions.map((f) => ({ function: f.function, self: f.self, inclusive: f.inclusive }));
    check(JSON.stringify(shownFunctions) === JSON.stringify(expected),
      `the Functions view of ${busiest.path.join(' > ')} shows ${JSON.stringify(shownFunctions)}, parperf report --json says ${JSON.stringify(expected)}`);
    const tableText = await page.textContent('#interval-details [data-testid="functions"]');
    const top = busiest.functions[0];
    // Each share with its 95 % interval (report.md, "samples"): the top function's, as the JSON gives it.
    const topInterval = await page.$eval('#interval-details [data-testid="functions"] tbody tr td[data-interval]',
      (td) => td.dataset.interval).catch(() => null);
    check(top && topInterval === top.self_interval.join(' '),
      `the Functions view gives ${top ? top.function : 'its top function'} the 95 % interval "${topInterval}", parperf report --json says ${top ? JSON.stringify(top.self_interval) : 'nothing'}`);
    check(/±\d/.test(tableText), `the Functions view shows no uncertainty (±) beside its shares: ${tableText.slice(0, 200)}`);
    if (top && top.file) {
      const where = `${top.file.split('/').pop()}:${top.line}`;
      check(tableText.includes(where), `the Functions view does not give ${top.function}'s file:line ${where}`);
    }
    const shownBars = await page.$$eval('#interval-details [data-testid="function-bars"] .fbar',
      (bars) => bars.map((b) => `${b.dataset.processor}:${b.dataset.function}:${b.dataset.self}/${b.dataset.samples}`));
    const expectedBars = busiest.processors.length > 1
      ? busiest.processors.map((p) => `${p.processor}:${p.function}:${p.self}/${p.samples}`) : [];
    check(JSON.stringify(shownBars) === JSON.stringify(expectedBars),
      `each processor's top function: the page shows ${shownBars.join(', ')}, parperf report --json says ${expectedBars.join(', ')}`);
    // The flame graph: every frame as many samples as the JSON's call paths through it, and zooming.
    const flameLeftOut = await page.evaluate((index) => {
      const pageData = JSON.parse(document.getElementById('parperf-data').textContent);
      return pageData.samples.intervals.find((i) => i.interval === index).flame.left_out;
    }, busiest.interval);
    const flame = page.locator('#interval-details [data-testid="flame"]');
    check(await flame.count() === 1, `the selected interval ${busiest.path.join(' > ')} has samples but no flame graph`);
    const rootSamples = Number(await flame.locator('[data-cell="0"]').getAttribute('data-samples'));
    check(rootSamples + flameLeftOut === busiest.samples,
      `the flame graph's top frame holds ${rootSamples} samples (+${flameLeftOut} left out), the interval has ${busiest.samples}`);
    const cells = await flame.locator('.flame-frame').evaluateAll(
      (frames) => frames.map((f) => ({ frames: f.dataset.frames, samples: Number(f.dataset.samples) })));
    for (const path of busiest.paths.filter((p) => p.samples >= 0.01 * busiest.samples)) {
      const cell = cells.find((c) => c.frames === JSON.stringify(path.frames));
      check(cell && cell.samples >= path.samples,
        `the flame graph should end the call path ${path.frames.join(' > ')} (${path.samples} samples in parperf report --json) ` +
        `in a frame of at least as many samples; found ${cell ? cell.samples : 'none'}`);
    }
    const widest = busiest.paths[0];
    if (widest && widest.frames.length > 0) {
      const first = JSON.stringify([widest.frames[0]]);
      await flame.locator(`.flame-frame[data-frames='${first.replace(/'/g, "\\'")}']`).first().click();
      check(await flame.locator('[data-cell="0"]').getAttribute('data-frames') === first,
        `clicking ${widest.frames[0]} in the flame graph does not zoom into it`);
      await flame.locator('[data-cell="0"]').focus();
      await page.keyboard.press('Enter');
      check(await flame.locator('[data-cell="0"]').getAttribute('data-frames') === '[]',
        'Enter on the zoomed-into top frame does not zoom back out to all samples');
    }
    await page.locator('#interval-details').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(output, 'sampled.png') });
  }

  // ---- a sampled MPI run: the samples inside MPI_Init and MPI_Finalize, counted apart, are said ----
  if (popPhases) {
    const mpiSampledRun = join(output, 'mpi-sampled-run');
    execFileSync(parperf, ['run', '-q', '--np', '2', '--sample=1000', '--sample-clock=wall', '-o', mpiSampledRun, '--', popPhases, '20', '1'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' } });
    const mpiSampledPage = join(output, 'mpi-sampled.html');
    parperfRun(['report', mpiSampledRun, '--html', mpiSampledPage]);
    const apart = JSON.parse(parperfRun(['report', mpiSampledRun, '--json'])).samples;
    check(apart && apart.start_up > 0, 'parperf report --json of the wall-clock-sampled MPI run counts no sample inside MPI_Init');
    errors.length = 0;
    await page.goto(pathToFileURL(mpiSampledPage).href);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
    check(errors.length === 0, `the sampled MPI run's page has script errors: ${errors.join('; ')}`);
    const said = await page.locator('#interval-details [data-testid="samples-apart"]').textContent({ timeout: 3000 }).catch(() => '');
    const count = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    check(apart && said.includes(`${count(apart.start_up)} more samples during start-up`) &&
      said.includes(`${count(apart.shut_down)} during shut-down`),
      `the page of a sampled MPI run does not say its start-up and shut-down samples (${apart ? `${apart.start_up} and ${apart.shut_down}` : 'none'}, parperf report --json), as the text report does: "${said}"`);
    // Open MPI starts progress threads of its own in each rank (PMIx's, its event loop's): never
    // sampled, and the page says how many were left out.
    check(apart && apart.model_threads > 0, 'parperf report --json of the MPI run counts none of Open MPI\'s own threads as left out');
    const leftOut = await page.locator('#interval-details [data-testid="model-threads"]').textContent({ timeout: 3000 }).catch(() => '');
    check(apart && leftOut.includes(`${count(apart.model_threads)} threads that the programming model's libraries started`),
      `the page of a sampled MPI run does not say how many of the MPI library's own threads were left out (${apart ? apart.model_threads : 'none'}, parperf report --json): "${leftOut}"`);
  }

  // ---- hostile names ------------------------------------------------------------------------------
  let dialogs = 0;
  page.on('dialog', async (d) => { dialogs += 1; await d.dismiss(); });
  errors.length = 0;
  await page.goto(pathToFileURL(hostilePage).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  // Expand everything there is, so every name is on screen.
  for (let k = 0; k < 5; ++k) {
    const closed = page.locator('table.tree tr[aria-expanded="false"] [data-toggle]');
    if (!(await closed.count())) break;
    await closed.first().click();
  }
  const treeText = await page.textContent('table.tree');
  check(treeText.includes('<img src=x onerror=alert(1)>'), 'the interval named <img src=x onerror=alert(1)> is not shown as text');
  check(treeText.includes('inner "quoted" & \'apostrophe\''), 'the interval with quotes and an ampersand is not shown as written');
  const sourceText = await page.textContent('body');
  check(sourceText.includes('<svg onload=alert(3)>.c'), 'the file named <svg onload=alert(3)>.c is not shown as text');
  check(sourceText.includes('<b>argument</b>'), 'the command line with markup is not shown as text');
  check(await page.locator('#app img[src="x"], #app iframe, #app b, #app svg[onload]').count() === 0, 'a name from the program became an element of the page');
  const hostileRow = page.locator('table.tree tr', { hasText: '<img src=x onerror=alert(1)>' }).first();
  await hostileRow.click();
  await page.waitForTimeout(200);
  const events = await page.textContent('#interval-details [data-testid="events"]');
  check(events.includes('</script><script>alert(2)</script>'), `the user event's name is not shown as text: ${events}`);
  check(events.includes('<b onmouseover=alert(4)>bold</b>'), `the user event's text is not shown as text: ${events}`);
  check(dialogs === 0, `a name from the program ran script: ${dialogs} alert dialog(s)`);
  check(errors.length === 0, `the hostile page has script errors: ${errors.join('; ')}`);
  await page.screenshot({ path: join(output, 'hostile.png') });

  // ---- why the run takes its time: the POP factors and the critical path ---------------------------
  // The page's factors, column by column, as the table shows them (3 decimals, '–' for none).
  async function popCells() {
    return page.$$eval('[data-testid="pop-table"] td[data-factor]', (cells) =>
      cells.map((c) => ({ factor: c.dataset.factor, column: c.dataset.column, text: c.textContent })));
  }
  function checkPop(cells, factors, column, what) {
    for (const key of ['parallel_efficiency', 'load_balance', 'communication_efficiency', 'serialisation_efficiency', 'transfer_efficiency']) {
      const cell = cells.find((c) => c.factor === key && c.column === column);
      const expected = factors[key] === null || factors[key] === undefined ? '–' : factors[key].toFixed(3);
      check(cell && cell.text === expected,
        `${what}: the page shows ${key.replace(/_/g, ' ')} (${column}) as "${cell ? cell.text : 'nothing'}", parperf report --json says ${expected}`);
    }
  }
  // The text of what the page may lack: '' at once rather than waiting for it.
  async function textOf(selector) {
    const found = page.locator(selector);
    return (await found.count()) ? found.first().textContent() : '';
  }
  errors.length = 0;
  await page.goto(pathToFileURL(examplePage).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  checkPop(await popCells(), exampleJson.pop, 'overall', 'the profile-only example');
  const profileNote = await textOf('[data-testid="pop-note"]');
  check(profileNote.includes('--trace') && /serialisation and transfer/i.test(profileNote),
    `the profile-only page does not say that serialisation and transfer efficiency need --trace: "${profileNote}"`);
  check(await page.locator('#critical-path').count() === 0, 'the profile-only page shows a critical path it cannot know');
  if (pipelinePage) {
    await page.goto(pathToFileURL(pipelinePage).href);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
    check(errors.length === 0, `the traced pipeline's page has script errors: ${errors.join('; ')}`);
    const cells = await popCells();
    checkPop(cells, pipelineJson.pop, 'overall', 'the traced pipeline');
    check(pipelineJson.pop.mpi, 'parperf report --json gives the 4-rank pipeline no MPI factors');
    if (pipelineJson.pop.mpi) checkPop(cells, pipelineJson.pop.mpi, 'MPI', 'the traced pipeline');
    const onPath = await textOf('#critical-path [data-testid="path-intervals"]');
    check(onPath.includes('stage'), `the critical path's intervals do not name "stage", which is most of it: ${onPath}`);
    check(!onPath.includes('side'), `"side" is listed on the critical path, though it hides behind the other ranks' stages: ${onPath}`);
    const offPath = await textOf('#critical-path [data-testid="path-off"]');
    check(offPath.includes('side'), `the page does not say that "side" is off the critical path: "${offPath}"`);
    const offInJson = pipelineJson.critical_path.intervals.filter((i) => i.off_path).map((i) => i.name);
    check(offInJson.includes('side') && offInJson.every((name) => offPath.includes(name)),
      `parperf report --json names ${JSON.stringify(offInJson)} off the path, the page "${offPath}"`);
    const functions = await textOf('#critical-path [data-testid="path-functions"]');
    check(functions.includes('--sample'), `the unsampled run's page does not say that --sample gives the functions on the path: "${functions}"`);
    const length = await textOf('#critical-path [data-testid="path-length"]');
    // Shown to 3 significant digits: within 0.5 % of the JSON's.
    const shownLength = /Length ([\d.]+) (s|ms|µs)/.exec(length);
    const lengthSeconds = shownLength ? Number(shownLength[1]) * { s: 1, ms: 1e-3, 'µs': 1e-6 }[shownLength[2]] : NaN;
    check(Math.abs(lengthSeconds - pipelineJson.critical_path.length) <= 0.005 * pipelineJson.critical_path.length,
      `the critical path's length reads "${length}", parperf report --json says ${pipelineJson.critical_path.length} s`);
    const causes = await textOf('#delay-costs');
    check(/Rank \d's interval "stage" at pop_cases\.c:\d+ makes \d+ other locations? wait /.test(causes),
      `the root causes of waiting do not name a rank's "stage" as the findings do: ${causes}`);
    if (await page.locator('#critical-path').count()) {
      await page.locator('#efficiency-factors').screenshot({ path: join(output, 'pipeline-pop.png') });
      await page.locator('#critical-path').screenshot({ path: join(output, 'pipeline-critical-path.png') });
    }
  }

  if (phasesPage) {
    await page.goto(pathToFileURL(phasesPage).href);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
    check(errors.length === 0, `the phased run's page has script errors: ${errors.join('; ')}`);
    const phases = phasesJson.pop.phases || [];
    check(phases.length === 2, `parperf report --json gives pop_phases.c ${phases.length} phases, not 2`);
    const cells = await page.$$eval('[data-testid="pop-phases"] td[data-factor]', (all) =>
      all.map((c) => ({ factor: c.dataset.factor, column: c.dataset.column, text: c.textContent })));
    for (const phase of phases) checkPop(cells, phase, `phase ${phase.phase}`, 'the phased run');
    if (await page.locator('[data-testid="pop-phases"]').count())
      await page.locator('#efficiency-factors').screenshot({ path: join(output, 'phases-pop.png') });
  }

  // ---- parperf diff --html: the example against the hostile program, two different runs ------------
  const diffPage = join(output, 'diff.html');
  let diffWritten = true;
  try {
    parperfRun(['diff', exampleRun, hostileRun, '--html', diffPage]);
  } catch (e) {
    diffWritten = false;
    check(false, `parperf diff --html failed: ${e.stderr || e.message}`);
  }
  if (diffWritten) {
    await page.goto(pathToFileURL(diffPage).href);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
    const text = await page.textContent('body');
    check(await page.locator('[data-status="vanished"]').count() > 0 && await page.locator('[data-status="new"]').count() > 0,
      'the diff page does not mark new and vanished intervals');
    const diffJson = JSON.parse(parperfRun(['diff', exampleRun, hostileRun, '--json']));
    check(Math.abs(parseFloat(await page.textContent('[data-testid="speedup"]')) - diffJson.program.speedup) < 0.01 * diffJson.program.speedup,
      `the diff page's speedup differs from parperf diff --json's ${diffJson.program.speedup}`);
    check(text.includes('<img src=x onerror=alert(1)>'), 'the diff page does not show the hostile interval name as text');
    check(dialogs === 0, 'the diff page ran script from a name');
    await page.screenshot({ path: join(output, 'diff.png') });
  }

  check(requests.length === 0, `the pages fetched from the network: ${requests.join(', ')}`);
  console.log(`page sizes: example ${statSync(examplePage).size} bytes, hostile ${statSync(hostilePage).size} bytes`);
} finally {
  await browser.close();
}
if (failures) {
  console.log(`${failures} check(s) failed; pages and screenshots are in ${output}`);
  process.exit(1);
}
console.log(`all checks passed; pages and screenshots are in ${output}`);
