// The Horae console's page: hash views (#awaiting, #sessions, #session/ID, #reminders), each
// reloaded from its JSON endpoint when the console's event stream (/api/events) says something
// changed; while the stream is down the page polls every two seconds instead, until the browser
// reconnects it. Text from the store is only ever set as textContent. Every address is made from
// the console's root (meta horae-base): / for `horae console`, the mount path under Spring Boot.
'use strict';
(function () {
  const POLL_MS = 2000;
  const CSRF = document.querySelector('meta[name="horae-csrf"]').content;
  const BASE = document.querySelector('meta[name="horae-base"]').content;
  const SVG = 'http://www.w3.org/2000/svg';
  let timer = null;
  let answering = false;
  let live = false;

  function el(tag, props, ...children) {
    const e = document.createElement(tag);
    Object.entries(props || {}).forEach(([k, v]) => {
      if (k === 'text') { e.textContent = v; } else if (k === 'class') { e.className = v; } else { e.setAttribute(k, v); }
    });
    children.forEach(c => e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c));
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, String(v)));
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function status(text, error) {
    const s = document.getElementById('status');
    s.textContent = text;
    s.className = error ? 'status error' : 'status';
  }
  async function get(path) {
    const r = await fetch(path, { headers: { 'Accept': 'application/json' }, credentials: 'same-origin' });
    const body = await r.json();
    if (!r.ok) { throw new Error(body.message || ('HTTP ' + r.status)); }
    return body;
  }

  // ---- awaiting approval ----
  function renderAwaiting(data) {
    const list = document.getElementById('awaiting-list');
    document.getElementById('awaiting-count').textContent = data.awaiting.length ? String(data.awaiting.length) : '';
    document.getElementById('awaiting-note').textContent = data.awaiting.length
      ? (data.canAnswer ? '' : 'This console was started without --setup CLASS: the buttons will be refused.')
      : 'No call is waiting for a person.';
    // a card stays while its call waits, so a reason being typed survives the polls
    const kept = new Map([...list.children].map(c => [c.dataset.run, c]));
    list.replaceChildren(...data.awaiting.map(a => kept.get(a.runId) || card(a)));
    list.querySelectorAll('button').forEach(b => { b.disabled = answering; });
  }
  function card(a) {
    const reason = el('input', { type: 'text', placeholder: 'reason for a denial (told to the model)', 'aria-label': 'denial reason' });
    const approve = el('button', { class: 'approve', 'data-run': a.runId, text: 'Approve' });
    const deny = el('button', { class: 'deny', 'data-run': a.runId, text: 'Deny' });
    approve.disabled = answering;
    deny.disabled = answering;
    approve.addEventListener('click', () => answer(BASE + 'api/approve', { runId: a.runId }));
    deny.addEventListener('click', () => answer(BASE + 'api/deny', { runId: a.runId, reason: reason.value }));
    const row = (k, v) => [el('dt', { text: k }), el('dd', { text: v })];
    return el('div', { class: 'card', 'data-run': a.runId },
      el('dl', {}, ...row('run', a.runId), ...row('session', a.session), ...row('reason', a.reason),
        ...row('tool', a.tool), ...row('arguments', JSON.stringify(a.arguments)), ...row('call', a.callId),
        ...row('deadline', a.deadline || 'none')),
      approve, ' ', deny, ' ', reason);
  }
  async function answer(path, body) {
    const result = document.getElementById('answer-result');
    answering = true;
    document.querySelectorAll('.card button').forEach(b => { b.disabled = true; });
    result.className = 'result';
    result.textContent = 'answering ' + body.runId + '…';
    try {
      const r = await fetch(path, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-Horae-CSRF': CSRF },
        body: JSON.stringify(body)
      });
      const data = await r.json();
      if (r.ok) {
        result.textContent = data.message;
      } else {
        result.className = 'result error';
        result.textContent = data.error + ': ' + data.message;
      }
    } catch (e) {
      result.className = 'result error';
      result.textContent = 'the console did not answer: ' + e.message + ' (the answer may or may not have landed; look at the session)';
    } finally {
      answering = false;
      refresh();
    }
  }

  // ---- sessions ----
  function renderSessions(data) {
    const body = document.getElementById('sessions-body');
    body.replaceChildren(...data.sessions.map(s => el('tr', {},
      el('td', {}, el('a', { href: '#session/' + encodeURIComponent(s.session), text: s.session })),
      el('td', { text: String(s.events) }), el('td', { text: s.timeZone || '-' }),
      el('td', { text: s.lastEventAt || '-' }), el('td', { text: s.state }),
      el('td', { text: String(s.pendingReminders) }), el('td', { text: String(s.awaiting) }))),
      ...data.unreadable.map(u => el('tr', {}, el('td', { text: u.session }), el('td', { colspan: '6', text: 'unreadable: ' + u.message }))));
  }

  // ---- one session ----
  function renderTimeline(data) {
    const s = data.summary;
    document.getElementById('session-title').textContent = s.session;
    document.getElementById('session-summary').textContent = s.state + ' · ' + s.events + ' events · zone ' + (s.timeZone || '-')
      + ' · ' + s.pendingReminders + ' reminders pending · ' + s.awaiting + ' awaiting'
      + (data.omitted ? ' · the oldest ' + data.omitted + ' entries are not shown (horae tail shows them)' : '');
    const list = document.getElementById('timeline');
    list.replaceChildren(...data.entries.slice().reverse().map(e => el('li', { class: 'entry-' + e.kind },
      el('span', { text: '#' + e.seq }), el('span', { text: e.time }),
      el('span', { class: 'kind kind-' + e.kind, text: e.kind }), el('span', { text: e.title }),
      ...(e.detail ? [el('span', { class: 'detail', text: e.detail })] : []))));
  }

  // ---- reminders ----
  function renderReminders(data) {
    const now = Date.parse(data.now);
    const hours = 12;
    const buckets = new Array(hours).fill(0);
    let overdue = 0;
    data.scheduled.forEach(r => {
      const h = Math.floor((Date.parse(r.due) - now) / 3600000);
      if (h < 0) { overdue++; } else if (h < hours) { buckets[h]++; }
    });
    document.getElementById('reminders-note').textContent = 'as of ' + data.now + ' · ' + data.scheduled.length
      + ' scheduled' + (overdue ? ' · ' + overdue + ' overdue (due, not dispatched yet)' : '');
    document.getElementById('due-chart').replaceChildren(bars(buckets.map((n, i) => ({ label: '+' + i + 'h', value: n })), 'bar', n => String(n)));
    const late = data.dispatched.filter(d => d.latenessMs !== undefined).slice(-24);
    document.getElementById('lateness-chart').replaceChildren(late.length
      ? bars(late.map(d => ({ label: d.id, value: d.latenessMs / 1000 })), 'late', v => v.toFixed(1) + ' s')
      : el('p', { class: 'note', text: 'No reminder was dispatched yet.' }));
    const body = document.getElementById('reminders-body');
    body.replaceChildren(...data.scheduled.slice().sort((a, b) => a.due.localeCompare(b.due)).map(r => el('tr', {},
      el('td', { text: r.due }), el('td', { text: r.session }), el('td', { text: r.id }), el('td', { text: r.prompt }))));
  }
  function bars(items, cls, format) {
    const w = 56;
    const h = 140;
    const max = Math.max(1, ...items.map(i => i.value));
    const s = svg('svg', { width: items.length * w + 20, height: h + 40, role: 'img' });
    items.forEach((item, i) => {
      const bh = Math.round((item.value / max) * h);
      const x = 10 + i * w;
      s.appendChild(svg('rect', { class: cls, x: x + 8, y: h - bh + 15, width: w - 16, height: bh }));
      s.appendChild(svg('text', { x: x + w / 2, y: h - bh + 11, 'text-anchor': 'middle' }, format(item.value)));
      s.appendChild(svg('text', { x: x + w / 2, y: h + 32, 'text-anchor': 'middle' }, item.label));
    });
    return s;
  }

  // ---- routing and polling ----
  function route() {
    const hash = location.hash || '#awaiting';
    let view = hash.slice(1);
    let load;
    if (view.startsWith('session/')) {
      const id = decodeURIComponent(view.slice('session/'.length));
      load = () => get(BASE + 'api/timeline?session=' + encodeURIComponent(id)).then(renderTimeline);
      view = 'session';
    } else if (view === 'sessions') {
      load = () => get(BASE + 'api/sessions').then(renderSessions);
    } else if (view === 'reminders') {
      load = () => get(BASE + 'api/reminders').then(renderReminders);
    } else {
      view = 'awaiting';
      load = () => get(BASE + 'api/awaiting').then(renderAwaiting);
    }
    document.querySelectorAll('.view').forEach(v => v.classList.toggle('shown', v.id === 'view-' + view));
    document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active', a.id === 'nav-' + (view === 'session' ? 'sessions' : view)));
    return load;
  }
  let current = route();
  async function refresh() {
    clearTimeout(timer);
    try {
      if (!answering) {
        await current();
        const badge = await get(BASE + 'api/awaiting');
        document.getElementById('awaiting-count').textContent = badge.awaiting.length ? String(badge.awaiting.length) : '';
      }
      status((live ? 'live' : 'polling') + ' · updated ' + new Date().toLocaleTimeString(), false);
    } catch (e) {
      status(e.message, true);
    }
    // the stream says when to reload; polling is only the fallback while it is down
    timer = live ? null : setTimeout(refresh, POLL_MS);
  }
  function listen() {
    if (!window.EventSource) { return; }
    const events = new EventSource(BASE + 'api/events');
    events.addEventListener('hello', () => { live = true; refresh(); });
    events.addEventListener('change', () => { refresh(); });
    events.addEventListener('trouble', e => { status(JSON.parse(e.data).message, true); });
    // dropped: poll until the browser reconnects it (it retries by itself; a refused stream stays closed)
    events.addEventListener('error', () => { if (live) { live = false; refresh(); } });
  }
  window.addEventListener('hashchange', () => { current = route(); refresh(); });
  refresh();
  listen();
}());
