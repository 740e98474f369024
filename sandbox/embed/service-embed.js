/*
 * The service's embed script (`{embed_url}/embed/v1/service-embed.js`), as the sandbox serves it. It fills
 * every `<div data-service="agenda" data-event-slug="…" data-theme="…" data-lang="…">` on the page with the
 * event's agenda, read from the public agenda widget JSON of the host it was loaded from. No key, no
 * cookie; every value from the service is inserted as text, never as HTML.
 */
(function () {
  'use strict';

  var script = document.currentScript || document.querySelector('script[src*="/embed/v1/service-embed.js"]');
  var origin = script ? new URL(script.src, document.baseURI).origin : window.location.origin;

  var WORDS = {
    en: {
      agenda: 'Agenda',
      empty: 'No sessions yet.',
      loading: 'Loading the agenda…',
      unavailable: 'This agenda is not available.',
      notIncluded: 'The agenda is not part of this event.',
      failed: 'The agenda could not be loaded. Reload the page to try again.',
      room: 'Room',
      track: 'Track',
      with: 'with',
    },
    fr: {
      agenda: 'Programme',
      empty: 'Aucune session pour le moment.',
      loading: 'Chargement du programme…',
      unavailable: 'Ce programme n’est pas disponible.',
      notIncluded: 'Le programme ne fait pas partie de cet événement.',
      failed: 'Le programme n’a pas pu être chargé. Rechargez la page pour réessayer.',
      room: 'Salle',
      track: 'Parcours',
      with: 'avec',
    },
    de: {
      agenda: 'Programm',
      empty: 'Noch keine Sessions.',
      loading: 'Programm wird geladen…',
      unavailable: 'Dieses Programm ist nicht verfügbar.',
      notIncluded: 'Das Programm gehört nicht zu dieser Veranstaltung.',
      failed: 'Das Programm konnte nicht geladen werden. Laden Sie die Seite neu.',
      room: 'Raum',
      track: 'Track',
      with: 'mit',
    },
    es: {
      agenda: 'Programa',
      empty: 'Todavía no hay sesiones.',
      loading: 'Cargando el programa…',
      unavailable: 'Este programa no está disponible.',
      notIncluded: 'El programa no forma parte de este evento.',
      failed: 'No se pudo cargar el programa. Recargue la página para intentarlo de nuevo.',
      room: 'Sala',
      track: 'Itinerario',
      with: 'con',
    },
  };
  var THEMES = ['light', 'dark'];

  // The wire's names of the fields this script reads, by their names in the contract: written in by the
  // sandbox that serves the script, in the dialect its answers speak (empty: the contract's own names).
  var NAMES = {};

  function field(record, name) {
    return record
      ? record[Object.prototype.hasOwnProperty.call(NAMES, name) ? NAMES[name] : name]
      : undefined;
  }

  var CSS =
    '.svc-agenda{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;border-radius:8px;padding:16px 20px;border:1px solid var(--svc-line)}' +
    '.svc-agenda.svc-light{--svc-bg:#fff;--svc-fg:#1d2330;--svc-muted:#5b6475;--svc-line:#d8dce4;--svc-accent:#2455c3}' +
    '.svc-agenda.svc-dark{--svc-bg:#141821;--svc-fg:#eef1f6;--svc-muted:#a3acbd;--svc-line:#2c3342;--svc-accent:#7ea6ff}' +
    '.svc-agenda{background:var(--svc-bg);color:var(--svc-fg)}' +
    '.svc-agenda h2{font-size:20px;margin:0 0 8px}' +
    '.svc-agenda h3{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--svc-accent);margin:16px 0 4px}' +
    '.svc-agenda ol{list-style:none;margin:0;padding:0}' +
    '.svc-agenda li{display:flex;gap:16px;padding:8px 0;border-top:1px solid var(--svc-line)}' +
    '.svc-agenda .svc-time{flex:none;width:110px;color:var(--svc-muted);font-variant-numeric:tabular-nums}' +
    '.svc-agenda .svc-title{font-weight:600}' +
    '.svc-agenda .svc-meta{color:var(--svc-muted);font-size:13px}' +
    '.svc-agenda .svc-note{color:var(--svc-muted)}';

  function words(lang) {
    var base = String(lang || 'en')
      .toLowerCase()
      .split('-')[0];
    return WORDS[base] || WORDS.en;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function addStyle() {
    if (document.getElementById('svc-embed-style')) return;
    var style = el('style');
    style.id = 'svc-embed-style';
    style.textContent = CSS;
    (document.head || document.documentElement).appendChild(style);
  }

  function formatter(lang, timeZone, options) {
    try {
      return new Intl.DateTimeFormat(lang, Object.assign({ timeZone: timeZone }, options));
    } catch {
      return new Intl.DateTimeFormat('en', Object.assign({ timeZone: 'UTC' }, options));
    }
  }

  function getJson(path) {
    return fetch(origin + path, { credentials: 'omit', headers: { Accept: 'application/json' } }).then(
      function (res) {
        if (!res.ok) {
          var error = new Error('HTTP ' + res.status);
          error.status = res.status;
          throw error;
        }
        return res.json();
      },
    );
  }

  function render(box, t, lang, title, agenda) {
    var day = formatter(lang, field(agenda, 'timezone'), { weekday: 'long', day: 'numeric', month: 'long' });
    var time = formatter(lang, field(agenda, 'timezone'), { hour: '2-digit', minute: '2-digit' });
    box.textContent = '';
    box.appendChild(el('h2', '', title ? t.agenda + ' — ' + title : t.agenda));
    var sessions = (field(agenda, 'sessions') || []).slice().sort(function (a, b) {
      var x = field(a, 'startsAt');
      var y = field(b, 'startsAt');
      return x < y ? -1 : x > y ? 1 : 0;
    });
    if (sessions.length === 0) {
      box.appendChild(el('p', 'svc-note', t.empty));
      return;
    }
    var list = null;
    var currentDay = '';
    sessions.forEach(function (s) {
      var start = new Date(field(s, 'startsAt'));
      var end = new Date(field(s, 'endsAt'));
      var dayLabel = day.format(start);
      if (dayLabel !== currentDay) {
        currentDay = dayLabel;
        box.appendChild(el('h3', '', dayLabel));
        list = el('ol');
        box.appendChild(list);
      }
      var item = el('li');
      item.setAttribute('data-session', field(s, 'id'));
      item.appendChild(el('span', 'svc-time', time.format(start) + '–' + time.format(end)));
      var body = el('div');
      body.appendChild(el('div', 'svc-title', field(s, 'title')));
      var meta = [];
      var room = field(s, 'room');
      var track = field(s, 'track');
      if (room) meta.push(t.room + ': ' + room);
      if (track) meta.push(t.track + ': ' + track);
      var names = (field(s, 'speakers') || [])
        .map(function (p) {
          return field(p, 'name');
        })
        .filter(Boolean);
      if (names.length) meta.push(t.with + ' ' + names.join(', '));
      if (meta.length) body.appendChild(el('div', 'svc-meta', meta.join(' · ')));
      item.appendChild(body);
      list.appendChild(item);
    });
  }

  function fill(node) {
    if (node.getAttribute('data-service-ready') === 'loading') return;
    node.setAttribute('data-service-ready', 'loading');
    var slug = node.getAttribute('data-event-slug') || '';
    var lang = node.getAttribute('data-lang') || document.documentElement.lang || 'en';
    var theme = (node.getAttribute('data-theme') || 'light').toLowerCase();
    if (theme === 'auto')
      theme =
        window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    if (THEMES.indexOf(theme) < 0) theme = 'light';
    var t = words(lang);
    var box = el('section', 'svc-agenda svc-' + theme);
    box.setAttribute('lang', lang);
    box.appendChild(el('p', 'svc-note', t.loading));
    node.textContent = '';
    node.appendChild(box);
    if (!slug) {
      box.textContent = '';
      box.appendChild(el('p', 'svc-note', t.unavailable));
      node.setAttribute('data-service-ready', 'error');
      return;
    }
    var path = '/widgets/event/' + encodeURIComponent(slug);
    Promise.all([
      getJson(path + '/agenda'),
      getJson(path).catch(function () {
        return null;
      }),
    ]).then(
      function (results) {
        render(box, t, lang, field(results[1], 'title'), results[0]);
        node.setAttribute('data-service-ready', 'done');
      },
      function (error) {
        box.textContent = '';
        var message = error.status === 404 ? t.unavailable : error.status === 403 ? t.notIncluded : t.failed;
        box.appendChild(el('p', 'svc-note', message));
        node.setAttribute('data-service-ready', 'error');
      },
    );
  }

  function fillAll() {
    addStyle();
    var nodes = document.querySelectorAll('[data-service="agenda"]');
    for (var i = 0; i < nodes.length; i++) {
      if (!nodes[i].getAttribute('data-service-ready')) fill(nodes[i]);
    }
  }

  window.ServiceEmbed = {
    refresh: function () {
      var nodes = document.querySelectorAll('[data-service="agenda"]');
      for (var i = 0; i < nodes.length; i++) nodes[i].removeAttribute('data-service-ready');
      fillAll();
    },
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fillAll);
  else fillAll();
})();
