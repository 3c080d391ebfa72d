// Try it: the user plays White against the worst-case referee (/api/try). The board shows White's
// own men only, the squares each hidden unit may stand on dotted (a legend names the units); each
// attempt, dragged or typed, gets the referee's words, and the page says when the move throws the
// forced mate away. At the end the fog lifts: one consistent position and the game's replay.
// chessground is told after every answer that White is to move (turnColor), or it would refuse
// to lift White's men after its own flip of the turn on a drag.
import { Chessground, Chess, makeFen, makeSquare, parseFen, parseSan } from './vendor/chessground.js';
import { api, el, plural, workbench } from './common.js';

const $ = id => document.getElementById(id);
const UCI = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

export function initTry() {
  let session = null; // {id, view, toml}
  let busy = false;
  let replay = { fens: [], moves: [], index: 0 };

  const board = Chessground($('try-board'), {
    fen: '8/8/8/8/8/8/8/8',
    coordinates: true,
    turnColor: 'white',
    movable: { free: true, color: undefined, showDests: false, events: { after: (orig, dest) => dragged(orig, dest) } },
    draggable: { enabled: true, showGhost: true },
    highlight: { lastMove: true, check: false, custom: new Map() },
    premovable: { enabled: false },
    drawable: { enabled: false },
    animation: { enabled: true, duration: 150 },
  });
  const legend = el('ul', { class: 'legend', id: 'try-legend', 'aria-label': 'What the dots on the board mean' });
  $('try-board').closest('.board-box').after(legend);
  const revealBoard = Chessground($('reveal-board'), {
    fen: '8/8/8/8/8/8/8/8', viewOnly: true, coordinates: true, animation: { enabled: true, duration: 200 },
  });

  function status(text, kind = '') {
    $('try-status').textContent = text;
    $('try-status').className = `status ${kind}`;
  }

  function controls() {
    const playing = Boolean(session) && !session.view.over;
    $('try-start').textContent = session ? 'Start again' : 'Start';
    $('try-start').disabled = busy || !workbench.check;
    $('try-stop').disabled = busy || !playing;
    for (const id of ['try-send', 'try-move', 'try-any']) $(id).disabled = busy || !playing;
    $('try-any').hidden = !(session && session.view && session.view.can_ask);
    board.set({ turnColor: 'white', movable: { color: playing && !busy ? 'white' : undefined } });
  }

  /** White's men, and the black men he is sure of when asked for (`known`). */
  const boardFen = view => (($('try-known').checked && view.known) || view.fen).split(' ')[0];

  /** Shows a View: White's men, the hidden units' squares dotted, the facts and the heard log. */
  function showView(view, lastMove) {
    session.view = view;
    const dots = new Map();
    view.hidden.forEach((unit, index) => {
      for (const square of unit.squares || []) if (!dots.has(square)) dots.set(square, `dot u${index % 6}`);
    });
    board.set({ fen: boardFen(view), lastMove, turnColor: 'white', highlight: { custom: dots } });
    const hidden = view.hidden.map(unit => `${unit.name}: ${plural((unit.squares || []).length, 'square')}`);
    legend.replaceChildren(...view.hidden.map((unit, index) => el('li', {},
      el('span', { class: `swatch u${index % 6}` }), `${unit.name}: may stand on the dotted squares (${plural((unit.squares || []).length, 'square')})`)));
    const facts = [
      ['Move', view.over ? '—' : String(view.move_number)],
      ['Moves left', String(view.moves_left)],
      ['Positions', plural(view.positions, 'position')],
      ['Hidden', hidden.length ? hidden.join('; ') : 'none'],
    ];
    if (!view.over && 'forced_win' in view) {
      facts.push(['Forced win', view.forced_win === null ? 'not decided' : view.forced_win ? 'still there' : 'lost']);
    }
    $('try-facts').replaceChildren(...facts.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]));
    $('try-heard').replaceChildren(...view.heard.map(line => el('li', {}, line)));
    $('try-heard').scrollTop = $('try-heard').scrollHeight;
    if (view.over) finish(view);
    else $('try-reveal').hidden = true;
    controls();
  }

  async function startSession() {
    if (!workbench.toml) return;
    await stopSession();
    busy = true;
    controls();
    $('try-answer').replaceChildren();
    $('try-lost').hidden = true;
    status('Starting…', 'pending');
    try {
      const answer = await api('POST', '/api/try', { problem: workbench.toml });
      session = { id: answer.id, view: answer.view, toml: workbench.toml };
      status(`White to play: ${workbench.check?.stipulation || ''} against the worst-case referee. You see only your own men.`, '');
      busy = false;
      showView(answer.view);
    } catch (error) {
      busy = false;
      status(error.message, 'bad');
      controls();
    }
  }

  async function stopSession() {
    if (!session) return;
    const id = session.id;
    session = null;
    try {
      await api('DELETE', `/api/try/${encodeURIComponent(id)}`);
    } catch { /* already gone */ }
  }

  function dragged(orig, dest) {
    const piece = board.state.pieces.get(dest);
    let move = orig + dest;
    if (piece && piece.role === 'pawn' && dest[1] === '8') move += $('try-promotion').value;
    attempt(move, [orig, dest]);
  }

  async function attempt(move, squares) {
    if (!session || session.view.over || busy) return;
    busy = true;
    controls();
    const number = session.view.move_number;
    try {
      const answer = await api('POST', `/api/try/${encodeURIComponent(session.id)}/attempt`, { move });
      busy = false;
      showAnswer(answer, session.view.forced_win);
      if (answer.mate_kept === false && session.view.forced_win !== false && !session.lost) {
        session.lost = `The forced mate was lost at ${number}.${answer.san || answer.label || move}` +
          (answer.refutation ? `: ${answer.refutation}` : '.');
        $('try-lost').textContent = session.lost;
        $('try-lost').hidden = false;
      }
      showView(answer.view, answer.san && squares ? squares : undefined);
      $('try-move').value = '';
    } catch (error) {
      busy = false;
      board.set({ fen: boardFen(session.view), turnColor: 'white' }); // the man goes back
      $('try-answer').replaceChildren(el('p', { class: 'answer-line bad' }, error.message));
      controls();
    }
  }

  /** The referee's words; `before`: whether White could still force the win before the move. */
  function showAnswer(answer, before) {
    const parts = [el('p', { class: 'answer-line' },
      el('span', { class: 'label' }, 'Referee: '), el('strong', { class: 'words' }, answer.answer || ''),
      answer.san ? ` (you played ${answer.san})` : '')];
    if (answer.reply) {
      parts.push(el('p', { class: 'answer-line reply' }, el('span', { class: 'label' }, 'Then Black: '),
        el('strong', { class: 'reply-words' }, answer.reply)));
    }
    if (answer.mate_kept === false && before === false) {
      parts.push(el('p', { class: 'answer-line' }, 'The forced mate was already lost.'));
    } else if (answer.mate_kept === false) {
      parts.push(el('div', { class: 'warning', role: 'alert' },
        el('strong', {}, 'This move loses the forced mate. '),
        answer.refutation ? `Refutation: ${answer.refutation}` : 'The referee can now answer so that White cannot force mate in time.'));
    } else if (answer.mate_kept === true && !answer.view.over) {
      parts.push(el('p', { class: 'answer-line good' }, 'The forced mate is still there.'));
    } else if (answer.mate_kept === null && answer.note) {
      parts.push(el('p', { class: 'answer-line' }, `Not decided: ${answer.note}`));
    }
    $('try-answer').replaceChildren(...parts);
  }

  function finish(view) {
    const over = view.result ? `Game over: ${view.result}.` : 'Game over.';
    status(over, view.result === 'mate' ? 'good' : '');
    const reveal = view.reveal;
    $('try-reveal').hidden = !reveal;
    if (!reveal) return;
    $('reveal-caption').textContent = 'One placement of the hidden men consistent with everything White heard, and the game from it.';
    replay = replayFrom(reveal.fen, reveal.moves || []);
    $('replay-moves').replaceChildren(...replay.moves.map((san, index) => {
      const button = el('button', { type: 'button', class: 'replay-move', 'aria-label': `After ${san}` }, san);
      button.addEventListener('click', () => step(index + 1));
      return [index % 2 === 0 ? el('span', { class: 'num' }, `${index / 2 + 1}.`) : '', button];
    }).flat());
    step(0);
  }

  /** The positions of a replay: chessops plays the SAN moves from the revealed FEN (as far as they go). */
  function replayFrom(fen, moves) {
    const fens = [fen.split(' ')[0]];
    const lastMoves = [undefined];
    try {
      const position = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
      for (const san of moves) {
        const move = parseSan(position, san.replace(/^\d+\.+/, ''));
        if (!move) break;
        position.play(move);
        fens.push(makeFen(position.toSetup()).split(' ')[0]);
        lastMoves.push('from' in move ? [makeSquare(move.from), makeSquare(move.to)] : undefined);
      }
    } catch { /* the position alone */ }
    return { fens, lastMoves, moves, index: 0 };
  }

  function step(index) {
    if (!replay.fens.length) return;
    replay.index = Math.max(0, Math.min(index, replay.fens.length - 1));
    revealBoard.set({ fen: replay.fens[replay.index], lastMove: replay.lastMoves[replay.index] });
    document.querySelectorAll('#replay-moves .replay-move').forEach((button, i) => {
      button.classList.toggle('current', i + 1 === replay.index);
      button.setAttribute('aria-current', String(i + 1 === replay.index));
    });
  }

  $('replay-first').addEventListener('click', () => step(0));
  $('replay-prev').addEventListener('click', () => step(replay.index - 1));
  $('replay-next').addEventListener('click', () => step(replay.index + 1));
  $('replay-last').addEventListener('click', () => step(replay.fens.length - 1));

  $('try-start').addEventListener('click', startSession);
  $('try-stop').addEventListener('click', async () => {
    await stopSession();
    status('Given up. Start again to play the problem anew.', '');
    controls();
  });
  const send = () => {
    const move = $('try-move').value.trim().toLowerCase().replace(/[-x ]/g, '');
    if (!UCI.test(move)) {
      $('try-answer').replaceChildren(el('p', { class: 'answer-line bad' }, `'${$('try-move').value}' is not a move from square to square, e.g. d3f2 (e7e8q to promote)`));
      return;
    }
    attempt(move, [move.slice(0, 2), move.slice(2, 4)]);
  };
  $('try-send').addEventListener('click', send);
  $('try-move').addEventListener('keydown', event => { if (event.key === 'Enter') send(); });
  $('try-any').addEventListener('click', () => attempt('any'));

  $('try-known').addEventListener('change', () => { if (session) board.set({ fen: boardFen(session.view) }); });
  workbench.on(() => {
    controls();
    if (session && session.toml !== workbench.toml && !session.view.over) {
      status('The problem changed in Compose: Start again to play the new one.', 'info');
    }
  });
  controls();

  return () => {
    board.redrawAll();
    revealBoard.redrawAll();
    if (!session && workbench.check && !workbench.error) {
      status(`Press Start to play ${workbench.check.title || 'the problem'} as White (${workbench.check.stipulation}, ${workbench.check.rules}).`, '');
    }
  };
}
