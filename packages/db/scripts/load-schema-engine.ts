import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type TSchemaEngineModule = typeof bindings;

// The repository's lib settings (no DOM) leave WebAssembly untyped as a value; this is the part used.
type WasmApi = {
  instantiate(
    bytes: Uint8Array,
    imports: Record<string, object>,
  ): Promise<{ instance: { exports: { __wbindgen_start: () => void } } }>;
};
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let loaded: TSchemaEngineModule | undefined;

/**
 * The package's entry point imports the .wasm file as an ES module, which Node 20 only allows behind
 * --experimental-wasm-modules; instantiate it by hand instead, as its own glue file would.
 */
export async function loadSchemaEngine(): Promise<TSchemaEngineModule> {
  if (loaded) return loaded;
  // The package exports no subpath for the .wasm itself: find it next to the glue file.
  const glue = createRequire(import.meta.url).resolve(
    '@prisma/schema-engine-wasm/schema_engine_bg',
  );
  const wasmPath = path.join(path.dirname(glue), 'schema_engine_bg.wasm');
  const { instance } = await wasmApi.instantiate(readFileSync(wasmPath), {
    './schema_engine_bg.js': bindings,
  });
  bindings.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  loaded = bindings;
  return loaded;
}
