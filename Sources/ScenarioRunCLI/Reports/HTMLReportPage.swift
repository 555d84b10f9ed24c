/// The HTML report's shell: the page up to its data (``HTMLReportWriter`` appends the data blocks after
/// it). Self-contained: its style and script are inline, and its Content-Security-Policy lets it load
/// nothing from anywhere (no network, no CDN) and run no script but its own, named by its SHA-256 — a
/// second line of defence behind the writer's escaping and the script's use of text nodes only. Changing
/// the script changes its hash: the browser test (`HTMLReportTests`) fails until the policy names the new
/// one (`printf '\n%s' "$SCRIPT" | openssl dgst -sha256 -binary | base64`, of the text between the tags).
///
/// The script renders lazily: a feature's scenarios when it is opened (500 at a time), a scenario's steps
/// and requests when it is selected, the timeline when it is opened.
enum HTMLReportPage {
    static let shell = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="scenario-run">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-PysXtOirD7RgGGILPm4ddKF9otWOXrrH6jAA8JfCsjY='">
        <title>scenario-run report</title>
        <style>
        :root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--pass:#1a7f37;--fail:#cf222e;--flaky:#9a6700;--skip:#818b98;--sel:#ddf4ff;--accent:#0969da}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;--pass:#3fb950;--fail:#f85149;--flaky:#d29922;--skip:#9198a1;--sel:#1f3a5f;--accent:#4493f8}}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
        pre,code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
        header{position:sticky;top:0;z-index:2;background:var(--panel);border-bottom:1px solid var(--line);padding:10px 16px}
        h1{font-size:17px;margin:0 0 6px}
        .counts{display:flex;flex-wrap:wrap;gap:14px;align-items:baseline}
        .count{font-weight:600}
        .count.passed{color:var(--pass)}.count.failed{color:var(--fail)}.count.flaky{color:var(--flaky)}.count.skipped{color:var(--skip)}
        .meta{color:var(--muted);font-size:12.5px;margin-top:4px;word-break:break-all}
        .banner{margin:8px 16px;padding:8px 12px;border:1px solid var(--fail);border-left-width:4px;border-radius:4px;background:var(--panel)}
        .banner.note{border-color:var(--flaky)}
        .trend{display:inline-flex;align-items:flex-end;gap:1px;height:22px;vertical-align:middle;margin-left:6px}
        .trend i{display:inline-block;width:5px;background:var(--pass);min-height:2px}
        .trend i.f{background:var(--fail)}.trend i.now{outline:1px solid var(--fg)}
        main{display:grid;grid-template-columns:minmax(300px,40%) 1fr;gap:0;min-height:calc(100vh - 90px)}
        #side{border-right:1px solid var(--line);padding:8px 0;overflow:auto;max-height:calc(100vh - 90px);position:sticky;top:90px}
        #detail{padding:12px 18px;overflow:auto;min-width:0}
        .tools{display:flex;gap:6px;padding:0 12px 8px}
        .tools input{flex:1;padding:5px 8px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
        .tools select{border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
        .hint{color:var(--muted);font-size:12px;padding:0 12px 6px}
        details.feature>summary{cursor:pointer;padding:3px 12px;font-weight:600;list-style-position:inside}
        .row{display:flex;gap:6px;align-items:baseline;padding:2px 12px 2px 26px;cursor:pointer;outline:none}
        .row:hover{background:var(--panel)}.row.sel{background:var(--sel)}
        .row .name{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .row .dur{color:var(--muted);font-size:12px}
        .why{padding:0 12px 3px 46px;color:var(--fail);font-size:12.5px;white-space:pre-wrap;word-break:break-word}
        .st{display:inline-block;width:1.2em;text-align:center;font-weight:700}
        .st.passed{color:var(--pass)}.st.failed{color:var(--fail)}.st.flaky,.st.warned{color:var(--flaky)}.st.skipped,.st.none,.st.notrun{color:var(--skip)}
        .marks{display:inline-flex;gap:1px}.marks i{display:inline-block;width:6px;height:10px;background:var(--line)}
        .marks i.p{background:var(--pass)}.marks i.f{background:var(--fail)}.marks i.k{background:var(--flaky)}.marks i.now{outline:1px solid var(--fg)}
        .more{margin:4px 26px;font-size:12.5px}
        h2{font-size:16px;margin:0 0 4px;word-break:break-word}
        h3{font-size:14px;margin:16px 0 6px}
        .failure{border:1px solid var(--fail);border-radius:4px;padding:8px 10px;margin:8px 0}
        .failure .reason{white-space:pre-wrap;word-break:break-word}
        .failure pre{margin:6px 0 0;padding:6px;background:var(--panel);overflow:auto}
        table{border-collapse:collapse;width:100%}
        td{padding:2px 6px;border-bottom:1px solid var(--line);vertical-align:top}
        td.d{color:var(--muted);white-space:nowrap;text-align:right}
        td.r{color:var(--fail);white-space:pre-wrap;word-break:break-word}
        .phase{color:var(--muted);font-size:12px}
        .log{white-space:pre-wrap;word-break:break-word;background:var(--panel);padding:6px;margin:0}
        details.req{border:1px solid var(--line);border-radius:4px;margin:4px 0}
        details.req>summary{cursor:pointer;padding:3px 8px;display:flex;gap:10px;flex-wrap:wrap}
        details.req pre{margin:0 8px 8px;padding:6px;background:var(--panel);overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-word}
        .code2{color:var(--pass)}.code4,.code5,.code0{color:var(--fail)}
        .muted{color:var(--muted)}
        .method{font-weight:700}
        #timeline{margin:8px 16px}#timeline>summary{cursor:pointer;font-weight:600}
        .lane{position:relative;height:16px;margin:2px 0 2px 90px;background:var(--panel)}
        .lane .lab{position:absolute;left:-90px;width:86px;font-weight:400;font-size:12px;color:var(--muted);white-space:nowrap}
        .lane i{position:absolute;top:1px;height:14px;background:var(--pass);min-width:1px;border-right:1px solid var(--bg);cursor:pointer}
        .lane i.failed{background:var(--fail)}.lane i.flaky{background:var(--flaky)}.lane i.skipped{background:var(--skip)}
        </style>
        <script>
        (function () {
          'use strict';
          var LIST_CAP = 500, TIMELINE_CAP = 20000;
          var S = { passed: '\u2713', failed: '\u2717', flaky: '\u2248', skipped: '-', notrun: '\u00b7', warned: '\u26a0', none: '\u00b7' };
          var model = null, selected = -1, visible = [];

          function el(tag, cls, text) {
            var e = document.createElement(tag);
            if (cls) e.className = cls;
            if (text !== undefined && text !== null) e.textContent = String(text);
            return e;
          }
          function add(parent) {
            for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
            return parent;
          }
          function secs(s) {
            if (s === undefined || s === null) return '';
            return s < 1 ? (s * 1000).toFixed(s < 0.01 ? 1 : 0) + ' ms' : s.toFixed(s < 100 ? 2 : 0) + ' s';
          }
          function bytes(n) { return n >= 1024 ? (n / 1024).toFixed(n >= 10240 ? 0 : 1) + ' KiB' : n + ' bytes'; }

          function load() {
            var run = null, plan = null, end = null, notes = [], broken = 0, results = [], lazy = [];
            var blocks = document.querySelectorAll('script.run-data');
            for (var b = 0; b < blocks.length; b++) {
              // A scenario's block is parsed when it is shown; only the last block can be cut off, so it is read now.
              var at = blocks[b].getAttribute('data-i');
              if (at !== null && b < blocks.length - 1) { lazy[+at] = blocks[b]; continue; }
              var d;
              try { d = JSON.parse(blocks[b].textContent); } catch (e) { broken++; continue; }
              if (d.k === 'run') run = d;
              else if (d.k === 'plan') plan = d;
              else if (d.k === 's') results[d.i] = d;
              else if (d.k === 'end') end = d;
              else if (d.k === 'notes') notes = notes.concat(d.notes);
            }
            var scenarios = ((plan && plan.scenarios) || []).map(function (p, i) {
              var r = results[i], block = lazy[i];
              var status = r ? r.o : block ? block.getAttribute('data-o') : (end ? 'skipped' : 'notrun');
              var s = { i: i, file: p[0], name: p[1], feature: p[2], tags: p[3], line: p[4], skip: p[5], row: p[6],
                marks: p[7] || '', ran: !!(r || block), status: status,
                tagWords: p[3].map(function (t) { return t.replace(/^@/, '').toLowerCase(); }),
                text: (p[1] + '\n' + p[2] + '\n' + p[0]).toLowerCase() };
              if (!block) s.r = r;
              else Object.defineProperty(s, 'r', { get: function () {
                if (r === undefined) { try { r = JSON.parse(block.textContent); } catch (e) { r = null; } }
                return r || undefined;
              } });
              return s;
            });
            return { run: run || {}, plan: plan, end: end, notes: notes, broken: broken, scenarios: scenarios };
          }

          var RANK = { failed: 0, flaky: 1, notrun: 2, passed: 3, skipped: 4 };

          function summary(m) {
            var h = el('header');
            var counts = { passed: 0, failed: 0, flaky: 0, skipped: 0, notrun: 0 };
            m.scenarios.forEach(function (s) { counts[s.status]++; });
            var total = m.end ? m.end : { passed: counts.passed + counts.flaky, failed: counts.failed, skipped: counts.skipped, flaky: counts.flaky };
            add(h, el('h1', null, 'scenario-run: ' + m.scenarios.length + ' scenario' + (m.scenarios.length === 1 ? '' : 's')));
            var c = add(el('div', 'counts'),
              el('span', 'count passed', total.passed + ' passed'),
              el('span', 'count failed', total.failed + ' failed'),
              el('span', 'count flaky', total.flaky + ' flaky'),
              el('span', 'count skipped', total.skipped + ' skipped'));
            add(h, c);
            c.querySelector('.passed').id = 'count-passed';
            c.querySelector('.failed').id = 'count-failed';
            c.querySelector('.flaky').id = 'count-flaky';
            c.querySelector('.skipped').id = 'count-skipped';
            if (!m.end) add(c, el('span', 'count', counts.notrun + ' not run'));
            var duration = m.end ? m.end.duration : null;
            add(c, el('span', 'muted', m.end ? 'in ' + secs(duration) : 'unfinished'));
            var hist = (m.run.history || []);
            if (hist.length) {
              var trend = el('span', 'trend');
              trend.title = 'Duration of the last ' + (hist.length + (m.end ? 1 : 0)) + ' runs (red: some failed)';
              var all = hist.map(function (x) { return { d: x[1], f: x[3] > 0 }; });
              if (m.end) all.push({ d: m.end.duration, f: m.end.failed > 0, now: true });
              var max = Math.max.apply(null, all.map(function (x) { return x.d; })) || 1;
              all.forEach(function (x) {
                var bar = el('i', (x.f ? 'f' : '') + (x.now ? ' now' : ''));
                bar.style.height = Math.max(2, Math.round(22 * x.d / max)) + 'px';
                bar.title = secs(x.d);
                trend.appendChild(bar);
              });
              add(c, el('span', 'muted', 'trend'), trend);
            }
            var meta = [];
            if (m.run.started) meta.push('started ' + new Date(m.run.started * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
            if (m.run.seed) meta.push('--shuffle ' + m.run.seed);
            if (m.run.shard) meta.push('shard ' + m.run.shard);
            add(h, el('div', 'meta', meta.join(' \u00b7 ')));
            add(h, el('div', 'meta mono', m.run.command || ''));
            document.title = 'scenario-run: ' + total.passed + ' passed, ' + total.failed + ' failed';
            return h;
          }

          function banners(m) {
            var out = [];
            var ran = m.scenarios.filter(function (s) { return s.ran; }).length;
            if (!m.plan) out.push(el('div', 'banner', 'This report has no run in it: the run ended before its scenarios were known.'));
            else if (!m.end) out.push(el('div', 'banner', 'This run did not finish: the report was written while it ran and stops ' + (ran < m.scenarios.length ? 'after ' + ran + ' of ' + m.scenarios.length + ' scenarios' : 'after the last scenario, before the run\'s end') + ' (the process was ended, or killed by a second Ctrl-C). What it shows is whole up to there.'));
            else if (m.end.cancelled) out.push(el('div', 'banner', 'This run was cancelled (Ctrl-C or a signal): ' + m.end.skipped + ' scenarios did not run and are counted skipped.'));
            if (m.broken) out.push(el('div', 'banner', m.broken + ' part' + (m.broken === 1 ? ' was' : 's were') + ' cut off while being written and ' + (m.broken === 1 ? 'is' : 'are') + ' left out.'));
            m.notes.forEach(function (n) { out.push(el('div', 'banner', n)); });
            return out;
          }

          function marks(s) {
            var box = el('span', 'marks');
            box.title = 'Last runs, oldest first (green passed, red failed, amber flaky, grey not run), then this one';
            var all = s.marks + ({ passed: 'p', failed: 'f', flaky: 'k' }[s.status] || '-');
            for (var i = 0; i < all.length; i++) box.appendChild(el('i', all[i] + (i === all.length - 1 ? ' now' : '')));
            return box;
          }

          function row(s) {
            var r = el('div', 'row');
            r.tabIndex = -1;
            r.setAttribute('data-index', s.i);
            var name = s.name + (s.row ? '' : '');
            add(r, el('span', 'st ' + s.status, S[s.status]), el('span', 'name', name), marks(s),
              el('span', 'dur', s.r ? secs(s.r.d) : ''));
            r.title = s.file + ':' + s.line + (s.tags.length ? '  ' + s.tags.join(' ') : '');
            r.addEventListener('click', function () { select(s.i, true); });
            var frag = document.createDocumentFragment();
            frag.appendChild(r);
            if (s.r && s.r.fail) frag.appendChild(el('div', 'why', s.r.fail.reason + (s.r.fail.at ? '  at ' + s.r.fail.at : '')));
            return frag;
          }

          function ordered(list) {
            return list.slice().sort(function (a, b) { return (RANK[a.status] - RANK[b.status]) || (a.i - b.i); });
          }

          function fill(box, list) {
            var shown = 0;
            function more() {
              var end = Math.min(list.length, shown + LIST_CAP);
              var frag = document.createDocumentFragment();
              for (; shown < end; shown++) frag.appendChild(row(list[shown]));
              var old = box.querySelector(':scope > .more');
              if (old) old.remove();
              box.appendChild(frag);
              if (shown < list.length) {
                var button = el('button', 'more', 'Show ' + Math.min(LIST_CAP, list.length - shown) + ' more of ' + (list.length - shown));
                button.addEventListener('click', more);
                box.appendChild(button);
              }
              refreshVisible();
            }
            more();
          }

          function tree(list) {
            var box = el('div', 'tree');
            var features = [], byName = {};
            list.forEach(function (s) {
              var f = byName[s.feature];
              if (!f) { f = byName[s.feature] = { name: s.feature, items: [], rank: 9 }; features.push(f); }
              f.items.push(s);
              f.rank = Math.min(f.rank, RANK[s.status]);
            });
            features.sort(function (a, b) { return a.rank - b.rank; });
            var opened = 0;
            features.forEach(function (f) {
              var d = el('details', 'feature');
              var failed = f.items.filter(function (s) { return s.status === 'failed'; }).length;
              add(d, el('summary', null, f.name + '  (' + f.items.length + (failed ? ', ' + failed + ' failed' : '') + ')'));
              var filled = false;
              d.addEventListener('toggle', function () {
                if (d.open && !filled) { filled = true; fill(d, ordered(f.items)); }
                refreshVisible();
              });
              if (f.rank <= 1 && opened < 20) { opened++; d.open = true; filled = true; fill(d, ordered(f.items)); }
              box.appendChild(d);
            });
            return box;
          }

          function matches(s, words, status) {
            if (status !== 'all' && s.status !== status) return false;
            for (var i = 0; i < words.length; i++) {
              var w = words[i];
              if (w[0] === '@') { if (s.tagWords.indexOf(w.slice(1)) < 0) return false; }
              else if (s.text.indexOf(w) < 0) return false;
            }
            return true;
          }

          function refreshVisible() {
            visible = Array.prototype.slice.call(document.querySelectorAll('#list .row')).filter(function (r) { return r.offsetParent !== null; });
          }

          function renderList() {
            var box = document.getElementById('list');
            var words = document.getElementById('filter').value.toLowerCase().split(/\s+/).filter(Boolean);
            var status = document.getElementById('status').value;
            box.textContent = '';
            if (!words.length && status === 'all') { box.appendChild(tree(model.scenarios)); }
            else {
              var found = ordered(model.scenarios.filter(function (s) { return matches(s, words, status); }));
              box.appendChild(el('div', 'hint', found.length + ' matching'));
              var flat = el('div', 'flat');
              box.appendChild(flat);
              fill(flat, found);
            }
            refreshVisible();
          }

          function body(label, text, length, caps) {
            var out = document.createDocumentFragment();
            if (!length) { out.appendChild(el('div', 'muted', label + ': none')); return out; }
            if (text === null) { out.appendChild(el('div', 'muted', label + ' (' + bytes(length) + '): not kept')); return out; }
            var shown = text;
            try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON, or cut: as sent */ }
            var kept = new TextEncoder().encode(text).length;
            var note = label + ' (' + bytes(length) + (kept < length ? ', the first ' + bytes(kept) + ' shown: the report keeps ' + bytes(caps.body) + ' of each body of a try that failed, ' + bytes(caps.passedBody) + ' of one that passed' : '') + ')';
            add(out, el('div', 'muted', note), el('pre', 'body', shown));
            return out;
          }

          function detail(s) {
            var box = document.getElementById('detail');
            box.textContent = '';
            var r = s.r || {};
            add(box, el('h2', null, s.name));
            var line = s.file + ':' + s.line + ' \u00b7 ' + s.feature + (s.tags.length ? ' \u00b7 ' + s.tags.join(' ') : '');
            add(box, el('div', 'meta mono', line));
            var facts = el('div', 'meta');
            add(facts, el('span', 'st ' + s.status, S[s.status]), document.createTextNode(' ' + (s.status === 'notrun' ? 'not run' : s.status)));
            if (r.d !== undefined) facts.appendChild(document.createTextNode(' in ' + secs(r.d)));
            if (r.w) facts.appendChild(document.createTextNode(' \u00b7 worker ' + r.w));
            var repeat = model.run.repeat || 1, try_ = repeat > 1 ? 'Run ' : 'Try ';
            if (r.tries) facts.appendChild(document.createTextNode(' \u00b7 ' + (repeat > 1
              ? r.tries + ' runs (--repeat ' + repeat + (r.tries > repeat ? ', ' + (r.tries - repeat) + ' more after a failure' : '') + ')'
              : r.tries + ' tries')));
            facts.appendChild(document.createTextNode(' \u00b7 last runs '));
            facts.appendChild(marks(s));
            box.appendChild(facts);
            if (s.skip) box.appendChild(el('div', 'meta', 'skip: ' + s.skip));
            if (r.fail) {
              var f = add(el('div', 'failure'), el('div', 'reason', r.fail.reason));
              if (r.fail.at) f.appendChild(el('div', 'mono', 'at ' + r.fail.at));
              if (r.fail.source !== undefined) f.appendChild(el('pre', null, r.fail.source));
              box.appendChild(f);
            }
            (r.failedTries || []).forEach(function (t) {
              add(box, el('div', 'meta', try_ + t[0] + ' failed at step ' + (t[1] + 1) + ' after ' + secs(t[3]) + ': ' + t[2]));
            });
            if (r.steps) {
              add(box, el('h3', null, 'Steps' + (r.tries ? (repeat > 1 ? ' (the last run)' : ' (the last try)') : '')));
              var t = el('table');
              r.steps.forEach(function (st) {
                var outcome = st[3], tr = el('tr');
                add(tr, add(el('td'), el('span', 'st ' + outcome, S[outcome] || '?')),
                  add(el('td'), document.createTextNode(st[0] + ' '), el('span', 'phase', st[1] + (st[2] ? ' \u00b7 line ' + st[2] : ''))),
                  el('td', 'd', secs(st[4])), el('td', 'r', st[5] || ''));
                t.appendChild(tr);
              });
              box.appendChild(t);
            } else if (s.status === 'failed') {
              box.appendChild(el('div', 'meta', 'Its steps were not reported: the process running it ended first.'));
            } else if (s.status !== 'notrun') {
              box.appendChild(el('div', 'meta', s.skip ? 'Skipped as its file says.' : 'Not run (the run was cancelled, or stopped at a failure with --fail-fast).'));
            }
            if (r.log) { add(box, el('h3', null, 'Log'), el('pre', 'log', r.log.join('\n'))); }
            var caps = model.run.caps || {};
            if (r.requests) {
              add(box, el('h3', null, 'Requests (' + r.requests.length + (r.droppedRequests ? ' logged, ' + r.droppedRequests + ' more not: the report keeps the first ' + caps.requests : '') + ')'));
              r.requests.forEach(function (q) {
                var d = el('details', 'req');
                var code = q[2] === null ? 'no answer' : String(q[2]);
                add(d, add(el('summary', 'mono'), el('span', null, '+' + secs(q[4])), el('span', 'method', q[0]), el('span', null, q[1]),
                  el('span', 'code' + (q[2] === null ? '0' : String(q[2])[0]), '\u2192 ' + code),
                  el('span', 'muted', q[3] ? 'route ' + q[3] : 'no route answered')));
                d.appendChild(body('Request body', q[5], q[6], caps));
                d.appendChild(body('Response body', q[7], q[8], caps));
                box.appendChild(d);
              });
            }
          }

          function select(i, focus) {
            selected = i;
            var rows = document.querySelectorAll('#list .row');
            for (var k = 0; k < rows.length; k++) {
              var on = Number(rows[k].getAttribute('data-index')) === i;
              rows[k].classList.toggle('sel', on);
              if (on && focus) rows[k].focus();
            }
            if (model.scenarios[i]) detail(model.scenarios[i]);
            if (history.replaceState) history.replaceState(null, '', '#s=' + i);
          }

          function timeline(m) {
            var d = el('details');
            d.id = 'timeline';
            add(d, el('summary', null, 'Timeline per worker'));
            var done = false;
            d.addEventListener('toggle', function () {
              if (!d.open || done) return;
              done = true;
              var ran = m.scenarios.filter(function (s) { return s.ran; }).slice(0, TIMELINE_CAP).filter(function (s) { return s.r && s.r.t !== undefined; });
              var span = Math.max.apply(null, [0.001].concat(ran.map(function (s) { return s.r.t + s.r.d; })));
              var lanes = {};
              ran.forEach(function (s) { var w = s.r.w || 0; (lanes[w] = lanes[w] || []).push(s); });
              Object.keys(lanes).sort(function (a, b) { return a - b; }).forEach(function (w) {
                var lane = add(el('div', 'lane'), el('span', 'lab', w === '0' ? 'this process' : 'worker ' + w));
                lanes[w].forEach(function (s) {
                  var bar = el('i', s.status);
                  bar.style.left = (100 * s.r.t / span) + '%';
                  bar.style.width = (100 * s.r.d / span) + '%';
                  bar.title = s.name + ' \u00b7 ' + secs(s.r.d) + ' from +' + secs(s.r.t);
                  bar.addEventListener('click', function () { select(s.i, false); });
                  lane.appendChild(bar);
                });
                d.appendChild(lane);
              });
              d.appendChild(el('div', 'hint', 'The whole run is ' + secs(span) + ' wide; hover a bar for its scenario, click it to open.'));
            });
            return d;
          }

          function keys(e) {
            var filter = document.getElementById('filter');
            if (e.target === filter) {
              if (e.key === 'Escape' || e.key === 'Enter' || e.key === 'ArrowDown') { filter.blur(); if (visible[0]) select(Number(visible[0].getAttribute('data-index')), true); e.preventDefault(); }
              return;
            }
            if (e.key === '/') { filter.focus(); e.preventDefault(); return; }
            var step = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 }[e.key];
            if (!step) return;
            var at = -1;
            for (var i = 0; i < visible.length; i++) if (Number(visible[i].getAttribute('data-index')) === selected) at = i;
            var next = visible[Math.max(0, Math.min(visible.length - 1, at + step))];
            if (next) { select(Number(next.getAttribute('data-index')), true); e.preventDefault(); }
          }

          document.addEventListener('DOMContentLoaded', function () {
            model = load();
            var app = document.getElementById('app');
            app.textContent = '';
            add(app, summary(model));
            banners(model).forEach(function (b) { app.appendChild(b); });
            app.appendChild(timeline(model));
            var main = el('main');
            var side = el('div');
            side.id = 'side';
            var tools = el('div', 'tools');
            var input = el('input');
            input.id = 'filter';
            input.type = 'search';
            input.placeholder = 'Filter: words of a name or feature, @tag';
            var status = el('select');
            status.id = 'status';
            ['all', 'failed', 'flaky', 'passed', 'skipped', 'notrun'].forEach(function (v) { add(status, el('option', null, v === 'notrun' ? 'not run' : v)).lastChild.value = v; });
            add(tools, input, status);
            add(side, tools, el('div', 'hint', '/ filter \u00b7 \u2191\u2193 or j k move \u00b7 click a scenario to see it'));
            var list = el('div');
            list.id = 'list';
            side.appendChild(list);
            var pane = el('section');
            pane.id = 'detail';
            add(main, side, pane);
            app.appendChild(main);
            var timer = null;
            input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(renderList, 120); });
            status.addEventListener('change', renderList);
            document.addEventListener('keydown', keys);
            renderList();
            var wanted = /#s=(\d+)/.exec(location.hash);
            var first = wanted ? Number(wanted[1]) : -1;
            if (!model.scenarios[first]) {
              var failed = ordered(model.scenarios)[0];
              first = failed ? failed.i : -1;
            }
            if (first >= 0) select(first, false);
            else pane.appendChild(el('div', 'muted', 'No scenario.'));
          });
        })();
        </script>
        </head>
        <body>
        <div id="app">The report is drawn by its script: open it in a browser with JavaScript on.</div>
        """#
}
