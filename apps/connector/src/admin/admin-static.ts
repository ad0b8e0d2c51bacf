// The built admin page (ADMIN_DIST_DIR) under /admin/, with a strict Content Security Policy:
// scripts only from this origin, no inline script, no framing, API calls to this origin only.
// Styles allow 'unsafe-inline' because Garden's styled-components inserts <style> elements at
// run time; no attacker-controlled string is ever rendered as markup (React renders text).
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';

export const ADMIN_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function adminStaticRouter(options: { distDir: string }): Router {
  const { distDir } = options;
  const router = express.Router();
  router.use('/admin', (req, res, next) => {
    if (req.path.startsWith('/api/') || req.path === '/sign-in') {
      next();
      return;
    }
    res.setHeader('Content-Security-Policy', ADMIN_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  // (non-strict routing: this route also sees /admin/, which must not redirect to itself)
  router.get('/admin', (req, res, next) => {
    if (req.path !== '/admin') return next();
    res.redirect(301, '/admin/');
  });
  router.use(
    '/admin',
    express.static(distDir, {
      index: false,
      fallthrough: true,
      setHeaders: (res, file) => {
        // hashed asset names can be cached; the page itself is always fetched again
        res.setHeader(
          'Cache-Control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    }),
  );
  router.get('/admin/', (_req, res) => {
    const index = path.join(distDir, 'index.html');
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text')
        .send('The admin page is not built: run npm run build (or set ADMIN_DIST_DIR).');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
