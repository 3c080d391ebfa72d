// Compose: the men White knows on a chessground board (drag, click, palette, remove), the hidden
// units with their squares painted on the board, the problem's fields, and its TOML both ways.
// Every change posts the TOML to /api/problems/check (debounced) and shows the belief's size or
// the loader's one-line error.
import { Chessground, parseToml } from './vendor/chessground.js';
import * as P from './problem.js';
import { api, download, el, plural, workbench } from './common.js';

const ROLES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const LETTER = Object.fromEntries(Object.entries(ROLES).map(([letter, role]) => [role, letter]));
const UNIT_PIECES = [['p', 'pawn'], ['n', 'knight'], ['b', 'bishop'], ['r', 'rook'], ['q', 'queen'], ['k', 'king'],
  ['q|r|b|n', 'queen, rook, bishop or knight']];
const COLORS = 6; // unit colours in style.css (.u0 ... .u5)
const CHECK_DELAY = 300;
const DEFAULT = {
  id: '', title: '', author: '', source: '', year: '', award: '', stipulation: '#2', rules: 'berkeley',
  notes: '', fen: '4k3/8/8/8/8/8/8/4K3 w - - 0 1', units: [], key: '', solution: '',
};
const TEXT_FIELDS = ['title', 'author', 'source', 'year', 'award', 'stipulation', 'rules', 'notes', 'key', 'solution'];

const $ = id => document.getElementById(id);

export function initCompose() {
  let form = structuredClone({ ...DEFAULT, units: [] });
  let tool = 'move';
  let placing = null; // {color, role} of the palette's man when tool === 'place'
  let active = -1; // the unit being painted
  let tomlOnly = false; // the TOML holds what the form cannot (an explicit list of positions)
  let checkTimer = null;
  let checkSerial = 0;
  let possible = null; // the last check's squares where each hidden black man may stand ({b: [...]})

  // ---------------------------------------------------------------- the board
  const board = Chessground($('compose-board'), {
    fen: form.fen.split(' ')[0],
    coordinates: true,
    movable: { free: true, color: 'both', showDests: false },
    draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
    selectable: { enabled: true },
    highlight: { lastMove: false, check: false, custom: new Map() },
    drawable: { enabled: false, visible: true },
    animation: { enabled: true, duration: 120 },
    events: { change: () => boardChanged() },
  });

  const placement = () => board.getFen();
  const occupied = () => P.occupiedSquares(placement());

  function boardChanged() {
    const rest = form.fen.split(' ').slice(1).join(' ') || 'w - - 0 1';
    form.fen = `${placement()} ${rest}`;
    $('fen').value = form.fen;
    paint();
    changed();
  }

  /** The active unit's squares filled, the other units' squares dotted (empty squares only). */
  function paint() {
    const busy = occupied();
    const classes = new Map();
    form.units.forEach((unit, index) => {
      if (index === active) return;
      for (const square of unit.squares) {
        if (!busy.has(square) && !classes.has(square)) classes.set(square, `dot u${index % COLORS}`);
      }
    });
    const unit = form.units[active];
    const legal = unit && legalSquares(unit);
    if (unit) {
      for (const square of unit.squares) {
        if (!busy.has(square)) classes.set(square, `paint u${active % COLORS}${legal && !legal.has(square) ? ' dead' : ''}`);
      }
    }
    board.set({ highlight: { custom: classes } });
    form.units.forEach((unit, index) => {
      const label = document.querySelector(`#unit-${index} .unit-count`);
      if (label) label.textContent = squaresLabel(unit, busy);
    });
  }

  function squaresLabel(unit, busy) {
    const free = [...unit.squares].filter(square => !busy.has(square));
    const spec = P.squaresSpec(unit.squares, busy);
    const words = typeof spec === 'string' ? ` (${spec})` : '';
    const legal = legalSquares(unit);
    const dead = legal ? free.filter(square => !legal.has(square)).length : 0;
    return `${plural(free.length, 'square')}${words}${dead ? `; on ${dead} of them no legal position (hatched)` : ''}`;
  }

  /** Where the last check found a black unit of this type standing in some legal position (null: unknown). */
  function legalSquares(unit) {
    if (!possible || unit.white) return null;
    const squares = new Set();
    for (const letter of unit.letters.split('|')) {
      if (!possible[letter]) return null;
      for (const square of possible[letter]) squares.add(square);
    }
    return squares;
  }

  // ---------------------------------------------------------------- tools
  const toolButtons = () => document.querySelectorAll('#compose .tool');

  function setTool(name, piece = null) {
    tool = name;
    placing = piece;
    for (const button of toolButtons()) {
      const pressed = button.dataset.tool === name &&
        (name !== 'place' || (button.dataset.color === piece.color && button.dataset.role === piece.role));
      button.setAttribute('aria-pressed', String(pressed));
    }
    const moving = name === 'move';
    board.set({ movable: { color: moving ? 'both' : undefined }, draggable: { enabled: moving },
                selectable: { enabled: moving } });
    board.selectSquare(null);
    $('compose-board').dataset.tool = name;
    const hints = {
      move: 'Drag men to move them; drag a man off the board to remove it.',
      remove: 'Click men to remove them.',
      place: `Click squares to place ${piece ? `${piece.color} ${piece.role}s` : 'men'} (click again to remove).`,
      paint: form.units[active]
        ? `Click or drag over squares to add or remove them for hidden unit ${active + 1}.`
        : 'Add a hidden unit first.',
    };
    $('tool-hint').textContent = hints[name];
  }

  function buildPalette() {
    for (const color of ['white', 'black']) {
      const row = $(`palette-${color}`);
      for (const role of ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn']) {
        const button = el('button', {
          type: 'button', class: 'tool piece-tool', 'data-tool': 'place', 'data-color': color, 'data-role': role,
          'aria-pressed': 'false', 'aria-label': `Place ${color} ${role}`, title: `${color} ${role}: click, then click squares; or drag onto the board`,
        }, el('piece', { class: `${color} ${role}` }));
        button.addEventListener('click', () => setTool('place', { color, role }));
        const drag = event => {
          if (event.button !== undefined && event.button !== 0) return;
          board.dragNewPiece({ color, role }, event, true);
        };
        button.addEventListener('mousedown', drag);
        button.addEventListener('touchstart', drag, { passive: false });
        row.append(button);
      }
    }
  }

  // Clicks and drags of the tools other than Move (chessground handles Move).
  let stroke = null; // {add: bool, done: Set} while painting with the pointer down
  const boardElement = $('compose-board');
  boardElement.addEventListener('pointerdown', event => {
    if (tool === 'move' || event.button !== 0) return;
    const key = board.getKeyAtDomPos([event.clientX, event.clientY]);
    if (!key) return;
    event.preventDefault();
    if (tool === 'remove') {
      if (board.state.pieces.has(key)) {
        board.setPieces(new Map([[key, undefined]]));
        boardChanged();
      }
    } else if (tool === 'place' && placing) {
      const current = board.state.pieces.get(key);
      const same = current && current.color === placing.color && current.role === placing.role;
      board.setPieces(new Map([[key, same ? undefined : { ...placing }]]));
      boardChanged();
    } else if (tool === 'paint') {
      const unit = form.units[active];
      if (!unit || occupied().has(key)) return;
      stroke = { add: !unit.squares.has(key), done: new Set() };
      boardElement.setPointerCapture(event.pointerId);
      paintSquare(key);
    }
  });
  boardElement.addEventListener('pointermove', event => {
    if (!stroke) return;
    const key = board.getKeyAtDomPos([event.clientX, event.clientY]);
    if (key) paintSquare(key);
  });
  const endStroke = () => {
    if (stroke) {
      stroke = null;
      changed();
    }
  };
  boardElement.addEventListener('pointerup', endStroke);
  boardElement.addEventListener('pointercancel', endStroke);

  function paintSquare(key) {
    const unit = form.units[active];
    if (!unit || stroke.done.has(key) || occupied().has(key)) return;
    stroke.done.add(key);
    possible = null; // the next check tells again
    if (stroke.add) unit.squares.add(key);
    else unit.squares.delete(key);
    paint();
    renderUnitSpec(active);
  }

  // ---------------------------------------------------------------- hidden units
  function renderUnits() {
    const box = $('units');
    box.replaceChildren();
    form.units.forEach((unit, index) => box.append(unitCard(unit, index)));
    if (!form.units.length) box.append(el('p', { class: 'hint none' }, 'None: White sees every man.'));
    paint();
  }

  function unitCard(unit, index) {
    const id = `unit-${index}`;
    const side = el('select', { 'aria-label': `Hidden unit ${index + 1}: side` },
      el('option', { value: 'black', selected: !unit.white }, 'Black'),
      el('option', { value: 'white', selected: unit.white }, 'White'));
    side.addEventListener('change', () => { unit.white = side.value === 'white'; changed(); });
    const pieces = [...UNIT_PIECES];
    if (!pieces.some(([letters]) => letters === unit.letters)) pieces.push([unit.letters, unit.letters.split('|').map(x => P.PIECE_NAMES[x]).join(' or ')]);
    const piece = el('select', { 'aria-label': `Hidden unit ${index + 1}: piece`, class: 'unit-piece' },
      pieces.map(([letters, name]) => el('option', { value: letters, selected: letters === unit.letters }, name)));
    piece.addEventListener('change', () => { unit.letters = piece.value; changed(); });
    const optional = el('input', { type: 'checkbox', checked: unit.optional });
    optional.addEventListener('change', () => { unit.optional = optional.checked; changed(); });
    const paintButton = el('button', { type: 'button', class: 'paint-unit', 'aria-pressed': String(index === active && tool === 'paint') },
      'Paint squares');
    paintButton.addEventListener('click', () => { activate(index); setTool('paint'); renderUnits(); });
    const presets = P.PRESETS.map(preset => {
      const button = el('button', { type: 'button', class: 'preset', 'data-preset': preset,
        title: `Every ${preset === 'any' ? '' : `${preset} `}square` }, preset[0].toUpperCase() + preset.slice(1));
      button.addEventListener('click', () => {
        unit.squares = P.expandSquares(preset);
        activate(index);
        renderUnits();
        changed();
      });
      return button;
    });
    const clear = el('button', { type: 'button', class: 'preset', title: 'No squares' }, 'None');
    clear.addEventListener('click', () => { unit.squares = new Set(); activate(index); renderUnits(); changed(); });
    const spec = el('input', { type: 'text', class: 'unit-spec', spellcheck: 'false',
      'aria-label': `Hidden unit ${index + 1}: squares (dark, light, any, a-file, rank-3, e2,e5)` });
    spec.addEventListener('change', () => {
      try {
        unit.squares = P.expandSquares(spec.value);
        spec.removeAttribute('aria-invalid');
        activate(index);
        renderUnits();
        changed();
      } catch (error) {
        spec.setAttribute('aria-invalid', 'true');
        showStatus(`hidden unit ${index + 1}: ${error.message}`, 'bad');
      }
    });
    const remove = el('button', { type: 'button', class: 'remove-unit', 'aria-label': `Remove hidden unit ${index + 1}` }, '✕');
    remove.addEventListener('click', () => {
      form.units.splice(index, 1);
      if (active >= form.units.length) active = form.units.length - 1;
      renderUnits();
      changed();
    });
    const card = el('div', { class: `unit${index === active ? ' active' : ''}`, id, role: 'group', 'aria-label': `Hidden unit ${index + 1}` },
      el('div', { class: 'unit-head' },
        el('span', { class: `swatch u${index % COLORS}`, 'aria-hidden': 'true' }),
        el('strong', {}, `${index + 1}`), side, piece,
        el('label', { class: 'inline' }, optional, ' may be absent'), remove),
      el('div', { class: 'unit-squares' }, paintButton, ...presets, clear,
        el('span', { class: 'unit-count', 'aria-live': 'polite' })),
      el('label', { class: 'field wide' }, 'Squares', spec));
    card.addEventListener('focusin', () => { if (active !== index) { activate(index); markActive(); } });
    setTimeout(() => renderUnitSpec(index, spec), 0);
    return card;
  }

  function activate(index) {
    active = index;
    if (tool === 'paint') setTool('paint');
    paint();
  }

  function markActive() {
    document.querySelectorAll('#units .unit').forEach((card, index) => card.classList.toggle('active', index === active));
    document.querySelectorAll('#units .paint-unit').forEach((button, index) =>
      button.setAttribute('aria-pressed', String(index === active && tool === 'paint')));
  }

  function renderUnitSpec(index, input = document.querySelector(`#unit-${index} .unit-spec`)) {
    const unit = form.units[index];
    if (!unit || !input || document.activeElement === input) return;
    const spec = P.squaresSpec(unit.squares, occupied());
    input.value = Array.isArray(spec) ? spec.join(',') : spec;
  }

  $('add-unit').addEventListener('click', () => {
    form.units.push(P.newUnit('b', false));
    active = form.units.length - 1;
    setTool('paint');
    renderUnits();
    changed();
    document.querySelector(`#unit-${active} .unit-piece`).focus();
  });

  // ---------------------------------------------------------------- fields
  const rules = $('rules');
  for (const name of P.RULES) rules.append(el('option', { value: name }, name));
  for (const name of TEXT_FIELDS) {
    $(name).addEventListener('input', () => { form[name] = $(name).value; changed(); });
  }
  $('fen').addEventListener('change', () => {
    const text = $('fen').value.trim();
    const parts = text.split(/\s+/);
    if (!/^([1-8pnbrqkPNBRQK]{1,8}\/){7}[1-8pnbrqkPNBRQK]{1,8}$/.test(parts[0])) {
      $('fen').setAttribute('aria-invalid', 'true');
      showStatus(`position: '${text}' is not a FEN`, 'bad');
      return;
    }
    $('fen').removeAttribute('aria-invalid');
    form.fen = parts.length > 1 ? parts.join(' ') : `${parts[0]} w - - 0 1`;
    board.set({ fen: parts[0] });
    boardChanged();
  });
  $('clear-board').addEventListener('click', () => {
    board.set({ fen: '8/8/8/8/8/8/8/8' });
    boardChanged();
  });
  $('compose-form').addEventListener('submit', event => event.preventDefault());

  function fillFields() {
    for (const name of TEXT_FIELDS) $(name).value = form[name];
    $('fen').value = form.fen;
    board.set({ fen: form.fen.split(' ')[0] });
  }

  // ---------------------------------------------------------------- TOML and the check
  const tomlArea = $('toml');

  /** The form changed: rewrite the TOML, check it soon. */
  function changed() {
    possible = null;
    if (tomlOnly) return;
    const text = P.problemToml(form);
    tomlArea.value = text;
    schedule(text);
  }

  tomlArea.addEventListener('input', () => {
    const text = tomlArea.value;
    possible = null;
    readToml(text, { keepText: true });
    schedule(text);
  });

  /** Fills the form from TOML text (when the form can hold it). */
  function readToml(text, { keepText = false } = {}) {
    let data;
    try {
      data = parseToml(text);
    } catch {
      return false; // the server's check gives the error line
    }
    try {
      form = P.formFromData(data);
      setTomlOnly(null);
    } catch (error) {
      setTomlOnly(error.message, data);
      return false;
    }
    if (active >= form.units.length) active = form.units.length - 1;
    if (active < 0 && form.units.length) active = 0;
    fillFields();
    renderUnits();
    if (!keepText) tomlArea.value = text;
    if (form.id && !$('save-name').value) $('save-name').value = form.id;
    return true;
  }

  /** The form cannot hold the file (`reason`; null: it can again): the TOML alone is edited, the form
   * shows its fields and the board the men standing alike in every listed position, read-only. */
  function setTomlOnly(reason, data = {}) {
    tomlOnly = Boolean(reason);
    $('toml-only').hidden = !reason;
    $('toml-only').textContent = reason || '';
    $('form-fields').disabled = tomlOnly;
    $('board-fields').disabled = tomlOnly;
    board.set({ viewOnly: tomlOnly });
    if (!tomlOnly) return;
    for (const name of TEXT_FIELDS) {
      const value = name === 'key' || name === 'solution' ? (data.published || {})[name] : data[name];
      $(name).value = value === undefined || value === null ? '' : String(value);
    }
    const positions = (data.position && data.position.positions) || [];
    const common = P.commonMen(positions.map(String));
    $('fen').value = `${common} (the men in every listed position)`;
    $('units').replaceChildren(el('p', { class: 'hint none' }, `${plural(positions.length, 'listed position')}.`));
    board.set({ fen: common, highlight: { custom: new Map() } });
  }

  function schedule(text) {
    clearTimeout(checkTimer);
    showStatus('Checking…', 'pending');
    checkTimer = setTimeout(() => check(text), CHECK_DELAY);
  }

  async function check(text) {
    const serial = ++checkSerial;
    try {
      const answer = await api('POST', '/api/problems/check', { problem: text });
      if (serial !== checkSerial) return;
      const leftOut = answer.left_out ? ` · ${answer.left_out.split(':')[0]}` : '';
      showStatus(`${plural(answer.size, 'position')}${answer.size === 1 ? '' : ' White cannot tell apart'} · ${answer.stipulation} · ${answer.rules}${leftOut}`, 'good', plural(answer.size, 'position'));
      workbench.set({ toml: text, check: answer, error: null });
      if (answer.possible && !tomlOnly) {
        possible = answer.possible;
        paint();
      } else if (answer.possible) { // listed positions: where each black man may stand, dotted
        const dots = new Map();
        Object.values(answer.possible).forEach((squares, index) => {
          for (const square of squares) if (!dots.has(square)) dots.set(square, `dot u${index % COLORS}`);
        });
        board.set({ highlight: { custom: dots } });
      }
    } catch (error) {
      if (serial !== checkSerial) return;
      const line = error.message.replace(/^<problem>: /, '');
      showStatus(line, 'bad');
      workbench.set({ toml: text, check: null, error: line });
    }
  }

  function showStatus(text, kind, headline = null) {
    const status = $('check-status');
    status.className = `status ${kind}`;
    if (headline) {
      status.replaceChildren(el('strong', { class: 'size' }, headline), text.slice(headline.length));
    } else {
      status.textContent = text;
    }
  }

  // ---------------------------------------------------------------- files
  $('download-toml').addEventListener('click', () => {
    const name = ($('save-name').value.trim() || form.id || 'problem').replace(/[^a-zA-Z0-9._-]+/g, '-');
    download(`${name}.toml`, tomlArea.value, 'application/toml');
  });
  $('open-file').addEventListener('change', async () => {
    const file = $('open-file').files[0];
    if (!file) return;
    const text = await file.text();
    if (!$('save-name').value) $('save-name').value = file.name.replace(/\.toml$/i, '').toLowerCase();
    load(text);
    $('open-file').value = '';
  });
  const fileStatus = (text, good) => {
    $('save-status').textContent = text;
    $('save-status').className = `status small ${good ? 'good' : 'bad'}`;
  };
  $('export').addEventListener('click', async () => { // YACPDB, Olive, Popeye or LaTeX, as ksolve export writes it
    try {
      const written = await api('POST', '/api/export', { problem: tomlArea.value, to: $('export-to').value });
      download(written.filename, written.text, 'text/plain');
      fileStatus(`Exported as ${written.filename}.`, true);
    } catch (error) {
      fileStatus(error.message, false);
    }
  });
  let imported = [];
  const openImported = index => {
    const problem = imported[index];
    load(problem.problem);
    $('save-name').value = problem.id.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  };
  $('import-file').addEventListener('change', async () => { // a YACPDB entry or an Olive collection
    const file = $('import-file').files[0];
    $('import-file').value = '';
    if (!file) return;
    try {
      imported = (await api('POST', '/api/import', { text: await file.text() })).problems;
    } catch (error) {
      fileStatus(`${file.name}: ${error.message}`, false);
      return;
    }
    const pick = $('import-pick');
    pick.replaceChildren(...imported.map((problem, index) => el('option', { value: String(index) }, problem.id)));
    pick.hidden = imported.length < 2;
    openImported(0);
    fileStatus(imported.length > 1 ? `${file.name}: ${plural(imported.length, 'problem')}; ${imported[0].id} opened ` +
                                      '(choose another in the list beside).' : `${file.name}: ${imported[0].id} opened.`, true);
  });
  $('import-pick').addEventListener('change', () => openImported(Number($('import-pick').value)));
  $('save').addEventListener('click', async () => {
    const name = $('save-name').value.trim();
    const status = $('save-status');
    if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(name)) {
      status.textContent = 'A name is lower-case letters, digits, ".", "_" or "-" (up to 64), e.g. my-problem.';
      status.className = 'status small bad';
      $('save-name').focus();
      return;
    }
    try {
      const text = tomlArea.value;
      await api('PUT', `/api/problems/${encodeURIComponent(name)}`, { problem: text });
      workbench.source = { name, text }; // a Verify of this very text keeps its verdict in the Library
      status.textContent = `Saved as ${name}.toml in the server's problems folder.`;
      status.className = 'status small good';
    } catch (error) {
      status.textContent = error.message;
      status.className = 'status small bad';
    }
  });

  /** Opens a problem's TOML (Library, Open file). */
  function load(text, name = null) {
    if (name) $('save-name').value = name;
    workbench.source = name ? { name, text } : null; // a Verify of this very text keeps its verdict in the Library
    active = -1;
    if (!readToml(text)) tomlArea.value = text;
    schedule(text);
  }
  workbench.load = load;

  // ---------------------------------------------------------------- start
  buildPalette();
  for (const button of toolButtons()) {
    if (button.dataset.tool !== 'place') {
      button.addEventListener('click', () => {
        if (button.dataset.tool === 'paint' && active < 0 && form.units.length) active = 0;
        setTool(button.dataset.tool);
        markActive();
        paint();
      });
    }
  }
  document.addEventListener('keydown', event => { // Escape: back to moving men
    if (event.key === 'Escape' && tool !== 'move' && !$('compose').hidden) setTool('move');
  });
  fillFields();
  renderUnits();
  setTool('move');
  changed();

  return first => {
    if (!first) board.redrawAll();
  };
}
