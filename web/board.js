// The workbench's vendor entry: what ksolve/web/static/*.js import from
// ksolve/web/static/vendor/chessground.js (bundled by `npm run build`, see build.mjs).
//
// - Chessground (lichess, GPL-3.0-or-later): the board, with drag and click moves,
//   free placement for composing, per-square CSS classes for painting hidden units' squares.
// - chessops (lichess, GPL-3.0-or-later): SAN replay of a finished Try-it game on the
//   revealed position.
// - parse (smol-toml, BSD-3-Clause): reads a problem's TOML in the page, so a pasted or
//   loaded file fills the compose form (the server's loader still judges it).
export { Chessground } from 'chessground';
import { Chess, makeSquare, fen, san } from 'chessops';
export { Chess, makeSquare };
export const { parseFen, makeFen } = fen;
export const { parseSan } = san;
export { parse as parseToml } from 'smol-toml';
