// Play: Kriegspiel and Fog of War (/api/play, docs/web-api.md "Play", docs/guide/play.md).
// Hot-seat games put a curtain over everything one side knows at every change of turn; against
// the computer the server answers with its reply. Each side sees his own men (Fog of War: what
// they see, the rest fogged), moves by drag (chessground, with his possible attempts as
// destinations) or by typing SAN or UCI, may mark guesses of enemy men from a tray, and may turn
// on the belief tool. A drop on a square the man cannot reach on his own board is explained at
// once, nothing asked of the referee. The game's buttons: flip the board, offer a draw (the
// other side answers on his turn; the computer at once), take back the last move (hot-seat),
// resign, and at the end a rematch. A timed game's clocks count down here; the server is their
// authority (a side whose time runs out loses there). Sounds (off by default) are made with the
// Web Audio API. Spectators (?watch=<spectators' id>) read only the announcements both players
// hear, and the clocks; at the end the fog lifts and a replay shows every move. The computer plays at
// the level picked in the setup (easy, normal, strong), named beside it: "the computer (normal)".
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
let flipped = false; // the board turned round: the other side at the bottom
let clock = null; // the last clock the server sent ({white, black, running, limit, increment}) and when (at)
let flagAsked = 0; // when the page last asked the server about a clock at zero (performance.now())
let resignArmed = null; // the timer while "Resign" waits for its confirmation
let audio = null; // the AudioContext, made when sounds are first turned on

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

// --- a drop the man cannot make: why, before any request ------------------------------------
const fileOf = square => square.charCodeAt(0) - 97;
const rankOf = square => Number(square[1]);
const squareAt = (file, rank) => String.fromCharCode(97 + file) + rank;

/** Whether a `role` of the side `white` moves from `orig` by (df, dr) as the man moves. */
function movesSo(role, white, orig, df, dr) {
  const [adf, adr] = [Math.abs(df), Math.abs(dr)];
  const forward = white ? 1 : -1;
  switch (role) {
    case 'knight': return adf * adr === 2;
    case 'bishop': return adf === adr && adf > 0;
    case 'rook': return (adf === 0) !== (adr === 0);
    case 'queen': return (adf === adr && adf > 0) || ((adf === 0) !== (adr === 0));
    case 'king': return Math.max(adf, adr) === 1 || (adr === 0 && adf === 2 && orig === (white ? 'e1' : 'e8'));
    default: // pawn: one ahead, two from its first rank, one diagonally ahead
      return (df === 0 && (dr === forward || (dr === 2 * forward && rankOf(orig) === (white ? 2 : 7))))
        || (adf === 1 && dr === forward);
  }
}

/** The squares a man passes over from `orig` to `dest` (castling: the rook's path too). */
function passedOver(role, orig, dest) {
  const [df, dr] = [fileOf(dest) - fileOf(orig), rankOf(dest) - rankOf(orig)];
  if (role === 'knight' || (Math.abs(df) <= 1 && Math.abs(dr) <= 1)) return [];
  const steps = Math.max(Math.abs(df), Math.abs(dr));
  const squares = [];
  for (let i = 1; i < steps; i++) squares.push(squareAt(fileOf(orig) + Math.sign(df) * i, rankOf(orig) + Math.sign(dr) * i));
  if (role === 'king' && df === -2) squares.push(squareAt(1, rankOf(orig)));
  return squares;
}

/** Why the side to move cannot try `orig`-`dest` (not among his attempts): a man's move, his own
 * men in the way, an attempt refused this turn, the "Any?" obligation, a pawn's capture. */
function dropMessage(orig, dest) {
  const state = game.state;
  const { own, enemy } = state.view;
  const symbol = own[orig];
  const role = ROLES[symbol.toLowerCase()];
  const white = symbol === symbol.toUpperCase();
  const [df, dr] = [fileOf(dest) - fileOf(orig), rankOf(dest) - rankOf(orig)];
  const tail = ' Nothing was asked of the referee.';
  if (own[dest]) return `${dest} holds one of your own men.${tail}`;
  if (!movesSo(role, white, orig, df, dr)) return `A ${role} does not move so.${tail}`;
  if (passedOver(role, orig, dest).some(square => own[square] || enemy[square])) {
    return `A ${role} does not pass over ${state.fog ? 'men' : 'your own men'}.${tail}`;
  }
  if (state.refused.some(uci => uci.startsWith(orig + dest))) return `The referee has refused ${orig}-${dest} this turn already.${tail}`;
  if (state.must_capture) return `"Any?" was answered yes: you must try a pawn capture.${tail}`;
  if (role === 'pawn' && df === 0 && enemy[dest]) return `A pawn does not take straight ahead.${tail}`;
  if (role === 'pawn' && df !== 0) {
    return (state.fog ? 'A pawn takes only where an enemy man stands.' : 'No pawn capture can be tried there now (the referee\'s words rule it out).') + tail;
  }
  if (role === 'king' && Math.abs(df) === 2) return `You cannot castle so now (the king or the rook has moved, or a man is in the way).${tail}`;
  return `${orig}-${dest} cannot be tried now.${tail}`;
}

/** Watches the presses on the board: a drop (or a second click) on a square that is no
 * destination of the man says why, before any request. */
function watchDrops() {
  let pressed = null;
  const keyAt = event => board.getKeyAtDomPos([event.clientX, event.clientY]);
  const refuse = (orig, dest) => {
    if (!dest || dest === orig || !game.state.view.own[orig]) return;
    if ((destsOf(game.state.askable).get(orig) || []).includes(dest)) return;
    say('play-answer', dropMessage(orig, dest), 'warn');
    sound('no');
  };
  $('play-board').addEventListener('pointerdown', event => {
    pressed = null;
    if (!isPlaying() || trayPick || !$('promotion').hidden) return;
    const key = keyAt(event);
    const chosen = board.state.selected;
    if (chosen && key && !game.state.view.own[key]) refuse(chosen, key); // click, click
    else if (key && game.state.view.own[key]) pressed = key;
  }, true);
  document.addEventListener('pointerup', event => {
    const orig = pressed;
    pressed = null;
    if (orig && isPlaying()) refuse(orig, keyAt(event)); // a drag
  }, true);
}

// --- sounds (Web Audio: no files, nothing fetched) ------------------------------------------------
const TONES = { // [frequency, start, seconds, wave, loudness]
  move: [[520, 0, 0.07, 'triangle', 0.25]],
  capture: [[320, 0, 0.05, 'square', 0.12], [190, 0.04, 0.12, 'triangle', 0.3]],
  no: [[150, 0, 0.16, 'sawtooth', 0.1]],
  check: [[880, 0, 0.09, 'sine', 0.2], [660, 0.1, 0.13, 'sine', 0.2]],
  end: [[523, 0, 0.3, 'sine', 0.18], [659, 0.13, 0.3, 'sine', 0.18], [784, 0.26, 0.5, 'sine', 0.18]],
};

/** Plays one of `TONES` if sounds are on (silently nothing where the browser has no audio). */
function sound(kind) {
  if (!$('play-sound').checked) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === 'suspended') audio.resume();
    for (const [frequency, start, seconds, wave, loudness] of TONES[kind]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      const at = audio.currentTime + start;
      tone.type = wave;
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(loudness, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + seconds + 0.02);
    }
  } catch { /* no audio here: silence */ }
}

/** The sound of a move's announcement (the mover's words, or the line the other side heard). */
const soundOf = words => (/captur/i.test(words) ? 'capture' : /check/i.test(words) ? 'check' : 'move');

// --- the clocks ------------------------------------------------------------------------------------
/** Takes the server's clock (a state's `clock`), counted down from now. */
function setClock(value) {
  clock = value ? { ...value, at: performance.now() } : null;
  tick();
}

/** A side's seconds left as the page counts them (the server's, less the time since it said so). */
function secondsLeft(side) {
  if (!clock) return null;
  const gone = clock.running === side ? (performance.now() - clock.at) / 1000 : 0;
  return Math.max(0, clock[side] - gone);
}

/** 5:00, 0:42, 0:09.3 (tenths under ten seconds), 1:02:05. */
function clockText(seconds) {
  if (seconds < 10) return `0:0${(Math.floor(seconds * 10) / 10).toFixed(1)}`;
  const whole = Math.floor(seconds);
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const mm = hours ? String(minutes).padStart(2, '0') : String(minutes);
  return `${hours ? `${hours}:` : ''}${mm}:${String(rest).padStart(2, '0')}`;
}

/** Shows the clocks (player bars, the spectator's line); at zero asks the server, which decides. */
function tick() {
  for (const node of document.querySelectorAll('.clock[data-side]')) {
    const side = node.dataset.side;
    node.hidden = !clock;
    if (!clock) continue;
    const left = secondsLeft(side);
    node.textContent = clockText(left);
    node.classList.toggle('running', clock.running === side);
    node.classList.toggle('low', left < Math.min(20, clock.limit / 10));
    node.setAttribute('aria-label', `${cap(side)}'s clock: ${clockText(left)}`);
  }
  if (clock && clock.running && secondsLeft(clock.running) <= 0 && performance.now() - flagAsked > 700) {
    flagAsked = performance.now();
    timeUp().catch(() => {});
  }
}

/** A clock reached zero here: the server says whether the game is over (it is the authority). */
async function timeUp() {
  if (!game || busy) return; // a spectator's page polls anyway; an answer is on its way
  const side = game.state ? game.side : game.toMove;
  const answer = await api('GET', gameUrl(`?side=${side}`));
  if (!answer.state.over) { setClock(answer.state.clock); return; }
  if (curtainUp) {
    curtainUp = false;
    $('curtain').hidden = true;
  }
  show(answer.state);
  sound('end');
}

const clockNode = side => el('span', { class: 'clock', 'data-side': side, hidden: '' });

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
    if (mode === 'computer') Object.assign(body, { side: $('play-side').value, level: $('play-level').value });
    const control = $('play-clock').value;
    if (control) {
      const [limit, increment] = control.split('+').map(Number);
      body.clock = { limit, increment };
    }
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
  flipped = false;
  disarmResign();
  setClock(state.clock);
  $('setup').hidden = true;
  $('game').hidden = false;
  $('replay').hidden = true;
  $('belief-panel').hidden = !$('play-belief-tool').checked;
  $('spectate-link').href = `/play?watch=${encodeURIComponent(watch)}`;
  $('play-line').textContent = `${state.title}${mode === 'computer' ? ` against ${computerName(state)}` : ', hot-seat'}`;
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
/** Hides everything the side that moved knows, before the other side comes to the board
 * (`moved`: the side that just moved, who may still take his move back; `note`: a line of
 * what both hear, such as a draw offer or a takeback). */
function raiseCurtain(next, moved, words = '', note = '') {
  curtainUp = true;
  game.state = null;
  game.toMove = next;
  belief = null;
  trayPick = null;
  board.set({ fen: EMPTY, lastMove: undefined, check: false, highlight: { custom: new Map() },
    movable: { color: undefined, dests: new Map() } });
  board.setAutoShapes([]);
  // the move's announcement is heard by both sides: it may stay on the curtain
  $('curtain-text').textContent = `${moved ? `${cap(moved)} has moved${words ? ` (${words})` : ''}. ` : ''}${note ? `${note}. ` : ''}${cap(next)} to play: click when you are alone at the board.`;
  $('curtain').hidden = false;
  $('curtain-takeback').hidden = !moved;
  $('curtain-takeback').dataset.side = moved || '';
  for (const id of ['play-log', 'play-moves', 'play-legend', 'play-tray']) $(id).replaceChildren();
  $('belief-count').textContent = '';
  $('play-move').value = '';
  const pgn = $('pgn-own');
  pgn.hidden = true;
  pgn.removeAttribute('href');
  pgn.textContent = 'Your PGN';
  say('play-turn', `${cap(next)} to move. The curtain hides ${moved ? cap(moved) : 'the other side'}'s board: pass the device.`);
  say('play-answer', '');
  $('draw-box').hidden = true;
  bars(null);
  controls();
  $('curtain-go').focus();
}

async function lowerCurtain() {
  const answer = await api('GET', gameUrl(`?side=${game.toMove}`));
  curtainUp = false;
  $('curtain').hidden = true;
  show(answer.state);
  if (answer.state.check) sound('check');
  focusMove();
}

// --- one side's board --------------------------------------------------------------------------
/** Shows `state` (one side's): the board, the status, the moves, the log, the legend, the belief. */
function show(state) {
  if (state !== game.state) setClock(state.clock); // a state fresh from the server
  game.state = state;
  game.side = state.side;
  game.toMove = state.to_move;
  const view = state.view;
  const playing = isPlaying();
  board.set({
    orientation: flipped ? enemyOf(state.side) : state.side,
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
  const offered = !state.over && state.draw_offer && state.draw_offer !== state.side;
  $('draw-box').hidden = !offered;
  if (offered) $('draw-text').textContent = `${cap(state.draw_offer)} offers a draw.`;
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
    const offer = state.draw_offer === state.side ? ` You offer a draw: ${cap(enemyOf(state.side))} answers on his turn.` : '';
    return `Your move: ${cap(state.side)} to play, move ${state.number}${state.check ? '. Your king is in check.' : ''}${offer}`;
  }
  if (state.computer === state.to_move) return `${cap(state.to_move)} to move: the computer is thinking…`;
  return `${cap(state.to_move)} to move.`;
}

/** The computer as the page names it: with its level, "the computer (normal)". */
const computerName = state => `the computer${state.level ? ` (${state.level})` : ''}`;

/** The player bars above and below the board: who plays which side, who is to move. */
function bars(state) {
  if (!state) { // the curtain: the side coming to the board below, no names
    const next = game ? game.toMove : 'white';
    for (const [id, side] of [['bar-bottom', next], ['bar-top', enemyOf(next)]]) {
      $(id).className = 'player-bar';
      $(id).replaceChildren(...(clock ? [el('span', { class: `dot ${side}` }), el('strong', {}, cap(side)), clockNode(side)] : []));
    }
    tick();
    return;
  }
  const who = side => (state.computer === side ? computerName(state) : side === state.side ? 'you' : 'your opponent');
  const below = flipped ? enemyOf(state.side) : state.side;
  for (const [id, side] of [['bar-bottom', below], ['bar-top', enemyOf(below)]]) {
    const moving = !state.over && state.to_move === side;
    $(id).className = `player-bar${moving ? ' to-move' : ''}`;
    $(id).replaceChildren(el('span', { class: `dot ${side}` }), el('strong', {}, cap(side)), ` · ${who(side)}`,
      moving ? el('span', { class: 'moving' }, ' · to move') : '', clockNode(side));
  }
  tick();
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
  const state = game && !curtainUp ? game.state : null;
  const over = Boolean(state && state.over);
  for (const id of ['play-send', 'play-move']) $(id).disabled = !playing;
  for (const id of ['play-draw', 'play-takeback', 'play-resign']) $(id).hidden = over;
  $('play-rematch').hidden = !over;
  $('play-flip').disabled = !state;
  const offered = Boolean(state && state.draw_offer === state.side);
  $('play-draw').disabled = !state || busy || !state.can_offer_draw;
  $('play-draw').textContent = offered ? '½ Draw offered' : '½ Offer draw';
  $('play-takeback').disabled = !state || busy || (game.mode === 'hotseat' && !state.can_take_back);
  $('play-resign').disabled = !state || busy || over || (game.mode === 'hotseat' && !state.your_turn);
  for (const id of ['draw-accept', 'draw-decline']) $(id).disabled = busy;
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
  // the clocks stand still until the answer says whose time runs (the computer's thinking is its own)
  if (clock && clock.running) clock = { ...clock, [side]: secondsLeft(side), running: null, at: performance.now() };
  say('play-turn', `${move}: the referee answers${game.state.computer ? ' (and the computer replies if the move stands)' : ''}…`, 'pending');
  try {
    const answer = await api('POST', gameUrl('/attempt'), { side, move });
    busy = false;
    $('play-move').value = '';
    const moved = answer.answer.kind === 'move';
    setClock(answer.state.clock);
    playSounds(answer);
    if (moved && game.mode === 'hotseat' && !answer.state.over) {
      const offer = answer.state.draw_offer === side ? `${cap(side)} offers a draw` : '';
      raiseCurtain(answer.state.to_move, side, answer.answer.words, offer);
      return;
    }
    show(answer.state);
    say('play-answer', `Referee: ${answer.answer.words}`, moved ? 'good' : 'bad');
    focusMove();
  } catch (error) {
    busy = false;
    if (error.status === 409) await refresh(side); // the game ended meanwhile (a clock), or moved on
    else if (game.state) show(game.state); // the man goes back
    say('play-answer', error.message, 'bad');
    focusMove();
  } finally {
    busy = false;
    controls();
  }
}

/** The sounds of an attempt's answer: the referee's "No", the move, and against the computer its reply. */
function playSounds(answer) {
  const state = answer.state;
  if (state.over) return sound('end');
  if (answer.answer.kind.startsWith('any')) return sound('move');
  if (answer.answer.kind !== 'move') return sound('no');
  sound(soundOf(answer.answer.words));
  if (state.computer && state.your_turn) { // the computer has replied: what this side heard of it
    const heard = state.log.length ? state.log[state.log.length - 1].text : '';
    setTimeout(() => sound(state.check ? 'check' : soundOf(heard)), 220);
  }
}

/** The state of `side` again from the server (after a conflict: the game may be over). */
async function refresh(side) {
  try {
    const answer = await api('GET', gameUrl(`?side=${side}`));
    if (answer.state.over && curtainUp) {
      curtainUp = false;
      $('curtain').hidden = true;
    }
    if (!curtainUp) show(answer.state);
    if (answer.state.over) sound('end');
  } catch { /* the message already says what went wrong */ }
}

// --- the game's buttons: flip, draw, takeback, resign, rematch -----------------------------------
function flip() {
  flipped = !flipped;
  if (game && game.state && !curtainUp) show(game.state);
}

/** A request of the game's buttons: `path` with `body`; the answer, or null after its error is shown. */
async function gameRequest(path, body) {
  if (busy || !game) return null;
  busy = true;
  controls();
  try {
    return await api('POST', gameUrl(path), body);
  } catch (error) {
    say('play-answer', error.message, 'bad');
    if (error.status === 409 && game.state) await refresh(game.side);
    return null;
  } finally {
    busy = false;
    controls();
  }
}

async function drawAction(action) {
  const side = game.side;
  const answer = await gameRequest('/draw', { side, action });
  if (!answer) return;
  show(answer.state);
  if (answer.state.over) sound('end');
  say('play-answer', answer.answer.words, answer.answer.kind === 'declined' ? 'warn' : answer.answer.kind === 'accepted' ? 'good' : 'info');
}

/** Takes back the last move: `moved` (the curtain's button) his own, or the side at the board the
 * other side's (who then comes back behind the curtain). */
async function takeBack(moved = null) {
  const side = moved || game.side;
  const answer = await gameRequest('/takeback', { side });
  if (!answer) return;
  const next = answer.state.to_move;
  if (answer.state.side === next) { // the mover's own move: his board again
    curtainUp = false;
    $('curtain').hidden = true;
    show(answer.state);
    say('play-answer', 'Your move was taken back: make another.', 'info');
    focusMove();
  } else {
    raiseCurtain(next, null, '', `${cap(side)} lets ${cap(next)} take back his move`);
  }
}

function disarmResign() {
  clearTimeout(resignArmed);
  resignArmed = null;
  $('play-resign').classList.remove('confirm');
  $('play-resign').textContent = '⚑ Resign';
}

/** Resign, on a second click within four seconds (as lichess asks to confirm). */
async function resign() {
  if (!resignArmed) {
    $('play-resign').classList.add('confirm');
    $('play-resign').textContent = '⚑ Really resign?';
    resignArmed = setTimeout(disarmResign, 4000);
    return;
  }
  disarmResign();
  const answer = await gameRequest('/resign', { side: game.side });
  if (!answer) return;
  show(answer.state);
  sound('end');
}

async function rematch() {
  const { mode } = game;
  const answer = await gameRequest('/rematch', {});
  if (!answer) return;
  history.replaceState(null, '', `/play?game=${encodeURIComponent(answer.id)}`);
  say('play-answer', '');
  begin(answer.id, answer.watch, mode, answer.state);
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
  if (reveal.times) { // a timed game: what each move took, its refused attempts included
    for (const button of $('replay-moves').querySelectorAll('button.m')) {
      const ply = Number(button.dataset.ply) - 1;
      const spent = reveal.times.filter(t => t.ply === ply);
      const seconds = spent.reduce((sum, t) => sum + t.seconds, 0);
      const refused = spent.filter(t => t.kind !== 'move').length;
      button.title = `${seconds.toFixed(1)} s${refused ? ` (${plural(refused, 'refused attempt')} and questions)` : ''}`;
    }
  }
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
    $('play-line').textContent = `Spectator · ${state.title}${state.mode === 'computer' ? ` against ${computerName(state)}` : ', hot-seat'}`;
    $('watch-log').replaceChildren(...(state.log || []).map(entry => el('li', {}, `${entry.number} ${entry.text}`)));
    setClock(state.over ? null : state.clock);
    $('watch-clocks').hidden = !clock;
    if (clock && !$('watch-clocks').childElementCount) {
      $('watch-clocks').replaceChildren(...['white', 'black'].map(side => el('span', {}, `${cap(side)} `, clockNode(side))));
      tick();
    }
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
  $('play-mode').addEventListener('change', () => {
    const human = $('play-mode').value !== 'computer'; // the side and the level are the computer's game's
    for (const id of ['side-field', 'level-field', 'level-hint']) $(id).hidden = human;
  });
  $('play-rules').addEventListener('change', () => showRulebook($('play-rules').value));
  $('curtain-go').addEventListener('click', () => lowerCurtain().catch(error => say('play-answer', error.message, 'bad')));
  $('curtain-takeback').addEventListener('click', () => takeBack($('curtain-takeback').dataset.side));
  $('play-flip').addEventListener('click', flip);
  $('play-draw').addEventListener('click', () => drawAction('offer'));
  $('draw-accept').addEventListener('click', () => drawAction('accept'));
  $('draw-decline').addEventListener('click', () => drawAction('decline'));
  $('play-takeback').addEventListener('click', () => takeBack());
  $('play-resign').addEventListener('click', resign);
  $('play-rematch').addEventListener('click', rematch);
  $('replay-flip').addEventListener('click', () => replayBoard.toggleOrientation());
  $('play-sound').checked = localStorage.getItem('ksolve-play-sound') === 'on';
  $('play-sound').addEventListener('change', () => {
    localStorage.setItem('ksolve-play-sound', $('play-sound').checked ? 'on' : 'off');
    sound('move'); // made in the click: the browser lets the page's audio start
  });
  watchDrops();
  setInterval(tick, 100);
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
