// Where a process's CPU time went, from the .cpuprofile files `node --cpu-prof` writes (the
// throughput benchmark's `--cpu-prof`): the functions with the most self time (file:line), and the
// source files by inclusive time (a sample counts once for every file on its stack; node's own
// modules only with --internals). Shares are of the busy time: the samples less (idle). Positions
// in a bundle with a linked source map (the connector's dist/main.js) are mapped to the sources; a
// file run through tsx has no map on disk, so its lines are those of tsx's output, near the source's.
//
//   npx tsx scripts/cpu-profile-summary.ts <file.cpuprofile | folder>... [--top 25] [--internals]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    internals: { type: 'boolean', default: false },
  },
});
const top = Number(values.top);
const files = positionals.flatMap((given) =>
  statSync(given).isDirectory()
    ? readdirSync(given)
        .filter((file) => file.endsWith('.cpuprofile'))
        .sort()
        .map((file) => path.join(given, file))
    : [given],
);
if (files.length === 0) {
  console.error(
    'usage: tsx scripts/cpu-profile-summary.ts <file.cpuprofile | folder>... [--top 25]',
  );
  process.exit(2);
}

// --- positions: through the script's source map when it has one on disk
const maps = new Map<string, { map: SourceMap; dir: string } | null>();

function sourceMapOf(url: string): { map: SourceMap; dir: string } | null {
  if (maps.has(url)) return maps.get(url)!;
  let found: { map: SourceMap; dir: string } | null = null;
  try {
    const file = fileURLToPath(url);
    const text = readFileSync(file, 'utf8');
    const name = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
    const mapFile = name && !name.startsWith('data:') ? path.resolve(path.dirname(file), name) : '';
    if (mapFile && existsSync(mapFile)) {
      const payload = JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload;
      found = { map: new SourceMap(payload), dir: path.dirname(mapFile) };
    }
  } catch {
    // not a file on disk (node:internal, an evaluated script): its position as given
  }
  maps.set(url, found);
  return found;
}

/** A path to show: inside the repository relative to it, node's own as they are. */
function shown(file: string): string {
  if (file.startsWith('node:') || !path.isAbsolute(file)) return file;
  const relative = path.relative(root, file);
  return relative.startsWith('..') ? file : relative;
}

interface Place {
  /** The source file (or the frame's own name for V8's pseudo-frames). */
  file: string;
  /** file:line, for the function. */
  at: string;
}

const places = new Map<string, Place>();

function placeOf(frame: CallFrame): Place {
  const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
  const known = places.get(key);
  if (known) return known;
  let place: Place;
  if (!frame.url) {
    place = { file: `(${frame.functionName.replace(/[()]/g, '') || 'native'})`, at: '' };
  } else {
    const mapped = frame.url.startsWith('file:') ? sourceMapOf(frame.url) : null;
    const entry = mapped?.map.findEntry(frame.lineNumber, frame.columnNumber) as
      { originalSource?: string; originalLine?: number } | undefined;
    if (mapped && entry?.originalSource !== undefined && entry.originalLine !== undefined) {
      const source = entry.originalSource.startsWith('file:')
        ? fileURLToPath(entry.originalSource)
        : path.resolve(mapped.dir, entry.originalSource);
      const file = shown(source);
      place = { file, at: `${file}:${entry.originalLine + 1}` };
    } else {
      const file = shown(frame.url.startsWith('file:') ? fileURLToPath(frame.url) : frame.url);
      place = { file, at: `${file}:${frame.lineNumber + 1}` };
    }
  }
  places.set(key, place);
  return place;
}

// --- the samples' time, by function (self) and by file (inclusive)
const selfByFunction = new Map<string, number>();
const inclusiveByFile = new Map<string, number>();
let totalUs = 0;
let idleUs = 0;

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const fileSets = new Map<number, string[]>(); // node -> the files on its stack, once each
  const filesOn = (id: number): string[] => {
    const known = fileSets.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const above = parent.has(id) ? filesOn(parent.get(id)!) : [];
    const own = node.callFrame.url ? placeOf(node.callFrame).file : null;
    const set = own && !above.includes(own) ? [...above, own] : above;
    fileSets.set(id, set);
    return set;
  };
  // a sample's time runs until the next one
  for (const [index, id] of profile.samples.entries()) {
    const us = profile.timeDeltas[index + 1] ?? 0;
    if (us <= 0) continue;
    totalUs += us;
    const frame = byId.get(id)!.callFrame;
    if (!frame.url && frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const place = placeOf(frame);
    const name = `${frame.functionName || '(anonymous)'}${place.at ? ` ${place.at}` : ''}`;
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + us);
    for (const sourceFile of filesOn(id))
      inclusiveByFile.set(sourceFile, (inclusiveByFile.get(sourceFile) ?? 0) + us);
  }
}

const busyUs = totalUs - idleUs;
const ms = (us: number) => (us / 1000).toFixed(0).padStart(8);
const share = (us: number) => `${((100 * us) / (busyUs || 1)).toFixed(1).padStart(5)}%`;
const ranked = (counts: Map<string, number>) =>
  [...counts].sort(([, a], [, b]) => b - a).slice(0, top);
const internal = (file: string) => file.startsWith('node:') || file.startsWith('(');

console.log(
  `${files.length} profile(s): ${(totalUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1e6).toFixed(1)} s busy ` +
    `(${(idleUs / 1e6).toFixed(1)} s idle): ${files.map((f) => shown(path.resolve(f))).join(', ')}`,
);
console.log(`\ntop ${top} by self time (ms, share of the busy time):`);
for (const [name, us] of ranked(selfByFunction)) console.log(`${ms(us)} ${share(us)}  ${name}`);
console.log(
  `\ntop ${top} source files by inclusive time (a sample counts once per file on its stack` +
    `${values.internals ? '' : "; node's own modules left out"}):`,
);
const shownFiles = new Map(
  [...inclusiveByFile].filter(([file]) => values.internals || !internal(file)),
);
for (const [file, us] of ranked(shownFiles)) console.log(`${ms(us)} ${share(us)}  ${file}`);
