// parperf's HTML report: draws the page from the JSON element #parperf-data (page_data.cpp for a
// report, diff_json for a comparison). No library, no network: the page is one file.
//
// Safety: every name in the data comes from the measured program (interval names, files, user-event
// text, the command line). They reach the document only through text nodes and attribute values
// (el() below): never innerHTML, never a script or URL context.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('parperf-data').textContent);
  const app = document.getElementById('app');
  const SVG = 'http://www.w3.org/2000/svg';

  // ---- DOM helpers: text only ------------------------------------------------------------------
  function append(node, children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child)) append(node, child);
      else node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  function setAttributes(node, attrs) {
    if (!attrs) return;
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.setAttribute('class', value);
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttributes(node, attrs);
    return append(node, children);
  }
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    setAttributes(node, attrs);
    return append(node, children);
  }

  // ---- numbers in the user's units -------------------------------------------------------------
  function sig(value, digits) {
    const text = value.toPrecision(digits);
    return text.includes('e') ? String(Number(text)) : String(Number(text));
  }
  function fmtTime(seconds) {
    if (seconds === null || seconds === undefined || !isFinite(seconds)) return '–';
    const a = Math.abs(seconds);
    if (a === 0) return '0';
    if (a >= 100) return seconds.toFixed(0) + ' s';
    if (a >= 1) return sig(seconds, 3) + ' s';
    if (a >= 1e-3) return sig(seconds * 1e3, 3) + ' ms';
    if (a >= 1e-6) return sig(seconds * 1e6, 3) + ' µs';
    return sig(seconds * 1e9, 3) + ' ns';
  }
  function fmtPct(fraction) {
    if (fraction === null || fraction === undefined || !isFinite(fraction)) return '–';
    const p = fraction * 100;
    return (Math.abs(p) >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(1)) + ' %';
  }
  function fmtCount(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function fmtBytes(b) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let u = 0;
    while (b >= 1024 && u < units.length - 1) { b /= 1024; ++u; }
    return (u === 0 ? String(b) : sig(b, 3)) + ' ' + units[u];
  }
  function efficiencyClass(e) { return e >= 0.8 ? 'good' : e >= 0.5 ? 'fair' : 'poor'; }
  function location(file, line, endLine) {
    if (!file) return '';
    if (!line) return file;
    return endLine && endLine > line ? `${file}:${line}–${endLine}` : `${file}:${line}`;
  }
  // A narrow Source cell: the file name gives way (an ellipsis), never the line number after it.
  function sourceCell(file, line, endLine) {
    const where = location(file, line, endLine);
    if (!file || !line) return where;
    return el('span', { class: 'loc-cell' }, el('span', { class: 'loc-file' }, file), el('span', { class: 'loc-line' }, where.slice(file.length)));
  }
  function findingText(f) { return typeof f === 'string' ? f : f.text; }

  // The kinds of lost time, in the order the bars stack them.
  const LOSSES = [
    ['insufficient', 'insufficient parallelism'],
    ['communication', 'communication'],
    ['idle', 'idle'],
    ['desync', 'desync (end of work-sharing)'],
    ['waiting', 'synchronization waiting'],
  ];
  function legend(kinds) {
    return el('div', { class: 'legend', 'aria-hidden': 'true' },
      kinds.map(([key, words]) => el('span', null, el('i', { class: 'k-' + key }), words)));
  }

  // A table whose columns sort on a click (or Enter) on their header. `columns`: [{title, value(row),
  // cell(row) -> node or text, num}]; rows are shown up to `limit`, with a button for the rest.
  function sortableTable(columns, rows, options) {
    const opts = Object.assign({ limit: 50, sortColumn: -1, className: '' }, options || {});
    let order = rows.slice();
    let shown = opts.limit;
    let sortColumn = opts.sortColumn, descending = true;
    const tbody = el('tbody');
    const headers = columns.map((c, k) => el('th', {
      class: (c.num ? 'num ' : '') + (c.value ? 'sortable' : ''), scope: 'col', tabindex: c.value ? 0 : null,
      onclick: () => sortBy(k), onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(k); } },
    }, c.title));
    function sortBy(k) {
      const c = columns[k];
      if (!c.value) return;
      descending = sortColumn === k ? !descending : true;
      sortColumn = k;
      order = rows.slice().sort((a, b) => {
        const x = c.value(a), y = c.value(b);
        const r = typeof x === 'string' ? x.localeCompare(y) : x - y;
        return descending ? -r : r;
      });
      headers.forEach((h, j) => h.setAttribute('aria-sort', j === k ? (descending ? 'descending' : 'ascending') : 'none'));
      draw();
    }
    function draw() {
      const body = order.slice(0, shown).map((row) => el('tr', null, columns.map((c) =>
        el('td', { class: c.num ? 'num' : '' }, c.cell ? c.cell(row) : String(c.value(row))))));
      if (order.length > shown) {
        body.push(el('tr', { class: 'more' }, el('td', { colspan: columns.length },
          el('button', { onclick: () => { shown += opts.limit * 4; draw(); } },
            `${order.length - shown} more rows: show more`))));
      }
      tbody.replaceChildren(...body);
    }
    if (sortColumn >= 0) { descending = !descending; const k = sortColumn; sortColumn = -1; descending = false; sortBy(k); }
    else draw();
    return el('table', { class: opts.className }, el('thead', null, el('tr', null, headers)), tbody);
  }

  // ================================ the report page =================================================
  let selectedNode = null;  // the interval selected in the tree, which the timeline can zoom to
  function reportPage() {
    const run = data.run;
    const strings = data.strings;
    const nodes = buildNodes(data.intervals, strings);
    const roots = nodes.filter((n) => n.parent < 0);
    const program = roots[0];

    const sections = [];
    const toc = [];
    function section(id, title, ...content) {
      toc.push(el('a', { href: '#' + id }, title));
      sections.push(el('section', { id, 'aria-labelledby': id + '-title' }, el('h2', { id: id + '-title' }, title), content));
    }

    if (run.warnings && run.warnings.length)
      section('warnings', 'Warnings', run.warnings.map((w) => el('div', { class: 'warning' }, w)));
    if (data.pop) section('efficiency-factors', 'Efficiency factors', popView(data.pop));
    section('findings', 'Findings', findingsList(data.findings));
    if (nodes.length) section('intervals', 'Intervals', intervalsView(nodes, roots));
    if (data.src_points.length)
      section('src-points', 'SRC points', srcPointsView());
    const communication = communicationView();
    if (communication) section('communication', 'Communication', communication);
    if (data.critical_path) section('critical-path', 'Critical path', criticalPathView(data.critical_path));
    if (data.delay_costs) section('delay-costs', 'Root causes of waiting', delayCostsView(data.delay_costs));
    if (data.timeline) section('timeline', 'Timeline', timelineView(data.timeline));
    if (data.wait_states) section('wait-states', 'Wait states', textSection(data.wait_states));
    if (data.locality) section('locality', 'Memory locality', textSection(data.locality));
    if (data.prediction) section('prediction', 'Scalability prediction', textSection(data.prediction));

    append(app, [header(run, program), el('nav', { class: 'toc', 'aria-label': 'Sections' }, toc), sections]);
    document.title = 'parperf report: ' + (run.command || run.directory);
  }

  // The tree's columns as objects, with the figures the page derives (Total, Lost, efficiency).
  function buildNodes(columns, strings) {
    const n = columns.parent.length;
    const nodes = new Array(n);
    for (let i = 0; i < n; ++i) {
      const node = {
        index: i, parent: columns.parent[i], level: columns.level[i], kind: strings[columns.kind[i]],
        name: columns.name[i], file: strings[columns.file[i]], line: columns.line[i], endLine: columns.end_line[i],
        count: columns.count[i], open: columns.open[i] === 1, processors: columns.processors[i],
        threads: columns.threads[i], execution: columns.execution[i], productive: columns.productive[i],
        insufficient: columns.insufficient[i], communication: columns.communication[i], idle: columns.idle[i],
        desync: columns.desync[i], waiting: columns.waiting[i], imbalance: columns.imbalance[i],
        synchronization: columns.synchronization[i], variation: columns.variation[i], startup: columns.startup[i],
        osCpu: columns.os_cpu[i], diagnosis: columns.diagnosis[i] >= 0 ? strings[columns.diagnosis[i]] : null, children: [],
      };
      node.total = columns.total[i];
      node.lost = columns.lost[i];
      node.efficiency = columns.efficiency[i];
      node.label = node.kind + (node.name && node.name !== node.kind ? ` "${node.name}"` : '');
      nodes[i] = node;
      if (node.parent >= 0) nodes[node.parent].children.push(node);
    }
    return nodes;
  }
  function largestLoss(node) {
    let best = null;
    for (const [key, words] of LOSSES) if (node[key] > 0 && (!best || node[key] > node[best[0]])) best = [key, words];
    return best;
  }

  function header(run, program) {
    const facts = [];
    function fact(term, ...value) { facts.push(el('dt', null, term), el('dd', null, value)); }
    fact('command', el('span', { class: 'mono' }, run.command || '(unknown)'));
    if (run.started) fact('started', run.started.replace('T', ' ').replace('Z', ' UTC') + (run.host ? ' on ' + run.host : ''));
    else if (run.host) fact('host', run.host);
    const procs = run.processes < run.world_size ? `${run.processes} of ${run.world_size}` : String(run.processes);
    if (run.processes) fact('processes', `${procs} process${run.processes === 1 ? '' : 'es'}, ${run.threads} thread${run.threads === 1 ? '' : 's'}; a processor is a ${run.unit}`);
    if (program) fact('execution time', fmtTime(program.execution) + (program.startup > 0 ? ` (plus ${fmtTime(program.startup / Math.max(1, program.processors))} of start-up and shut-down: ${run.mpi ? 'MPI_Init, MPI_Finalize' : 'shmem_init, shmem_finalize'})` : ''));
    if (run.openmp_runtime) fact('OpenMP', run.openmp_runtime);
    if (run.mpi) fact('MPI', run.mpi.library);
    if (run.directory) fact('run directory', el('span', { class: 'mono' }, run.directory));
    const efficiency = program ? program.efficiency : null;
    const top = (data.findings || []).slice(0, 3).map(findingText);
    return el('header', { class: 'summary' },
      el('div', null, el('h1', null, 'parperf report'), el('dl', { class: 'facts' }, facts)),
      el('div', { class: 'big ' + (efficiency === null ? '' : efficiencyClass(efficiency)), 'data-testid': 'efficiency' }, fmtPct(efficiency),
        el('small', null, 'parallel efficiency')),
      top.length
        ? el('ol', { class: 'losses', 'aria-label': 'The biggest losses' }, top.map((text) => el('li', null, text)))
        : el('p', { class: 'losses' }, 'No loss worth naming: the processors were busy with the program\'s own work.'));
  }

  function findingsList(findings) {
    if (!findings || !findings.length) return el('p', null, 'No finding: nothing loses a significant share of the time (docs/diagnosis.md has the rules).');
    return el('ol', { class: 'findings' }, findings.map((f) => el('li', { 'data-rule': f.rule },
      el('span', { class: 'badge' }, f.rule.replace(/_/g, ' ')), ' ', f.text,
      f.estimated_gain > 0 ? el('div', { class: 'muted' }, `estimated gain up to ${fmtTime(f.estimated_gain)} of processor time` +
        (f.remedy ? `; remedy: ${f.remedy.replace(/_/g, ' ')}` : '')) : null,
      evidenceText(f.evidence) ? el('div', { class: 'muted mono' }, 'evidence: ' + evidenceText(f.evidence)) : null)));
  }
  function evidenceText(evidence) {
    if (!evidence) return '';
    return Object.entries(evidence).filter(([, v]) => typeof v === 'number' || typeof v === 'string')
      .map(([k, v]) => `${k} ${typeof v === 'number' ? sig(v, 3) : v}`).join(', ');
  }

  function textSection(part) {
    return [
      part.pictures.length ? el('div', { class: 'pictures' }, part.pictures.map((p) =>
        el('figure', null, el('img', { class: 'picture', src: p.src, alt: p.title }), el('figcaption', { class: 'muted' }, p.title)))) : null,
      part.text ? el('pre', { class: 'mono' }, part.text) : null,
    ];
  }

  // ---- why the run takes its time: POP factors, critical path, delay costs (dependency_sections.cpp) --
  const POP_ROWS = [
    ['parallel_efficiency', 'Parallel efficiency', 0],
    ['load_balance', 'Load balance', 1],
    ['communication_efficiency', 'Communication efficiency', 1],
    ['serialisation_efficiency', 'Serialisation efficiency', 2],
    ['transfer_efficiency', 'Transfer efficiency', 2],
  ];
  function popView(pop) {
    const columns = [['overall', pop]];
    if (pop.mpi) columns.push(['MPI', pop.mpi]);
    if (pop.openmp) columns.push(['OpenMP', pop.openmp]);
    const factorCell = (factors, key, column) => {
      const value = factors[key];
      return el('td', { class: 'num' + (value === null || value === undefined ? '' : ' ' + efficiencyClass(value)), 'data-factor': key, 'data-column': column },
        value === null || value === undefined ? '–' : value.toFixed(3));
    };
    const table = el('table', { class: 'compact pop', 'data-testid': 'pop-table' },
      el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'Factor'), columns.map(([title]) => el('th', { class: 'num', scope: 'col' }, title)))),
      el('tbody', null, POP_ROWS.map(([key, title, depth]) => el('tr', null,
        el('th', { scope: 'row', style: `padding-left:${0.5 + depth * 1.2}em` }, title),
        columns.map(([title, factors]) => factorCell(factors, key, title))))));
    const note = pop.source === 'trace'
      ? `From the event trace: ${pop.phases && pop.phases.length ? 'the recorded phases' : 'the run'} took ${fmtTime(pop.run_time)}, ${fmtTime(pop.ideal_time)} on an ideal network and runtime; useful computation per location: max ${fmtTime(pop.max_useful)}, mean ${fmtTime(pop.mean_useful)}.`
      : 'From the profile. Serialisation and transfer efficiency need the event trace: record with parperf run --trace.';
    return [table, el('p', { class: 'muted', 'data-testid': 'pop-note' }, note), popPhasesView(pop, factorCell)];
  }
  // The phases (parperf_control, MPI_Pcontrol, omp_control_tool): the table above is over their time.
  function popPhasesView(pop, factorCell) {
    if (!pop.phases || !pop.phases.length) return null;
    return [
      el('p', { class: 'muted' }, `Over the ${pop.phases.length} recorded phases; recording was off for ${fmtTime(pop.paused_time)} between them.`),
      el('table', { class: 'compact pop', 'data-testid': 'pop-phases' },
        el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'Phase'), el('th', { class: 'num', scope: 'col' }, 'Time'),
          POP_ROWS.map(([, title]) => el('th', { class: 'num', scope: 'col' }, title)))),
        el('tbody', null, pop.phases.map((p) => el('tr', { 'data-phase': p.phase },
          el('th', { scope: 'row' }, String(p.phase)), el('td', { class: 'num' }, fmtTime(p.run_time)),
          POP_ROWS.map(([key]) => factorCell(p, key, 'phase ' + p.phase)))))),
    ];
  }
  function pathIntervalLabel(i) {
    if (!i.name) return 'code outside every interval';
    return i.name + (i.file ? ' (' + location(i.file, i.line) + ')' : '');
  }
  function criticalPathView(path) {
    if (!(path.length > 0)) return el('p', null, 'The trace holds no activity to follow.');
    const changes = path.location_changes;
    const parts = [el('p', { 'data-testid': 'path-length' },
      `Length ${fmtTime(path.length)} (the run's time), through ${path.locations.length} location${path.locations.length === 1 ? '' : 's'}, changing location ${changes} time${changes === 1 ? '' : 's'}.`)];
    if (path.computation > 0)
      parts.push(el('p', null, `Computation on it: ${fmtTime(path.computation)} (${fmtPct(path.computation / path.length)}), of which ${fmtTime(path.while_others_work)} while the other locations worked and ${fmtTime(path.while_others_wait)} while they waited or idled.`));
    const shareColumns = (name, title) => [
      { title, value: name, cell: name },
      { title: 'Time on the path', num: true, value: (r) => r.time, cell: (r) => fmtTime(r.time) },
      { title: 'Share', num: true, value: (r) => r.share, cell: (r) => fmtPct(r.share) },
    ];
    parts.push(el('h3', null, 'Intervals on the path'));
    const onPath = path.intervals.filter((i) => i.time > 0);
    parts.push(el('div', { 'data-testid': 'path-intervals' }, onPath.length ?
      sortableTable(shareColumns(pathIntervalLabel, 'Interval'), onPath, { limit: 10, className: 'compact' }) :
      el('p', null, path.no_interval)));
    if (path.startup_note) parts.push(el('p', { 'data-testid': 'path-startup' }, `${path.startup_note}.`));
    const off = path.intervals.filter((i) => i.off_path);
    if (off.length) parts.push(el('ul', { 'data-testid': 'path-off' }, off.map((i) => el('li', null,
      `${pathIntervalLabel(i)} is off the path (${fmtPct(i.share)} of it for ${fmtTime(i.total_time)} of work): making it faster gains nothing`))));
    parts.push(el('h3', null, 'Functions on the path'));
    const fn = path.function_samples || {};
    if (!fn.sampled) parts.push(el('p', { 'data-testid': 'path-functions' }, 'Record with `parperf run --trace --sample` to see the functions on the path.'));
    else parts.push(el('div', { 'data-testid': 'path-functions' }, [
      el('p', { class: 'muted' }, `From ${fn.on_path} of the run's ${fn.samples} call-path samples.`),
      sortableTable(shareColumns((f) => f.name, 'Function').concat([
        { title: 'Self on the path', num: true, value: (f) => f.self, cell: (f) => fmtTime(f.self) },
        { title: 'Total over the run', num: true, value: (f) => f.total_time, cell: (f) => fmtTime(f.total_time) },
      ]), path.functions.filter((f) => f.time > 0), { limit: 10, className: 'compact' })]));
    parts.push(el('h3', null, 'Activities on the path'));
    parts.push(sortableTable(shareColumns((a) => a.name, 'Activity'), path.activities, { limit: 10, className: 'compact' }));
    parts.push(el('h3', null, 'Locations on the path'));
    parts.push(sortableTable(shareColumns((l) => l.name, 'Location'), path.locations, { limit: 10, className: 'compact' }));
    if (path.dependencies) parts.push(el('p', { class: 'muted', 'data-testid': 'path-dependencies' }, path.dependencies));
    parts.push(el('p', { class: 'muted' }, path.clock_repair));
    return parts;
  }
  function delayCostsView(delays) {
    if (!(delays.waiting > 0)) return el('p', null, 'No location waited for another.');
    if (!(delays.charged > 0)) return el('p', { 'data-testid': 'delay-summary' }, `${delays.summary}.`);
    return [el('p', { 'data-testid': 'delay-summary' }, `${delays.summary}:`),
      delays.causes.length ? el('ol', { 'data-testid': 'delay-causes' }, delays.causes.map((c) => el('li', null, c))) :
        el('p', null, 'No one cause accounts for 1 % of it.')];
  }

  // ---- the interval tree ------------------------------------------------------------------------
  const CHILDREN_SHOWN = 200;  // per expanded node, then a row to show more: a node may have thousands
  const ROW_HEIGHT = 28;       // px, as report.css fixes it for table.tree rows
  const ROWS_AROUND = 30;      // rows kept in the document above and below the visible ones

  function intervalsView(nodes, roots) {
    const state = { expanded: new Set(), selected: roots.length ? roots[0] : null, sort: null, descending: true, shown: new Map() };
    // Open the first levels while they stay short, so the page starts with something to read.
    (function openStart(list, budget) {
      for (const n of list) if (n.children.length && budget > 0) { state.expanded.add(n); budget -= n.children.length; }
      if (budget > 0 && list.length < 30) for (const n of list) openStart(n.children, budget / Math.max(1, list.length));
    })(roots, 60);

    const columns = [
      { key: 'label', title: 'Interval', width: '34%', value: (n) => n.label },
      { key: 'execution', title: 'Execution', width: '11%', num: true, value: (n) => n.execution },
      { key: 'efficiency', title: 'Efficiency', width: '10%', num: true, value: (n) => n.efficiency },
      { key: 'lost', title: 'Lost time', width: '10%', num: true, value: (n) => n.lost },
      { key: 'bar', title: 'Time split', width: '13%' },
      { key: 'count', title: 'Entries', width: '9%', num: true, value: (n) => n.count },
      { key: 'file', title: 'Source', width: '13%', value: (n) => n.file + ':' + String(n.line).padStart(8, '0') },
    ];
    const tbody = el('tbody');
    const headers = columns.map((c) => el('th', {
      class: (c.num ? 'num ' : '') + (c.value ? 'sortable' : ''), scope: 'col', tabindex: c.value ? 0 : null,
      onclick: () => sortBy(c), onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(c); } },
    }, c.title));
    const details = el('div', { class: 'panel', id: 'interval-details', 'aria-live': 'polite' });
    const table = el('table', { class: 'tree', role: 'treegrid', 'aria-label': 'Intervals' },
      el('colgroup', null, columns.map((c) => el('col', { style: `width:${c.width}` }))),
      el('thead', null, el('tr', null, headers)), tbody);

    function sortBy(c) {
      if (!c.value) return;
      state.descending = state.sort === c ? !state.descending : c.key !== 'label' && c.key !== 'file';
      state.sort = c;
      headers.forEach((h, k) => h.setAttribute('aria-sort', columns[k] === c ? (state.descending ? 'descending' : 'ascending') : 'none'));
      draw();
    }
    function ordered(list) {
      if (!state.sort) return list;
      const value = state.sort.value, sign = state.descending ? -1 : 1;
      return list.slice().sort((a, b) => {
        const x = value(a), y = value(b);
        return sign * (typeof x === 'string' ? x.localeCompare(y) : x - y);
      });
    }
    // The rows on screen: expanded nodes' children, each list cut at its shown count.
    let visible = [];
    function collect(list, parent, out) {
      const limit = state.shown.get(parent) || CHILDREN_SHOWN;
      const sorted = ordered(list);
      for (const n of sorted.slice(0, limit)) {
        out.push(n);
        if (state.expanded.has(n)) collect(n.children, n, out);
      }
      if (sorted.length > limit) out.push({ more: parent, remaining: sorted.length - limit, level: list[0].level });
    }
    // Rows are built once and kept: expanding a node builds only its children's rows.
    const built = new Map();
    function rowOf(n) {
      if (n.more !== undefined) return row(n);
      let tr = built.get(n);
      if (!tr) built.set(n, (tr = row(n)));
      tr.setAttribute('aria-selected', state.selected === n ? 'true' : 'false');
      tr.tabIndex = -1;
      return tr;
    }
    // Only the rows near the scrolled window are in the document (spacers stand for the others), so
    // that a tree of ten thousand open rows lays out and paints as fast as one of fifty.
    const wrap = el('div', { class: 'tree-wrap' }, table);
    let sliceStart = 0, sliceEnd = 0;
    function paintSlice() {
      const height = wrap.clientHeight || 800;
      sliceStart = Math.max(0, Math.floor(wrap.scrollTop / ROW_HEIGHT) - ROWS_AROUND);
      sliceEnd = Math.min(visible.length, sliceStart + Math.ceil(height / ROW_HEIGHT) + 2 * ROWS_AROUND);
      const spacer = (rows) => el('tr', { class: 'spacer', 'aria-hidden': 'true', style: `height:${rows * ROW_HEIGHT}px` });
      tbody.replaceChildren(spacer(sliceStart), ...visible.slice(sliceStart, sliceEnd).map(rowOf), spacer(visible.length - sliceEnd));
      const focus = tbody.querySelector('tr[aria-selected="true"]') || tbody.querySelector('tr[data-index]');
      if (focus) focus.tabIndex = 0;
    }
    let scrollPending = false;
    wrap.addEventListener('scroll', () => {
      if (scrollPending) return;
      scrollPending = true;
      requestAnimationFrame(() => { scrollPending = false; paintSlice(); });
    });
    // Scrolls so that the row of `n` is in the painted slice (keyboard moves past its edge).
    function reveal(n) {
      const at = visible.indexOf(n);
      if (at < 0 || (at > sliceStart && at < sliceEnd - 1)) return;
      wrap.scrollTop = Math.max(0, at * ROW_HEIGHT - wrap.clientHeight / 2);
      paintSlice();
    }
    function draw() {
      visible = [];
      collect(roots, null, visible);
      // As tall as its rows, up to 70 % of the window (a fixed height keeps the containment strict).
      wrap.style.height = `${Math.min(0.7 * (window.innerHeight || 800), (visible.length + 1) * ROW_HEIGHT + 40)}px`;
      paintSlice();
    }
    function row(n) {
      if (n.more !== undefined) {
        return el('tr', { class: 'more' }, el('td', { colspan: columns.length, style: `padding-left:${8 + n.level * 16}px` },
          el('button', { onclick: () => { state.shown.set(n.more, (state.shown.get(n.more) || CHILDREN_SHOWN) + CHILDREN_SHOWN * 5); draw(); } },
            `${n.remaining} more intervals here: show more`)));
      }
      const expanded = state.expanded.has(n);
      const loss = largestLoss(n);
      return el('tr', {
        'data-index': n.index, 'aria-level': n.level + 1, 'aria-selected': state.selected === n ? 'true' : 'false',
        'aria-expanded': n.children.length ? String(expanded) : null, tabindex: -1,
      },
      el('td', { class: 'name', style: `padding-left:${8 + n.level * 16}px`, title: n.label },
        el('span', { class: 'toggle', 'aria-hidden': 'true', 'data-toggle': n.children.length ? '1' : null },
          n.children.length ? (expanded ? '▾' : '▸') : ''),
        el('span', { class: 'muted' }, n.kind + ' '), n.name ? `"${n.name}"` : '', n.open ? el('span', { class: 'badge', title: 'still open when the profile was written' }, 'open') : null),
      el('td', { class: 'num' }, fmtTime(n.execution)),
      el('td', { class: 'num ' + efficiencyClass(n.efficiency) }, fmtPct(n.efficiency)),
      el('td', { class: 'num', title: loss ? `largest: ${loss[1]} ${fmtTime(n[loss[0]])}` : 'no loss' }, fmtTime(n.lost)),
      el('td', null, stackBar(n)),
      el('td', { class: 'num' }, fmtCount(n.count)),
      el('td', { class: 'loc', title: location(n.file, n.line, n.endLine) }, sourceCell(n.file, n.line, n.endLine)));
    }
    function nodeOf(tr) { return tr && tr.dataset.index !== undefined ? nodes[Number(tr.dataset.index)] : null; }
    function select(n, focus) {
      state.selected = n;
      selectedNode = n;
      for (const tr of tbody.querySelectorAll('tr[aria-selected="true"]')) { tr.setAttribute('aria-selected', 'false'); tr.tabIndex = -1; }
      if (focus) reveal(n);
      const tr = tbody.querySelector(`tr[data-index="${n.index}"]`);
      if (tr) { tr.setAttribute('aria-selected', 'true'); tr.tabIndex = 0; if (focus) tr.focus({ preventScroll: true }); }
      showDetails(details, n);
    }
    function toggle(n, open) {
      if (!n.children.length) return;
      if (open === undefined) open = !state.expanded.has(n);
      if (open) state.expanded.add(n); else state.expanded.delete(n);
      built.delete(n);  // its triangle changes
      draw();
      select(n, true);
    }
    tbody.addEventListener('click', (e) => {
      const tr = e.target.closest('tr');
      const n = nodeOf(tr);
      if (!n) return;
      if (e.target.closest('[data-toggle]')) toggle(n); else select(n, true);
    });
    tbody.addEventListener('dblclick', (e) => { const n = nodeOf(e.target.closest('tr')); if (n) toggle(n); });
    tbody.addEventListener('keydown', (e) => {
      const n = nodeOf(e.target.closest('tr'));
      if (!n) return;
      const rows = visible.filter((v) => v.more === undefined);
      const at = rows.indexOf(n);
      let next = null;
      switch (e.key) {
        case 'ArrowDown': next = rows[at + 1]; break;
        case 'ArrowUp': next = rows[at - 1]; break;
        case 'Home': next = rows[0]; break;
        case 'End': next = rows[rows.length - 1]; break;
        case 'ArrowRight':
          if (n.children.length && !state.expanded.has(n)) { toggle(n, true); e.preventDefault(); return; }
          next = n.children.length ? ordered(n.children)[0] : null; break;
        case 'ArrowLeft':
          if (state.expanded.has(n)) { toggle(n, false); e.preventDefault(); return; }
          next = n.parent >= 0 ? nodes[n.parent] : null; break;
        case 'Enter': case ' ': toggle(n); e.preventDefault(); return;
        default: return;
      }
      e.preventDefault();
      if (next) select(next, true);
    });

    draw();
    if (state.selected) showDetails(details, state.selected);
    selectedNode = state.selected;
    return [legend([['productive', 'productive']].concat(LOSSES)),
      el('div', { class: 'layout' }, wrap, details)];
  }

  // The interval's Total time split into productive time and each kind of loss.
  function stackBar(n) {
    const total = n.productive + n.lost;
    const parts = [['productive', 'productive', n.productive]].concat(LOSSES.map(([k, w]) => [k, w, n[k]]));
    return el('div', { class: 'stack', role: 'img', 'aria-label': parts.filter((p) => p[2] > 0).map((p) => `${p[1]} ${fmtPct(total > 0 ? p[2] / total : 0)}`).join(', ') || 'no time' },
      parts.filter((p) => p[2] > 0 && total > 0).map(([key, words, v]) =>
        el('span', { class: 'k-' + key, style: `width:${(100 * v / total).toFixed(2)}%`, title: `${words}: ${fmtTime(v)} (${fmtPct(v / total)})` })));
  }

  function showDetails(panel, n) {
    const rows = [
      ['Execution time', fmtTime(n.execution)],
      ['Processors', `${n.processors} (${n.threads} threads)`],
      ['Total time', fmtTime(n.total)],
      ['Productive time', fmtTime(n.productive)],
      ['Lost time', fmtTime(n.lost)],
    ].concat(LOSSES.filter(([k]) => n[k] > 0).map(([k, w]) => ['  ' + w, fmtTime(n[k])]))
      .concat([
        ['Load imbalance (potential)', fmtTime(n.imbalance)],
        n.synchronization > 0 ? ['Synchronization (potential)', fmtTime(n.synchronization)] : null,
        n.variation > 0 ? ['Time variation (potential)', fmtTime(n.variation)] : null,
        n.startup > 0 ? ['Start-up and shut-down (outside the figures)', fmtTime(n.startup)] : null,
        ['OS CPU time', fmtTime(n.osCpu)],
        ['Entries', fmtCount(n.count)],
      ]).filter(Boolean);
    panel.replaceChildren();
    append(panel, [
      el('h3', null, el('span', { class: 'muted' }, n.kind + ' '), n.name ? `"${n.name}"` : '', ' ',
        el('span', { class: 'loc' }, location(n.file, n.line, n.endLine))),
      el('div', { class: 'big ' + efficiencyClass(n.efficiency), style: 'text-align:left;font-size:24px' }, fmtPct(n.efficiency),
        el('small', null, 'parallel efficiency')),
      el('p', { class: 'diagnosis' }, n.diagnosis !== null ? n.diagnosis
        : `(This page keeps the diagnoses of the intervals that lose most; parperf report --intervals "${n.name || n.kind}" gives this one's.)`),
      el('h3', null, 'Per processor'),
      processorChart(n),
      eventsTable(n),
      functionsView(n),
      el('h3', null, 'Characteristics'),
      el('table', null, el('tbody', null, rows.map(([k, v]) => el('tr', null, el('td', null, k), el('td', { class: 'num' }, v)))))]);
  }

  // The sampled functions of the interval (`parperf run --sample`; absent otherwise): the top functions
  // by self and inclusive samples with file:line, then each processor's top function as a bar of its
  // share of that processor's samples. Function names come from the program: text nodes only.
  function functionsView(n) {
    if (!data.samples) return null;
    const sampled = data.samples.intervals.find((i) => i.node === n.index);
    const title = el('h3', null, 'Functions');
    // The samples taken inside the programming model's start-up and shut-down, in no interval (as the
    // text report and the JSON's samples.start_up / shut_down say them).
    const setup = data.samples.start_up + data.samples.shut_down > 0
      ? el('p', { class: 'muted', 'data-testid': 'samples-apart' },
        `${fmtCount(data.samples.start_up)} more samples during start-up and ${fmtCount(data.samples.shut_down)} during ` +
        'shut-down (inside the programming model\'s initialisation and finalisation) are counted apart, in no interval.')
      : null;
    // The model's own threads (progress threads), never sampled: said, as the text report says them.
    const modelThreads = data.samples.model_threads > 0
      ? el('p', { class: 'muted', 'data-testid': 'model-threads' },
        `${fmtCount(data.samples.model_threads)} threads that the programming model's libraries started for themselves ` +
        '(progress threads) are not the program\'s: not sampled.')
      : null;
    if (!sampled || !sampled.samples) {
      return [title, el('p', { class: 'muted', 'data-testid': 'functions-none' },
        'No samples while this interval was a thread\'s innermost one (the intervals inside it have theirs).'), setup, modelThreads];
    }
    const share = (part, whole) => (whole > 0 ? part / whole : 0);
    // A share with half its 95 % interval (report.md, "samples"), the interval itself on hover.
    const shareCell = (part, interval, whole) => {
      const text = fmtPct(share(part, whole));
      if (!interval) return el('td', { class: 'num' }, text);
      const half = (interval[1] - interval[0]) / 2;
      return el('td', { class: 'num', 'data-interval': interval.join(' '), title: `95 % interval ${fmtPct(interval[0])} to ${fmtPct(interval[1])}` },
        text, el('span', { class: 'muted' }, ` ±${(100 * half).toFixed(1)}`));
    };
    const fileName = (file) => (file ? file.split('/').pop() : '');
    const table = el('table', { class: 'functions', 'data-testid': 'functions' },
      el('thead', null, el('tr', null, el('th', { class: 'num' }, 'Self'), el('th', { class: 'num', title: 'inclusive: samples with the function anywhere on their call path' }, 'Incl.'),
        el('th', { class: 'num' }, 'Samples'), el('th', null, 'Function'), el('th', null, 'Where'))),
      el('tbody', null, sampled.functions.map((f) => el('tr', { 'data-function': f.function, 'data-self': f.self, 'data-inclusive': f.inclusive },
        shareCell(f.self, f.self_interval, sampled.samples),
        shareCell(f.inclusive, f.inclusive_interval, sampled.samples),
        el('td', { class: 'num' }, fmtCount(f.self)),
        el('td', { class: 'mono' }, f.function),
        el('td', { class: 'loc' }, location(fileName(f.file), f.line))))));
    const bars = sampled.processors.map((p) => {
      const fraction = share(p.self, p.samples);
      return el('div', { class: 'fbar', 'data-processor': p.processor, 'data-function': p.function, 'data-self': p.self, 'data-samples': p.samples },
        el('span', { class: 'fbar-who' }, `${data.run.unit} ${p.processor}`),
        el('span', { class: 'fbar-track', role: 'img', 'aria-label': `${p.function}: ${fmtPct(fraction)} of its samples` },
          el('span', { class: 'fbar-fill', style: `width:${(100 * fraction).toFixed(1)}%` })),
        el('span', null, el('span', { class: 'mono' }, p.function), ` ${fmtPct(fraction)} of ${fmtCount(p.samples)} samples`));
    });
    return [title,
      el('p', { class: 'muted' }, `${fmtCount(sampled.samples)} samples of ${data.samples.clock === 'wall' ? 'elapsed' : 'CPU'} time, one every ` +
        `${fmtTime(data.samples.period)} per thread, while this interval was the thread's innermost`),
      table,
      sampled.ranked === false ? el('p', { class: 'muted', 'data-testid': 'functions-unranked' },
        'The first two functions\' shares are within their 95 % intervals of each other: too few samples to rank them.') : null,
      bars.length > 1 ? [el('h4', null, 'Each processor\'s top function'), el('div', { class: 'fbars', 'data-testid': 'function-bars' }, bars)] : null,
      flameGraph(sampled),
      setup, modelThreads];
  }

  // The interval's call paths as a flame graph, callers above their callees, each frame as wide as its
  // samples (`parperf report --folded` has the same stacks for other tools). Click a frame, or Enter on
  // it, to zoom into it; the top frame zooms back out. Frames under half a percent are left out.
  function flameGraph(sampled) {
    const flame = sampled.flame;
    if (!flame || !flame.paths.length) return null;
    const names = data.samples.frame_names;
    const root = { name: null, samples: 0, children: new Map(), frames: [], parent: null };
    for (const path of flame.paths) {
      const count = path[path.length - 1];
      let node = root;
      node.samples += count;
      for (let i = 0; i < path.length - 1; ++i) {
        const name = names[path[i]];
        let child = node.children.get(name);
        if (!child) {
          child = { name, samples: 0, children: new Map(), frames: node.frames.concat([name]), parent: node };
          node.children.set(name, child);
        }
        child.samples += count;
        node = child;
      }
    }
    const kRow = 18;
    const kLeastWidth = 0.005;
    const box = el('div', { class: 'flame', 'data-testid': 'flame', role: 'group', 'aria-label': 'flame graph of the call paths' });
    const trail = el('p', { class: 'muted' });
    // A warm colour per function name, the same wherever the name appears.
    const hue = (name) => { let h = 0; for (const c of name) h = (h * 31 + c.codePointAt(0)) % 360; return 10 + (h % 45); };
    let shown = [];
    function draw(focus) {
      shown = [];
      let depth = 0;
      (function place(node, level, left, width) {
        depth = Math.max(depth, level);
        shown.push({ node, level, left, width });
        let x = left;
        for (const child of [...node.children.values()].sort((a, b) => b.samples - a.samples)) {
          const w = (width * child.samples) / node.samples;
          if (w >= kLeastWidth) place(child, level + 1, x, w);
          x += w;
        }
      })(focus, 0, 0, 1);
      box.style.height = `${(depth + 1) * kRow}px`;
      box.replaceChildren(...shown.map(({ node, level, left, width }, k) => {
        const label = node === root ? 'all samples' : node.name;
        const share = fmtPct(node.samples / root.samples);
        return el('button', {
          class: 'flame-frame', 'data-cell': k, 'data-frames': JSON.stringify(node.frames), 'data-samples': node.samples,
          title: `${label}: ${fmtCount(node.samples)} samples (${share})${node === focus && focus !== root ? ', click to zoom out' : ''}`,
          style: `left:${(100 * left).toFixed(3)}%;width:${(100 * width).toFixed(3)}%;top:${level * kRow}px;` +
            (node === root ? 'color:var(--fg)' : `background:hsl(${hue(node.name)},80%,62%)`),
        }, label);
      }));
      trail.replaceChildren(focus === root
        ? `${fmtCount(root.samples)} samples${flame.left_out ? `, and ${fmtCount(flame.left_out)} on rarer paths not drawn (parperf report --folded has them all)` : ''}`
        : `zoomed into ${focus.frames.join(' > ')}: ${fmtCount(focus.samples)} samples (${fmtPct(focus.samples / root.samples)})`);
      current = focus;
    }
    let current = root;
    box.addEventListener('click', (event) => {
      const cell = event.target.closest('.flame-frame');
      if (!cell) return;
      const { node } = shown[Number(cell.dataset.cell)];
      draw(node === current ? node.parent || root : node);
      const again = box.querySelector(`[data-cell="0"]`);
      if (again && event.detail === 0) again.focus();  // from the keyboard: stay in the graph
    });
    draw(root);
    return [el('h4', null, 'Call paths'), trail, box];
  }

  // The interval's user events (parperf_event_*): their counts, times and first description.
  function eventsTable(n) {
    const events = data.events[String(n.index)];
    if (!events) return null;
    return [el('h3', null, 'User events'), el('table', { 'data-testid': 'events' }, el('thead', null, el('tr', null,
      el('th', null, 'Event'), el('th', { class: 'num' }, 'Starts'), el('th', { class: 'num' }, 'Total'), el('th', { class: 'num' }, 'Mean'), el('th', null, 'First text'))),
    el('tbody', null, events.map((e) => el('tr', null, el('td', null, e.name), el('td', { class: 'num' }, fmtCount(e.starts + e.atomics)),
      el('td', { class: 'num' }, fmtTime(e.total)), el('td', { class: 'num' }, fmtTime(e.mean)), el('td', { class: 'mono' }, e.first_description)))))];
  }

  // ---- per-processor bars: one per processor up to 64, else 64 groups of neighbours ----------------
  const MAX_BARS = 64;
  function processorChart(n) {
    const columns = data.processors[String(n.index)];
    if (!columns) {
      return el('p', { class: 'muted', 'data-testid': 'no-processors' }, n.processors > 0
        ? `Left out of this page to keep it small; parperf report --per-proc --intervals "${n.name || n.kind}" lists them.`
        : 'No processor executed this interval.');
    }
    const count = columns.processor.length;
    const keys = ['productive', 'insufficient', 'communication', 'idle', 'other'];
    const words = { productive: 'productive', insufficient: 'insufficient parallelism', communication: 'communication', idle: 'idle', other: 'desync and synchronization waiting' };
    // Group neighbours when there are more processors than bars: each bar shows its group's means,
    // and a tick its slowest member's execution time, so one late processor still stands out.
    const groups = [];
    const size = Math.ceil(count / MAX_BARS);
    for (let start = 0; start < count; start += size) {
      const end = Math.min(count, start + size);
      // Ties name the lowest processor, as every other slowest/fastest in the reports does.
      const g = { first: columns.processor[start], last: columns.processor[end - 1], max: columns.execution[start], maxAt: columns.processor[start] };
      for (const k of keys) g[k] = 0;
      for (let p = start; p < end; ++p) {
        for (const k of keys) g[k] += columns[k][p] / (end - start);
        if (columns.execution[p] > g.max) { g.max = columns.execution[p]; g.maxAt = columns.processor[p]; }
      }
      groups.push(g);
    }
    const top = Math.max(1e-12, ...groups.map((g) => Math.max(g.max, keys.reduce((s, k) => s + g[k], 0))));
    const width = 560, height = 200, left = 56, bottom = 28, plotH = height - bottom - 10;
    const barW = (width - left - 10) / groups.length;
    const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', class: 'processors',
      'data-testid': 'processor-chart', 'data-processors': count, 'aria-label': `Time of each of ${count} processors in the interval` });
    for (let t = 0; t <= 4; ++t) {
      const y = 10 + plotH - (plotH * t) / 4;
      chart.appendChild(svg('line', { class: 'grid', x1: left, x2: width - 10, y1: y, y2: y }));
      chart.appendChild(svg('text', { x: left - 4, y: y + 4, 'text-anchor': 'end' }, fmtTime((top * t) / 4)));
    }
    groups.forEach((g, k) => {
      let y = 10 + plotH;
      const x = left + k * barW + barW * 0.1;
      const bar = svg('g', { class: 'bar', 'data-processor': g.first, 'data-values': keys.map((key) => g[key]).join(' ') });
      const label = size === 1 ? `processor ${g.first}` : `processors ${g.first}–${g.last} (means; slowest ${g.maxAt})`;
      bar.appendChild(svg('title', null, label + ': ' + keys.filter((key) => g[key] > 0).map((key) => `${words[key]} ${fmtTime(g[key])}`).join(', ')));
      for (const key of keys) {
        const h = (plotH * g[key]) / top;
        if (h <= 0) continue;
        y -= h;
        bar.appendChild(svg('rect', { class: 'k-' + key, x, y, width: Math.max(1, barW * 0.8), height: h, style: `fill:var(--${key === 'other' ? 'desync' : key})` }));
      }
      if (size > 1) {
        const ty = 10 + plotH - (plotH * g.max) / top;
        bar.appendChild(svg('line', { x1: x, x2: x + barW * 0.8, y1: ty, y2: ty, style: 'stroke:var(--fg);stroke-width:1.5' }));
      }
      chart.appendChild(bar);
    });
    chart.appendChild(svg('line', { class: 'axis', x1: left, x2: width - 10, y1: 10 + plotH, y2: 10 + plotH }));
    const step = Math.max(1, Math.ceil(groups.length / 8));
    for (let k = 0; k < groups.length; k += step)
      chart.appendChild(svg('text', { x: left + k * barW + barW / 2, y: height - 10, 'text-anchor': 'middle' }, String(groups[k].first)));
    let slow = 0, fast = 0;
    for (let p = 1; p < count; ++p) {
      if (columns.execution[p] > columns.execution[slow]) slow = p;
      if (columns.execution[p] < columns.execution[fast]) fast = p;
    }
    // One processor, or all as long: no slowest and fastest to name.
    const extremes = columns.execution[slow] > columns.execution[fast]
      ? `slowest: processor ${columns.processor[slow]} (${fmtTime(columns.execution[slow])}), fastest: processor ${columns.processor[fast]} (${fmtTime(columns.execution[fast])})`
      : count === 1 ? `processor ${columns.processor[0]}: ${fmtTime(columns.execution[0])}` : `every processor: ${fmtTime(columns.execution[0])}`;
    return [legend(keys.map((k) => [k === 'other' ? 'desync' : k, words[k]])), chart,
      el('p', { class: 'muted', 'data-testid': 'processor-extremes' }, size > 1 ? `${count} processors in ${groups.length} groups of ${size}; ` : '', extremes)];
  }

  // ---- SRC points, communication ---------------------------------------------------------------
  function srcPointsView() {
    const columns = [
      { title: 'Where', value: (p) => p.description, cell: (p) => p.description },
      { title: 'Source', value: (p) => location(p.file, p.line), cell: (p) => el('span', { class: 'loc' }, location(p.file, p.line)) },
      { title: 'Lost', num: true, value: (p) => p.lost, cell: (p) => fmtTime(p.lost) },
      { title: 'Share', num: true, value: (p) => p.lost_share, cell: (p) => fmtPct(p.lost_share) },
      { title: 'Calls', num: true, value: (p) => p.count, cell: (p) => fmtCount(p.count) },
      { title: 'Wait', num: true, value: (p) => p.wait, cell: (p) => fmtTime(p.wait) },
      { title: 'Sync', num: true, value: (p) => p.sync, cell: (p) => fmtTime(p.sync) },
      { title: 'Work max/mean', num: true, value: (p) => p.imbalance, cell: (p) => (p.imbalance > 0 ? sig(p.imbalance, 3) : '–') },
    ];
    const note = data.src_point_count > data.src_points.length
      ? el('p', { class: 'muted' }, `The ${data.src_points.length} that lose most of ${data.src_point_count}; parperf report --json has them all.`) : null;
    return [sortableTable(columns, data.src_points, { limit: 25, sortColumn: 2 }), note];
  }

  function communicationView() {
    const parts = [];
    if (data.communication_classes.length) {
      parts.push(el('h3', null, 'Communication classes (whole program)'));
      parts.push(sortableTable([
        { title: 'Class', value: (c) => c['class'] || c.name || '', cell: (c) => c['class'] || c.name || '' },
        { title: 'Calls', num: true, value: (c) => c.count, cell: (c) => fmtCount(c.count) },
        { title: 'Time', num: true, value: (c) => c.time, cell: (c) => fmtTime(c.time) },
        { title: 'Real sync', num: true, value: (c) => c.real_sync, cell: (c) => fmtTime(c.real_sync) },
        { title: 'Starts', num: true, value: (c) => c.starts, cell: (c) => fmtTime(c.starts) },
        { title: 'Synchronization', num: true, value: (c) => c.synchronization, cell: (c) => fmtTime(c.synchronization) },
        { title: 'Variation', num: true, value: (c) => c.time_variation, cell: (c) => fmtTime(c.time_variation) },
        { title: 'Bytes', num: true, value: (c) => c.bytes, cell: (c) => fmtBytes(c.bytes) },
      ], data.communication_classes, { limit: 20 }));
    }
    const traffic = data.run.one_sided_traffic;
    if (traffic && traffic.cells && traffic.cells.length) parts.push(el('h3', null, 'One-sided traffic (bytes each PE wrote to or read from another)'), heatMap(traffic));
    return parts.length ? parts : null;
  }

  // Origins down, targets across; colour by bytes. Above 48 processes, blocks of neighbours.
  function heatMap(traffic) {
    const n = traffic.processes;
    const block = Math.ceil(n / 48);
    const cells = Math.ceil(n / block);
    const bytes = Array.from({ length: cells }, () => new Array(cells).fill(0));
    const calls = Array.from({ length: cells }, () => new Array(cells).fill(0));
    for (const c of traffic.cells) {
      bytes[Math.floor(c.origin / block)][Math.floor(c.target / block)] += c.bytes;
      calls[Math.floor(c.origin / block)][Math.floor(c.target / block)] += c.calls;
    }
    const most = Math.max(1, ...bytes.flat());
    const head = el('tr', null, el('th', null, 'from \\ to'), Array.from({ length: cells }, (_, t) => el('th', { class: 'num' }, String(t * block))));
    const body = bytes.map((row, o) => el('tr', null, el('th', { class: 'num' }, String(o * block)), row.map((b, t) => {
      const a = b > 0 ? 0.15 + 0.85 * Math.sqrt(b / most) : 0;
      return el('td', { style: `background:rgba(217,83,79,${a.toFixed(3)})`, title: `PE ${o * block}${block > 1 ? '…' : ''} → PE ${t * block}${block > 1 ? '…' : ''}: ${fmtBytes(b)} in ${fmtCount(calls[o][t])} calls` });
    })));
    return [el('table', { class: 'heat', 'data-testid': 'traffic' }, el('thead', null, head), el('tbody', null, body)),
      block > 1 ? el('p', { class: 'muted' }, `${n} PEs in blocks of ${block}.`) : null];
  }

  // ---- the timeline of a traced run: a canvas, zoomed with the wheel or the buttons, dragged to pan --
  function timelineView(t) {
    const canvas = el('canvas', { class: 'timeline', height: 40 + t.tracks.length * 60, 'aria-label': 'Timeline of the traced run', role: 'img' });
    let from = t.begin, to = t.end;
    const info = el('span', { class: 'muted' });
    const laneH = 14, trackH = Math.max(30, (t.max_depth + 1) * laneH + 10), top = 20, left = 110;
    canvas.height = top + t.tracks.length * trackH + 4;
    const colors = { interval: '#8fb8de', operation: '#d9534f', "user event": "#e0a03a", iteration: '#7f7f7f' };
    function draw() {
      const width = canvas.clientWidth || 1000;
      canvas.width = width;
      const ctx = canvas.getContext('2d');
      const style = getComputedStyle(document.body);
      ctx.clearRect(0, 0, width, canvas.height);
      ctx.font = '11px sans-serif';
      ctx.fillStyle = style.color;
      const scale = (width - left - 4) / Math.max(1, to - from);
      t.tracks.forEach((track, k) => ctx.fillText(track, 4, top + k * trackH + 12));
      const s = t.slices;
      for (let i = 0; i < s.start.length; ++i) {
        const a = s.start[i], b = a + s.duration[i];
        if (b < from || a > to) continue;
        const x = left + (Math.max(a, from) - from) * scale;
        const w = Math.max(0.5, (Math.min(b, to) - Math.max(a, from)) * scale);
        const y = top + s.track[i] * trackH + s.depth[i] * laneH;
        ctx.fillStyle = colors[t.categories[s.category[i]]] || '#999';
        ctx.fillRect(x, y, w, laneH - 2);
        if (w > 40) { ctx.fillStyle = '#000'; ctx.fillText(t.names[s.name[i]].slice(0, Math.floor(w / 6)), x + 2, y + 10); }
      }
      info.textContent = `${fmtTime((from - t.begin) / 1e9)} to ${fmtTime((to - t.begin) / 1e9)} of ${fmtTime((t.end - t.begin) / 1e9)}` +
        (t.truncated ? ` (the ${fmtCount(s.start.length)} longest slices of ${fmtCount(t.total_slices)}; parperf export has them all)` : '');
    }
    function zoom(factor, at) {
      const span = to - from, centre = from + span * at;
      const next = Math.min(t.end - t.begin, Math.max(1000, span * factor));
      from = Math.max(t.begin, centre - next * at); to = Math.min(t.end, from + next);
      draw();
    }
    canvas.addEventListener('wheel', (e) => { e.preventDefault(); const r = canvas.getBoundingClientRect(); zoom(e.deltaY > 0 ? 1.25 : 0.8, Math.min(1, Math.max(0, (e.clientX - r.left - left) / (r.width - left)))); }, { passive: false });
    let dragging = null;
    canvas.addEventListener('mousedown', (e) => { dragging = { x: e.clientX, from, to }; });
    window.addEventListener('mouseup', () => { dragging = null; });
    window.addEventListener('mousemove', (e) => {
      if (!dragging) return;
      const shift = ((dragging.x - e.clientX) * (dragging.to - dragging.from)) / Math.max(1, canvas.clientWidth - left);
      const span = dragging.to - dragging.from;
      from = Math.min(Math.max(t.begin, dragging.from + shift), t.end - span); to = from + span;
      draw();
    });
    const tools = el('div', { class: 'timeline-tools' },
      el('button', { onclick: () => zoom(0.5, 0.5) }, 'Zoom in'), el('button', { onclick: () => zoom(2, 0.5) }, 'Zoom out'),
      el('button', { onclick: () => { from = t.begin; to = t.end; draw(); } }, 'Whole run'),
      el('button', { onclick: zoomToSelected }, 'Selected interval'), info);
    function zoomToSelected() {
      if (!selectedNode) return;
      const s = t.slices;
      let a = Infinity, b = -Infinity;
      for (let i = 0; i < s.start.length; ++i) {
        if (t.categories[s.category[i]] !== 'interval' || t.names[s.name[i]] !== selectedNode.name) continue;
        a = Math.min(a, s.start[i]); b = Math.max(b, s.start[i] + s.duration[i]);
      }
      if (a < b) { from = a; to = b; draw(); }
    }
    requestAnimationFrame(draw);
    window.addEventListener('resize', draw);
    return [tools, canvas, el('p', { class: 'muted' }, 'Wheel or buttons to zoom, drag to pan. parperf export --perfetto gives the whole trace to ui.perfetto.dev.')];
  }

  // ================================ the comparison page =============================================
  const FIGURE_WORDS = {
    execution_time: 'execution time', lost_time: 'lost time', insufficient_parallelism: 'insufficient parallelism',
    communication: 'communication', idle_time: 'idle', desync_time: 'desync', waiting_time: 'synchronization waiting',
  };
  function kindWords(kind) { return (kind || '').replace(/_/g, ' '); }
  function signed(v, format) {
    if (v === undefined || v === null || !isFinite(v)) return '–';
    return el('span', { class: v > 0 ? 'delta-worse' : v < 0 ? 'delta-better' : '' }, (v > 0 ? '+' : '') + format(v));
  }
  function commandText(command) { return Array.isArray(command) ? command.join(' ') : command || ''; }

  function diffPage() {
    const a = data.a, b = data.b, p = data.program;
    function side(name, r) {
      return [el('dt', null, name), el('dd', null, el('span', { class: 'mono' }, r.directory), ' ',
        el('span', { class: 'muted' }, commandText(r.command)),
        el('br'), `${r.processors} processor${r.processors === 1 ? '' : 's'} (${r.unit}s), execution ${fmtTime(r.execution_time)}, efficiency ${fmtPct(r.efficiency)}, lost ${fmtTime(r.lost_time)}`)];
    }
    const speedup = p.speedup;
    append(app, [el('header', { class: 'summary' },
      el('div', null, el('h1', null, 'parperf diff: how B differs from A'), el('dl', { class: 'facts' }, side('A', a), side('B', b))),
      el('div', { class: 'big ' + (speedup >= 1 ? 'good' : 'poor'), 'data-testid': 'speedup' }, speedup ? sig(speedup, 3) + '×' : '–',
        el('small', null, p.processors_differ ? `speedup; scaling efficiency ${sig(p.scaling_efficiency, 3)}` : 'speedup of B over A')))]);
    if (data.warnings.length) append(app, data.warnings.map((w) => el('div', { class: 'warning' }, w)));
    append(app, [el('h2', null, 'Lost time, by kind'), el('table', null, el('tbody', null,
      p.lost_changes.filter((c) => c.delta !== 0).map((c) => el('tr', null, el('td', null, FIGURE_WORDS[c.component] || c.component),
        el('td', { class: 'num' }, signed(c.delta, fmtTime))))))]);
    const columns = [
      { title: 'Interval', value: (r) => r.path.join(' › '), cell: (r) => [
        r.path.length > 1 ? el('span', { class: 'muted' }, r.path.slice(0, -1).join(' › ') + ' › ') : null,
        el('span', { class: 'muted' }, kindWords(r.kind) + ' '), r.name ? `"${r.name}"` : '',
        r.status !== 'matched' ? [' ', el('span', { class: 'badge', 'data-status': r.status }, r.status)] : null] },
      { title: 'Source', value: (r) => location(r.file, r.line), cell: (r) => el('span', { class: 'loc' }, location(r.file, r.line)) },
      { title: 'Execution A', num: true, value: (r) => (r.a ? r.a.execution_time : -1), cell: (r) => (r.a ? fmtTime(r.a.execution_time) : '–') },
      { title: 'Execution B', num: true, value: (r) => (r.b ? r.b.execution_time : -1), cell: (r) => (r.b ? fmtTime(r.b.execution_time) : '–') },
      { title: 'Change', num: true, value: (r) => r.delta.execution_time, cell: (r) => signed(r.delta.execution_time, fmtTime) },
      { title: '%', num: true, value: (r) => (r.relative_change === null ? 0 : r.relative_change), cell: (r) => (r.relative_change === null ? r.status : signed(r.relative_change, fmtPct)) },
      { title: 'Efficiency A → B', num: true, value: (r) => (r.b ? r.b.efficiency : 0), cell: (r) => `${r.a ? fmtPct(r.a.efficiency) : '–'} → ${r.b ? fmtPct(r.b.efficiency) : '–'}` },
      { title: 'Lost time change', num: true, value: (r) => r.delta.lost_time, cell: (r) => [signed(r.delta.lost_time, fmtTime),
        r.largest_lost_change && r.largest_lost_change.delta ? el('span', { class: 'muted' }, ` (${FIGURE_WORDS[r.largest_lost_change.component] || r.largest_lost_change.component})`) : null] },
    ];
    append(app, [el('h2', null, 'Intervals, largest change first'),
      el('p', { class: 'muted' }, 'Matched by their path from the program; new: only B ran it, vanished: only A did. Click a column to sort.'),
      sortableTable(columns, data.intervals, { limit: 100, className: 'diff' })]);
    document.title = 'parperf diff';
  }

  if (data.page === 'diff') diffPage(); else reportPage();
  document.body.setAttribute('data-ready', '1');
})();
