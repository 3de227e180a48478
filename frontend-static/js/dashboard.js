// The dashboard's live parts: progress pushed by server-sent events, preset numbers filled in at
// once, cancel without leaving the page. Everything here is an enhancement: without this file the
// page's plain forms and links do the same, one reload at a time.
(function () {
  'use strict';

  function fillPresets() {
    var select = document.getElementById('preset');
    if (!select || !select.dataset.presets) {
      return;
    }
    var presets = JSON.parse(select.dataset.presets);
    var button = document.getElementById('use-preset');
    if (button) {
      button.hidden = true;
    }
    select.addEventListener('change', function () {
      var p = presets[select.value];
      if (!p) {
        return;
      }
      ['execN', 'execWarmups', 'fileSizes', 'fileWarmups', 'floor'].forEach(function (name) {
        document.getElementById(name).value = p[name] === null ? '' : p[name];
      });
      document.querySelectorAll('input[type=checkbox][name=metrics]').forEach(function (box) {
        box.checked = p.metrics.indexOf(box.value) >= 0;
      });
    });
  }

  function text(row, field, value) {
    var element = row.querySelector('[data-field="' + field + '"]');
    if (element) {
      element.textContent = value;
    }
    return element;
  }

  function figures(list, figures) {
    while (list.firstChild) {
      list.removeChild(list.firstChild);
    }
    figures.forEach(function (f) {
      var item = document.createElement('li');
      var label = document.createElement('span');
      label.className = 'label';
      label.textContent = f.label;
      var p50 = document.createElement('span');
      p50.className = 'num';
      p50.textContent = f.p50;
      var n = document.createElement('span');
      n.className = 'n';
      n.textContent = '(n = ' + f.n + ')';
      item.append(label, ' p50 ', p50, ' ', n);
      list.appendChild(item);
    });
  }

  /** Copies a LiveRun (see dev.spacebench.live.LiveRun) into its row. */
  function update(row, run) {
    row.dataset.status = run.status;
    var status = text(row, 'status', run.status);
    if (status) {
      status.className = 'status status-' + run.status.toLowerCase();
    }
    var bar = row.querySelector('[data-field="bar"]');
    if (bar) {
      bar.value = run.percent;
      bar.textContent = run.percentText;
    }
    text(row, 'percent', run.percentText);
    text(row, 'step', run.step + (run.failureReason && run.finished ? ': ' + run.failureReason : ''));
    var list = row.querySelector('[data-field="figures"]');
    if (list) {
      figures(list, run.figures);
    }
    if (run.finished) {
      // The final state stays on screen until the next reload; the run also appears under latest results.
      row.classList.add('finished');
      var cancel = row.querySelector('form.cancel');
      if (cancel) {
        var link = document.createElement('a');
        link.href = run.page;
        link.className = 'read';
        link.textContent = 'Read the page';
        cancel.replaceWith(link);
      }
    }
  }

  function startLive(live) {
    var refreshing = false;
    var again = false;

    function showEmpty(section) {
      var empty = section.querySelector('.empty');
      if (empty) {
        empty.hidden = section.querySelector('.live-run') !== null;
      }
    }

    // Runs came or went: take the queue and latest results as the server renders them now, and add
    // rows for runs that started; rows already shown keep updating in place.
    function refresh() {
      if (refreshing) {
        again = true;
        return;
      }
      refreshing = true;
      fetch(live.dataset.refresh, {headers: {'Accept': 'text/html'}})
        .then(function (response) { return response.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('live');
          if (!fresh) {
            return;
          }
          ['queue', 'latest'].forEach(function (id) {
            live.querySelector('#' + id).replaceWith(document.importNode(fresh.querySelector('#' + id), true));
          });
          var running = live.querySelector('#running');
          fresh.querySelectorAll('#running .live-run').forEach(function (row) {
            if (!running.querySelector('.live-run[data-run-id="' + row.dataset.runId + '"]')) {
              running.appendChild(document.importNode(row, true));
            }
          });
          showEmpty(running);
        })
        .catch(function () { /* the next event tries again */ })
        .then(function () {
          refreshing = false;
          if (again) {
            again = false;
            refresh();
          }
        });
    }

    function onRun(event) {
      var run = JSON.parse(event.data);
      var row = live.querySelector('#running .live-run[data-run-id="' + run.id + '"]');
      if (row) {
        update(row, run);
        if (run.finished) {
          refresh();
        }
        return;
      }
      if (run.status === 'QUEUED' && live.querySelector('#queue [data-run-id="' + run.id + '"]')) {
        return;
      }
      refresh();
    }

    var source = new EventSource(live.dataset.events);
    source.addEventListener('run', onRun);
    document.documentElement.dataset.live = 'on';

    live.addEventListener('submit', function (event) {
      var form = event.target.closest('form.cancel');
      if (!form) {
        return;
      }
      event.preventDefault();
      var button = form.querySelector('button');
      button.disabled = true;
      button.textContent = 'Cancelling…';
      // The form's own post, with its CSRF field: the session that unlocked this page is the credential.
      // Without it (a locked browser, a stale page) the plain post below shows the browser why.
      fetch(form.action, {method: 'POST', body: new URLSearchParams(new FormData(form))})
        .then(function (response) {
          if (!response.ok || new URL(response.url).pathname === '/login') {
            throw new Error(response.status);
          }
        })
        .catch(function () { form.submit(); });
    });
  }

  fillPresets();
  var live = document.getElementById('live');
  if (live && window.EventSource && window.fetch) {
    startLive(live);
  }
}());
