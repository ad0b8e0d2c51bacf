import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { initWasm, Resvg } from '@resvg/resvg-wasm';

/** The marketplace's two icons: assets/<name>.png from brand/<name>.svg at its required size. */
export const LOGOS = [
  { name: 'logo', size: 320 },
  { name: 'logo-small', size: 128 },
] as const;

let ready: Promise<void> | undefined;

function loadRenderer(): Promise<void> {
  const wasm = createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm');
  // The wasm module is loaded once per process, but each Vite build bundles this file anew (and
  // with it `ready`): a second build in one process (tests sharing a worker) finds it initialised.
  ready ??= readFile(wasm)
    .then((bytes) => initWasm(bytes))
    .catch((error: unknown) => {
      if (!String(error).includes('Already initialized')) throw error;
    });
  return ready;
}

export async function renderLogo(name: string, size: number): Promise<Buffer> {
  await loadRenderer();
  const svg = await readFile(
    fileURLToPath(new URL(`../brand/${name}.svg`, import.meta.url)),
    'utf8',
  );
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
  return Buffer.from(png);
}
