import type { RequestHandler } from 'express';
import { setLocals } from './context';

const PATH_PREFIX = /^\/_z\/([a-z0-9][a-z0-9-]*)(\/.*)?$/;
const HOST_SUBDOMAIN = /^([a-z0-9][a-z0-9-]*)\.localhost(:\d+)?$/i;

/**
 * Picks the account for a request. Primary scheme: a path prefix `/_z/<subdomain>/...`, stripped before
 * routing so the rest of the URL is exactly Zendesk's. Also accepted: a Host of `<subdomain>.localhost`.
 */
export function resolveAccount(): RequestHandler {
  return (req, res, next) => {
    const match = PATH_PREFIX.exec(req.path);
    if (match?.[1]) {
      setLocals(res, { subdomain: match[1] });
      req.url = req.url.slice(`/_z/${match[1]}`.length) || '/';
      if (!req.url.startsWith('/')) req.url = `/${req.url}`;
      return next();
    }
    const host = HOST_SUBDOMAIN.exec(req.headers.host ?? '');
    if (host?.[1]) setLocals(res, { subdomain: host[1].toLowerCase() });
    next();
  };
}
