// Play: Kriegspiel and Fog of War (/api/play, docs/web-api.md "Play", docs/guide/play.md).
// Hot-seat games put a curtain over everything one side knows at every change of turn; against
// the computer the server answers with its reply. Each side sees his own men (Fog of War: what
// they see, the rest fogged), moves by drag (chessground, with his possible attempts as
// destinations) or by typing SAN or UCI, may mark guesses of enemy men from a tray, and may turn
// on the belief tool. Spectators (?watch=<spectators' id>) read only the announcements both
// players hear; at the end the fog lifts and a replay shows every move.
import { Chessground } from './vendor/chessground.js';
import { api, el, plural } from './common.js';

const $ = id => document.getElementById(id);
const ROLES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const PROMOTIONS = ['q', 'r', 'b', 'n'];
const EMPTY = '8/8/8/8/8/8/8/8';

let game = null; // {id, watch, mode, side, toMove, state}
let busy = false;
let curtainUp = false;
let guesses = { white: new Map(), black: new Map() }; // side -> square -> role letter
let trayPick = null;
let belief = null; // the last belief summary of the side shown
let rulebooks = new Map(); // rule set name -> {name, title, lines}
let replay = { fens: [], moves: [], lastMoves: [], index: 0 };

const board = Chessground($('play-board'), {
  fen: EMPTY, coordinates: true,
  movable: { free: false, color: undefined, dests: new Map(), showDests: true, events: { after: (orig, dest) => dragged(orig, dest) } },
  draggable: { enabled: true, showGhost: true },
  highlight: { lastMove: true, check: true, custom: new Map() },
  premovable: { enabled: false },
  drawable: { enabled: false, visible: true },
  events: { select: key => selected(key) },
  animation: { enabled: true, duration: 120 },
});
const replayBoard = Chessground($('replay-board'), { fen: EMPTY, viewOnly: true, coordinates: true, highlight: { lastMove: true } });
const watchBoard = Chessground($('watch-board'), { fen: EMPTY, viewOnly: true, coordinates: true });

// --- helpers -------------------------------------------------------------------------------
function say(id, text, kind = '') {
  $(id).textContent = text;
  $(id).className = ['status', kind, ['play-turn', 'watch-status'].includes(id) ? 'turn' : ''].filter(Boolean).join(' ');
}

/** A FEN board field from {square: symbol} maps. */
function fenOf(...maps) {
  const grid = Array.from({ length: 8 }, () => Array(8).fill(''));
  for (const map of maps) {
    for (const [square, symbol] of Object.entries(map)) {
      grid[8 - Number(square[1])][square.charCodeAt(0) - 97] = symbol;
    }
  }
  return grid.map(row => {
    let text = '', empty = 0;
    for (const cell of row) {
      if (!cell) { empty += 1; continue; }
      if (empty) { text += empty; empty = 0; }
      text += cell;
    }
    return text + (empty || '');
  }).join('/');
}

const cap = word => word[0].toUpperCase() + word.slice(1);
const enemyOf = side => (side === 'white' ? 'black' : 'white');
const gameUrl = path => `/api/play/${encodeURIComponent(game.id)}${path}`;
const moveCount = plies => `${plural(Math.ceil(plies / 2), 'move')} (${plies} half-move${plies === 1 ? '' : 's'})`;

/** chessground's destinations from the attempts the side may make (UCI). */
function destsOf(askable) {
  const dests = new Map();
  for (const uci of askable) {
    const from = uci.slice(0, 2), to = uci.slice(2, 4);
    if (!dests.has(from)) dests.set(from, []);
    if (!dests.get(from).includes(to)) dests.get(from).push(to);
  }
  return dests;
}

/** A move list as a grid of numbered rows; `onPick(index)` makes the moves buttons. */
function moveTable(moves, onPick = null, firstBlack = false) {
  const cells = [];
  const all = firstBlack ? ['', ...moves] : moves;
  all.forEach((move, index) => {
    if (index % 2 === 0) cells.push(el('span', { class: 'num' }, `${index / 2 + 1}.`));
    const ply = firstBlack ? index - 1 : index;
    if (ply < 0) { cells.push(el('span', { class: 'm' }, '…')); return; }
    cells.push(onPick
      ? el('button', { type: 'button', class: 'm', 'data-ply': String(ply + 1), onclick: () => onPick(ply + 1) }, move)
      : el('span', { class: `m${move === '??' ? ' hidden-move' : ''}`, role: 'listitem' }, move));
  });
  return cells;
}

// --- the rule sets and their words -------------------------------------------------------------
const rulebookRows = book => book.lines.map(line => el('tr', {}, el('td', { class: 'words' }, line.words), el('td', {}, line.when)));

function showRulebook(name) {
  const book = rulebooks.get(name);
  if (!book) return;
  $('rulebook-title').textContent = `What the referee says: ${book.title}`;
  $('rulebook-source').textContent = book.source;
  $('rulebook').tBodies[0].replaceChildren(...rulebookRows(book));
}

// --- starting and resuming --------------------------------------------------------------------
async function start(event) {
  event.preventDefault();
  if (busy) return;
  busy = true;
  say('setup-status', 'Starting…', 'pending');
  const mode = $('play-mode').value;
  try {
    const body = { rules: $('play-rules').value, mode };
    if (mode === 'computer') body.side = $('play-side').value;
    const seed = new URLSearchParams(location.search).get('seed');
    if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
    const answer = await api('POST', '/api/play', body);
    busy = false;
    history.replaceState(null, '', `/play?game=${encodeURIComponent(answer.id)}`);
    say('setup-status', '');
    begin(answer.id, answer.watch, mode, answer.state);
  } catch (error) {
    busy = false;
    say('setup-status', error.message, 'bad');
  }
}

/** Shows a game (new or resumed): hot-seat behind the curtain, against the computer at once. */
function begin(id, watch, mode, state) {
  game = { id, watch, mode, side: state.side, toMove: state.to_move, state: null };
  guesses = { white: new Map(), black: new Map() };
  belief = null;
  $('setup').hidden = true;
  $('game').hidden = false;
  $('replay').hidden = true;
  $('belief-panel').hidden = !$('play-belief-tool').checked;
  $('spectate-link').href = `/play?watch=${encodeURIComponent(watch)}`;
  $('play-line').textContent = `${state.title}${mode === 'computer' ? ' against the computer' : ', hot-seat'}`;
  const book = rulebooks.get(state.rules);
  $('game-rulebook').hidden = !book;
  if (book) {
    $('game-rulebook-title').textContent = `What the referee says: ${book.title}`;
    $('game-rulebook-lines').replaceChildren(...rulebookRows(book));
  }
  if (mode === 'hotseat' && !state.over) raiseCurtain(state.to_move, null);
  else show(state);
}

async function resume(id) {
  try {
    const answer = await api('GET', `/api/play/${encodeURIComponent(id)}`);
    begin(id, answer.state.watch, answer.state.mode, answer.state);
  } catch (error) {
    say('setup-status', `${error.message}`, 'bad');
  }
}

// --- the curtain (hot-seat) ------------------------------------------------------------------
/** Hides everything the side that moved knows, before the other side comes to the board. */
function raiseCurtain(next, moved, words = '') {
  curtainUp = true;
  game.state = null;
  game.toMove = next;
  belief = null;
  trayPick = null;
  board.set({ fen: EMPTY, lastMove: undefined, check: false, highlight: { custom: new Map() },
    movable: { color: undefined, dests: new Map() } });
  board.setAutoShapes([]);
  // the move's announcement is heard by both sides: it may stay on the curtain
  $('curtain-text').textContent = `${moved ? `${cap(moved)} has moved${words ? ` (${words})` : ''}. ` : ''}${cap(next)} to play: click when you are alone at the board.`;
  $('curtain').hidden = false;
  for (const id of ['play-log', 'play-moves', 'play-legend', 'play-tray']) $(id).replaceChildren();
  $('belief-count').textContent = '';
  $('play-move').value = '';
  const pgn = $('pgn-own');
  pgn.hidden = true;
  pgn.removeAttribute('href');
  pgn.textContent = 'Your PGN';
  say('play-turn', `${cap(next)} to move. The curtain hides ${moved ? cap(moved) : 'the other side'}'s board: pass the device.`);
  say('play-answer', '');
  bars(null);
  controls();
  $('curtain-go').focus();
}

async function lowerCurtain() {
  const answer = await api('GET', gameUrl(`?side=${game.toMove}`));
  curtainUp = false;
  $('curtain').hidden = true;
  show(answer.state);
  focusMove();
}

// --- one side's board --------------------------------------------------------------------------
/** Shows `state` (one side's): the board, the status, the moves, the log, the legend, the belief. */
function show(state) {
  game.state = state;
  game.side = state.side;
  game.toMove = state.to_move;
  const view = state.view;
  const playing = isPlaying();
  board.set({
    orientation: state.side,
    fen: fenOf(view.own, view.enemy),
    turnColor: state.to_move,
    lastMove: state.last_move.length ? state.last_move : undefined,
    check: state.check ? state.side : false,
    movable: { color: playing ? state.side : undefined, dests: playing ? destsOf(state.askable) : new Map() },
  });
  paint();
  $('play-log').replaceChildren(...state.log.map(entry => el('li', {}, `${entry.number} ${entry.text}`)));
  $('play-log').scrollTop = $('play-log').scrollHeight;
  $('play-moves').replaceChildren(...moveTable(state.moves));
  $('play-moves').scrollTop = $('play-moves').scrollHeight;
  const pgn = $('pgn-own');
  pgn.href = gameUrl(`/pgn?view=${state.side}`);
  pgn.textContent = `${cap(state.side)}'s PGN`;
  pgn.hidden = false;
  say('play-turn', statusText(state), state.over ? 'good' : state.your_turn ? 'mine' : 'pending');
  $('move-entry').hidden = state.over;
  $('play-tray').hidden = state.over;
  bars(state);
  legend(state);
  tray();
  controls();
  if (state.over) finish(state, { full: gameUrl('/pgn?view=full'), white: gameUrl('/pgn?view=white'), black: gameUrl('/pgn?view=black') });
  else if ($('play-belief-tool').checked) loadBelief();
}

function isPlaying() {
  return Boolean(game && game.state) && !curtainUp && game.state.your_turn && !game.state.over && !busy;
}

function statusText(state) {
  if (state.over) return `Game over: ${state.result} (${state.termination}).`;
  if (state.your_turn) {
    return `Your move: ${cap(state.side)} to play, move ${state.number}${state.check ? '. Your king is in check.' : ''}`;
  }
  if (state.computer === state.to_move) return `${cap(state.to_move)} to move: the computer is thinking…`;
  return `${cap(state.to_move)} to move.`;
}

/** The player bars above and below the board: who plays which side, who is to move. */
function bars(state) {
  if (!state) {
    $('bar-top').replaceChildren();
    $('bar-bottom').replaceChildren();
    return;
  }
  const who = side => (state.computer === side ? 'the computer' : side === state.side ? 'you' : 'your opponent');
  for (const [id, side] of [['bar-bottom', state.side], ['bar-top', enemyOf(state.side)]]) {
    const moving = !state.over && state.to_move === side;
    $(id).className = `player-bar${moving ? ' to-move' : ''}`;
    $(id).replaceChildren(el('span', { class: `dot ${side}` }), el('strong', {}, cap(side)), ` · ${who(side)}`,
      moving ? el('span', { class: 'moving' }, ' · to move') : '');
  }
}

/** The board's marks: fog, lost men's squares, the heat map; guesses as ghost men. */
function paint() {
  const view = game.state.view;
  const custom = new Map();
  if (view.visible) {
    const seen = new Set(view.visible);
    for (let file = 0; file < 8; file++) {
      for (let rank = 1; rank <= 8; rank++) {
        const square = String.fromCharCode(97 + file) + rank;
        if (!seen.has(square)) custom.set(square, 'fog');
      }
    }
  }
  for (const square of view.marks) custom.set(square, 'mark');
  const piece = $('belief-piece').value;
  if (belief && piece && !$('belief-panel').hidden) {
    for (const [square, share] of Object.entries(belief.heat[piece] || {})) {
      custom.set(square, `heat${Math.min(5, Math.max(1, Math.ceil(share * 5)))}`);
    }
  }
  board.set({ highlight: { custom } });
  const enemy = enemyOf(game.side);
  board.setAutoShapes([...guesses[game.side]].map(([square, role]) => ({
    orig: square, brush: 'green', piece: { role: ROLES[role], color: enemy, scale: 0.75 } })));
}

/** What the marks on the board mean (those that can appear in this game). */
function legend(state) {
  const items = [];
  if (state.fog) {
    items.push(['fog', 'dark: squares you do not see']);
    items.push(['mark', 'red: one of your men was taken there, out of your sight']);
  } else {
    items.push(['own', 'only your men are shown: the enemy\'s are hidden']);
  }
  items.push(['last', 'yellow: your last move, or the square where you lost a man']);
  if (!state.fog) items.push(['check', 'red glow on your king: the referee announced a check']);
  items.push(['guess', 'faded men: your guesses (from the tray below)']);
  if (!$('belief-panel').hidden) items.push(['heat', 'orange: where the belief tool puts the chosen enemy man']);
  $('play-legend').replaceChildren(...items.map(([kind, text]) => el('li', {}, el('span', { class: `swatch-square ${kind}` }), text)));
}

function tray() {
  const enemy = enemyOf(game.side);
  const buttons = Object.entries(ROLES).map(([letter, role]) => {
    const button = el('button', { type: 'button', 'aria-pressed': String(trayPick === letter),
      title: `Guess: a ${enemy} ${role}`, 'data-role': letter, 'aria-label': `Guess a ${enemy} ${role}` },
    el('piece', { class: `${enemy} ${role}` }));
    button.addEventListener('click', () => { trayPick = trayPick === letter ? null : letter; tray(); controls(); });
    return button;
  });
  const clear = el('button', { type: 'button', id: 'guess-clear' }, 'Clear guesses');
  clear.addEventListener('click', () => { guesses[game.side].clear(); paint(); });
  $('play-tray').className = 'tray cg-wrap';
  $('play-tray').replaceChildren(...buttons, clear);
}

function selected(square) {
  if (!trayPick || curtainUp || !game || !game.state) return;
  if (game.state.view.own[square]) return;
  const mine = guesses[game.side];
  if (mine.get(square) === trayPick) mine.delete(square);
  else mine.set(square, trayPick);
  board.selectSquare(null);
  paint();
}

function controls() {
  const playing = isPlaying();
  for (const id of ['play-send', 'play-move']) $(id).disabled = !playing;
  $('play-any').hidden = !(game && game.state && game.state.can_ask && !curtainUp);
  $('play-any').disabled = !playing;
  if (game && game.state && !curtainUp) {
    board.set({ turnColor: game.state.to_move,
      movable: { color: playing && !trayPick ? game.side : undefined, dests: playing ? destsOf(game.state.askable) : new Map() } });
  }
}

function focusMove() {
  if (isPlaying() && matchMedia('(hover: hover)').matches) $('play-move').focus();
}

// --- attempts -----------------------------------------------------------------------------------
function dragged(orig, dest) {
  const piece = game.state.view.own[orig];
  if (piece && piece.toLowerCase() === 'p' && (dest[1] === '8' || dest[1] === '1')) return choosePromotion(orig, dest);
  send(orig + dest);
}

/** The promotion chooser over the board (as lichess's): four men of the side's colour. */
function choosePromotion(orig, dest) {
  const box = $('promotion');
  const cancel = () => { box.hidden = true; show(game.state); };
  box.replaceChildren(...PROMOTIONS.map(letter => el('button', {
    type: 'button', 'data-role': letter, 'aria-label': `Promote to a ${ROLES[letter]}`,
    onclick: () => { box.hidden = true; send(orig + dest + letter); },
  }, el('piece', { class: `${game.side} ${ROLES[letter]}` }))),
  el('button', { type: 'button', class: 'cancel', onclick: cancel }, 'Cancel'));
  box.hidden = false;
  box.querySelector('button').focus();
  box.onkeydown = event => { if (event.key === 'Escape') cancel(); };
}

async function send(move) {
  if (busy || !game || !game.state || !move) return;
  const side = game.side;
  busy = true;
  controls();
  say('play-turn', `${move}: the referee answers${game.state.computer ? ' (and the computer replies if the move stands)' : ''}…`, 'pending');
  try {
    const answer = await api('POST', gameUrl('/attempt'), { side, move });
    busy = false;
    $('play-move').value = '';
    const moved = answer.answer.kind === 'move';
    if (moved && game.mode === 'hotseat' && !answer.state.over) {
      raiseCurtain(answer.state.to_move, side, answer.answer.words);
      return;
    }
    show(answer.state);
    say('play-answer', `Referee: ${answer.answer.words}`, moved ? 'good' : 'bad');
    focusMove();
  } catch (error) {
    busy = false;
    if (game.state) show(game.state); // the man goes back
    say('play-answer', error.message, 'bad');
    focusMove();
  } finally {
    busy = false;
    controls();
  }
}

async function loadBelief() {
  const side = game.side;
  $('belief-count').textContent = 'Counting…';
  try {
    const summary = await api('GET', gameUrl(`/belief?side=${side}`));
    if (curtainUp || !game.state || game.side !== side) return; // the curtain came down meanwhile
    belief = summary;
    $('belief-count').textContent = belief.lost ? 'The belief was lost (a sample missed every position).'
      : `${plural(belief.positions, 'position')} fit what you heard${belief.exact ? '' : ' (a sample: the belief passed its budget)'}`;
    paint();
  } catch (error) {
    $('belief-count').textContent = error.message;
  }
}

// --- the end: the fog lifts ------------------------------------------------------------------
/** The replay of a finished game; `links`: its PGNs ({full, white, black}), or none. */
function finish(state, links = null) {
  const reveal = state.reveal;
  const uci = reveal.uci || [];
  const white = reveal.first === 'white';
  replay = { fens: reveal.fens, moves: reveal.moves, index: reveal.fens.length - 1,
    lastMoves: [undefined, ...uci.map(move => [move.slice(0, 2), move.slice(2, 4)])],
    // the side to move after each ply, in check when its SAN says so (Kriegspiel: Fog of War has no check)
    checks: [false, ...reveal.moves.map((san, ply) => /[+#]$/.test(san) && ((ply % 2 === 0) === white ? 'black' : 'white'))] };
  $('replay').hidden = false;
  say('replay-result', `${state.result}: ${state.termination || 'the game was left'} · ${moveCount(reveal.moves.length)}`, 'good');
  $('replay-moves').replaceChildren(...moveTable(reveal.moves, goTo));
  $('replay-links').hidden = !links;
  if (links) {
    $('pgn-full').href = links.full;
    $('pgn-views').hidden = !links.white;
    if (links.white) {
      $('pgn-white').href = links.white;
      $('pgn-black').href = links.black;
    }
  }
  goTo(replay.index);
}

function goTo(index) {
  replay.index = Math.max(0, Math.min(replay.fens.length - 1, index));
  replayBoard.set({ fen: replay.fens[replay.index], lastMove: replay.lastMoves[replay.index],
    check: replay.checks[replay.index] || false });
  $('replay-ply').textContent = `${replay.index} / ${replay.fens.length - 1}`;
  for (const button of $('replay-moves').querySelectorAll('button.m')) {
    const now = Number(button.dataset.ply) === replay.index;
    button.classList.toggle('now', now);
    button.setAttribute('aria-current', String(now));
  }
}

/** Replays a saved game's PGN (full game) chosen in the setup. */
async function replayFile() {
  const file = $('replay-file').files[0];
  if (!file) return;
  try {
    const state = await api('POST', '/api/play/replay', { pgn: await file.text() });
    game = null;
    $('game').hidden = true;
    $('play-line').textContent = `${state.title}: a saved game`;
    say('setup-status', `${moveCount(state.plies)} replayed.`, 'good');
    finish(state);
  } catch (error) {
    say('setup-status', error.message, 'bad');
  }
}

// --- spectators ------------------------------------------------------------------------------
async function watch(id) {
  $('setup').hidden = true;
  $('watch').hidden = false;
  $('play-line').textContent = 'Spectator';
  const url = `/api/play/watch/${encodeURIComponent(id)}`;
  for (;;) {
    let state;
    try {
      state = await api('GET', url);
    } catch (error) {
      say('watch-status', error.message, 'bad');
      return;
    }
    $('play-line').textContent = `Spectator · ${state.title}${state.mode === 'computer' ? ' against the computer' : ', hot-seat'}`;
    $('watch-log').replaceChildren(...(state.log || []).map(entry => el('li', {}, `${entry.number} ${entry.text}`)));
    if (state.over) {
      say('watch-status', `${state.title}: ${moveCount(state.plies)} played. ${state.result} (${state.termination}).`, 'good');
      $('watch').hidden = true;
      finish(state, { full: `${url}/pgn` });
      return;
    }
    say('watch-status', `${state.title}: ${moveCount(state.plies)} played, ${cap(state.to_move)} to move. The men are shown at the end.`);
    await new Promise(resolve => setTimeout(resolve, 800));
  }
}

// --- keyboard ----------------------------------------------------------------------------------
function keyboard(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  if (!$('replay').hidden && !typing && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')
      && (!game || !game.state || game.state.over)) {
    event.preventDefault();
    goTo(replay.index + (event.key === 'ArrowRight' ? 1 : -1));
    return;
  }
  if (!typing && event.key.length === 1 && /[a-hKQRBNO0-9]/.test(event.key) && isPlaying() && $('promotion').hidden) {
    $('play-move').focus(); // the key goes on into the field
  }
}

// --- wiring ------------------------------------------------------------------------------------
async function init() {
  $('setup-form').addEventListener('submit', start);
  $('replay-file').addEventListener('change', replayFile);
  $('play-mode').addEventListener('change', () => { $('side-field').hidden = $('play-mode').value !== 'computer'; });
  $('play-rules').addEventListener('change', () => showRulebook($('play-rules').value));
  $('curtain-go').addEventListener('click', () => lowerCurtain().catch(error => say('play-answer', error.message, 'bad')));
  $('play-send').addEventListener('click', () => send($('play-move').value.trim()));
  $('play-move').addEventListener('keydown', event => {
    if (event.key === 'Enter') send($('play-move').value.trim());
    if (event.key === 'Escape') $('play-move').value = '';
  });
  $('play-any').addEventListener('click', () => send('any'));
  $('belief-piece').addEventListener('change', () => game && game.state && !curtainUp && (paint(), legend(game.state)));
  $('replay-first').addEventListener('click', () => goTo(0));
  $('replay-prev').addEventListener('click', () => goTo(replay.index - 1));
  $('replay-next').addEventListener('click', () => goTo(replay.index + 1));
  $('replay-last').addEventListener('click', () => goTo(replay.fens.length - 1));
  document.addEventListener('keydown', keyboard);
  const params = new URLSearchParams(location.search);
  if (params.get('watch')) return watch(params.get('watch'));
  const known = await api('GET', '/api/play/rules');
  rulebooks = new Map(known.rules.map(book => [book.name, book]));
  $('play-rules').replaceChildren(...known.rules.map(book => el('option', { value: book.name }, `${book.title} (${book.name})`)));
  $('play-rules').value = known.default;
  showRulebook(known.default);
  if (params.get('game')) resume(params.get('game'));
}

init();
