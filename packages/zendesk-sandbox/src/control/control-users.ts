// The control API's users of an account: added, listed, and their role changed.
import type { Request, Router } from 'express';
import { z } from 'zod';
import { serializeUser } from '../api/serialize';
import type { SandboxContext } from '../api/context';
import { accountOf, userOf } from './control-lookups';

const ZRole = z.enum(['admin', 'agent', 'end-user']);
export const ZUserInput = z.object({
  name: z.string().min(1),
  email: z.string().email(),
  role: ZRole,
  locale: z.string().optional(),
  time_zone: z.string().optional(),
  role_type: z.number().int().min(0).max(5).nullable().optional(),
  ticket_restriction: z
    .enum(['organization', 'groups', 'assigned', 'requested'])
    .nullable()
    .optional(),
  organization_id: z.number().int().nullable().optional(),
  group_ids: z.array(z.number().int()).optional(),
});

export function userControlRoutes(router: Router, ctx: SandboxContext): void {
  const { state, urls } = ctx;
  const account = (req: Request) => accountOf(state, req);

  router.post('/accounts/:subdomain/users', (req, res) => {
    const acc = account(req);
    res
      .status(201)
      .json({ user: serializeUser(urls, acc, state.createUser(acc, ZUserInput.parse(req.body))) });
  });

  // An admin demoted (or promoted) in Admin Center: what the connector's role re-check must notice.
  router.patch('/accounts/:subdomain/users/:id', (req, res) => {
    const acc = account(req);
    const found = userOf(acc, Number(req.params.id));
    found.role = z.object({ role: ZRole }).parse(req.body).role;
    found.updated_at = state.isoNow();
    res.json({ user: serializeUser(urls, acc, found) });
  });

  router.get('/accounts/:subdomain/users', (req, res) => {
    const acc = account(req);
    res.json({ users: [...acc.users.values()].map((u) => serializeUser(urls, acc, u)) });
  });
}
