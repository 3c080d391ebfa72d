// Bundles web/board.js into ksolve/web/static/vendor/chessground.js (one ES module, minified)
// and copies chessground's CSS and the licences next to it. Run: npm ci && npm run build.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'ksolve', 'web', 'static', 'vendor');
const modules = join(here, 'node_modules');
mkdirSync(out, { recursive: true });

const version = name => JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version;
await build({
  entryPoints: [join(here, 'board.js')],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  legalComments: 'none', // the licences are shipped as files next to the bundle
  banner: {
    js: `/* chessground ${version('chessground')} and chessops ${version('chessops')} (GPL-3.0-or-later, ` +
        `LICENSE-chessground, LICENSE-chessops), @badrap/result ${version('@badrap/result')} (MIT, ` +
        `LICENSE-badrap-result), smol-toml ${version('smol-toml')} (BSD-3-Clause, LICENSE-smol-toml); ` +
        'bundled by web/build.mjs */',
  },
  outfile: join(out, 'chessground.js'),
});

for (const css of ['base', 'brown', 'cburnett']) {
  copyFileSync(join(modules, 'chessground', 'assets', `chessground.${css}.css`), join(out, `chessground.${css}.css`));
}
copyFileSync(join(modules, 'chessground', 'LICENSE'), join(out, 'LICENSE-chessground'));
copyFileSync(join(modules, 'chessops', 'LICENSE.txt'), join(out, 'LICENSE-chessops'));
copyFileSync(join(modules, '@badrap', 'result', 'LICENSE'), join(out, 'LICENSE-badrap-result'));
copyFileSync(join(modules, 'smol-toml', 'LICENSE'), join(out, 'LICENSE-smol-toml'));
console.log(`built ${out}`);
