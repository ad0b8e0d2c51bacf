// The routes an Express app answers, read from its router stack, so a test that must cover every
// route notices a new one.
import type { Express } from 'express';

export interface AppRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** The path a `use` mounted its middleware or router at (`/` when none was given). */
  rawPath?: string | string[];
}

export function routesOf(app: Express): AppRoute[] {
  const routes: AppRoute[] = [];
  const visit = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') {
              routes.push({ method: method.toUpperCase(), path: `${prefix}${path}` });
            }
          }
        }
      } else if (layer.handle?.stack) {
        // a router mounted under a path answers its routes below that path
        const mounts = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath ?? '/'];
        for (const mount of mounts) {
          visit(layer.handle.stack, mount === '/' ? prefix : `${prefix}${mount}`);
        }
      }
    }
  };
  visit((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes;
}
