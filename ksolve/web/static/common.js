// What the workbench's pages share: the API calls (docs/web-api.md), the problem being worked on,
// the tabs, small DOM helpers.

/** An answer of the API that is not 2xx: its one-line `error` and the HTTP status. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** Calls the API: JSON in, JSON out; a 4xx answer throws its one-line error. */
export async function api(method, path, body, { signal } = {}) {
  const init = { method, signal, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError('the server does not answer (is ksolve serve still running?)', 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError((data && data.error) || `${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

/** Follows a job's event stream until it ends; `onProgress(progress)` for each progress event.
 * Resolves with the job JSON of the `done` event (falls back to polling if the stream breaks). */
export function followJob(id, onProgress) {
  return new Promise((resolve, reject) => {
    let finished = false;
    const source = new EventSource(`/api/jobs/${encodeURIComponent(id)}/events`);
    const finish = job => {
      if (finished) return;
      finished = true;
      source.close();
      resolve(job);
    };
    source.addEventListener('progress', event => {
      try {
        onProgress(JSON.parse(event.data));
      } catch { /* a malformed progress line is skipped */ }
    });
    source.addEventListener('done', event => {
      try {
        finish(JSON.parse(event.data));
      } catch {
        poll();
      }
    });
    source.onerror = () => {
      if (finished) return;
      source.close();
      poll();
    };
    async function poll() {
      while (!finished) {
        try {
          const job = await api('GET', `/api/jobs/${encodeURIComponent(id)}`);
          if (job.progress) onProgress(job.progress);
          if (!['queued', 'running'].includes(job.state)) return finish(job);
        } catch (error) {
          finished = true;
          return reject(error);
        }
        await new Promise(r => setTimeout(r, 700));
      }
    }
  });
}

/** The problem being worked on, shared by the pages: its TOML, the last check's answer (or its
 * error), and listeners told of each change. */
export const workbench = {
  toml: '',
  check: null,
  error: null,
  listeners: new Set(),
  set(fields) {
    Object.assign(this, fields);
    for (const listener of this.listeners) listener(this);
  },
  on(listener) {
    this.listeners.add(listener);
  },
  /** The Library problem opened last, `{name, text}` (null: none). */
  source: null,
  /** Opens a TOML text in Compose (Library, Open file). */
  load: null,
};

/** `12,345`. */
export const count = n => Number(n).toLocaleString('en-US');

/** `1 position` / `30 positions`. */
export const plural = (n, word) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/** An element: `el('li', {class: 'x'}, 'text', child)`. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'class') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** Offers `text` as a file download. */
export function download(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ------------------------------------------------------------------ tabs
const TABS = ['compose', 'verify', 'try', 'library'];
const shown = new Set();
export const onShow = {};

export function showTab(name, { focus = false } = {}) {
  if (!TABS.includes(name)) name = 'compose';
  for (const tab of TABS) {
    const button = document.getElementById(`tab-${tab}`);
    const panel = document.getElementById(tab);
    const selected = tab === name;
    button.setAttribute('aria-selected', String(selected));
    button.tabIndex = selected ? 0 : -1;
    panel.hidden = !selected;
  }
  if (location.hash !== `#${name}`) history.replaceState(null, '', `#${name}`);
  if (focus) document.getElementById(`tab-${name}`).focus();
  const first = !shown.has(name);
  shown.add(name);
  if (onShow[name]) onShow[name](first);
}

export function initTabs() {
  for (const tab of TABS) {
    const button = document.getElementById(`tab-${tab}`);
    button.addEventListener('click', () => showTab(tab));
    button.addEventListener('keydown', event => {
      const index = TABS.indexOf(tab);
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      showTab(TABS[(next + TABS.length) % TABS.length], { focus: true });
    });
  }
  window.addEventListener('hashchange', () => showTab(location.hash.slice(1)));
}

