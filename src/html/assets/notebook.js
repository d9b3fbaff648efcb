// convlab notebook: typesets math with KaTeX, sorts and filters tables, copies text, and makes
// figures interactive (a point's record on hover, a series hidden by a click on its key entry).
// Data comes only from <script type="application/json"> elements, read with JSON.parse; text is
// written with textContent; no markup or script is ever built from data. Nothing is fetched,
// except on a live page (convlab watch --serve): it follows the server's events and, when its
// page changed, fetches the page again from the same server and puts the changed parts in place.
// A live page whose server takes actions is also where the experiment is written and run
// (editing(), below): its config, kernel sources and discussion are edited in cells and saved
// (Ctrl-Enter), a sweep is stopped, a point measured again, the results queried.
(function () {
  'use strict';

  function each(list, action) {
    Array.prototype.forEach.call(list, action);
  }

  function typesetMath(root) {
    var spans = root.querySelectorAll('.math');
    if (typeof katex === 'undefined') {
      document.documentElement.classList.add('no-katex');
      return;
    }
    each(spans, function (span) {
      try {
        katex.render(span.textContent, span, {
          throwOnError: false,
          displayMode: span.classList.contains('display')
        });
      } catch (error) {
        span.classList.add('math-error');
      }
    });
  }

  // Tables: a click on a header's button sorts by that column (again: the other way); the
  // filter box beside a table keeps the rows that contain its text.
  function sortKey(cell) {
    var key = cell.getAttribute('data-sort');
    if (key === null) key = cell.textContent.trim();
    if (key === '') return { empty: true };
    var number = Number(key);
    return isNaN(number) ? { text: key.toLowerCase() } : { number: number };
  }

  function compareKeys(a, b) {
    if (a.empty || b.empty) return a.empty === b.empty ? 0 : (a.empty ? 1 : -1);
    if (a.number !== undefined && b.number !== undefined) return a.number - b.number;
    var x = a.text !== undefined ? a.text : String(a.number);
    var y = b.text !== undefined ? b.text : String(b.number);
    return x < y ? -1 : (x > y ? 1 : 0);
  }

  function sortTable(table, column, header) {
    var body = table.tBodies[0];
    var ascending = header.getAttribute('aria-sort') !== 'ascending';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var order = compareKeys(sortKey(a.cells[column]), sortKey(b.cells[column]));
      // Empty cells stay last either way.
      var emptyA = sortKey(a.cells[column]).empty, emptyB = sortKey(b.cells[column]).empty;
      if (emptyA || emptyB) return order;
      return ascending ? order : -order;
    });
    each(table.tHead.rows[0].cells, function (cell) { cell.setAttribute('aria-sort', 'none'); });
    header.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function sortableTables(root) {
    each(root.querySelectorAll('table.sortable'), function (table) {
      each(table.tHead.rows[0].cells, function (header, column) {
        var button = header.querySelector('button.sort');
        if (button) button.addEventListener('click', function () { sortTable(table, column, header); });
      });
    });
    each(root.querySelectorAll('input.table-filter'), function (input) {
      var table = document.getElementById(input.getAttribute('data-table'));
      if (!table) return;
      input.addEventListener('input', function () {
        var query = input.value.trim().toLowerCase();
        each(table.tBodies[0].rows, function (row) {
          row.hidden = query !== '' && row.textContent.toLowerCase().indexOf(query) < 0;
        });
      });
    });
  }

  function copyButtons(root) {
    each(root.querySelectorAll('button.copy'), function (button) {
      button.addEventListener('click', function () {
        var source = document.getElementById(button.getAttribute('data-copy'));
        if (!source) return;
        var text = source.textContent;
        var done = function () {
          button.textContent = 'Copied';
          window.setTimeout(function () { button.textContent = 'Copy'; }, 1500);
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
        } else {
          selectText(source);
        }
      });
    });
  }

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // Figures: the hover layer's targets name a point of the figure's data; key entries name a
  // series.
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fillTooltip(tooltip, data, point) {
    while (tooltip.firstChild) tooltip.removeChild(tooltip.firstChild);
    var series = data.series[point.series];
    var heading = series ? series.label : (point.y || '');
    if (point.panel) heading += (heading ? ' \u00b7 ' : '') + point.panel;
    if (heading) tooltip.appendChild(element('div', 'tip-title', heading));
    var list = element('dl');
    var add = function (label, text) {
      list.appendChild(element('dt', '', label));
      list.appendChild(element('dd', '', text));
    };
    add(data.x_label, point.x);
    // The target of a grid cell names its row as y (figure_html.cpp); a series point has none.
    if (point.y !== undefined) add(data.y_label, point.y);
    add(data.value_label, point.value);
    if (point.record !== undefined) {
      data.records[point.record].forEach(function (row) { add(row[0], row[1]); });
    }
    tooltip.appendChild(list);
  }

  function placeTooltip(tooltip, frame, target) {
    var box = target.getBoundingClientRect();
    var host = frame.getBoundingClientRect();
    tooltip.hidden = false;
    var left = box.left - host.left + box.width / 2 - tooltip.offsetWidth / 2;
    left = Math.max(0, Math.min(left, host.width - tooltip.offsetWidth));
    var top = box.top - host.top - tooltip.offsetHeight - 8;
    if (top < 0) top = box.bottom - host.top + 8;
    tooltip.style.left = left + 'px';
    tooltip.style.top = top + 'px';
  }

  function toggleSeries(svg, series, entry) {
    var shown = entry.getAttribute('aria-pressed') !== 'false';
    entry.setAttribute('aria-pressed', shown ? 'false' : 'true');
    entry.classList.toggle('key-off', shown);
    each(svg.querySelectorAll('[data-series]'), function (node) {
      if (node === entry || node.classList.contains('key-entry')) return;
      if (node.getAttribute('data-series') === series) node.classList.toggle('series-off', shown);
    });
  }

  // The target nearest the pointer within its own radius; points drawn on top of each other are
  // named in the tooltip as well.
  function nearestTarget(targets, x, y) {
    var best = null, bestDistance = Infinity;
    targets.forEach(function (target) {
      if (target.classList.contains('series-off')) return;
      var box = target.getBoundingClientRect();
      if (box.width === 0) return;
      var distance = Math.hypot(box.left + box.width / 2 - x, box.top + box.height / 2 - y);
      if (distance <= box.width / 2 + 2 && distance < bestDistance) {
        best = target;
        bestDistance = distance;
      }
    });
    return best;
  }

  function coincident(targets, chosen) {
    var a = chosen.getBoundingClientRect();
    return targets.filter(function (target) {
      if (target === chosen || target.classList.contains('series-off')) return false;
      var b = target.getBoundingClientRect();
      return Math.abs(a.left - b.left) < 1 && Math.abs(a.top - b.top) < 1;
    });
  }

  function interactiveFigures(root) {
    each(root.querySelectorAll('figure.plot'), function (figure) {
      var script = figure.nextElementSibling;
      if (!script || !script.classList.contains('figure-data')) return;
      var data = JSON.parse(script.textContent);
      var frame = figure.querySelector('.plot-frame');
      var svg = frame.querySelector('svg');
      var tooltip = frame.querySelector('.tooltip');
      var targets = Array.prototype.slice.call(svg.querySelectorAll('.hover-target'));
      var shown = null;
      var hide = function () {
        tooltip.hidden = true;
        tooltip.classList.remove('pinned');
        shown = null;
      };
      // A click on a point pins its tooltip (so that it can be read, copied or acted on); another
      // click lets it go.
      var pinned = function () { return tooltip.classList.contains('pinned'); };
      svg.addEventListener('click', function (event) {
        var target = nearestTarget(targets, event.clientX, event.clientY);
        var was = pinned();
        hide();
        if (!target || (was && target === shown)) return;
        show(target);
        tooltip.classList.add('pinned');
      });
      svg.addEventListener('mousemove', function (event) {
        if (pinned()) return;
        var target = nearestTarget(targets, event.clientX, event.clientY);
        if (!target) return hide();
        if (target === shown) return;
        show(target);
      });
      var show = function (target) {
        var point = data.points[Number(target.getAttribute('data-point'))];
        if (!point) return hide();
        tooltip.setAttribute('data-point', target.getAttribute('data-point'));
        fillTooltip(tooltip, data, point);
        var others = coincident(targets, target).map(function (other) {
          var p = data.points[Number(other.getAttribute('data-point'))];
          var series = p && data.series[p.series];
          return series ? series.label : '';
        }).filter(function (label) { return label !== ''; });
        if (others.length) {
          tooltip.appendChild(element('div', 'tip-also', 'Also at this point: ' + others.join('; ')));
        }
        placeTooltip(tooltip, frame, target);
        shown = target;
      };
      frame.addEventListener('mouseleave', function () {
        if (!pinned()) hide();
      });
      each(svg.querySelectorAll('.key-entry'), function (entry) {
        var series = entry.getAttribute('data-series');
        entry.addEventListener('click', function () {
          toggleSeries(svg, series, entry);
          hide();
        });
        entry.addEventListener('keydown', function (event) {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            toggleSeries(svg, series, entry);
          }
        });
      });
    });
  }

  function setUp(root) {
    typesetMath(root);
    sortableTables(root);
    copyButtons(root);
    interactiveFigures(root);
  }

  // Live pages: the page named by <meta name="convlab-live"> follows the server's events
  // (server-sent, from the same server, which checks its cookie). A `page` event for this page
  // fetches it again and replaces each part of <main> whose markup changed; `error` shows the
  // config error, or the compiler's lines of a kernel, above the last good results. EventSource
  // reconnects by itself after a drop.
  // The page's own parts; cells the script added (editors, queries: data-keep) are not among them
  // and stay where they are.
  function servedChildren(main) {
    return Array.prototype.filter.call(main.children, function (child) {
      return !child.hasAttribute('data-keep');
    });
  }

  function liveParts(main) {
    var parts = {};
    servedChildren(main).forEach(function (child, index) {
      parts[child.id ? '#' + child.id : child.tagName + ':' + index] = child;
    });
    return parts;
  }

  function replaceChanged(fresh) {
    var main = document.querySelector('main');
    var next = fresh.querySelector('main');
    if (!main || !next) return;
    var old = liveParts(main);
    var anchor = null;
    each(Array.prototype.slice.call(next.children), function (child, index) {
      var key = child.id ? '#' + child.id : child.tagName + ':' + index;
      var current = old[key];
      var node = document.importNode(child, true);
      if (current && current.outerHTML === child.outerHTML) {
        anchor = current;
        delete old[key];
        return;
      }
      if (current) {
        main.replaceChild(node, current);
        delete old[key];
      } else if (anchor && anchor.nextSibling) {
        main.insertBefore(node, anchor.nextSibling);
      } else if (anchor) {
        main.appendChild(node);
      } else {
        main.insertBefore(node, main.firstChild);
      }
      anchor = node;
      setUp(node);
    });
    Object.keys(old).forEach(function (key) { main.removeChild(old[key]); });
    document.title = fresh.title;
    document.documentElement.setAttribute('data-live-updated', String(Date.now()));
    document.dispatchEvent(new CustomEvent('convlab-page-replaced'));
  }

  function showError(message, label) {
    var cell = document.getElementById('cell-error');
    if (!cell) return;
    cell.querySelector('.error-text').textContent = message;
    if (label) cell.querySelector('.cell-label').textContent = label;
    cell.hidden = message === '';
  }

  function showProgress(progress) {
    var line = document.getElementById('live-progress');
    if (!line || !progress) return;
    var text = progress.done >= progress.total
      ? 'sweep done: ' + progress.total + ' of ' + progress.total + ' points'
      : 'sweep running: point ' + (progress.done + 1) + ' of ' + progress.total +
        ', ETA ' + progress.eta_s.toFixed(1) + ' s';
    line.textContent = text;
    line.hidden = false;
  }

  function followLive() {
    var meta = document.querySelector('meta[name="convlab-live"]');
    if (!meta || typeof EventSource === 'undefined') return null;
    var page = meta.getAttribute('content');
    var fetching = false, again = false;
    var refresh = function () {
      if (fetching) {
        again = true;
        return;
      }
      fetching = true;
      fetch(window.location.pathname, { cache: 'no-store', credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.text();
        })
        .then(function (text) {
          replaceChanged(new DOMParser().parseFromString(text, 'text/html'));
        })
        .catch(function () { document.documentElement.classList.add('live-lost'); })
        .then(function () {
          fetching = false;
          if (again) {
            again = false;
            refresh();
          }
        });
    };
    var events = new EventSource('/_events');
    events.addEventListener('page', function (event) {
      var data = JSON.parse(event.data);
      if (data.page !== page) return;
      showProgress(data.progress);
      refresh();
    });
    events.addEventListener('error', function (event) {
      if (!event.data) return;  // the connection dropped: EventSource tries again by itself
      var data = JSON.parse(event.data);
      if (data.page && data.page !== page) return;
      showError(data.message, data.label);
    });
    events.addEventListener('open', function () {
      document.documentElement.classList.remove('live-lost');
      document.documentElement.classList.add('live');
    });
    return { events: events, page: page };
  }

  document.documentElement.classList.add('scripted');
  setUp(document);
  var live = followLive();
  if (live && window.location.protocol.indexOf('http') === 0 && window.convlabEditing) {
    window.convlabEditing(live, { setUp: setUp, element: element, each: each });
  }
})();
