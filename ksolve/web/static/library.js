// Library: the problems in the server's --problems folder with their verdicts (listed afresh each
// time the page is shown, so a verification run from Verify shows here); open one in Compose;
// verify them all, one job after another, with progress.
import { api, el, followJob, showTab, workbench } from './common.js';

const $ = id => document.getElementById(id);

const TONE = { sound: 'good', cooked: 'bad', 'short solution': 'bad', 'no solution': 'bad' };

export function initLibrary() {
  let problems = [];
  let stopping = false;
  let running = null; // the job id being run by "Verify all"
  let verifying = false; // "Verify all" is going through the list

  function status(text, kind = '') {
    $('library-status').textContent = text;
    $('library-status').className = `status ${kind}`;
  }

  async function refresh() {
    status('Loading…', 'pending');
    try {
      problems = await api('GET', '/api/problems');
      render();
      status(problems.length ? `${problems.length} problem${problems.length === 1 ? '' : 's'} in the server's folder.`
        : 'No problems in the server\'s folder yet: save one from Compose.', '');
    } catch (error) {
      status(error.message, 'bad');
    }
  }

  function verdictCell(problem) {
    const verdict = problem.verdict;
    const line = problem.line && verdict ? problem.line.replace(/^[^:]*:\s*/, '') : '';
    return el('td', { class: `verdict-cell ${TONE[verdict] || ''}`, 'data-name': problem.name },
      verdict ? el('span', { class: 'badge' }, verdict) : el('span', { class: 'none' }, 'not verified'),
      line ? el('span', { class: 'note' }, ` ${line}`) : '');
  }

  function render() {
    const rows = problems.map(problem => {
      const open = el('button', { type: 'button', class: 'open', 'aria-label': `Open ${problem.name} in Compose` }, 'Open');
      open.addEventListener('click', () => openProblem(problem.name));
      return el('tr', { 'data-name': problem.name },
        el('th', { scope: 'row' }, el('span', { class: 'name' }, problem.name),
          problem.title ? el('span', { class: 'title' }, problem.title) : ''),
        el('td', { class: 'stip' }, problem.stipulation || ''), el('td', { class: 'rules' }, problem.rules || ''),
        verdictCell(problem), el('td', { class: 'actions-cell' }, open));
    });
    $('library-table').tBodies[0].replaceChildren(...rows);
  }

  async function openProblem(name) {
    try {
      const answer = await api('GET', `/api/problems/${encodeURIComponent(name)}`);
      workbench.load(answer.problem, answer.name || name);
      showTab('compose');
    } catch (error) {
      status(error.message, 'bad');
    }
  }

  function setVerdict(name, verdict, note = '') {
    const problem = problems.find(p => p.name === name);
    if (problem) problem.verdict = verdict;
    const cell = document.querySelector(`#library-table td.verdict-cell[data-name="${CSS.escape(name)}"]`);
    if (!cell) return;
    cell.className = `verdict-cell ${TONE[verdict] || ''}`;
    cell.replaceChildren(el('span', { class: verdict ? 'badge' : 'none' }, verdict || 'not verified'), note ? el('span', { class: 'note' }, ` ${note}`) : '');
  }

  /** Posts a verify job, waiting while the server's queue is full (429). */
  async function submit(name, timeout) {
    for (;;) {
      try {
        return await api('POST', '/api/jobs', { name, action: 'verify', options: { timeout } });
      } catch (error) {
        if (error.status !== 429 || stopping) throw error;
        setVerdict(name, problems.find(p => p.name === name)?.verdict, '(waiting: the server is busy)');
        await new Promise(resolve => setTimeout(resolve, 3000));
      }
    }
  }

  async function verifyAll() {
    if (!problems.length) await refresh();
    stopping = false;
    verifying = true;
    $('verify-all').disabled = true;
    $('verify-all-stop').disabled = false;
    const progress = $('library-progress');
    progress.hidden = false;
    progress.max = problems.length;
    const timeout = Number($('library-timeout').value) || 120;
    let done = 0;
    const tally = {};
    for (const problem of [...problems]) {
      if (stopping) break;
      status(`Verifying ${problem.name} (${done + 1} of ${problems.length})…`, 'pending');
      setVerdict(problem.name, problem.verdict, '(running…)');
      try {
        // by name: the server verifies the stored file and keeps its verdict for this list
        const { id } = await submit(problem.name, timeout);
        running = id;
        const job = await followJob(id, p => setVerdict(problem.name, problem.verdict, `(${p.phase ? `${p.phase}, ` : ''}depth ${p.depth}, ${Number(p.seconds).toFixed(0)} s)`));
        running = null;
        if (job.state === 'done') {
          const verification = job.result?.verification;
          const verdict = verification?.verdict || 'unknown';
          tally[verdict] = (tally[verdict] || 0) + 1;
          const keys = (verification?.keys || []).map(key => `1.${key.san || key.label || key.move}!`).join(', ');
          setVerdict(problem.name, verdict, keys);
        } else {
          setVerdict(problem.name, problem.verdict, job.state === 'cancelled' ? '(cancelled)' : `(failed: ${job.error || ''})`);
        }
      } catch (error) {
        running = null;
        setVerdict(problem.name, problem.verdict, `(${error.message})`);
      }
      done += 1;
      progress.value = done;
    }
    const summary = Object.entries(tally).map(([verdict, n]) => `${n} ${verdict}`).join(', ');
    status(`${stopping ? 'Stopped' : 'Done'}: ${done} of ${problems.length} verified${summary ? ` (${summary})` : ''}.`, '');
    progress.hidden = true;
    verifying = false;
    $('verify-all').disabled = false;
    $('verify-all-stop').disabled = true;
  }

  $('library-refresh').addEventListener('click', refresh);
  $('verify-all').addEventListener('click', verifyAll);
  $('verify-all-stop').addEventListener('click', async () => {
    stopping = true;
    $('verify-all-stop').disabled = true;
    if (running) {
      try {
        await api('DELETE', `/api/jobs/${encodeURIComponent(running)}`);
      } catch { /* it ended meanwhile */ }
    }
  });

  return () => {
    if (!verifying) refresh(); // the server keeps the verdicts of the stored problems verified meanwhile
  };
}
