// The workbench page (ksolve serve): four tabs over one problem, calling the server's /api
// (docs/web-api.md). Each page lives in its own module; common.js holds what they share.
import { initTabs, onShow, plural, showTab, workbench } from './common.js';
import { initCompose } from './compose.js';
import { initVerify } from './verify.js';
import { initTry } from './tryit.js';
import { initLibrary } from './library.js';

function problemLine(state) {
  const line = document.getElementById('problem-line');
  const check = state.check;
  if (state.error) {
    line.textContent = 'The problem has an error (see Compose).';
    line.className = 'problem-line bad';
  } else if (check) {
    const title = check.title || 'Untitled problem';
    line.textContent = `${title} · ${check.stipulation} · ${check.rules} · ${plural(check.size, 'position')}`;
    line.className = 'problem-line';
  } else {
    line.textContent = '';
  }
}

function start() {
  initTabs();
  workbench.on(problemLine);
  onShow.compose = initCompose();
  onShow.verify = initVerify();
  onShow.try = initTry();
  onShow.library = initLibrary();
  showTab(location.hash.slice(1) || 'compose');
  document.body.classList.add('ready');
}

start();
