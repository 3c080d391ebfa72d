// The compose form's problem: square sets, hidden units, and the problem TOML both ways.
// The page builds the TOML the loader reads (problems/README.md); the server's loader judges it.

export const FILES = 'abcdefgh';
export const ALL_SQUARES = [...'12345678'].flatMap(rank => [...FILES].map(file => file + rank));
export const RULES = ['berkeley', 'berkeley-any', 'english', 'cincinnati', 'rand', 'wild16', 'orthodox', 'fog-of-war'];
export const PIECE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
export const PRESETS = ['dark', 'light', 'any'];

/** a1 is dark: file and rank (both from 0) add up to an even number. */
export const isDark = square => (FILES.indexOf(square[0]) + Number(square[1]) - 1) % 2 === 0;

const SQUARE = /^[a-h][1-8]$/;

/** The squares of one set word: dark, light, any, a-file, rank-3, e4 (throws on anything else). */
function setSquares(word) {
  word = word.trim().toLowerCase();
  if (word === 'any') return ALL_SQUARES;
  if (word === 'dark') return ALL_SQUARES.filter(isDark);
  if (word === 'light') return ALL_SQUARES.filter(square => !isDark(square));
  let match = /^([a-h])-file$/.exec(word);
  if (match) return ALL_SQUARES.filter(square => square[0] === match[1]);
  match = /^rank-([1-8])$/.exec(word);
  if (match) return ALL_SQUARES.filter(square => square[1] === match[1]);
  if (SQUARE.test(word)) return [word];
  throw new Error(`unknown square or square set '${word}' (use dark, light, any, a-file, rank-3 or squares like e4)`);
}

/** The squares of a hidden unit's SQUARES: `dark`, `rank-6+h1`, `e2,e5` or a list of those. */
export function expandSquares(spec) {
  const words = Array.isArray(spec) ? spec.map(String) : String(spec).split(/[+,]/);
  const squares = new Set();
  for (const word of words) {
    if (word.trim()) for (const square of setSquares(word)) squares.add(square);
  }
  return squares;
}

const sameSet = (a, b) => a.size === b.size && [...a].every(x => b.has(x));

/** The shortest SQUARES text for a set (given the occupied squares, which no unit can stand on):
 * a preset, a file or rank, else the squares in board order. */
export function squaresSpec(squares, occupied = new Set()) {
  const free = new Set([...squares].filter(square => !occupied.has(square)));
  const words = [...PRESETS, ...[...FILES].map(f => `${f}-file`), ...[...'12345678'].map(r => `rank-${r}`)];
  for (const word of words) {
    const set = new Set(setSquares(word).filter(square => !occupied.has(square)));
    if (free.size && sameSet(free, set)) return word;
  }
  return ALL_SQUARES.filter(square => free.has(square));
}

/** A hidden unit of the form: `letters` like "b" or "q|r|b|n" (lower case), `white`, `optional`,
 * `squares` (a Set), `note`; `spec`/`specSquares` remember the file's text to write it back unchanged. */
export function newUnit(letters = 'b', white = false) {
  return { letters, white, optional: false, squares: new Set(), note: '', spec: null, specSquares: null };
}

/** A unit from the file's `"b:dark"` string or `{piece, squares, optional, note}` table. */
export function readUnit(entry) {
  let piece, squares, optional = false, note = '';
  if (typeof entry === 'string') {
    const colon = entry.indexOf(':');
    if (colon < 0) throw new Error(`hidden unit '${entry}': expected PIECES:SQUARES`);
    piece = entry.slice(0, colon).trim();
    squares = entry.slice(colon + 1).trim();
  } else if (entry && typeof entry === 'object') {
    piece = String(entry.piece ?? '');
    squares = entry.squares ?? '';
    optional = Boolean(entry.optional);
    note = entry.note ? String(entry.note) : '';
  } else {
    throw new Error('a hidden unit is a string or a table');
  }
  if (piece.endsWith('?')) {
    optional = true;
    piece = piece.slice(0, -1);
  }
  const letters = piece.split('|').map(x => x.trim()).filter(Boolean);
  if (!letters.length || letters.some(x => !/^[pnbrqkPNBRQK]$/.test(x))) {
    throw new Error(`hidden unit piece '${piece}' (use one of p n b r q k, upper case for White)`);
  }
  const white = letters[0] === letters[0].toUpperCase();
  const set = expandSquares(squares);
  return { letters: letters.join('|').toLowerCase(), white, optional, squares: set, note,
           spec: squares, specSquares: new Set(set) };
}

/** A TOML basic string (JSON's escapes are TOML's, DEL aside). */
export function tomlString(text) {
  return JSON.stringify(String(text)).replace(/\u007f/g, '\\u007F');
}

/** A long text: a multi-line basic string wrapped at spaces (a backslash at a line's end joins
 * the lines, as in the bundled problem files), or a plain basic string when short. */
export function tomlText(text, width = 96) {
  text = String(text).replace(/\r\n/g, '\n');
  if (text.length <= width || /^\s|[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) return tomlString(text);
  const paragraphs = text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').split('\n').map(paragraph => {
    const lines = [];
    let line = '';
    for (const word of paragraph.split(/(?<= )/)) { // each word keeps its trailing space
      if (line && (line + word).length > width) {
        lines.push(line);
        line = '';
      }
      line += word;
    }
    lines.push(line);
    return lines.join('\\\n');
  });
  return `"""\\\n${paragraphs.join('\n')}"""`;
}

function tomlValue(value) {
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return tomlString(value);
}

/** The unit's `{piece = ..., squares = ...}` inline table. */
export function unitToml(unit, occupied = new Set()) {
  let letters = unit.letters;
  if (unit.white) letters = letters.toUpperCase();
  let squares;
  if (unit.spec !== null && unit.specSquares && sameSet(unit.specSquares, unit.squares)) squares = unit.spec;
  else squares = squaresSpec(unit.squares, occupied);
  const parts = [`piece = ${tomlString(letters)}`, `squares = ${tomlValue(squares)}`];
  if (unit.optional) parts.push('optional = true');
  if (unit.note) parts.push(`note = ${tomlString(unit.note)}`);
  return `{${parts.join(', ')}}`;
}

/** The placement part of a FEN as a Set of its occupied squares. */
export function occupiedSquares(fen) {
  const occupied = new Set();
  const rows = String(fen).split(' ')[0].split('/');
  rows.forEach((row, index) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        if (file < 8) occupied.add(FILES[file] + (8 - index));
        file += 1;
      }
    }
  });
  return occupied;
}

/** The problem TOML of a form state: {id, title, author, source, year, award, stipulation, rules,
 * notes, fen, units, key, solution} (empty fields left out). */
export function problemToml(form) {
  const lines = [];
  const put = (name, value, text = false) => {
    if (value !== undefined && value !== null && String(value).trim() !== '') {
      lines.push(`${name} = ${text ? tomlText(value) : tomlValue(value)}`);
    }
  };
  put('id', form.id);
  put('title', form.title);
  put('author', form.author);
  put('source', form.source);
  if (form.year !== '' && form.year !== null && form.year !== undefined) {
    const year = Number(form.year);
    lines.push(`year = ${Number.isInteger(year) ? year : tomlString(form.year)}`);
  }
  put('award', form.award);
  put('stipulation', form.stipulation);
  put('rules', form.rules);
  put('notes', form.notes, true);
  lines.push('', '[position]', `fen = ${tomlString(form.fen)}`);
  const occupied = occupiedSquares(form.fen);
  if (form.units.length === 1) lines.push(`hidden = [${unitToml(form.units[0], occupied)}]`);
  else if (form.units.length > 1) {
    lines.push('hidden = [', ...form.units.map(unit => `    ${unitToml(unit, occupied)},`), ']');
  }
  if ((form.key || '').trim() || (form.solution || '').trim()) {
    lines.push('', '[published]');
    put('key', form.key);
    put('solution', form.solution, true);
  }
  return lines.join('\n') + '\n';
}

/** A form state from a parsed TOML document (smol-toml's `parse`); throws when the form cannot
 * hold it (an explicit list of positions). */
export function formFromData(data) {
  const position = data.position || {};
  if (position.positions !== undefined) {
    throw new Error('This problem lists its positions explicitly (retro conditions): edit it as TOML.');
  }
  const text = value => (value === undefined || value === null ? '' : String(value));
  const published = data.published || {};
  const hidden = position.hidden === undefined ? [] : position.hidden;
  if (!Array.isArray(hidden)) throw new Error('position.hidden must be a list');
  return {
    id: text(data.id), title: text(data.title), author: text(data.author), source: text(data.source),
    year: text(data.year), award: text(data.award), stipulation: text(data.stipulation),
    rules: text(data.rules) || 'berkeley', notes: text(data.notes),
    fen: text(position.fen) || '4k3/8/8/8/8/8/8/4K3 w - - 0 1',
    units: hidden.map(readUnit), key: text(published.key), solution: text(published.solution),
  };
}

/** The board FEN of the men standing on the same square in every one of `fens` (the known men of a
 * problem that lists its positions). */
export function commonMen(fens) {
  const boards = fens.map(fen => {
    const squares = [];
    for (const row of fen.split(' ')[0].split('/')) {
      for (const ch of row) {
        if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i += 1) squares.push('');
        else squares.push(ch);
      }
    }
    return squares;
  });
  const rows = [];
  for (let rank = 0; rank < 8; rank += 1) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file += 1) {
      const index = rank * 8 + file;
      const man = boards.length && boards.every(squares => squares[index] === boards[0][index]) ? boards[0][index] : '';
      if (man) {
        row += (empty || '') + man;
        empty = 0;
      } else empty += 1;
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}
