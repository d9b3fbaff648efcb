// convlab notebook, served by `convlab watch --serve`: the page is where the experiment is written
// and run. Cells edit the config, each kernel source and the discussion (CodeMirror from Debian's
// libjs-codemirror, copied beside the pages by convlab; a plain text box where it is not
// installed); Ctrl-Enter or Shift-Enter saves the file, which the watch then runs as it runs any
// save. The file on disk stays the truth: a file saved elsewhere while a cell holds unsaved edits
// is shown as a conflict, both texts kept. Errors land in the cell of the file they name, the line
// marked. A stop button ends a sweep (its finished points are kept); a table row or a figure point
// is measured again on request; query cells ask the results a question and place the answer in the
// discussion. Every state-changing request is a POST with the session's CSRF token
// (/_api/session); the page names files by their key, never by a path. Text is written with
// textContent only.
(function () {
  'use strict';

  var csrf = null;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Text with code in it: `parts` are strings, and one-string arrays set as <code>.
  function words(tag, className, parts) {
    var node = element(tag, className);
    parts.forEach(function (part) {
      node.appendChild(typeof part === 'string' ? document.createTextNode(part)
        : element('code', '', part[0]));
    });
    return node;
  }

  function button(label, className, action) {
    var node = element('button', className, label);
    node.type = 'button';
    node.addEventListener('click', action);
    return node;
  }

  // A request to the server that sent the page; the cookie carries the token.
  function call(method, name, body) {
    var options = { method: method, credentials: 'same-origin', cache: 'no-store', headers: {} };
    if (method === 'POST') {
      options.headers['Content-Type'] = 'application/json';
      options.headers['X-Convlab-CSRF'] = csrf;
      options.body = JSON.stringify(body || {});
    }
    return fetch('/_api/' + name, options).then(function (response) {
      return response.text().then(function (text) {
        var data = {};
        try {
          data = JSON.parse(text);
        } catch (error) {
          data = { error: text };
        }
        return { status: response.status, ok: response.ok, data: data };
      });
    });
  }

  // --- CodeMirror, loaded from the notebook's assets when convlab copied it -----------------------

  var modeFiles = ['mode/yaml/yaml.js', 'mode/clike/clike.js', 'mode/xml/xml.js',
                   'mode/markdown/markdown.js', 'addon/edit/matchbrackets.js',
                   'addon/selection/active-line.js'];

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = src;
      script.onload = resolve;
      script.onerror = function () { reject(new Error(src)); };
      document.head.appendChild(script);
    });
  }

  function loadEditor(folder) {
    var sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = folder + '/codemirror.css';
    document.head.appendChild(sheet);
    return loadScript(folder + '/codemirror.js').then(function () {
      return modeFiles.reduce(function (chain, file) {
        return chain.then(function () { return loadScript(folder + '/' + file); });
      }, Promise.resolve());
    }).then(defineCuda);
  }

  // CUDA: C++ with its own qualifiers and built-in variables.
  function defineCuda() {
    var cpp = CodeMirror.resolveMode('text/x-c++src');
    var spec = {};
    Object.keys(cpp).forEach(function (key) { spec[key] = cpp[key]; });
    var keywords = {};
    Object.keys(cpp.keywords || {}).forEach(function (key) { keywords[key] = true; });
    ('__global__ __device__ __host__ __shared__ __constant__ __restrict__ __forceinline__ ' +
     '__syncthreads __launch_bounds__ threadIdx blockIdx blockDim gridDim warpSize').split(' ')
      .forEach(function (word) { keywords[word] = true; });
    spec.keywords = keywords;
    CodeMirror.defineMIME('text/x-cuda', spec);
  }

  var mimeOf = { yaml: 'text/x-yaml', c: 'text/x-csrc', cpp: 'text/x-c++src', cuda: 'text/x-cuda',
                 markdown: 'text/x-markdown' };

  // --- editor cells ---------------------------------------------------------------------------

  var editors = {};  // key -> cell state

  function labelOf(file) {
    if (file.key === 'config') return 'config';
    if (file.key === 'discussion') return 'discussion';
    return 'kernel source';
  }

  // Where an editor goes: before the cell that shows what its file made (the config cell, the
  // source cell of that file, the discussion), else at the top of the page (a discussion not
  // written yet below the description).
  function anchorOf(file) {
    if (file.key === 'config') return document.getElementById('config');
    if (file.key === 'discussion') return document.getElementById('discussion');
    var name = file.path.split('/').pop();
    var found = null;
    Array.prototype.forEach.call(document.querySelectorAll('section.cell-source'), function (cell) {
      var code = cell.querySelector('.meta code');
      if (!found && code && code.textContent.split('/').pop() === name) found = cell;
    });
    return found;
  }

  // Each editor above the cell its file made, once that cell is there (a discussion or a source
  // written in the page appears after its editor did); the editor keeps its focus.
  function arrangeEditors() {
    var main = document.querySelector('main');
    Object.keys(editors).forEach(function (key) {
      var state = editors[key];
      var shown = anchorOf(state.file);
      if (!shown || shown.parentNode !== main || shown.previousElementSibling === state.cell) return;
      var focused = state.cell.contains(document.activeElement);
      main.insertBefore(state.cell, shown);
      if (state.cm) {
        state.cm.refresh();
        if (focused) state.cm.focus();
      }
    });
    foldRecorded();
  }

  // The cell an editor stands above shows the text the run recorded: folded while an editor is
  // there, so that the page holds one text to edit, with a button that shows it.
  function foldRecorded() {
    Object.keys(editors).forEach(function (key) {
      var shown = anchorOf(editors[key].file);
      if (!shown || shown.classList.contains('cell-edit') || shown.id === 'discussion' ||
          shown.querySelector('button.show-recorded')) {
        return;
      }
      var block = shown.querySelector('.code-block');
      if (!block) return;
      shown.classList.add('recorded-folded');
      var toggle = button('Show the text the run recorded', 'show-recorded', function () {
        var folded = shown.classList.toggle('recorded-folded');
        toggle.textContent = folded ? 'Show the text the run recorded' : 'Hide it';
      });
      block.parentNode.insertBefore(toggle, block);
    });
  }

  function placeCell(cell, file) {
    var main = document.querySelector('main');
    var anchor = anchorOf(file);
    if (anchor && anchor.parentNode === main) {
      main.insertBefore(cell, anchor);
      return;
    }
    // A discussion not written yet: where the page would show it, below the description.
    var description = document.getElementById('description');
    if (file.key === 'discussion' && description && description.parentNode === main) {
      main.insertBefore(cell, description.nextSibling);
      return;
    }
    var editorsHere = main.querySelectorAll('section.cell-edit');
    var last = editorsHere.length ? editorsHere[editorsHere.length - 1] : null;
    var top = document.getElementById('live-progress');
    var after = last || top;
    if (after && after.parentNode === main) main.insertBefore(cell, after.nextSibling);
    else main.insertBefore(cell, main.firstChild);
  }

  function editorText(state) {
    return state.cm ? state.cm.getValue() : state.area.value;
  }

  function setEditorText(state, text) {
    if (state.cm) state.cm.setValue(text);
    else state.area.value = text;
    state.saved = text;
    updateStatus(state);
  }

  function dirty(state) {
    return editorText(state) !== state.saved;
  }

  function updateStatus(state, words) {
    var text = words || (dirty(state) ? 'unsaved changes' : 'as on disk');
    state.status.textContent = text;
    state.cell.classList.toggle('unsaved', dirty(state));
  }

  function makeEditorCell(file, editorReady, editorMissing) {
    var cell = element('section', 'cell cell-edit');
    cell.setAttribute('data-keep', '');
    cell.setAttribute('data-key', file.key);
    cell.id = 'edit-' + file.key;
    var label = element('div', 'cell-label', 'edit ' + labelOf(file));
    cell.appendChild(label);
    var body = element('div', 'cell-body');
    var meta = element('p', 'meta');
    meta.appendChild(element('code', '', file.path));
    meta.appendChild(document.createTextNode(' \u00b7 ' + file.language));
    body.appendChild(meta);
    var bar = element('div', 'edit-bar');
    var state = { file: file, cell: cell, base: file.sha256 || '', saved: file.text || '' };
    bar.appendChild(button('Save and run', 'save', function () { save(state); }));
    bar.appendChild(element('span', 'hint', 'Ctrl-Enter or Shift-Enter'));
    state.status = element('span', 'edit-status');
    bar.appendChild(state.status);
    body.appendChild(bar);
    var area = element('textarea', 'edit-text');
    area.value = file.text || '';
    area.spellcheck = false;
    area.setAttribute('aria-label', 'Edit ' + file.path);
    body.appendChild(area);
    state.area = area;
    if (!editorReady) {
      body.appendChild(element('p', 'hint editor-missing', editorMissing ||
        'A plain text box: the editor could not be loaded.'));
    }
    state.conflict = element('div', 'conflict');
    state.conflict.hidden = true;
    body.appendChild(state.conflict);
    state.problem = element('pre', 'edit-error');
    state.problem.hidden = true;
    body.appendChild(state.problem);
    cell.appendChild(body);
    placeCell(cell, file);
    if (editorReady) {
      state.cm = CodeMirror.fromTextArea(area, {
        mode: mimeOf[file.language] || 'text/plain', lineNumbers: true, matchBrackets: true,
        styleActiveLine: true, indentUnit: 2, viewportMargin: Infinity,
        extraKeys: { 'Ctrl-Enter': function () { save(state); },
                     'Cmd-Enter': function () { save(state); },
                     'Shift-Enter': function () { save(state); } }
      });
      state.cm.on('change', function () { updateStatus(state); });
      state.marked = [];
    } else {
      area.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey || event.shiftKey)) {
          event.preventDefault();
          save(state);
        }
      });
      area.addEventListener('input', function () { updateStatus(state); });
    }
    if (file.problem) {
      showProblem(state, file.problem, []);
      area.disabled = true;
    }
    updateStatus(state);
    editors[file.key] = state;
    return state;
  }

  function save(state) {
    var text = editorText(state);
    updateStatus(state, 'saving\u2026');
    return call('POST', 'save', { key: state.file.key, text: text, base: state.base })
      .then(function (reply) {
        if (reply.ok) {
          state.base = reply.data.sha256;
          state.saved = text;
          state.conflict.hidden = true;
          state.pending = true;
          updateStatus(state, 'saved; running what it changed\u2026');
          document.documentElement.setAttribute('data-saved', state.file.key + ' ' + Date.now());
        } else if (reply.status === 409 && reply.data.conflict) {
          showConflict(state, reply.data);
        } else {
          showProblem(state, reply.data.error || ('HTTP ' + reply.status), []);
          updateStatus(state, 'not saved');
        }
      }, function () { updateStatus(state, 'not saved: the server did not answer'); });
  }

  // The disk holds another text than the one the edits started from: both are kept, and the
  // reader chooses.
  // `text` one line a row, the lines that `other` does not hold marked: where two versions differ,
  // found at a glance in a long file.
  function markedLines(pre, text, other) {
    while (pre.firstChild) pre.removeChild(pre.firstChild);
    var held = Object.create(null);
    other.split('\n').forEach(function (line) { held[line] = true; });
    var differing = 0;
    text.split('\n').forEach(function (line) {
      var differs = !(line in held);
      if (differs) differing += 1;
      pre.appendChild(element('span', differs ? 'line differs' : 'line', line));
    });
    return differing;
  }

  function conflictWords(path, differing, whose) {
    return path + ' changed on disk while this cell held unsaved edits. Neither version is lost: ' +
      whose + ' (' + differing + (differing === 1 ? ' line' : ' lines') + ' not in the editor, ' +
      'marked).';
  }

  function showConflict(state, disk) {
    var box = state.conflict;
    while (box.firstChild) box.removeChild(box.firstChild);
    var title = element('p', 'conflict-title');
    box.appendChild(title);
    var theirs = element('pre', 'conflict-text');
    title.textContent = conflictWords(state.file.path,
      markedLines(theirs, disk.text, editorText(state)), 'yours is in the editor, the disk\'s below');
    var mine = null;
    box.appendChild(button('Keep mine (save it over the disk\'s)', 'keep-mine', function () {
      state.base = disk.sha256;
      box.hidden = true;
      save(state);
    }));
    box.appendChild(button('Take the disk\'s (mine stays below)', 'take-disk', function () {
      var own = editorText(state);
      state.base = disk.sha256;
      setEditorText(state, disk.text);
      title.textContent = conflictWords(state.file.path, markedLines(theirs, own, disk.text),
        'the editor holds the disk\'s version now, your edits are below until you close this box');
      if (!mine) {
        mine = button('Close', 'close-conflict', function () { box.hidden = true; });
        box.appendChild(mine);
      }
    }));
    box.appendChild(theirs);
    box.hidden = false;
    state.cell.classList.add('in-conflict');
    updateStatus(state, 'conflict with the disk');
  }

  function showProblem(state, message, marks) {
    state.problem.textContent = message;
    state.problem.hidden = message === '';
    state.cell.classList.toggle('has-error', message !== '');
    if (state.cm) {
      state.marked.forEach(function (line) {
        state.cm.removeLineClass(line, 'background', 'error-line');
      });
      state.marked = [];
      marks.forEach(function (mark) {
        var line = state.cm.addLineClass(mark.line - 1, 'background', 'error-line');
        if (line) state.marked.push(line);
      });
      if (marks.length) state.cm.scrollIntoView({ line: marks[0].line - 1, ch: 0 }, 80);
    }
    state.cell.setAttribute('data-error-lines',
      marks.map(function (mark) { return mark.line; }).join(' '));
  }

  // An error of the watch: in the cells of the files it names, their lines marked; the top cell
  // shows it too (notebook.js).
  function showErrors(data) {
    var byKey = {};
    (data.marks || []).forEach(function (mark) {
      (byKey[mark.key] = byKey[mark.key] || []).push(mark);
    });
    Object.keys(editors).forEach(function (key) {
      var state = editors[key];
      if (data.message && byKey[key]) {
        showProblem(state, data.message, byKey[key]);
        state.pending = false;
        if (!dirty(state)) updateStatus(state, 'saved; nothing ran: see the error below');
      } else {
        showProblem(state, '', []);
      }
    });
    // An error of the config that names no line of it still belongs to the config's cell.
    if (data.message && !(data.marks || []).length && editors.config &&
        data.label === 'config error') {
      showProblem(editors.config, data.message, []);
    }
  }

  // Files saved on disk (by this page or any editor): a cell without edits takes the new text; one
  // with edits shows the conflict.
  // A file the config names now and the page has no cell for (a kernel source just added) gets
  // one; the cell of a file it no longer names goes, unless it holds unsaved edits.
  function followFiles(hashes, editorReady, editorMissing) {
    var changed = Object.keys(editors).filter(function (key) {
      var hash = hashes[key];
      return typeof hash === 'string' && hash !== editors[key].base;
    });
    var added = Object.keys(hashes).filter(function (key) { return !editors[key]; });
    Object.keys(editors).forEach(function (key) {
      if (key in hashes || dirty(editors[key])) return;
      editors[key].cell.parentNode.removeChild(editors[key].cell);
      delete editors[key];
    });
    if (!changed.length && !added.length) return;
    call('GET', 'files').then(function (reply) {
      if (!reply.ok) return;
      reply.data.files.forEach(function (file) {
        var state = editors[file.key];
        if (!state && added.indexOf(file.key) >= 0) {
          makeEditorCell(file, editorReady, editorMissing);
          return;
        }
        if (!state || changed.indexOf(file.key) < 0 || file.sha256 === state.base) return;
        if (!dirty(state)) {
          state.base = file.sha256;
          setEditorText(state, file.text);
        } else if (editorText(state) === file.text) {
          state.base = file.sha256;
          state.saved = file.text;
          updateStatus(state);
        } else {
          showConflict(state, file);
        }
      });
    });
  }

  // --- running: stop, measure again -------------------------------------------------------------

  function runControls() {
    var line = document.getElementById('live-progress');
    var box = element('div', 'run-controls');
    box.setAttribute('data-keep', '');
    box.id = 'run-controls';
    var stop = button('Stop the sweep', 'stop', function () {
      stop.disabled = true;
      call('POST', 'stop').then(function (reply) {
        note.textContent = reply.ok && reply.data.stopping
          ? 'stopping after the point being measured; finished points are kept'
          : 'no sweep is running';
      });
    });
    stop.hidden = true;
    var note = element('span', 'hint run-note', '');
    box.appendChild(stop);
    box.appendChild(note);
    var main = document.querySelector('main');
    if (line && line.parentNode === main) main.insertBefore(box, line.nextSibling);
    else main.insertBefore(box, main.firstChild);
    return {
      running: function (now) {
        stop.hidden = !now;
        stop.disabled = false;
        if (now) note.textContent = '';
        document.documentElement.classList.toggle('sweep-running', now);
      },
      note: function (text) { note.textContent = text; }
    };
  }

  function measureAgain(points, controls) {
    if (!points.length) return;
    call('POST', 'measure', { points: points }).then(function (reply) {
      controls.note(reply.ok ? 'measuring ' + points.length + (points.length === 1 ? ' point' :
        ' points') + ' again\u2026' : (reply.data.error || 'HTTP ' + reply.status));
    });
  }

  // A button on each table row (its points) and in a figure's pinned tooltip (its point).
  function measureButtons(root, controls) {
    Array.prototype.forEach.call(root.querySelectorAll('tr[data-points]'), function (row) {
      var head = row.cells[0];
      if (!head || head.querySelector('button.measure-again')) return;
      var again = button('\u21bb', 'measure-again', function () {
        measureAgain(row.getAttribute('data-points').split(' '), controls);
      });
      again.title = 'Measure this row again';
      again.setAttribute('aria-label', 'Measure this row again');
      head.appendChild(again);
    });
    Array.prototype.forEach.call(root.querySelectorAll('figure.plot'), function (figure) {
      var script = figure.nextElementSibling;
      if (!script || !script.classList.contains('figure-data') || figure.hasAttribute('data-pins')) {
        return;
      }
      figure.setAttribute('data-pins', '');
      var data = JSON.parse(script.textContent);
      var tooltip = figure.querySelector('.tooltip');
      // After notebook.js's own handler, which pins the tooltip of the point clicked.
      figure.querySelector('svg').addEventListener('click', function () {
        if (tooltip.hidden || !tooltip.classList.contains('pinned')) return;
        var point = data.points[Number(tooltip.getAttribute('data-point'))];
        if (!point || !point.point || tooltip.querySelector('button.measure-again')) return;
        tooltip.appendChild(button('Measure again', 'measure-again', function () {
          measureAgain([point.point], controls);
        }));
      });
    });
  }

  // --- query cells ----------------------------------------------------------------------------

  var queries = [];

  function queryArea(controls) {
    var box = element('section', 'cell cell-queries');
    box.setAttribute('data-keep', '');
    box.id = 'queries';
    box.appendChild(element('div', 'cell-label', 'queries'));
    var body = element('div', 'cell-body');
    body.appendChild(words('p', 'hint', ['Ask the results: an expression of the discussion\'s ' +
      'language (', ['median_ms[implementation=sequential,kernel.size=7] | .3g'], '), ',
      ['--compare params.X'], ', ', ['--best [--by FIELD]'], ' or ', ['--vs IMPL [--by FIELD]'],
      '. The answer follows the results; a click places it in the discussion.']));
    var list = element('div', 'query-list');
    body.appendChild(list);
    body.appendChild(button('Add a query cell', 'add-query', function () { addQuery(list); }));
    box.appendChild(body);
    document.querySelector('main').appendChild(box);
    return list;
  }

  function addQuery(list, text) {
    var cell = element('div', 'query-cell');
    var input = element('input', 'query-input');
    input.type = 'text';
    input.spellcheck = false;
    input.setAttribute('aria-label', 'A query of the results');
    input.placeholder = 'median_ms[implementation=sequential] | .3g';
    if (text) input.value = text;
    var run = button('Run', 'run-query', function () { ask(state); });
    var place = button('Place in the discussion', 'place-query', function () { placeQuery(state); });
    place.disabled = true;
    var answer = element('div', 'query-answer');
    cell.appendChild(input);
    cell.appendChild(run);
    cell.appendChild(place);
    cell.appendChild(answer);
    list.appendChild(cell);
    var state = { cell: cell, input: input, answer: answer, place: place, reply: null };
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') {
        event.preventDefault();
        ask(state);
      }
    });
    queries.push(state);
    input.focus();
    return state;
  }

  function ask(state) {
    var query = state.input.value.trim();
    if (!query) return;
    state.asked = query;
    return call('POST', 'query', { query: query }).then(function (reply) {
      showAnswer(state, reply);
    });
  }

  function showAnswer(state, reply) {
    var box = state.answer;
    while (box.firstChild) box.removeChild(box.firstChild);
    state.reply = reply.ok ? reply.data : null;
    state.place.disabled = !reply.ok;
    state.cell.classList.toggle('has-error', !reply.ok);
    if (!reply.ok) {
      box.appendChild(element('pre', 'edit-error', reply.data.error || 'HTTP ' + reply.status));
      return;
    }
    var data = reply.data;
    if (data.kind === 'value') {
      var value = element('span', 'query-value', data.value);
      if (data.number !== null) value.title = String(data.number);
      box.appendChild(value);
      return;
    }
    box.appendChild(element('p', 'caption', data.title));
    var scroll = element('div', 'table-scroll');
    var table = element('table', 'data');
    var head = table.createTHead().insertRow();
    data.columns.forEach(function (column) { head.appendChild(element('th', '', column)); });
    var body = table.createTBody();
    data.rows.forEach(function (row, r) {
      var tr = body.insertRow();
      var strong = (data.strong || [])[r] || [];
      row.forEach(function (text, c) {
        var td = element('td');
        td.appendChild(element(strong[c] ? 'strong' : 'span', '', text));
        tr.appendChild(td);
      });
    });
    scroll.appendChild(table);
    box.appendChild(scroll);
    (data.notes || []).forEach(function (note) { box.appendChild(element('p', 'hint', note)); });
  }

  // The answer becomes the discussion's: a computed value at the end of its last paragraph, or a
  // placed table on a line of its own; then the discussion is saved (and the page made again).
  function placeQuery(state) {
    var discussion = editors.discussion;
    if (!state.reply || !discussion) return;
    var text = editorText(discussion).replace(/\s+$/, '');
    var insert = state.reply.insert;
    if (state.reply.kind === 'table') text += (text ? '\n\n' : '') + insert + '\n';
    else text += (text ? ' ' : '') + insert + '\n';
    if (discussion.cm) discussion.cm.setValue(text);
    else discussion.area.value = text;
    updateStatus(discussion);
    save(discussion).then(function () {
      state.cell.classList.add('placed');
      state.place.textContent = 'Placed in the discussion';
    });
  }

  function askAgain() {
    queries.forEach(function (state) {
      if (state.asked) ask(state);
    });
  }

  // --- a new experiment -------------------------------------------------------------------------

  function newExperimentForm(events) {
    var box = element('details', 'new-experiment');
    box.setAttribute('data-keep', '');
    box.id = 'new-experiment';
    box.appendChild(element('summary', '', 'New experiment'));
    var form = element('div', 'new-form');
    var name = element('input', 'new-name');
    name.type = 'text';
    name.placeholder = 'name (letters, digits, _ - .)';
    name.setAttribute('aria-label', 'The new experiment\'s name');
    var kernelLabel = element('label', 'new-kernel');
    var kernel = element('input');
    kernel.type = 'checkbox';
    kernel.checked = true;
    kernelLabel.appendChild(kernel);
    kernelLabel.appendChild(document.createTextNode(' with a CPU kernel of its own (from the ' +
      'contract, include/convlab/kernel.h)'));
    var note = element('p', 'hint new-note', 'A config, a discussion and the kernel are written ' +
      'where the project keeps them; the watch follows the new experiment.');
    var create = button('Create', 'create', function () {
      create.disabled = true;
      call('POST', 'new', { name: name.value.trim(), kernel: kernel.checked }).then(function (reply) {
        create.disabled = false;
        if (!reply.ok) {
          note.textContent = reply.data.error || 'HTTP ' + reply.status;
          note.classList.add('bad');
          return;
        }
        note.classList.remove('bad');
        note.textContent = 'Wrote ' + reply.data.config + '; its page opens once it is made\u2026';
        var open = function (event) {
          var data = JSON.parse(event.data);
          if (data.page === reply.data.page) window.location.assign('/' + reply.data.page);
        };
        events.addEventListener('page', open);
      });
    });
    form.appendChild(name);
    form.appendChild(kernelLabel);
    form.appendChild(create);
    form.appendChild(note);
    box.appendChild(form);
    var nav = document.querySelector('header.topbar nav');
    if (nav) nav.appendChild(box);
  }

  // --- start ----------------------------------------------------------------------------------

  window.convlabEditing = function (live) {
    call('GET', 'session').then(function (reply) {
      if (!reply.ok || !reply.data.csrf) return null;  // a server that takes no actions
      csrf = reply.data.csrf;
      return call('GET', 'files');
    }).then(function (reply) {
      if (!reply || !reply.ok) return;
      document.documentElement.classList.add('editing');
      newExperimentForm(live.events);
      if (live.page === 'index.html' || reply.data.page !== live.page) return;
      var data = reply.data;
      var ready = data.editor ? loadEditor(data.editor).then(function () { return true; },
        function () { return false; }) : Promise.resolve(false);
      return ready.then(function (editorReady) {
        var missing = data.editor ? 'A plain text box: the editor\'s files did not load.'
          : data.editor_missing;
        data.files.forEach(function (file) { makeEditorCell(file, editorReady, missing); });
        foldRecorded();
        var controls = runControls();
        controls.running(data.running);
        measureButtons(document, controls);
        var list = queryArea(controls);
        live.events.addEventListener('files', function (event) {
          var files = JSON.parse(event.data);
          if (files.page === live.page) followFiles(files.files, editorReady, missing);
        });
        live.events.addEventListener('error', function (event) {
          if (!event.data) return;
          var error = JSON.parse(event.data);
          if (!error.page || error.page === live.page) showErrors(error);
        });
        live.events.addEventListener('run', function (event) {
          var run = JSON.parse(event.data);
          if (run.page !== live.page) return;
          controls.running(run.running);
          if (run.running) return;
          // A sweep ended: every cell without edits says so, and an error it showed before is
          // gone (a new one comes as its own event).
          Object.keys(editors).forEach(function (key) {
            var state = editors[key];
            var ran = state.pending;
            state.pending = false;
            if (!dirty(state)) updateStatus(state, ran ? 'saved and run' : undefined);
          });
        });
        document.addEventListener('convlab-page-replaced', function () {
          arrangeEditors();
          measureButtons(document, controls);
          askAgain();
        });
        document.documentElement.classList.add('editors-ready');
        return list;
      });
    });
  };
})();
