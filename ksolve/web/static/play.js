// Play: Kriegspiel and Fog of War (/api/play, docs/web-api.md "Play"). Hot-seat games put a
// curtain over the board at every change of turn; against the computer the server answers with
// its reply. Each side sees his own men (Fog of War: what they see, the rest fogged), may mark
// guesses of enemy men from a tray, and may turn on the belief tool. Spectators (?watch=ID) see
// no men before the end; at the end the fog lifts and a replay shows every move.
import { Chessground } from './vendor/chessground.js';
import { api, el, plural } from './common.js';

const $ = id => document.getElementById(id);
const ROLES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const EMPTY = '8/8/8/8/8/8/8/8';

let game = null; // {id, mode, side, state}
let busy = false;
let curtainUp = false;
let guesses = { white: new Map(), black: new Map() }; // side -> square -> role letter
let trayPick = null;
let belief = null; // the last belief summary of the side shown
let replay = { fens: [], moves: [], index: 0 };

const board = Chessground($('play-board'), {
  fen: EMPTY, coordinates: true,
  movable: { free: true, color: undefined, showDests: false, events: { after: (orig, dest) => dragged(orig, dest) } },
  draggable: { enabled: true, showGhost: true },
  highlight: { lastMove: false, check: false, custom: new Map() },
  premovable: { enabled: false },
  drawable: { enabled: false, visible: true },
  events: { select: key => selected(key) },
  animation: { enabled: false },
});
const replayBoard = Chessground($('replay-board'), { fen: EMPTY, viewOnly: true, coordinates: true });
const watchBoard = Chessground($('watch-board'), { fen: EMPTY, viewOnly: true, coordinates: true });

// --- helpers -------------------------------------------------------------------------------
function say(id, text, kind = '') {
  $(id).textContent = text;
  $(id).className = `status ${kind}`;
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

const enemyOf = side => (side === 'white' ? 'black' : 'white');
const pgnUrl = view => `/api/play/${encodeURIComponent(game.id)}/pgn?view=${view}`;

// --- the game ----------------------------------------------------------------------------
async function start(event) {
  event.preventDefault();
  if (busy) return;
  busy = true;
  say('setup-status', 'Starting…', 'pending');
  const mode = $('play-mode').value;
  try {
    const body = { rules: $('play-rules').value, mode };
    if (mode === 'computer') body.side = $('play-side').value;
    const answer = await api('POST', '/api/play', body);
    game = { id: answer.id, mode, side: answer.state.side, state: answer.state };
    guesses = { white: new Map(), black: new Map() };
    belief = null;
    say('setup-status', '');
    $('setup').hidden = true;
    $('game').hidden = false;
    $('replay').hidden = true;
    $('belief-panel').hidden = !$('play-belief-tool').checked;
    $('spectate-link').href = `/play?watch=${encodeURIComponent(game.id)}`;
    $('play-line').textContent = `${answer.state.title}${mode === 'computer' ? ' against the computer' : ', hot-seat'}`;
    if (mode === 'hotseat') raiseCurtain(`${cap(answer.state.to_move)} to play: click when you are alone at the board.`);
    else show(answer.state);
  } catch (error) {
    say('setup-status', error.message, 'bad');
  } finally {
    busy = false;
  }
}

const cap = word => word[0].toUpperCase() + word.slice(1);

function raiseCurtain(text) {
  curtainUp = true;
  board.set({ fen: EMPTY, highlight: { custom: new Map() }, movable: { color: undefined } });
  board.setAutoShapes([]);
  $('curtain-text').textContent = text;
  $('curtain').hidden = false;
  $('play-log').replaceChildren();
  $('play-moves').replaceChildren();
  say('play-answer', '');
  controls();
  $('curtain-go').focus();
}

async function lowerCurtain() {
  const side = game.state.over ? game.side : game.state.to_move;
  const answer = await api('GET', `/api/play/${encodeURIComponent(game.id)}?side=${side}`);
  curtainUp = false;
  $('curtain').hidden = true;
  show(answer.state);
}

/** Shows `state` (one side's): the board, the log, the moves, the tray, the belief. */
function show(state) {
  game.state = state;
  game.side = state.side;
  const view = state.view;
  board.set({ orientation: state.side, fen: fenOf(view.own, view.enemy) });
  paint();
  $('play-log').replaceChildren(...state.log.map(entry => el('li', {}, `${entry.number} ${entry.text}`)));
  $('play-log').scrollTop = $('play-log').scrollHeight;
  $('play-moves').replaceChildren(...state.moves.map((move, index) => el('li', {}, `${index % 2 === 0 ? `${index / 2 + 1}. ` : ''}${move}`)));
  $('pgn-own').href = pgnUrl(state.side);
  const turn = state.over ? `Game over: ${state.result} (${state.termination})`
    : state.your_turn ? `${cap(state.side)} to move (move ${state.number})` : `${cap(state.to_move)} to move`;
  say('play-turn', turn, state.over ? 'good' : '');
  tray();
  controls();
  if (state.over) finish(state);
  else if ($('play-belief-tool').checked) loadBelief();
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

function tray() {
  const enemy = enemyOf(game.side);
  const buttons = Object.entries(ROLES).map(([letter, role]) => {
    const button = el('button', { type: 'button', 'aria-pressed': String(trayPick === letter),
      title: `Guess: a ${enemy} ${role}`, 'data-role': letter, 'aria-label': `Guess a ${enemy} ${role}` },
    el('piece', { class: `${enemy} ${role}` }));
    button.addEventListener('click', () => { trayPick = trayPick === letter ? null : letter; tray(); });
    return button;
  });
  const clear = el('button', { type: 'button', id: 'guess-clear' }, 'Clear guesses');
  clear.addEventListener('click', () => { guesses[game.side].clear(); paint(); });
  $('play-tray').className = 'tray cg-wrap';
  $('play-tray').replaceChildren(...buttons, clear);
}

function selected(square) {
  if (!trayPick || curtainUp || !game) return;
  if (game.state.view.own[square]) return;
  const mine = guesses[game.side];
  if (mine.get(square) === trayPick) mine.delete(square);
  else mine.set(square, trayPick);
  board.selectSquare(null);
  paint();
}

function controls() {
  const playing = Boolean(game) && !curtainUp && game.state.your_turn && !busy;
  for (const id of ['play-send', 'play-move']) $(id).disabled = !playing;
  $('play-any').hidden = !(game && game.state.can_ask && !curtainUp);
  $('play-any').disabled = !playing;
  board.set({ movable: { color: playing && !trayPick ? game.side : undefined } });
}

function dragged(orig, dest) {
  const piece = game.state.view.own[orig];
  const promotes = piece && piece.toLowerCase() === 'p' && (dest[1] === '8' || dest[1] === '1');
  send(orig + dest + (promotes ? 'q' : ''));
}

async function send(move) {
  if (busy || !game) return;
  busy = true;
  controls();
  const side = game.side;
  try {
    const answer = await api('POST', `/api/play/${encodeURIComponent(game.id)}/attempt`, { side, move });
    $('play-move').value = '';
    busy = false;
    const moved = answer.answer.kind === 'move';
    if (moved && game.mode === 'hotseat' && !answer.state.over) {
      game.state = answer.state;
      raiseCurtain(`${cap(side)} has moved (${answer.answer.words}). ${cap(answer.state.to_move)}: click when you are alone at the board.`);
      return;
    }
    show(answer.state);
    say('play-answer', answer.answer.words, moved ? 'good' : 'bad');
  } catch (error) {
    busy = false;
    say('play-answer', error.message, 'bad');
    show(game.state);
  } finally {
    busy = false;
    controls();
  }
}

async function loadBelief() {
  $('belief-count').textContent = 'Counting…';
  try {
    belief = await api('GET', `/api/play/${encodeURIComponent(game.id)}/belief?side=${game.side}`);
    $('belief-count').textContent = belief.lost ? 'The belief was lost (a sample missed every position).'
      : `${plural(belief.positions, 'position')} fit what you heard${belief.exact ? '' : ' (a sample: the belief passed its budget)'}`;
    paint();
  } catch (error) {
    $('belief-count').textContent = error.message;
  }
}

// --- the end: the fog lifts ------------------------------------------------------------------
function finish(state) {
  const reveal = state.reveal;
  replay = { fens: reveal.fens, moves: reveal.moves, index: reveal.fens.length - 1 };
  $('replay').hidden = false;
  say('replay-result', `${state.result}: ${state.termination}`, 'good');
  $('replay-moves').replaceChildren(...reveal.moves.map((move, index) => {
    const item = el('li', {}, `${index % 2 === 0 ? `${index / 2 + 1}. ` : ''}${move}`);
    item.addEventListener('click', () => goTo(index + 1));
    return item;
  }));
  $('pgn-full').parentElement.hidden = !game;
  if (game) {
    $('pgn-full').href = pgnUrl('full');
    $('pgn-white').href = pgnUrl('white');
    $('pgn-black').href = pgnUrl('black');
  }
  goTo(replay.index);
}

function goTo(index) {
  replay.index = Math.max(0, Math.min(replay.fens.length - 1, index));
  replayBoard.set({ fen: replay.fens[replay.index] });
  $('replay-ply').textContent = `${replay.index} / ${replay.fens.length - 1}`;
  [...$('replay-moves').children].forEach((item, i) => item.classList.toggle('now', i === replay.index - 1));
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
    say('setup-status', `${plural(state.plies, 'move')} replayed.`, 'good');
    finish(state);
  } catch (error) {
    say('setup-status', error.message, 'bad');
  }
}

// --- spectators ------------------------------------------------------------------------------
async function watch(id) {
  $('setup').hidden = true;
  $('watch').hidden = false;
  game = { id, mode: 'watch', side: null, state: null };
  $('play-line').textContent = 'Spectator';
  for (;;) {
    let state;
    try {
      state = await api('GET', `/api/play/${encodeURIComponent(id)}/spectate`);
    } catch (error) {
      say('watch-status', error.message, 'bad');
      return;
    }
    if (state.over) {
      say('watch-status', `${state.title}: ${plural(state.plies, 'move')} played. ${state.result} (${state.termination}).`, 'good');
      $('watch').hidden = true;
      finish(state);
      return;
    }
    say('watch-status', `${state.title}: ${plural(state.plies, 'move')} played, ${state.to_move} to move. The men are shown at the end.`);
    await new Promise(resolve => setTimeout(resolve, 800));
  }
}

// --- wiring ------------------------------------------------------------------------------------
async function init() {
  $('setup-form').addEventListener('submit', start);
  $('replay-file').addEventListener('change', replayFile);
  $('play-mode').addEventListener('change', () => { $('side-field').hidden = $('play-mode').value !== 'computer'; });
  $('curtain-go').addEventListener('click', () => lowerCurtain().catch(error => say('play-answer', error.message, 'bad')));
  $('play-send').addEventListener('click', () => send($('play-move').value.trim()));
  $('play-move').addEventListener('keydown', event => { if (event.key === 'Enter') send($('play-move').value.trim()); });
  $('play-any').addEventListener('click', () => send('any'));
  $('belief-piece').addEventListener('change', () => game && game.state && paint());
  $('replay-first').addEventListener('click', () => goTo(0));
  $('replay-prev').addEventListener('click', () => goTo(replay.index - 1));
  $('replay-next').addEventListener('click', () => goTo(replay.index + 1));
  $('replay-last').addEventListener('click', () => goTo(replay.fens.length - 1));
  const watched = new URLSearchParams(location.search).get('watch');
  if (watched) return watch(watched);
  const info = await api('GET', '/api/info');
  const rules = info.rules.filter(name => name !== 'orthodox');
  $('play-rules').replaceChildren(...rules.map(name => el('option', { value: name, selected: name === 'wild16' ? '' : undefined }, name)));
  $('play-rules').value = 'wild16';
}

init();
