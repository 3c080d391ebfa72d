// Verify: solve or verify the composed problem as a server job, with live progress from its event
// stream and a Cancel button; then the verdict, keys, tries, duals, the solution as problemists
// write it, and the server's HTML report (the solution tree with diagrams) in a frame.
import { api, count, download, el, followJob, plural, workbench } from './common.js';

const $ = id => document.getElementById(id);

const VERDICTS = {
  sound: ['Sound', 'good'], cooked: ['Cooked', 'bad'], 'short solution': ['Short solution', 'bad'],
  'no solution': ['No solution', 'bad'], unknown: ['Not decided', ''], solved: ['Solved', 'good'],
};

/** `1.Rg2!` from a verification entry (san, label or move). */
export function moveText(entry, mark) {
  if (!entry || typeof entry !== 'object') return String(entry);
  const label = String(entry.san || entry.label || entry.move || '?');
  return (/^\d/.test(label) ? label : `1.${label}`) + mark;
}

/** The tries as composers list them (as ksolve.report.text.try_lines): the closest first, one line
 * each; tries refused everywhere or ending the game at once grouped on one line per kind. */
export function tryLines(tries) {
  const lines = [];
  const groups = new Map();
  for (const attempt of tries) {
    const refuted = attempt.refuted_by || {};
    if (refuted.kind === 'ends') {
      const end = String(refuted.answer || '').split(', ').pop().toLowerCase();
      const words = `end the game at once (${end})`;
      groups.set(words, [...(groups.get(words) || []), moveText(attempt, '')]);
    } else if (refuted.kind === 'refused') {
      const words = 'are refused in every position';
      groups.set(words, [...(groups.get(words) || []), moveText(attempt, '')]);
    } else {
      lines.push(moveText(attempt, '?') + (attempt.refutation ? ` ${attempt.refutation}` : ''));
    }
  }
  for (const [words, moves] of groups) {
    if (moves.length === 1) {
      lines.push(`${moves[0]}? ${words.replace('end the game', 'ends the game').replace('are refused', 'is refused')}`);
    } else {
      lines.push(`${moves.length} tries ${words}: ${moves.join(' ')}`);
    }
  }
  return lines;
}

/** A dual as composers note it (as ksolve.report.text.dual_text). */
export function dualText(dual) {
  const number = dual.move_number ?? '?';
  const also = (dual.also || []).map(move => `${number}.${move}`).join(', ');
  const speed = dual.moves_left ? `; mate in ${dual.moves_left}` : '';
  const after = dual.after ? `${dual.after}: ` : '';
  return `${after}${number}.${dual.played ?? '?'} (also ${also}${speed})`;
}

/** A job's progress over its phases (belief, solve, verify), each of which counts its nodes and
 * seconds from zero: `add(progress)` gives the totals so far, which never go back. */
export class ProgressTally {
  constructor() {
    this.phase = null;
    this.last = { nodes: 0, seconds: 0 };
    this.before = { nodes: 0, seconds: 0 }; // the phases done
  }

  add(progress) {
    if (progress.phase !== this.phase) {
      if (this.phase !== null) {
        this.before = { nodes: this.before.nodes + this.last.nodes,
          seconds: this.phase === 'belief' ? this.last.seconds : this.before.seconds + this.last.seconds };
      }
      this.phase = progress.phase;
    }
    this.last = { nodes: Number(progress.nodes) || 0, seconds: Number(progress.seconds) || 0 };
    return { ...progress, nodes: this.before.nodes + this.last.nodes, seconds: this.before.seconds + this.last.seconds };
  }
}

/** "Verifying (solve): depth 6, 1,136 nodes, 1.4 s" from a progress event (totals: `ProgressTally`). */
export function progressText(action, progress) {
  const doing = action === 'solve' ? 'Solving' : 'Verifying';
  const phase = progress.phase && progress.phase !== action ? ` (${progress.phase})` : '';
  if (progress.phase === 'belief' && progress.total) {
    return `${doing}${phase}: ${count(progress.tried || 0)} of ${count(progress.total)} placements, ${Number(progress.seconds).toFixed(1)} s`;
  }
  return `${doing}${phase}: depth ${progress.depth}, ${count(progress.nodes)} nodes, ${Number(progress.seconds).toFixed(1)} s`;
}

export function initVerify() {
  let job = null; // {id, action} of the running or last job
  let running = false;

  const buttons = ['run-solve', 'run-verify'].map($);
  const setRunning = value => {
    running = value;
    for (const button of buttons) button.disabled = value || !workbench.check;
    $('run-cancel').disabled = !value;
    $('run-progress').hidden = !value;
  };

  workbench.on(() => {
    if (!running) setRunning(false);
    if (!running && workbench.error) {
      status(`The problem has an error: ${workbench.error}`, 'bad');
    }
  });

  function status(text, kind = '') {
    const line = $('run-status');
    line.textContent = text;
    line.className = `status ${kind}`;
  }

  async function run(action) {
    if (running || !workbench.toml) return;
    const options = { timeout: Number($('run-timeout').value) || 600 };
    if ($('run-moves').value) options.moves = Number($('run-moves').value);
    const toml = workbench.toml;
    $('run-result').hidden = true;
    setRunning(true);
    status(`${action === 'solve' ? 'Solving' : 'Verifying'}: queued…`, 'pending');
    try {
      const body = { problem: toml, action, options };
      if (workbench.source && workbench.source.text === toml) body.name = workbench.source.name; // the Library keeps the verdict
      const { id } = await api('POST', '/api/jobs', body);
      job = { id, action, toml };
      const tally = new ProgressTally();
      const done = await followJob(id, progress => status(progressText(action, tally.add(progress)), 'pending'));
      show(done);
    } catch (error) {
      status(error.message, 'bad');
    } finally {
      setRunning(false);
    }
  }

  function show(done) {
    if (done.state === 'cancelled') return status('Cancelled.', '');
    if (done.state === 'failed') return status(`Failed: ${done.error || 'the worker stopped'}`, 'bad');
    const result = done.result || {};
    const verification = done.action === 'verify' ? result.verification : null;
    const solution = done.action === 'verify' ? result.solution : result;
    status('Done.', '');
    renderVerdict(solution, verification);
    $('solution-text').textContent = solution?.solution || `No strategy tree (${solution?.status || 'no result'}).`;
    renderLists(verification);
    renderExports(done, solution);
    const frame = $('report-frame');
    frame.src = `/api/jobs/${encodeURIComponent(done.id)}/report.html`;
    $('run-result').hidden = false;
  }

  function renderVerdict(solution, verification) {
    let verdict, sentence;
    if (verification) {
      verdict = verification.verdict;
      const keys = (verification.keys || []).map(key => moveText(key, '!')).join(', ');
      const goal = workbench.check?.goal === 'king-capture' ? 'captures the king' : 'mates';
      if (verdict === 'unknown') sentence = `${verification.reason || 'the search stopped'}${keys ? `; keys so far: ${keys}` : ''}`;
      else if (!keys) sentence = `No first move ${goal} in ${verification.moves}.`;
      else if (verdict === 'sound') sentence = `White ${goal} in ${verification.moves}: key ${keys}`;
      else sentence = `${verification.keys.length === 1 ? 'Key' : `${verification.keys.length} keys`}: ${keys}`;
    } else {
      verdict = solution?.status || 'unknown';
      if (verdict === 'solved') {
        const key = keyLabel(solution);
        sentence = `White ${solution.shortest ? 'mates in' : 'wins within'} ${solution.moves}${key ? `; key ${key}` : ''}` +
          ' (not verified: cooks, tries and duals not looked for)';
      } else if (verdict === 'no solution') {
        sentence = `White cannot force a win in ${solution.max_moves} or fewer moves.`;
      } else {
        sentence = solution?.reason || 'the search stopped';
      }
    }
    const [word, tone] = VERDICTS[verdict] || [verdict, ''];
    const box = el('div', { class: `verdict ${tone}`, 'data-verdict': verdict },
      el('strong', {}, word), ' ', sentence);
    const facts = [];
    if (solution?.belief_size) facts.push(`belief ${plural(solution.belief_size, 'position')}`);
    const nodes = (solution?.nodes || 0) + (verification?.nodes || 0);
    const seconds = (solution?.seconds || 0) + (verification?.seconds || 0);
    facts.push(`searched ${count(nodes)} nodes in ${seconds.toFixed(1)} s`);
    $('verdict').replaceChildren(box, facts.length ? el('p', { class: 'facts' }, facts.join(' · ')) : '');
  }

  function keyLabel(solution) {
    const match = /^1\.(\S+?)!/.exec(solution?.solution || '');
    return match ? `1.${match[1]}!` : solution?.key || '';
  }

  function renderLists(verification) {
    const box = $('verification-lists');
    box.replaceChildren();
    if (!verification) return;
    const keys = verification.keys || [];
    if (keys.length) {
      box.append(el('h2', { class: 'sub' }, keys.length > 1 ? 'Keys' : 'Key'),
        el('ul', { class: 'plain keys' }, keys.map(key => el('li', {}, el('span', { class: 'move key' }, moveText(key, '!')),
          key.moves && key.moves !== verification.moves ? ` (mate in ${key.moves})` : ''))));
    }
    const tries = verification.tries || [];
    if (tries.length) {
      const total = verification.tries_total;
      const lines = tryLines(tries);
      box.append(el('details', { open: lines.length <= 12 },
        el('summary', {}, `Tries, the closest first (${total > tries.length ? `${tries.length} of ${total}` : tries.length})`),
        el('ul', { class: 'plain tries' }, lines.map(line => el('li', {}, line)))));
    }
    const duals = verification.duals;
    if (duals && duals.length && verification.verdict !== 'unknown') {
      const main = duals.filter(dual => dual.main_line).length;
      box.append(el('details', { open: main > 0 },
        el('summary', {}, `Duals (${main} in the main line, ${duals.length - main} minor)`),
        el('ul', { class: 'plain duals' }, duals.map(dual => el('li', {}, `${dual.main_line ? 'main line' : 'minor'}: ${dualText(dual)}`)))));
    } else if (duals && verification.verdict !== 'unknown') {
      box.append(el('p', {}, `Duals: ${verification.duals_checked ? 'none' : 'not checked'}`));
    }
    if (verification.published_key) {
      const agrees = verification.published_key_matches;
      const word = agrees === null || agrees === undefined ? 'not decided' : agrees ? 'a key' : 'not a key';
      box.append(el('p', {}, 'Published key ', el('span', { class: 'move' }, moveText({ label: verification.published_label || verification.published_key }, '')), ` — ${word}`));
    }
  }

  function renderExports(done, solution) {
    const id = encodeURIComponent(done.id);
    const name = (workbench.check?.title || 'problem').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'problem';
    const links = [el('a', { href: `/api/jobs/${id}/report.html`, target: '_blank', rel: 'noopener' }, 'Open the report'),
      el('a', { href: `/api/jobs/${id}/report.html`, download: `${name}-report.html` }, 'Download report (HTML)')];
    if (solution?.status === 'solved') {
      links.push(el('a', { href: `/api/jobs/${id}/certificate.json`, download: `${name}-certificate.json` }, 'Certificate (JSON)'));
    }
    const toml = el('a', { href: '#', class: 'toml-link' }, 'Problem (TOML)');
    toml.addEventListener('click', event => {
      event.preventDefault();
      download(`${name}.toml`, job?.toml || workbench.toml, 'application/toml');
    });
    links.push(toml);
    const items = [];
    links.forEach((link, index) => items.push(index ? ' · ' : 'Export: ', link));
    $('exports').replaceChildren(...items);
  }

  // The report frame grows to its page's height (same origin), also when a branch is opened in it,
  // so the page scrolls as one.
  let frameObserver = null;
  $('report-frame').addEventListener('load', () => {
    const frame = $('report-frame');
    frameObserver?.disconnect();
    try {
      const body = frame.contentDocument.body;
      const fit = () => { frame.style.height = `${Math.max(300, frame.contentDocument.documentElement.scrollHeight + 4)}px`; };
      fit();
      frameObserver = new ResizeObserver(fit);
      frameObserver.observe(body);
    } catch { /* another origin: keep the CSS height */ }
  });

  $('run-solve').addEventListener('click', () => run('solve'));
  $('run-verify').addEventListener('click', () => run('verify'));
  $('run-cancel').addEventListener('click', async () => {
    if (!job) return;
    status('Cancelling…', 'pending'); // the stream's `done` event then says "Cancelled."
    try {
      await api('DELETE', `/api/jobs/${encodeURIComponent(job.id)}`);
    } catch (error) {
      if (running) status(error.message, 'bad');
    }
  });
  setRunning(false);
  return () => {};
}
